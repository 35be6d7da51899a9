"""Rules engine core: the Game/State API, seeded dice, scenario loading, positions, replays and the conformance
suite.

Rule-system neutral: it never names a rule system. Each ruleset plugin supplies a ``Game`` through
``RulesetPlugin.game_factory(scenario, index, options) -> Game``; ``options`` is the merged dict (ruleset
defaults <- scenario ``options`` <- API overrides), so engines read every option by id. The plugin layout and
the whole plugin contract are described in ``studio/rulesets/README.md``.

- ``api``: ``Game`` (``new_initial_state(seed)``, ``parse_action(text)``, ``sides``, ``phases`` (PhaseSpec list),
  ``max_turns``, optional ``bot_names()`` / ``make_bot(name, side, seed)`` / ``placeholder_tables``) and ``State``
  (``current_player()`` incl. ``CHANCE``/``TERMINAL``, ``legal_actions()``, unchecked ``apply``, checked ``play``
  raising ``RulesError(message, rule)``, ``clone()``, ``outcome()`` -> ``Outcome(winner, victory_points, reason,
  turn, losses)``, ``fingerprint()``/``state_hash()``, ``observation(player)`` for hidden information,
  ``phase_id()`` -> the current PhaseSpec id, default ``""``). Optional hooks found by ``hasattr``:
  ``Game.state_from_position(position)``, ``Game.data_fingerprint()``, ``State.DERIVED_SLOTS``,
  ``State.scramble_hidden(player, seed)``.
- ``dice``: ``Dice(seed)`` kept in the state; ``roll(100)`` 1..100, ``roll(10)`` 1..10, ``force(...)`` for tests.
- ``load``: ``load_game(scenario id or path, project=None, options=None) -> LoadedGame`` (validates first; raises
  ``ScenarioRefused`` with the diagnostics, also for unknown options (``scenario.option-unknown``) and values
  that are not a choice (``scenario.option-choice``)); ``LoadedGame.options`` is what the engine received,
  ``.overrides`` the API options; ``GameSpec`` rebuilds the game in worker processes; ``rebuild_game(loaded,
  options=None, ruleset=None)`` makes a variant without validating again.
- ``position``: ``load_position(path | dict, project=None) -> PositionSetup(loaded, state, position)`` sets up a
  position document (:class:`studio.model.position.Position`) through ``Game.state_from_position`` and forces
  its dice; ``position_state(game, position)`` does it on a built Game; every problem is a ``PositionError``
  (a ``ScenarioRefused``) with diagnostics at the position's lines.
- ``replay``: replay files (scenario id + content hash, ruleset id + version, seed, text action log, final hash);
  ``verify(path) -> ReplayCheck`` never raises (version change -> ``version-mismatch``).
- ``conformance``: the checks every ruleset must pass (``run_all(game)``), and with ``run_all(game, plugin,
  project)`` the declaration checks: ``Probe``, ``check_options_real``, ``check_tables_real`` (``_read`` +
  ``_played``), ``check_fingerprint_complete``, ``check_observation_private``, ``check_phase_ids``; an undeclared
  hook raises ``NotDeclared`` and is reported as ``"not declared: ..."``. ``environment_real`` plays probes with
  an environment field changed. ``stepping`` holds ``ConformanceError`` and the shared random ``step``.
"""
