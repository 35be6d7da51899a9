"""The ruleset tables of the movement optional rules and Advanced movement (MBT 6.6.4.2, 7.29-7.34) the engine
reads. Kept free of engine imports so the declarations stay cheap (``data.ENGINE_TABLES`` adds them)."""
from __future__ import annotations

from studio.model.requirements import TableSpec

MINE_FIELDS = ("hasty", "fascam", "deliberate")
MINE_COLUMNS = tuple(str(g) for g in range(1, 11)) + ("leg",)
MINE_VALUE_IDS = ("hasty-gpd", "fascam-gpd", "deliberate-gpd", "plow-gp", "plow-loss-max", "quickmarch-modifier",
                  "helicopter-max-gpd")
BOG_MODIFIER_IDS = ("towing",)
OVERRUN_IDS = ("modifier", "max-gp")
PUSH_IDS = ("success-min", "per-5-tons")
CA_EXTRA_IDS = ("extra-section", "extra-half", "extra-squad", "c-indicator", "open-a-type", "unsupported",
                "dismount-attack", "flamethrower-ca", "flamethrower-hth")
HD_MOD_IDS = ("partial", "size+2", "size+1", "size+0", "size-1", "size-2")
GRADE_IDS = ("elite", "veteran", "seasoned", "regulars", "green", "raw")

MOVE_OPT_TABLES = (
    TableSpec("minefield-effects", "MBT 7.31.2", ("field", "column", "damage_max", "track_max", "effective_max"),
              ("damage_max", "track_max", "effective_max"), ("damage_max", "track_max", "effective_max"),
              keys=MINE_FIELDS),
    TableSpec("minefield-values", "MBT 7.31.3", ("item", "value"), ("value",), ("value",), keys=MINE_VALUE_IDS),
    TableSpec("bog-ranges", "MBT 7.29", ("terrain", "bog_max"), ("bog_max",), ("bog_max",), min_rows=0),
    TableSpec("bog-modifiers", "MBT 7.29", ("item", "value"), ("value",), ("value",), keys=BOG_MODIFIER_IDS),
    TableSpec("quickmarch-suppression", "MBT 6.6.4.2", ("grade", "roll_max"), ("roll_max",), ("roll_max",),
              keys=GRADE_IDS),
    TableSpec("quickmarch-terrain", "MBT 6.6.4.2", ("terrain",), min_rows=1),
    TableSpec("hull-down-ranges", "MBT 6.6.9", ("terrain", "hd_max"), ("hd_max",), ("hd_max",), min_rows=0),
    TableSpec("hull-down-terrain", "MBT 6.1.4.1.2", ("terrain",), min_rows=0),
    TableSpec("hull-down-modifiers", "MBT 6.6.9", ("item", "value"), ("value",), ("value",), keys=HD_MOD_IDS),
    TableSpec("hull-down-grade", "MBT 6.6.9", ("grade", "modifier"), ("modifier",), ("modifier",), keys=GRADE_IDS),
    TableSpec("hull-down-front-side", "MBT 6.5.2.2.3", ("position", "tens"), ("tens",), ("tens",),
              keys=("hd", "phd")),
    TableSpec("fire-start", "MBT 7.35.1", ("construction", "gp_min", "gp_max", "roll_max"),
              ("gp_min", "gp_max", "roll_max"), ("gp_min", "gp_max", "roll_max"), keys=("wood", "brick", "stone")),
    TableSpec("long-gun-terrain", "MBT 7.20", ("terrain",), min_rows=1),
    TableSpec("assault-cover-slots", "MBT 7.41", ("item", "value"), ("value",), ("value",),
              keys=("vehicle", "squad", "half", "section")),
    TableSpec("push-values", "MBT 7.30", ("item", "value"), ("value",), ("value",), keys=PUSH_IDS),
    TableSpec("avlb-span", "MBT 7.49", ("feature", "kind"), min_rows=1),
    TableSpec("avlb-values", "MBT 7.49", ("item", "value"), ("value",), ("value",), keys=("gpd",)),
    TableSpec("minefield-terrain", "MBT 7.31.1", ("terrain", "fascam"), min_rows=1),
    TableSpec("close-combat-extra", "MBT 6.6.1.1.2", ("item", "value"), ("value",), ("value",), keys=CA_EXTRA_IDS),
    TableSpec("support-terrain", "MBT 6.6.1.1.2", ("terrain",), min_rows=0),
    TableSpec("overrun-values", "MBT 6.6.10", ("item", "value"), ("value",), ("value",), keys=OVERRUN_IDS),
)

__all__ = ["MOVE_OPT_TABLES", "MINE_FIELDS", "MINE_COLUMNS", "MINE_VALUE_IDS"]
