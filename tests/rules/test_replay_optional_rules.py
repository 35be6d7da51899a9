"""Replays remember what a game was played with besides its scenario: the option overrides and the optional rules
switched by ``load_game(optional_rules=)`` (``studio play --optional-rule``); verifying and the replay viewer load
the game the same way (issue 13)."""
from __future__ import annotations

import random
from pathlib import Path

from studio.rules.load import load_game
from studio.rules.replay import read_replay, record, replay_game, verify, write_replay
from studio.rules.stepping import step

DATA = Path(__file__).resolve().parents[2] / "data"


def _played(loaded, steps=25):
    state = loaded.game.new_initial_state(3)
    rng = random.Random(3)
    actions = []
    for _ in range(steps):
        if state.is_terminal():
            break
        actions.append(str(step(state, rng)))
    return state, actions


def test_replay_records_and_reloads_optional_rules_and_options(tmp_path):
    loaded = load_game("adv-combined-arms", DATA, {"penetration-zero": "no-effect"}, optional_rules=["morale"])
    state, actions = _played(loaded)
    replay = record(loaded, 3, actions, state, ["random", "random"])
    assert replay["optional_rules"] == ["morale"] and replay["options"] == {"penetration-zero": "no-effect"}
    path = write_replay(tmp_path / "g.replay.json", replay)
    again = replay_game(read_replay(path), DATA)
    assert again.game.optional_rules == {"morale"} and again.overrides == {"penetration-zero": "no-effect"}
    assert verify(path, DATA).status == "ok"


def test_replay_of_the_scenarios_own_rules_has_no_optional_rules_key():
    loaded = load_game("adv-combined-arms", DATA)
    state, actions = _played(loaded, 5)
    replay = record(loaded, 3, actions, state)
    assert "optional_rules" not in replay and replay["options"] == {}
    assert replay_game(replay, DATA).game.optional_rules == frozenset()
