"""Prepared works in play (BfOps 5.3, p.10): fencing, oil slicks and the breaches cut through fences and wire.

- Fencing stops infantry for 3 Move Phases, after which they pass freely at that spot (the breach, a 1" section,
  passes everyone after). Vehicles pass it only moving faster than Cruise (reading ``fencing-speed``: at
  Cruise they stop before it), with the Bog check of table ``obstacle-crossing`` (wheeled by axles, light tanks
  and APCs -2, tanks none).
- An oil slick does nothing until ignited: a unit of the side that prepared it, adjacent to it, makes a Unit
  Rating check in a Weapon Priority (action ``ignite U SLICK``, its decision for that priority). Burning (4 Turns,
  table ``procedures``) it stops infantry and Soft Units, strikes the tires of wheeled armour with Pen 2 (a tire
  immobilized when Pen >= its armour: it passes and stops just beyond), leaves tracked armour alone, and a sight
  line through it spots and hits at -3 (``spot-modifiers`` / ``hit-modifiers`` burning_slick).
- Towing or earthmoving engineer units (card capability ``earthmoving``) moving into wire or fencing clear a 1"
  section (p.19); other units then pass there freely. Other engineer vehicles (trucks, dump trucks: capability
  ``engineer`` without ``earthmoving``) holding adjacent to wire or fencing prepare it for ``wire_prepare_phases``
  Move Phases (2, table ``procedures``) and clear the 1" section nearest them (p.19).
- Filling (p.20, B114): an earthmoving vehicle holding adjacent to a trench its side did not prepare fills
  ``fill_in_per_phase`` inches of it per Move Phase (1/2", the reading of the lost inch mark, table
  ``procedures``) around the point nearest it; a mover crosses the trench freely where the filled length covers
  its base's width.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import shapely

from .movement import cut, polyline_length
from .support import centre_line, holding, tick

FENCE, SLICK, WIRE = "fencing", "oil_slick", "wire"
BREACH_IN = 0.5   # a cleared 1" section reaches 1/2" either side of where it was cut (BfOps p.10, p.19)


@dataclass(frozen=True, slots=True)
class Ignite:
    """A unit adjacent to its side's oil slick tries to ignite it (BfOps p.10)."""

    unit: str
    slick: str

    def __str__(self) -> str:
        return f"ignite {self.unit} {self.slick}"


# ------------------------------------------------------------------ oil slicks

def burning(state, area_id: str) -> bool:
    """The slick burns this Turn (ignited and its 4 Turns not over, BfOps p.10)."""
    return state.burning.get(area_id, 0) >= state.turn


def through_fire(state, sight_) -> bool:
    """The sight line crosses a burning oil slick (BfOps p.10: -3 to Spot and to Hit through it)."""
    return any(c.area.kind == SLICK and burning(state, c.area.id) for c in sight_.los.crossings)


def slick_owner(game, area) -> int | None:
    """The side that may ignite a slick: attribute ``owner`` (a side id), else the preparing side of the
    scenario's prepared works; None for a slick nobody prepared."""
    f = area.data.get("feature")
    owner = f.attributes.get("owner") if f is not None else None
    if owner is None and f is not None and any(p.id == f.id for p in game.ext.prepared.features):
        owner = game.ext.prepared.side
    return game.sides.index(owner) if owner in game.sides else None


def ignite_targets(state, u) -> list[Ignite]:
    """Slicks of ``u``'s side not burning, within the adjacency distance of its base (table ``sequence``)."""
    g = state.game
    reach = g.tables.sequence["adjacent_in"]
    foot = g.footprint(u)
    return [Ignite(u.id, a.id) for a, _ in g.geometry.areas_within(foot, reach, kinds=[SLICK])
            if not burning(state, a.id) and slick_owner(g, a) == u.side]


