"""Terrain targets (MBT 6.5.4.2.5, 6.5.4.4.3): terrain with a GP Defense attacked by non-small-arms GP fire.

Terrain with a GP Defense: the scenario's ``terrain_gpd`` hexes (variable-defense terrain: bridges; blocks and
wire are not on the boards yet) and buildings by the GP Def column of table ``terrain-effects`` (null: it may not
be attacked; the column is not in the text, so every cell is null until a scenario's data gives one). Terrain is
an S-Type target, never Suppressed. It is attacked:

- by non-small-arms GP direct fire at a unit in its hex (a vehicle in a building hex is in the alleys, not in
  the building: its building is not attacked; a bridge is);
- by GP indirect fire in every hex of the SHEAF (not ICM: the IF target-type row, MBT 6.5.4.3);
- by fixed-wing iron and high-drag bombs and rockets in every hex of their pattern (cluster and incendiary
  bombs and ARMs have no effect on terrain, MBT 6.7.3.3.4-5, 6.7.3.6).

The roll (100) against the S-Effect number of the GP Combat Results Table for the GP factor and the terrain's
GP Defense, no modifiers (as minefields, MBT 7.31.3); an Effective result rolls a second time, and a second
Effective result destroys the terrain (recorded in ``razed``, the slot of Optional Rule 7.19's engineers):

- a building becomes rubble and every unit in the hex is eliminated, no wrecks;
- a bridge is destroyed: its hexsides are no longer crossed by any unit and the units in its hex are
  eliminated, no wrecks (the text makes the hex prohibited; this engine's bridges are hexside features);
- blocks and wire are removed, the units there unaffected.

Not modelled: Improved Positions and Mines as terrain targets (no Improved Positions; mines: ``opt_mines``),
fires started by a destroyed building (7.35), the rubble's own terrain effects (the catalogue has no Rubble)."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .codes import CARRIED, DEAD, ON
from studio.model.maps import edge_key

BUILDING = "T"
#: fixed-wing loads that attack terrain in their pattern (MBT 6.5.4.2.5, 6.7.3.3-6.7.3.4)
TERRAIN_LOADS = ("bomb", "high_drag_bomb", "rockets")


def building_gpd(game) -> dict:
    """Terrain code -> GP Defense of the GP Def column of table terrain-effects (codes with a value only;
    cached on the game)."""
    got = game.__dict__.get("_terrain_gpd_col")
    if got is None:
        from .data import TableReader

        rd = TableReader(game.ruleset)
        tid = "terrain-effects"
        rows = rd.rows(tid)
        got = {}
        if "gp_def" in game.ruleset.tables[rd.where[tid]].columns:
            for r in range(len(rows)):
                v = rd.cell(tid, rows, r, "gp_def", "int?")
                if v is not None:
                    got[rd.cell(tid, rows, r, "code", "str")] = int(v)
        game.__dict__["_terrain_gpd_col"] = got
    return got


class TerrainTargetRules:
    """Rules of this module, mixed into :class:`~.advanced.AdvState` through ``air.AirRules`` (its ``razed`` slot is
    Optional Rule 7.19's, ``opt_engineers``)."""

    __slots__ = ()

    def terrain_target_gpd(self, h, vehicle: bool = False) -> int | None:
        """The GP Defense of the terrain in ``h`` that fire may destroy, or None (destroyed or none): a scenario
        ``terrain_gpd`` value, else a building's by its terrain code (not for fire at a ``vehicle``: it is in the
        alleys, MBT 6.5.4.2.5)."""
        g = self.game
        if h in self.razed:
            return None
        v = (g.extension.get("terrain_gpd") or {}).get(g.label(h))
        if v is not None:
            return int(v)
        code = g.map.terrain.get(h, "")
        if code == BUILDING and vehicle:
            return None
        return building_gpd(g).get(code)

    def attack_terrain(self, h, gp: int, source: str, vehicle: bool = False) -> bool:
        """A non-small-arms GP attack of ``gp`` factors on the terrain of ``h``: two Effective results in a row
        destroy it (MBT 6.5.4.4.3). True when destroyed."""
        g = self.game
        gpd = self.terrain_target_gpd(h, vehicle)
        if gpd is None or gp <= 0:
            return False
        fmax, dmax = g.ag.gp_max
        s_eff = g.ag.gp_crt[(max(1, min(fmax, gp)), max(1, min(dmax, gpd)))][1]
        for k in (1, 2):
            roll = self.dice.roll(100, f"{source} vs terrain {g.label(h)}" + (" (second roll)" if k == 2 else ""))
            effective = roll > s_eff
            self.narrate(f"{source} attacks the terrain in {g.label(h)} (GP {gp} vs GPD {gpd}S): roll {roll} vs S "
                         f"{s_eff}: {'Effective' if effective else 'no effect'}"
                         f"{' (a second roll follows)' if effective and k == 1 else ''}")
            if not effective:
                return False
        self.destroy_terrain(h)
        return True

    def destroy_terrain(self, h) -> None:
        """The terrain of ``h`` is destroyed (MBT 6.5.4.4.3): buildings and bridges take every unit in the hex
        with them (no wrecks); blocks and wire leave them."""
        g = self.game
        self.razed = self.razed | {h}
        bridge = self._bridge_edges(h)
        building = g.map.terrain.get(h, "") == BUILDING
        what = "the bridge" if bridge else ("the building (now rubble)" if building else "the terrain")
        self.narrate(f"{what} in {g.label(h)} is destroyed")
        if not (bridge or building):
            return
        for t in range(g.n):
            if self.st[t] == ON and self.hex[t] == h and not (self.is_heli(t) and self.heli_alt[t] != "landed"):
                for p in self.passengers(t):
                    self.lose_aboard(p)
                self.st[t] = DEAD
                self.lost[g.units[t].side] += 1
                self.narrate(f"{g.units[t].name} is eliminated with it")

    def _bridge_edges(self, h) -> list:
        """The bridge hexsides of hex ``h`` (edge keys)."""
        g = self.game
        return [k for k, f in g.features.items() if f is not None and f.id == "bridge" and h in k]

    def step_cost(self, i: int, a, b, reverse: bool = False):
        """A destroyed bridge's hexside is never crossed (MBT 6.5.4.4.3)."""
        if self.razed and (a in self.razed or b in self.razed) and edge_key(a, b) in self._razed_bridges():
            return None
        return super().step_cost(i, a, b, reverse)

    def xc_steps(self, i: int) -> dict:
        """The step table without the destroyed bridges' crossings (bots plan with it, MBT 6.5.4.4.3)."""
        table = super().xc_steps(i)
        gone = self._razed_bridges() if self.razed else ()
        if not gone:
            return table
        table = dict(table)
        for a, b in gone:
            for x, y in ((a, b), (b, a)):
                if x in table:
                    table[x] = tuple((nb, None if nb == y else c) for nb, c in table[x])
        return table

    def _razed_bridges(self) -> set:
        return {k for h in self.razed for k in self._bridge_edges(h)}

    def gp_fire(self, s: int, t: int, row, overwatch: bool) -> None:
        """Non-small-arms GP direct fire at a unit also attacks the terrain of its hex (MBT 6.5.4.2.5)."""
        h = self.hex[t]
        super().gp_fire(s, t, row, overwatch)
        if row.small_arms or self.is_heli(t) or self.terrain_target_gpd(h) is None:
            return
        band, factor = self.gp_factor(row, distance(self.hex[s], h))
        if band is not None:
            self.attack_terrain(h, factor, self.game.units[s].name, vehicle=self._in_alleys(t))

    def _in_alleys(self, t: int) -> bool:
        """A vehicle (not a leg or towed unit) in a building hex is in its alleys (MBT 6.5.4.2.5)."""
        return not self.game.units[t].type.ag.leg and self.st[t] != CARRIED

    def _gp_impact(self, fire, o: int, h, hexes, planned: bool) -> None:
        """GP indirect fire attacks the terrain of every hex of its SHEAF (MBT 6.5.4.2.5; not ICM)."""
        super()._gp_impact(fire, o, h, hexes, planned)
        if fire.mission != "GP":
            return
        band_row = self._fire_band(fire, o, h, planned)
        if band_row is None:
            return
        for x in sorted(hexes):
            if x in self.game.map.label_of:
                self.attack_terrain(x, band_row[2], f"IF {fire.source}")

    def terrain_pattern_attack(self, kind: str, hexes, gp: int, source: str) -> None:
        """Iron and high-drag bombs and rockets attack the terrain of their pattern (MBT 6.5.4.2.5); called by
        ``fixed_wing.fw_attack``."""
        if kind in TERRAIN_LOADS:
            for h in hexes:
                if h in self.game.map.label_of:
                    self.attack_terrain(h, gp, source)


__all__ = ["TerrainTargetRules", "building_gpd", "TERRAIN_LOADS"]
