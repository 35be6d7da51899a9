"""Optional Rule 7.35, Fires (id ``fires``).

- Start (7.35.1): a building hex not on fire that had non-small-arms GP fire directed at a unit in it this turn
  (direct fire and indirect GP fire in its SHEAF here; bombs and rockets through ``note_fire_attack``) is checked
  once in the Adjustment Phase: roll (100) within the Building Effects range (table ``fire-start``) for its
  construction (scenario ``building_construction``, else the default of table ``building-cover``) and the largest
  GP Factor directed at it this turn starts a fire; small arms never start fires.
- Persistence: a hex is on fire or not and burns for the rest of the scenario.
- Units (7.35.2): a ground unit still in a fire hex at the end of the turn after the fire started (or any later
  turn's end) is eliminated, without a wreck; helicopters are not ground units.
Not modelled: rubble (the boards have no rubble terrain, so its -10 is not in the data), flamethrowers and
incendiary bombs (no such weapons in the engine), fires in other terrain (7.35.4, scenario only), the missed ATGM
option 7.35.3, the effects of a burning hex on sight.
"""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .codes import ON


class FiresRules:
    """Rules of MBT 7.35, mixed into :class:`~.advanced.AdvState` (slots ``burning``, ``fire_gp``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.burning = {}   # hex -> turn the fire started
        self.fire_gp = {}   # hex -> the largest GP factor directed at it this turn

    def _copy(self, dice):
        o = super()._copy(dice)
        o.burning, o.fire_gp = dict(self.burning), dict(self.fire_gp)
        return o

    def fingerprint(self) -> str:
        lab = self.game.label
        return (f"{super().fingerprint()}|fire{sorted((lab(h), t) for h, t in self.burning.items())}"
                f"{sorted((lab(h), v) for h, v in self.fire_gp.items())}")

    def note_fire_attack(self, h, gp: int) -> None:
        """GP fire of ``gp`` factors directed at building hex ``h`` (not small arms): for the fire check (MBT
        7.35.1). Direct fire calls it here; indirect fire, bombs and rockets call it for each hex of their
        pattern."""
        if self.game.optional_on("fires") and h in self.game.building_hexes and h not in self.burning:
            self.fire_gp[h] = max(gp, self.fire_gp.get(h, 0))

    def gp_fire(self, s: int, t: int, row, overwatch: bool) -> None:
        if not row.small_arms and self.game.optional_on("fires"):
            band, factor = self.gp_factor(row, distance(self.hex[s], self.hex[t]))
            if band is not None:
                self.note_fire_attack(self.hex[t], factor)
        super().gp_fire(s, t, row, overwatch)

    def _gp_impact(self, fire, o: int, h, hexes, planned: bool) -> None:
        """Indirect GP fire notes every building hex of its SHEAF (MBT 7.35.1)."""
        if self.game.optional_on("fires"):
            band_row = self._fire_band(fire, o, h, planned)
            if band_row is not None:
                for x in sorted(hexes):
                    self.note_fire_attack(x, band_row[2])
        super()._gp_impact(fire, o, h, hexes, planned)

    def _recover(self) -> None:
        """The Adjustment Phase: fire checks, then units left in burning hexes (MBT 7.35.1-2)."""
        if self.game.optional_on("fires"):
            self._fire_checks()
            self._burn_units()
        super()._recover()

    def _construction(self, h) -> str:
        from .data import building_cover

        g = self.game
        kind = (g.extension.get("building_construction") or {}).get(g.label(h))
        return kind or building_cover(g.ruleset)[1][g.map.terrain.get(h, "")]

    def _fire_checks(self) -> None:
        from .opt_move_data import move_opt

        g = self.game
        mo = move_opt(g)
        for h, gp in sorted(self.fire_gp.items()):
            kind = self._construction(h)
            top = next((m for c, lo, hi, m in mo.fire_start if c == kind and lo <= gp <= hi), 0)
            roll = self.dice.roll(100, f"Fire check {g.label(h)}")
            started = roll <= top
            if started:
                self.burning[h] = self.turn
            self.narrate(f"fire check in {g.label(h)} ({kind}, GP {gp}): roll {roll} vs 01-{top}: "
                         f"{'on fire' if started else 'no fire'}")
        self.fire_gp = {}

    def _burn_units(self) -> None:
        """Ground units in a hex burning since an earlier turn are eliminated, no wrecks (MBT 7.35.2)."""
        g = self.game
        for h, start in self.burning.items():
            if self.turn <= start:
                continue
            for i in range(g.n):
                if self.st[i] == ON and self.hex[i] == h and not g.units[i].type.ag.heli:
                    self.lose_with_passengers(i)
                    self.narrate(f"{g.units[i].name} is lost in the fire in {g.label(h)}")


__all__ = ["FiresRules"]
