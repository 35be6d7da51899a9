"""Passengers of an Overwatch carrier (MBT 6.6.7.2, 6.5.3), Advanced Game.

A passenger fires (its GP rows, -10, from an Under Armor carrier up to 2 hexes: ``transported_fire``) when its
carrier's command is anything but Move; the text does not say when a passenger of a carrier with an Overwatch
command fires. Option ``passenger-overwatch``: ``direct-fire-step`` (in the Direct Fire Step, as with every other
carrier command) or ``with-carrier`` (as Overwatch fire, at ground units that fire or move, alternating with the
other Overwatch units of its side; not in the Direct Fire Step). Either way it fires once a turn.
"""
from __future__ import annotations

from .codes import CARRIED, OW


class TransportedOverwatchRules:
    """MBT 6.6.7.2 with 6.5.3, mixed into :class:`~.advanced.AdvState` through ``adv_move.AdvMoveRules`` (before
    :class:`~.transported_fire.TransportedFireRules`)."""

    __slots__ = ()

    def _ow_passenger(self, p: int) -> bool:
        """Does passenger ``p`` fire Overwatch with its carrier (option ``passenger-overwatch: with-carrier``)?"""
        if self.st[p] != CARRIED or self.game.options["passenger-overwatch"] != "with-carrier":
            return False
        c = self.riding(p)
        return c >= 0 and self.cmd[c] == OW

    def _ow_shooters(self, side: int) -> list[int]:
        """Passengers of Overwatch carriers join their side's Overwatch units against ground triggers."""
        out = super()._ow_shooters(side)
        if self.ow_ctx not in ("move", "combat"):
            return out
        extra = [p for p in self.game.units_of(side) if not self.fired[p] and self._ow_passenger(p)]
        return sorted(out + extra) if extra else out

    def _df_shooters(self) -> list[int]:
        """Under ``with-carrier`` they do not fire in the Direct Fire Step."""
        return [s for s in super()._df_shooters() if not self._ow_passenger(s)]


__all__ = ["TransportedOverwatchRules"]
