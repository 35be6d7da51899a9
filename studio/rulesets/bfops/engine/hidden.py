"""Hidden information on a measured table: what one side may know, and its scrambling for the conformance check.

A side does not know the features hidden from it (``hidden_from``: the enemy's minefields, camouflage, prepared
positions, BfOps 5.3, digest d.28), the enemy units it has not spotted this turn (a target "must first be
Spotted", p.14), the enemy's standing orders (commands are issued secretly, BfOps p.16) nor the enemy's
declarations of the Weapon Priority being declared (fire within a priority is simultaneous, p.7). Bots get only
the observation, so they cannot read any of it.
"""
from __future__ import annotations

import copy
import random

from studio.rules.dice import Dice

from .alert import found


def known_game(game, player: int, found=frozenset()):
    """The game as ``player`` knows it: a shallow copy whose table and geometry leave out the features hidden
    from that side, except those in ``found`` (spotted minefields); cached on the game per (side, found), cards,
    tables and options shared."""
    cache = game.__dict__.setdefault("_known", {})
    key = (player, frozenset(found))
    if key not in cache:
        from studio.model.table import table_geometry

        side = game.sides[player]
        view = copy.copy(game)
        view.table = game.table.model_copy(update={"features": [f for f in game.table.features
                                                                if side not in f.hidden_from or f.id in found]})
        view.geometry = table_geometry(view.table, game.terrain_defaults)
        view._nav = {}
        view._known = {key: view}
        view.known_side = player
        cache[key] = view
    return cache[key]


def _hidden_units(state, player: int) -> list:
    """Enemy units ``player`` has not spotted (disabled ones stay on the table as wrecks it may see)."""
    return [u for u in state.units if u.side != player and not u.disabled and u.id not in state.spotted[player]]


def observe(state, player: int):
    """The observation of ``player`` (module docstring)."""
    view = state.clone()
    view.game = known_game(state.game, player, found(state, player))
    hidden = {u.id for u in _hidden_units(state, player)}
    view.unseen = [0, 0]
    aboard = [v for v in view.carried if v.side != player]          # enemy squads inside vehicles (bailout.py)
    view.unseen[1 - player] = state.unseen[1 - player] + len(hidden) + len(aboard)
    view.units = [u for u in view.units if u.id not in hidden]
    view.carried = [v for v in view.carried if v.side == player]
    view.work = {k: n for k, n in view.work.items() if k.split(":")[1] not in hidden}   # tasks of hidden units
    view.charges = {k: n for k, n in view.charges.items() if k not in hidden}    # their demolition charges
    own = {u.element for u in state.units if u.side == player}
    view.orders = {e: m for e, m in view.orders.items() if e in own}
    view.issued = {e: t for e, t in view.issued.items() if e in own}
    view.doubled = {e for e in view.doubled if e in own}
    view.engaged = {e for e in view.engaged if e in own}
    view.mines_known = [set(), set()]
    view.mines_known[player] = set(state.mines_known[player])
    view.mines_local = {k: set(v) for k, v in state.mines_local.items() if k.startswith(f"{player}:")}
    own_markers = {f"unit:{u.id}" for u in state.units + state.carried if u.side == player} | \
        {f"element:{e}" for e in own}
    view.barrages = {k: b for k, b in view.barrages.items() if k in own_markers}   # who fired is not seen
    enemy = {u.id for u in state.units if u.side != player}
    view.declared = [d for d in view.declared if d.unit not in enemy]
    pending = {uid for uid in view.decided if uid in enemy}
    view.decided = view.decided - pending
    view.smoke = {uid: p for uid, p in view.smoke.items() if uid not in pending}
    for u in view.units:
        if u.id in pending:
            u.fired = False                 # its declaration is not known until the priority resolves
    view.events = []
    view.sights, view.legal_cache = {}, None
    view.dice = Dice.seeded_from(view._visible(), record=False)   # the next draws and rolls are not known
    return view


class LazyObservation:
    """``BfopsState.observation(player)``: the view (:func:`observe`) is built when first read and every
    attribute is the view's. Reading it after its state has applied another action is an error (the view would
    show the later state)."""

    __slots__ = ("_state", "_player", "_applied", "_view")

    def __init__(self, state, player: int):
        self._state, self._player, self._applied, self._view = state, player, state.applied, None

    def materialize(self):
        """The view itself (a ``BfopsState``)."""
        if self._view is None:
            if self._state.applied != self._applied:
                raise RuntimeError("an observation read after its state applied another action: take a new one")
            self._view = observe(self._state, self._player)
        return self._view

    def __getattr__(self, name: str):
        return getattr(self.materialize(), name)


def scramble(state, player: int, seed: int):
    """A clone with what ``player`` may not know randomized: unspotted enemy units moved, turned and damaged,
    enemy orders redrawn, enemy declarations of this priority dropped, dice reseeded (the observation of
    ``player`` must not change)."""
    rng = random.Random(seed)
    other = state.clone()
    g = state.game.geometry
    hidden = {u.id for u in _hidden_units(state, player)}
    for u in other.units:
        if u.id in hidden:
            u.x, u.y = round(rng.uniform(0, g.width), 3), round(rng.uniform(0, g.depth), 3)
            u.facing, u.hits, u.moved = rng.randrange(360), rng.randrange(2), rng.uniform(0, 8)
    enemy_elements = {u.element for u in state.units if u.side != player}
    for e in sorted(enemy_elements & set(other.orders)):
        other.orders[e] = rng.choice(state.game.macros)
        other.issued[e] = rng.randrange(1, state.turn + 1)
    other.doubled = {e for e in other.doubled if e not in enemy_elements} | \
        {e for e in sorted(enemy_elements) if rng.random() < 0.3}
    other.engaged = {e for e in other.engaged if e not in enemy_elements} | \
        {e for e in sorted(enemy_elements) if rng.random() < 0.3}
    other.mines_known[1 - player] = {a.id for a in g.areas if a.kind == "minefield" and rng.random() < 0.5}
    enemy = {u.id for u in state.units if u.side != player}
    other.declared = [d for d in other.declared if d.unit not in enemy or rng.random() < 0.5]
    other.dice = Dice(rng.randrange(1 << 30), record=False)
    other.dice.force(*[rng.randint(1, 10) for _ in range(rng.randrange(4))])
    other.sights, other.legal_cache = {}, None
    return other
