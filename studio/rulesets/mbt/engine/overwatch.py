"""Overwatch fire (MBT 4.4.2): after the Direct Fire steps at units that fired, and during movement after every hex
entered or turn made; cascades, alternating from the First Player."""
from __future__ import annotations

from typing import Any

from studio.hexgrid.coords import distance

from .codes import ON, OW, P_OWC


class OverwatchRules:
    """Rules of this chapter, mixed into :class:`~.state.MbtState` (they read and write its fields)."""

    __slots__ = ()

    def _begin_owc(self) -> None:
        trig = [i for i in range(self.game.n) if self.fired[i] and self.st[i] == ON]
        self._open_ow(self.first, trig, "combat")
        self.phase = P_OWC

    def _open_ow(self, side: int, triggers: list[int], ctx: str) -> None:
        self.ow_side = side
        self.ow_pass = 0
        self.ow_trig = list(triggers)
        self.ow_ctx = ctx

    def _ow_active(self) -> bool:
        return self.ow_side >= 0

    def _ow_pass(self) -> None:
        self.ow_pass += 1
        if self.ow_pass >= 2:
            self.ow_side = -1
            self.ow_trig = []
            return
        self.ow_side = 1 - self.ow_side

    def _ow_shooters(self, side: int) -> list[int]:
        """``side``'s vehicles with an unused Overwatch command, in unit order (MBT 4.4.2)."""
        st, cmd, fired = self.st, self.cmd, self.fired
        return [i for i in self.game.units_of(side) if cmd[i] == OW and st[i] == ON and not fired[i]]

    def _ow_shots(self, side: int) -> list[tuple[int, int, Any]]:
        """Legal overwatch shots of ``side`` at the current triggers (MBT 4.4.2): spotting confirmed now."""
        out = []
        trig = [t for t in self.ow_trig if self.st[t] == ON and self.game.units[t].side != side]
        if not trig:
            return out
        shooters = self._ow_shooters(side)
        if not shooters:
            return out
        clear = self.game.los.clear
        ranges = {t: self.spot_range(t) for t in trig}
        for s in shooters:
            hs = self.hex[s]
            rows_at = False  # looked up at the first target in sight
            for t in trig:
                d = distance(hs, self.hex[t])
                if d > ranges[t] or not clear(hs, self.hex[t]):
                    continue
                if rows_at is False:
                    rows_at = self._rows_at(s)
                out.extend((s, t, row) for row in self.ok_rows(s, t, rows_at))
        return out
