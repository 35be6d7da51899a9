"""Command Phase (MBT 4.2.1) and Initiative Phase (MBT 4.3)."""
from __future__ import annotations

from .codes import FIRE, MOVE, NC, OW, SH, WAIT, ON, P_INIT

class CommandRules:
    """Rules of this chapter, mixed into :class:`~.state.MbtState` (they read and write its fields)."""

    __slots__ = ()

    def _needs_cmd(self, i: int) -> bool:
        if self.cmd[i]:
            return False
        if self.st[i] == ON:
            return True
        return self.st[i] == WAIT and self.game.units[i].entry_turn <= self.turn

    def cmd_options(self, i: int) -> list[int]:
        """Legal commands (MBT 4.2.1): FIRE/SH need a target this vehicle spotted in the Spotting Phase (4.4.1);
        OW any combat vehicle; MOVE any vehicle; NC always. Off-map units waiting to enter: MOVE or NC."""
        if self.st[i] == WAIT:
            return [NC, MOVE]
        ut = self.game.units[i].type
        out = [NC, MOVE]
        if ut.combat and ut.ap:
            out.append(OW)
            if self.fire_options(i, self.spots[i]):
                out += [FIRE, SH]
        return out

    def initiative_mod(self, side: int) -> int:
        """The initiative modifier of ``side``: none in the Basic Game (Force Grade in the Advanced, MBT 6.3.2)."""
        return 0

    def _initiative(self) -> None:
        """Initiative Phase (MBT 4.3.1): each side rolls (100), ties rerolled; the winner chooses (Q39)."""
        g = self.game
        if g.first_fixed is not None:
            self.first = g.first_fixed
            self._begin_df()
            return
        prev = self.first
        while True:
            a = self.dice.roll(100, "initiative") + self.initiative_mod(0)
            b = self.dice.roll(100, "initiative") + self.initiative_mod(1)
            if a != b:
                break
            if g.options["initiative-ties"] == "previous-first" and self.turn > 1:
                a, b = (1, 0) if prev == 0 else (0, 1)
                break
        self.init_rolls = (a, b)
        winner = 0 if a > b else 1
        if g.options["initiative-winner"] == "chooses":
            self.phase = P_INIT
            self.cp = winner
        else:
            self.first = winner
            self._begin_df()
