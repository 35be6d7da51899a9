"""The Pivot Step of the Advanced Adjustment Phase (MBT 6.8.1), Advanced Game.

Whatever its command, every dismounted leg or towed unit on the map may face any hexside: ``pivot UNIT F``
(F a direction name of the map's hex orientation, ``coords.FLAT_DIRECTION_NAMES`` order = hexside 0-5). A pivot
spends no movement and places no Spot/Move counter (6.8.1); Overwatch and barrages see no move (6.6.6).

Played as part of each unit's Adjust Full Cover decision (``full_cover.py``, 6.8.3): the decision offers the
two ``cover`` actions (as before) and, while the unit has not pivoted in this step, one ``pivot`` action per
other facing; a pivot keeps the decision open, the ``cover`` action ends it. The set of units is the same for both
steps (dismounted leg and towed units), nothing in either step reads what the other changes (the Hasty
Entrenchment construction runs before both, MBT 6.6.8), so each unit pivoting just before its Full Cover choice
gives the same result as every pivot first, the order 6.8 lists. Slot ``pvt``: the unit that pivoted in this
step's current decision (-1 none).
"""
from __future__ import annotations

from studio.hexgrid.coords import FLAT_DIRECTION_NAMES as FACINGS

from .actions import Action

#: the AdvState slot of this rule (``adv_move.ADV_MOVE_SLOTS``)
PIVOT_SLOTS = ("pvt",)


class PivotRules:
    """MBT 6.8.1, mixed into :class:`~.advanced.AdvState` before :class:`~.full_cover.FullCoverRules`."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.pvt = -1

    def _copy(self, dice):
        o = super()._copy(dice)
        o.pvt = self.pvt
        return o

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}|pv{self.pvt}"

    def _start_turn(self) -> None:
        super()._start_turn()
        self.pvt = -1

    def pivot_options(self, i: int) -> list[Action]:
        """The pivots open to unit ``i`` in its Adjustment decision: every other facing, once (MBT 6.8.1)."""
        if self.pvt == i or not self._fc_eligible(i):
            return []
        name = self.game.units[i].name
        return [Action(("pivot", name, FACINGS[f])) for f in range(6) if f != self.fac[i]]

    def air_actions(self) -> list:
        """The ``cover`` actions first (callers read the step from ``legal[0]``), then the pivots."""
        out = super().air_actions()
        if self.fc_step_active():
            out = list(out) + self.pivot_options(self.fcq)
        return out

    def apply_air(self, action) -> None:
        if self.fc_step_active() and action[0] == "pivot":
            i = self.fcq
            self.fac[i] = FACINGS.index(action[2])  # MBT 6.8.1: no movement, no Spot/Move counter
            self.pvt = i
            self.narrate(f"{self.game.units[i].name} pivots to face {action[2]} (MBT 6.8.1)")
            return
        super().apply_air(action)


__all__ = ["PivotRules", "PIVOT_SLOTS"]
