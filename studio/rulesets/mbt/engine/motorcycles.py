"""Motorcycle leg units (MBT 6.6.4.4, 6.6.4.1, 6.6.1), Advanced Game.

A squad, half-squad or section whose card says ``motorcycle`` moves by the card's W=Wheeled Movement Factors
(``motorcycle_movement``, read by ``leg.leg_type``: traction W, cross-country, path and road rates) as a wheeled
vehicle: the wheeled terrain costs, turn costs and the path/road rate (``leg.LegRules`` leaves those to it), no
quickmarch (it has no leg factors to quickmarch by) and no crawl. It still spots and is spotted as a leg unit (its
size column), takes Full Cover, digs in and occupies buildings as units on foot do (6.8.3, 6.6.8, 6.1.4.3.1).

- It never crosses the hexsides of table ``motorcycle-prohibited-hexsides`` (Hedgerow, Wall; 6.6.4.4).
- Like a dismounted towed unit, a motorcycle unit in a path or road hex stops a vehicle's path/road rate there
  (6.6.4.1).
- It never overruns (6.6.4.4: leg units never do, ``assault.py``).
- Advancing attacks (6.6.1.2, ``advancing.py``) are 'at half of their motorcycle allowance': option
  ``motorcycle-advance``: ``half-allowance`` (the one-hex advance's wheeled cost must fit within half the
  cross-country W allowance, rounded down) or ``one-hex`` (as on foot, any enterable hex).
"""
from __future__ import annotations

from studio.model.maps import edge_key

from .adv_move_data import adv_move
from .codes import ON


class MotorcycleRules:
    """MBT 6.6.4.4, mixed into :class:`~.advanced.AdvState` through ``adv_move.AdvMoveRules``."""

    __slots__ = ()

    def step_cost(self, i: int, a, b, reverse: bool = False) -> int | None:
        """No Hedgerow or Wall hexside for a motorcycle unit (MBT 6.6.4.4)."""
        c = super().step_cost(i, a, b, reverse)
        if c is None or not self.is_motorcycle(i):
            return c
        feat = self.game.features.get(edge_key(a, b))
        return None if feat is not None and feat.id in adv_move(self.game).mc_hexsides else c

    def _road_step_cost(self, i: int, a, b, reverse: bool):
        """A motorcycle unit in the path/road hex stops a vehicle's path/road rate (MBT 6.6.4.1)."""
        if any(self.hex[j] == b and self.st[j] == ON and j != i and self.is_motorcycle(j)
               for j in self._motorcycles()):
            return None
        return super()._road_step_cost(i, a, b, reverse)

    def _motorcycles(self) -> tuple:
        """The game's motorcycle units (cached on the game)."""
        g = self.game
        mc = g.__dict__.get("_motorcycles")
        if mc is None:
            mc = g.__dict__["_motorcycles"] = tuple(j for j in range(g.n) if self.is_motorcycle(j))
        return mc

    def move_options(self, i: int) -> list:
        """No crawl on motorcycles (MBT 6.6.4.4: they move as wheeled vehicles)."""
        out = super().move_options(i)
        if self.mv_u == i and self.is_motorcycle(i):
            return [a for a in out if a[0] != "crawl"]
        return out

    def advance_hexes(self, a: int, t: int) -> list:
        """An advancing motorcycle unit (MBT 6.6.1.2, 6.6.4.4): option ``motorcycle-advance``."""
        out = super().advance_hexes(a, t)
        if not out or not self.is_motorcycle(a) or self.game.options["motorcycle-advance"] != "half-allowance":
            return out
        half = self.msa(a, self.game.units[a].type.cc) // 2
        return [b for b in out if (self.xc_static(a, self.hex[a], b) or 0) <= half]


__all__ = ["MotorcycleRules"]
