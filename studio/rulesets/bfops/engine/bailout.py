"""Infantry carried in vehicles, dismounting, and the Bailout check (BfOps p.16, correction; digest c.14, M11;
B80, B81).

Transport as far as the engine models it: a unit aboard a vehicle (position status ``aboard``: the carrier's
id) is not on the table: it is kept in ``state.carried``, moves with its carrier, neither spots nor fires nor
can be seen or fired at. The carrier's card gives its room (``capabilities.carry_hits``: the infantry Hits it
holds, a jeep 1 = one 1-Hit Fire Team, p.18). The command step's ``dismount E`` (an order: it takes a Command
Card, as every order but a Recon element's) sets the element's passengers down behind their carriers. Mounting
during play is not modelled (the base rules' procedure).

Bailout (p.16, reading ``bailout-six``): when its carrier is disabled (a shot, a mine, CQB), each squad aboard
makes a Bailout check to escape the enclosure: its Unit Rating or less (6 for Infantry, not the rulebook's 3).
Success sets it down beside the wreck, suppressed (reading ``bailout-escape``: the squad was hit); failure
disables it. The vehicle's own crew is no unit of the card model. Collapsing structures are in
:mod:`.structures` (the same check at -3).
"""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Dismount:
    """Set an element's passengers down (a command-step order, BfOps p.17-18)."""

    element: str

    def __str__(self) -> str:
        return f"dismount {self.element}"


def passengers(state, carrier_id: str) -> list:
    return [v for v in state.carried if v.aboard == carrier_id]


def room(state, carrier) -> int:
    """Infantry Hits the carrier may still take aboard."""
    g = state.game
    used = sum(g.card_of(v).infantry.hits for v in passengers(state, carrier.id) if g.card_of(v).infantry)
    return g.card_of(carrier).capabilities.carry_hits - used


def dismount_orders(state, side: int) -> list[Dismount]:
    """``dismount E`` for each live element of ``side`` carrying passengers."""
    carriers = {v.aboard for v in state.carried}
    return [Dismount(e) for e in sorted({u.element for u in state.units if u.side == side and not u.disabled
                                          and u.id in carriers})]


def set_down(state, v, carrier) -> None:
    """Put a passenger on the table just behind its carrier (1/4" beyond the rear of its base)."""
    b = state.game.card_of(carrier).base
    back = b.length_in / 2 + 0.25
    a = math.radians(carrier.facing)
    gw, gd = state.game.geometry.width, state.game.geometry.depth
    v.x = round(min(gw, max(0.0, carrier.x - back * math.sin(a))), 4)
    v.y = round(min(gd, max(0.0, carrier.y - back * math.cos(a))), 4)
    v.facing, v.aboard = carrier.facing, ""
    state.carried.remove(v)
    state.units.append(v)


def dismount(state, element: str) -> None:
    """The element's passengers get out (BfOps p.17-18: an order)."""
    for c in [u for u in state.units if u.element == element and not u.disabled]:
        for v in passengers(state, c.id):
            set_down(state, v, c)
            state.narrate(f"{v.id} dismounts from {c.id}")


def follow(state, carrier) -> None:
    """Passengers ride with their carrier."""
    for v in passengers(state, carrier.id):
        v.x, v.y, v.facing = carrier.x, carrier.y, carrier.facing


def bail_out(state) -> None:
    """Bailout checks of the squads aboard carriers disabled since the last call (module docstring)."""
    if not state.carried:
        return
    g = state.game
    wrecks = {u.id: u for u in state.units if u.disabled}
    for v in [v for v in state.carried if v.aboard in wrecks]:
        carrier = wrecks[v.aboard]
        number = g.card_of(v).unit_rating                                   # BfOps p.16: 6 or less
        roll = state.dice.roll(10, f"bailout {v.id}")
        set_down(state, v, carrier)
        if roll > number:
            v.disabled = True
            state.narrate(f"  {carrier.id} knocked out: {v.id} bailout roll {roll} > {number:g}: disabled")
        else:
            state._suppress(v)                                                # reading bailout-escape
            state.narrate(f"  {carrier.id} knocked out: {v.id} bailout roll {roll} <= {number:g}: escapes")
