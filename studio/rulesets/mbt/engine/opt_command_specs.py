"""The ruleset tables of the MBT Optional Rules of morale, spotting and command (MBT 7.1-7.7, 7.24, 7.36, 7.40,
7.42, 7.43, 7.46), declared for ``data.ENGINE_TABLES``. Kept free of engine imports so the declarations stay cheap."""
from __future__ import annotations

from studio.model.requirements import TableSpec

from .ag_specs import COUNTS, GRADES

#: Cohesion Point levels, best first (MBT 7.1.1)
COHESION_LEVELS = ("superb", "exceptional", "outstanding", "superior", "excellent", "good", "adequate", "fair",
                   "poor")
DEPLOYMENTS = ("int", "plus1", "plus2", "plus3", "plus4")
MORALE_MOD_IDS = ("cover-medium", "cover-heavy", "command-unit-in-range", "suppressed", "damaged", "forced",
                  "broken-in-range", "enemy-near", "enemy-near-range", "enemy-far", "enemy-far-range",
                  "command-not-nc", "break-recovery-min")
MORALE_EFFECTS = ("ap-fire", "gp-fire", "hth", "close-assault", "if-response", "bail-out", "spotting-rows",
                  "move-fraction")
SPOT_REMOVAL_MOD_IDS = GRADES + ("recon",)
VALUE_IDS = ("automatic-spot-range", "additional-spotter", "camouflage-die", "camouflage-recon",
             "camouflage-thermal", "radar-leg-range", "radar-vehicle-range", "disrupted-span-modifier",
             "span-move-fraction")
SPAN_LEVELS = ("CHQ", "BHQ", "RHQ")
NIGHT_AIDS = ("IR", "WL", "I2", "T")
GROUND_IDS = ("snow-move-cost", "mud-bog-multiplier", "bog-passenger-modifier", "cautious-fraction",
              "limited-road-fraction")

OPT_COMMAND_TABLES = (
    TableSpec("numeric-cohesion-point", "MBT 7.1.1.1", ("level", "min_roll") + COUNTS, ("min_roll",) + COUNTS,
              ("min_roll",), keys=COHESION_LEVELS, nullable=("min_roll",)),
    TableSpec("cohesion-point-modifiers", "MBT 7.1.1.1", ("nation",) + DEPLOYMENTS, DEPLOYMENTS, DEPLOYMENTS),
    TableSpec("morale-grade-modifiers", "MBT 7.1.1.1, 7.1.4", ("grade", "cohesion", "check"), ("cohesion", "check"),
              ("cohesion", "check"), keys=GRADES),
    TableSpec("break-point", "MBT 7.1.4", ("nation", "break_max", "hesitate_max"), ("break_max", "hesitate_max"),
              ("break_max", "hesitate_max")),
    TableSpec("morale-check-modifiers", "MBT 7.1.4", ("id", "modifier"), ("modifier",), ("modifier",),
              keys=MORALE_MOD_IDS),
    TableSpec("morale-effects", "MBT 7.1.5", ("effect", "hesitating", "broken"), ("hesitating", "broken"),
              keys=MORALE_EFFECTS),
    TableSpec("spot-removal", "MBT 7.4", ("cover", "count_min", "count_max", "near", "far"),
              ("count_min", "count_max", "near", "far"), ("count_min", "count_max", "near", "far"),
              nullable=("count_max",)),
    TableSpec("spot-removal-modifiers", "MBT 7.4", ("id", "modifier"), ("modifier",), ("modifier",),
              keys=SPOT_REMOVAL_MOD_IDS),
    TableSpec("spotting-table", "MBT 7.7", ("grade", "near", "far", "max"), ("near", "far", "max"),
              ("near", "far", "max"), keys=GRADES),
    TableSpec("command-optional-values", "MBT 7.7, 7.24, 7.42, 7.43, 7.46", ("id", "value"), ("value",),
              keys=VALUE_IDS),
    TableSpec("disrupted-communications", "MBT 7.42", ("level", "dif", "range_max"), ("dif", "range_max"),
              ("dif", "range_max"), keys=("slight", "moderate", "intense")),
    TableSpec("command-span", "MBT 7.43", ("level", "span", "row_drop"), ("span", "row_drop"), ("span", "row_drop"),
              keys=SPAN_LEVELS),
    TableSpec("night-aids", "MBT 7.36.4", ("aid", "range"), ("range",), ("range",), keys=NIGHT_AIDS),
    TableSpec("ground-conditions", "MBT 7.36.2-7.36.3", ("id", "value"), ("value",), keys=GROUND_IDS),
)
