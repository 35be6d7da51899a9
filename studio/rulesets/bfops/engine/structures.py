"""Destroying buildings and structures (BfOps 14.0, p.23; digest c.25) and the structures fired at.

Only HE counts, and only a shot whose Pen exceeds the structure's Cover; the Pen of counted hits accumulates over
the game (reading ``structure-damage``: the full Pen); at 10 x Cover the structure collapses into rubble, which is
still an obstruction (B137: the geometry stays), and infantry inside make Bailout checks at -3 (6 or less is the
corrected bailout number, p.16; a failed check disables the squad [I]).
"""
from __future__ import annotations

import math

from . import fire as F

STRUCTURE = "@"   # a Fire action's target naming a feature: '@church'


def structures(game) -> tuple:
    """The table's destroyable structures: areas of solid features with a cover value (listed once per
    geometry: it is static)."""
    g = game.geometry
    found = g.__dict__.get("_structures")
    if found is None:
        found = g.__dict__["_structures"] = tuple(a for a in g.areas if a.solid and a.cover > 0)
    return found


def sight_of(state, u, area):
    """(distance, LOS) from the unit to the structure's representative point, kept in the state's sight cache
    until the next Move Phase."""
    key = (u.id, STRUCTURE + area.id)
    if key not in state.sights:
        state.sights[key] = structure_sight(state.game.geometry, u.x, u.y, area)
    return state.sights[key]


def structure_sight(geometry, x: float, y: float, area):
    """(distance, LOS) from (x, y) to the structure's representative point: a function of the static table
    geometry, memoized on it (a few positions recur all game)."""
    memo = geometry.__dict__.setdefault("_structure_sight", {})
    key = (x, y, area.id)
    hit = memo.get(key)
    if hit is None:
        if len(memo) > 65536:
            memo.clear()
        p = memo.get(("point", area.id))
        if p is None:
            p = memo[("point", area.id)] = area.geom.representative_point()
        hit = memo[key] = (math.hypot(p.x - x, p.y - y), geometry.los(x, y, p.x, p.y, eye=0.35, target=0.1))
    return hit


def structure_targets(state, u, weapons: list[int]) -> list:
    """HE shots at structures in range and sight of unit ``u`` with the given weapons."""
    from .state import Fire

    card = state.game.card_of(u)
    he = [wi for wi in weapons if any(a.type == "HE" for a in card.weapons[wi].ammo)]
    if not he:
        return []
    out = []
    for area in structures(state.game):
        if area.id in state.rubble:
            continue
        dist, los = sight_of(state, u, area)
        if los.ground_block is not None or any(c.blocking and c.area is not area for c in los.crossings):
            continue
        for wi in he:
            w = card.weapons[wi]
            if F.band(w, dist) is not None:
                out.append(Fire(u.id, STRUCTURE + area.id, wi, "HE"))
    return out


def resolve_structure_shot(state, shot):
    """Roll to hit (base number by band and the terrain crossed); a hit whose HE Pen exceeds the Cover adds its
    Pen to the structure's damage; the closure applies it (simultaneous fire)."""
    game = state.game
    u = state.unit(shot.unit)
    area = game.geometry.by_id[shot.target[len(STRUCTURE):]]
    w = game.card_of(u).weapons[shot.weapon]
    he = next(a for a in w.ammo if a.type == "HE")
    dist, los = sight_of(state, u, area)
    b = F.band(w, dist) or "long"
    to_hit = float(game.tables.to_hit[b]) + F.terrain_mods(game, u, los, "hit_per_in")
    if state.dice.roll(10, "to-hit") > to_hit:
        return lambda: None
    pen = float(he.pen.get(b, 0))
    if pen <= area.cover:                                                   # BfOps p.23: must penetrate
        return lambda: None

    def apply():
        state.damage[area.id] = state.damage.get(area.id, 0.0) + pen      # BfOps p.23: total Pen applied
        if state.damage[area.id] >= 10 * area.cover and area.id not in state.rubble:
            collapse(state, area)
    return apply


def collapse(state, area) -> None:
    """Rubble; infantry inside bail out on (6 - 3) or less, else are disabled (BfOps p.16, p.23)."""
    state.rubble.add(area.id)
    for v in state.units:
        card = state.game.card_of(v)
        if v.disabled or card.infantry is None or not area.geom.covers(_point(v)):
            continue
        number = card.unit_rating + state.game.tables.procedure("collapse_bailout")   # BfOps p.16, p.23
        roll = state.dice.roll(10, f"bailout {v.id}")
        if roll > number:
            v.disabled = True
            state.narrate(f"  {area.id} collapses: {v.id} bailout roll {roll} > {number:g}: disabled")
        else:
            state.narrate(f"  {area.id} collapses: {v.id} bailout roll {roll} <= {number:g}: escapes")


def _point(v):
    import shapely

    return shapely.points(v.x, v.y)
