"""Battlefield Ops! heuristic bot, on the public API only (observation, legal actions, ``shot_odds``).

Command step: each element is assigned an objective (nearest first, spread over the objectives); the first
element whose standing order differs gets 'to-<objective>' while away from it, 'hold' once inside.
Elements bound for an objective farther than DOUBLE_BEYOND move double-time when their order stands from an
earlier Turn. Weapon Priority: the shot (or close combat, ``cqb_odds``) with the best chance of effect (to-hit
and effect numbers of ``shot_odds``) weighted by the target's threat (its best Pen), holding when none has a
chance.
"""
from __future__ import annotations

import math
import random

#: an objective's worth counts the enemy's points for holding it at this weight (contesting denies them)
DENY = 1.0
#: a mortar or gun element farther than this (inches) from every objective stays where it is and fires from there
SUPPORT_WITHIN = 12.0
#: the order of an element inside its objective
SETTLE = "hold"
#: how far an objective's share of the elements may exceed its share of the victory points (1 = exact shares)
SPREAD = 1.6

from .engine.alert import Alert
from .engine.bailout import Dismount
from .engine.cqb import Cqb
from .engine.state import Double, Fire, Hold, Order, Pass
from .engine.works import Ignite

#: a shot past a friendly unit on the line (struck on a 10, BfOps p.21) counts this share of its chance
SCREENED = 0.5
#: an element bound for an objective farther than this (inches) moves double-time when it may (BfOps p.16)
DOUBLE_BEYOND = 12.0
#: an oil slick is ignited once a seen enemy is this close to it (inches), unless a shot is worth more (p.10)
IGNITE_WITHIN = 10.0
IGNITE_WORTH = 0.3


