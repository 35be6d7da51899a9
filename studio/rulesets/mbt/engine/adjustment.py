"""Adjustment Phase and End Turn (MBT 4.6): unexecuted commands become Spot counters, objectives (MBT 3.6),
victory."""
from __future__ import annotations

from typing import Any, Callable, NamedTuple

from studio.rules.api import Outcome

from .codes import CARRIED, DEAD, FIRE, MFIRE, MMOVE, MOVE, ON, P_OVER, SH, WAIT


class AdjustmentRules:
    """Rules of this chapter, mixed into :class:`~.state.MbtState` (they read and write its fields)."""

    __slots__ = ()

    def _adjust(self) -> None:
        """Adjustment Phase (MBT 4.6.1) and End Turn (4.6.2)."""
        g = self.game
        self._unexecuted_commands()
        self._objectives()
        alive = [any(self.st[i] in (ON, WAIT, CARRIED) for i in range(g.n) if g.units[i].side == s)
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
        """Victory points of every victory condition (MBT 4.6.2) plus the points optional rules award
        (``bonus_vp``, e.g. MBT 7.28); the higher total wins, a tie is a draw."""
        g = self.game
        vp = list(self._condition_vp())
        bonus = self.bonus_vp()
        if bonus:
            vp = [a + b for a, b in zip(vp, bonus)]
        best = max(vp)
        winners = [i for i, x in enumerate(vp) if x == best]
        winner = winners[0] if len(winners) == 1 else None
        reason = "victory points" if self.turn > g.max_turns or not self.ended else "a side has no vehicles left"
        return Outcome(winner, vp, reason, min(self.turn, g.max_turns), list(self.lost))

    def _condition_vp(self) -> tuple:
        """The points of the scenario's victory conditions per side, remembered by what they read."""
        key = self._outcome_key()
        memo = getattr(self, "outcome_memo", None)
        if memo is not None and memo[0] == key and self.caching:
            return memo[1]
        vp = [0.0] * len(self.game.sides)
        for cond in self.game.victory_rules:
            vp[cond.side] += cond.score(self, cond)
        self.outcome_memo = (key, tuple(vp))
        return tuple(vp)

    def bonus_vp(self) -> list | None:
        """Hook: victory points per side outside the scenario's conditions (optional rules); None for none."""
        return None

    def _outcome_key(self) -> tuple:
        """What the outcome is remembered by: every field the five Basic victory conditions read (turn, end,
        losses, exits, unit status, objective control) when the scenario has only those; else the actions applied
        (any other condition may read anything)."""
        if all(c.score in _CONTENT_KEYED for c in self.game.victory_rules):
            return (self.turn, self.phase, self.ended, tuple(self.lost), tuple(self.exits), tuple(self.st),
                    tuple(self.control.items()))
        return (self.history, self.turn, self.phase)


class VictoryRule(NamedTuple):
    """One victory condition the engine scores: the condition, its side's index, its scoring function and (for
    ``hold_hexes``) the hexes on the map."""

    victory: Any
    side: int
    score: Callable
    hexes: tuple


def compile_victory(game) -> list[VictoryRule]:
    """The scenario's victory conditions the engine scores, once per game ('custom' conditions are scored by the
    players, not the engine)."""
    out = []
    for v in game.scenario.victory:
        score = _VICTORY.get(v.type)
        if v.side in game.sides and score is not None:
            hexes = tuple(game.map.hex(h) for h in (v.hexes or ()) if h in game.map.hex_of)
            out.append(VictoryRule(v, game.sides.index(v.side), score, hexes))
    return out


def _hold(state, c: VictoryRule) -> float:
    return c.victory.points if c.hexes and all(state.control.get(h) == c.side for h in c.hexes) else 0.0


def _exits(state, c: VictoryRule) -> float:
    units, edge = state.game.units, c.victory.edge
    return c.victory.points * sum(1 for u, e in state.exits if units[u].side == c.side and (edge is None or e == edge))


def _kills(state, c: VictoryRule) -> float:
    return c.victory.points * sum(state.lost[s] for s in range(len(state.game.sides)) if s != c.side)


def _kill_percent(state, c: VictoryRule) -> float:
    g, v = state.game, c.victory
    enemy = [i for i in range(g.n) if g.units[i].side != c.side]
    dead = sum(1 for i in enemy if state.st[i] == DEAD)
    return v.points if enemy and 100 * dead >= (v.percent or 100) * len(enemy) else 0.0


def _survivors(state, c: VictoryRule) -> float:
    g = state.game
    return c.victory.points * sum(1 for i in range(g.n) if g.units[i].side == c.side and state.st[i] == ON)


_VICTORY = {"hold_hexes": _hold, "exit_units": _exits, "destroy_units": _kills, "destroy_percent": _kill_percent,
            "survive": _survivors}
#: the scorers whose reads ``_outcome_key`` lists
_CONTENT_KEYED = frozenset((_hold, _exits, _kills, _kill_percent, _survivors))
