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
        self._unexecuted_commands()
        self._objectives()
        alive = [any(self.st[i] in (ON, WAIT) for i in range(g.n) if g.units[i].side == s)
                 for s in range(len(g.sides))]
        if self.turn >= g.max_turns or not all(alive):
            self.ended = not all(alive)
            self.turn += 1 if self.turn >= g.max_turns else 0
            self.phase = P_OVER
            return
        self.turn += 1
        self._start_turn()

    def _unexecuted_commands(self) -> None:
        """Unexecuted Fire/Short Halt -> Spot/Fire, unexecuted Move -> Spot/Move; commands removed (MBT 4.6.1)."""
        for i in range(self.game.n):
            c = self.cmd[i]
            if self.st[i] == ON:
                if c in (FIRE, SH) and not self.fired[i]:
                    self.mk[i] = MFIRE
                elif c == MOVE and not self.moved[i]:
                    self.mk[i] = MMOVE
            self.cmd[i] = 0
            self.rev[i] = False

    def _objectives(self) -> None:
        """An objective is held by a friendly armed vehicle there at the start and at the end of the turn, for
        ``objective_turns`` turns; once captured it stays controlled (MBT 3.6)."""
        g = self.game
        for h in g.objectives:
            end = None
            for i in range(g.n):
                if self.st[i] == ON and self.hex[i] == h and g.units[i].type.armed:
                    end = g.units[i].side
            start = self.occ_start.get(h)
            if start is None or start != end:
                self.held.pop(h, None)
                continue
            side, count = self.held.get(h, (start, 0))
            count = count + 1 if side == start else 1
            self.held[h] = (start, count)
            if count >= g.objective_turns:
                self.control[h] = start

    def outcome(self) -> Outcome:
        """Victory points of every victory condition (MBT 4.6.2); the higher total wins, a tie is a draw."""
        g = self.game
        vp = [0.0] * len(g.sides)
        for v in g.scenario.victory:
            score = _VICTORY.get(v.type)  # 'custom' conditions are scored by the players, not the engine
            if v.side in g.sides and score is not None:
                vp[g.sides.index(v.side)] += score(self, v, g.sides.index(v.side))
        best = max(vp)
        winners = [i for i, x in enumerate(vp) if x == best]
        winner = winners[0] if len(winners) == 1 else None
        reason = "victory points" if self.turn > g.max_turns or not self.ended else "a side has no vehicles left"
        return Outcome(winner, vp, reason, min(self.turn, g.max_turns), list(self.lost))


def _hold(state, v, side: int) -> float:
    hexes = [state.game.map.hex(h) for h in v.hexes if h in state.game.map.hex_of]
    return v.points if hexes and all(state.control.get(h) == side for h in hexes) else 0.0


def _exits(state, v, side: int) -> float:
    units = state.game.units
    return v.points * sum(1 for u, e in state.exits if units[u].side == side and (v.edge is None or e == v.edge))


def _kills(state, v, side: int) -> float:
    return v.points * sum(state.lost[s] for s in range(len(state.game.sides)) if s != side)


def _kill_percent(state, v, side: int) -> float:
    g = state.game
    enemy = [i for i in range(g.n) if g.units[i].side != side]
    dead = sum(1 for i in enemy if state.st[i] == DEAD)
    return v.points if enemy and 100 * dead >= (v.percent or 100) * len(enemy) else 0.0


def _survivors(state, v, side: int) -> float:
    g = state.game
    return v.points * sum(1 for i in range(g.n) if g.units[i].side == side and state.st[i] == ON)


_VICTORY = {"hold_hexes": _hold, "exit_units": _exits, "destroy_units": _kills, "destroy_percent": _kill_percent,
            "survive": _survivors}
