"""Benchmark: Assault random playouts (actions/s) and heuristic games (games/s and actions/s), each figure beside
the python-chess anchor of the same run (``tests/bench/anchor.py``). Run with
``nice pytest -m bench -s tests/bench/test_bench_assault.py``. No timed assertion: only sanity bounds."""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from anchor import anchor, report

from studio.rules.load import load_game
from studio.sim.bots import make_bot

DATA = Path(__file__).resolve().parents[2] / "data"
SCENARIOS = ["assault-meeting", "assault-probe"]


def _game(name: str):
    return load_game(name, DATA).game


def random_playouts(game, seconds: float, min_games: int = 2) -> tuple[int, int, float]:
    """(actions, games, seconds): legal actions listed, one drawn, applied (the anchor's loop)."""
    rng = random.Random(1)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games < min_games:
        state = game.new_initial_state(games)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def heuristic_games(game, seconds: float, min_games: int = 2) -> tuple[int, int, float]:
    """(actions, games, seconds) of heuristic-vs-heuristic games: each bot chooses from its observation."""
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games < min_games:
        state = game.new_initial_state(games)
        bots = [make_bot("heuristic", game, side, games * 2 + side) for side in (0, 1)]
        while not state.is_terminal():
            side = state.current_player()
            state.apply(bots[side].choose(state.observation(side), state.legal_actions()))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def _print_run(label: str, run, base: float) -> float:
    steps, games, dt = run
    ratio = report(f"Assault {label}", steps / dt, base)
    print(f"    {games / dt:.3f} games/s, {steps / games:.0f} actions per game, {dt / games * 1000:.0f} ms per game")
    assert steps > 0 and ratio > 0
    return ratio


@pytest.mark.bench
@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_assault_random(name):
    _print_run(f"{name} random playouts", random_playouts(_game(name), 6.0), anchor())


@pytest.mark.bench
@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_assault_heuristic(name):
    _print_run(f"{name} heuristic vs heuristic", heuristic_games(_game(name), 6.0), anchor())
