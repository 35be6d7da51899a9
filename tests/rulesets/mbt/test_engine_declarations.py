"""The issue 10 declaration checks on MBT's scenarios: states are whole and private and name their phase (the core's
checks, ``studio.rules.conformance``). Options, tables, table cells and the environment changing play are checked
for every plugin, MBT included, by ``tests/rules/test_conformance_plugins.py``."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.rules import conformance
from studio.rules.load import load_game

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.mark.parametrize("scenario", ["meeting-engagement", "delaying-action"])
def test_states_whole_private_and_phased(scenario):
    game = load_game(scenario, DATA).game
    conformance.check_phase_ids(game, seed=2)
    for state in conformance.sample_states(game, seed=3, count=4, spacing=31):
        conformance.check_fingerprint_complete(state)
        for player in (0, 1):
            conformance.check_observation_private(state, player)


def test_observation_hides_commands_and_dice_even_when_cloned():
    game = load_game("meeting-engagement", DATA).game
    state = game.new_initial_state(7)
    while state.phase_id() == "command" and state.current_player() == 0:
        state.play(state.legal_actions()[1])          # MOVE
    while state.phase_id() == "command":
        state.play(state.legal_actions()[1])
    view = state.observation(1)
    hidden = [i for i, u in enumerate(game.units) if u.side == 0 and not state.rev[i]]
    assert hidden and all(view.cmd[i] == 0 for i in hidden) and all(view.clone().cmd[i] == 0 for i in hidden)
    twin = state.clone()
    real = [twin.dice.roll(100) for _ in range(6)]
    seen = view.clone()
    assert [seen.dice.roll(100) for _ in range(6)] != real
    other = state.scramble_hidden(1, 5)
    assert other.observation(1).fingerprint() == view.fingerprint()
    assert any(other.cmd[i] != state.cmd[i] for i in hidden) or len(hidden) < 3
