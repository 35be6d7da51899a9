"""World at War: America Conquered rule system plugin: counter models, scenario extension, checks, engine.

Data side: ``cards`` (counter bodies, scenario extension), ``forces`` (TO&E expansion and set-up placement
shared by the checks and the engine) and ``checks`` (static checks V1-V50 of the digest, codes ``waw.*``).
The rules engine lives in ``studio.rulesets.waw.engine`` and is imported lazily; ``bots`` holds the heuristic
player. ``COVERAGE.md`` lists what is implemented and tested per rule section.
"""
from __future__ import annotations

from studio.model.registry import RulesetPlugin, register

from .cards import WawCounter, WawScenarioExtension
from .checks import CHECKS


def _game_factory(*args, **kw):
    from studio.rulesets.waw.engine.game import create_game

    return create_game(*args, **kw)


def _los_check(service, a, b):
    from studio.rulesets.waw.engine.los import los_check

    return los_check(service, a, b)


def _bots():
    from studio.rulesets.waw.bots import BOTS

    return BOTS


PLUGIN = register(RulesetPlugin(
    id="waw",
    name="World at War: America Conquered",
    card_bodies={"*": WawCounter},
    scenario_extension=WawScenarioExtension,
    checks=CHECKS,
    game_factory=_game_factory,
    los_check=_los_check,
    extras={"bots": _bots},
))
