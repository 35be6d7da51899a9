"""The ruleset data the World at War engine reads, compiled once per game into plain named records.

``ENGINE_TABLES`` declares every table (and the columns, numeric cells and row keys) the engine reads; the plugin
registers it, so validation refuses a ruleset the engine cannot run (``ruleset.engine-table``) and ``load_game``
never hands the engine a table it would trip over. ``compile_tables`` turns the validated tables, the terrain
movement costs (``terrain[].move_cost``: the one source of costs) and the hexside features into ``Tables``;
``Tables.fingerprint()`` hashes all of it (``Game.data_fingerprint``), so any cell the engine reads changes it.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from studio.model.requirements import TableSpec

#: constants the engine reads by name (WaW rule in the table's ``rule`` column)
CONSTANTS = (
    "stack_limit", "hq_per_hex", "soft_save", "armored_db_cap", "conditional_morale_cap",
    "conditional_morale_radius", "leader_dice_cap", "helicopter_fire_move_limit", "overrun_extra_mp",
    "overrun_multiplier", "hq_loss_roll", "hq_loss_destroyed_mod", "extended_range_factor", "disrupted_hit_number",
    "artillery_drift_roll", "artillery_missions_per_caller", "chemical_extra_mp", "thor_command_range",
    "thor_max_range", "end_turn_markers", "chaos_dice", "chaos_expand_dice", "chaos_cas_he_fp", "chaos_cas_he_to_hit",
    "chaos_breakdown", "chaos_berserk_hit_mod", "chaos_berserk_d6_max", "chaos_berserk_d10_max", "thor_end_roll",
    "thor_end_step", "chaos_sniper_radius", "fortune_dice", "smoke_duration", "jam_states", "sniper_range_city",
    "sniper_range_open", "sniper_removal_roll", "city_artillery_db", "assault_city_af", "assault_vs_vehicles_hit_mod",
    "ooc_rally_mod", "jammed_rally_mod", "airstrike_abort_roll", "extended_range_hit_mod", "reduced_range_hit_mod",
    "depleted_turns", "recon_command_factor", "unit_morale_default", "mines_clear_roll", "road_cost",
    "end_turn_draws",
)

#: Battlefield Chaos results the engine knows (the table's ``result`` column names one per roll)
CHAOS_RESULTS = (
    "not_dead_yet", "miscommunication", "close_air_support", "comms_breakdown", "berserk", "expand", "wear_and_tear",
    "insurrection", "friendly_fire", "alliance_leader", "volley_fire", "nato_leader", "thors_hammer", "battle_drill",
    "repairs", "fortune", "sniper", "none")

#: target class of the engine -> Targeting Table column
TARGET_COLUMNS = {"afv": "afv", "thin": "thin_skinned", "unarmored": "unarmored_vehicle", "soft": "infantry",
                  "helicopter": "helicopter"}
FIRE_ROWS = {"ap": "AP", "vehicle_he": "Vehicle HE", "infantry_he": "Infantry HE", "aa": "AA"}
HELI_ROWS = ("clear terrain", "hill, woods or city", "wooded hill")
BUILT_UP = ("city", "ruins", "skyscrapers")

ENGINE_TABLES = (
    TableSpec("constants", "WaW 1.4, 6.1, 1.6.1, 9.1, 11.0", columns=("name", "value"), numeric=("value",),
              keys=CONSTANTS),
    TableSpec("terrain_effects", "WaW TEC, 6.1, 7.1", min_rows=1, keys=("C",),
              columns=("code", "db_infantry", "db_vehicle", "concealment", "blocking", "terrain_class"),
              integer=("db_infantry", "db_vehicle")),
    TableSpec("battlefield_chaos", "WaW 11.0", columns=("roll", "result"), integer=("roll",)),
    TableSpec("volley_fire", "WaW Volley Fire", columns=("item", "value"), integer=("value",),
              keys=("support_units", "dice_per_support", "leadership_cap")),
    TableSpec("targeting", "WaW 6.1, Targeting Table", columns=("fire_type",) + tuple(TARGET_COLUMNS.values()),
              keys=tuple(FIRE_ROWS.values())),
    TableSpec("helicopter_los", "WaW 9.4", columns=("over", "flight_level"), integer=("flight_level",),
              keys=HELI_ROWS),
    TableSpec("moving_fire_effects", "WaW 6.1.3", columns=("level", "fp_mod", "hit_mod"),
              integer=("fp_mod", "hit_mod"), keys=("L1", "L2", "advanced_imaging")),
)


@dataclass
class Tables:
    """Everything the engine reads from the ruleset, by name (see the module docstring)."""

    const: dict = field(default_factory=dict)
    tec: dict = field(default_factory=dict)            # terrain code -> TEC row (column -> cell)
    move_cost: dict = field(default_factory=dict)      # terrain code -> {mobility class: MP or None}
    chaos: dict = field(default_factory=dict)          # roll -> result key
    volley: dict = field(default_factory=dict)         # item -> value
    targeting: dict = field(default_factory=dict)      # fire row key -> frozenset of target classes allowed
    heli_levels: tuple = (1, 2, 3)                     # flight level over clear / hill-woods-city / wooded hill
    mf_effects: dict = field(default_factory=dict)     # level -> (fp_mod, hit_mod)
    codes: dict = field(default_factory=dict)          # terrain_class -> frozenset of codes
    ridges: frozenset = frozenset()                    # hexside feature ids that are ridge lines (7.2)
    features: dict = field(default_factory=dict)       # hexside feature id -> {mobility: extra MP or None}

    def codes_of(self, *classes: str) -> frozenset:
        return frozenset(c for k in classes for c in self.codes.get(k, ()))

    def fingerprint(self) -> str:
        """A hash of every compiled value (the tables' cells the engine reads, costs, features)."""
        parts = [sorted(self.const.items()), sorted((k, sorted(v.items())) for k, v in self.tec.items()),
                 sorted((k, sorted(v.items())) for k, v in self.move_cost.items()), sorted(self.chaos.items()),
                 sorted(self.volley.items()), sorted((k, sorted(v)) for k, v in self.targeting.items()),
                 self.heli_levels, sorted(self.mf_effects.items()), sorted(self.ridges),
                 sorted((k, sorted(v.items())) for k, v in self.features.items())]
        return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def _rows(ruleset, table_id: str) -> list[dict]:
    t = ruleset.table(table_id)
    return [dict(zip(t.columns, row)) for row in t.rows]


def _allowed(cell) -> bool:
    return cell is True or (isinstance(cell, str) and cell.startswith("yes"))


def compile_tables(ruleset) -> Tables:
    """Compile a ruleset that passed the ``ENGINE_TABLES`` checks (so every key and column exists)."""
    t = Tables()
    t.const = {r["name"]: r["value"] for r in _rows(ruleset, "constants")}
    for r in _rows(ruleset, "terrain_effects"):
        t.tec[r["code"]] = r
        t.codes.setdefault(r["terrain_class"], set()).add(r["code"])
    t.codes = {k: frozenset(v) for k, v in t.codes.items()}
    t.move_cost = {tt.code: dict(tt.move_cost) for tt in ruleset.terrain}
    t.chaos = {r["roll"]: (r["result"] if r["result"] in CHAOS_RESULTS else "none")
               for r in _rows(ruleset, "battlefield_chaos")}
    t.volley = {r["item"]: r["value"] for r in _rows(ruleset, "volley_fire")}
    targeting = {r["fire_type"]: r for r in _rows(ruleset, "targeting")}
    t.targeting = {key: frozenset(tc for tc, col in TARGET_COLUMNS.items() if _allowed(targeting[row].get(col)))
                   for key, row in FIRE_ROWS.items()}
    heli = {r["over"]: r["flight_level"] for r in _rows(ruleset, "helicopter_los")}
    t.heli_levels = tuple(heli[k] for k in HELI_ROWS)
    t.mf_effects = {r["level"]: (r["fp_mod"], r["hit_mod"]) for r in _rows(ruleset, "moving_fire_effects")}
    t.ridges = frozenset(f.id for f in ruleset.hexside_features if f.los.blocks)
    t.features = {f.id: dict(f.move_cost) for f in ruleset.hexside_features}
    return t
