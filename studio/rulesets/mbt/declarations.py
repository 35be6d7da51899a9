"""What the MBT engine declares to the core (``RulesetPlugin`` fields): the tables it reads, the scenario
environment fields its rules use, and the options and tables the conformance probes cannot expose (with why).

Kept free of engine imports except the table specs, so registering the plugin stays cheap."""
from __future__ import annotations

from studio.model.registry import lazy

from .engine.ag_specs import AG_TABLES
from .engine.data import ENGINE_TABLES

#: MBT 7.36.1 limited visibility (light, night turns) and the scenario's visibility cap, both on spotting
ENVIRONMENT_FIELDS = frozenset({"visibility", "light", "night_turns"})

ADVANCED = "Advanced Game rule (MBT 6.x/7.x): the Basic Game engine (MBT 3.0-4.6) has no such rule; the option " \
           "documents the reading for the Advanced Game engine"

BOARDS = "the sample boards (board-2, board-4) have no {what}, and a probe can only place units on a scenario's " \
         "boards; the option is tested on synthetic terrain in tests/rulesets/mbt ({test})"

UNEXPOSABLE_OPTIONS = {
    "gully-two-up": BOARDS.format(what="gully or stream hexes", test="test_M45_gully_sees_one_height_up_only_adjacent"),
    "hedgerow-crossing": BOARDS.format(what="hedgerow hexsides", test="test_hedgerow_crossing_option"),
    "blind-zone-n": BOARDS.format(what="obstacle whose blind zone differs between the two readings",
                                  test="test_M35_M37_M38_M39_blind_zones, test_blind_zone_options"),
    "hexside-obstacle-distance": BOARDS.format(what="blocking hexsides (crest, hedgerow)",
                                               test="test_blind_zone_options"),
    "available-commands-grade": ADVANCED,
    "command-range-zero": ADVANCED,
    "ap-damage-source": ADVANCED,
    "full-cover-bonus": ADVANCED,
    "atgm-ammo-limits": ADVANCED,
    "special-armor-rounding": ADVANCED,
}

_AG_ROW = "Advanced Game row (MBT 6.1.3): the Basic Game engine (MBT 3.0-4.6) has no suppression, full cover, " \
          "small arms or recon spotting"

_AG_TABLE = "Advanced Game table (MBT 6.x): the probes play the sample scenarios, which are Basic Game " \
            "scenarios until an Advanced one is in data/scenarios/mbt; its cells are read (tests/rulesets/mbt/" \
            "test_adv_tables.py runs check_tables_read on them) and played by tests/rulesets/mbt/test_adv_*.py"

UNEXPOSABLE_TABLES = {
    **{spec.id: _AG_TABLE for spec in AG_TABLES},
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
    "probes": lazy("studio.rulesets.mbt.probes:probes"),
    "engine_tables": ENGINE_TABLES,
    "environment_fields": ENVIRONMENT_FIELDS,
    "unexposable_options": UNEXPOSABLE_OPTIONS,
}
