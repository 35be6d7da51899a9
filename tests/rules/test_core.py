import json
import re
from pathlib import Path

import pytest

from studio.rules import conformance
from studio.rules.api import RulesError
from studio.rules.replay import make_replay, read_replay, replay_actions, write_replay
import sys
from pathlib import Path as _P

sys.path.insert(0, str(_P(__file__).resolve().parents[1] / "rules"))
from toygame import RaceGame  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def test_toy_game_passes_conformance():
    assert conformance.run_all(RaceGame()) == {name: None for name in conformance.CHECKS}


def test_checked_play_names_rule():
    state = RaceGame().new_initial_state(0)
    with pytest.raises(RulesError) as err:
        state.play("fly")
    assert err.value.rule == "TOY 1"


def test_replay_roundtrip(tmp_path):
    game = RaceGame()
    final, log = conformance.random_playout(game, 7, record=True)
    texts = [str(a) for a in log]
    data = make_replay(scenario="race", scenario_file="race.yaml", scenario_hash="x", ruleset="toy",
                       ruleset_version="1", seed=7, actions=texts, final_hash=final.state_hash())
    path = write_replay(tmp_path / "r.replay.json", data)
    back = read_replay(path)
    assert replay_actions(game, back["seed"], back["actions"]).state_hash() == back["final_hash"]


def test_core_never_names_a_rule_system():
    pattern = re.compile(r"\b(mbt|waw|assault|bfops)\b", re.IGNORECASE)
    for folder in ("studio/rules", "studio/sim"):
        for file in (REPO / folder).rglob("*.py"):
            text = file.read_text(encoding="utf-8")
            assert not pattern.search(text), f"{file} names a rule system"
