"""What the Assault engine declares to the core (``RulesetPlugin`` fields): the tables it reads, the scenario
environment fields its rules use, and the options the conformance probes cannot expose (with why).

Kept free of engine imports except the table specs, so registering the plugin stays cheap."""
from __future__ import annotations

from studio.model.registry import lazy

from .engine.data import ENGINE_TABLES

#: options the engine reads whose choices no position on the sample data can tell apart (and why)
_NO_POSITION = {
    "c33-soviet-delay": "Assault 19.B.3: the engine reads it, but only Soviet HQs, OPs and the firing unit itself "
                        "call fire on the sample cards (none sets can_call_fire), and the firer's own level "
                        "difference is 0, so the two readings never differ on the sample data",
}

#: every option with two choices is read by the engine (c21 10.B.2 spines, c32 7.E.2 slopes, c39 13.A.1 vertices
#: included); only c33 cannot be told apart on the sample data
UNEXPOSABLE_OPTIONS = dict(_NO_POSITION)

UNEXPOSABLE_TABLES = {
    "soviet-command-levels": "Assault 19.B.3: only the difference between two levels is read, and raising every "
                             "order by one (the whole-table check) keeps every difference; each cell is read "
                             "(tests/rulesets/assault/test_engine_artillery.py)",
    "wind-direction": "Assault 20.A.1, 24: rolled once in the pre-game procedure with the game's seed, before any "
                      "position (and its forced dice) exists; read and tested in test_engine_artillery.py",
    "wind-velocity": "Assault 20.A.2, 24: rolled once in the pre-game procedure with the game's seed, before any "
                     "position (and its forced dice) exists; read and tested in test_engine_artillery.py",
}

DECLARATIONS = {
    "engine_tables": ENGINE_TABLES,
    "probes": lazy("studio.rulesets.assault.probes:probes"),
    # Assault 20.A: the wind (a scenario that does not roll it) orients and drifts smoke, and a strong wind
    # forbids smoke missions
    "environment_fields": frozenset({"wind"}),
    "unexposable_options": UNEXPOSABLE_OPTIONS,
    "unexposable_tables": UNEXPOSABLE_TABLES,
}
