"""Adjustment Phase and End Turn (MBT 4.6): unexecuted commands become Spot counters, objectives (MBT 3.6),
victory."""
from __future__ import annotations

from studio.rules.api import Outcome

from .codes import DEAD, FIRE, MFIRE, MMOVE, MOVE, ON, P_OVER, SH, WAIT

class AdjustmentRules:
    """Rules of this chapter, mixed into :class:`~.state.MbtState` (they read and write its fields)."""

    __slots__ = ()

    def _adjust(self) -> None:
        """Adjustment Phase (MBT 4.6.1) and End Turn (4.6.2)."""
        g = self.game
        for i in range(g.n):
            c = self.cmd[i]
            if self.st[i] == ON:
                if c in (FIRE, SH) and not self.fired[i]:
                    self.mk[i] = MFIRE
                elif c == MOVE and not self.moved[i]:
                    self.mk[i] = MMOVE
            self.cmd[i] = 0
            self.rev[i] = False
        # objectives: a friendly armed vehicle there at the start and at the end of the turn (MBT 3.6)
        for h in g.objectives:
            end = None
            for i in range(g.n):
                if self.st[i] == ON and self.hex[i] == h and g.units[i].type.armed:
                    end = g.units[i].side
            start = self.occ_start.get(h)
            if start is not None and start == end:
                side, count = self.held.get(h, (start, 0))
                count = count + 1 if side == start else 1
                self.held[h] = (start, count)
                if count >= g.objective_turns:
                    self.control[h] = start
            else:
                self.held.pop(h, None)
        alive = [any(self.st[i] in (ON, WAIT) for i in range(g.n) if g.units[i].side == s)
                 for s in range(len(g.sides))]
        if self.turn >= g.max_turns or not all(alive):
            self.ended = not all(alive)
            self.turn += 1 if self.turn >= g.max_turns else 0
            self.phase = P_OVER
            return
        self.turn += 1
        self._start_turn()

    def outcome(self) -> Outcome:
        g = self.game
        vp = [0.0] * len(g.sides)
        for v in g.scenario.victory:
            side = g.sides.index(v.side) if v.side in g.sides else None
            if side is None:
                continue
            if v.type == "hold_hexes":
                hexes = [g.map.hex(h) for h in v.hexes if h in g.map.hex_of]
                if hexes and all(self.control.get(h) == side for h in hexes):
                    vp[side] += v.points
            elif v.type == "exit_units":
                vp[side] += v.points * sum(1 for u, e in self.exits if g.units[u].side == side and
                                           (v.edge is None or e == v.edge))
            elif v.type == "destroy_units":
                vp[side] += v.points * sum(self.lost[s] for s in range(len(g.sides)) if s != side)
            elif v.type == "destroy_percent":
                enemy = [i for i in range(g.n) if g.units[i].side != side]
                dead = sum(1 for i in enemy if self.st[i] == DEAD)
                if enemy and 100 * dead >= (v.percent or 100) * len(enemy):
                    vp[side] += v.points
            elif v.type == "survive":
                vp[side] += v.points * sum(1 for i in range(g.n) if g.units[i].side == side and self.st[i] == ON)
        best = max(vp)
        winners = [i for i, x in enumerate(vp) if x == best]
        winner = winners[0] if len(winners) == 1 else None
        reason = "victory points" if self.turn > g.max_turns or not self.ended else "a side has no vehicles left"
        return Outcome(winner, vp, reason, min(self.turn, g.max_turns), list(self.lost))
