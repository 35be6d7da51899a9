"""A measured table's geometry: areas on an STRtree, lines of sight, depth, paths, radius queries, exposure.

Every query is exact on the polygons (Shapely/GEOS); the tree only narrows the candidates. Lines of sight take a
vectorised edge-crossing path (all polygon edges in numpy arrays, prepared once per table): it gives the same
answer as the Shapely overlay, and hands the query to the overlay whenever a vertex or an end of the line lies on
a boundary (within 1e-9"), where only the overlay's boundary rules are authoritative. Heights are in inches
above the ground the area stands on; ground elevation comes from nested height polygons (a contour is the
polygon it closes, at its level), the highest containing polygon giving the level of a point.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from .shapes import segment

_EPS = 1e-9
_FAR = 1.0e4  # shadows are projected this far (inches), well beyond any table
_DEGENERATE = 1e-9  # a vertex or line end this close to the other shape sends a sight line to the exact overlay
_MEMO_SIZE = 1 << 16  # memoized sight lines / exposures per geometry before the memo starts afresh
_BRUTE_EDGES = 4096  # up to this many polygon edges a sight line tests them all; beyond, the tree picks areas


@dataclass(frozen=True, eq=False)
class Area:
    """One feature as geometry. ``geom`` is a polygon (a polyline arrives buffered to its width, a circle as a
    buffered point). ``blocks``: sight is blocked where the line passes below its top (``height`` above its base);
    ``solid``: its boundary is a face (a wall) that fire through it passes, counted per crossing.
    ``hidden_from`` lists the sides that may not know it (a line of sight for such a side ignores it)."""

    id: str
    kind: str
    geom: BaseGeometry
    height: float = 0.0
    cover: float = 0.0
    blocks: bool = False
    solid: bool = False
    hidden_from: frozenset[str] = frozenset()
    data: dict = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class HeightArea:
    """A height polygon (or closed contour) at ``level`` inches above the table top."""

    id: str
    level: float
    geom: BaseGeometry


@dataclass(frozen=True, slots=True)
class Crossing:
    """What a sight line does in one area: the inches inside, where it enters and leaves (inches from the
    observer), the faces passed (boundary crossings strictly between the ends), and whether it blocks there."""

    area: Area
    length: float
    enter: float
    exit: float
    faces: int
    blocking: bool
    at_observer: bool
    at_target: bool


@dataclass(frozen=True, slots=True)
class LosResult:
    """A line of sight: ``clear`` unless an area or the ground blocks it; ``crossings`` in order of entry."""

    length: float
    crossings: tuple[Crossing, ...]
    ground_block: float | None  # inches from the observer where the ground rises above the line, or None

    @property
    def blocked_by(self) -> Crossing | None:
        return next((c for c in self.crossings if c.blocking), None)

    @property
    def clear(self) -> bool:
        return self.ground_block is None and self.blocked_by is None

    def length_in(self, kind: str) -> float:
        """Inches of the line inside areas of ``kind`` (overlaps counted once per area)."""
        return sum(c.length for c in self.crossings if c.area.kind == kind)


class TableGeometry:
    """The static geometry of a table: ``areas`` and ``heights`` indexed by two STRtrees."""

    def __init__(self, width: float, depth: float, areas: Sequence[Area] = (), heights: Sequence[HeightArea] = ()):
        self.width, self.depth = float(width), float(depth)
        self.bounds = shapely.box(0.0, 0.0, self.width, self.depth)
        self.areas = list(areas)
        self.heights = list(heights)
        self._ground_memo: dict = {}   # (x, y) -> ground level
        self._areas_memo: dict = {}    # (x, y) -> areas covering the point
        self._geoms = np.array([a.geom for a in self.areas], dtype=object)
        self._hgeoms = np.array([h.geom for h in self.heights], dtype=object)
        for g in (self._geoms, self._hgeoms):
            shapely.prepare(g)
        self._tree = shapely.STRtree(self._geoms)
        self._levels = np.array([h.level for h in self.heights], dtype=float)
        self._n = len(self.areas)
        self._all = np.concatenate([self._geoms, self._hgeoms]) if len(self._hgeoms) else self._geoms
        self._all_tree = shapely.STRtree(self._all)
        self._base = np.array([self.ground_at(*_anchor(a.geom)) for a in self.areas], dtype=float)
        self.by_id = {a.id: a for a in self.areas}
        self._edges = _EdgeTable.build(self._all)
        self._hidden = np.array([bool(a.hidden_from) for a in self.areas] + [False] * len(self.heights), dtype=bool)
        self._memo: dict = {}   # los() answers
        self._exposure_memo: dict = {}
        self._shadow_memo: dict = {}   # (area index, eye x, eye y) -> its shadow
        self._kinds: dict = {}         # frozenset of kinds -> [(area index, bounds)] (areas_within)
        self._blocking_bounds = [tuple(shapely.bounds(a.geom).tolist()) for a in self.areas if a.blocks]

    # ------------------------------------------------------------------ elevation
    def ground_at(self, x: float, y: float) -> float:
        """Ground level at (x, y): the highest height polygon covering the point, 0 on the bare table (memoized
        per point: the geometry is static)."""
        if not self.heights:
            return 0.0
        hit = self._ground_memo.get((x, y))
        if hit is None:
            if len(self._ground_memo) >= _MEMO_SIZE:
                self._ground_memo.clear()
            levels = self._levels[shapely.intersects_xy(self._hgeoms, x, y)]
            hit = self._ground_memo[(x, y)] = float(levels.max()) if len(levels) else 0.0
        return hit

    # ------------------------------------------------------------------ distances and radius
    @staticmethod
    def distance(a: BaseGeometry, b: BaseGeometry, mode: str = "edge") -> float:
        """Inches between two shapes: ``edge`` = nearest points (0 when they touch), ``centre`` = centroids."""
        if mode == "centre":
            return float(shapely.distance(shapely.centroid(a), shapely.centroid(b)))
        if mode != "edge":
            raise ValueError(f"distance mode '{mode}' is not 'edge' or 'centre'")
        return float(shapely.distance(a, b))

    def areas_within(self, geom: BaseGeometry, radius: float, kinds: Iterable[str] | None = None) -> list[tuple[Area, float]]:
        """Areas within ``radius`` inches of ``geom`` (edge to edge), nearest first, optionally of ``kinds``
        (then only the areas of those kinds whose bounds come within ``radius`` of the shape's are measured)."""
        wanted = None if kinds is None else set(kinds)
        if wanted is not None:
            return self._areas_within_kinds(geom, radius, frozenset(wanted))
        idx = self._tree.query(geom, predicate="dwithin", distance=radius)
        out = [(self.areas[i], float(shapely.distance(geom, self._geoms[i]))) for i in idx]
        return sorted([o for o in out if wanted is None or o[0].kind in wanted], key=lambda o: (o[1], o[0].id))

    def _areas_within_kinds(self, geom: BaseGeometry, radius: float, kinds: frozenset) -> list[tuple[Area, float]]:
        """:meth:`areas_within` for the areas of ``kinds`` (their indexes and bounds listed once per kinds)."""
        subset = self._kinds.get(kinds)
        if subset is None:
            subset = self._kinds[kinds] = [(i, tuple(shapely.bounds(self._geoms[i]).tolist()))
                                           for i, a in enumerate(self.areas) if a.kind in kinds]
        if not subset:
            return []
        x0, y0, x1, y1 = shapely.bounds(geom).tolist()
        out = []
        for i, (ax0, ay0, ax1, ay1) in subset:
            if ax0 - radius <= x1 and ax1 + radius >= x0 and ay0 - radius <= y1 and ay1 + radius >= y0:
                d = float(shapely.distance(geom, self._geoms[i]))
                if d <= radius:
                    out.append((self.areas[i], d))
        return sorted(out, key=lambda o: (o[1], o[0].id))

    def areas_at(self, x: float, y: float) -> list[Area]:
        """Areas covering the point (x, y) (a new list; memoized per point: the geometry is static)."""
        hit = self._areas_memo.get((x, y))
        if hit is None:
            if len(self._areas_memo) >= _MEMO_SIZE:
                self._areas_memo.clear()
            hit = self._areas_memo[(x, y)] = tuple(
                self.areas[i] for i in sorted(self._tree.query(Point(x, y), predicate="intersects")))
        return list(hit)

    def areas_at_points(self, xs, ys) -> list[list[Area]]:
        """:meth:`areas_at` for many points at once (vectorized per area): for each point the areas covering
        it, in the areas' order."""
        xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
        out: list[list[Area]] = [[] for _ in range(len(xs))]
        for area, geom in zip(self.areas, self._geoms):
            for k in np.flatnonzero(shapely.intersects_xy(geom, xs, ys)):
                out[k].append(area)
        return out

    def depth_inside(self, x: float, y: float, area: Area) -> float:
        """Shortest distance from (x, y) to the edge of ``area`` when inside it, else 0."""
        p = Point(x, y)
        if not area.geom.covers(p):
            return 0.0
        return float(shapely.distance(p, area.geom.boundary))

    def depth_along(self, x0: float, y0: float, x1: float, y1: float, area: Area) -> float:
        """Inches from (x0, y0) along the line toward (x1, y1) before leaving ``area`` (0 when outside it)."""
        if not area.geom.covers(Point(x0, y0)):
            return 0.0
        line, unit = _line(x0, y0, x1, y1)
        parts = _intervals(line, np.array([area.geom], dtype=object), x0, y0, unit).get(0, [])
        return parts[0][1] if parts and parts[0][0] <= _EPS else 0.0

    # ------------------------------------------------------------------ paths
    def path_lengths(self, coords: Sequence[tuple[float, float]], kinds: Iterable[str] | None = None) -> list[tuple[Area, float]]:
        """Inches of the path (a polyline) inside each area it meets, in order of the areas' ids."""
        line = shapely.linestrings(coords)
        wanted = None if kinds is None else set(kinds)
        idx = [i for i in self._tree.query(line, predicate="intersects")
               if wanted is None or self.areas[i].kind in wanted]
        if not idx:
            return []
        lengths = shapely.length(shapely.intersection(line, self._geoms[idx]))
        return sorted(((self.areas[i], float(l)) for i, l in zip(idx, lengths)), key=lambda o: o[0].id)

    # ------------------------------------------------------------------ line of sight
    def los(self, x0: float, y0: float, x1: float, y1: float, eye: float = 0.0, target: float = 0.0,
            side: str | None = None) -> LosResult:
        """The sight line from an eye ``eye`` inches above the ground at (x0, y0) to a point ``target`` inches
        above the ground at (x1, y1): every area crossed (length inside, faces, blocking) and the ground block.
        Areas hidden from ``side`` are left out; an area holding an end never blocks (it is that end's cover).
        The same answer as :meth:`los_exact`, by edge crossings (see the module docstring). Answers are
        memoized per geometry (the geometry is static; a result is immutable): units that hold ask again."""
        key = (x0, y0, x1, y1, eye, target, side)
        hit = self._memo.get(key)
        if hit is None:
            if len(self._memo) >= _MEMO_SIZE:
                self._memo.clear()
            hit = self._memo[key] = self._los(x0, y0, x1, y1, eye, target, side)
        return hit

    def _los(self, x0: float, y0: float, x1: float, y1: float, eye: float, target: float,
             side: str | None) -> LosResult:
        fast = self._edges.intervals(self, x0, y0, x1, y1) if self._edges is not None else None
        if fast is None:
            return self.los_exact(x0, y0, x1, y1, eye, target, side)
        pieces, inside0, inside1 = fast
        z0 = self._level_of(inside0) + eye
        z1 = self._level_of(inside1) + target
        return self._assemble(pieces, math.hypot(x1 - x0, y1 - y0), z0, z1, side)

    def _level_of(self, inside: set[int]) -> float:
        """Ground level of a point inside the shapes ``inside`` (indexes into ``_all``): the highest height
        polygon among them, 0 on the bare table (as :meth:`ground_at`)."""
        levels = [self._levels[i - self._n] for i in inside if i >= self._n]
        return float(max(levels)) if levels else 0.0

    def los_exact(self, x0: float, y0: float, x1: float, y1: float, eye: float = 0.0, target: float = 0.0,
                  side: str | None = None) -> LosResult:
        """:meth:`los` on the Shapely overlay (line intersected with each candidate polygon): the reference."""
        line, unit = _line(x0, y0, x1, y1)
        length = math.hypot(x1 - x0, y1 - y0)
        z0, z1 = self.ground_at(x0, y0) + eye, self.ground_at(x1, y1) + target
        idx = self._all_tree.query(line, predicate="intersects")   # areas and height polygons in one query
        if not len(idx):
            return LosResult(length, (), None)
        idx = np.asarray(idx)
        pieces = {int(idx[k]): parts for k, parts in _intervals(line, self._all[idx], x0, y0, unit).items()}
        return self._assemble(pieces, length, z0, z1, side)

    def _assemble(self, pieces: dict[int, list[tuple[float, float]]], length: float, z0: float, z1: float,
                  side: str | None) -> LosResult:
        """The LosResult of the pieces inside each area / height polygon (index into ``_all``)."""
        out, first = [], None
        for i, parts in pieces.items():
            if i < self._n:
                if side is None or side not in self.areas[i].hidden_from:
                    out.append(self._crossing(i, parts, length, z0, z1))
            else:
                t = self._under(self._levels[i - self._n], parts, length, z0, z1)
                if t is not None and (first is None or t < first):
                    first = t
        return LosResult(length, tuple(sorted(out, key=lambda c: (c.enter, c.area.id))), first)

    def _crossing(self, i: int, parts, length: float, z0: float, z1: float) -> Crossing:
        """Area ``i`` as the line passes it: length inside, faces, whether it blocks (an end's own area never;
        the line's lowest point inside is only needed for an area that blocks)."""
        area = self.areas[i]
        enter, leave = parts[0][0], parts[-1][1]
        at_obs, at_tgt = enter <= _EPS, leave >= length - _EPS
        faces, inside = 0, 0
        for a, b in parts:
            faces += (a > _EPS) + (b < length - _EPS)
            inside += b - a
        blocking = False
        if area.blocks and not at_obs and not at_tgt:
            low = min(min(_z(z0, z1, length, a), _z(z0, z1, length, b)) for a, b in parts)
            blocking = low < self._base[i] + area.height - _EPS
        return Crossing(area, inside, enter, leave, int(faces), bool(blocking), at_obs, at_tgt)

    @staticmethod
    def _under(level: float, parts, length: float, z0: float, z1: float) -> float | None:
        """Where (inches out) the line first runs below a height polygon's level, or None (the line is
        straight, so checking each piece's ends is exact)."""
        for a, b in parts:
            for t in (a, b):
                if _z(z0, z1, length, t) < level - _EPS:
                    return t
        return None

    # ------------------------------------------------------------------ exposure
    def exposure(self, x: float, y: float, eye: float, foot: BaseGeometry, target: float = 0.0,
                 side: str | None = None, key=None) -> float:
        """Fraction (0..1) of the footprint ``foot`` seen from an eye at (x, y): its area outside the shadows
        of the areas that block the sight line there (exact shadows of every edge of each blocker). ``key``
        (hashable, naming ``foot`` exactly, e.g. card, position and facing) memoizes the answer."""
        if key is None:
            return self._exposure(x, y, eye, foot, target, side)
        full = (x, y, eye, key, target, side)
        hit = self._exposure_memo.get(full)
        if hit is None:
            if len(self._exposure_memo) >= _MEMO_SIZE:
                self._exposure_memo.clear()
            hit = self._exposure_memo[full] = self._exposure(x, y, eye, foot, target, side)
        return hit

    def _exposure(self, x: float, y: float, eye: float, foot: BaseGeometry, target: float,
                  side: str | None) -> float:
        if foot.area <= 0:
            return 0.0
        fx0, fy0, fx1, fy1 = shapely.bounds(foot).tolist()
        x0, y0, x1, y1 = min(fx0, x), min(fy0, y), max(fx1, x), max(fy1, y)
        if not any(a0 <= x1 and a1 >= x0 and b0 <= y1 and b1 >= y0 for a0, b0, a1, b1 in self._blocking_bounds):
            return 1.0                                 # no blocking area near the eye and the footprint's hull
        eye_at = Point(x, y)
        hull = shapely.convex_hull(shapely.union(foot, eye_at))
        cx, cy = _anchor(foot)
        mid = shapely.centroid(foot)
        mx, my = float(mid.x), float(mid.y)
        z0 = self.ground_at(x, y) + eye
        z1 = self.ground_at(cx, cy) + target
        dist = float(np.hypot(cx - x, cy - y)) or _EPS
        shadows = []
        for i in self._tree.query(hull, predicate="intersects"):
            area = self.areas[i]
            geom = self._geoms[i]
            if not area.blocks or (side is not None and side in area.hidden_from):
                continue
            if shapely.intersects_xy(geom, x, y) or shapely.intersects_xy(geom, mx, my):
                continue                               # the eye's or the footprint's own area (a point: covers)
            near = min(float(shapely.distance(eye_at, geom)), dist)
            if _z(z0, z1, dist, near) >= self._base[i] + area.height - _EPS:
                continue
            shadows.append(self._shadow_of(i, x, y))
        if not shadows:
            return 1.0
        seen = shapely.difference(foot, shapely.union_all(shadows))
        return max(0.0, min(1.0, float(seen.area / foot.area)))

    def _shadow_of(self, i: int, x: float, y: float) -> BaseGeometry:
        """:func:`_shadow` of area ``i`` from (x, y), memoized (static geometry; one eye sees many footprints)."""
        key = (i, x, y)
        hit = self._shadow_memo.get(key)
        if hit is None:
            if len(self._shadow_memo) >= _MEMO_SIZE:
                self._shadow_memo.clear()
            hit = self._shadow_memo[key] = _shadow(self._geoms[i], x, y)
        return hit


def _line(x0: float, y0: float, x1: float, y1: float):
    """The segment and its unit direction."""
    norm = math.hypot(x1 - x0, y1 - y0) or _EPS
    return segment(x0, y0, x1, y1), ((x1 - x0) / norm, (y1 - y0) / norm)


def _z(z0: float, z1: float, length: float, t: float) -> float:
    return z0 if length <= 0 else z0 + (z1 - z0) * (t / length)


def _anchor(geom: BaseGeometry) -> tuple[float, float]:
    p = shapely.point_on_surface(geom)
    return float(p.x), float(p.y)


def _intervals(line, geoms, x0: float, y0: float, direction: tuple[float, float]) -> dict[int, list[tuple[float, float]]]:
    """For each of ``geoms`` (by position) that the straight ``line`` passes through: its pieces inside as
    (enter, exit) distances from (x0, y0), in order. A touch at a single point passes nothing."""
    ux, uy = direction
    parts, owner = shapely.get_parts(shapely.intersection(line, geoms), return_index=True)
    keep = shapely.get_type_id(parts) == 1
    parts, owner = parts[keep], owner[keep]
    if not len(parts):
        return {}
    coords, cidx = shapely.get_coordinates(parts, return_index=True)
    t = (coords[:, 0] - x0) * ux + (coords[:, 1] - y0) * uy
    change = np.empty(len(cidx), dtype=bool)
    change[0] = True
    np.not_equal(cidx[1:], cidx[:-1], out=change[1:])
    starts = np.flatnonzero(change)
    lo, hi = np.minimum.reduceat(t, starts), np.maximum.reduceat(t, starts)
    out: dict[int, list[tuple[float, float]]] = {}
    for o, a, b in zip(owner.tolist(), lo.tolist(), hi.tolist()):
        if b - a > _EPS:
            out.setdefault(o, []).append((a, b))
    for v in out.values():
        v.sort()
    return out


def _shadow(geom: BaseGeometry, x: float, y: float) -> BaseGeometry:
    """The region hidden behind ``geom`` from the point (x, y): the polygon and every edge's far quad."""
    rings = []
    for poly in shapely.get_parts(geom):
        if poly.geom_type != "Polygon":
            continue
        rings.append(shapely.get_coordinates(poly.exterior))
    quads = [geom]
    v = np.array([x, y])
    for ring in rings:
        a, b = ring[:-1], ring[1:]
        fa = a + (a - v) * _FAR / np.maximum(np.linalg.norm(a - v, axis=1, keepdims=True), _EPS)
        fb = b + (b - v) * _FAR / np.maximum(np.linalg.norm(b - v, axis=1, keepdims=True), _EPS)
        shells = np.stack([a, b, fb, fa, a], axis=1)
        quads.extend(shapely.make_valid(shapely.polygons(shells)))
    return shapely.union_all(quads)


@dataclass(frozen=True, eq=False)
class _EdgeTable:
    """Every ring edge of the table's polygons (areas then height polygons) as numpy columns, for sight lines by
    edge crossings: a point is inside a polygon when a ray from it crosses its edges an odd number of times
    (half-open rule at vertices), so walking the line from far behind the observer toggles inside/outside at
    each crossing. ``vx``/``vy`` hold the edges' first ends then their second ends (one array op serves both)."""

    vx: np.ndarray
    vy: np.ndarray
    owner: np.ndarray
    count: int

    @property
    def edges(self) -> int:
        return len(self.owner)

    @classmethod
    def build(cls, geoms) -> "_EdgeTable | None":
        """The edge table, or None when a shape is not a (multi)polygon (then every query takes the overlay)."""
        cols: list[list] = [[], [], [], [], []]
        for k, g in enumerate(geoms):
            if shapely.get_type_id(g) not in (3, 6):
                return None
            for ring in shapely.get_rings(shapely.get_parts(g)):
                c = shapely.get_coordinates(ring)
                for col, v in zip(cols, (c[:-1, 0], c[:-1, 1], c[1:, 0], c[1:, 1], np.full(len(c) - 1, k))):
                    col.append(v)
        if not cols[0]:
            return cls(np.zeros(0), np.zeros(0), np.zeros(0, dtype=int), len(geoms))
        ax, ay, bx, by, owner = (np.concatenate(col) for col in cols)
        return cls(np.concatenate([ax, bx]), np.concatenate([ay, by]), owner.astype(int), len(geoms))

    def intervals(self, geo: "TableGeometry", x0: float, y0: float, x1: float, y1: float):
        """({shape index: [(enter, exit), ...]}, shapes holding the start, shapes holding the end), or None when
        the line is degenerate here (zero length, a vertex on it, an end on a boundary): the overlay decides then.
        The few crossings of the line are walked in Python (cheaper than more array calls)."""
        length = math.hypot(x1 - x0, y1 - y0)
        if length <= _DEGENERATE:
            return None
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        vx, vy, owner, n = self.vx, self.vy, self.owner, len(self.owner)
        if n > _BRUTE_EDGES:
            near = geo._all_tree.query(segment(x0, y0, x1, y1), predicate="intersects")
            keep = np.flatnonzero(np.isin(owner, near))
            vx, vy, owner, n = vx[np.concatenate([keep, keep + n])], vy[np.concatenate([keep, keep + n])], \
                owner[keep], len(keep)
        dx, dy = vx - x0, vy - y0
        s = ux * dy - uy * dx                          # signed offsets of the edge ends from the line
        ta_tb = ux * dx + uy * dy                      # positions of the edge ends along the line
        sa, sb, ta = s[:n], s[n:], ta_tb[:n]
        near = np.abs(sa) <= _DEGENERATE
        if near.any() and np.any(near & (ta >= -_DEGENERATE) & (ta <= length + _DEGENERATE)):
            return None                                # a vertex on the sight line
        cross = ((sa > 0) != (sb > 0)).nonzero()[0]
        sa, sb, ta = sa[cross], sb[cross], ta[cross]
        tb = ta_tb[n:][cross]
        t = (ta + (tb - ta) * (sa / (sa - sb))).tolist()
        return _walk(owner[cross].tolist(), t, length)


def _walk(own: list[int], t: list[float], length: float):
    """The pieces inside each shape along a line of ``length`` from its crossings (shape ``own[k]``'s boundary
    at ``t[k]`` inches from the start, t < 0 behind it), with the shapes holding the start and the end; None
    when a crossing is at an end of the line (a boundary there: the overlay decides)."""
    inside0: set[int] = set()
    walk = []
    for o, tt in zip(own, t):
        if abs(tt) <= _DEGENERATE or abs(tt - length) <= _DEGENERATE:
            return None                                # an end of the line on a boundary
        if tt < 0:
            inside0 ^= {o}
        elif tt < length:
            walk.append((o, tt))
    walk.sort()
    inside1 = set(inside0)
    pieces: dict[int, list[tuple[float, float]]] = {}
    starts = {o: 0.0 for o in sorted(inside0)}
    for o, tt in walk:
        inside1 ^= {o}
        if o in starts:
            a = starts.pop(o)
            if tt - a > _EPS:
                _add_piece(pieces.setdefault(o, []), a, tt)
        else:
            starts[o] = tt
    for o, a in starts.items():
        if length - a > _EPS:
            _add_piece(pieces.setdefault(o, []), a, length)
    return {o: v for o, v in pieces.items() if v}, inside0, inside1


def _add_piece(parts: list[tuple[float, float]], a: float, b: float) -> None:
    """Append (a, b), merging it with the last piece when they touch (a line through a vertex)."""
    if parts and a - parts[-1][1] <= _EPS:
        parts[-1] = (parts[-1][0], b)
    else:
        parts.append((a, b))
