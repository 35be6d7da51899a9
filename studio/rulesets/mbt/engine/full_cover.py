"""Full Cover (MBT 6.1.4.2, 6.1.3.2, 6.5.4.2.2, 6.8.3), Advanced Game.

- Adjust Full Cover Step (6.8.3), after the 2nd Air Phase: each dismounted leg unit on the map enters, stays in
  or leaves Full Cover for the next turn, whatever its command: ``cover UNIT on|off`` (no allowance spent, no
  movement for spotting).
- Effects: the GP Defense adds the Full Cover bonus (option ``full-cover-bonus``, Q28); a Full Cover unit is
  spotted 2 rows down and spots 4 rows down (table ``spotting-modifiers`` rows ``target-full-cover`` and
  ``spotter-full-cover``, 6.1.3.2); it may not take a Short Halt command (6.1.4.2); moving out of its hex ends it.
Crawling (6.6.4.3, ``crawl.py``) keeps Full Cover; Hasty Entrenchments are built in this step (6.6.8,
``entrench.py``). Not modelled: Full Cover of towed units (the engine has none).
"""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .actions import Action
from .codes import ON, P_AIR2, SH


class FullCoverRules:
    """Rules of MBT 6.1.4.2 and 6.8.3, mixed into :class:`~.advanced.AdvState` (slots ``fc``, ``fcq``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.fc = [False] * self.game.n
        self.fcq = -1  # the Adjust Full Cover Step: the next unit to decide (-1 not started)

    def _copy(self, dice):
        o = super()._copy(dice)
        o.fc, o.fcq = self.fc[:], self.fcq
        return o

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}|fc{''.join('1' if x else '0' for x in self.fc)}/{self.fcq}"

    def _start_turn(self) -> None:
        super()._start_turn()
        self.fcq = -1

    # ---------------------------------------------------------------- the Adjust Full Cover Step (MBT 6.8.3)
    def _fc_eligible(self, i: int) -> bool:
        return self.st[i] == ON and self.is_leg(i)

    def fc_step_active(self) -> bool:
        return self.phase == P_AIR2 and 0 <= self.fcq < self.game.n

    def _step_air(self) -> bool:
        """After the 2nd Air Phase: the Adjust Full Cover Step; once it began the air phase is over."""
        if self.phase == P_AIR2 and self.fcq >= 0:
            return self._fc_step()
        if super()._step_air():
            return True
        return self.phase == P_AIR2 and self._fc_step()

    def _fc_step(self) -> bool:
        g = self.game
        if self.fcq < 0:
            self.fcq = 0
        while self.fcq < g.n and not self._fc_eligible(self.fcq):
            self.fcq += 1
        if self.fcq < g.n:
            self.cp = g.units[self.fcq].side
            return True
        return False

    def air_actions(self) -> list:
        if self.fc_step_active():
            name = self.game.units[self.fcq].name
            keep = "on" if self.fc[self.fcq] else "off"
            return [Action(("cover", name, keep)), Action(("cover", name, "off" if keep == "on" else "on"))]
        return super().air_actions()

    def apply_air(self, action) -> None:
        if self.fc_step_active():
            i = self.fcq
            self.fc[i] = action[2] == "on"
            self.fcq += 1
            self.narrate(f"{self.game.units[i].name} {'in' if self.fc[i] else 'out of'} Full Cover for the next turn")
            return
        super().apply_air(action)

    def phase_id(self) -> str:
        if self.fc_step_active():
            return "adjustment"
        return super().phase_id()

    # ---------------------------------------------------------------- effects
    def leg_gp_defense(self, t: int) -> int:
        """Full Cover adds its bonus to the GP Defense, within 1..10 (MBT 6.5.4.2.2, option full-cover-bonus)."""
        d = super().leg_gp_defense(t)
        if not self.fc[t]:
            return d
        from .leg import GPD_RANGE

        return min(GPD_RANGE[1], d + int(self.game.options["full-cover-bonus"]))

    def cmd_options(self, i: int) -> list[int]:
        """Full Cover leg units may never have Short Halt commands (MBT 6.1.4.2)."""
        out = super().cmd_options(i)
        return [c for c in out if c != SH] if self.fc[i] else out

    def _after_step(self, i: int) -> None:
        """Moving out of its hex ends Full Cover (a crawl keeps it: ``crawl.py``)."""
        if self.fc[i] and self.mv_trail and self.hex[i] != self.mv_trail[0]:
            self.fc[i] = False
        super()._after_step(i)

    def _spot_targets(self) -> list[set]:
        """Full Cover spotters spot 4 rows down (MBT 6.1.3.2)."""
        out = super()._spot_targets()
        if not any(self.fc):
            return out
        from .opt_move_data import move_opt

        g = self.game
        extra = move_opt(g).spot_fc["spotter-full-cover"]
        for s in range(g.n):
            if self.fc[s] and self.spots[s]:
                self.spots[s] = tuple(t for t in self.spots[s] if distance(self.hex[s], self.hex[t]) <=
                                      self.ag_spot_range(t, self.mkdf[t], extra))
        by_side = [set() for _ in g.sides]
        for s in range(g.n):
            by_side[g.units[s].side].update(self.spots[s])
        return by_side


__all__ = ["FullCoverRules"]
