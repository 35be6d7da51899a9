"""Benchmark: the MBT Advanced Game on its sample scenarios, each figure beside the python-chess anchor of the same
run (``tests/bench/anchor.py``). Run with ``nice pytest -m bench -s tests/bench/test_bench_mbt_advanced.py``.

- random playouts (actions/s; issue 19 target: 2x python-chess);
- heuristic against heuristic (games/s and actions/s; target: 1x).
Each figure is printed per wall second beside the anchor measured again just before, and per CPU second of this
process beside the CPU-time anchor (a loaded machine moves wall-clock figures; see ``test_bench_engine.both``).
No timed assertion: only sanity bounds.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from test_bench_engine import both

from studio.rules.load import load_game
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[2] / "data"
SCENARIOS = ["adv-combined-arms", "adv-air-strike"]

pytestmark = pytest.mark.bench


def _game(name):
    return load_game(DATA / "scenarios" / "mbt" / f"{name}.yaml", DATA).game


def _play(game, bots: list[str], games: int) -> tuple[int, float, float]:
    """``games`` games (seeds 0..): (actions, wall s, CPU s)."""
    actions, start, cpu = 0, time.perf_counter(), time.process_time()
    for seed in range(games):
        result, _ = play_game(game, seed, bots)
        assert not result.error, result.error
        actions += result.steps
    return actions, time.perf_counter() - start, time.process_time() - cpu


@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_mbt_advanced_random_playouts(name):
    actions, wall, cpu = _play(_game(name), ["random", "random"], 20)
    both(f"MBT Advanced {name} random playouts (20 games)", actions, wall, cpu)
    assert actions > 0


@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_mbt_advanced_heuristic_games(name):
    games = 10
    actions, wall, cpu = _play(_game(name), ["heuristic", "heuristic"], games)
    both(f"MBT Advanced {name} heuristic v heuristic ({games} games, {games / cpu:.2f} games/s CPU)", actions,
         wall, cpu)
    assert actions > 0
