"""Issue 13, 'Must show': a scenario with every optional rule switched on plays without an engine error.

``mbt-opt-everything`` (Advanced Game, every unit class, boards 2, 4 and 7) switches on every optional rule of the
ruleset and gives the data each needs; it is played by the heuristic and random bots, both ways round. The normal
suite plays a few games; the 500-game run is ``-m slow`` (the figures of ``studio play opt-everything --games 500
--jobs 2`` are in COVERAGE-OPTIONAL.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.rules.conformance import optional_rule_variants
from studio.rules.load import load_game, rebuild_game
from studio.sim.runner import play_game, run_games

DATA = Path(__file__).resolve().parents[3] / "data"
PAIRINGS = (("heuristic", "random"), ("random", "heuristic"), ("heuristic", "heuristic"), ("random", "random"))


@pytest.fixture(scope="module")
def everything():
    """The scenario's game (it switches on every optional rule of the ruleset)."""
    loaded = load_game("opt-everything", DATA)
    every = [o.id for o in loaded.index.model("ruleset", "mbt").optional_rules]
    return loaded, every, loaded.game


def _where(error: str) -> str:
    lines = error.strip().splitlines()
    frames = [ln.strip() for ln in lines if ln.strip().startswith("File ") and "/studio/" in ln]
    return f"{lines[-1]} (at {frames[-1] if frames else '?'})"


def test_every_optional_rule_is_in_force(everything):
    loaded, every, game = everything
    assert loaded.scenario.optional_rules == every and len(every) == 50  # in the ruleset's order
    assert game.optional_rules == set(every)


def test_the_scenario_gives_every_rule_its_data():
    """No finding at all for the scenario: every rule's needs (scenario data, card fields, map features) are met."""
    from studio.model.validate import validate_paths

    found = [d.format_text() for d in validate_paths([DATA]).diagnostics
             if d.file.endswith("opt-everything.yaml") and d.severity.value != "info"]
    assert found == []


_HUNTED: list[int] = []


def _culprits(loaded, every, seed, bots) -> str:
    """The optional rules that alone make the same game fail: searched (50 games) for the first failing game of a
    run only, to keep a failing suite quick."""
    if _HUNTED:
        return f"see seed {_HUNTED[0]}"
    _HUNTED.append(seed)
    ruleset = loaded.index.model("ruleset", "mbt")
    alone = [rid for rid in every if play_game(rebuild_game(  # the rule with the rules it requires
        loaded, optional_rules=optional_rule_variants(ruleset, [], rid)[0]), seed, bots)[0].error]
    return ", ".join(alone) or "none alone (a combination)"


def _stuck(game, seed, bots) -> str:
    """Where the failing game stood: turn, phase and the last actions (a bot's failing choice records none; an
    action the engine fails to apply is recorded and named)."""
    result, _ = play_game(game, seed, bots, record=True)
    state = game.new_initial_state(seed)
    for k, text in enumerate(result.actions):
        where = f"turn {state.turn}, phase {state.phase_id()}"
        try:
            state.apply(game.parse_action(text))
        except Exception as exc:  # noqa: BLE001 - the engine error itself
            return f"{where}: applying {text!r} raised {type(exc).__name__}, after {result.actions[max(0, k - 3):k]}"
    try:
        return (f"then turn {state.turn}, phase {state.phase_id()}, player {state.current_player()}, "
                f"{len(state.legal_actions())} legal action(s), after {result.actions[-3:]}")
    except Exception as exc:  # noqa: BLE001 - the engine fails to list the next actions
        return (f"then turn {state.turn}, phase {state.phase_id()}: listing the next actions raised "
                f"{type(exc).__name__}, after {result.actions[-3:]}")


@pytest.mark.parametrize("seed", range(8))
def test_games_with_every_optional_rule_end_without_engine_error(everything, seed):
    loaded, every, game = everything
    bots = PAIRINGS[seed % len(PAIRINGS)]
    result, state = play_game(game, seed, bots)
    if result.error is not None:
        pytest.fail(f"seed {seed}, bots {bots}: {_where(result.error)}; {_stuck(game, seed, bots)}; rules that "
                    f"alone fail this game: {_culprits(loaded, every, seed, bots)}")
    assert state.is_terminal() and state.legal_actions() == []


@pytest.mark.parametrize("seed", range(2))
def test_state_contract_with_every_optional_rule(everything, seed):
    """The core's state checks on random playouts with every optional rule on: fingerprint complete, observation
    private (hidden units, minefields, commands), clones independent, replays deterministic, phases named."""
    from studio.rules import conformance

    _loaded, _every, game = everything
    states = conformance.sample_states(game, seed=seed, count=4, spacing=40)
    for state in states:
        conformance.check_fingerprint_complete(state)
        for player in range(len(game.sides)):
            conformance.check_observation_private(state, player)
    conformance.check_clone_independence(game, seed=seed)
    conformance.check_replay_determinism(game, seed=seed)
    conformance.check_phase_ids(game, seed=seed)


@pytest.mark.slow
def test_500_games_with_every_optional_rule(everything):
    loaded, _every, _game = everything
    errors = []
    for k, bots in enumerate(PAIRINGS):
        report = run_games(loaded, 125, 1 + k, list(bots), jobs=2)
        assert report.games == 125
        errors += [f"{bots} seed {r.seed}: {_where(r.error)}" for r in report.errors]
    assert not errors, f"{len(errors)} of 500 games hit an engine error:\n" + "\n".join(errors[:10])
