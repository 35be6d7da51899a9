"""The ruleset tables of the direct-fire optional rules (MBT 7.8-7.25, 7.44-7.50) the engine reads. Kept free of
engine imports so the declarations stay cheap (``ag_specs.AG_TABLES`` adds them)."""
from __future__ import annotations

from studio.model.requirements import TableSpec

#: ``opt-fire-values`` rows: every number of the fire optional rules (MBT 7.8-7.50)
FIRE_VALUE_IDS = (
    "damaged-turret-tt",        # MBT 7.8.1: a Turret Damaged vehicle turns its turret at most this far
    "bu-damage",                # MBT 7.11: added to the AP Damage units result
    "bu-close-assault",         # MBT 7.11: added to the close-assault brew-up roll (10)
    "lower-hull-height",        # MBT 7.13: the smallest height advantage for a lower hull hit
    "lower-hull-range",         # MBT 7.13.2: range at most this times the height difference
    "lower-hull-divisor",       # MBT 7.13: the Rising HF armor divided by this (round down) ...
    "lower-hull-min",           # ... and not less than this
    "defensive-ap",             # MBT 7.15: AP hit modifier of Defensive Fire
    "defensive-gp",             # MBT 7.15: GP fire modifier of Defensive Fire
    "attached-loss-max",        # MBT 7.17: roll (10) at or under: the attached weapon is destroyed
    "attached-loss-first",      # MBT 7.17: modifier of the first roll when the squad carries more than one
    "pinning-gp",               # MBT 7.18: GP fire modifier of Pinning Fire
    "track-gpe-multiplier",     # MBT 7.21: the shooter's max GP Effectiveness times this ...
    "track-no-gp-factor",       # MBT 7.21: the factor of small arms and units without a GP weapon
    "optics-ap",                # MBT 7.23.1: optics damaged, AP direct fire
    "optics-gp",                # MBT 7.23.1: optics damaged, GP direct fire
    "running-gear-mf",          # MBT 7.23.3: movement factors lost ...
    "running-gear-min",         # ... down to at least this
    "malfunction-ap-roll",      # MBT 7.25: an AP direct-fire roll (100) of this malfunctions the weapon
    "malfunction-gp-roll",      # MBT 7.25: an unmodified GP direct-fire roll (100) of this
    "repair-max",               # MBT 7.25: repair roll (10) at or under
    "repair-nc",                # MBT 7.25: repair modifier with an N/C command
    "repair-permanent",         # MBT 7.25: a final repair roll of this: permanently out
    "installation-window",      # MBT 7.47: a Suppressed result within this of the S-Effect number
    "cis-second-max",           # MBT 7.48: roll (10) at or under: a second target
    "nato-ap",                  # MBT 7.50: AP hit modifier of the NATO Target Acquisition Bonus
    "nato-gp",                  # MBT 7.50: GP fire modifier
    "nato-min-calibre",         # MBT 7.50: weapons of at least this calibre (mm)
)
COLLATERAL_EFFECTS = ("optics", "night-equipment", "coax", "turret-ring", "radio", "running-gear", "fuel")
FUEL_EFFECTS = ("out-of-fuel", "fire")
PEN_ITEMS = tuple(f"d{d}" for d in range(1, 11)) + ("max",)

FIRE_OPT_TABLES = (
    TableSpec("opt-fire-values", "MBT 7.8-7.50", ("id", "value"), ("value",), ("value",), keys=FIRE_VALUE_IDS),
    TableSpec("collateral-damage", "MBT 7.23", ("location", "roll", "effect"), ("roll",), ("roll",)),
    TableSpec("fuel-damage", "MBT 7.23.4", ("roll", "effect"), ("roll",), ("roll",)),
    TableSpec("ap-penetration-variation", "MBT 7.12", ("pen_min", "item", "value"), ("pen_min", "value"),
              ("pen_min", "value")),
    TableSpec("small-turret-locations", "MBT 7.45", ("tens", "reads"), ("tens", "reads"), ("tens", "reads")),
    TableSpec("nato-nations", "MBT 7.50", ("nation",)),
)

__all__ = ["FIRE_OPT_TABLES", "FIRE_VALUE_IDS", "COLLATERAL_EFFECTS", "FUEL_EFFECTS", "PEN_ITEMS"]
