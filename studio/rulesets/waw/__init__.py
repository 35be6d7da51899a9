"""World at War: America Conquered rule system plugin: counter models, scenario extension, checks, engine.

Data side: ``cards`` (counter bodies, scenario extension), ``forces`` (TO&E expansion and set-up placement
shared by the checks and the engine) and ``checks`` (static checks V1-V50 of the digest, codes ``waw.*``).
The rules engine lives in ``studio.rulesets.waw.engine`` (one module per rule chapter) and is imported lazily;
``bots`` holds the heuristic player, ``probes`` the conformance probes (positions on the ``waw-lab`` scenario).
The registration declares the tables the engine reads (``engine/tables.py``), the environment fields it uses
(none: the rulebook has no night, visibility or weather rules) and the options and tables no probe can expose,
with the reason. ``COVERAGE.md`` lists what is implemented and tested per rule section, and the mutation score.
"""
from __future__ import annotations

from studio.model.registry import RulesetPlugin, lazy, register

from .cards import WawCounter, WawScenarioExtension
from .checks import CHECKS
from .engine.tables import ENGINE_TABLES

PLUGIN = register(RulesetPlugin(
    id="waw",
    name="World at War: America Conquered",
    card_bodies={"*": WawCounter},
    scenario_extension=WawScenarioExtension,
    checks=CHECKS,
    game_factory=lazy("studio.rulesets.waw.engine.game:create_game"),
    los_check=lazy("studio.rulesets.waw.engine.los:los_check"),
    engine_tables=ENGINE_TABLES,
    # The America Conquered rulebook has no night, visibility, weather or wind rules (13.0 lists what a scenario
    # gives; the only storm is Chaos 14, drawn from the cup): a scenario setting any environment field is told
    # (scenario.environment-unused) that it changes nothing in play.
    environment_fields=frozenset(),
    probes=lazy("studio.rulesets.waw.probes:probes"),
    unexposable_tables={
        "helicopter_los": "only the order of the three flight levels matters (rows are told apart by level and a "
                          "Pop-Up adds one), so raising every level by one plays the same; each cell alone does "
                          "change play (tests/rulesets/waw/test_tables.py::test_helicopter_flight_levels)",
    },
    unexposable_options={
        "c10_sniper_move": "snipers never move in this engine (set-up or Chaos 18 placement only): the 'free' "
                           "reading needs a sniper move the rules do not describe (how far, when, Opportunity Fire)",
        "c66_command_morale_hex": "units of one hex always share one Morale here (formation or Conditional Morale "
                                  "counts the same neighbours; units with a Leader or Hero are In Command and make "
                                  "no check), so lowest and highest agree",
        "c71_overrun_exit": "the 'overrun_hex' reading lets the exit hex hold enemy units, which would leave the "
                            "overrunning vehicle in an enemy hex; no rule resolves that, so only 'both' is playable",
    },
))