def resolve_ignite(state, action: Ignite) -> None:
    """A Unit Rating check; success sets the slick burning for ``slick_burn_turns`` Turns (BfOps p.10)."""
    u = state.unit(action.unit)
    card = state.game.card_of(u)
    roll = state.dice.roll(10, f"ignite {u.id}>{action.slick}")
    if roll <= card.unit_rating:
        state.burning[action.slick] = state.turn + int(state.game.tables.procedure("slick_burn_turns")) - 1
        state.narrate(f"{u.id} ignites oil slick {action.slick}: roll {roll} <= UR {card.unit_rating}; it burns "
                      f"through Turn {state.burning[action.slick]} (BfOps p.10)")
    else:
        state.narrate(f"{u.id} fails to ignite oil slick {action.slick}: roll {roll} > UR {card.unit_rating}")


def cross_slick(state, u, card, path: list, at: float, area, mover: str) -> list:
    """A mover entering a burning slick (BfOps p.10): infantry and Soft Units stop before it; wheeled armour
    takes Pen 2 on its tires and, immobilized, passes and stops just beyond; tracked armour passes."""
    if not burning(state, area.id):
        return path
    if mover == "infantry" or card.soft:
        state.narrate(f"{u.id} is stopped by the burning oil slick {area.id} (BfOps p.10)")
        return cut(path, max(0.0, at - 0.1))
    if card.propulsion != "wheeled":
        return path
    pen = state.game.tables.procedure("slick_pen")
    if card.armor.tires is not None and pen >= card.armor.tires:
        u.immobilized = True
        beyond = exit_along(path, area) + 0.1
        state.narrate(f"{u.id} drives through the burning slick {area.id}: Pen {pen:g} >= tire armour "
                      f"{card.armor.tires}: immobilized beyond it (BfOps p.10)")
        return cut(path, min(polyline_length(path), beyond))
    return path


def exit_along(path: list, area) -> float:
    """Inches along ``path`` where it last leaves ``area``."""
    line = shapely.linestrings(path)
    part = shapely.intersection(line, area.geom)
    ends = [shapely.line_locate_point(line, shapely.get_point(p, -1)) for p in shapely.get_parts(part)]
    return float(max(ends)) if ends else 0.0


# ------------------------------------------------------------------ fencing and breaches

def breached(state, area, x: float, y: float) -> bool:
    """A 1" section of the fence or wire around (x, y) has been cleared (BfOps p.10, p.19)."""
    return any(math.hypot(px - x, py - y) <= BREACH_IN + 1e-9 for px, py in state.breaches.get(area.id, ()))


def breach(state, area, x: float, y: float, by: str) -> None:
    state.breaches.setdefault(area.id, []).append((round(x, 3), round(y, 3)))
    state.narrate(f"{by} clears a 1\" section of {area.kind} {area.id} (BfOps p.10, p.19)")


def entry_point(path: list, at: float) -> tuple[float, float]:
    p = cut(path, at)[-1]
    return float(p[0]), float(p[1])


def engineer_clears(state, u, card, path: list, at: float, area) -> bool:
    """A towing or earthmoving engineer unit (capability ``earthmoving``) moving into wire or fencing clears a
    1" section and passes (BfOps p.19)."""
    if not card.capabilities.earthmoving or area.kind not in (WIRE, FENCE):
        return False
    breach(state, area, *entry_point(path, at), by=u.id)
    return True


def cross_fence(state, u, path: list, at: float, area, mover: str, band: str, row) -> tuple[list, bool]:
    """Fencing entered ``at`` inches along the path (BfOps p.10). Returns (path, done): ``done`` False hands the
    crossing on to the table row's Bog check. Infantry stop until they have spent ``fence_stop_phases`` Move
    Phases at it, then the spot is breached; vehicles at Cruise stop before it (reading ``fencing-speed``)."""
    x, y = entry_point(path, at)
    if breached(state, area, x, y):
        return path, True
    stop = cut(path, max(0.0, at - 0.1))
    if mover == "infantry":
        key = f"fence:{u.id}:{area.id}"
        state.work[key] = state.work.get(key, 0) + 1
        left = int(state.game.tables.procedure("fence_stop_phases")) - state.work[key]
        if left <= 0:
            del state.work[key]
            breach(state, area, x, y, by=u.id)
        else:
            state.narrate(f"{u.id} is stopped at fencing {area.id}: {left} more Move Phase(s) (BfOps p.10)")
        return stop, True
    if band != "above_cruise":
        state.narrate(f"{u.id} at Cruise may not pass fencing {area.id}: it must move faster than Cruise "
                      "(BfOps p.10)")
        return stop, True
    return path, False


