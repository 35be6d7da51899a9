"""MBT line of sight (MBT 4.1.4): heights, obstacles and the blind zone, on ``studio.hexgrid.los``.

Obstacles along the centre-to-centre line come from ``studio.hexgrid.los.los_elements`` with an MBT
:data:`LOS_RULES` (intervening hexes only, hexsides crossed, and for a line running exactly along a hexside both
flanking hexes and that hexside: MBT 4.1.4.2.6, option ``los-along-hexside``). Each obstacle is then judged by
the MBT height tests instead of a straight sight line:

- higher than both units: blocked at any range (4.1.4.2.1);
- equal to the higher and higher than the lower: blocked (4.1.4.2.2);
- equal to or lower than both: clear (4.1.4.2.3);
- between them: a blind zone behind the obstacle of D/2, D/4, D/8 or 1 hexes for an obstacle 1, 2, 3 or 4+
  heights below the higher unit, never less than 1 (4.1.4.2.4; options ``blind-zone-n``,
  ``hexside-obstacle-distance``).

Special cases: units have no height and never block (4.1.4); a unit's own hex is not intervening, which gives
the 1-hex perimeter into woods and towns (4.1.4.2.5); roads through woods/building hexes along a straight line
negate their blocking (4.1.4.1.3, 4.1.4.1.7); gully/ford hexes (Height -1) see 1 height up only to adjacent
hexes unless the line runs along gully hexes (4.1.4.1.6; option ``gully-two-up``); crest and hedgerow hexsides
block by their own height (4.1.4.1.5, 4.1.4.1.10); slopes never block by themselves (4.1.4.1.5).
"""
from __future__ import annotations

from studio.hexgrid.coords import distance
from studio.hexgrid.lines import EdgePolicy, line_steps
from studio.hexgrid.los import LosRules, los_elements

LOS_RULES = LosRules(rule="MBT 4.1.4", edge_policy=EdgePolicy.BLOCK_IF_EITHER, equal_blocks=False,
                     observer_hex_blocks=False, target_hex_blocks=False, adjacent_always_clear=False,
                     along_hexside_blocks=True)


#: pairs judged one by one from a hex before its whole row is judged at once (``MbtLos._miss``)
ROW_AFTER = 4


