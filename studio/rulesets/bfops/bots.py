"""Battlefield Ops! heuristic bot, on the public API only (observation, legal actions, ``shot_odds``).

Command step: the first element whose standing order is not the one wanted gets it: 'advance' toward the
objectives while away from them, 'hold' once there. Weapon Priority: the shot with the best chance of effect
(to-hit and effect numbers of ``shot_odds``), holding when none has a chance.
"""
from __future__ import annotations

import math
import random

from .engine.state import Fire, Hold, Order, Pass


class HeuristicBot:
    name = "heuristic"

    def __init__(self, game, side: int, seed: int):
        self.game = game
        self.side = side
        self.rng = random.Random(seed)

    def choose(self, view, legal):
        if any(isinstance(a, Pass) for a in legal):
            return self._order(view, legal)
        return self._shot(view, legal)

    def _wanted(self, view, element: str) -> str:
        units = [u for u in view.units if u.element == element and not u.disabled]
        objs = view.game.ext.objectives
        if not units or not objs:
            return "advance"
        near = min(math.hypot(u.x - o.at[0], u.y - o.at[1]) - o.radius_in for u in units for o in objs)
        return "hold" if near <= -0.5 else "advance"

    def _order(self, view, legal):
        orders = [a for a in legal if isinstance(a, Order)]
        for element in sorted({a.element for a in orders}):
            want = self._wanted(view, element)
            if view.orders.get(element) != want:
                return Order(element, want)
        return Pass()

    def _shot(self, view, legal):
        best, score = None, 0.0
        for a in legal:
            if not isinstance(a, Fire):
                continue
            to_hit, effect = view.shot_odds(a)
            p = max(0.0, min(10.0, to_hit)) / 10.0 * max(0.0, min(10.0, effect)) / 10.0
            if p > score + 1e-12:
                best, score = a, p
        return best if best is not None else next(a for a in legal if isinstance(a, Hold))
