"""Illumination flares (star shells, BfOps p.12-13): fired by mortars and artillery with illumination ammunition
during their normal Weapon Priority, here at a scenario objective's point (action ``flare U OBJECTIVE W``;
"star shells deviate just as any other mortar or artillery": under option ``indirect-fire`` = ``deviation`` it
lands where :mod:`.deviation` puts it, else on the point). It lights the area to
daylight: within 2" (calibre up to 100mm) or 3" (larger) no night Spot modifier applies to a unit there, for the
rest of this Weapon Priority sequence and the next two (table ``procedures``). The flare takes the unit's fire
opportunity. Only fired when the scenario's light is not day.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .deviation import deviating, land
from .sniper import BARRAGE


@dataclass(frozen=True, slots=True)
class Flare:
    unit: str
    objective: str
    weapon: int

    def __str__(self) -> str:
        return f"flare {self.unit} {self.objective} {self.weapon}"


def flare_targets(state, u, weapons: list[int]) -> list[Flare]:
    """Star shells ``u`` may fire now: a mortar or artillery weapon with illumination ammunition, at an objective
    within its range, at dusk or night."""
    g = state.game
    if g.scenario.environment.light == "day":
        return []
    card = g.card_of(u)
    out = []
    for wi in weapons:
        w = card.weapons[wi]
        if w.weapon_class not in BARRAGE or not any(a.type == "illumination" for a in w.ammo):
            continue
        for o in g.ext.objectives:
            if math.hypot(o.at[0] - u.x, o.at[1] - u.y) <= w.ranges.long:
                out.append(Flare(u.id, o.id, wi))
    return out


def resolve_flare(state, action: Flare) -> None:
    """The star shell hovers over the objective: lit for the rest of this sequence and the next two (p.12-13)."""
    g = state.game
    t = g.tables
    u = state.unit(action.unit)
    w = g.card_of(u).weapons[action.weapon]
    at = next(o.at for o in g.ext.objectives if o.id == action.objective)
    if deviating(g, w):
        at = land(state, u, w, "@" + action.objective, float(at[0]), float(at[1]))   # BfOps p.12: deviates
    radius = t.procedure("flare_radius_small_in") if (w.caliber_mm or 0) <= t.procedure("flare_small_mm") \
        else t.procedure("flare_radius_large_in")
    last = state.turn + int(t.procedure("flare_sequences"))
    state.flares.append((float(at[0]), float(at[1]), radius, last))
    state.narrate(f"{u.id} fires a star shell ({w.name}) over {action.objective}: at ({at[0]:.1f}, {at[1]:.1f}) lit to daylight within "
                  f"{radius:g}\" through Turn {last} (BfOps p.12-13)")


def lit(state, x: float, y: float) -> bool:
    """A point inside a burning flare's light this Turn."""
    return any(last >= state.turn and math.hypot(x - fx, y - fy) <= r + 1e-9 for fx, fy, r, last in state.flares)
