"""A shot that continues through its target to a unit directly behind (BfOps p.22; digest c.23; B129, B130).

After an AP hit on an armoured target, the first unit (of either side: the rule is 'strongly recommended' to be
applied universally, friendly units may be struck) whose base the line from the firer through the target meets
beyond it, within 1/10 of the weapon's maximum range past the target, is a second target: a second to-hit roll at
the first shot's number -4 (table ``hit-modifiers`` through; A20: a second roll is made), and on a hit the effective
Pen round((Pen - the two faces of the first target passed) / 3) against the face it strikes.
"""
from __future__ import annotations

import math

import shapely

from . import fire as F

OPPOSITE = {"front": "rear", "rear": "front", "side": "side"}


def behind(state, u, t, w):
    """The unit directly behind ``t`` on the line from ``u``, within max range / 10 of ``t``, or None."""
    if w.ranges.max is None:
        return None
    reach = w.ranges.max / 10.0
    dx, dy = t.x - u.x, t.y - u.y
    d = math.hypot(dx, dy) or 1e-9
    far = d + reach + 2.0
    ray = shapely.linestrings([(t.x, t.y), (u.x + dx / d * far, u.y + dy / d * far)])
    foot_t = state.game.footprint(t)
    best = None
    for v in state.units:
        if v is u or v is t or v.disabled:
            continue
        foot = state.game.footprint(v)
        if not shapely.intersects(ray, foot):
            continue
        gap = float(shapely.distance(foot_t, foot))
        along = (v.x - u.x) * dx / d + (v.y - u.y) * dy / d
        if along > d and gap <= reach + 1e-9 and (best is None or along < best[0]):
            best = (along, v)
    return best[1] if best else None


def second_shot(state, u, t, w, ammo, need: float):
    """The closure of the shot continuing to the unit behind ``t`` (none: a no-op), rolled now."""
    if ammo.type != "AP":
        return None
    tc = state.game.card_of(t)
    if tc.infantry is not None or tc.soft:
        return None
    v = behind(state, u, t, w)
    if v is None:
        return None
    number = need + state.game.tables.hit_mod["through"]                     # BfOps p.22: -4
    roll = state.dice.roll(10, f"AP through {t.id}>{v.id}")
    if roll > number:
        state.narrate(f"  the shot goes on through {t.id} at {v.id}: roll {roll} > {number:g} misses")
        return None
    face = F.struck_face(state.game, u, t)
    faces = getattr(tc.armor, face) + getattr(tc.armor, OPPOSITE.get(face, face))
    sg = state.sight(u, v)
    band = F.band(w, sg.distance) or "long"
    pen = float(round((float(ammo.pen.get(band, ammo.pen.get("medium", 0))) - faces) / 3.0))   # p.22 steps 2-4
    vc = state.game.card_of(v)
    if vc.infantry is not None or vc.soft:
        state.narrate(f"  through {t.id} ({faces} armour passed): Pen {pen:g} strikes {v.id}")
        return state._soft_effect(v, vc, w, ammo, pen)
    vface = F.struck_face(state.game, u, v)
    need_v = pen - getattr(vc.armor, vface)
    if need_v >= 1:
        r = state.dice.roll(10, f"disable {v.id}")
        if r <= need_v:
            state.narrate(f"  through {t.id} ({faces} armour passed): Pen {pen:g} vs {vface} "
                      f"{getattr(vc.armor, vface)}: roll {r} <= {need_v:g}: {v.id} disabled")
            return lambda: setattr(v, "disabled", True)
    state.narrate(f"  through {t.id} ({faces} armour passed): Pen {pen:g} does not disable {v.id}")
    return None
