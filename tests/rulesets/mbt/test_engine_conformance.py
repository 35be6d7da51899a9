"""The shared conformance suite on the MBT sample scenarios, plus replay verification through the CLI path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.rules import conformance
from studio.rules.load import ScenarioRefused, load_game
from studio.rules.replay import record, verify, write_replay
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[3] / "data"
SCENARIOS = ["meeting-engagement", "hasty-defense", "delaying-action"]


@pytest.fixture(scope="module")
def loaded():
    return {s: load_game(s, DATA) for s in SCENARIOS}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_conformance(loaded, scenario):
    game = loaded[scenario].game
    conformance.check_terminal_has_no_actions(game, seeds=range(2))
    conformance.check_clone_independence(game, seed=3)
    conformance.check_replay_determinism(game, seed=4)
    conformance.check_playouts_terminate(game, seeds=range(2))
    conformance.check_legal_actions_apply(game, seed=5, states=15, per_state=10)


def test_replay_file_verifies_and_reports_version_change(loaded, tmp_path):
    lg = loaded["hasty-defense"]
    result, state = play_game(lg.game, 11, ["heuristic", "random"], record=True)
    assert result.error is None
    path = write_replay(tmp_path / "g.replay.json", record(lg, 11, result.actions, state, ["heuristic", "random"]))
    check = verify(path, DATA)
    assert check.ok, check.message
    data = json.loads(path.read_text())
    data["ruleset_version"] = "0.0-old"
    path.write_text(json.dumps(data))
    check = verify(path, DATA)
    assert check.status == "version-mismatch" and "0.0-old" in check.message
    data["ruleset_version"] = lg.ruleset_version
    data["final_hash"] = "0" * 32
    path.write_text(json.dumps(data))
    assert verify(path, DATA).status == "hash-mismatch"
    data["actions"][3] = "fire NOBODY at NOBODY x:y"
    path.write_text(json.dumps(data))
    assert verify(path, DATA).status == "illegal-action"


def test_invalid_scenario_is_refused(tmp_path):
    import shutil

    project = tmp_path / "p"
    shutil.copytree(DATA, project)
    sc = project / "scenarios" / "mbt" / "hasty-defense.yaml"
    sc.write_text(sc.read_text().replace("toe: us-itv-section", "toe: no-such-toe"))
    with pytest.raises(ScenarioRefused) as err:
        load_game(sc, project)
    assert err.value.diagnostics


def test_runner_executor_and_jobs_give_the_same_report(loaded):
    from concurrent.futures import ThreadPoolExecutor

    from studio.sim.runner import run_games

    lg = loaded["delaying-action"]
    a = run_games(lg, 3, seed=5, bots=["heuristic", "random"]).statistics()
    with ThreadPoolExecutor(2) as pool:
        b = run_games(lg, 3, seed=5, bots=["heuristic", "random"], executor=pool).statistics()
    assert a == b and a["games"] == 3
