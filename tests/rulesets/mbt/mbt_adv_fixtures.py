"""Helpers for the MBT Advanced Game tests: games of the sample Advanced scenario (optionally with other Force
Grades or options) and positions on it, set up through the public position API."""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from studio.model.project import load_project
from studio.rules.position import position_state
from studio.rulesets.mbt.engine import game as G

DATA = Path(__file__).resolve().parents[3] / "data"
SCENARIO = "mbt-adv-combined-arms"


@lru_cache(maxsize=1)
def index():
    return load_project(DATA)


@lru_cache(maxsize=32)
def _game(grades: tuple, options: tuple, scenario: str) -> G.MbtGame:
    idx = index()
    sc = idx.model("scenario", scenario)
    ext = sc.extension
    if grades:
        ext = ext.model_copy(update={"force_grades": dict(grades)})
    sc = sc.model_copy(update={"extension": ext})
    return G.create_game(sc, idx, dict(options) or None)


def adv_game(grades: dict | None = None, options: dict | None = None, scenario: str = SCENARIO) -> G.MbtGame:
    """The Advanced game of ``scenario`` with ``grades`` (side -> Force Grade) and ``options``."""
    return _game(tuple(sorted((grades or {}).items())), tuple(sorted((options or {}).items())), scenario)


def unit(uid: str, card: str, side: str, hex_: str, facing: int = 0, **status) -> dict:
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def adv_state(units: list, phase: str = "direct-fire-first", to_act: str | None = None, dice=(), grades=None,
              options=None, turn: int = 1, record: bool = True, **extension):
    """The state of a position on the Advanced scenario's boards; narration on (``record``)."""
    game = adv_game(grades, options)
    pos = {"scenario": SCENARIO, "phase": phase, "turn": turn, "units": units, "dice": list(dice)}
    if to_act:
        pos["to_act"] = to_act
    if extension:
        pos["extension"] = extension
    state = position_state(game, pos)
    state.dice.record = record
    return state


def act(state, text: str):
    """Play one action given as text (checked)."""
    state.play(state.game.parse_action(text))
    return state


@lru_cache(maxsize=64)
def clear_pair(rng: int, t_from: str = "C", t_to: str = "C"):
    """Two hex labels at range ``rng`` along a hex row, both of the given terrain and the same height, with a
    clear LOS between them, and the direction (hexside 0-5) from the first to the second."""
    from studio.hexgrid.coords import neighbour

    g = adv_game()
    for a in sorted(g.map.label_of):
        if g.map.terrain.get(a, "") != t_from:
            continue
        for d in range(6):
            b = a
            for _ in range(rng):
                b = neighbour(b, d)
            if b in g.map.label_of and g.map.terrain.get(b, "") == t_to and g.elev.get(a) == g.elev.get(b) and \
                    g.los.clear(a, b):
                return g.label(a), g.label(b), d
    raise LookupError(f"no pair at range {rng}")
