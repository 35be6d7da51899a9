"""Rules engine core: the Game/State API, seeded dice, scenario loading, replays and the conformance suite.

Rule-system neutral: it never names a rule system. Each ruleset plugin supplies a ``Game`` through
``RulesetPlugin.game_factory(scenario, index, options) -> Game``.

- ``api``: ``Game`` (``new_initial_state(seed)``, ``parse_action(text)``, ``sides``, ``phases`` (PhaseSpec list),
  ``max_turns``, optional ``bot_names()`` / ``make_bot(name, side, seed)`` / ``placeholder_tables``) and ``State``
  (``current_player()`` incl. ``CHANCE``/``TERMINAL``, ``legal_actions()``, unchecked ``apply``, checked ``play``
  raising ``RulesError(message, rule)``, ``clone()``, ``outcome()`` -> ``Outcome(winner, victory_points, reason,
  turn, losses)``, ``fingerprint()``/``state_hash()``, ``observation(player)`` for hidden information).
- ``dice``: ``Dice(seed)`` kept in the state; ``roll(100)`` 1..100, ``roll(10)`` 1..10, ``force(...)`` for tests.
- ``load``: ``load_game(scenario id or path, project=None, options=None) -> LoadedGame`` (validates first; raises
  ``ScenarioRefused`` with the diagnostics); ``GameSpec`` rebuilds the game in worker processes.
- ``replay``: replay files (scenario id + content hash, ruleset id + version, seed, text action log, final hash);
  ``verify(path) -> ReplayCheck`` never raises (version change -> ``version-mismatch``).
- ``conformance``: the checks every ruleset must pass (``run_all(game)``).
"""
