"""Spotting (MBT 4.1): spotting ranges by cover and Spot counters, over-stacking (3.8, 4.1.3.2) and the Spotting
Phase. Line of sight itself is ``los.py`` (MBT 4.1.4)."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .codes import MFIRE, MMOVE, NOMARK, ON
from .fire import GameMemo

#: (spotter hex, target hex) -> range when in line of sight, -1 when not (``_seen_from``)
SIGHT = GameMemo("_memo_sight")


class SpottingRules:
    """Rules of this chapter, mixed into :class:`~.state.MbtState` (they read and write its fields)."""

    __slots__ = ()

    def overstacked(self, h, extra: int = 0) -> bool:
        """6+ vehicle counters in ``h`` (table ``stacking``; wrecks count only if the table says so, MBT 3.8)."""
        tb = self.game.tables
        limit = tb.overstack - extra
        if tb.wrecks_stack and h in self.wreck:
            limit -= 1
        if limit > self.game.n:
            return False
        hexes = self.hex
        if hexes.count(h) < limit:
            return False
        st, find, on, i = self.st, hexes.index, 0, -1
        try:
            while on < limit:  # the vehicles in h, found by list.index (not a Python loop over every vehicle)
                i = find(h, i + 1)
                on += st[i] == ON
        except ValueError:
            return False
        return True

    def cover_of(self, h, spotting: bool = False) -> str:
        """Target cover (MBT 4.1.3) for AP fire, or for ``spotting`` (building hexes by option
        ``building-spotting-cover``); over-stacked hexes give none (4.1.3.2, 4.4.3.2.2)."""
        if self.overstacked(h):
            return "none"
        return (self.game.spot_cover if spotting else self.game.cover).get(h, "none")

    def light_modifier(self, t: int) -> int:
        """The limited-visibility spotting modifier of this turn for target ``t`` (MBT 7.36.1); illumination
        (7.27, ``opt_illumination``) raises it."""
        return self.game.turn_spot_mod.get(self.turn, 0)

    def spot_range(self, t: int, df: bool = False) -> int:
        """How far ``t`` can be spotted (MBT 4.1.3): cover and Spot counter modifiers, clamped, table V column.
        ``df``: Fire/Short Halt targeting, where a Spot/Fire placed this turn does not yet count (Q2)."""
        g = self.game
        tb = g.tables
        mod = tb.cover_spot.get(self.cover_of(self.hex[t], spotting=True), 0)
        mark = self.mkdf[t] if df and g.options["spot-pending"] != "immediate" else self.mk[t]
        if mark == MMOVE:
            mod += tb.spot_mod["target-spot-move"]
        elif mark == MFIRE:
            mod += tb.spot_mod["target-spot-fire"]
        light = self.light_modifier(t)
        if light:
            mod += light  # limited visibility (MBT 7.36.1)
            if self.wreck.get(self.hex[t]) == 2:  # a Brew-Up Wreck lights its hex, never above 0 (MBT 7.27)
                mod = max(mod, min(0, mod + tb.spot_mod["brew-up-illumination"]))
        return g.spot_range_of(mod)

    def _spotting_phase(self) -> None:
        """Spotting Phase (MBT 4.1): each combat vehicle's spotted targets for Fire/Short Halt commands (4.1.1,
        4.4.1); extraneous Spot counters removed (4.1.5)."""
        g = self.game
        for i in range(g.n):
            self.mkdf[i] = self.mk[i]
        spotted_by_side = self._spot_targets()
        units = g.units
        for i in range(g.n):  # extraneous Spot counters (MBT 4.1.5)
            if self.st[i] == ON and self.mk[i] and \
                    not any(i in spotted_by_side[x] for x in range(len(g.sides)) if x != units[i].side):
                self.mk[i] = self.mkdf[i] = NOMARK

    def df_targets(self, s: int) -> tuple:
        """The targets ``s`` may fire on with a Fire/Short Halt command (MBT 4.4.1): those it spotted in the
        Spotting Phase; with option ``spot-pending: immediate`` also enemies whose new Spot/Fire counter (placed
        this turn) now lets ``s`` spot them (Q2)."""
        if self.game.options["spot-pending"] != "immediate":
            return self.spots[s]
        g = self.game
        side, hs = g.units[s].side, self.hex[s]
        extra = tuple(t for t in range(g.n) if self.st[t] == ON and g.units[t].side != side and
                      self.mk[t] == MFIRE and self.mkdf[t] != MFIRE and t not in self.spots[s] and
                      distance(hs, self.hex[t]) <= self.spot_range(t) and g.los.clear(hs, self.hex[t]))
        return self.spots[s] + extra

    def _spot_targets(self) -> list[set]:
        """Set ``spots`` (the targets each vehicle spots, MBT 4.1.1) and return the vehicles each side spots."""
        g = self.game
        n = g.n
        spotted_by_side = [set() for _ in g.sides]
        units = g.units
        on = [i for i in range(n) if self.st[i] == ON]
        rng = {t: self.spot_range(t, df=True) for t in on}  # depends on the target only (MBT 4.1.3)
        clear = g.los.clear
        by_spotter: dict = {}  # (hex, side) -> targets: every vehicle of a side in a hex sees the same ones
        groups = None  # per spotting side: the enemy's hexes (``_target_hexes``)
        for s in range(n):
            if s not in rng or not units[s].type.combat:
                self.spots[s] = ()  # unarmed vehicles may not spot (MBT 4.1.1)
                continue
            hs, side = self.hex[s], units[s].side
            if not self.caching:
                seen = tuple(t for t in on if units[t].side != side and distance(hs, self.hex[t]) <= rng[t] and
                             clear(hs, self.hex[t]))
            else:
                seen = by_spotter.get((hs, side))
                if seen is None:
                    if groups is None:
                        groups = self._target_hexes(on, rng)
                    seen = by_spotter[(hs, side)] = _seen_from(hs, groups[side], clear, SIGHT.of(g))
            self.spots[s] = seen
            spotted_by_side[side].update(seen)
        return spotted_by_side

    def _target_hexes(self, on: list[int], rng: dict) -> list[list[tuple]]:
        """For each spotting side, the hexes of the enemy vehicles ``on`` the map: ``(hex, the longest spotting
        range there, ((vehicle, its range), ...))``; vehicles in one hex share its distance and line of sight."""
        units = self.game.units
        sides = len(self.game.sides)
        by_hex: list[dict] = [{} for _ in range(sides)]
        for t in on:
            by_hex[units[t].side].setdefault(self.hex[t], []).append((t, rng[t]))
        out = []
        for side in range(sides):
            out.append([(h, max(r for _, r in members), tuple(members))
                        for other in range(sides) if other != side for h, members in by_hex[other].items()])
        return out


def _seen_from(hs, targets: list[tuple], clear, sight: dict) -> tuple:
    """The vehicles of ``targets`` (``SpottingRules._target_hexes``) spotted from ``hs`` (within their spotting
    range and in line of sight, MBT 4.1.1-4.1.4), in vehicle order. ``sight`` remembers per game the range of a
    hex pair in line of sight, -1 for one out of sight (both static: terrain alone blocks, ``MbtLos``); a pair
    is judged only once a target there is within range, as the uncached test does."""
    seen = []
    for ht, longest, members in targets:
        key = (hs, ht)
        d = sight.get(key)
        if d is None:
            d = distance(hs, ht)
            if d > longest:
                continue
            if len(sight) > 400_000:
                sight.clear()
            d = sight[key] = d if clear(hs, ht) else -1
        if d < 0 or d > longest:
            continue
        seen.extend(t for t, r in members if d <= r)
    seen.sort()
    return tuple(seen)


def in_sight(sight: dict, clear, hs, ht, r: int) -> bool:
    """Is ``ht`` within ``r`` hexes of ``hs`` and in its line of sight? ``sight`` remembers per game a hex pair's
    range when in sight, -1 when not (``SIGHT``: both are static); a pair is judged only once within range."""
    key = (hs, ht)
    d = sight.get(key)
    if d is None:
        d = distance(hs, ht)
        if d > r:
            return False
        if len(sight) > 400_000:
            sight.clear()
        d = sight[key] = d if clear(hs, ht) else -1
    return 0 <= d <= r
