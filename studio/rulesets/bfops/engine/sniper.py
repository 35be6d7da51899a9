"""Infantry Sniper Teams (BfOps 9.0, p.15-16) and barrage groupings (p.13).

Snipers: a card whose infantry profile is a ``sniper_team`` (a 1-Hit Fire Team that moves and fights as
Infantry) fires its ``sniper_rifle`` only at Infantry or at the crews of crew-served mortars, artillery and field
guns; fired from a stationary position it hits at +3 (``hit-modifiers`` sniper); its first successful hit on an
infantry element not yet engaged in combat suppresses that whole Platoon or Section. Spotting a stationary
sniper counts it Defilade and Hunkered Down even while it fires (``spot-modifiers`` hunkered_down, a base-rule
value: placeholder); an enemy sniper team or Forward Observer spots it without the Hunkered Down modifier.

Barrage groupings (option ``barrage-grouping``, p.13): ``element`` drops the barrages of one section or platoon
on one target marker: once a mortar or artillery unit of an element has declared its barrage in a Weapon
Priority, its element-mates' barrages of that priority go to the same target. ``individual`` (the standard,
with Full Batteries) lets each unit choose.
"""
from __future__ import annotations

CREW_SERVED = ("mortar", "artillery_towed")   # BfOps p.15: crews of crew-served mortars, artillery, field guns
BARRAGE = ("mortar", "artillery", "howitzer", "field_gun")


def is_sniper(card) -> bool:
    return card.infantry is not None and card.infantry.kind == "sniper_team"


def sniper_may_target(game, weapon, target) -> bool:
    """A sniper rifle engages only Infantry and the crews of crew-served guns and mortars (BfOps p.15)."""
    if weapon.weapon_class != "sniper_rifle":
        return True
    tc = game.card_of(target)
    return tc.infantry is not None or tc.category in CREW_SERVED


def sniper_hit_modifier(game, firer, weapon) -> float:
    """+3 to Hit for a sniper team firing from a stationary position (BfOps p.15)."""
    if weapon.weapon_class == "sniper_rifle" and is_sniper(game.card_of(firer)) and firer.moved <= 0:
        return game.tables.hit_mod["sniper"]
    return 0.0


def sniper_spot_modifier(game, observer, target) -> tuple[bool, float]:
    """(forced Defilade, Hunkered Down modifier) for spotting ``target`` (BfOps p.16): a stationary sniper team
    is Defilade and Hunkered Down even when firing; an enemy sniper team or Forward Observer spots it without
    the Hunkered Down modifier."""
    if not is_sniper(game.card_of(target)) or target.moved > 0:
        return False, 0.0
    oc = game.card_of(observer)
    if is_sniper(oc) or oc.capabilities.forward_observer:
        return True, 0.0
    return True, game.tables.spot_mod["hunkered_down"]


def pin_element(state, firer, target, weapon, fresh: bool):
    """A sniper's successful hit on infantry whose element was not yet engaged in combat suppresses the whole
    Platoon or Section (BfOps p.15); returns the closure applying it, or None."""
    g = state.game
    if not fresh or weapon.weapon_class != "sniper_rifle" or g.card_of(target).infantry is None:
        return None
    mates = [v for v in state.units if v.element == target.element and not v.disabled]
    state.narrate(f"  sniper's first hit on {target.element}: the element is suppressed ({len(mates)} units, "
                  "BfOps p.15)")
    return lambda: [state._suppress(v) for v in mates]


def barrage_marker(state, u, weapon) -> str | None:
    """The target every barrage of ``u``'s element must take this priority (option ``barrage-grouping`` =
    ``element``): the target an element-mate's declared barrage already has; None when free."""
    if state.game.options.get("barrage-grouping") != "element" or weapon.weapon_class not in BARRAGE:
        return None
    for d in state.declared:
        if getattr(d, "weapon", None) is None or d.unit == u.id:
            continue
        mate = state.unit(d.unit)
        if mate.element == u.element and g_weapon(state, mate, d.weapon).weapon_class in BARRAGE:
            return d.target
    return None


def barrage_allows(state, u, fire) -> bool:
    """The shot keeps to the element's target marker (option ``barrage-grouping``, BfOps p.13)."""
    marker = barrage_marker(state, u, g_weapon(state, u, fire.weapon))
    return marker is None or marker == fire.target


def g_weapon(state, unit, index: int):
    return state.game.card_of(unit).weapons[index]
