"""MBT (2nd edition) rule system plugin: card models, scenario extension, static checks and the engine hook.

Data side: ``cards`` (the card bodies of every card category, ``CARD_BODIES``: vehicle, leg, crew_served, towed,
fixed_wing, helicopter, battery; the scenario extension) and the static checks of the rules digests, codes
``mbt.*``: ``checks`` (d.1-d.3, Basic Game and the entry points), ``checks_advanced`` (Advanced Game cards),
``checks_forces`` (Advanced forces, TO&Es, scenario extension), ``checks_tables`` (Advanced Game tables), ``checks_optional`` (the Optional Rules in force). The rules
engine lives in ``studio.rulesets.mbt.engine`` and is imported lazily.
"""
from __future__ import annotations

from dataclasses import fields

from studio.model.registry import RulesetPlugin, lazy, register

from .cards import CARD_BODIES, MbtScenarioExtension
from .checks import CHECKS
from .checks_optional import OPTIONAL_CHECKS
from .declarations import DECLARATIONS

_KNOWN = {f.name for f in fields(RulesetPlugin)}

PLUGIN = register(RulesetPlugin(
    id="mbt",
    name="MBT (2nd edition)",
    card_bodies=dict(CARD_BODIES),
    scenario_extension=MbtScenarioExtension,
    checks={kind: CHECKS.get(kind, []) + OPTIONAL_CHECKS.get(kind, []) for kind in {**CHECKS, **OPTIONAL_CHECKS}},
    game_factory=lazy("studio.rulesets.mbt.engine.game:create_game"),
    los_check=lazy("studio.rulesets.mbt.engine.los:los_check"),
    **{k: v for k, v in DECLARATIONS.items() if k in _KNOWN},
))
