"""The heuristic bot against the random bot from either side of each sample scenario (MBT issue: >= 90%).

The full check (``STUDIO_SLOW=1``, or ``studio play SCENARIO --games 1000 --bots heuristic,random``) plays many
games; the normal run plays one per pairing to keep the suite fast.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.rules.load import load_game
from studio.sim.runner import run_games

DATA = Path(__file__).resolve().parents[3] / "data"
GAMES = 40 if os.environ.get("STUDIO_SLOW") else 1
_LOADED: dict = {}


@pytest.mark.parametrize("scenario", ["meeting-engagement", "hasty-defense", "delaying-action"])
@pytest.mark.parametrize("side", [0, 1])
def test_heuristic_beats_random(scenario, side):
    lg = _LOADED.get(scenario) or _LOADED.setdefault(scenario, load_game(scenario, DATA))
    bots = ["heuristic", "random"] if side == 0 else ["random", "heuristic"]
    report = run_games(lg, GAMES, seed=100 + side, bots=bots)
    assert not report.errors
    wins = report.wins()[lg.game.sides[side]]
    assert wins >= 0.9 * GAMES, report.format_text()
