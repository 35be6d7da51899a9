"""Optional Rule 7.30, Narrow Roads and Paths (id ``narrow-roads``): the hexes the scenario lists in
``narrow_roads`` (roads and paths through buildings or woods, narrow bridges).

- A vehicle may not enter a narrow hex holding opposing vehicles, nor one holding opposing dismounted leg units
  except by Overrun (6.6.10).
- A vehicle that entered a narrow hex holding a friendly vehicle or a wreck during its move may not leave it this
  move (the road is blocked); units pushed to the shoulder do not block.
- Push: a tracked vehicle with a Move command that has not moved spends its whole allowance (``push VEHICLE``) to
  push the wreck, immobile vehicle (Track hit, crew bailed out) or dismounted towed unit in the narrow hex in
  front to the shoulder: it must weigh at least as much; roll (100) + 5 per full 5 tons of extra weight at least
  51 succeeds (table
  ``push-values``). A unit pushed to the shoulder stays in the hex, no longer blocks the road and does not cost a
  wreck's loss of the road rate.
Dismounted towed units move as vehicles do here: opposing vehicles block them, and friendly towed units block
like friendly vehicles; a dismounted towed unit may be pushed to the shoulder (its card's ``weight_tons``).
Dismounted leg units are not restricted. Stacking (5.13): a vehicle or dismounted towed unit may not enter a narrow
hex that already holds as many vehicles, dismounted towed units and landed helicopters as one below the
over-stacking count (table ``stacking``: 6), wrecks aside. Not modelled: the order of units in the hex (it decides
nothing here), exits from the sides of sunken roads (a scenario's choice; the boards have no sunken roads).
"""
from __future__ import annotations

from studio.hexgrid.coords import neighbour

from .actions import Action
from .codes import DEAD, MOVE, ON


