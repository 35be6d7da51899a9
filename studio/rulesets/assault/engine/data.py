"""Compile the Assault ruleset document into plain engine data, and the table specs the engine reads.

Every number comes from ``ruleset.yaml`` (tables read by id); nothing here is a table value. Tables are
compiled defensively against exactly what their ``TableSpec`` guarantees (validation refuses the rest).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from studio.model.requirements import TableSpec

CONSTANT_KEYS = (
    "die-faces", "platoon-steps", "section-steps", "spotting-range-base", "spotting-range-per-level",
    "fire-stack-steps", "road-stack-steps", "default-ops", "ops-visible", "ops-not-visible", "cover-divisor",
    "multi-target-divisor", "multi-target-offset", "missile-woods-divisor", "suppressed-afv-hit",
    "double-hit-margin", "is-hit-offset", "defence-stack-free-steps", "defence-floor-divisor", "morale-company",
    "morale-mech-inf", "morale-hq-toc", "suppressed-afv-close-range", "opp-fire-any-hex-range",
    "opp-fire-second-hex-range", "opp-fire-max-range", "opp-fire-missile-max-range",
    "facing-change-mp", "incendiary-fire-per-screen", "offboard-steps", "entrenchment-steps", "clgp-hit",
    "clgp-designator-range", "ammo-tier-shots", "cross-attach-ops", "cross-attach-us-company",
    "cross-attach-us-battalion", "cross-attach-soviet-battalion", "hq-self-rally-ops", "steep-slope-drop",
    "spotter-town-levels", "toc-eliminated-drain", "rooftop-levels")

DEFENCE_CLASSES = ("afv", "personnel", "weapons", "nav")

ENGINE_TABLES = (
    TableSpec("constants", "Assault 1", columns=("id", "value"), integer=("value",), keys=CONSTANT_KEYS),
    TableSpec("hit-confirmation", "Assault 13.B.3", columns=("armour", "addition"), integer=("addition",),
              keys=("chobham", "laminate", "other")),
    TableSpec("fire-ranges", "Assault 12.B.1", columns=("column", "range_min", "range_max"),
              integer=("range_min", "range_max")),
    TableSpec("spotting", "Assault 10.D", columns=("range_max", "base"), integer=("range_max", "base")),
    TableSpec("command-ratings", "Assault 4.B.1", columns=("roll", "hq_command", "toc_command", "toc_planning"),
              integer=("roll", "hq_command", "toc_command", "toc_planning"), keys=tuple(range(1, 11))),
    TableSpec("target-status", "Assault 10.D", columns=("status", "modifier"), integer=("modifier",),
              keys=("moving", "just-fired")),
    TableSpec("spotter-status", "Assault 10.D", columns=("status", "modifier"), integer=("modifier",),
              keys=("armored-vehicle", "recon")),
    # mixed cells (numbers, 'Auto', 'P', 'F', result codes): the shape only; the engine reads them by column
    TableSpec("terrain-spotting", "Assault 10.D", columns=("terrain", "personnel_open", "weapon_open",
                                                          "vehicle_open")),
    TableSpec("terrain-effects", "Assault 7.B", columns=("terrain", "t_march", "t_combat", "w_march", "w_combat",
                                                        "r_march", "r_combat", "leg_roll", "amphibious"),
              keys=("road", "steep-slope")),
    TableSpec("conventional-defence", "Assault 14.A",
              integer=tuple(f"{c}_{k}" for c in DEFENCE_CLASSES for k in ("open", "cover")), columns=("terrain",)),
    TableSpec("indirect-defence", "Assault 19.C.3", columns=("terrain",) + DEFENCE_CLASSES, integer=DEFENCE_CLASSES,
              keys=("clear", "entrenchment")),
    TableSpec("indirect-delay", "Assault 19.B.3", columns=("observer", "us", "soviet"), integer=("us", "soviet"),
              keys=("firing-unit", "hq", "op", "other")),
    TableSpec("soviet-command-levels", "Assault 19.B.3", columns=("level", "order"), integer=("order",),
              keys=("battery", "battalion", "regiment", "division", "army", "front")),
    TableSpec("smoke-duration", "Assault 20.A.4", columns=("smoke", "wind", "turns", "drifts"), integer=("turns",),
              keys=("incendiary", "chemical", "incendiary-direct")),
    TableSpec("wind-direction", "Assault 20.A.1", columns=("roll", "direction"), integer=("roll",),
              keys=tuple(range(1, 11))),
    TableSpec("wind-velocity", "Assault 20.A.2", columns=("roll_max", "velocity"), integer=("roll_max",)),
)


@dataclass(frozen=True, slots=True)
class RangeColumn:
    name: str
    low: int
    high: int


@dataclass(slots=True)
class AssaultData:
    """The compiled tables the engine reads (named fields, never parallel lists)."""

    constants: dict[str, int]
    confirmation: dict[str, int]
    ranges: tuple[RangeColumn, ...]
    spotting: tuple[tuple[int, int], ...]                  # (range_max, base), ascending range
    defence: dict[str, dict[str, int]] = field(default_factory=dict)   # terrain -> "class_open"/"class_cover"

    def constant(self, key: str) -> int:
        return self.constants[key]

    def fingerprint(self) -> str:
        """A text of every compiled value (``Game.data_fingerprint``)."""
        return repr((sorted(self.constants.items()), sorted(self.confirmation.items()), self.ranges,
                     self.spotting, sorted((t, sorted(v.items())) for t, v in self.defence.items())))


def _rows(rs, table_id: str) -> list[dict]:
    t = rs.table(table_id)
    return [dict(zip(t.columns, row)) for row in t.rows]


def compile_ruleset(rs) -> AssaultData:
    """The engine data of a ruleset that passes ``ENGINE_TABLES`` (``ruleset.engine-table`` finds the rest)."""
    constants = {r["id"]: r["value"] for r in _rows(rs, "constants")}
    confirmation = {r["armour"]: r["addition"] for r in _rows(rs, "hit-confirmation")}
    ranges = tuple(RangeColumn(str(r["column"]), r["range_min"], r["range_max"]) for r in _rows(rs, "fire-ranges"))
    spotting = tuple(sorted((r["range_max"], r["base"]) for r in _rows(rs, "spotting")))
    defence = {r["terrain"]: {k: v for k, v in r.items() if k != "terrain"} for r in _rows(rs, "conventional-defence")}
    return AssaultData(constants, confirmation, ranges, spotting, defence)
