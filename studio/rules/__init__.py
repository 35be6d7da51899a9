"""Rules engine core: the Game/State API, seeded dice, replays and the conformance suite.

Rule-system neutral: it never names a rule system. Each ruleset plugin supplies a ``Game`` through
``RulesetPlugin.game_factory(scenario, index, options) -> Game``.
"""
