"""Battlefield Ops! (Rules Update 1.1) plugin: 6mm miniatures on a measured table.

Data side: ``cards`` (Unit Card front and back, the scenario extension: deployment zones, placements,
objectives, victory predicates, prepared defences) and ``checks`` (codes ``bfops.*``). The engine
(``engine/``) plays on continuous geometry (``studio.geometry``): positions in inches, facings in degrees.
"""
from __future__ import annotations

from studio.model.registry import RulesetPlugin, lazy, register

from .cards import BfopsCard, BfopsScenario
from .checks import CHECKS
from .engine.data import ENGINE_TABLES

PLUGIN = register(RulesetPlugin(
    id="bfops",
    name="Battlefield Ops! (Rules Update 1.1)",
    card_bodies={"*": BfopsCard},
    scenario_extension=BfopsScenario,
    checks=CHECKS,
    game_factory=lazy("studio.rulesets.bfops.engine.game:create_game"),
    engine_tables=ENGINE_TABLES,
    environment_fields=frozenset({"light", "weather"}),
    probes=lazy("studio.rulesets.bfops.probes:probes"),
    extras={"table_los_modifiers": lazy("studio.rulesets.bfops.readout:table_los_modifiers")},
    unexposable_options={
        "battalion-cards": "the sample forces have no battalion command vehicle, and positions keep the "
                           "scenario's deck; the deck test builds one (tests/rulesets/bfops)",
        "bridge-limit": "no sample card weighs exactly a bridge's rating (15, 50 or 70 t); "
                        "tests/rulesets/bfops/test_eng_bridging.py plays a 50 t test-bed vehicle on a WARPAC AVLB "
                        "under both choices",
        "full-batteries": "the sample forces have no battery Headquarters vehicle, and positions keep the scenario's "
                          "deck; the deck test builds one (tests/rulesets/bfops/test_misc_command.py)",
    },
    unexposable_tables={
        "weapon-priority": "an order: every priority one higher keeps the same order and so the same play; each "
                           "cell alone is read (data fingerprint)",
    },
))