class HeuristicBot:
    name = "heuristic"

    def __init__(self, game, side: int, seed: int):
        self.game = game
        self.side = side
        self.rng = random.Random(seed)

    def choose(self, view, legal):
        view = getattr(view, "materialize", lambda: view)()   # a lazy observation: read it once, not per attribute
        if any(isinstance(a, Pass) for a in legal):
            return self._order(view, legal)
        return self._shot(view, legal)

    def _assignments(self, view) -> dict[str, str]:
        """Each own element's objective: greedy by distance over the objectives this side scores for, each
        taking at most SPREAD times its share of the elements (in proportion to its victory points)."""
        objs = view.game.ext.objectives
        elements = sorted({u.element for u in view.units if u.side == self.side and not u.disabled})
        if not objs:
            return {e: "advance" for e in elements}
        out: dict[str, str] = {e: "hold" for e in elements if self._support(view, e)
                               and self._distance(view, e, objs) > SUPPORT_WITHIN}
        elements = [e for e in elements if e not in out]
        if not elements:
            return out
        objs, quota = self._quotas(view, objs, len(elements))
        load: dict[str, int] = {}
        for d, e, o in self._pairs(view, elements, objs):
            if e in out or load.get(o.id, 0) >= quota[o.id]:
                continue
            out[e] = SETTLE if d <= o.radius_in - 0.5 else f"to-{o.id}"
            load[o.id] = load.get(o.id, 0) + 1
        return out

    @staticmethod
    def _distance(view, element: str, objs) -> float:
        """Inches from the element's nearest unit to the nearest objective."""
        units = [u for u in view.units if u.element == element and not u.disabled]
        return min(math.hypot(u.x - o.at[0], u.y - o.at[1]) for u in units for o in objs)

    @staticmethod
    def _support(view, element: str) -> bool:
        """An element of mortars or guns only (every weapon indirect-fire): it stays back and fires from where
        it stands instead of closing on an objective with the combat elements."""
        from .engine.sniper import BARRAGE

        cards = [view.game.card_of(u) for u in view.units if u.element == element]
        return bool(cards) and all(c.weapons and all(w.weapon_class in BARRAGE for w in c.weapons) for c in cards)

    def _quotas(self, view, objs, n: int):
        """The objectives this side scores for (all when none) and each one's element quota."""
        side_id = view.game.sides[self.side]
        worth = {o.id: sum(v.points * (1.0 if v.side == side_id else DENY) for v in view.game.ext.victory
                           if v.objective == o.id) for o in objs}
        total = sum(worth.values())
        objs = [o for o in objs if worth[o.id] > 0] or list(objs)
        if not total:
            return objs, {o.id: -(-n // len(objs)) for o in objs}
        return objs, {o.id: math.ceil(SPREAD * n * worth[o.id] / total) for o in objs}

    @staticmethod
    def _pairs(view, elements, objs):
        """(distance of the element's nearest unit, element, objective), nearest first."""
        pairs = []
        for e in elements:
            units = [u for u in view.units if u.element == e and not u.disabled]
            for o in objs:
                pairs.append((min(math.hypot(u.x - o.at[0], u.y - o.at[1]) for u in units), e, o))
        return sorted(pairs, key=lambda p: (p[0], p[1], p[2].id))

    def _order(self, view, legal):
        legal_set = set(legal)
        alert = next((a for a in legal if isinstance(a, Alert)), None)
        if alert is not None:
            return alert                                     # BfOps p.11: free the whole side from the zone
        wanted = self._assignments(view)
        for d in (a for a in legal if isinstance(a, Dismount)):
            if self._arrived(view, d.element, wanted.get(d.element, "hold")):
                return d                                     # set the squads down at the carriers' goal
        for element, want in sorted(wanted.items()):
            if Double(element) in legal_set and view.orders.get(element) == want and want.startswith("to-") \
                    and self._far(view, element, want[3:]) and self._firm(view, element, want[3:]):
                return Double(element)
        for element, want in sorted(wanted.items()):
            order = Order(element, want)
            if view.orders.get(element) != want and order in legal_set:
                return order
        return Pass()

    @staticmethod
    def _arrived(view, element: str, want: str) -> bool:
        """The carrier element holds, settles, or is within its objective's radius (+2")."""
        if not want.startswith("to-"):
            return True
        obj = next((o for o in view.game.ext.objectives if o.id == want[3:]), None)
        units = [u for u in view.units if u.element == element and not u.disabled]
        return obj is None or any(math.hypot(u.x - obj.at[0], u.y - obj.at[1]) <= obj.radius_in + 2 for u in units)

    @staticmethod
    def _far(view, element: str, objective: str) -> bool:
        """The element's nearest unit is farther than DOUBLE_BEYOND from the objective."""
        obj = next(o for o in view.game.ext.objectives if o.id == objective)
        units = [u for u in view.units if u.element == element and not u.disabled]
        return min(math.hypot(u.x - obj.at[0], u.y - obj.at[1]) for u in units) > DOUBLE_BEYOND

    @staticmethod
    def _firm(view, element: str, objective: str) -> bool:
        """No unit of the element stands on, or heads in a straight line (twice its Cruise) across, ground that
        asks for a Bog check: double-time checks at 'faster than Cruise' (BfOps p.11, p.16)."""
        import shapely

        g = view.game
        obj = next(o for o in g.ext.objectives if o.id == objective)
        for u in view.units:
            if u.element != element or u.disabled:
                continue
            card = g.card_of(u)
            if card.propulsion == "foot":
                continue
            reach = 2 * (card.movement.cruise or 1.0)
            d = math.hypot(obj.at[0] - u.x, obj.at[1] - u.y) or 1.0
            end = (u.x + (obj.at[0] - u.x) * min(1.0, reach / d), u.y + (obj.at[1] - u.y) * min(1.0, reach / d))
            line = shapely.linestrings([(u.x, u.y), end])
            for area, _ in g.geometry.path_lengths(list(line.coords)):
                if g.ground_of(*shapely.get_coordinates(shapely.intersection(line, area.geom))[0]) in g.tables.bog:
                    return False
        return True

    @staticmethod
    def _threat(view, target_id: str) -> float:
        """How dangerous a target is: its best Penetration at medium range, over 20."""
        card = view.game.card_of(view.unit(target_id))
        pens = [a.pen.get("medium", 0) for w in card.weapons for a in w.ammo]
        return max(pens or [0]) / 20.0

    def _chance(self, view, shot) -> float:
        """The chance a shot disables its target (to-hit and effect numbers of ``shot_odds``)."""
        to_hit, effect = view.shot_odds(shot)
        return max(0.0, min(10.0, to_hit)) / 10.0 * max(0.0, min(10.0, effect)) / 10.0 / \
            self._hits_left(view, shot.target)

    def _survives(self, view, target_id: str) -> float:
        """The chance the target survives the shots this side has already declared at it in this priority
        (fire is simultaneous: spread it rather than pile it on one target)."""
        alive = 1.0
        for d in view.declared:
            if isinstance(d, Fire) and d.target == target_id and view.unit(d.unit).side == self.side:
                alive *= 1.0 - min(1.0, self._chance(view, d))
        return alive

    @staticmethod
    def _hits_left(view, target_id: str) -> int:
        """Hits the target can still take before it is disabled (infantry squads; 1 for everything else)."""
        t = view.unit(target_id)
        card = view.game.card_of(t)
        return max(1, card.infantry.hits - t.hits) if card.infantry is not None else 1

    def _shot(self, view, legal):
        best, score = None, 0.0
        for a in legal:
            if isinstance(a, Cqb):
                p = view.cqb_odds(a)                      # close combat (BfOps 9.4)
            elif not isinstance(a, Fire) or a.target.startswith("@"):
                continue                                   # structures: left to the engine's other players
            else:
                to_hit, effect = view.shot_odds(a)
                p = max(0.0, min(10.0, to_hit)) / 10.0 * max(0.0, min(10.0, effect)) / 10.0
                if view.sight(view.unit(a.unit), view.unit(a.target)).friendly_screen is not None:
                    p *= SCREENED                         # a 10 strikes the friendly unit in the way (p.21)
                p /= self._hits_left(view, a.target)      # a squad takes one Hit a shot (mostly, p.14)
                p *= self._survives(view, a.target)       # shots already declared at it this priority
            p *= 1.0 + self._threat(view, a.target)
            if p > score + 1e-12:
                best, score = a, p
        ignite = self._ignite(view, legal)
        if ignite is not None and score < IGNITE_WORTH:
            return ignite
        return best if best is not None else next(a for a in legal if isinstance(a, Hold))

    def _ignite(self, view, legal):
        """The first slick it may ignite with a seen enemy within IGNITE_WITHIN of it (BfOps p.10), else None."""
        import shapely

        for a in legal:
            if not isinstance(a, Ignite):
                continue
            area = view.game.geometry.by_id.get(a.slick)
            if area is not None and any(u.side != self.side and not u.disabled and shapely.distance(
                    shapely.points(u.x, u.y), area.geom) <= IGNITE_WITHIN for u in view.units):
                return a
        return None
