"""World at War line of sight (WaW 7.0-7.3) on an assembled hex map.

Two levels: ground (0) and hill (1: any elevation above 0). Adjacent hexes always see each other (7.0); the end
hexes' own terrain never matters (7.1). The centre-to-centre string (7.3) is the hex line of
``studio.hexgrid.lines.line_steps``: a split step (the string runs along a hexside) blocks only when both
flanking hexes block; for "two or more" terrain (Rough, broken terrain; digest C60) such a hexside counts 2.

* ground to ground (7.1): any blocking hex, any hill hex, or two or more broken hexes between.
* hill to ground (7.2): the target directly behind woods (the last hex before it; digest C72), one or two hexes
  behind a city, or a hill between that is not part of the observer's own hill (hill hexes running on from the
  observer's hex). Symmetric for ground to hill (digest C73).
* hill to hill: a wooded-hill hex between, or two or more broken hexes.
* helicopters use the Helicopter LOS Table (``heli``): flight level 1 over clear terrain, 2 over a hill, woods or
  city, 3 over a wooded hill, +1 for a Pop-Up (at most 3, digest C36); ground units see helicopters the same way
  (digest C73). The "more than one Wreck on a hill" clause needs the Wreck markers, so the state applies it.
"""
from __future__ import annotations

from studio.hexgrid.coords import distance
from studio.hexgrid.lines import line_steps

NONE, BLOCKS, TWO, CITY = 0, 1, 2, 3
# per-hex bits of the whole-map engine: woods or city, woods, city, broken, hill, woods/city/hill
_COVER, _WOODS, _CITY, _TWO, _HILL, _WALL = 1, 2, 4, 8, 16, 32
_KIND = {"none": NONE, "blocks": BLOCKS, "two_or_more": TWO, "city": CITY}


