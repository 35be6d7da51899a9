"""Benchmark: World at War random playouts and heuristic games, each figure beside the python-chess anchor of the
same run (``tests/bench/anchor.py``). Run with ``nice pytest -m bench -s tests/bench/test_bench_waw.py``.

Scenarios: every WaW sample scenario, a generated 30-vs-30 scenario and the generated scaling series (14, 28 and
56 units a side) whose time per game is fitted to ``units ** k`` (the exponent is printed). Targets (issue 19):
random playouts >= 2x python-chess plies/s, heuristic games >= 1x (actions/s); time per game about linear.
No timed assertion: only sanity bounds.

Every figure is timed in CPU seconds (``time.process_time``) and set beside a CPU-time anchor measured just before
it (``chess_plies_per_s(clock=time.process_time)``): on a machine shared with other jobs the wall clock and a
single anchor per run move with the load; the wall-clock figure is printed too.
"""
from __future__ import annotations

import math
import random
import time
from functools import lru_cache
from pathlib import Path

import pytest
from anchor import chess_plies_per_s, report

from studio.model.documents import Force, Setup
from studio.model.project import load_project
from studio.rules.load import load_game
from studio.rulesets.waw.engine.game import create_game
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[2] / "data"
SAMPLES = ["waw-crossroads", "waw-hill-fight", "waw-lab"]
#: TO&Es per side of the generated scenarios: (US, Soviet) lists; 30 units a side for "30v30"
GROUPS = {"30v30": (["us-tank-company"] * 2 + ["us-mech-company"] * 2 + ["us-attack-helicopters"] * 3,
                    ["su-tank-battalion"] * 2 + ["su-motor-rifle-battalion"] * 2 + ["su-attack-helicopters"]),
          "unit": (["us-tank-company", "us-mech-company", "us-attack-helicopters"],
                   ["su-tank-battalion", "su-motor-rifle-battalion"])}


@lru_cache(maxsize=None)
def _index():
    return load_project(DATA)


def sample_game(name: str):
    return load_game(DATA / "scenarios" / "waw" / f"{name}.yaml", DATA).game


def generated_game(us_toes: list[str], su_toes: list[str], tag: str):
    """The crossroads boards and victory conditions with the given forces: US set up on the east board (columns
    from 26 on), the Soviets on the west board (columns up to 13), zones filled in order."""
    index = _index()
    base = index.model("scenario", "waw-crossroads")
    m = sample_game("waw-crossroads").map

    def zone(cols):
        return [m.label_of[h] for h in sorted(m.label_of, key=lambda h: (m.offset(h)[0], m.offset(h)[1]))
                if m.offset(h)[0] in cols]

    east, west = zone(range(26, 40)), zone(range(0, 14))
    us_side, su_side = base.sides
    us = us_side.model_copy(update={"forces": [
        Force(id=f"us{i}", toe=t, setup=Setup(zone=east[i * 12:(i + 1) * 12])) for i, t in enumerate(us_toes)]})
    su = su_side.model_copy(update={"forces": [
        Force(id=f"su{i}", toe=t, setup=Setup(zone=west[i * 12:(i + 1) * 12])) for i, t in enumerate(su_toes)]})
    ext = base.extension.model_copy(update={"formations": [], "passengers": [], "support_weapons": [],
                                            "leaders": [], "heroes": [], "snipers": [], "disrupted": []})
    scenario = base.model_copy(update={"id": f"bench-{tag}", "sides": [us, su], "extension": ext})
    return create_game(scenario, index)


def scaled_game(k: int):
    us, su = GROUPS["unit"]
    return generated_game(us * k, su * k, f"x{k}")


def units_per_side(game) -> list[int]:
    return [sum(1 for u in game.units if u.side == s) for s in range(len(game.sides))]


def cpu_anchor() -> float:
    """python-chess random playouts per CPU second, measured now (printed)."""
    value = chess_plies_per_s(2.0, clock=time.process_time)
    print(f"\nanchor: python-chess random playouts {value:.0f} plies per CPU second")
    return value


def random_playouts(game, seconds: float, min_games: int = 2, clock=time.process_time) -> tuple[int, int, float]:
    """(actions, games, seconds of ``clock``) of random playouts: legal actions listed, one drawn, applied (the
    anchor's loop)."""
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


def heuristic_games(game, seconds: float, min_games: int = 2, clock=time.process_time) -> tuple[int, int, float]:
    """(actions, games, seconds of ``clock``) of heuristic-vs-heuristic games through the runner (observations,
    bots)."""
    steps = games = 0
    start = clock()
    while clock() - start < seconds or games < min_games:
        result, _ = play_game(game, games, ["heuristic", "heuristic"])
        assert result.error is None, result.error
        steps += result.steps
        games += 1
    return steps, games, clock() - start


def _timed(play, game, seconds: float) -> tuple[tuple[int, int, float], float]:
    """``play``'s (actions, games, CPU seconds) and the wall seconds it took."""
    wall = time.perf_counter()
    run = play(game, seconds)
    return run, time.perf_counter() - wall


def _print_run(label: str, game, run, base: float, wall: float) -> float:
    steps, games, dt = run
    ratio = report(f"WaW {label} {units_per_side(game)}", steps / dt, base, "actions per CPU second")
    print(f"    {games / dt:.2f} games per CPU second, {steps / games:.0f} actions per game, "
          f"{dt / games * 1000:.0f} CPU ms per game (wall: {steps / wall:,.0f} actions/s)")
    assert steps > 0 and ratio > 0
    return ratio


@pytest.mark.bench
@pytest.mark.parametrize("name", SAMPLES + ["30v30"])
def test_bench_waw_random(name):
    game = generated_game(*GROUPS["30v30"], "30v30") if name == "30v30" else sample_game(name)
    base = cpu_anchor()
    run, wall = _timed(random_playouts, game, 6.0)
    _print_run(f"{name} random playouts", game, run, base, wall)


@pytest.mark.bench
@pytest.mark.parametrize("name", SAMPLES + ["30v30"])
def test_bench_waw_heuristic(name):
    game = generated_game(*GROUPS["30v30"], "30v30") if name == "30v30" else sample_game(name)
    base = cpu_anchor()
    run, wall = _timed(heuristic_games, game, 6.0)
    _print_run(f"{name} heuristic vs heuristic", game, run, base, wall)


def fitted_exponent(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of log(time per game) against log(units)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


@pytest.mark.bench
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_bench_waw_scaling(kind):
    points = []
    for k in (1, 2, 4):
        game = scaled_game(k)
        base = cpu_anchor()
        run, wall = _timed(random_playouts if kind == "random" else heuristic_games, game, 4.0)
        _print_run(f"scaled x{k} {kind}", game, run, base, wall)
        # CPU time per game, in anchor units (the anchor measured beside it takes the load out)
        points.append((sum(units_per_side(game)), run[2] / run[1] * base))
    exp = fitted_exponent(points)
    print(f"WaW {kind} time per game ~ units^{exp:.2f} over {[n for n, _ in points]} units "
          f"({', '.join(f'{t:,.0f} anchor plies' for _, t in points)} per game)")
    assert math.isfinite(exp)
