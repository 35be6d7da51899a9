"""Assault: Tactical Combat in Europe (1985) rule system plugin: counter models, scenario extension, checks.

Data side: ``cards`` (counter bodies, scenario extension), ``designations`` (the U.S. and Soviet designation
grammars, Assault 3) and ``checks`` (static checks d.1-32 of the rules digest, codes ``assault.*``). The rules
engine (``engine/``) has its compiled data, decimal die, sequence of play and the spotting and direct-fire
arithmetic, but no ``Game`` yet, so no ``game_factory`` is registered (``COVERAGE.md`` lists what exists).
``engine_tables`` is declared already: validation reports a ruleset the engine could not read.
"""
from __future__ import annotations

from studio.model.registry import RulesetPlugin, register

from .cards import AssaultCounter, AssaultScenarioExtension
from .checks import CHECKS
from .engine.data import ENGINE_TABLES

PLUGIN = register(RulesetPlugin(
    id="assault",
    name="Assault: Tactical Combat in Europe (1985)",
    card_bodies={"*": AssaultCounter},
    scenario_extension=AssaultScenarioExtension,
    checks=CHECKS,
    engine_tables=ENGINE_TABLES,
    # Assault 20.A: the wind (direction and velocity) drives smoke; the scenario's environment wind is used when
    # the extension does not roll it. Declared once the engine reads it (check_environment_real).
    environment_fields=frozenset(),
))