class Los:
    """``ridges``: the hexsides (``edge_key`` pairs) that are ridge lines (7.2: hexside features whose ``los``
    blocks); ``clear(..., wrecks=)`` counts Wreck markers with broken terrain toward "two or more" (7.2 b, 7.3)."""

    def __init__(self, terrain: dict, elevation: dict, blocking: dict[str, str], ridges=frozenset(),
                 heli_levels=(1, 2, 3), grid=None):
        self.block = {h: _KIND.get(blocking.get(code, "none"), NONE) for h, code in terrain.items()}
        self.heli_levels = tuple(heli_levels)          # Helicopter LOS Table: clear, hill/woods/city, wooded hill
        self.level = {h: (1 if elevation.get(h, 0) > 0 else 0) for h in terrain}
        self.ridges = frozenset(ridges)
        self.on_ridge = frozenset(h for side in self.ridges for h in side)
        self.cache: dict = {}
        self._between: dict = {}
        self._steps: dict = {}
        self.grid = grid            # the assembled map (offset grid) for whole-map answers, or None
        self._arrays = None

    def visibility(self, a):
        """Bool array ``[row, col]`` over the map's offset grid: True where ``a`` sees the hex at ground/hill
        level (False off the map); the same answers as :meth:`clear` without Wrecks, for every target at once.
        Needs ``grid`` (``los_for_map`` sets it)."""
        return _visibility(self, a)

    def visible_from(self, a) -> set:
        """The hexes ``a`` sees (its own hex included), without Wrecks."""
        import numpy as np

        seen = self.visibility(a)
        return {self.grid.axial(int(c), int(r)) for r, c in zip(*np.nonzero(seen))}

    def clear(self, a, b, la: int | None = None, lb: int | None = None, wrecks=None) -> bool:
        """Does ``a`` see ``b`` (levels ``la``, ``lb``; default the hexes' own), with the Wreck markers
        ``wrecks`` counting as broken terrain (7.2 b, 7.3)? Wrecks only ever add to what blocks, so a line
        blocked without them is blocked with them."""
        la = self.level.get(a, 0) if la is None else la
        lb = self.level.get(b, 0) if lb is None else lb
        key = (a, b, la, lb)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = self._compute(a, b, la, lb)
        if hit and wrecks and la == lb:
            inside = self.between(a, b) & wrecks
            if inside:
                key = (a, b, la, lb, frozenset(inside))
                hit = self.cache.get(key)
                if hit is None:
                    hit = self.cache[key] = self._compute(a, b, la, lb, inside)
        return hit

    def between(self, a, b) -> frozenset:
        """The hexes of the a-b line other than its end hexes."""
        key = (a, b)
        hit = self._between.get(key)
        if hit is None:
            hit = self._between[key] = frozenset(h for st in self.steps(a, b)[1:-1] for h in st)
        return hit

    def steps(self, a, b) -> tuple:
        """``line_steps(a, b)``, kept per pair (the map does not change)."""
        key = (a, b)
        hit = self._steps.get(key)
        if hit is None:
            hit = self._steps[key] = line_steps(a, b)
        return hit

    def _crosses_ridge(self, a, b) -> bool:
        """7.2: the line crosses a ridge line, and neither end hex is adjacent to (has a side on) one."""
        if not self.ridges or a in self.on_ridge or b in self.on_ridge:
            return False
        steps = self.steps(a, b)
        for s1, s2 in zip(steps, steps[1:]):
            pairs = [(p, q) for p in s1 for q in s2 if distance(p, q) == 1]
            if pairs and all((min(p, q), max(p, q)) in self.ridges for p, q in pairs):
                return True
        return False

    def flight_level(self, h) -> int:
        """Helicopter LOS Table: 1 over clear terrain, 2 over a hill, woods or city, 3 over a wooded hill."""
        hill = self.level.get(h, 0) == 1
        cover = self.block.get(h, NONE) in (BLOCKS, CITY)
        clear, raised, wooded = self.heli_levels
        return wooded if hill and cover else raised if hill or cover else clear

    def heli(self, a, b, lb: int, level: int) -> bool:
        """Helicopter in ``a`` at flight ``level`` to a target in ``b`` at ground level ``lb`` (table rows)."""
        key = (a, b, "H", lb, level)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = self._heli(a, b, lb, min(level, self.heli_levels[2]))   # c36: level 3 rows
        return hit

    def _heli(self, a, b, lb, level) -> bool:
        """Helicopter LOS Table: a helicopter in ``a`` at flight ``level`` to a target in ``b`` at ``lb``."""
        if distance(a, b) <= 1:
            return True
        steps = self.steps(a, b)[1:-1]
        n = len(steps)
        own = self.level.get(a, 0) == 1
        for i, st in enumerate(steps):
            is_hill = all(self.level.get(h, 0) for h in st)
            own = own and is_hill              # hill hexes running on from the helicopter's own hill
            if self._heli_step_blocks(st, level, lb, n - i, is_hill, own):
                return False
        return True

    def _heli_step_blocks(self, st, level: int, lb: int, before: int, is_hill: bool, own_hill: bool) -> bool:
        """Does this step of the line block, per the table row of ``level`` (``before`` = 1 for the hex just
        before the target): woods directly before a ground target, a city one or two hexes before it, a hill
        between (not the own hill), a wooded hill between; at the top row also hills before a hill target."""
        woods = all(self.block.get(h, NONE) == BLOCKS for h in st)
        wooded_hill = is_hill and woods
        behind = (before == 1 and woods) or (before <= 2 and all(self.block.get(h, NONE) == CITY for h in st))
        low, _, top = self.heli_levels
        if level <= low:                       # over clear terrain
            return wooded_hill if lb == 1 else behind or is_hill
        foreign_hill = is_hill and not own_hill
        if (lb == 0 and (behind or foreign_hill)) or (wooded_hill and not own_hill):
            return True
        return level >= top and lb == 1 and ((before == 1 and wooded_hill) or foreign_hill)

    def _compute(self, a, b, la, lb, wrecks=frozenset()) -> bool:
        if a == b or distance(a, b) <= 1:
            return True
        steps = self.steps(a, b)[1:-1]
        if la == lb:
            return self._level_los(steps, la, wrecks)
        if self._crosses_ridge(a, b):
            return False                       # 7.2: a ridge line between hill and ground
        return self._hill_to_ground(steps if la == 1 else tuple(reversed(steps)))

    def _level_los(self, steps, level: int, wrecks) -> bool:
        """7.1 ground to ground: a blocking hex or a hill between; 7.2 hill to hill: a wooded hill between; both:
        two or more broken hexes or Wrecks (7.2 b, 7.3)."""
        broken = 0
        for st in steps:
            ks = [self.block.get(h, NONE) for h in st]
            hills = [self.level.get(h, 0) for h in st]
            if level == 0 and all(k in (BLOCKS, CITY) or lv for k, lv in zip(ks, hills)):
                return False
            if level == 1 and all(lv and k in (BLOCKS, CITY) for k, lv in zip(ks, hills)):
                return False
            if all(k == TWO or h in wrecks for h, k in zip(st, ks)):
                broken += len(ks)
            if broken >= 2:
                return False
        return True

    def _hill_to_ground(self, steps) -> bool:
        """7.2, looking from the hill end: a hill between that is not the observer's own, the target directly
        behind woods (digest C72), or one or two hexes behind a city."""
        own_hill = True
        n = len(steps)
        for i, st in enumerate(steps):
            lv = [self.level.get(h, 0) for h in st]
            if own_hill and all(lv):
                continue
            own_hill = False
            if all(lv):
                return False
            ks = [self.block.get(h, NONE) for h in st]
            before_target = n - i
            if before_target == 1 and all(k == BLOCKS for k in ks):
                return False
            if before_target <= 2 and all(k == CITY for k in ks):
                return False
        return True


