"""Executing Shared Commands (MBT 6.2.1.1.4, 6.5.2.2.1): units of a formation that share one unique Command counter
(``grp``, placed by Command Control 6.2.1.1.2) coordinate their fire and their moves.

- Fire / Short Halt (6.2.1.1.4 Firing): the targets of the sharers must all be within the Command Range of one
  another (measured target to target; Regulars, Green and Raw: one hex). A sharer announcing its shot may pick only
  targets within range of every target its co-sharers have announced in this Direct Fire step; with none left it
  holds its fire.
- Short Halt / Move (6.2.1.1.4 Moving): the sharers must all be within Command Range of one another at the end of
  their moves; a sharer ends its move (``done``) only within range of every co-sharer that has finished its move,
  Track-hit co-sharers excepted (6.5.2.2.1: the others may leave it behind). Where no such hex is within the
  unit's reach (the cheapest path over the hexes, its allowance left) it ends where it is
  (``ENGINE_POLICIES['shared-move']``: the rule has the players adjust the earlier moves; the engine cannot undo
  them).
- Overwatch (6.2.1.1.4 Overwatch): the sharers fire on the same target; a sharer whose co-sharer has fired
  Overwatch this turn may fire only at that target.

Not modelled: the road/path column (vehicles at road rate stacked with or adjacent to the one in front sharing a
Move, 6.2.1.1.2) and the single target of movement combats (6.6.11).
"""
from __future__ import annotations

import heapq

from studio.hexgrid.coords import distance, neighbour

from .codes import OW, ON


class SharedCommandRules:
    """Rules of MBT 6.2.1.1.4, mixed into :class:`~.advanced.AdvState` ahead of the chapters whose actions it
    filters (``sh_ow``: per unit the target of its Overwatch shot this turn, -1 none)."""

    __slots__ = ()

    def co_sharers(self, i: int) -> list[int]:
        """The other units on ``i``'s unique Command counter (MBT 6.2.1.1.2)."""
        grp = self.grp[i]
        if grp < 0:
            return []
        return [j for j, x in enumerate(self.grp) if x == grp and j != i]

    def _range_of(self, i: int) -> int:
        return self.command_range(self.game.formation_of[i])

    # ---------------------------------------------------------------- Firing (Fire / Short Halt)
    def df_targets(self, s: int) -> tuple:
        """The targets of ``s`` within the firing unit's Command Range of every target its co-sharers announced
        (MBT 6.2.1.1.4)."""
        base = super().df_targets(s)
        if self.grp[s] < 0 or not self.shots:
            return base
        mates = set(self.co_sharers(s))
        declared = {self.hex[t] for x, t, row in self.shots if row is not None and x in mates}
        if not declared:
            return base
        rng = self._range_of(s)
        return tuple(t for t in base if all(distance(self.hex[t], h) <= rng for h in declared))

    # ---------------------------------------------------------------- Overwatch
    def _ow_shots(self, side: int) -> list:
        """A sharer fires Overwatch only at the target a co-sharer fired on (MBT 6.2.1.1.4)."""
        out = super()._ow_shots(side)
        if not out or max(self.sh_ow, default=-1) < 0:
            return out
        kept = []
        for shot in out:
            s, t = shot[0], shot[1]
            aims = {self.sh_ow[j] for j in self.co_sharers(s) if self.sh_ow[j] >= 0}
            if not aims or t in aims:
                kept.append(shot)
        return kept

    def _shoot(self, s: int, t: int, row, overwatch: bool) -> None:
        if overwatch and self.cmd[s] == OW and self.grp[s] >= 0:
            self.sh_ow[s] = t
        super()._shoot(s, t, row, overwatch)

    def _start_turn(self) -> None:
        self.sh_ow = [-1] * self.game.n
        super()._start_turn()

    # ---------------------------------------------------------------- Moving (Short Halt / Move)
    def move_options(self, i: int) -> list:
        """``done`` only within Command Range of the co-sharers that finished their moves (MBT 6.2.1.1.4), while
        such a hex is within reach."""
        out = super().move_options(i)
        if self.grp[i] < 0 or self.st[i] != ON or self.mv_u != i:
            return out
        mates = self._moved_mates(i)
        if not mates:
            return out
        rng = self._range_of(i)
        if all(distance(self.hex[i], self.hex[j]) <= rng for j in mates):
            return out
        name = self.game.units[i].name
        rest = [a for a in out if not (a[0] == "done" and a[1] == name)]
        if len(rest) == len(out) or not rest or not self._can_join(i, mates, rng):
            return out
        return rest

    def _moved_mates(self, i: int) -> list[int]:
        """Co-sharers on the map that finished their moves and may still move (no Track hit, 6.5.2.2.1)."""
        return [j for j in self.co_sharers(i) if self.moved[j] and self.st[j] == ON and not self.track[j]]

    def _can_join(self, i: int, mates: list[int], rng: int) -> bool:
        """Is a hex within Command Range of every one of ``mates`` within the moving unit's reach (the cheapest
        path over hexes with its allowance left; turns not counted)?"""
        g = self.game
        goal = [self.hex[j] for j in mates]
        start = self.hex[i]
        budget = self.mv_left
        nearest = min(max(distance(start, h) for h in goal), 99)
        if nearest - rng > budget:
            return False
        enemy = self._enemy_hexes(g.units[i].side)
        on_map = g.map.label_of
        best = {start: 0}
        heap = [(0, start)]
        while heap:
            d, h = heapq.heappop(heap)
            if d > best[h]:
                continue
            if h not in enemy and all(distance(h, x) <= rng for x in goal):
                return True
            for f in range(6):
                b = neighbour(h, f)
                if b not in on_map:
                    continue
                c = self.step_cost(i, h, b)
                if c is None:
                    continue
                nd = d + c
                if nd <= budget and nd < best.get(b, budget + 1):
                    best[b] = nd
                    heapq.heappush(heap, (nd, b))
        return False
