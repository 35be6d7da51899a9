"""Unit Rating precedence in the Weapon Priority (BfOps p.16; digest a.4, c.15) and the Large Force rally of
suppressed infantry (p.8; digest c.5; B15).

- First fire (p.16): a shot resolves in the tier of its firer's Unit Rating (higher tiers fire and apply their
  hits first). Against "defenses that are already Deployed-In-Position" a difference of 1 is negated: first
  fire needs a difference of 2 (table ``procedures`` dip_first_fire_difference), so a shot at such a target by a
  firer rated less than that above it resolves in the target's tier (simultaneously with it). Reading
  ``deployed-in-position``: a unit of the scenario's preparing side (``extension.prepared``, agreed) sitting in
  a prepared work (camouflage, foxhole, trench). CQB keeps no tiers (p.16).
- Large Force suppression (option ``large-force`` = ``shortcuts``, p.8): suppressed Infantry stay suppressed
  through their next Move Phase; when their Weapon Priority sequence comes, each squad makes a Unit Rating check:
  success lifts the suppression and it may fire, failure keeps it through that sequence (then it lifts as
  usual). Reading ``large-force-rally``: the check is rolled as the sequence begins.
"""
from __future__ import annotations


def deployed_in_position(state, unit) -> bool:
    """A unit of the preparing side in a prepared work (reading ``deployed-in-position``)."""
    g = state.game
    prep = g.ext.prepared
    if not prep.agreed or prep.side is None or prep.side not in g.sides or g.sides.index(prep.side) != unit.side:
        return False
    return bool(g.prepared_cover(unit))


def tier(state, shot) -> int:
    """The Unit Rating tier a shot resolves in (module docstring)."""
    g = state.game
    rating = g.card_of(state.unit(shot.unit)).unit_rating
    if shot.target.startswith("@"):
        return rating
    target = state.unit(shot.target)
    other = g.card_of(target).unit_rating
    need = g.tables.procedure("dip_first_fire_difference")
    if 0 < rating - other < need and deployed_in_position(state, target):
        return other                                                       # BfOps p.16: difference of 2
    return rating


def rally(state) -> None:
    """Large Force rally: suppressed infantry check their Unit Rating as the sequence begins (p.8)."""
    g = state.game
    if g.options.get("large-force") != "shortcuts":
        return
    for u in state.units:
        card = g.card_of(u)
        if u.disabled or not u.sup_fire or card.infantry is None:
            continue
        roll = state.dice.roll(10, f"rally {u.id}")
        if roll <= card.unit_rating:
            u.sup_fire = 0
            state.narrate(f"{u.id} rallies: Unit Rating roll {roll} <= {card.unit_rating}: no longer suppressed "
                          "(BfOps p.8, Large Force)")
        else:
            state.narrate(f"{u.id} stays suppressed: Unit Rating roll {roll} > {card.unit_rating} (BfOps p.8)")
