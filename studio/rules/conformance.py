"""The shared conformance suite: every registered ruleset's Game must pass these checks.

Each check takes a Game (plus seeds/sizes) and raises :class:`ConformanceError` with a readable message on
failure; :func:`run_all` runs them all and returns ``{check name: None or error text}``.

- :func:`check_terminal_has_no_actions`: at every terminal state reached, ``legal_actions()`` is empty.
- :func:`check_clone_independence`: playing on a clone never changes the original (fingerprint), and a clone
  continues exactly as the original would (same dice).
- :func:`check_replay_determinism`: the same seed and action log give the same final state hash, through the
  text form of the actions (``parse_action(str(a))``).
- :func:`check_playouts_terminate`: random playouts end within the scenario's turn limit.
- :func:`check_legal_actions_apply`: every legal action, applied to a clone, never raises; and ``play`` accepts
  it too.

Checks of what a plugin declares (issue 10), in :mod:`studio.rules.conformance_data` and re-exported here:
:class:`Probe`, :func:`check_options_real`, :func:`check_tables_real` (:func:`check_tables_read` +
:func:`check_tables_played`), :func:`check_environment_real`, :func:`check_fingerprint_complete`,
:func:`check_observation_private` and :func:`check_phase_ids`. A check whose hook the plugin has not declared
raises :class:`NotDeclared`; ``run_all(game, plugin, project)`` reports it as ``"not declared: ..."`` instead of
failing.
Rule-system neutral.
"""
from __future__ import annotations

import random
from typing import Callable

from .api import CHANCE, Game, State
from .stepping import ConformanceError, step


_step = step  # the name the checks below (and older callers) use


def random_playout(game: Game, seed: int, max_steps: int = 200_000, record: bool = False) -> tuple[State, list]:
    """Play uniformly random actions from ``new_initial_state(seed)`` to the end."""
    rng = random.Random(seed ^ 0x5EED)
    state = game.new_initial_state(seed)
    log = []
    for _ in range(max_steps):
        if state.is_terminal():
            return state, log
        a = _step(state, rng)
        if record:
            log.append(a)
    raise ConformanceError(f"random playout with seed {seed} did not end within {max_steps} steps")


def check_terminal_has_no_actions(game: Game, seeds=range(3)) -> None:
    for seed in seeds:
        state, _ = random_playout(game, seed)
        if state.legal_actions():
            raise ConformanceError(f"seed {seed}: terminal state still lists legal actions")
        state.outcome()


def check_clone_independence(game: Game, seed: int = 0, probes: int = 5, depth: int = 40) -> None:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for probe in range(probes):
        for _ in range(rng.randrange(1, depth)):
            if state.is_terminal():
                return
            _step(state, rng)
        if state.is_terminal():
            return
        before = state.fingerprint()
        copy = state.clone()
        if copy.fingerprint() != before:
            raise ConformanceError("a fresh clone has a different fingerprint")
        twin = state.clone()
        r1, r2 = random.Random(probe), random.Random(probe)
        for _ in range(depth):
            if copy.is_terminal():
                break
            a = _step(copy, r1)
            _step(twin, r2)
            if str(a) and copy.fingerprint() != twin.fingerprint():
                raise ConformanceError("two clones diverged under the same actions (dice not cloned?)")
        if state.fingerprint() != before:
            raise ConformanceError("playing on a clone changed the original state")


def check_replay_determinism(game: Game, seed: int = 1) -> None:
    state, log = random_playout(game, seed, record=True)
    texts = [str(a) for a in log]
    again = game.new_initial_state(seed)
    for i, text in enumerate(texts):
        action = game.parse_action(text)
        if action != log[i]:
            raise ConformanceError(f"action {i}: parse_action('{text}') gives {action!r}, not {log[i]!r}")
        again.apply(action)
    if again.state_hash() != state.state_hash():
        raise ConformanceError("replaying the action log from the same seed gives a different final state")


def check_playouts_terminate(game: Game, seeds=range(5)) -> None:
    limit = getattr(game, "max_turns", None)
    for seed in seeds:
        state, _ = random_playout(game, seed)
        turn = state.outcome().turn
        if limit is not None and turn > limit:
            raise ConformanceError(f"seed {seed}: the game ended on turn {turn}, beyond the limit {limit}")


def check_legal_actions_apply(game: Game, seed: int = 2, states: int = 30, per_state: int = 25) -> None:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for _ in range(states):
        if state.is_terminal():
            state = game.new_initial_state(rng.randrange(1 << 30))
        if state.current_player() != CHANCE:
            legal = state.legal_actions()
            sample = legal if len(legal) <= per_state else rng.sample(legal, per_state)
            for a in sample:
                probe = state.clone()
                try:
                    probe.apply(a)
                    state.clone().play(a)
                except Exception as exc:  # noqa: BLE001
                    raise ConformanceError(f"legal action '{a}' raised {type(exc).__name__}: {exc}") from exc
        for _ in range(rng.randrange(1, 12)):
            if state.is_terminal():
                break
            _step(state, rng)


CHECKS: dict[str, Callable[[Game], None]] = {
    "terminal_has_no_actions": check_terminal_has_no_actions,
    "clone_independence": check_clone_independence,
    "replay_determinism": check_replay_determinism,
    "playouts_terminate": check_playouts_terminate,
    "legal_actions_apply": check_legal_actions_apply,
}


def run_all(game: Game, plugin=None, project=None) -> dict[str, str | None]:
    """``{check name: None (passed) or error text}``. With ``plugin`` (and ``project``, the folder the probes'
    scenarios live in) the declaration checks run too; an undeclared hook gives ``"not declared: ..."``."""
    out: dict[str, str | None] = {}
    for name, check in CHECKS.items():
        try:
            check(game)
            out[name] = None
        except Exception as exc:  # noqa: BLE001
            out[name] = f"{type(exc).__name__}: {exc}"
    if plugin is not None:
        out.update(run_declared(game, plugin, project))
    return out



# the declaration checks (they need positions and loading); imported last because they use the helpers above
from .conformance_data import (NotDeclared, Probe, check_environment_real,  # noqa: E402
                               check_fingerprint_complete, check_observation_private, check_optional_rules_real,
                               check_options_real, check_phase_ids, check_tables_played, check_tables_read,
                               check_tables_real, optional_rule_variants, optional_rules_report, probe_signature,
                               run_declared, sample_states)

__all__ = ["CHECKS", "ConformanceError", "NotDeclared", "Probe", "check_clone_independence",
           "check_environment_real", "check_fingerprint_complete", "check_legal_actions_apply",
           "check_observation_private", "check_optional_rules_real", "check_options_real", "check_phase_ids",
           "check_playouts_terminate", "check_replay_determinism", "check_tables_played", "check_tables_read",
           "check_tables_real", "check_terminal_has_no_actions", "optional_rule_variants", "optional_rules_report",
           "probe_signature", "random_playout", "run_all", "run_declared", "sample_states"]
