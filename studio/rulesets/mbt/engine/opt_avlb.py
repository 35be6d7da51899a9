"""Optional Rule 7.49, Armored Vehicle Launched Bridge (id ``avlb``).

An AVLB vehicle (card ``avlb_tons``: its bridge's weight limit) carries one bridge. On these boards streams run
along hexsides, so a bridge spans the stream hexside in front of the AVLB (the spannable features: table
``avlb-span``):
- Launch (``launch AVLB``): in the Movement Step, an AVLB with a Move command that started the turn in its hex
  facing the spannable hexside and has not moved spends its move there (it stays adjacent for the turn); the
  bridge is usable from the next turn. Recover (``recover AVLB``): the same, from either side of a bridge; then
  it may launch again.
- Crossing a usable bridged hexside costs nothing for the stream (entering only through the hexes in front of and
  behind the bridge is what crossing a hexside is); a unit heavier than the bridge's limit may not cross (a card
  without a weight crosses).
- The AVLB's mine plow (7.31.3.4) works only once its bridge is launched.
Not modelled: spans of Gully and Ditch hexes (no such hexes on the sample boards), a vehicle knocked out or
track-hit on the bridge (units never stand on a hexside bridge), pushing units off a bridge (7.30).
"""
from __future__ import annotations

from studio.hexgrid.coords import neighbour
from studio.model.maps import edge_key

from .actions import Action
from .codes import MOVE, ON


class AvlbRules:
    """Rules of MBT 7.49, mixed into :class:`~.advanced.AdvState` (slots ``avlb``, ``avlbc``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.avlb = {}                                # edge -> (AVLB unit, turn laid)
        self.avlbc = [self._avlb_limit(i) is not None for i in range(self.game.n)]  # carrying its bridge

    def _copy(self, dice):
        o = super()._copy(dice)
        o.avlb, o.avlbc = dict(self.avlb), self.avlbc[:]
        return o

    def fingerprint(self) -> str:
        lab = self.game.label
        bridges = sorted((lab(a), lab(b), v, t) for (a, b), (v, t) in self.avlb.items())
        return f"{super().fingerprint()}|avlb{bridges}{''.join('1' if c else '0' for c in self.avlbc)}"

    def _avlb_limit(self, i: int):
        from .opt_move_data import card_move

        return card_move(self.game, i).avlb if self.game.optional_on("avlb") else None

    def _span_edge(self, i: int):
        """The spannable hexside in front of vehicle ``i``, or None."""
        from .opt_move_data import move_opt

        g = self.game
        h = self.hex[i]
        key = edge_key(h, neighbour(h, self.fac[i]))
        feat = g.features.get(key)
        return key if feat is not None and feat.id in move_opt(g).avlb_span else None

    def _avlb_ready(self, i: int) -> bool:
        return (self.st[i] == ON and self.mv_u == i and self.cmd[i] == MOVE and self.mv_steps == 0 and
                not self.mv_spent and self.mv_turned == 0 and not self.mv_end and self.hex[i] == self.cov0[i])

    def move_options(self, i: int) -> list:
        out = super().move_options(i)
        if self._avlb_limit(i) is None or not self._avlb_ready(i):
            return out
        edge = self._span_edge(i)
        if edge is None:
            return out
        name = self.game.units[i].name
        if self.avlbc[i] and edge not in self.avlb:
            out.append(Action(("launch", name)))
        elif not self.avlbc[i] and self.avlb.get(edge, (-1, 0))[0] == i:
            out.append(Action(("recover", name)))
        return out

    def _apply_move(self, i: int, a) -> None:
        if a[0] in ("launch", "recover") and self.mv_u == i:
            edge = self._span_edge(i)
            if a[0] == "launch":
                self.avlb[edge] = (i, self.turn)
                self.avlbc[i] = False
            else:
                del self.avlb[edge]
                self.avlbc[i] = True
            self.mv_left, self.mv_spent, self.mv_end = 0, True, True
            g = self.game
            self.narrate(f"{g.units[i].name} {'launches' if a[0] == 'launch' else 'recovers'} its bridge over the "
                         f"{g.label(edge[0])}/{g.label(edge[1])} hexside")
            self._after_step(i)
            return
        super()._apply_move(i, a)

    def step_cost(self, i: int, a, b, reverse: bool = False):
        c = super().step_cost(i, a, b, reverse)
        if c is None or not self.avlb:
            return c
        key = edge_key(a, b)
        laid = self.avlb.get(key)
        if laid is None or laid[1] >= self.turn:
            return c  # usable from the turn after the launch (MBT 7.49)
        from .opt_move_data import card_move

        weight = card_move(self.game, i).weight
        if weight is not None and weight > self._avlb_limit(laid[0]):
            return None
        feat = self.game.features.get(key)
        side = int(feat.move_cost.get(self.game.units[i].type.traction) or 0) if feat is not None else 0
        return max(0, c - side)  # the bridge spans the stream: no crossing cost

    def plow_ready(self, i: int) -> bool:
        """An AVLB's mine plow works once its bridge is launched (MBT 7.31.3.4)."""
        return self._avlb_limit(i) is None or not self.avlbc[i]


__all__ = ["AvlbRules"]
