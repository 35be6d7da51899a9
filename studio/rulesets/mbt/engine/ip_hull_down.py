"""An Improved Position's Hull Down (MBT 6.1.4.3.7, 6.5.2.2.3), Advanced Game.

A vehicle occupying an Improved Position (scenario extension ``improved_positions``; the occupant is the first
vehicle of its hex, ``entrench.EntrenchRules.occupant``) is Hull Down from every angle but one, with no Hull Down
counter: the Rear Angle of the facing it took the position with (its set-up facing, or the direction it drove in;
a vehicle that reversed in has its Front toward that side, so the open angle stays toward where it came from). A
pivot in the position leaves that open angle where it was. Slot ``ipo``: per unit (hex, facing the open Rear Angle
is measured from) for the position it occupies, None when none; a unit that left that hex has none.
"""
from __future__ import annotations

from studio.hexgrid.coords import distance, direction_between

from .codes import ON

#: the AdvState slot of this rule (``adv_move.ADV_MOVE_SLOTS``)
IP_SLOTS = ("ipo",)


class ImprovedHullDownRules:
    """MBT 6.1.4.3.7 (Hull Down), mixed into :class:`~.advanced.AdvState` through ``adv_move.AdvMoveRules``."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.ipo = [None] * self.game.n

    def _copy(self, dice):
        o = super()._copy(dice)
        o.ipo = self.ipo[:]
        return o

    def fingerprint(self) -> str:
        ipo = ",".join(f"{i}@{x}" for i, x in enumerate(self.ipo) if x is not None)
        return f"{super().fingerprint()}|ip{ipo}"

    def _ip_vehicle(self, i: int) -> bool:
        """Is ``i`` a vehicle occupying an Improved Position now?"""
        ag = self.game.units[i].type.ag
        return self.st[i] == ON and not ag.leg and not ag.heli and self.in_improved_position(i)

    def _start_turn(self) -> None:
        """A vehicle found in a position it did not drive into (its set-up) keeps its Rear Angle open."""
        super()._start_turn()
        for i in range(self.game.n):
            if self._ip_vehicle(i) and (self.ipo[i] is None or self.ipo[i][0] != self.hex[i]):
                self.ipo[i] = (self.hex[i], self.fac[i])

    def _after_step(self, i: int) -> None:
        """Driving into a position: the open angle faces where it came from (MBT 6.1.4.3.7)."""
        h = self.hex[i]
        if (self.ipo[i] is None or self.ipo[i][0] != h) and self._ip_vehicle(i):
            trail = self.mv_trail
            came = trail[-2] if len(trail) >= 2 and trail[-1] == h and distance(trail[-2], h) == 1 else None
            self.ipo[i] = (h, direction_between(came, h) if came is not None else self.fac[i])
        super()._after_step(i)

    def hull_down_state(self, s: int, t: int, angle: str) -> int:
        """Hull Down from every angle but the position's open Rear Angle (MBT 6.1.4.3.7)."""
        from .ag_fire import hit_angle
        from .hull_down import HD

        best = super().hull_down_state(s, t, angle)
        pos = self.ipo[t]
        if best == HD or s < 0 or pos is None or pos[0] != self.hex[t] or not self._ip_vehicle(t):
            return best
        return best if hit_angle(self.hex[t], pos[1], self.hex[s]) == "rear" else HD


__all__ = ["ImprovedHullDownRules", "IP_SLOTS"]
