"""MBT engine speed (issue 19), every figure beside the python-chess anchor of the same run (``anchor.py``).

Run with ``pytest -m bench -s tests/bench/test_bench_engine.py``. Prints, for every MBT sample scenario and for
generated 16-vs-16 and 64-vs-64 positions: random-playout actions/s, heuristic actions/s and games/s; the
1,000-game 16-vs-16 heuristic balance run on 2 cores (``studio.sim.runner.run_games``, jobs=2); and the time per
game at 16/32/64/128 units with the fitted exponent (time ~ units^k). The anchor is measured again beside each
figure (the load of a shared machine drifts within a run). Targets (issue 19, not asserted): random >=
2x python-chess, heuristic >= 1x (actions/s), 1,000 games <= 60 s, k <= 1. ``MBT_BENCH_GAMES`` sets the balance
run's game count (default 1,000).
"""
from __future__ import annotations

import math
import os
import random
import resource
import time
from pathlib import Path

import pytest
import yaml

import anchor as anchor_module
from anchor import anchor, report
from studio.rules.load import load_game
from studio.rules.position import load_position
from studio.sim.runner import play_game, run_games

DATA = Path(__file__).resolve().parents[2] / "data"
SAMPLES = ["meeting-engagement", "hasty-defense", "delaying-action"]
US_CARDS, SOV_CARDS = ("m1", "m2a1", "m1", "m901a1"), ("t-80bv", "bmp-2", "t-72a", "bmp-1")


def generated_position(per_side: int) -> dict:
    """``per_side`` vehicles a side on the meeting-engagement boards (west block vs east block, up to 2 a hex),
    at the start of turn 1; the scenario's objectives and turn limit."""
    game = load_game(DATA / "scenarios" / "mbt" / "meeting-engagement.yaml", DATA).game
    m = game.map
    west = [m.label_of[h] for h in sorted(m.label_of) if 10 <= m.offset(h)[0] <= 13 and 3 <= m.offset(h)[1] <= 10]
    east = [m.label_of[h] for h in sorted(m.label_of) if 26 <= m.offset(h)[0] <= 29 and 3 <= m.offset(h)[1] <= 10]
    units = []
    for side, hexes, cards in (("us", west, US_CARDS), ("sov", east, SOV_CARDS)):
        for k in range(per_side):
            units.append({"id": f"{side}{k}", "card": cards[k % len(cards)], "side": side,
                          "hex": hexes[k % len(hexes)]})
    return {"kind": "position", "scenario": "meeting-engagement", "turn": 1, "phase": "spotting", "units": units}


def generated_game(per_side: int):
    return load_position(generated_position(per_side), DATA).as_loaded().game


def sample_game(name: str):
    return load_game(DATA / "scenarios" / "mbt" / f"{name}.yaml", DATA).game


_CPU: dict = {}


def cpu_anchor() -> float:
    """The same python-chess playouts timed by this process's CPU time (``time.process_time``): a ratio to it
    holds on a loaded machine, where wall-clock figures swing with the other processes."""
    if "chess" not in _CPU:
        _CPU["chess"] = anchor_module.chess_plies_per_s(clock=time.process_time)
        print(f"anchor (CPU time): python-chess random playouts {_CPU['chess']:.0f} plies/s")
    return _CPU["chess"]


def both(label: str, steps: int, wall: float, cpu: float) -> float:
    """Print ``steps`` per wall second beside the anchor measured now, and per CPU second beside the CPU-time
    anchor; return the CPU-time ratio."""
    report(label, steps / wall, anchor(refresh=True))
    return report(f"{label} [CPU time]", steps / cpu, cpu_anchor())


def random_rate(game, seconds: float = 4.0, min_games: int = 2) -> tuple[int, int, float, float]:
    """Random playouts straight through the State API: (actions, games, wall s, CPU s)."""
    rng = random.Random(1)
    steps = games = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < seconds or games < min_games:  # a CPU budget: the same work however loaded
        state = game.new_initial_state(games)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start, time.process_time() - cpu