class MbtLos:
    """LOS of one assembled map (results cached per hex pair: terrain, wrecks and smoke never block)."""

    def __init__(self, elevation: dict, terrain_top: dict, gully: set, blocking: set, roads: dict,
                 hexside_top: dict, options: dict, grid=None):
        self.elevation = elevation        # hex -> hill level
        self.terrain_top = terrain_top    # hex -> height the terrain adds (woods 3, town 1/story, gully -1, else 0)
        self.gully = gully                # hexes of Height -1 terrain
        self.blocking = blocking          # hexes whose terrain is a blocking type (woods, buildings)
        self.roads = roads                # edge key -> road type id
        self.hexside_top = hexside_top    # edge key -> absolute top of a blocking hexside (crest, hedgerow)
        self.blind_n = options.get("blind-zone-n", "higher-minus-obstacle")
        self.side_distance = options.get("hexside-obstacle-distance", "nearer-hex")
        self.gully_two_up = options.get("gully-two-up", "normal")
        self.strict_along = options.get("los-along-hexside", "height-test") == "strict"
        self.highest_only = options.get("los-obstacles", "every") == "highest"
        self.cache: dict = {}
        self.row_misses: dict = {}        # hex -> pairs from it judged one by one (``_miss``)
        self.grid = grid                  # the assembled map (offset grid) for whole-map answers, or None
        self._arrays = None

    # ---- heights
    def unit_height(self, h) -> int:
        """A vehicle's height: its hill level, -1 in gully/ford terrain; vehicles in woods are at ground level
        (4.1.4.1.4, 4.1.4.1.6, 4.1.4.1.7)."""
        return self.elevation.get(h, 0) + (-1 if h in self.gully else 0)

    def _terrain(self, h):
        top = self.terrain_top.get(h, 0)
        return (self.elevation.get(h, 0), top if (top < 0 or h in self.blocking) else 0)

    def _hexside(self, a, b):
        key = (a, b) if a <= b else (b, a)
        return self.hexside_top.get(key)

    def _road(self, a, b) -> bool:
        return ((a, b) if a <= b else (b, a)) in self.roads

    # ---- the test
    def clear(self, a, b) -> bool:
        """Does a unit in ``a`` see a unit in ``b`` (symmetric: judged from the lower hex of the pair)?"""
        key = (a, b) if a <= b else (b, a)
        hit = self.cache.get(key)
        if hit is None:
            hit = self._miss(key)
        return hit

    def clear_lifted(self, a, b, lift_a: int = 0, lift_b: int = 0) -> bool:
        """LOS between units ``lift_a`` / ``lift_b`` Heights above their hexes' unit height (a leg unit on a
        building's top floor, MBT 6.1.4.3.1); :meth:`clear` when neither is lifted. Cached per lifted pair."""
        if not lift_a and not lift_b:
            return self.clear(a, b)
        key = (a, b, lift_a, lift_b) if a <= b else (b, a, lift_b, lift_a)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = self._clear(key[0], key[1], lift=key[2:])
        return hit

    def _miss(self, key) -> bool:
        """A pair not yet judged. After :data:`ROW_AFTER` such pairs from one hex, the whole row of that hex is
        judged at once (``visibility``, about as costly as 15 pair tests; the same answers, ``test_los_hook``) and
        remembered for every pair it starts, so a game pays the per-pair test only for the first few pairs."""
        a = key[0]
        seen = self.row_misses.get(a, 0) + 1
        self.row_misses[a] = seen
        if seen < ROW_AFTER or not self._whole_rows() or a not in self.grid.label_of:
            hit = self.cache[key] = self._clear(*key)
            return hit
        self._fill_row(a)
        hit = self.cache.get(key)
        if hit is None:  # a hex off the grid
            hit = self.cache[key] = self._clear(*key)
        return hit

    def _whole_rows(self) -> bool:
        """Can ``visibility`` judge a row by the fan tables (not line by line through :meth:`clear`)?"""
        if self.grid is None or self.highest_only:
            return False
        if self._arrays is None:
            self._arrays = _cell_arrays(self) or {}
        return bool(self._arrays)

    def _fill_row(self, a) -> None:
        """Remember ``clear(a, x)`` for every hex ``x >= a`` of the map (the pairs ``a`` starts)."""
        seen = self.visibility(a).tolist()
        cache, offset = self.cache, self.grid.offset
        for x in self.grid.label_of:
            if x >= a:
                c, r = offset(x)
                cache[(a, x)] = seen[r][c]

    def visibility(self, a):
        """Bool array ``[row, col]`` over the map's offset grid: True where a unit in ``a`` sees a unit in the hex
        (False off the map); the same answers as :meth:`clear` for every target, computed for all at once
        (``studio.rulesets.mbt.engine.sightfan``). Needs ``grid`` (``build_los`` sets it)."""
        return _visibility(self, a)

    def visible_from(self, a) -> set:
        """The hexes a unit in ``a`` sees (its own hex included)."""
        import numpy as np

        seen = self.visibility(a)
        return {self.grid.axial(int(c), int(r)) for r, c in zip(*np.nonzero(seen))}

    def explain(self, a, b) -> tuple[str, str, str | None, object]:
        """``(rule, reason, blocker kind, blocker)`` of the LOS from a to b; kind and blocker are None when clear
        or when no single obstacle is to blame."""
        return self._clear(a, b, explain=True)

    def _clear(self, a, b, explain: bool = False, lift: tuple = (0, 0)):
        n = distance(a, b)
        if n == 0:
            return ("MBT 4.1.4", "same hex", None, None) if explain else True
        ha, hb = self.unit_height(a) + lift[0], self.unit_height(b) + lift[1]
        steps = line_steps(a, b)
        found = self._gully_blocks(a, b, n, steps)
        if found is None:
            found = self._obstacles(a, b, n, steps, max(ha, hb), min(ha, hb), ha >= hb)
        if found is None:
            found = ("MBT 4.1.4.2.3", "no obstacle reaches the higher unit's height", None, None)
            return found if explain else True
        return found if explain else False

    def _gully_blocks(self, a, b, n: int, steps):
        """Gully / ford / stream hexes see one height up only to adjacent hexes, unless along gully hexes
        (4.1.4.1.6; option ``gully-two-up`` for two heights or more); the blocking reason or None."""
        for g, other in ((a, b), (b, a)):
            if g not in self.gully:
                continue
            up = self.unit_height(other) - self.unit_height(g)
            if up == 1 or (up >= 2 and self.gully_two_up == "adjacent-only"):
                if n > 1 and not all(all(h in self.gully for h in st) for st in steps[1:-1]):
                    return ("MBT 4.1.4.1.6", "a gully/ford hex sees one height up only to adjacent hexes", None, None)
        return None

    def _elements(self, a, b):
        """The obstacles on the line (4.1.4.2), or a blocking reason when the line runs along a blocking hex under
        option ``los-along-hexside: strict`` (4.1.4.2.6); option ``los-obstacles: highest`` keeps the highest."""
        mand, alts = los_elements(a, b, self._terrain, self._hexside, LOS_RULES)
        elements = list(mand)
        for e0, e1 in alts:
            elements.append(e0)
            elements.append(e1)
            if self.strict_along and (e0[2] in self.blocking or e1[2] in self.blocking):
                return None, ("MBT 4.1.4.2.6", "the line runs along a blocking hex", "spine", (e0[2], e1[2]))
        if self.highest_only and elements:
            elements = [max(elements, key=lambda e: e[3])]
        return elements, None

    def _obstacles(self, a, b, n: int, steps, H: int, L: int, a_higher: bool):
        """The first obstacle that blocks (its reason), or None (4.1.4.2.1-4)."""
        elements, blocked = self._elements(a, b)
        if blocked is not None:
            return blocked
        for k, kind, ident, top in elements:
            if kind == "hex" and ident in self.blocking and k % 2 == 0 and self._road_negates(k // 2, n, steps, ident):
                top = self.elevation.get(ident, 0)  # road along a straight line negates blocking (4.1.4.1.3)
            found = self._judge(k, kind, ident, top, n, H, L, a_higher)
            if found is not None:
                return found
        return None

    def _road_negates(self, i: int, n: int, steps, ident) -> bool:
        return (0 < i < n and len(steps[i - 1]) == 1 and len(steps[i + 1]) == 1 and
                self._road(steps[i - 1][0], ident) and self._road(ident, steps[i + 1][0]))

    def _judge(self, k: int, kind: str, ident, top: int, n: int, H: int, L: int, a_higher: bool):
        """One obstacle of height ``top`` at half-step ``k`` between units at heights H >= L."""
        if top <= L:
            return None  # 4.1.4.2.3
        if top > H:
            return ("MBT 4.1.4.2.1", f"height {top} is higher than both units ({H} and {L})", kind, ident)
        if top == H:
            return ("MBT 4.1.4.2.2", f"height {top} equals the higher unit's", kind, ident)
        # 4.1.4.2.4 blind zone behind an obstacle between the two heights (options blind-zone-n,
        # hexside-obstacle-distance)
        dn = (H - top) if self.blind_n == "higher-minus-obstacle" else (top - L)
        pos = k / 2 if a_higher else n - k / 2
        D = int(pos + 0.5) if kind == "hexside" and self.side_distance != "nearer-hex" else int(pos)
        zone = blind_zone(D, dn)
        if n <= D + zone:
            return ("MBT 4.1.4.2.4", f"target in its blind zone of {zone} hex(es) at range {D}", kind, ident)
        return None


def build_los(amap, terrain: dict, features: dict, stories: dict, options: dict) -> MbtLos:
    """The MBT LOS of an assembled map: ``terrain`` code -> TerrainType, ``features`` id -> HexsideFeature,
    ``stories`` hex -> building stories (default 1), ``options`` the rule options in force."""
    top, gully, blocking = {}, set(), set()
    for h in amap.label_of:
        t = terrain.get(amap.terrain.get(h, ""))
        if t is None:
            continue
        height = t.los.height
        if t.los.blocks:
            blocking.add(h)
            height *= stories.get(h, 1)
        if height < 0:
            gully.add(h)
        top[h] = height
    side_top = {}
    for key, fid in amap.hexsides.items():
        f = features.get(fid)
        if f is not None and f.los.blocks:
            side_top[key] = max(amap.elevation.get(key[0], 0), amap.elevation.get(key[1], 0)) + f.los.height
    return MbtLos(dict(amap.elevation), top, gully, blocking, dict(amap.roads), side_top, options, grid=amap)


def los_check(service, a, b):
    """``RulesetPlugin.los_check`` hook: the MBT answer for ``studio map los`` and the map editor's LOS tool
    (no scenario, so buildings count one story)."""
    from studio.model.los import Sight

    mbt = getattr(service, "_mbt_los", None)
    if mbt is None:
        rs = service.ruleset
        mbt = build_los(service.map, {t.code: t for t in rs.terrain}, {f.id: f for f in rs.hexside_features}, {},
                        service.options)
        service._mbt_los = mbt
        service.batch = mbt  # whole-map answers for LosService.visibility
    rule, reason, kind, ident = mbt.explain(a, b)

    def name(x) -> str:  # a hex, or a tuple of hexes / hexsides
        return service.label(x) if isinstance(x[0], int) else "|".join(name(y) for y in x)

    blocker = name(ident) if ident is not None else None
    if kind == "hex":
        names = {t.code: t.name for t in service.ruleset.terrain}
        code = service.map.terrain.get(ident, "")
        reason = f"{names.get(code, code)} on level {service.map.elevation.get(ident, 0)}: {reason}"
    return Sight(mbt.clear(a, b), service.label(a), service.label(b), distance(a, b), blocker,
                 kind if blocker else (None if mbt.clear(a, b) else "rule"), rule, reason)


def blind_zone(D: int, n_lower: int) -> int:
    """Blind zone size behind an obstacle at range D that is ``n_lower`` heights below the higher unit (4.1.4.2.4).

    >>> blind_zone(14, 1), blind_zone(16, 2), blind_zone(18, 3), blind_zone(19, 4), blind_zone(5, 3)
    (7, 4, 2, 1, 1)
    """
    zone = D // 2 if n_lower == 1 else D // 4 if n_lower == 2 else D // 8 if n_lower == 3 else 1
    return max(1, zone)


# ---------------------------------------------------------------- all targets at once (numpy)

def _cell_arrays(los: MbtLos):
    """Per-cell and per-hexside arrays of one map for the fan gathers (built once per MbtLos)."""
    import numpy as np

    from studio.hexgrid.coords import DIRECTIONS
    from studio.hexgrid.fan import fan_table

    grid = los.grid
    table = fan_table(grid.kind, grid.columns, grid.rows)
    if table is None:
        return None
    shape = (grid.rows, grid.columns)
    elev = np.zeros(shape)
    top = np.full(shape, -np.inf)
    unit = np.zeros(shape)
    gully = np.zeros(shape, dtype=bool)
    blocking = np.zeros(shape, dtype=bool)
    on = np.zeros(shape, dtype=bool)
    for h in grid.label_of:
        c, r = grid.offset(h)
        on[r, c] = True
        ground, extra = los._terrain(h)
        elev[r, c], top[r, c] = ground, ground + extra
        unit[r, c] = los.unit_height(h)
        gully[r, c], blocking[r, c] = h in los.gully, h in los.blocking
    side = table.sides(np.full(shape + (6,), -np.inf), -np.inf, -np.inf)
    road = table.sides(np.zeros(shape + (6,), dtype=bool), False, False)
    for values, source in ((side, los.hexside_top), (road, los.roads)):
        for (h1, h2), value in source.items():
            for x, y in ((h1, h2), (h2, h1)):
                at = table.side_index(*grid.offset(x), DIRECTIONS.index((y[0] - x[0], y[1] - x[1])))
                if at is not None:
                    values[at] = value if values.dtype != bool else True
    roaded = {h for side_ in los.roads for h in side_}
    road_grid = np.zeros(shape, dtype=bool)
    for h in roaded & los.blocking:
        if h in grid.label_of:
            c, r = grid.offset(h)
            road_grid[r, c] = True
    elev, top, side, unit = _compact(table, elev, top, side, unit)
    return {"table": table, "on": on, "unit": unit, "gully_at": gully, "elev": elev, "top": top,
            "gully": table.cells(gully, False, True), "blocking": table.cells(blocking, False, False),
            "side": side, "road": road, "road_block": table.cells(road_grid, False, False),
            "road_blocks": bool(road_grid.any())}


#: "no obstacle" in the int16 height arrays (below every unit's height)
_NO_TOP = -(1 << 14)


def _compact(table, elev, top, side, unit):
    """The height arrays as int16 when every height is a whole number of a sane size (gathers of int16 are several
    times faster than of float64); as float64 (no obstacle: -inf) otherwise."""
    import numpy as np

    finite = [a[np.isfinite(a)] for a in (elev, top, side, unit)]
    whole = all(bool(np.all((v == np.round(v)) & (np.abs(v) < 1 << 13))) for v in finite)
    if not whole:
        return table.cells(elev, -np.inf, -np.inf), table.cells(top, -np.inf, -np.inf), side, unit
    def small(a):
        return np.where(np.isfinite(a), a, _NO_TOP).astype(np.int16)

    return (table.cells(small(elev), _NO_TOP, _NO_TOP), table.cells(small(top), _NO_TOP, _NO_TOP),
            small(side), small(unit))


def _visibility(los: MbtLos, a):
    """MBT 4.1.4 from ``a`` to every hex of ``los.grid`` (see :meth:`MbtLos.visibility`)."""
    import numpy as np

    if los.grid is None:
        raise ValueError("this MbtLos has no map grid (build it with build_los)")
    if los._arrays is None:
        los._arrays = _cell_arrays(los) or {}
    arr = los._arrays
    # option los-obstacles: highest keeps one obstacle per line; a board too big for the fan tables: line by line
    if not arr or los.highest_only:
        return _line_by_line(los, a)
    oc, orow = los.grid.offset(a)
    fan = arr["table"].fan(oc, orow)
    n = fan.dist.astype(np.int32)
    hb = arr["unit"]
    ha = hb[orow, oc]
    judge = _Judge(los, n, ha, hb, fan.k().astype(np.int32))
    blocked = _gully_blocked(los, arr, fan, n, ha, hb, a)
    hexes = [fan.cell("hex0"), fan.cell("hex1")]
    for slot, idx in enumerate(hexes):
        top = np.take(arr["top"], idx)
        if arr["road_blocks"]:
            _roads_negate(arr, fan, slot, idx, top)
        judge(blocked, top, 0, False)
    if los.hexside_top:  # crest and hedgerow hexsides (4.1.4.1.5, 4.1.4.1.10)
        judge(blocked, np.take(arr["side"], fan.side("side_in")), -1, True)
        judge(blocked, np.take(arr["side"], fan.side("side_split")), 0, True)
    if los.strict_along:  # 4.1.4.2.6 option los-along-hexside: strict
        along = fan.flag("spine") & (np.take(arr["blocking"], hexes[0]) | np.take(arr["blocking"], hexes[1]))
        blocked |= along.any(axis=0)
    return arr["on"] & ~blocked


def _line_by_line(los, a):
    """:meth:`MbtLos.visibility` through the pair test (cached per pair)."""
    import numpy as np

    out = np.zeros((los.grid.rows, los.grid.columns), dtype=bool)
    for h in los.grid.label_of:
        c, r = los.grid.offset(h)
        out[r, c] = los.clear(a, h)
    return out


def _roads_negate(arr, fan, slot: int, idx, top) -> None:
    """4.1.4.1.3 / 4.1.4.1.7: a road running on along a straight line through a woods or building hex (the hexes
    before and after are single hexes joined to it by the road) negates its blocking: ``top`` drops to the hill."""
    import numpy as np

    through = np.take(arr["road_block"], idx)
    if not through.any():
        return
    k, r, c = _where(through)
    split, n = fan.flag("split"), fan.dist
    single = ~split[k - 1, r, c] & ~split[k + 1, r, c]
    k, r, c = k[single], r[single], c[single]
    if not len(k):
        return
    table, hex0, ident = fan.table, fan.cell("hex0"), idx[k, r, c]
    before = np.where(k == 1, fan.flat, hex0[k - 1, r, c])
    after = np.where(k + 1 == n[r, c], table.target_cells()[r, c], hex0[np.minimum(k + 1, fan.steps - 1), r, c])
    on = np.ones(len(k), dtype=bool)
    for other in (before, after):
        side = table.side_between(ident, other)
        on &= (side >= 0) & arr["road"][np.maximum(side, 0)]
    k, r, c = k[on], r[on], c[on]
    top[k, r, c] = arr["elev"][idx[k, r, c]]


def _where(mask):
    """``np.nonzero`` of a 3-d mask (faster through the flat indices when the mask is sparse)."""
    import numpy as np

    flat = np.flatnonzero(mask)
    rest, c = np.divmod(flat, mask.shape[2])
    k, r = np.divmod(rest, mask.shape[1])
    return k, r, c


class _Judge:
    """The MBT height tests (4.1.4.2.1-4; :meth:`MbtLos._judge`) of obstacles ``top[k, row, col]`` between an
    observer at height ``ha`` and every target (heights ``hb``, ranges ``n``)."""

    def __init__(self, los: MbtLos, n, ha: float, hb, k):
        import numpy as np

        self.los, self.n, self.k = los, n, k
        self.high, self.low = np.maximum(ha, hb), np.minimum(ha, hb)
        self.a_higher = ha >= hb
        # 4.1.4.2.1-2: higher than both units, or equal to the higher and higher than the lower
        if hb.dtype.kind == "i":
            self.walls = self.high + (self.high == self.low)
        else:
            self.walls = np.where(self.high > self.low, self.high, np.nextafter(self.high, np.inf))

    def __call__(self, blocked, top, half_shift: int, hexside: bool) -> None:
        """Mark in ``blocked`` the targets one of whose obstacles (at half-steps ``2k + half_shift``) blocks."""
        import numpy as np

        blocked |= (top >= self.walls).any(axis=0)
        between = (top > self.low) & (top < self.high)  # 4.1.4.2.3: no higher than the lower unit: clear
        if not between.any():
            return
        k, r, c = _where(between)
        los, t, hi, lo, nn = self.los, top[k, r, c], self.high[r, c], self.low[r, c], self.n[r, c]
        hk = 2 * k + half_shift
        dn = (hi - t) if los.blind_n == "higher-minus-obstacle" else (t - lo)
        pos2 = np.where(self.a_higher[r, c], hk, 2 * nn - hk)
        d = (pos2 + 1) // 2 if hexside and los.side_distance != "nearer-hex" else pos2 // 2
        zone = np.maximum(np.where(dn == 1, d // 2, np.where(dn == 2, d // 4, np.where(dn == 3, d // 8, 1))), 1)
        hit = nn <= d + zone  # 4.1.4.2.4: the target in the blind zone behind the obstacle
        blocked[r[hit], c[hit]] = True


def _gully_blocked(los: MbtLos, arr, fan, n, ha, hb, a):
    """4.1.4.1.6 for every target: a gully/ford end sees one height up only to adjacent hexes unless the line runs
    along gully hexes (option ``gully-two-up``)."""
    import numpy as np

    two_up = los.gully_two_up == "adjacent-only"

    def looks_up(up):
        return (up == 1) | ((up >= 2) & two_up)

    ends = looks_up(hb - ha) if a in los.gully else np.zeros(n.shape, dtype=bool)
    ends = ends | (arr["gully_at"] & looks_up(ha - hb))
    ends &= n > 1
    if not ends.any():
        return np.zeros(n.shape, dtype=bool)
    g = arr["gully"]
    along = (g[fan.cell("hex0")] & g[fan.cell("hex1")]).all(axis=0)
    return ends & ~along
