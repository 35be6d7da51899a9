"""Optional rule 7.9 Smoke Dischargers: once per turn in the Command Phase, before its command, a vehicle whose
card has a D ammo limit may try its dischargers (action ``discharge VEHICLE``): roll (10) at or under D places a
Smoke/DS counter on it, an Open SHEAF smoke that counts only for fire to or from that vehicle and its passengers
(``smoke.hindrance_modifier``), never against indirect fire. It goes when the vehicle moves or turns, or at the
Adjustment Phase, when it lies under the vehicle until the next one: no discharge in consecutive turns (6.8.6).
The vehicles try in command order, not the previous First Player's first (``ENGINE_POLICIES['dischargers']``)."""
from __future__ import annotations

from .actions import Action
from .codes import ON, P_CMD
from .if_data import if_data


class SmokeDischargerRules:
    """Mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def discharge_actions(self) -> list[Action]:
        """``discharge V`` for the vehicle to command now, if it may try (MBT 7.9)."""
        g = self.game
        if self.phase != P_CMD or not g.optional_on("smoke-dischargers") or self.cq >= g.n:
            return []
        i = self.cq
        a = self.arty
        if i not in if_data(g).ds_limit or self.st[i] != ON or i in a.ds_tried or i in a.ds_under or self.cmd[i]:
            return []
        return [Action(("discharge", g.units[i].name))]

    def apply_discharge(self, action) -> None:
        """Roll (10) at or under the D limit: Smoke/DS on the vehicle (MBT 7.9)."""
        g = self.game
        i = g.uindex[action[1]]
        a = self.arty
        a.ds_tried = a.ds_tried | {i}
        limit = if_data(g).ds_limit[i]
        roll = self.dice.roll(10, f"smoke dischargers {g.units[i].name}")
        ok = roll <= limit
        if ok:
            self.place_cloud("ds", (self.hex[i],), "open", unit=i)
        self.narrate(f"{g.units[i].name} fires its smoke dischargers: roll {roll} vs D{limit}: "
                     f"{'Smoke/DS placed' if ok else 'failed'}")


__all__ = ["SmokeDischargerRules"]
