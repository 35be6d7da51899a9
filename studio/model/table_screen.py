"""A quick screen of a measured table's geometry in plain Python, so validation imports Shapely (and numpy) only
for a table that may have a geometry finding.

:func:`certainly_plain` answers True only when every geometry check of :func:`studio.model.table.check_table`
is sure to find nothing: each shape is a simple polygon of non-zero area, a polyline of non-zero length with a
width, or a point/circle with a radius; every point is on the table; each ford lies on its line; no structure's
bounding box meets another structure's or a water feature's; every height polygon is simple and on the table.
Anything near a limit (a point on an edge, a ford at the edge of its line, collinear or touching edges, more than
:data:`MAX_POINTS` points) answers False, and the exact Shapely checks decide. The screen never changes a
finding: it only tells when the exact checks have nothing to report.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .table import MeasuredTable, TableFeature

#: polygons with more points than this go to the exact checks (the simplicity test here is quadratic)
MAX_POINTS = 64
#: distances and cross products this close to a limit are left to the exact checks (inches, inches squared)
MARGIN = 1e-6

Pt = tuple[float, float]
Box = tuple[float, float, float, float]


def certainly_plain(table: "MeasuredTable") -> bool:
    """Whether the exact geometry checks of ``table`` are sure to find nothing (see the module docstring)."""
    width, depth = table.width_in, table.depth_in
    boxes: list[tuple[Box, "TableFeature"]] = []
    for f in table.features:
        if not _feature_plain(f, width, depth):
            return False
        boxes.append((_feature_box(f), f))
    if not _no_incompatible_overlap(boxes):
        return False
    return all(len(h.points) >= 3 and _inside(h.points, width, depth) and _simple_polygon(_ring(h.points))
               for h in table.elevations)


def _feature_plain(f: "TableFeature", width: float, depth: float) -> bool:
    """One feature: a sound shape, on the table, its fords on its line."""
    if not _on_table(f.points, width, depth):
        return False
    if f.shape == "polygon":
        ok = len(f.points) >= 3 and _simple_polygon(_ring(f.points))
    elif f.shape == "polyline":
        ok = f.width_in is not None and len(f.points) >= 2 and _length(f.points) > MARGIN
    elif f.shape == "circle":
        ok = f.radius_in is not None and f.radius_in > MARGIN and _circle_inside(f, width, depth)
    else:  # a point: buffered to its radius (or 1/8")
        ok = (f.radius_in or 0.125) > MARGIN
    if not ok:
        return False
    if f.fords:
        return f.shape == "polyline" and all(_ford_on_line(f, ford.at) for ford in f.fords)
    return True


def _on_table(points: Sequence[Sequence[float]], width: float, depth: float) -> bool:
    """Every point on the table, by the exact check's own test (``table.off-table``: 1e-9 past an edge is on)."""
    return all(-1e-9 <= x <= width + 1e-9 and -1e-9 <= y <= depth + 1e-9 for x, y in points)


def _inside(points: Sequence[Sequence[float]], width: float, depth: float) -> bool:
    """Every point inside the table by more than :data:`MARGIN` (a height polygon must be covered by it)."""
    return all(MARGIN < x < width - MARGIN and MARGIN < y < depth - MARGIN for x, y in points)


def _circle_inside(f: "TableFeature", width: float, depth: float) -> bool:
    x, y = f.points[0]
    r = f.radius_in or 0.0
    return x - r > MARGIN and y - r > MARGIN and x + r < width - MARGIN and y + r < depth - MARGIN


def _ford_on_line(f: "TableFeature", at: Sequence[float]) -> bool:
    """The ford is clearly within half the line's width (plus the 0.05" the exact check allows) of its line."""
    limit = (f.width_in or 0) / 2 + 0.05
    p = (float(at[0]), float(at[1]))
    pts = [(float(x), float(y)) for x, y in f.points]
    return min(_point_segment(p, a, b) for a, b in zip(pts, pts[1:])) < limit - MARGIN


def _point_segment(p: Pt, a: Pt, b: Pt) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _length(points: Sequence[Sequence[float]]) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(points, points[1:]))


def _ring(points: Sequence[Sequence[float]]) -> list[Pt]:
    """The ring's distinct corners (a closing point equal to the first one dropped)."""
    ring = [(float(x), float(y)) for x, y in points]
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring.pop()
    return ring


