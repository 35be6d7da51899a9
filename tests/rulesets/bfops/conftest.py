"""Shared set-up for the Battlefield Ops! tests: positions on the sample Mill Valley table."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.rules.position import load_position

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "data"
MEETING = "bfops-meeting-at-the-ford"


@pytest.fixture(scope="session")
def games():
    return {}


@pytest.fixture
def position(games):
    """``position(units, phase='fire', turn=1, to_act='nato', dice=(), options={})`` -> state."""

    def make(units, phase="fire", turn=1, to_act="nato", dice=(), options=None, scenario=MEETING):
        doc = {"kind": "position", "schema_version": 1, "scenario": scenario, "turn": turn, "phase": phase,
               "to_act": to_act, "units": units, "dice": list(dice), "options": options or {}}
        return load_position(doc, DATA, games=games).state

    return make


def unit(uid, card, side, x, y, facing=0, **status):
    return {"id": uid, "card": card, "side": side, "x": x, "y": y, "facing": facing, "status": status}
