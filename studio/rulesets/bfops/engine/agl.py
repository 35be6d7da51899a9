"""Automatic grenade launchers in burst mode (BfOps 3.4 EXPANSION, p.7-8; digest c.4; example B11).

Option ``agl-mode``: ``standard`` fires the card's single shots; ``burst`` rolls to hit with 3 dice (table
``procedures`` ``agl_burst_dice``), each at +1 (table ``hit-modifiers`` ``agl_burst``), each die that hits
applying the shot's effect; the HE suppression number is raised by the same +1 (A3). A load holds the card's
bursts (5); when it is spent the launcher reloads for 2 Move Phases (``agl_reload_phases``) while reloads remain
(the card: infantry usually 1), and fires single shots once they are all used.
"""
from __future__ import annotations


def bursting(state, u, w) -> bool:
    """The weapon fires a burst now: an AGL in burst mode with a burst left in its load."""
    if w.agl is None or state.game.options.get("agl-mode") != "burst":
        return False
    return u.bursts < w.agl.bursts_per_load and not u.reloading


def agl_burst(state, u, t, w, ammo, sg, need: float):
    """Roll the burst's to-hit dice; return the closure applying the effect of every die that hits."""
    tables = state.game.tables
    number = need + tables.hit_mod["agl_burst"]                                 # BfOps p.7: each at +1
    u.bursts += 1
    effects, rolls = [], []
    for k in range(int(tables.procedure("agl_burst_dice"))):
        roll = state.dice.roll(10, f"{ammo.type} burst {k + 1} {u.id}>{t.id}")
        rolls.append(roll)
        if roll <= number:
            effects.append(state._effect(u, t, w, ammo, sg, burst=True))
    state.narrate(f"{u.id} fires a {w.name} burst at {t.id}: rolls {rolls} vs {number:g}: {len(effects)} hit(s) "
              f"(burst {u.bursts} of {w.agl.bursts_per_load})")
    return lambda: [apply() for apply in effects]


def agl_reload(state, u) -> None:
    """At each Move Phase: an AGL whose load is spent starts (or goes on) reloading while reloads remain."""
    card = state.game.card_of(u)
    agl = next((w.agl for w in card.weapons if w.agl is not None), None)
    if agl is None:
        return
    if u.reloading:
        u.reloading -= 1
        if not u.reloading:
            u.bursts = 0
            state.narrate(f"{u.id} has reloaded its grenade launcher")
    elif u.bursts >= agl.bursts_per_load and u.reloads < agl.reloads:
        u.reloads += 1
        u.reloading = int(state.game.tables.procedure("agl_reload_phases")) - 1
        if not u.reloading:
            u.bursts = 0
        state.narrate(f"{u.id} reloads its grenade launcher ({u.reloads} of {agl.reloads})")
