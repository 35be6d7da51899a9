"""Benchmark: Battlefield Ops! measured-table geometry and playouts, each figure beside the python-chess anchor
of the same run (``tests/bench/anchor.py``). Run with ``nice pytest -m bench -s tests/bench/test_bench_bfops.py``.

- LOS query with its obstacle list on the sample Mill Valley table (target < 100 us a query);
- visibility (LOS and exposure) of every unit pair of a 20-vs-20 game on that table;
- random and heuristic playouts (actions/s) of both sample scenarios.
No timed assertion: only sanity bounds.
"""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from anchor import anchor, report

from studio.rules.load import load_game
from studio.rulesets.bfops.engine import fire as F
from studio.rulesets.bfops.engine.state import Unit
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[2] / "data"
SCENARIOS = ["bfops-meeting-at-the-ford", "bfops-village-defence"]

pytestmark = pytest.mark.bench


def _game(name="bfops-meeting-at-the-ford"):
    return load_game(DATA / "scenarios" / "bfops" / f"{name}.yaml", DATA).game


def test_bench_los_query():
    g = _game().geometry
    rng = random.Random(1)
    pts = [(rng.uniform(0, 72), rng.uniform(0, 48), rng.uniform(0, 72), rng.uniform(0, 48)) for _ in range(4000)]
    crossed = 0
    start, cpu = time.perf_counter(), time.process_time()
    for x0, y0, x1, y1 in pts:
        crossed += len(g.los(x0, y0, x1, y1, 0.35, 0.35).crossings)
    dt = (time.perf_counter() - start) / len(pts)
    dt_cpu = (time.process_time() - cpu) / len(pts)
    print(f"\nLOS query with obstacle list: {dt * 1e6:.1f} us/query wall, {dt_cpu * 1e6:.1f} us/query CPU, "
          f"{crossed / len(pts):.2f} obstacles/query (target < 100 us)")
    report("LOS queries", 1.0 / dt, anchor(), "queries/s")
    start = time.perf_counter()
    for x0, y0, x1, y1 in pts[:1000]:
        g.los_exact(x0, y0, x1, y1, 0.35, 0.35)
    slow = (time.perf_counter() - start) / 1000
    print(f"the same queries on the Shapely overlay (los_exact): {slow * 1e6:.1f} us/query")
    assert crossed > 0 and dt > 0


def test_bench_visibility_20_vs_20():
    game = _game()
    state = game.new_initial_state(0)
    rng = random.Random(2)
    cards = ["nato-m60a1", "wp-t62"]
    state.units = [Unit(f"u{i}", cards[i % 2], i % 2, f"e{i}", rng.uniform(1, 71), rng.uniform(1, 47),
                        rng.uniform(0, 360)) for i in range(40)]
    start = time.perf_counter()
    pairs = seen = 0
    for a in state.units:
        for b in state.units:
            if a.side != b.side:
                pairs += 1
                sg = F.sight(game, a, b, a.side)
                seen += sg.exposure > 0                    # read: an exposure may be computed when first read
    dt = time.perf_counter() - start
    print(f"\nvisibility of every 20-vs-20 pair: {pairs} sight lines (with exposure) in {dt * 1e3:.1f} ms, "
          f"{seen} with the target partly seen")
    report("20v20 sight lines", pairs / dt, anchor(), "sights/s")
    assert pairs == 800 and dt > 0


def _playouts(game, seeds, bots) -> float:
    """Actions/s of the games ``seeds`` with ``bots`` on ``game``."""
    actions = 0
    start = time.perf_counter()
    for seed in seeds:
        result, _ = play_game(game, seed, bots)
        assert not result.error, result.error
        actions += result.steps
    assert actions > 0
    return actions / (time.perf_counter() - start)


@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_random_playouts(name):
    """Six games from a freshly loaded scenario (planner grids and fields, sight-line memos built as they go),
    then six more on the same game (the steady state of a long balance run)."""
    game = _game(name)
    report(f"{name} random playouts", _playouts(game, range(6), ["random", "random"]), anchor(), "actions/s")
    report(f"{name} random playouts, steady state", _playouts(game, range(6, 12), ["random", "random"]), anchor(),
           "actions/s")


@pytest.mark.parametrize("name", SCENARIOS)
def test_bench_heuristic_playouts(name):
    """Heuristic (NATO) against random playouts, actions/s beside the anchor (issue 19: heuristic >= 1x)."""
    game = _game(name)
    report(f"{name} heuristic playouts", _playouts(game, range(6), ["heuristic", "random"]), anchor(), "actions/s")