def bot_rate(game, bots, seconds: float = 6.0, min_games: int = 1) -> tuple[int, int, float, float]:
    """Games through ``studio.sim.runner.play_game`` (observations, bots): (actions, games, wall s, CPU s)."""
    steps = games = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < seconds or games < min_games:  # a CPU budget: the same work however loaded
        result, _ = play_game(game, games, list(bots))
        assert result.error is None, result.error
        steps += result.steps
        games += 1
    return steps, games, time.perf_counter() - start, time.process_time() - cpu


CASES = [(name, lambda name=name: sample_game(name)) for name in SAMPLES] + \
        [(f"generated {n}v{n}", lambda n=n: generated_game(n)) for n in (16, 64)]


@pytest.mark.bench
@pytest.mark.parametrize("label,make", CASES, ids=[c[0].replace(" ", "-") for c in CASES])
def test_bench_mbt_playouts(label, make):
    game = make()
    steps, games, wall, cpu = random_rate(game)
    ratio = both(f"MBT {label} random playouts ({games} games)", steps, wall, cpu)
    steps, games, wall, cpu = bot_rate(game, ("heuristic", "heuristic"))
    h_ratio = both(f"MBT {label} heuristic vs heuristic ({games} games, {games / cpu:.2f} games/s CPU)", steps,
                   wall, cpu)
    assert ratio > 0 and h_ratio > 0


@pytest.mark.bench
def test_bench_mbt_balance_run_16v16(tmp_path):
    """The designer's question: a 1,000-game heuristic-vs-heuristic balance estimate on 2 cores (target <= 60 s)."""
    base = anchor()
    path = tmp_path / "bench-16v16.position.yaml"
    path.write_text(yaml.safe_dump(generated_position(16), sort_keys=False), encoding="utf-8")
    loaded = load_position(path, DATA).as_loaded()
    games = int(os.environ.get("MBT_BENCH_GAMES", "1000"))
    start, cpu = time.perf_counter(), _cpu_seconds()
    result = run_games(loaded, games, seed=1, bots=("heuristic", "heuristic"), jobs=2)
    elapsed = time.perf_counter() - start
    own, workers = (now - was for now, was in zip(_cpu_seconds(), cpu))
    assert len(result.results) == games and all(r.error is None for r in result.results)
    steps = sum(r.steps for r in result.results)
    print(f"\nMBT 16v16 balance run: {games} heuristic games on 2 cores in {elapsed:.1f} s "
          f"(target <= 60 s for 1,000; {elapsed * 1000 / games:.1f} s per 1,000; load {os.getloadavg()[0]:.1f})")
    print(f"  CPU: workers {workers:.1f} s, this process {own:.1f} s: on 2 idle cores about "
          f"{(workers + own) / 2:.1f} s ({(workers + own) / 2 * 1000 / games:.1f} s per 1,000)")
    report("MBT 16v16 balance run (2 processes)", steps / elapsed, base)
    report("MBT 16v16 balance run [CPU time, per process]", steps / (workers + own), cpu_anchor())


def _cpu_seconds() -> tuple[float, float]:
    """CPU seconds (user + system) of this process and of its finished child processes so far."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def fitted_exponent(sizes: list[int], times: list[float]) -> float:
    """Least-squares slope of log(time) on log(units)."""
    xs, ys = [math.log(s) for s in sizes], [math.log(t) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


@pytest.mark.bench
@pytest.mark.parametrize("bots", [("random", "random"), ("heuristic", "heuristic")], ids=["random", "heuristic"])
def test_bench_mbt_time_per_game_scaling(bots):
    """Time per game at 16, 32, 64 and 128 units (half a side each); target: exponent <= 1 (linear)."""
    sizes, times = [16, 32, 64, 128], []
    for units in sizes:
        game = generated_game(units // 2)
        steps, games, wall, cpu = bot_rate(game, bots, seconds=4.0, min_games=2)
        times.append(cpu / games)
        both(f"MBT {bots[0]} {units} units: {cpu / games:.3f} CPU s per game ({games} games)", steps, wall, cpu)
    k = fitted_exponent(sizes, times)
    print(f"MBT {bots[0]} CPU time per game ~ units^{k:.2f} over 16-128 units (target <= 1.00)")
    assert k == k  # a number (not NaN)
