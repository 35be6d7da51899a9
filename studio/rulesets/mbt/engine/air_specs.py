"""The ruleset tables of the MBT air rules (fixed-wing aircraft and helicopter altitudes, MBT 6.7) the engine reads.
Kept free of engine imports so the declarations stay cheap (``data.ENGINE_TABLES`` adds them)."""
from __future__ import annotations

from studio.model.requirements import TableSpec

AIR_ALTITUDES = ("low", "medium", "high")
#: AA/Aircraft Modifiers of fixed-wing attacks (MBT 6.7.3.8); ``fast-speed`` is a magnitude, its sign is the
#: option ``fw-fast-speed-sign`` (Z1: the text prints "20" without a sign)
AIRCRAFT_MOD_IDS = ("rocket", "incendiary-leg", "incendiary-soft", "low-altitude", "medium-altitude", "fast-speed")
#: AA fire modifiers beyond the helicopter's hovering row (MBT 6.7.8.2)
AA_MOD_IDS = ("hovering", "high-altitude", "fast-speed", "low-altitude", "pop-up")
#: single values of the air rules (MBT 6.7.2.1, 6.7.3.2, 6.7.3.7, 6.7.6.3, 6.7.8; 7.26.2: the AA range that lets a
#: load scatter; the scatter itself is ``opt_scatter.fw_scatter``)
AIR_VALUE_IDS = ("loiter-turns", "loiter-per-drop-tank", "strafe-slow-hexes", "strafe-fast-hexes", "crash-gp",
                 "crash-low-divisor", "pgm-medium-min", "pgm-medium-max", "pgm-high-min", "pgm-high-max",
                 "radar-track-min", "heli-rocket-height-per-10", "heli-rocket-min-noe", "heli-rocket-min-low",
                 "radar-gun-cm-rating", "scatter-aa-range", "heli-noe-height", "heli-atgm-moving-ap",
                 "heli-atgm-moving-gp", "heli-slip-min", "landed-heli-size")
#: items of table rappel-modifiers (MBT 6.7.5.3.4): the rappelling modifier and the smoke one
RAPPEL_MOD_IDS = ("rappelling", "smoke")
#: bomb and FASCAM loads with a blast pattern by altitude (MBT 6.7.3.3-6.7.3.6; the diagrams are not in the text)
PATTERN_KINDS = ("bomb", "high_drag_bomb", "incendiary_bomb", "cluster_bomb", "FASCAM")

AIR_TABLES = (
    TableSpec("aa-aircraft-spotting", "MBT 6.7.3.1.1", ("speed", "altitude", "acquire", "track"),
              ("acquire", "track"), ("acquire", "track"), keys=("slow", "fast", "helicopter")),
    TableSpec("aircraft-los", "MBT 6.7.3.1.3", ("altitude", "base_height"), ("base_height",), ("base_height",),
              keys=AIR_ALTITUDES),
    TableSpec("aircraft-modifiers", "MBT 6.7.3.8", ("id", "modifier"), ("modifier",), ("modifier",),
              keys=AIRCRAFT_MOD_IDS),
    TableSpec("fw-bomb-patterns", "MBT 6.7.3.3", ("kind", "altitude", "length", "width"), ("length", "width"),
              ("length", "width"), keys=PATTERN_KINDS),
    TableSpec("air-values", "MBT 6.7", ("item", "value"), ("value",), ("value",), keys=AIR_VALUE_IDS),
    TableSpec("heli-landing-terrain", "MBT 6.7.5.3.1", ("terrain",), min_rows=1),
    TableSpec("heli-movement-costs", "MBT 6.7.5.2", ("manoeuvre", "cost"), ("cost",), ("cost",),
              keys=("forward", "reverse", "side-slip", "reverse-side-slip", "pylon", "funnel")),
    TableSpec("rappel-modifiers", "MBT 6.7.5.3.4", ("item", "modifier"), ("modifier",), ("modifier",),
              keys=RAPPEL_MOD_IDS),
    TableSpec("rappel-terrain", "MBT 6.7.5.3.4", ("terrain", "modifier"), ("modifier",), ("modifier",),
              nullable=("modifier",)),
    # the ATGM responses of chapter 5.1.3.3 (atgm_under_fire.py) live here with the helicopter ATGM values
    TableSpec("atgm-under-fire", "MBT 5.1.3.3.6", ("cl", "ap"), ("cl", "ap"), ("cl", "ap"), keys=("1", "2", "3", "4")),
)

__all__ = ["AIR_TABLES", "RAPPEL_MOD_IDS", "AIRCRAFT_MOD_IDS", "AA_MOD_IDS", "AIR_VALUE_IDS", "PATTERN_KINDS", "AIR_ALTITUDES"]
