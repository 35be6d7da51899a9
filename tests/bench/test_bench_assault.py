"""Benchmark: Assault random playouts (actions/s) and heuristic games (games/s and actions/s), each figure beside
the python-chess anchor measured just before it in the same run (``tests/bench/anchor.py``). Run with
``nice pytest -m bench -s tests/bench/test_bench_assault.py``. No timed assertion: only sanity bounds.

Scenarios: both Assault samples (``assault-meeting``, ``assault-probe``). Random playouts run with the engine's
caches on (the normal engine) and off (``AssaultGame.caches = False``, ``engine/caches.py``), so the run shows
what the caches give; heuristic games go through the runner (``play_game``: observations, bots) as batch play
does. Every figure is timed in CPU seconds (``time.process_time``) beside a CPU-time anchor (a loaded machine moves
the wall clock and the anchor alike); the wall-clock figure is printed too. One untimed game is played first with
each game object, as a long run amortizes the per-game caches of the static map (LOS graph, entry cells).
Targets (issue 19): random playouts >= 2x python-chess plies/s, heuristic games >= 1x (actions/s).
"""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from anchor import chess_plies_per_s, report

from studio.rules.load import load_game
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[2] / "data"
SCENARIOS = ["assault-meeting", "assault-probe"]


def _game(name: str, caches: bool = True):
    game = load_game(name, DATA).game
    game.caches = caches
    return game


def cpu_anchor() -> float:
    """python-chess random playouts per CPU second, measured now (printed)."""
    value = chess_plies_per_s(2.0, clock=time.process_time)
    print(f"\nanchor: python-chess random playouts {value:.0f} plies per CPU second")
    return value


def random_playouts(game, seconds: float, min_games: int = 2, clock=time.process_time) -> tuple[int, int, float]:
    """(actions, games, seconds of ``clock``): legal actions listed, one drawn, applied (the anchor's loop)."""
    rng = random.Random(1)
    steps = games = 0
    start = clock()
    while clock() - start < seconds or games < min_games:
        state = game.new_initial_state(games)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
    return steps, games, clock() - start


def runner_games(game, seconds: float, min_games: int = 2, clock=time.process_time,
                 bots: tuple = ("heuristic", "heuristic")) -> tuple[int, int, float]:
    """(actions, games, seconds of ``clock``) of games through the runner (``play_game``: an observation for the
    bot at every step, as ``studio play`` does), no engine error allowed."""
    steps = games = 0
    start = clock()
    while clock() - start < seconds or games < min_games:
        result, _ = play_game(game, games, list(bots))
        assert result.error is None, result.error
        steps += result.steps
        games += 1
    return steps, games, clock() - start


def heuristic_games(game, seconds: float, min_games: int = 2, clock=time.process_time) -> tuple[int, int, float]:
    """Heuristic-vs-heuristic games through the runner (``runner_games``)."""
    return runner_games(game, seconds, min_games, clock)


def random_runner_games(game, seconds: float, min_games: int = 2, clock=time.process_time) -> tuple[int, int, float]:
    """Random-vs-random games through the runner (``runner_games``): what ``studio play`` plays by default."""
    return runner_games(game, seconds, min_games, clock, ("random", "random"))


def _timed(play, game, seconds: float):
    """One untimed warm-up game, then ``play``'s (actions, games, CPU seconds) and the wall seconds it took."""
    play(game, 0.0, min_games=1)
    wall = time.perf_counter()
    run = play(game, seconds)
    return run, time.perf_counter() - wall


def _print_run(label: str, run, base: float, wall: float) -> float:
    steps, games, dt = run
    ratio = report(f"Assault {label}", steps / dt, base, "actions per CPU second")
    print(f"    {games / dt:.3f} games per CPU second, {steps / games:.0f} actions per game, "
          f"{dt / games * 1000:.0f} CPU ms per game (wall: {steps / wall:,.0f} actions/s)")
    assert steps > 0 and ratio > 0
    return ratio


def _bench(name: str, play, label: str, caches: bool = True) -> None:
    """Six CPU seconds of ``play`` on scenario ``name``, printed beside the python-chess anchor measured just before."""
    game = _game(name, caches=caches)
    base = cpu_anchor()
    run, wall = _timed(play, game, 6.0)
    _print_run(f"{name} {label}", run, base, wall)


@pytest.mark.bench
@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_assault_random(name):
    _bench(name, random_playouts, "random playouts")


@pytest.mark.bench
@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_assault_random_uncached(name):
    _bench(name, random_playouts, "random playouts, caches off", caches=False)


@pytest.mark.bench
@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_assault_random_through_the_runner(name):
    _bench(name, random_runner_games, "random vs random through the runner (studio play)")


@pytest.mark.bench
@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_assault_heuristic(name):
    _bench(name, heuristic_games, "heuristic vs heuristic")