class NarrowRoadRules:
    """Rules of MBT 7.30, mixed into :class:`~.advanced.AdvState` (slot ``shoulder``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.shoulder = frozenset()  # ("w", hex): a pushed wreck; ("u", unit): a pushed vehicle

    def _copy(self, dice):
        o = super()._copy(dice)
        o.shoulder = self.shoulder
        return o

    def fingerprint(self) -> str:
        lab = self.game.label
        return f"{super().fingerprint()}|sh{sorted(lab(x) if k == 'w' else str(x) for k, x in self.shoulder)}"

    def _narrow(self, h) -> bool:
        from .opt_move_data import move_opt

        return self.game.optional_on("narrow-roads") and h in move_opt(self.game).narrow

    def _blocked(self, i: int, h) -> bool:
        """Does a friendly vehicle or a wreck (not on the shoulder) block the narrow hex ``h`` for ``i``?"""
        g = self.game
        if self.wreck.get(h) and ("w", h) not in self.shoulder:
            return True
        side = g.units[i].side
        return any(j != i and self.st[j] == ON and self.hex[j] == h and self._road_blocker(j) and
                   not g.units[j].type.ag.heli and ("u", j) not in self.shoulder for j in g.units_of(side))

    def _road_blocker(self, j: int) -> bool:
        """Vehicles and dismounted towed units take room on a narrow road (MBT 7.30); leg units do not."""
        return not self.is_leg(j) or self.is_towed(j)

    def step_cost(self, i: int, a, b, reverse: bool = False):
        c = super().step_cost(i, a, b, reverse)
        if c is None or not self._road_blocker(i) or not self.game.optional_on("narrow-roads"):
            return c
        g = self.game
        if self._narrow(b) and self._enemy_in(i, b, legs=False):
            return None  # opposing vehicles block a narrow hex (MBT 7.30)
        if self._narrow(b) and self._narrow_full(i, b):
            return None  # no over-stacking on a narrow road (MBT 7.30, 5.13)
        if self._narrow(a) and self.mv_u == i and len(self.mv_trail) > 1 and self.mv_trail[-1] == a and \
                self._blocked(i, a):
            return None  # entered a blocked narrow hex: it may not leave it (MBT 7.30)
        return c

    def _narrow_full(self, i: int, h) -> bool:
        """Would unit ``i`` over-stack narrow hex ``h`` (MBT 7.30, 5.13: vehicles, dismounted towed units and
        landed helicopters count; wrecks and leg units do not)?"""
        g = self.game
        n = sum(1 for j in range(g.n) if j != i and self.st[j] == ON and self.hex[j] == h and
                (self._road_blocker(j) if not g.units[j].type.ag.heli else self.heli_alt[j] == "landed"))
        return n + 1 >= g.tables.overstack

    def _enemy_in(self, i: int, h, legs: bool) -> bool:
        g = self.game
        return any(self.st[j] == ON and self.hex[j] == h and not g.units[j].type.ag.heli and self.is_leg(j) == legs
                   for j in g.enemies_of(g.units[i].side))

    def _step_ok(self, i: int, h, b, f: int, rev: bool, enemy: set) -> bool:
        """Opposing dismounted leg units in a narrow hex: a vehicle passes only by Overrun (MBT 7.30)."""
        if not self.is_leg(i) and self._narrow(b) and self._enemy_in(i, b, legs=True):
            return False
        return super()._step_ok(i, h, b, f, rev, enemy)

    def _road_step_cost(self, i: int, a, b, reverse: bool):
        """A wreck on the shoulder does not cost the road rate (MBT 7.30)."""
        w = self.wreck.get(b)
        if not w or ("w", b) not in self.shoulder:
            return super()._road_step_cost(i, a, b, reverse)
        del self.wreck[b]
        try:
            return super()._road_step_cost(i, a, b, reverse)
        finally:
            self.wreck[b] = w

    # ---------------------------------------------------------------- push
    def _push_target(self, i: int):
        """What vehicle ``i`` may push now: ("w", hex) or ("u", unit) in the narrow hex in front, or None."""
        g = self.game
        if self.st[i] != ON or self.is_leg(i) or g.units[i].type.traction != "t" or self.cmd[i] != MOVE or \
                self.mv_steps or self.mv_spent or self.mv_end or self.mv_u != i:
            return None
        b = neighbour(self.hex[i], self.fac[i])
        if not self._narrow(b):
            return None
        for j in range(g.n):
            if self.hex[j] == b and ("u", j) not in self.shoulder and self._road_blocker(j) and self.st[j] == ON and \
                    (self.track[j] or self.bail[j] or self.bogged[j] or self.is_towed(j)):
                return ("u", j)
        if self.wreck.get(b) and ("w", b) not in self.shoulder:
            return ("w", b)
        return None

    def _pushed_weight(self, target):
        from .opt_move_data import card_move

        kind, x = target
        if kind == "u":
            return card_move(self.game, x).weight
        dead = [j for j in range(self.game.n) if self.st[j] == DEAD and self.hex[j] == x and not self.is_leg(j)]
        return card_move(self.game, dead[-1]).weight if dead else None

    def move_options(self, i: int) -> list:
        out = super().move_options(i)
        target = self._push_target(i) if self.game.optional_on("narrow-roads") else None
        if target is not None:
            from .opt_move_data import card_move

            mine, theirs = card_move(self.game, i).weight, self._pushed_weight(target)
            if mine is not None and theirs is not None and mine >= theirs:
                out.append(Action(("push", self.game.units[i].name)))
        return out

    def _apply_move(self, i: int, a) -> None:
        if a[0] == "push" and self.mv_u == i:
            self._push(i)
            return
        super()._apply_move(i, a)

    def _push(self, i: int) -> None:
        """Push to the shoulder: the whole allowance; roll (100) + 5 per full 5 tons more at least 51 (MBT 7.30)."""
        from .opt_move_data import card_move, move_opt

        g = self.game
        pv = move_opt(g).push
        target = self._push_target(i)
        mod = pv["per-5-tons"] * int((card_move(g, i).weight - self._pushed_weight(target)) // 5)
        self.mv_left, self.mv_spent, self.mv_end = 0, True, True
        roll = self.dice.roll(100, f"Push {g.units[i].name}")
        moved = roll + mod >= pv["success-min"]
        if moved:
            self.shoulder = self.shoulder | {target}
        what = g.units[target[1]].name if target[0] == "u" else f"the wreck in {g.label(target[1])}"
        self.narrate(f"{g.units[i].name} pushes {what}: roll {roll}{mod:+d} vs {pv['success-min']}+: "
                     f"{'to the shoulder' if moved else 'it does not move'}")
        self._after_step(i)


__all__ = ["NarrowRoadRules"]
