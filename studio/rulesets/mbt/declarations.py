"""What the MBT engine declares to the core (``RulesetPlugin`` fields): the tables it reads, the scenario
environment fields its rules use, and the options and tables the conformance probes cannot expose (with why).

Kept free of engine imports except the table specs, so registering the plugin stays cheap."""
from __future__ import annotations

from .engine.data import ENGINE_TABLES

#: MBT 7.36.1 limited visibility (light, night turns) and the scenario's visibility cap, both on spotting
ENVIRONMENT_FIELDS = frozenset({"visibility", "light", "night_turns"})

ADVANCED = "Advanced Game rule (MBT 6.x/7.x): the Basic Game engine (MBT 3.0-4.6) has no such rule; the option " \
           "documents the reading for the Advanced Game engine"

UNEXPOSABLE_OPTIONS = {
    "available-commands-grade": ADVANCED,
    "command-range-zero": ADVANCED,
    "ap-damage-source": ADVANCED,
    "full-cover-bonus": ADVANCED,
    "atgm-ammo-limits": ADVANCED,
    "special-armor-rounding": ADVANCED,
}

_AG_ROW = "Advanced Game row (MBT 6.1.3): the Basic Game engine (MBT 3.0-4.6) has no suppression, full cover, " \
          "small arms or recon spotting"

UNEXPOSABLE_TABLES = {
    "spotting-modifiers:target-spot-fire-small-arms:modifier": _AG_ROW,
    "spotting-modifiers:spotter-suppressed:modifier": _AG_ROW,
    "spotting-modifiers:target-full-cover:modifier": _AG_ROW,
    "spotting-modifiers:spotter-full-cover:modifier": _AG_ROW,
    "spotting-modifiers:spotter-recon:modifier": _AG_ROW,
    "range-factors": "the reading order is relative: raising every order by one keeps the order (each cell alone "
                     "is read: check_tables_read)",
}

DECLARATIONS = {
    "unexposable_tables": UNEXPOSABLE_TABLES,
    "engine_tables": ENGINE_TABLES,
    "environment_fields": ENVIRONMENT_FIELDS,
    "unexposable_options": UNEXPOSABLE_OPTIONS,
}
