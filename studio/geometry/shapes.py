"""Small shape helpers: unit footprints, bearings, segments (inches, degrees clockwise from north)."""
from __future__ import annotations

import math

import shapely
from shapely.geometry import LineString, Polygon


def footprint(x: float, y: float, facing_deg: float, width: float, length: float) -> Polygon:
    """The rectangle of a base ``width`` x ``length`` inches centred on (x, y), its length along the facing."""
    a = math.radians(facing_deg)
    fx, fy = math.sin(a), math.cos(a)          # forward unit vector
    rx, ry = fy, -fx                            # right unit vector
    hl, hw = length / 2.0, width / 2.0
    pts = [(x + fx * hl + rx * hw, y + fy * hl + ry * hw), (x + fx * hl - rx * hw, y + fy * hl - ry * hw),
           (x - fx * hl - rx * hw, y - fy * hl - ry * hw), (x - fx * hl + rx * hw, y - fy * hl + ry * hw)]
    return Polygon(pts)


def bearing(x0: float, y0: float, x1: float, y1: float) -> float:
    """Bearing in degrees [0, 360) clockwise from north of the point (x1, y1) seen from (x0, y0)."""
    return math.degrees(math.atan2(x1 - x0, y1 - y0)) % 360.0


def relative_bearing(facing_deg: float, bearing_deg: float) -> float:
    """Angle in [0, 180] between a facing and a bearing (0 = dead ahead, 180 = dead astern)."""
    d = abs((bearing_deg - facing_deg) % 360.0)
    return 360.0 - d if d > 180.0 else d


def segment(x0: float, y0: float, x1: float, y1: float) -> LineString:
    """A straight segment; a zero-length one is nudged so Shapely keeps it a valid line."""
    if x0 == x1 and y0 == y1:
        x1 += 1e-9
    return shapely.linestrings([(x0, y0), (x1, y1)])
