"""Spreading the additional hits of a Q, R or F Rate-of-Fire shot (MBT 6.5.2.1), Advanced Game; mixed into
:class:`~.ag_fire.AgFireRules`.

The text: additional hits may spread to other target vehicles that are legal targets, within the firing unit's
Command Range of the original target (by the firer's Unit Grade, not its Formation Grade; Regulars, Green and
Raw, Command Range 0, never spread) and in the same AP Range Factor as the original target or closer; they are
spread before damage is determined. The firer chooses ("may"); the engine asks no question in the middle of a
shot, so option ``hit-spread`` decides:

- ``original`` (default): every hit stays on the original target (the firer never uses the bonus);
- ``spread``: the first hit is the original target's; each additional hit goes to the next eligible other vehicle
  (nearest the original target first, then unit order), one hit each, and any hits left over stay on the
  original target.

An eligible vehicle is an enemy on the map that the firer has spotted (``spots``) and may shoot with the row
(``weapon_ok``: range, field of fire, AP only at vehicles); each spread hit is resolved against it at its own
range band and hit angle and marks it attacked. Morale checks after the shot (optional 7.1) are the original
target's only."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .codes import ON

BANDS = "PSMLE"


class HitSpreadRules:
    """Rules of MBT 6.5.2.1's spread of additional hits."""

    __slots__ = ()

    def hit_targets(self, s: int, t: int, row, band: str, hits: int) -> list:
        """The (target, band) each of the shot's ``hits`` strikes, in order (MBT 6.5.2.1, option ``hit-spread``)."""
        if hits < 2 or self.game.options["hit-spread"] != "spread":
            return [(t, band)] * hits
        others = self.spread_targets(s, t, row, band)[:hits - 1]
        return [(t, band)] + others + [(t, band)] * (hits - 1 - len(others))

    def spread_targets(self, s: int, t: int, row, band: str) -> list:
        """The other vehicles the additional hits of ``s``'s shot at ``t`` may spread to, with their bands: within
        the firer's Unit Grade Command Range of ``t`` (none at range 0), spotted, a legal shot for ``row``, in
        ``band`` or closer; nearest ``t`` first (MBT 6.5.2.1)."""
        g = self.game
        reach = g.ag.cmd_range[self.unit_grade(s)]
        if reach <= 0:
            return []
        ht, hs, side = self.hex[t], self.hex[s], g.units[s].side
        out = []
        for x in self.spots[s]:
            if x == t or self.st[x] != ON or g.units[x].side == side or distance(self.hex[x], ht) > reach:
                continue
            xb = self.band_of(row, distance(hs, self.hex[x]))
            if xb is None or BANDS.index(xb) > BANDS.index(band) or not self.weapon_ok(s, x, row):
                continue
            out.append((distance(self.hex[x], ht), x, xb))
        return [(x, xb) for _d, x, xb in sorted(out)]

    def spread_hit(self, s: int, x: int, t: int, row, band: str) -> None:
        """One hit of the shot at ``t`` resolved against ``x`` (the original target or a spread one)."""
        if x != t:
            self.attacked[x] = True
            self.narrate(f"an additional hit spreads from {self.game.units[t].name} to {self.game.units[x].name} "
                         f"(MBT 6.5.2.1)")
        self._ap_hit(s, x, row, band)


__all__ = ["HitSpreadRules"]
