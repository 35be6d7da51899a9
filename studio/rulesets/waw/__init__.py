"""World at War: America Conquered rule system plugin: counter models, scenario extension, checks, engine.

Data side: ``cards`` (counter bodies, scenario extension), ``forces`` (TO&E expansion and set-up placement
shared by the checks and the engine) and ``checks`` (static checks V1-V50 of the digest, codes ``waw.*``).
The rules engine lives in ``studio.rulesets.waw.engine`` and is imported lazily; ``bots`` holds the heuristic
player. ``COVERAGE.md`` lists what is implemented and tested per rule section.
"""
from __future__ import annotations

from studio.model.registry import RulesetPlugin, lazy, register

from .cards import WawCounter, WawScenarioExtension
from .checks import CHECKS

PLUGIN = register(RulesetPlugin(
    id="waw",
    name="World at War: America Conquered",
    card_bodies={"*": WawCounter},
    scenario_extension=WawScenarioExtension,
    checks=CHECKS,
    game_factory=lazy("studio.rulesets.waw.engine.game:create_game"),
    los_check=lazy("studio.rulesets.waw.engine.los:los_check"),
))
