"""Benchmark: the MBT Advanced Game on its sample scenarios, each figure beside the python-chess anchor of the same
run (``tests/bench/anchor.py``). Run with ``nice pytest -m bench -s tests/bench/test_bench_mbt_advanced.py``.

- random playouts (actions/s);
- heuristic against heuristic (games/s and actions/s).
No timed assertion: only sanity bounds.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from anchor import anchor, report

from studio.rules.load import load_game
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[2] / "data"
SCENARIOS = ["adv-combined-arms", "adv-air-strike"]

pytestmark = pytest.mark.bench


def _game(name):
    return load_game(DATA / "scenarios" / "mbt" / f"{name}.yaml", DATA).game


@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_mbt_advanced_random_playouts(name):
    game = _game(name)
    actions, start = 0, time.perf_counter()
    for seed in range(20):
        result, _ = play_game(game, seed, ["random", "random"])
        assert not result.error, result.error
        actions += result.steps
    report(f"MBT Advanced {name} random playouts", actions / (time.perf_counter() - start), anchor(), "actions/s")
    assert actions > 0


@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_mbt_advanced_heuristic_games(name):
    game = _game(name)
    games, actions, start = 10, 0, time.perf_counter()
    for seed in range(games):
        result, _ = play_game(game, seed, ["heuristic", "heuristic"])
        assert not result.error, result.error
        actions += result.steps
    dt = time.perf_counter() - start
    report(f"MBT Advanced {name} heuristic v heuristic", games / dt, anchor(), "games/s")
    report(f"MBT Advanced {name} heuristic v heuristic", actions / dt, anchor(), "actions/s")
    assert actions > 0
