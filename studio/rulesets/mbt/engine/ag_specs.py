"""The Advanced Game tables the MBT engine reads (``RulesetPlugin.engine_tables``, with the Basic Game's in
``data.ENGINE_TABLES``). Kept free of engine imports so the declarations stay cheap."""
from __future__ import annotations

from studio.model.requirements import TableSpec

from .opt_fire_specs import FIRE_OPT_TABLES

GRADES = ("elite", "veteran", "seasoned", "regulars", "green", "raw")
BANDS = ("P", "S", "M", "L", "E")
AP_BANDS = tuple(f"ap_{b}" for b in BANDS)
GP_BANDS = tuple(f"gp_{b}" for b in BANDS)
AG_HIT_IDS = ("target-moving-atgm", "shooter-suppressed", "heat-haze")
GP_MOD_IDS = ("target-moving", "target-p-type", "target-a-type", "target-cover-medium", "target-cover-heavy",
              "short-halt-sb0", "short-halt-sb1", "short-halt-sb2", "short-halt-sb3", "shooter-damaged",
              "shooter-suppressed", "brew-up-smoke", "overwatch", "overwatch-cis", "overwatch-adjust",
              "overwatch-adjust-cis", "coax-pointblank", "heat-haze")
IF_MOD_IDS = ("observer-suppressed", "observer-turret-damaged", "target-moving-if")
AP_RESULTS = ("ND", "DM", "KO", "BU")
GRADE_COLS = ("bail_out", "recovery_max", "if_response", "hth_ca")
CLOSE_IDS = ("ca-gp-squad", "ca-gp-half", "ca-gp-section", "ca-max-gpd", "ca-moving", "ca-suppressed", "ca-p-type",
             "ca-s-type", "uphill", "hth-half", "hth-section", "hth-defender-suppressed")
COUNTS = ("c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "tens")

AG_TABLES = (
    TableSpec("initiative", "MBT 6.3.2", ("grade", "modifier"), ("modifier",), ("modifier",), keys=GRADES),
    TableSpec("command-range", "MBT 6.2.1.1", ("grade", "range"), ("range",), ("range",), keys=GRADES),
    TableSpec("available-commands", "MBT 6.2.1.1.1", ("grade",) + COUNTS, COUNTS, COUNTS, keys=GRADES),
    TableSpec("ap-number-of-hits", "MBT 6.5.2.1", ("hit_number", "rof", "hits", "roll_min", "roll_max"),
              ("hit_number", "hits", "roll_min", "roll_max"), ("hit_number", "hits", "roll_min", "roll_max"),
              min_rows=0),
    TableSpec("ap-hits-by-rof", "MBT 6.5.2.1", ("rof", "hits", "max_fraction"), ("hits", "max_fraction"),
              ("hits",), min_rows=0),
    TableSpec("ap-hit-locations", "MBT 6.5.2.2", ("angle", "tens", "location", "hull_star"), ("tens",), ("tens",),
              min_rows=40, keys=("front", "front_side", "rear_side", "rear")),
    TableSpec("special-armor", "MBT 6.5.2.4", ("type", "operation", "value"), ("value",),
              keys=("CEx1.25", "CEx1.5", "CEx2", "ERAK", "ERAC")),
    TableSpec("special-armor-rows", "MBT 6.5.2.4.2", ("item", "value"), ("value",), ("value",), keys=("row-step",)),
    TableSpec("era-effect", "MBT 6.5.2.4.2", ("era", "energy", "tandem", "roll_max"), ("roll_max",), ("roll_max",),
              min_rows=0),
    TableSpec("ap-damage-default", "MBT 6.5.2.6", ("digit", "result"), ("digit",), ("digit",),
              keys=tuple(str(d) for d in range(1, 11))),
    TableSpec("ap-damage-modifiers", "MBT 6.5.2.6", ("id", "value"), ("value",), ("value",),
              keys=("s-type", "minimum")),
    TableSpec("bail-out", "MBT 6.5.2.7", ("result", "crew"), ("crew",), ("crew",), keys=("ND", "DM", "TK")),
    TableSpec("unit-grade-modifiers", "MBT 6.5.2.5", ("grade",) + AP_BANDS + GP_BANDS + GRADE_COLS,
              AP_BANDS + GP_BANDS + GRADE_COLS, AP_BANDS + GP_BANDS + GRADE_COLS, keys=GRADES),
    TableSpec("close-combat", "MBT 6.6.1", ("item", "value"), ("value",), ("value",), keys=CLOSE_IDS),
    TableSpec("aa-modifiers", "MBT 6.7.8.2", ("id", "modifier"), ("modifier",), ("modifier",), keys=("hovering",)),
    TableSpec("called-if-response", "MBT 6.5.1.12", ("observer", "attached", "organic", "unattached"),
              ("attached", "organic", "unattached"), ("attached", "organic", "unattached"),
              keys=("fo", "command", "recon")),
    TableSpec("if-response-modifiers", "MBT 6.5.1.12.1", ("id", "modifier"), ("modifier",), ("modifier",),
              keys=IF_MOD_IDS),
    TableSpec("leg-gp-cover", "MBT 6.5.4.2.2", ("terrain", "construction", "cover")),
    TableSpec("weapon-sight-modifiers", "MBT 6.5.2.5", ("sight",) + AP_BANDS + GP_BANDS + ("max_range",),
              AP_BANDS + GP_BANDS + ("max_range",), AP_BANDS + GP_BANDS + ("max_range",), keys=("O",),
              nullable=("max_range",)),
    TableSpec("ag-hit-modifiers", "MBT 6.5.2.5", ("id", "modifier"), ("modifier",), ("modifier",), keys=AG_HIT_IDS),
    TableSpec("gp-fire-modifiers", "MBT 6.5.4.3", ("id", "modifier"), ("modifier",), ("modifier",), keys=GP_MOD_IDS),
    TableSpec("gp-combat", "MBT 6.5.4.4", ("gp_factor", "gp_defense", "n_effect", "s_effect"),
              ("gp_factor", "gp_defense", "n_effect", "s_effect"), ("gp_factor", "gp_defense", "n_effect", "s_effect")),
    TableSpec("gp-vehicle-effects", "MBT 6.5.4.4.2", ("item", "value"), ("value",), ("value",),
              keys=("damage-turret-max",)),
    TableSpec("bail-out-passengers", "MBT 6.5.2.7.2", ("result", "value"), ("value",), ("value",),
              keys=("ND", "DM", "TK", "KO", "BU", "SUP-DF", "SUP-IF")),
    TableSpec("passenger-gp-defense", "MBT 6.5.4.2.3", ("protection", "gp_defense"), ("gp_defense",),
              ("gp_defense",), keys=("under_cover", "none")),
    TableSpec("suppression-recovery", "MBT 6.8.4", ("id", "modifier"), ("modifier",), ("modifier",),
              keys=("command-not-nc", "attacked-this-turn")),
    TableSpec("ammo-limits", "MBT 5.16.2", ("id", "value"), ("value",), ("value",),
              keys=("ap-modifier", "gp-modifier", "atgm-roll-max")),
) + FIRE_OPT_TABLES

__all__ = ["AG_TABLES", "GRADES", "AP_RESULTS", "GP_MOD_IDS", "AG_HIT_IDS"]
