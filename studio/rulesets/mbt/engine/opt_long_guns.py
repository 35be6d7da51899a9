"""Optional Rule 7.20, Long Guns (id ``long-guns``, with 7.8 Turrets).

A turreted vehicle whose card notes a Long Gun (``notes.long_gun``) moving into or within an alley (a building
hex), Woods or Light Woods hex (table ``long-gun-terrain``) must have its turret directly to the front or rear:
it may not enter such a hex otherwise, and while moving in one its turret turns only to the front or rear. At the
path or road rate, and while stationary (the Adjust Turret step), the turret may face any hexside. The turret
facing is the Turrets rule's (``turret_offset``: 0 the hull front, 3 the rear)."""
from __future__ import annotations

FORE_AFT = (0, 3)


class LongGunRules:
    """Rules of MBT 7.20, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def _long_gun(self, i: int) -> bool:
        from .opt_move_data import card_move

        g = self.game
        return g.optional_on("long-guns") and self.has_turret(i) and card_move(g, i).long_gun

    def _long_gun_hex(self, h) -> bool:
        from .opt_move_data import move_opt

        return self.game.map.terrain.get(h, "") in move_opt(self.game).long_gun_terrain

    def step_cost(self, i: int, a, b, reverse: bool = False):
        """Entering an alley or woods hex needs the turret fore or aft (MBT 7.20); not at the road rate."""
        c = super().step_cost(i, a, b, reverse)
        if c is None or not self.game.optional_on("long-guns"):
            return c
        if self.mv_mode == "xc" and self._long_gun(i) and self._long_gun_hex(b) and \
                self.turret_offset(i) not in FORE_AFT:
            return None
        return c

    def long_gun_allows(self, i: int, offset: int) -> bool:
        """May the turret of ``i`` turn to ``offset`` while moving (MBT 7.20: in an alley or woods hex only to
        the front or rear, except at the path or road rate)? The Turrets rule asks before offering a turn."""
        return offset in FORE_AFT or self.mv_mode != "xc" or not self._long_gun(i) or \
            not self._long_gun_hex(self.hex[i])


__all__ = ["LongGunRules"]
