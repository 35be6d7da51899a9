"""Crawling (MBT 6.6.4.3), Advanced Game: an unsuppressed squad or half-squad, or a section without attached
weapons, in Full Cover (6.1.4.2) with a Move command may crawl one hex instead of moving: ``crawl UNIT HEX`` at the
start of its move. It stays in Full Cover; it may not change elevation (nor building level: ``leg_levels.py``) nor
end next to an enemy a friendly unit spots. Crawling is not moving for combat or
spotting: the unit keeps the Spot counter it had (no Spot/Move) and its GP Defense has no moving -2; GP direct and
indirect fire at it this turn take the crawl modifier (table ``advanced-movement`` row ``crawl-gp``, +10). The
crawl is a move into a new hex: Overwatch and barrages (6.6.6) see it."""
from __future__ import annotations

from studio.hexgrid.coords import distance, neighbour

from .actions import Action
from .adv_move_data import adv_move
from .codes import MOVE, ON


class CrawlRules:
    """Rules of MBT 6.6.4.3, mixed into :class:`~.advanced.AdvState` (slots ``crawled``, ``cr_mk``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.crawled = [False] * self.game.n  # crawled this turn (the GP modifier, not moving)
        self.cr_mk = -1                        # the Spot counter the moving unit had before its move (-1 none)

    def _copy(self, dice):
        o = super()._copy(dice)
        o.crawled, o.cr_mk = self.crawled[:], self.cr_mk
        return o

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}|cr{''.join('1' if x else '0' for x in self.crawled)}/{self.cr_mk}"

    def _start_turn(self) -> None:
        super()._start_turn()
        self.crawled = [False] * self.game.n

    def may_crawl(self, i: int) -> bool:
        """May leg unit ``i`` crawl now (MBT 6.6.4.3): dismounted, not Suppressed, in Full Cover, a Move command,
        nothing moved yet; a squad or half-squad, or a section without attached weapons (a quickmarch factor)?"""
        from .opt_move_data import card_move

        if not (self.is_leg(i) and self.st[i] == ON and self.fc[i] and not self.sup[i] and self.cmd[i] == MOVE and
                self.mv_steps == 0 and not self.mv_spent and not self.is_towed(i)):
            return False
        return self.leg_size(i) != "section" or card_move(self.game, i).quickmarch > 0

    def crawl_hexes(self, i: int) -> list:
        """The hexes ``i`` may crawl into: on the map, terrain it may enter, the same elevation, no enemy there or
        next to it that its side spots (MBT 6.6.4.3)."""
        g = self.game
        side = g.units[i].side
        seen = {t for s in g.units_of(side) for t in self.spots[s]}
        near = [self.hex[t] for t in seen if self.st[t] == ON]
        enemy = self._enemy_hexes(side)
        h = self.hex[i]
        out = []
        for f in range(6):
            b = neighbour(h, f)
            if b not in g.map.label_of or b in enemy or g.elev.get(b, 0) != g.elev.get(h, 0):
                continue
            if self.xc_static(i, h, b) is None or any(distance(b, x) <= 1 for x in near):
                continue
            out.append(b)
        return out

    def move_options(self, i: int) -> list[Action]:
        out = super().move_options(i)
        if self.mv_u == i and self.may_crawl(i):
            name = self.game.units[i].name
            out += [Action(("crawl", name, self.game.label(b))) for b in self.crawl_hexes(i)]
        return out

    def _begin_move(self, i: int) -> None:
        self.cr_mk = self.mk[i]
        super()._begin_move(i)

    def _apply_move(self, i: int, a) -> None:
        if a[0] == "crawl" and self.mv_u == i:
            self._crawl(i, self.game.map.hex(a[2]))
            return
        super()._apply_move(i, a)

    def _crawl(self, i: int, b) -> None:
        """One hex, Full Cover kept, no Spot/Move (MBT 6.6.4.3); the move ends there."""
        self.mk[i] = max(0, self.cr_mk)
        self.crawled[i] = True
        self.hex[i] = b
        self.fac[i] = next(f for f in range(6) if neighbour(self.mv_trail[0], f) == b)
        self.mv_steps += 1
        self.mv_trail.append(b)
        self.mv_left = 0
        self.mv_end = True
        self.narrate(f"{self.game.units[i].name} crawls to {self.game.label(b)}, staying in Full Cover")
        self._after_step(i)
        self.barrage_entry(i)  # MBT 6.6.6

    def _after_step(self, i: int) -> None:
        """A crawl keeps Full Cover (``full_cover`` ends it on leaving the hex otherwise)."""
        keep = self.crawled[i] and self.fc[i]
        super()._after_step(i)
        if keep:
            self.fc[i] = True

    def leg_gp_defense(self, t: int) -> int:
        """A crawling unit is not moving: no -2 (MBT 6.6.4.3)."""
        if not self.crawled[t]:
            return super().leg_gp_defense(t)
        c = self.cmd[t]
        self.cmd[t] = 0
        try:
            return super().leg_gp_defense(t)
        finally:
            self.cmd[t] = c

    def crawl_modifier(self, t: int) -> int:
        """GP fire at a crawling unit (MBT 6.6.4.3): +10 (``crawl-gp``)."""
        return adv_move(self.game).val["crawl-gp"] if self.crawled[t] else 0


__all__ = ["CrawlRules"]