def _cross(o: Pt, a: Pt, b: Pt) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _simple_polygon(ring: list[Pt]) -> bool:
    """A ring of at least 3 distinct corners, area clearly above zero, no corner on a straight line or doubling
    back, and no two non-adjacent edges meeting or nearly meeting (so a valid polygon for GEOS)."""
    n = len(ring)
    if n < 3 or n > MAX_POINTS or len(set(ring)) != n:
        return False
    area2 = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(ring, ring[1:] + ring[:1]))
    if abs(area2) <= MARGIN:
        return False
    for i in range(n):
        if abs(_cross(ring[i - 1], ring[i], ring[(i + 1) % n])) <= MARGIN:
            return False  # a straight or reversed corner: left to the exact check
    edges = [(ring[i], ring[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue  # adjacent through the closing corner
            if not _apart(*edges[i], *edges[j]):
                return False
    return True


def _apart(a: Pt, b: Pt, c: Pt, d: Pt) -> bool:
    """Whether segments ab and cd clearly do not meet: their boxes are apart, or one lies strictly on one side
    of the other's line, by more than :data:`MARGIN`."""
    if (max(a[0], b[0]) + MARGIN < min(c[0], d[0]) or max(c[0], d[0]) + MARGIN < min(a[0], b[0])
            or max(a[1], b[1]) + MARGIN < min(c[1], d[1]) or max(c[1], d[1]) + MARGIN < min(a[1], b[1])):
        return True
    c1, c2 = _cross(a, b, c), _cross(a, b, d)
    if (c1 > MARGIN and c2 > MARGIN) or (c1 < -MARGIN and c2 < -MARGIN):
        return True
    c3, c4 = _cross(c, d, a), _cross(c, d, b)
    return (c3 > MARGIN and c4 > MARGIN) or (c3 < -MARGIN and c4 < -MARGIN)


def _feature_box(f: "TableFeature") -> Box:
    """The bounding box of the feature's shape as the exact checks build it (a polyline buffered to half its
    width, a point or circle to its radius)."""
    xs = [p[0] for p in f.points]
    ys = [p[1] for p in f.points]
    grow = 0.0
    if f.shape == "polyline":
        grow = (f.width_in or 0.0) / 2
    elif f.shape in ("point", "circle"):
        xs, ys = xs[:1], ys[:1]
        grow = f.radius_in or 0.125
    return min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow


def _no_incompatible_overlap(boxes: list[tuple[Box, "TableFeature"]]) -> bool:
    """No structure's box meets (within :data:`MARGIN`) another structure's or a water feature's box. Quadratic
    only in the structures and water features, which the exact check would test anyway."""
    from .table import _incompatible

    marked = [(box, f) for box, f in boxes if f.is_structure or f.is_water]
    for i, (a, fa) in enumerate(marked):
        for b, fb in marked[i + 1:]:
            if _incompatible(fa, fb) and not (a[2] + MARGIN < b[0] or b[2] + MARGIN < a[0]
                                              or a[3] + MARGIN < b[1] or b[3] + MARGIN < a[1]):
                if not _shapes_apart(fa, fb):
                    return False
    return True


def _core(f: "TableFeature") -> tuple[list[Pt], float, bool]:
    """``(points, radius, area)``: the shape is within ``radius`` of the points' line (of the polygon they ring
    when ``area``): a polygon itself, a polyline and its half width (a flat-capped buffer lies inside), a point or
    circle and its radius (the buffered polygon lies inside the circle)."""
    pts = [(float(x), float(y)) for x, y in f.points]
    if f.shape == "polygon":
        return _ring(pts), 0.0, True
    if f.shape == "polyline":
        return pts, (f.width_in or 0.0) / 2, False
    return pts[:1], f.radius_in or 0.125, False


def _segments(points: list[Pt], closed: bool) -> list[tuple[Pt, Pt]]:
    if len(points) == 1:
        return [(points[0], points[0])]
    out = list(zip(points, points[1:]))
    return out + [(points[-1], points[0])] if closed else out


def _shapes_apart(fa: "TableFeature", fb: "TableFeature") -> bool:
    """Whether the two features' shapes clearly do not meet: no point of one inside the other's polygon, and
    their lines farther apart than the sum of their radii (by more than :data:`MARGIN`)."""
    pa, ra, area_a = _core(fa)
    pb, rb, area_b = _core(fb)
    if len(pa) > MAX_POINTS or len(pb) > MAX_POINTS:
        return False
    if (area_b and any(_in_ring(p, pb) for p in pa)) or (area_a and any(_in_ring(p, pa) for p in pb)):
        return False
    gap = ra + rb + MARGIN
    for a, b in _segments(pa, area_a):
        for c, d in _segments(pb, area_b):
            if not _apart(a, b, c, d):
                return False
            if min(_point_segment(a, c, d), _point_segment(b, c, d), _point_segment(c, a, b),
                   _point_segment(d, a, b)) <= gap:
                return False
    return True


def _in_ring(p: Pt, ring: list[Pt]) -> bool:
    """Even-odd test of ``p`` against the polygon ``ring`` (a point on an edge may answer either way; the callers
    also test the edges' distance, which is then zero)."""
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        if (y1 > p[1]) != (y2 > p[1]) and p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def clearly_outside(point: Sequence[float], f: "TableFeature") -> bool:
    """Whether ``point`` is clearly outside the feature's shape (not in its polygon, and farther than its radius,
    by more than :data:`MARGIN`, from its line): its exact shape cannot cover the point."""
    pts, radius, area = _core(f)
    p = (float(point[0]), float(point[1]))
    if len(pts) > MAX_POINTS or (area and (len(pts) < 3 or _in_ring(p, pts))):
        return False
    return min(_point_segment(p, a, b) for a, b in _segments(pts, area)) > radius + MARGIN
