"""Barrage movement (MBT 6.6.6), Advanced Game: a unit that moves into a hex of a GP (or ICM) SHEAF fired this turn
is attacked at once by that source, with the impact's GP factor and the indirect-fire modifiers, once per source
and SHEAF however many of its hexes it enters (overlapping SHEAFs attack once each). A unit that starts under a
barrage and does not move is not attacked again; pivoting (turns) is no move. Vehicles moving within a barrage do
not take the Target Vehicle Moving modifier (6.5.4.3). Passengers are attacked through their carrier (6.5.4.2.3),
as by the impact. Moves into a new hex: steps forward or in reverse, entering the map, crawling (6.6.4.3) and
advancing attacks (6.6.1.2)."""
from __future__ import annotations

from typing import NamedTuple

from .codes import ON


class BarrageFire(NamedTuple):
    """A GP impact of this turn that moving units can run into: the source's fire, observer, Target Point, SHEAF
    hexes, weapon row, band and GP factor."""

    fire: object
    observer: int
    tp: object
    hexes: frozenset
    row: object
    band: str
    factor: int


class BarrageMoveRules:
    """Rules of MBT 6.6.6, mixed into :class:`~.advanced.AdvState` (slots ``bfires``: this turn's impacts;
    ``bhit``: (unit, impact) pairs already attacked by movement)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.bfires: tuple = ()
        self.bhit: frozenset = frozenset()

    def _copy(self, dice):
        o = super()._copy(dice)
        o.bfires, o.bhit = self.bfires, self.bhit
        return o

    def fingerprint(self) -> str:
        g = self.game
        fires = [(f.fire, sorted(g.label(h) for h in f.hexes), f.band, f.factor) for f in self.bfires]
        return f"{super().fingerprint()}|bm{fires}{sorted(self.bhit)}"

    def _start_turn(self) -> None:
        super()._start_turn()
        self.bfires, self.bhit = (), frozenset()

    def _gp_impact(self, fire, o: int, h, hexes, planned: bool) -> None:
        """Keep the impact for units moving into it later this turn (MBT 6.6.6)."""
        super()._gp_impact(fire, o, h, hexes, planned)
        band_row = self._fire_band(fire, o, h, planned)
        if band_row is not None:
            row, band, factor = band_row
            self.bfires = self.bfires + (BarrageFire(fire, o, h, frozenset(hexes), row, band, factor),)

    def barrage_entry(self, i: int) -> None:
        """Unit ``i`` has moved into a new hex: each impact whose SHEAF holds it and that has not attacked its
        movement yet attacks it (MBT 6.6.6)."""
        if not self.bfires or self.st[i] != ON or self.game.units[i].type.ag.heli:
            return
        g = self.game
        h = self.hex[i]
        for k, bf in enumerate(self.bfires):
            if h not in bf.hexes or (i, k) in self.bhit:
                continue
            self.bhit = self.bhit | {(i, k)}
            self.narrate(f"{g.units[i].name} moves into the barrage of {bf.fire.source} at {g.label(h)}")
            self.attacked[i] = True
            self._if_attack(g.uindex.get(bf.fire.source, -1), i, bf.row, bf.band, bf.factor, bf.fire, None)
            if self.st[i] != ON:
                return

    def _move_step(self, i: int, a) -> None:
        h = self.hex[i]
        super()._move_step(i, a)
        if self.hex[i] != h:
            self.barrage_entry(i)

    def _move_enter(self, i: int, a) -> None:
        super()._move_enter(i, a)
        self.barrage_entry(i)


__all__ = ["BarrageMoveRules", "BarrageFire"]
