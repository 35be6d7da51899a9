"""Overwatch fire (MBT 4.4.2): after the Direct Fire steps at units that fired, and during movement after every hex
entered or turn made; cascades, alternating from the First Player."""
from __future__ import annotations

from typing import Any

from studio.hexgrid.coords import distance

from .codes import ON, OW, P_OWC
from .spotting import SIGHT, in_sight


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
        ranges = {t: self.spot_range(t) for t in trig}
        if self.caching:
            return self._ow_shots_by_hex(shooters, trig, ranges)
        clear = self.game.los.clear
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

    def _ow_shots_by_hex(self, shooters: list[int], trig: list[int], ranges: dict) -> list[tuple[int, int, Any]]:
        """``_ow_shots`` with the triggers in sight judged once per shooter hex, each hex pair's range and line
        of sight remembered per game (``spotting.SIGHT``): the same shots in the same order."""
        out = []
        g = self.game
        sight, clear, hexes = SIGHT.of(g), g.los.clear, self.hex
        seen_from: dict = {}
        for s in shooters:
            hs = hexes[s]
            seen = seen_from.get(hs)
            if seen is None:
                seen = seen_from[hs] = [t for t in trig if in_sight(sight, clear, hs, hexes[t], ranges[t])]
            if seen:
                rows_at = self._rows_at(s)
                for t in seen:
                    out.extend((s, t, row) for row in self.ok_rows(s, t, rows_at))
        return out
