"""The ruleset tables the engine reads (``ENGINE_TABLES``) and their compiled form (:class:`Tables`).

Every number the engine uses comes from here or from the cards: compile defensively against exactly what the
``TableSpec`` guarantees (columns present, numeric cells finite, key rows present).
"""
from __future__ import annotations

from dataclasses import dataclass

from studio.model.requirements import TableSpec

ENGINE_TABLES: tuple[TableSpec, ...] = (
    TableSpec("target-speed", "BfOps p.7", ("max_in", "to_hit"), numeric=("max_in", "to_hit")),
    TableSpec("to-hit", "BfOps p.22", ("band", "to_hit"), numeric=("to_hit",), keys=("short", "medium", "long")),
    TableSpec("spot", "BfOps p.14", ("max_in", "spot"), numeric=("max_in", "spot")),
    TableSpec("spot-modifiers", "BfOps p.12", ("condition", "modifier"), numeric=("modifier",),
              keys=("low_light", "pitch_dark", "suppressed", "fast", "recon", "defilade", "alert", "burning_slick",
                    "hunkered_down")),
    TableSpec("hit-modifiers", "BfOps p.22", ("condition", "modifier"), numeric=("modifier",),
              keys=("camouflage", "defilade", "low_profile", "through", "agl_burst", "sniper", "burning_slick",
                    "smoke")),
    TableSpec("terrain", "BfOps p.7", ("terrain", "spot_per_in", "hit_per_in", "height_in", "cover", "move_factor"),
              numeric=("spot_per_in", "hit_per_in", "height_in", "cover", "move_factor"), keys=("open",)),
    TableSpec("armour-arcs", "BfOps p.22", ("face", "max_deg"), numeric=("max_deg",), keys=("front", "side", "rear")),
    TableSpec("ground-bog", "BfOps p.11", ("ground", "below_cruise", "cruise", "above_cruise"),
              numeric=("below_cruise", "cruise", "above_cruise"), nullable=("below_cruise", "cruise", "above_cruise"),
              keys=("rough", "extreme")),
    TableSpec("mines", "BfOps p.11", ("density", "explode_on", "at_pen", "ap_radius_in"),
              numeric=("explode_on", "at_pen", "ap_radius_in"), keys=("low", "high")),
    TableSpec("max-hits", "BfOps 8.2", ("max_fire_rate", "max_hits"), numeric=("max_fire_rate", "max_hits")),
    TableSpec("infantry-hits", "BfOps p.14", ("max_mm", "mortar_hits", "gun_hits", "splash_in", "splash_hits"),
              numeric=("max_mm", "mortar_hits", "gun_hits", "splash_in", "splash_hits")),
    TableSpec("weapon-priority", "BfOps p.7", ("weapon_class", "priority"), numeric=("priority",)),
    TableSpec("sequence", "BfOps p.8", ("item", "value"), numeric=("value",),
              keys=("move_phases", "fog_of_war", "suppression", "cqb_range_in", "adjacent_in", "recovery_phases",
                    "deviation_die", "direction_die", "barrage_radius_in", "supply_jeep_loads",
                    "supply_medium_truck_loads", "medical_phases", "medical_hits")),
    TableSpec("procedures", "BfOps 1.1", ("item", "value"), numeric=("value",),
              keys=("double_time_factor", "minefield_zone_in", "minefield_spot", "engineer_minefield_spot",
                    "collapse_bailout", "grenade_turns", "agl_burst_dice", "agl_reload_phases",
                    "column_follow_in", "minefield_stop_short_in", "slick_burn_turns", "slick_pen",
                    "fence_stop_phases", "mine_clear_phases", "eod_clear_bonus", "demolition_clear_bonus",
                    "large_force_cards_per_fog", "flare_small_mm", "flare_radius_small_in",
                    "flare_radius_large_in", "flare_sequences", "corrected_fire", "fo_correction",
                    "max_correction", "heavy_truck_factor", "dip_first_fire_difference", "deep_snow_extreme_bog",
                    "iced_road_bog", "demolition_breach_bonus", "fill_in_per_phase", "flail_clear_bonus",
                    "flail_pace_in", "wire_prepare_phases")),
    TableSpec("obstacle-crossing", "BfOps p.9-10", ("obstacle", "mover", "passes", "bog", "speed_factor"),
              numeric=("passes", "bog", "speed_factor"), nullable=("bog",)),
    TableSpec("night-vision", "BfOps p.12", ("generation", "nato", "warpac"), numeric=("nato", "warpac"),
              keys=("gen0", "gen1", "gen2", "gen3")),
    TableSpec("bridging", "BfOps p.19", ("bridge", "capacity_tons", "strict", "deploy_phases", "deploy_turns",
                                         "cruise_only"),
              numeric=("capacity_tons", "strict", "deploy_phases", "deploy_turns", "cruise_only"),
              keys=("truck_mounted", "avlb_warpac", "avlb_nato")),
    TableSpec("demolition", "BfOps p.20", ("level", "fire_team_phases", "squad_phases", "pen"),
              numeric=("fire_team_phases", "squad_phases", "pen"), integer=("level",)),
    TableSpec("deck", "BfOps p.17", ("source", "warpac", "nato"), numeric=("warpac", "nato"),
              keys=("platoon", "company", "battalion", "cross_branch", "full_battery_platoons")),
    TableSpec("deviation", "BfOps p.13", ("max_roll", "deviation_in"), numeric=("max_roll", "deviation_in")),
)