def los_for_map(amap, ruleset, tables=None) -> Los:
    """The World at War LOS of an assembled map: blocking kinds from the ruleset's Terrain Effect Chart, ridge
    lines from its hexside features, flight levels from its Helicopter LOS Table."""
    if tables is None:
        from .tables import compile_tables
        tables = compile_tables(ruleset)
    blocking = {code: row["blocking"] for code, row in tables.tec.items()}
    ridges = {side for side, fid in amap.hexsides.items() if fid in tables.ridges}
    return Los(amap.terrain, amap.elevation, blocking, ridges, tables.heli_levels, grid=amap)


def los_check(service, a, b):
    """``RulesetPlugin.los_check`` hook: the World at War answer (7.1 ground, 7.2 hill to ground, hill to hill)
    for ``studio map los`` and the map editor's LOS tool."""
    from studio.model.los import Sight

    los = getattr(service, "_waw_los", None)
    if los is None:
        los = service._waw_los = los_for_map(service.map, service.ruleset)
        service.batch = los  # whole-map answers for LosService.visibility
    la, lb = los.level.get(a, 0), los.level.get(b, 0)
    rule = "WaW 7.1" if la == lb == 0 else "WaW 7.2" if la != lb else "WaW 7.0"
    clear = los.clear(a, b)
    where = {(0, 0): "ground to ground", (1, 1): "hill to hill"}.get((la, lb), "hill to ground")
    reason = f"{where}: " + ("nothing between blocks" if clear else "blocking terrain or a hill between")
    return Sight(clear, service.label(a), service.label(b), distance(a, b), None, None if clear else "rule",
                 rule, reason)


# ---------------------------------------------------------------- all targets at once (numpy)

