"""Suppression (MBT 5.10) and its effects on spotting (6.1.3.1), movement (6.6.2) and recovery in the Advanced
Adjustment Phase (6.8.4, 6.8.6). Suppression/On and Suppression/Off have the same effects; a new result places
On or turns Off to On; more results add nothing."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .codes import CARRIED, NC, ON

SUP_NONE, SUP_ON, SUP_OFF = 0, 1, 2
SUP_NAMES = {"none": SUP_NONE, "on": SUP_ON, "off": SUP_OFF}


class SuppressionRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def suppress(self, i: int, why: str) -> None:
        """Suppression/On on unit ``i`` (MBT 5.10); a unit Suppressed during its move keeps half of what is left
        of its allowance (MBT 6.6.2, the 6.6.10 example: 5 - 2 = 3, half of 3 = 1)."""
        fresh = not self.sup[i]
        self.sup[i] = SUP_ON
        if fresh:
            self.cut_remaining(i, self.game.ag.suppressed_msa)
        if self.dice.record:
            self.events.append(f"{self.game.units[i].name} is Suppressed ({why})")

    def suppress_hex(self, t: int) -> None:
        """A Brew Up suppresses every friendly ground unit in its hex, passengers too except those Under Armor or
        Under Cover (MBT 6.5.2.6, 6.5.4.4.2)."""
        g = self.game
        side, h = g.units[t].side, self.hex[t]
        for j in g.units_of(side):
            if j == t or self.hex[j] != h:
                continue
            if self.st[j] == ON or (self.st[j] == CARRIED and self.carrier[j] != t and
                                    g.units[self.carrier[j]].type.ag.protection not in ("under_armor", "under_cover")):
                self.suppress(j, f"{g.units[t].name} brewed up in its hex")

    def msa(self, i: int, rate: int) -> int:
        """Suppressed units move at 1/2 (1/4 with Short Halt, 1/8 also Hull Damaged), never below 1 (MBT 6.6.2)."""
        base = super().msa(i, rate)
        if self.sup[i]:
            return max(1, int(base * self.game.ag.suppressed_msa))
        return base

    def _spot_targets(self) -> list[set]:
        """Spotting (MBT 4.1.1) with suppressed spotters limited to their front 60 degrees and the spotter
        modifier (MBT 6.1.3.1)."""
        spotted_by_side = super()._spot_targets()
        g = self.game
        if not any(self.sup):
            return spotted_by_side
        extra = g.ag.spot_mod["spotter-suppressed"]
        for s in range(g.n):
            if not self.sup[s] or not self.spots[s]:
                continue
            keep = []
            for t in self.spots[s]:
                rng = self.ag_spot_range(t, self.mkdf[t], extra)
                if distance(self.hex[s], self.hex[t]) <= rng and self.in_field(s, t, 60, False):
                    keep.append(t)
            self.spots[s] = tuple(keep)
        out = [set() for _ in g.sides]
        for s in range(g.n):
            out[g.units[s].side].update(self.spots[s])
        return out

    def _recover(self) -> None:
        """Adjust/Remove Suppressions (MBT 6.8.4): each Suppression/Off unit rolls (100) + 20 if its command was
        not N/C + 10 if it was attacked this turn; at or under its grade's recovery value it recovers. Then
        Suppression/On turns Off (6.8.6)."""
        g = self.game
        mods = g.ag.recovery_mod
        for i in range(g.n):
            if self.st[i] != ON or self.sup[i] != SUP_OFF:
                continue
            r = self.dice.roll(100, f"Suppression recovery {g.units[i].name}")
            net = r + (mods["command-not-nc"] if self.cmd[i] not in (0, NC) else 0) + \
                (mods["attacked-this-turn"] if self.attacked[i] else 0)
            limit = g.ag.grade_recovery[self.unit_grade(i)]
            if net <= limit:
                self.sup[i] = SUP_NONE
            if self.dice.record:
                self.events.append(f"{g.units[i].name} Suppression recovery: roll {r}, net {net} vs 01-{limit}: "
                                   f"{'recovers' if net <= limit else 'stays Suppressed'}")
        for i in range(g.n):
            if self.sup[i] == SUP_ON:
                self.sup[i] = SUP_OFF
            self.attacked[i] = False