def _rows(rs, table_id: str) -> list[dict]:
    t = rs.table(table_id)
    return [dict(zip(t.columns, row)) for row in t.rows if len(row) == len(t.columns)]


def _keyed(rs, table_id: str, key: str, value: str) -> dict:
    return {str(r[key]): r[value] for r in _rows(rs, table_id)}


def _bands(rs, table_id: str, limit: str, value: str) -> tuple[tuple[float, float], ...]:
    return tuple(sorted((float(r[limit]), float(r[value])) for r in _rows(rs, table_id)))


@dataclass(frozen=True)
class Tables:
    """The compiled ruleset tables (one instance per game; no module-level cache)."""

    target_speed: tuple[tuple[float, float], ...]
    to_hit: dict
    spot: tuple[tuple[float, float], ...]
    spot_mod: dict
    hit_mod: dict
    terrain: dict  # terrain id -> row dict
    arcs: tuple[tuple[float, str], ...]
    bog: dict      # ground -> {band: modifier or None}
    mines: dict
    max_hits: tuple[tuple[float, float], ...]
    infantry_hits: tuple[tuple, ...]
    priority: dict
    sequence: dict
    deck: dict
    procedures: dict
    crossing: dict   # (obstacle, mover) -> row
    night_vision: dict = None   # generation -> {"NATO": offset, "WARPAC": offset}
    deviation: tuple[tuple[float, float], ...] = ()   # modified deviation die -> inches (p.13, placeholder)
    bridging: dict = None       # bridge type (truck_mounted, avlb_<bloc>) -> row (BfOps p.19)
    demolition: dict = None     # charge level -> row (BfOps p.20)

    @classmethod
    def compile(cls, rs) -> "Tables":
        terrain = {str(r["terrain"]): r for r in _rows(rs, "terrain")}
        arcs = tuple(sorted((float(v), k) for k, v in _keyed(rs, "armour-arcs", "face", "max_deg").items()))
        bog = {str(r["ground"]): {b: r[b] for b in ("below_cruise", "cruise", "above_cruise")}
               for r in _rows(rs, "ground-bog")}
        mines = {str(r["density"]): r for r in _rows(rs, "mines")}
        inf = tuple(sorted((float(r["max_mm"]), r["mortar_hits"], r["gun_hits"], r["splash_in"], r["splash_hits"])
                           for r in _rows(rs, "infantry-hits")))
        deck = {str(r["source"]): {"WARPAC": r["warpac"], "NATO": r["nato"]} for r in _rows(rs, "deck")}
        return cls(_bands(rs, "target-speed", "max_in", "to_hit"), _keyed(rs, "to-hit", "band", "to_hit"),
                   _bands(rs, "spot", "max_in", "spot"), _keyed(rs, "spot-modifiers", "condition", "modifier"),
                   _keyed(rs, "hit-modifiers", "condition", "modifier"), terrain, arcs, bog, mines,
                   _bands(rs, "max-hits", "max_fire_rate", "max_hits"), inf,
                   _keyed(rs, "weapon-priority", "weapon_class", "priority"),
                   _keyed(rs, "sequence", "item", "value"), deck, _keyed(rs, "procedures", "item", "value"),
                   {(str(r["obstacle"]), str(r["mover"])): r for r in _rows(rs, "obstacle-crossing")},
                   {str(r["generation"]): {"NATO": r["nato"], "WARPAC": r["warpac"]}
                    for r in _rows(rs, "night-vision")}, _bands(rs, "deviation", "max_roll", "deviation_in"),
                   bridging={str(r["bridge"]): r for r in _rows(rs, "bridging")},
                   demolition={int(r["level"]): r for r in _rows(rs, "demolition")})

    def fingerprint(self) -> str:
        return repr(self)

    # ------------------------------------------------------------------ lookups
    def procedure(self, item: str) -> float:
        """A number of the update 1.1 procedures (table ``procedures``; the spec guarantees the keys)."""
        return float(self.procedures[item])

    def band_value(self, bands, x: float) -> float:
        """The value of the first band whose upper limit is at least ``x`` (the last band beyond)."""
        for limit, value in bands:
            if x <= limit:
                return value
        return bands[-1][1] if bands else 0.0

    def terrain_row(self, terrain: str) -> dict:
        return self.terrain.get(terrain) or self.terrain["open"]

    def face(self, angle: float) -> str:
        """Armour face struck by a shot arriving ``angle`` degrees off the target's facing."""
        for limit, face in self.arcs:
            if angle <= limit:
                return face
        return self.arcs[-1][1]

    def max_hits_for(self, fire_rate: float) -> float | None:
        """Max hits per unit per phase for a Fire Rate (8.2); None when the band is lost (X1)."""
        for limit, hits in self.max_hits:
            if fire_rate <= limit:
                return hits
        return None

    def infantry_row(self, caliber_mm: float):
        for row in self.infantry_hits:
            if caliber_mm <= row[0]:
                return row
        return self.infantry_hits[-1] if self.infantry_hits else None