def has_slicks(game) -> bool:
    """The table has an oil slick (cached on the game: the fire phase asks often)."""
    cached = game.__dict__.get("_has_slicks")
    if cached is None:
        cached = game.__dict__["_has_slicks"] = any(a.kind == SLICK for a in game.geometry.areas)
    return cached


# ------------------------------------------------------------------ engineer vehicles preparing wire (p.19)

def _along(line, x: float, y: float) -> float:
    return round(float(shapely.line_locate_point(line, shapely.points(x, y))), 3)


def _at(line, t: float) -> tuple[float, float]:
    p = shapely.get_coordinates(shapely.line_interpolate_point(line, t))[0]
    return round(float(p[0]), 3), round(float(p[1]), 3)


def _own(state, u, area) -> bool:
    return slick_owner(state.game, area) == u.side


def prepare_wire(state) -> None:
    """Engineer vehicles without earthmoving gear holding adjacent to wire or fencing clear a 1" section after
    ``wire_prepare_phases`` Move Phases there (BfOps p.19; they then back out of it)."""
    g = state.game
    reach = g.tables.sequence["adjacent_in"]
    need = max(1, int(g.tables.procedure("wire_prepare_phases")))
    for u in state.units:
        caps = g.card_of(u).capabilities
        if not caps.engineer or caps.earthmoving or g.card_of(u).propulsion == "foot" or not holding(state, u) \
                or u.sup_move:
            continue
        for area, _ in g.geometry.areas_within(g.footprint(u), reach, kinds=(WIRE, FENCE)):
            line = centre_line(area)
            if line is None or _own(state, u, area):
                continue
            x, y = _at(line, _along(line, u.x, u.y))
            if breached(state, area, x, y):
                continue
            if tick(state, f"wire:{u.id}:{area.id}", need):
                breach(state, area, x, y, by=u.id)
            else:
                state.narrate(f"{u.id} prepares {area.kind} {area.id} to be cleared (BfOps p.19)")
            break


# ------------------------------------------------------------------ filling trenches (p.20, B114)

def fill_trenches(state) -> None:
    """Earthmoving vehicles holding adjacent to a trench fill ``fill_in_per_phase`` inches of it, centred on
    the point of its centre line nearest them (module docstring)."""
    g = state.game
    reach = g.tables.sequence["adjacent_in"]
    per = g.tables.procedure("fill_in_per_phase")
    for u in state.units:
        card = g.card_of(u)
        if not card.capabilities.earthmoving or card.propulsion == "foot" or not holding(state, u) or u.sup_move \
                or u.immobilized or not card.movement.cruise:
            continue
        for area, _ in g.geometry.areas_within(g.footprint(u), reach, kinds=("trench",)):
            line = centre_line(area)
            if line is None or _own(state, u, area):
                continue
            c = _along(line, u.x, u.y)
            spans = [s for s in state.filled.get(area.id, ()) if abs(s[0] - c) > 1e-6]
            done = next((s[1] for s in state.filled.get(area.id, ()) if abs(s[0] - c) <= 1e-6), 0.0)
            state.filled[area.id] = sorted(spans + [(c, round(done + per, 3))])
            state.narrate(f"{u.id} fills {done + per:g}\" of trench {area.id} (BfOps p.20)")
            break


def filled_at(state, area, x: float, y: float, width: float) -> bool:
    """A base ``width`` inches wide crossing the trench at (x, y) lies within one filled length."""
    spans = state.filled.get(area.id)
    line = centre_line(area) if spans else None
    if line is None:
        return False
    t = _along(line, x, y)
    return any(abs(t - c) + width / 2 <= length / 2 + 1e-9 for c, length in spans)


def fill_points(state, area, width: float) -> list[tuple[float, float]]:
    """Points of the trench a base ``width`` wide may cross at (the centres of long enough filled lengths)."""
    line = centre_line(area) if state.filled.get(area.id) else None
    if line is None:
        return []
    return [_at(line, c) for c, length in state.filled[area.id] if length + 1e-9 >= width]
