"""Benchmark: World at War actions/s and games/s (random and heuristic bots). Run with ``pytest -m bench -s``."""
import time
from pathlib import Path

import pytest

from studio.rules.load import load_game
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.mark.bench
@pytest.mark.parametrize("scenario", ["waw-crossroads", "waw-hill-fight"])
@pytest.mark.parametrize("bots", [("random", "random"), ("heuristic", "random")])
def test_bench_waw(scenario, bots):
    game = load_game(DATA / "scenarios" / "waw" / f"{scenario}.yaml", DATA).game
    games, steps = 20, 0
    t0 = time.perf_counter()
    for seed in range(games):
        result, _ = play_game(game, seed, bots)
        assert result.error is None
        steps += result.steps
    dt = time.perf_counter() - t0
    print(f"\nWaW {scenario} {bots[0]} vs {bots[1]}: {steps / dt:,.0f} actions/s, {games / dt:.2f} games/s "
          f"({steps / games:.0f} actions per game)")
