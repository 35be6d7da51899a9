"""Assault: Tactical Combat in Europe (1985) rule system plugin: counter models, scenario extension, checks.

Data side: ``cards`` (counter bodies, scenario extension), ``designations`` (the U.S. and Soviet designation
grammars, Assault 3) and ``checks`` (static checks d.1-32 of the rules digest, codes ``assault.*``). The rules
engine (``engine/``, imported lazily) plays the rules ``COVERAGE.md`` lists; ``declarations`` holds what it
declares to the core (engine tables, probes, options no probe can show yet and why).
"""
from __future__ import annotations

from dataclasses import fields

from studio.model.registry import RulesetPlugin, lazy, register

from .cards import AssaultCounter, AssaultScenarioExtension
from .checks import CHECKS
from .declarations import DECLARATIONS

_KNOWN = {f.name for f in fields(RulesetPlugin)}

PLUGIN = register(RulesetPlugin(
    id="assault",
    name="Assault: Tactical Combat in Europe (1985)",
    card_bodies={"*": AssaultCounter},
    scenario_extension=AssaultScenarioExtension,
    checks=CHECKS,
    game_factory=lazy("studio.rulesets.assault.engine.game:create_game"),
    **{k: v for k, v in DECLARATIONS.items() if k in _KNOWN},
))
