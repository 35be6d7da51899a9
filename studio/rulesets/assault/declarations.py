"""What the Assault engine declares to the core (``RulesetPlugin`` fields): the tables it reads, the scenario
environment fields its rules use, and the options the conformance probes cannot expose (with why).

Kept free of engine imports except the table specs, so registering the plugin stays cheap."""
from __future__ import annotations

from studio.model.registry import lazy

from .engine.data import ENGINE_TABLES

NOT_PLAYED = "Assault {rule}: the engine does not play this rule yet (COVERAGE.md, rule sections), so no " \
             "position can show the choice; the option documents the reading for when it does"

_RULES = {
    "c5-cross-attach-scope": "4.C.4 (cross-attachment)",
    "c8-marsh-swamp": "18 (entrenchment and ICM bans; no swamp or marsh on the sample boards either)",
    "c12-smoke-screens": "19.D.3 (smoke missions)",
    "c13-smoke-removal": "20.A.4 (smoke duration)",
    "c15-smoke-orientation": "20.A.3 (smoke orientation)",
    "c21-los-spine": "10.B.2 (sight lines along a hex spine: the engine traces hex centres with a fixed nudge)",
    "c27-broken-hq-rally": "17.C (the shaken HQ's compulsory self-rally and a broken HQ's recovery)",
    "c28-entrenched-indirect": "18 (entrenchments against indirect fire)",
    "c29-clgp-modifiers": "22.B (CLGP)",
    "c32-slope-fatigue": "7.E.2 (steep slopes: none on the sample boards)",
    "c33-soviet-delay": "19.B.3 (artillery delay)",
    "c34-indirect-no-effect": "19.C.5 (indirect fire results)",
    "c35-pass-through": "19.D.4 (pass-through fire of artillery markers)",
    "c36-strong-wind-is": "20.A.2 (smoke in strong wind)",
    "c39-vertex-boundary": "13.A.1 (a sight line exactly through the vertex between a covered and an uncovered "
                           "hexside: the engine gives it to one hexside by a fixed tie rule)",
    "c42-carrier-two-passengers": "8.E (transport)",
    "c45-missile-opp-unspotted": "15, 10.D (spotting of unspotted missile firers: the firing-missiles modifier "
                                 "and its declare-and-spot procedure)",
    "clgp": "22 (CLGP, optional)",
    "ammo-supply": "23 (ammunition supply, optional)",
}

UNEXPOSABLE_OPTIONS = {option: NOT_PLAYED.format(rule=rule) for option, rule in _RULES.items()}

DECLARATIONS = {
    "engine_tables": ENGINE_TABLES,
    "probes": lazy("studio.rulesets.assault.probes:probes"),
    # Assault 20.A: wind drives smoke only, and smoke is not played yet, so no environment field changes play
    "environment_fields": frozenset(),
    "unexposable_options": UNEXPOSABLE_OPTIONS,
    "unexposable_tables": {},
}
