"""Qt-free logic of the table editor: snapping, lengths in inches or metric, feature stamps, the edit operations
each gesture applies (one ``EditableDocument.apply`` per gesture, so one undo step), and the LOS readout rows.

Table coordinates are inches from the near-left corner (y away from the near edge).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from studio.document.ops import Insert, Set

MM_PER_IN = 25.4
SNAPS = {"1/4\"": 0.25, "1/8\"": 0.125, "free": 0.0}


@dataclass(frozen=True)
class Stamp:
    """A linear feature of a fixed width (the rules' dimensions: trench 1/4" or 1/2", oil slick 1/2", minefield
    strip 1", BfOps p.9-10) or a drawn area type."""

    name: str
    terrain: str
    shape: str            # polygon | polyline | circle | point
    width_in: float | None = None
    radius_in: float | None = None
    extra: tuple[tuple[str, Any], ...] = ()


STAMPS: tuple[Stamp, ...] = (
    Stamp("Woods", "woods", "polygon", extra=(("height_in", 0.6),)),
    Stamp("Building (stone)", "building", "polygon", extra=(("height_in", 0.5), ("construction", "stone"), ("cover", 4))),
    Stamp("Rough ground", "rough", "polygon", extra=(("ground", "rough"),)),
    Stamp("Extreme ground", "extreme", "polygon", extra=(("ground", "extreme"),)),
    Stamp("Camouflage 1\"", "camouflage", "polygon"),
    Stamp("Trench 1/4\"", "trench", "polyline", 0.25),
    Stamp("Trench 1/2\"", "trench", "polyline", 0.5),
    Stamp("Wall", "wall", "polyline", 0.15, extra=(("height_in", 0.15), ("construction", "stone"), ("cover", 4))),
    Stamp("Barbed wire", "wire", "polyline", 0.1),
    Stamp("Fencing", "fencing", "polyline", 0.1, extra=(("height_in", 0.1),)),
    Stamp("Road", "road", "polyline", 0.75),
    Stamp("Stream", "stream", "polyline", 1.0, extra=(("depth_in", 1.0),)),
    Stamp("Oil slick 1/2\"", "oil_slick", "polyline", 0.5),
    Stamp("Minefield strip 1\"", "minefield", "polyline", 1.0, extra=(("attributes", {"density": "low", "mine_type": "AT"}),)),
    Stamp("Foxhole", "foxhole", "circle", radius_in=0.25),
)


def snap(value: float, step: float) -> float:
    """``value`` on the snap grid (``step`` 0 = free), rounded to 1/1000 inch so files stay compact."""
    if step > 0:
        value = round(value / step) * step
    return round(value, 3)


def snap_point(x: float, y: float, step: float, width: float, depth: float) -> tuple[float, float]:
    """A snapped point kept on the table."""
    return (min(max(snap(x, step), 0.0), width), min(max(snap(y, step), 0.0), depth))


def fmt_length(inches: float, metric: bool) -> str:
    return f"{inches * MM_PER_IN / 10:.1f} cm" if metric else f'{inches:.2f}"'


def distance(a, b) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def new_id(existing: set[str], prefix: str) -> str:
    n = 1
    while f"{prefix}-{n}" in existing:
        n += 1
    return f"{prefix}-{n}"


def feature_ids(data: dict) -> set[str]:
    table = data.get("table") or {}
    return {f.get("id") for f in table.get("features", []) + table.get("elevations", []) if isinstance(f, dict)}


def add_feature_op(data: dict, stamp: Stamp, points: list[tuple[float, float]]) -> Insert:
    """The feature a stamp draws through ``points`` (polygon ring, polyline, or a circle's centre)."""
    feature: dict[str, Any] = {"id": new_id(feature_ids(data), stamp.terrain.replace("_", "-")),
                               "terrain": stamp.terrain, "shape": stamp.shape,
                               "points": [[x, y] for x, y in points]}
    if stamp.width_in is not None:
        feature["width_in"] = stamp.width_in
    if stamp.radius_in is not None:
        feature["radius_in"] = stamp.radius_in
    for key, value in stamp.extra:
        feature[key] = value
    return Insert("/table/features/-", feature)


def move_vertex_op(index: int, k: int, point: tuple[float, float]) -> Set:
    return Set(f"/table/features/{index}/points/{k}", [point[0], point[1]])


def move_feature_ops(feature: dict, index: int, dx: float, dy: float, step: float) -> list[Set]:
    pts = [[snap(x + dx, step), snap(y + dy, step)] for x, y in feature.get("points", [])]
    return [Set(f"/table/features/{index}/points", pts)]


def add_ford_op(feature: dict, index: int, at: tuple[float, float], depth_in: float, width_in: float = 1.0):
    """A ford at the point of the feature's line nearest ``at`` (None when the line has fewer than 2 points)."""
    import shapely

    pts = [tuple(p) for p in feature.get("points", []) if len(p) == 2]
    if len(pts) < 2:
        return None
    line = shapely.linestrings(pts)
    p = shapely.line_interpolate_point(line, shapely.line_locate_point(line, shapely.points(at)))
    ford = {"at": [round(p.x, 3), round(p.y, 3)], "depth_in": round(depth_in, 3), "width_in": width_in}
    if not isinstance(feature.get("fords"), list):
        return Set(f"/table/features/{index}/fords", [ford])
    return Insert(f"/table/features/{index}/fords/-", ford)


def place_unit_op(units: list, card: str, side: str, x: float, y: float, facing: float) -> Insert:
    ids = {u.get("id") for u in units if isinstance(u, dict)}
    return Insert("/units/-", {"id": new_id(ids, "u"), "card": card, "side": side, "x": x, "y": y,
                               "facing": round(facing % 360.0, 1), "status": {}})


def move_unit_ops(index: int, x: float, y: float) -> list[Set]:
    return [Set(f"/units/{index}/x", x), Set(f"/units/{index}/y", y)]


def rotate_unit_op(index: int, unit: dict, x: float, y: float, step_deg: float = 5.0) -> Set:
    """Face the unit toward (x, y), in steps of ``step_deg`` degrees (clockwise from north)."""
    ang = math.degrees(math.atan2(x - float(unit.get("x", 0)), y - float(unit.get("y", 0)))) % 360.0
    if step_deg > 0:
        ang = (round(ang / step_deg) * step_deg) % 360.0
    return Set(f"/units/{index}/facing", round(ang, 1))


def los_rows(los, metric: bool) -> list[tuple[str, str]]:
    """Readout of a :class:`studio.geometry.LosResult`: one row per obstacle crossed (in order), then the
    verdict. Each row: the feature, its kind, the length inside, the faces passed and its cover."""
    rows = [("Range", fmt_length(los.length, metric))]
    for c in los.crossings:
        f = c.area.data.get("feature")
        name = (getattr(f, "name", "") or c.area.id) if f is not None else c.area.id
        where = "firer inside" if c.at_observer else ("target inside" if c.at_target else
                                                      f"{c.faces} face(s)")
        cover = f", cover {c.area.cover:g}" if c.area.cover else ""
        block = ", BLOCKS" if c.blocking else ""
        rows.append((name, f"{c.area.kind}: {fmt_length(c.length, metric)} inside, {where}{cover}{block}"))
    if los.ground_block is not None:
        rows.append(("Ground", f"the ground rises above the line {fmt_length(los.ground_block, metric)} out"))
    rows.append(("Verdict", "clear" if los.clear else "blocked"))
    return rows