def _cell_arrays(los: Los):
    """Per-cell and per-hexside arrays of one map for the fan gathers (built once per Los)."""
    import numpy as np

    from studio.hexgrid.coords import DIRECTIONS
    from studio.hexgrid.fan import fan_table

    grid = los.grid
    table = fan_table(grid.kind, grid.columns, grid.rows)
    if table is None:
        return None
    shape = (grid.rows, grid.columns)
    kind = np.zeros(shape, dtype=np.int8)
    level = np.zeros(shape, dtype=bool)
    on = np.zeros(shape, dtype=bool)
    on_ridge = np.zeros(shape, dtype=bool)
    for h in grid.label_of:
        c, r = grid.offset(h)
        on[r, c] = True
        kind[r, c], level[r, c] = los.block.get(h, NONE), los.level.get(h, 0) == 1
        on_ridge[r, c] = h in los.on_ridge
    bits = np.zeros(shape, dtype=np.uint8)
    for bit, value in ((_COVER, (kind == BLOCKS) | (kind == CITY)), (_WOODS, kind == BLOCKS), (_CITY, kind == CITY),
                       (_TWO, kind == TWO), (_HILL, level), (_WALL, (kind == BLOCKS) | (kind == CITY) | level)):
        bits |= np.where(value, bit, 0).astype(np.uint8)
    out = {"table": table, "on": on, "level": level, "on_ridge": on_ridge, "bits": table.cells(bits, 0, 0)}
    if los.ridges:
        ridge = table.sides(np.zeros(shape + (6,), dtype=bool), False, False, skip=True)
        for h1, h2 in los.ridges:
            for x, y in ((h1, h2), (h2, h1)):
                at = table.side_index(*grid.offset(x), DIRECTIONS.index((y[0] - x[0], y[1] - x[1])))
                if at is not None:
                    ridge[at] = True
        out["ridge"] = ridge
    return out


def _visibility(los: Los, a):
    """WaW 7.0-7.3 from ``a`` to every hex of ``los.grid`` (see :meth:`Los.visibility`)."""
    import numpy as np

    if los.grid is None:
        raise ValueError("this Los has no map grid (build it with los_for_map)")
    if los._arrays is None:
        los._arrays = _cell_arrays(los) or {}
    arr = los._arrays
    if not arr:  # a board too big for the fan tables: line by line
        out = np.zeros((los.grid.rows, los.grid.columns), dtype=bool)
        for h in los.grid.label_of:
            c, r = los.grid.offset(h)
            out[r, c] = los.clear(a, h)
        return out
    oc, orow = los.grid.offset(a)
    fan = arr["table"].fan(oc, orow)
    n = fan.dist
    h0, h1 = fan.cell("hex0"), fan.cell("hex1")
    every = np.take(arr["bits"], h0) & np.take(arr["bits"], h1)  # what both hexes of each step are

    def both(bit):
        return (every & bit).astype(bool)

    la = bool(arr["level"][orow, oc])
    same = arr["level"] == la
    hill = both(_HILL)
    # 7.1 ground to ground: a blocking hex or a hill between; 7.2 hill to hill: a wooded hill between
    wall = both(_WALL) if not la else (hill & both(_COVER))
    blocked = same & wall.any(axis=0)
    # "two or more" broken hexes between (a split step along their common hexside counts 2: 7.3, digest C60)
    two = both(_TWO)
    broken = two.sum(axis=0, dtype=np.int16) + (two & fan.flag("split")).sum(axis=0, dtype=np.int16)
    blocked |= same & (broken >= 2)
    blocked |= ~same & _hill_to_ground(arr, fan, n, hill, la, both)
    if los.ridges and a not in los.on_ridge:  # 7.2: a ridge line between hill and ground
        ridge = arr["ridge"]
        cross = np.ones(h0.shape, dtype=bool)
        for j in range(4):
            cross &= np.take(ridge, fan.side("ridge_pairs", j))
        blocked |= ~same & ~arr["on_ridge"] & cross.any(axis=0)
    return arr["on"] & ~(blocked & (n > 1))


def _hill_to_ground(arr, fan, n, hill, la: bool, both):
    """7.2 looking from the hill end: a hill between that is not the observer's own hill, the ground end directly
    behind woods (digest C72), or one or two hexes behind a city."""
    import numpy as np

    k = fan.k()
    live = (k >= 1) & (k < n)
    low = live & ~hill                     # steps off the hill
    seen_low = np.cumsum(low, axis=0, dtype=np.int16)
    if la:                                 # the observer is the hill end: steps run from it
        own = seen_low == 0
        before = n - k
    else:                                  # the target is the hill end: its own hill runs back from it
        own = (seen_low[-1] - seen_low + low) == 0
        before = k
    close = ((before == 1) & both(_WOODS)) | ((before <= 2) & both(_CITY))
    return (live & ~own & (hill | close)).any(axis=0)
