"""Close combat of infantry against armoured units (BfOps 9.4, p.15; digest c.14; examples B74, B75, B85).

A squad qualifies when one of its weapons has a Pen above the target's lowest armour (bottom excluded). It
rolls as many dice as it has hits left, each roll of its Unit Rating or less is 1 Hit, and with Prepared
grenades (4 consecutive Turns stationary and inactive, p.8) one successful roll counts 2. Hits that exceed the
lowest armour disable the vehicle (the outcome is a base rule, M10: 'disabled' is the studio's reading). The
contact distance is a base rule (table ``sequence`` row ``cqb_range_in``, placeholder). Unit Rating first fire
does not apply to CQB (p.16): every CQB of a priority is rolled before the priority's tiers and applied after.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

FACES = ("front", "side", "rear", "top")


@dataclass(frozen=True, slots=True)
class Cqb:
    unit: str
    target: str

    def __str__(self) -> str:
        return f"cqb {self.unit} {self.target}"


def lowest_armour(card) -> int:
    """The lowest armour value but the bottom (BfOps p.15)."""
    return min(getattr(card.armor, f) for f in FACES)


def qualifies(squad_card, target_card) -> bool:
    """Some weapon of the squad has a Pen above the target's lowest armour (B74; 'exceed', A13)."""
    low = lowest_armour(target_card)
    return any(max(a.pen.values(), default=0) > low for w in squad_card.weapons for a in w.ammo)


def cqb_targets(state, u) -> list[Cqb]:
    """The armoured, spotted enemies within CQB contact of an infantry unit that qualifies against them."""
    card = state.game.card_of(u)
    if card.infantry is None:
        return []
    reach = float(state.game.tables.sequence.get("cqb_range_in", 0) or 0)
    out = []
    for t in state.units:
        if t.side == u.side or t.disabled or t.id not in state.spotted[u.side]:
            continue
        tc = state.game.card_of(t)
        if tc.infantry is not None or tc.soft or not qualifies(card, tc):
            continue
        if state.game.distance(u, t) <= reach:
            out.append(Cqb(u.id, t.id))
    return out


def prepared_grenades(state, u) -> bool:
    """4 consecutive Turns stationary and inactive (BfOps p.8; table ``procedures``)."""
    return u.idle >= state.game.tables.procedure("grenade_turns")


def dice_of(state, u) -> int:
    card = state.game.card_of(u)
    return max(0, card.infantry.hits - u.hits)


def resolve_cqb(state, action: Cqb):
    """Roll the squad's dice now; return the closure that applies the result (simultaneous, no UR order)."""
    u, t = state.unit(action.unit), state.unit(action.target)
    card, tc = state.game.card_of(u), state.game.card_of(t)
    rolls = [state.dice.roll(10, f"cqb {u.id}>{t.id}") for _ in range(dice_of(state, u))]
    hits = sum(1 for r in rolls if r <= card.unit_rating)
    if hits and prepared_grenades(state, u):
        hits += 1                                                   # BfOps p.15: one roll applies 2 Hits
    low = lowest_armour(tc)
    state.narrate(f"{u.id} closes with {t.id} (CQB): rolls {rolls} vs UR {card.unit_rating}: {hits} Hit(s) vs lowest "
              f"armour {low}" + (": disabled" if hits > low else ": holds"))
    if hits > low:
        return lambda: setattr(t, "disabled", True)
    return lambda: None


def cqb_chance(state, action: Cqb) -> float:
    """The probability that the CQB disables its target (binomial over the squad's dice), for the bots."""
    u, t = state.unit(action.unit), state.unit(action.target)
    n, p = dice_of(state, u), min(1.0, max(0.0, state.game.card_of(u).unit_rating / 10.0))
    bonus = 1 if prepared_grenades(state, u) else 0
    low = lowest_armour(state.game.card_of(t))
    return sum(comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(1, n + 1) if k + bonus > low)
