"""Engine speed: random playouts on a 16-vs-16 vehicle scenario (built here from the sample data) and games per
second with heuristic bots. Run with ``pytest -m bench -s``. Target: >= 5,000 actions/s per core."""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from studio.model.documents import Force, Setup, Side
from studio.model.project import load_project
from studio.rulesets.mbt.engine.game import create_game
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[2] / "data"


def big_game():
    index = load_project(DATA)
    base = index.model("scenario", "meeting-engagement")
    m = create_game(base, index).map
    west = [m.label_of[h] for h in sorted(m.label_of) if 10 <= m.offset(h)[0] <= 13 and 3 <= m.offset(h)[1] <= 10]
    east = [m.label_of[h] for h in sorted(m.label_of) if 26 <= m.offset(h)[0] <= 29 and 3 <= m.offset(h)[1] <= 10]
    us = Side(id="us", name="US", nation="US", forces=[
        Force(id=f"f{i}", toe=toe, setup=Setup(zone=west[i * 8:(i + 1) * 8], facing="SE"))
        for i, toe in enumerate(["us-tank-platoon", "us-tank-platoon", "us-mech-platoon", "us-mech-platoon"])])
    sov = Side(id="sov", name="SOV", nation="SOV", forces=[
        Force(id=f"g{i}", toe=toe, setup=Setup(zone=east[i * 10:(i + 1) * 10], facing="NW"))
        for i, toe in enumerate(["sov-tank-company", "sov-mr-platoon", "sov-tank-platoon"])])
    scenario = base.model_copy(update={"id": "bench-16v16", "sides": [us, sov]})
    game = create_game(scenario, index)
    assert [sum(1 for u in game.units if u.side == s) for s in (0, 1)] == [16, 16]
    return game


@pytest.mark.bench
def test_bench_random_playouts():
    game = big_game()
    rng = random.Random(1)
    steps, games, losses = 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < 10 or games < 3:
        state = game.new_initial_state(games)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        losses += sum(state.outcome().losses)
        games += 1
    elapsed = time.perf_counter() - start
    print(f"\nrandom playouts 16v16: {steps} actions in {elapsed:.2f} s = {steps / elapsed:.0f} actions/s "
          f"({games} games, {losses / games:.1f} vehicles lost per game)")
    assert steps / elapsed > 1000


@pytest.mark.bench
def test_bench_heuristic_games():
    game = big_game()
    start = time.perf_counter()
    games = steps = 0
    while time.perf_counter() - start < 10 or games < 2:
        result, _ = play_game(game, games, ["heuristic", "heuristic"])
        assert result.error is None, result.error
        steps += result.steps
        games += 1
    elapsed = time.perf_counter() - start
    print(f"\nheuristic vs heuristic 16v16: {games} games in {elapsed:.2f} s = {games / elapsed:.2f} games/s "
          f"({steps / elapsed:.0f} actions/s)")
