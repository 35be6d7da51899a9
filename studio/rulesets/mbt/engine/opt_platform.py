"""Optional Rule 7.16, Platform Gun Mounts (id ``platform-gun-mounts``).

A towed unit whose card has ``platform_gun_mount`` (the Soviet NSV HMG, SM-14A) engages targets in any direction:
- its weapons' field of fire is taken as facing the target, for direct fire as for Overwatch and AA fire (like a
  turretless 360 degree vehicle);
- every Overwatch shot takes the Overwatch Front modifier (``overwatch``, never ``overwatch-adjust``);
- a shot at a target outside its front field of fire first pivots the unit to face it (the hexside whose front
  60 degrees hold the target; narrated).
Without the rule (or without the card flag) a towed unit fires only into its front 60 degrees (MBT 5.2)."""
from __future__ import annotations

import dataclasses

from .fire import in_field

RULE = "platform-gun-mounts"


class PlatformRules:
    """Rules of MBT 7.16, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def platform(self, s: int) -> bool:
        """Does unit ``s`` fire from a Platform Gun Mount now (rule on, card flag, MBT 7.16)?"""
        g = self.game
        return RULE in g.optional_rules and getattr(g.units[s].type.ag, "platform", False)

    def weapon_ok(self, s: int, t: int, row) -> bool:
        """A platform gun's field of fire always faces the target (MBT 7.16)."""
        if row.arc != 360 and self.platform(s):
            return super().weapon_ok(s, t, _all_round(self.game, row))
        return super().weapon_ok(s, t, row)

    def ow_inside(self, s: int, t: int, row) -> bool:
        """Every Overwatch shot of a platform gun takes the Overwatch Front modifier (MBT 7.16)."""
        return True if self.platform(s) else super().ow_inside(s, t, row)

    def _shoot(self, s: int, t: int, row, overwatch: bool) -> None:
        """A platform gun firing outside its front field of fire pivots to face the target first (MBT 7.16)."""
        if self.platform(s) and row.arc != 360 and not self.in_field(s, t, row.arc, row.rear):
            self._pivot_to(s, t, row)
        super()._shoot(s, t, row, overwatch)

    def _pivot_to(self, s: int, t: int, row) -> None:
        """Face the first hexside whose field of fire holds the target's centre (the six 60 degree fields, their
        boundaries included, cover every direction)."""
        g = self.game
        self.fac[s] = next(f for f in range(6) if in_field(self.hex[s], f, self.hex[t], row.arc, row.rear, False))
        self.narrate(f"{g.units[s].name} pivots on its platform mount to face {g.units[t].name} (MBT 7.16)")


def _all_round(game, row):
    """``row`` with a 360 degree field of fire (cached per row on the game)."""
    cache = game.__dict__.setdefault("_platform_rows", {})
    key = id(row)
    hit = cache.get(key)
    if hit is None or hit[0] is not row:
        hit = cache[key] = (row, dataclasses.replace(row, arc=360))
    return hit[1]


__all__ = ["PlatformRules", "RULE"]
