import threading
from types import SimpleNamespace

from studio.sim import run_games, wilson_interval
from studio.sim.runner import play_game
import sys
from pathlib import Path as _P

sys.path.insert(0, str(_P(__file__).resolve().parents[1] / "rules"))
from toygame import RaceGame  # noqa: E402


def _loaded():
    return SimpleNamespace(game=RaceGame(), ruleset_version="1", placeholder_tables=["toy-table"], spec=None,
                           path=None)


def test_same_seed_same_report():
    a = run_games(_loaded(), 30, seed=5, bots=["greedy", "random"]).statistics()
    b = run_games(_loaded(), 30, seed=5, bots=["greedy", "random"]).statistics()
    assert a == b
    assert a["games"] == 30 and sum(a["wins"].values()) + a["draws"] == 30
    assert a["placeholder_tables"] == ["toy-table"]


def test_json_keys_exact():
    data = run_games(_loaded(), 4, seed=1, bots=["random", "random"]).to_json()
    assert list(data) == ["scenario", "ruleset", "ruleset_version", "games", "seed", "bots", "wins", "draws",
                          "win_rate", "turns", "vp", "losses", "placeholder_tables", "environment_rules",
                          "bots_by_side", "games_requested", "cancelled", "engine_errors", "interval",
                          "decided_turn", "end_turn", "vp_distribution", "losses_by_type", "losses_by_range",
                          "range_bands_hexes", "range_unit", "kills_by_weapon", "casualty_source", "elapsed_s", "steps",
                          "steps_per_s", "executor", "restarts"]
    assert data["bots_by_side"] == {"red": "random", "blue": "random"} and data["interval"] == "wilson"
    assert set(data["win_rate"]["red"]) == {"p", "ci95"}


def test_progress_and_cancel():
    seen = []
    cancel = threading.Event()

    def progress(done, total):
        seen.append(done)
        if done == 3:
            cancel.set()

    report = run_games(_loaded(), 50, seed=1, bots=["random", "random"], progress=progress, cancel=cancel)
    assert report.cancelled and report.games == 3 and seen == [1, 2, 3]


def test_engine_error_is_reported():
    class Broken(RaceGame):
        def new_initial_state(self, seed):
            raise RuntimeError("boom")

    result, state = play_game(Broken(), 1, ["random", "random"])
    assert state is None and "boom" in result.error


def test_wilson():
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi
