"""Demolitions (BfOps p.20, digest c.20, B109-B113): breaching walls and demolishing buildings with charges.

- A unit carrying demolition charges (card capability ``demolitions``: leg engineer squad 3, engineering jeep 3,
  medium engineering truck 10 charge levels, B110), holding adjacent to a wall or building (its base within the
  adjacency distance of table ``sequence``), may be told ``demolish U TARGET L`` (free: engineers need no Command
  Card, p.19) for a Level 1-3 charge it still has the levels for (levels add up: a Level 3 charge uses 3).
- It stays the set time of table ``demolition`` (fire-team sized, i.e. half squads and jeep or truck crews: 2/4/6
  Move Phases; squad sized 1/2/3, B109), then the charge levels are spent and it makes a Unit Rating check with
  the bonus ``demolition_breach_bonus`` (+1, "total = 7", table ``procedures``).
- Success on a wall clears a 1" section at the point of the wall nearest the unit; option ``wall-breach`` (A19):
  ``twice-for-vehicles`` lets infantry through a section cleared once and vehicles only where it was breached
  twice (B113: "enough for a column of vehicles"), ``once`` lets every unit through the first. Success on a
  building applies the charge's HE Pen (table ``demolition``: 40/70/90, B111) as a hit under the
  structure-destruction rules (:mod:`.structures`: counted when above the Cover, collapse at 10 x Cover).
- A roll of 10 detonates the charge: a second, plain Unit Rating check (A18: no bonus stated); failed, the unit
  is fully disabled. Failure otherwise clears nothing (the charge is spent either way, reading
  ``demolition-charges``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import shapely

from .structures import collapse

WALL = "wall"
SECTION_IN = 0.5    # a cleared 1" section reaches 1/2" either side of the point it was set at (BfOps p.20)


@dataclass(frozen=True, slots=True)
class Demolish:
    """Set a Level ``level`` charge at structure ``target`` (BfOps p.20)."""

    unit: str
    target: str
    level: int

    def __str__(self) -> str:
        return f"demolish {self.unit} {self.target} {self.level}"


def team(card) -> str:
    """The set-time column: ``squad`` for an infantry squad, ``fire_team`` for half squads, fire teams and the
    crews of jeeps and trucks (BfOps p.20)."""
    return "squad" if card.infantry is not None and card.infantry.kind == "squad" else "fire_team"


def charges_left(state, u) -> int:
    return state.game.card_of(u).capabilities.demolitions - state.charges.get(u.id, 0)


def _ready(state, u) -> bool:
    return not (u.disabled or u.sup_move) and state.orders.get(u.element, "hold") == "hold"


def targets(state, u) -> list:
    """Walls and buildings (solid features with a Cover value, not rubble) adjacent to the unit's base."""
    g = state.game
    reach = g.tables.sequence["adjacent_in"]
    return [a for a, _ in g.geometry.areas_within(g.footprint(u), reach, kinds=("wall", "building"))
            if a.solid and a.cover > 0 and a.id not in state.rubble]


def _busy(state, uid: str) -> bool:
    return any(k.split(":")[1] == uid for k in state.work if k.startswith("demolish:"))


def demolish_actions(state, side: int) -> list:
    """``demolish U TARGET L`` for each ready unit of ``side`` with charges, each adjacent structure and each
    level of table ``demolition`` it has the charge levels for."""
    g = state.game
    out = []
    for u in state.units:
        if u.side != side or not g.card_of(u).capabilities.demolitions or not _ready(state, u) or \
                _busy(state, u.id):
            continue
        left = charges_left(state, u)
        for area in targets(state, u):
            out += [Demolish(u.id, area.id, lv) for lv in sorted(g.tables.demolition) if lv <= left]
    return out


def order(state, action: Demolish) -> None:
    """Start setting the charge; the Move Phases are counted in ``state.work``."""
    state.work[f"demolish:{action.unit}:{action.target}:{action.level}"] = 0


