"""Helpers for MBT engine tests: a game on the sample boards with hand-placed vehicles of chosen cards."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from studio.hexgrid.coords import distance, neighbour
from studio.model.project import load_project
from studio.rulesets.mbt.engine import game as G
from studio.rulesets.mbt.engine.data import UnitSpec, unit_type

DATA = Path(__file__).resolve().parents[3] / "data"


@lru_cache(maxsize=1)
def index():
    return load_project(DATA)


def new_game(scenario: str = "meeting-engagement", options: dict | None = None) -> G.MbtGame:
    idx = index()
    return G.create_game(idx.model("scenario", scenario), idx, options)


def card(card_id: str):
    return unit_type(index().model("unit", card_id))


def place(game: G.MbtGame, seed: int, units: dict, first: int = 0) -> G.MbtState:
    """A state at the start of a turn with only ``units`` on the map.

    ``units``: name -> (side, card id, hex label, facing). The game's unit list is replaced.
    """
    game.units = [UnitSpec(name, side, card(cid), "f", game.map.hex(label), facing, 0)
                  for name, (side, cid, label, facing) in units.items()]
    game.uindex = {u.name: i for i, u in enumerate(game.units)}
    game.n = len(game.units)
    state = G.MbtState(game, seed)
    state.first = first
    return state


def find(game: G.MbtGame, pred):
    for h in sorted(game.map.label_of):
        if pred(h):
            return h
    raise LookupError("no hex fits")


def terrain(game, h) -> str:
    return game.map.terrain.get(h, "")


def line_pair(game, t_from: str, t_to: str, rng: int):
    """Two hexes of the given terrain codes at range ``rng`` on a straight hex row with clear, level ground
    between them and a clear LOS."""
    for a in sorted(game.map.label_of):
        if terrain(game, a) != t_from:
            continue
        for d in range(6):
            path = [a]
            for _ in range(rng):
                path.append(neighbour(path[-1], d))
            b = path[-1]
            if b not in game.map.label_of or terrain(game, b) != t_to:
                continue
            mid = path[1:-1]
            if all(m in game.map.label_of and terrain(game, m) == "C" for m in mid) and \
                    len({game.elev[x] for x in path}) == 1 and game.los.clear(a, b):
                assert distance(a, b) == rng
                return a, b, d
    raise LookupError("no such pair")
