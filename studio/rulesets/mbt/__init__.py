"""MBT (2nd edition) rule system plugin: card models, scenario extension, static checks and the engine hook.

Data side: ``cards`` (unit card bodies, scenario extension) and ``checks`` (static checks d.1-d.3 of the rules
digest, codes ``mbt.*``). The rules engine lives in ``studio.rulesets.mbt.engine`` and is imported lazily.
"""
from __future__ import annotations

from studio.model.registry import RulesetPlugin, register

from .cards import MbtScenarioExtension, VehicleBody
from .checks import CHECKS


def _game_factory(*args, **kw):
    from studio.rulesets.mbt.engine.game import create_game

    return create_game(*args, **kw)


def _los_check(service, a, b):
    from studio.rulesets.mbt.engine.los import los_check

    return los_check(service, a, b)


PLUGIN = register(RulesetPlugin(
    id="mbt",
    name="MBT (2nd edition)",
    card_bodies={"vehicle": VehicleBody},
    scenario_extension=MbtScenarioExtension,
    checks=CHECKS,
    game_factory=_game_factory,
    los_check=_los_check,
))
