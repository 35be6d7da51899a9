"""Passengers observing for indirect fire (MBT 6.6.7.2, 6.5.1), Advanced Game.

A squad, half-squad or section riding a ground vehicle (not a helicopter) whose command is anything but Move may
observe for indirect fire, as it may fire (6.6.7.2): it calls fire in the Indirect Fire Step like an observer on
the map with an Overwatch command (its observer row by its labels, FO, Command or Recon, 6.5.1.1), on hexes with
an enemy it spots from the carrier's hex (``transported_fire``: its own spotting attempt). Its mission checks by
itself once it is no longer such a passenger (dismounted without an Overwatch command, or its carrier has a Move
command). Only combat passengers spot from a carrier (``transported_fire.riding``); the sample FO sections are.
"""
from __future__ import annotations

from .codes import CARRIED, MOVE, ON


class TransportedObserverRules:
    """MBT 6.6.7.2 (observing), mixed into :class:`~.advanced.AdvState` through ``adv_move.AdvMoveRules``."""

    __slots__ = ()

    def observing_carrier(self, o: int) -> int:
        """The ground carrier passenger ``o`` observes from (a command other than Move), or -1."""
        if self.st[o] != CARRIED or not self.is_leg(o) or self.is_towed(o):
            return -1
        c = self.carrier[o]
        if c < 0 or self.st[c] != ON or self.game.units[c].type.ag.heli or self.cmd[c] == MOVE:
            return -1
        return c

    def observer_lost(self, o: int) -> str:
        """A passenger observes while its carrier's command is not Move (MBT 6.6.7.2)."""
        if self.st[o] == CARRIED:
            return "" if self.observing_carrier(o) >= 0 else "observer's carrier moves or flies"
        return super().observer_lost(o)


__all__ = ["TransportedObserverRules"]
