"""WaW engine: the shared conformance suite, the heuristic bot against random, replay through text actions."""
from pathlib import Path

import pytest

from studio.rules.conformance import run_all
from studio.rules.load import load_game
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[3] / "data"
SCENARIOS = ["waw-crossroads", "waw-hill-fight"]


@pytest.fixture(scope="module", params=SCENARIOS)
def loaded(request):
    return load_game(DATA / "scenarios" / "waw" / f"{request.param}.yaml", DATA)


def test_conformance(loaded):
    assert run_all(loaded.game) == {k: None for k in run_all.__globals__["CHECKS"]}


@pytest.mark.parametrize("side", [0, 1])
def test_heuristic_beats_random(loaded, side):
    """Small fixed-seed sample here; larger runs are in COVERAGE.md (>= 90% from either side)."""
    bots = ["random", "random"]
    bots[side] = "heuristic"
    wins = 0
    for seed in range(4):
        result, _ = play_game(loaded.game, seed, bots)
        assert result.error is None, result.error
        wins += result.winner == side
    assert wins >= 3


def test_text_actions_replay(loaded):
    game = loaded.game
    result, state = play_game(game, 7, ["heuristic", "random"], record=True)
    again = game.new_initial_state(7)
    for text in result.actions:
        again.play(game.parse_action(text))
    assert again.state_hash() == state.state_hash() and again.is_terminal()


def test_illegal_action_names_rule(loaded):
    from studio.rules.api import RulesError

    state = loaded.game.new_initial_state(0)
    with pytest.raises(RulesError) as err:
        state.play(loaded.game.parse_action("end"))
    assert err.value.rule.startswith("WaW")


def test_outcome_and_log(loaded):
    result, state = play_game(loaded.game, 3, ["heuristic", "heuristic"])
    out = state.outcome()
    assert out.turn <= loaded.game.max_turns and len(out.victory_points) == 2
    assert state.log and all(e.turn >= 1 for e in state.log)
