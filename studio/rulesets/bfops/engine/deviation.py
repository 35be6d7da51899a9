"""Indirect fire deviation and the Corrected Fire cap (BfOps p.13; digest c.13, M8; B62, B63).

Deviation is a base rule the update only references ("star shells deviate just as any other mortar or
artillery"): with option ``indirect-fire`` = ``deviation`` a mortar or artillery barrage (and a star shell)
rolls the deviation die (table ``sequence`` deviation_die, placeholder), modified by the Corrected Fire
reduction, and lands the table ``deviation`` distance (placeholder) from its aim point in the direction of the
direction die (``sequence`` direction_die, a clock face: 12 north, 3 east). The barrage strikes the aimed
target if its base lies within ``sequence`` barrage_radius_in of the landing point, else the nearest unit there
(either side: a barrage is no respecter of friends), else nothing. ``on-target`` (the default) lands every
barrage where it is aimed: the to-hit roll alone decides, as before deviation was modelled.

Corrected Fire (p.13, update text, table ``procedures``): -2 for the correction, another -2 when the unit
correcting fire has Forward Observer capability, the card's own adjustment (weapon ``correction_adjustment``)
added, and the whole reduction never beyond -4 (``max_correction``; the value after "remains at" is lost, X3,
the context says -4). Reading ``corrected-fire``: fire is corrected when the barrage marker (the unit, or its
element under option ``barrage-grouping`` = ``element``) dropped its last barrage on the same aim point in an
earlier Weapon Priority of this Turn or the previous one; the corrector is the firer, or a friendly Forward
Observer that has the target in sight. Under ``element`` grouping the element's barrages of one priority share
one landing (one target marker and one deviation, B63).
"""
from __future__ import annotations

import math

import shapely

from .sniper import BARRAGE


def deviating(game, weapon) -> bool:
    """A barrage weapon under option ``indirect-fire`` = ``deviation``."""
    return game.options.get("indirect-fire") == "deviation" and weapon.weapon_class in BARRAGE


def marker_key(state, u) -> str:
    """Who owns the target marker: the element under option ``barrage-grouping`` = ``element``, else the unit."""
    return f"element:{u.element}" if state.game.options.get("barrage-grouping") == "element" else f"unit:{u.id}"


def correction(game, corrected: bool, fo: bool, card_adjustment: float = 0.0) -> float:
    """The reduction of the deviation die (BfOps p.13, B62): 0 for first-round fire; -2, -2 more with a Forward
    Observer, plus the card's adjustment, never beyond -4."""
    if not corrected:
        return 0.0
    t = game.tables
    total = t.procedure("corrected_fire") + (t.procedure("fo_correction") if fo else 0.0) + card_adjustment
    return max(t.procedure("max_correction"), total)                          # BfOps p.13: at most -4


def _is_corrected(state, key: str, aim: str) -> bool:
    """The marker's last barrage, this Turn or the previous one, went at the same aim (reading ``corrected-fire``;
    a mate's barrage of this very priority shares its landing instead, :func:`land`)."""
    last = state.barrages.get(key)
    return last is not None and last[0] == aim and state.turn - last[1] <= 1


def _has_fo(state, u, target) -> bool:
    """The firer has Forward Observer capability, or a friendly Forward Observer sees the target (reading)."""
    g = state.game
    if g.card_of(u).capabilities.forward_observer:
        return True
    if target is None:
        return False
    return any(v.side == u.side and not v.disabled and g.card_of(v).capabilities.forward_observer
               and target.id in state.spotted[u.side] and not state.sight(v, target).blocked
               for v in state.units if v is not u)


def land(state, u, weapon, aim: str, x: float, y: float, target=None) -> tuple[float, float]:
    """Where the barrage aimed at (x, y) lands (module docstring); records the marker's barrage. A mate's
    barrage of the same marker in this priority lands where the first did."""
    g = state.game
    key = marker_key(state, u)
    last = state.barrages.get(key)
    if last is not None and last[0] == aim and (last[1], last[2]) == (state.turn, state.priority):
        return last[3], last[4]                                                  # BfOps p.13: one deviation
    fo = _has_fo(state, u, target)
    mod = correction(g, _is_corrected(state, key, aim), fo, float(weapon.correction_adjustment))
    seq = g.tables.sequence
    roll = state.dice.roll(int(seq["deviation_die"]), f"deviation {u.id}>{aim}")
    dist = g.tables.band_value(g.tables.deviation, roll + mod)
    lx, ly = x, y
    if dist > 0:
        clock = state.dice.roll(int(seq["direction_die"]), f"deviation direction {u.id}>{aim}")
        angle = math.radians(clock * 360.0 / seq["direction_die"])
        lx, ly = x + dist * math.sin(angle), y + dist * math.cos(angle)
        where = f"{dist:g}\" toward {clock} o'clock"
    else:
        where = "on its aim point"
    state.narrate(f"{u.id} barrage at {aim}: deviation roll {roll}{mod:+g} ({'corrected' if mod else 'first round'}"
                  f"{', FO' if mod and fo else ''}) lands {where} (BfOps p.13)")
    state.barrages[key] = (aim, state.turn, state.priority, round(lx, 4), round(ly, 4))
    return state.barrages[key][3], state.barrages[key][4]


def struck(state, u, target, weapon):
    """The unit the barrage aimed at ``target`` strikes under option ``indirect-fire`` = ``deviation`` (module
    docstring): the target, another unit under the barrage (the nearest), or None."""
    x, y = land(state, u, weapon, target.id, target.x, target.y, target)
    g = state.game
    reach = g.tables.sequence["barrage_radius_in"]
    here = shapely.points(x, y)
    under = sorted((float(shapely.distance(here, g.footprint(v))), v.id, v) for v in state.units if not v.disabled)
    under = [(d, v) for d, _, v in under if d <= reach + 1e-9]
    if any(v is target for _, v in under):
        return target
    if under:
        state.narrate(f"  the barrage falls on {under[0][1].id} instead of {target.id}")
        return under[0][1]
    state.narrate(f"  no unit under the barrage: {target.id} is not struck")
    return None