def progress(state) -> None:
    """One Move Phase at each charge being set; a unit no longer holding adjacent to its target drops it."""
    g = state.game
    for key in sorted(k for k in state.work if k.startswith("demolish:")):
        _, uid, target, level = key.split(":")
        u = state.unit(uid)
        if not _ready(state, u) or target not in {a.id for a in targets(state, u)}:
            del state.work[key]
            state.narrate(f"{uid} stops setting its charge at {target} (BfOps p.20)")
            continue
        row = g.tables.demolition[int(level)]
        need = max(1, int(row[f"{team(g.card_of(u))}_phases"]))
        state.work[key] += 1
        if state.work[key] < need:
            state.narrate(f"{uid} sets a Level {level} charge at {target}: Move Phase {state.work[key]} of {need} "
                          "(BfOps p.20)")
            continue
        del state.work[key]
        state.charges[uid] = state.charges.get(uid, 0) + int(level)
        _detonate(state, u, g.geometry.by_id[target], int(level), float(row["pen"]))


def _detonate(state, u, area, level: int, pen: float) -> None:
    """The Unit Rating check after the set time (BfOps p.20)."""
    card = state.game.card_of(u)
    number = card.unit_rating + state.game.tables.procedure("demolition_breach_bonus")
    roll = state.dice.roll(10, f"demolish {u.id}>{area.id}")
    if roll == 10:                                                          # BfOps p.20: a 10 detonates
        again = state.dice.roll(10, f"demolish again {u.id}>{area.id}")
        if again > card.unit_rating:
            u.disabled = True
            state.narrate(f"{u.id}'s charge at {area.id} detonates: roll 10, second check {again} > "
                          f"{card.unit_rating}: the unit is disabled (BfOps p.20)")
        else:
            state.narrate(f"{u.id}'s charge at {area.id} detonates: roll 10, second check {again} <= "
                          f"{card.unit_rating}: the unit escapes")
        return
    if roll > number:
        state.narrate(f"{u.id}'s Level {level} charge fails at {area.id}: roll {roll} > {number:g} (BfOps p.20)")
        return
    if area.kind == WALL:
        x, y = _nearest_on(area, u.x, u.y)
        state.breaches.setdefault(area.id, []).append((x, y))
        state.narrate(f"{u.id} blows a 1\" section of wall {area.id} at ({x:g}, {y:g}): roll {roll} <= {number:g}, "
                      f"breached {breaches_at(state, area, x, y)} time(s) there (BfOps p.20)")
        return
    state.narrate(f"{u.id}'s Level {level} charge (HE Pen {pen:g}) goes off at {area.id}: roll {roll} <= "
                  f"{number:g} (BfOps p.20)")
    if pen > area.cover:                                                    # BfOps p.23: must penetrate
        state.damage[area.id] = state.damage.get(area.id, 0.0) + pen
        if state.damage[area.id] >= 10 * area.cover and area.id not in state.rubble:
            collapse(state, area)


def _nearest_on(area, x: float, y: float) -> tuple[float, float]:
    f = area.data.get("feature")
    here = shapely.points(x, y)
    if f is not None and f.shape == "polyline" and len(f.points) >= 2:
        line = shapely.linestrings([tuple(p) for p in f.points])
    else:
        line = area.geom.exterior
    p = shapely.get_coordinates(shapely.line_interpolate_point(line, shapely.line_locate_point(line, here)))[0]
    return round(float(p[0]), 3), round(float(p[1]), 3)


# ------------------------------------------------------------------ passing a breached wall

def breaches_at(state, area, x: float, y: float) -> int:
    """How many sections were blown within 1/2" of (x, y) on the wall."""
    return sum(1 for px, py in state.breaches.get(area.id, ()) if math.hypot(px - x, py - y) <= SECTION_IN + 1e-9)


def needed(state, mover: str) -> int:
    """Breaches a mover needs at one spot (option ``wall-breach``, A19)."""
    if mover == "infantry" or state.game.options.get("wall-breach") == "once":
        return 1
    return 2


def wall_open(state, area, x: float, y: float, mover: str) -> bool:
    """The wall is breached enough at (x, y) for the mover class (B113)."""
    return area.kind == WALL and breaches_at(state, area, x, y) >= needed(state, mover)


def gaps(state, area, mover: str) -> list[tuple[float, float]]:
    """The points of the wall where the mover class may pass (for the planner's raster)."""
    return sorted({p for p in state.breaches.get(area.id, ()) if wall_open(state, area, *p, mover)})
