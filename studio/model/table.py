"""Measured tables (miniatures, in inches): the table model, its geometry bridge and its static checks.

A ``map`` document with ``table:`` is a rectangle ``width_in`` x ``depth_in`` (x to the right, y away from the
near edge, origin at the near-left corner). Features are compact: one flow-style line each in YAML,
``points`` as ``[x, y]`` pairs. Shapes:

- ``polygon``: an area (woods, building footprint, water, ground type, camouflage); ``points`` is its ring.
- ``polyline``: a linear feature of ``width_in`` (trench, wall, wire, road, stream, oil slick, minefield strip),
  optionally with ``fords`` (shallow crossings at a point of the line).
- ``point``: a marker (foxhole, objective, sandbags); ``circle``: a point with ``radius_in``.

Heights are inches above the ground the feature stands on; ground levels come from ``elevations`` (height
polygons or closed contours, the highest containing one giving a point's level). ``hidden_from`` lists the side
ids that may not know a feature (minefields, camouflage); the scenario's sides give those ids meaning.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Iterator, Literal

from pydantic import Field, model_validator

from .base import Id, Ref, StrictModel
from .table_screen import certainly_plain

if TYPE_CHECKING:  # pragma: no cover
    from studio.geometry import TableGeometry

    from .diagnostics import Diagnostic
    from .project import LoadedDocument, ProjectIndex

Point2 = Annotated[list[float], Field(min_length=2, max_length=2, description="[x, y] in inches")]
Attr = str | int | float | bool


class Ford(StrictModel):
    """A shallow crossing of a linear water feature at a point of its line."""

    at: Point2
    depth_in: float = Field(ge=0, description="exact water depth at the ford (inches)")
    width_in: float = Field(1.0, gt=0, description="length of the line the ford covers (inches)")


class TableFeature(StrictModel):
    """A feature of a measured table, in inches. ``terrain`` is a terrain id of the map's ruleset."""

    id: Id
    terrain: Ref
    shape: Literal["polygon", "polyline", "point", "circle"]
    points: Annotated[list[Point2], Field(min_length=1)]
    name: str = ""
    width_in: float | None = Field(None, gt=0, description="width of a polyline (inches)")
    radius_in: float | None = Field(None, gt=0, description="radius of a circle (inches)")
    height_in: float | None = Field(None, ge=0, description="height above its ground (inches), for line of sight")
    construction: str = Field("", description="building/wall material (stone, brick, wood ...): a structure")
    cover: int | None = Field(None, ge=0, description="cover value, overriding the terrain's")
    depth_in: float | None = Field(None, ge=0, description="exact water depth (inches)")
    ground: Literal["", "normal", "rough", "extreme"] = ""
    fords: list[Ford] = Field(default_factory=list)
    hidden_from: list[Ref] = Field(default_factory=list, description="side ids that may not know this feature")
    attributes: dict[str, Attr] = Field(default_factory=dict, description="ruleset-specific values")

    @property
    def is_structure(self) -> bool:
        return bool(self.construction)

    @property
    def is_water(self) -> bool:
        return self.depth_in is not None


class HeightPolygon(StrictModel):
    """A height polygon, or the polygon a closed contour line encloses, at ``level_in`` above the table top."""

    id: Id
    level_in: float = Field(ge=0)
    points: Annotated[list[Point2], Field(min_length=3)]
    name: str = ""


class MeasuredTable(StrictModel):
    """A miniatures table: size in inches, features, elevations."""

    width_in: float = Field(gt=0, le=2000)
    depth_in: float = Field(gt=0, le=2000)
    snap_in: float = Field(0.25, ge=0, description="editor snap grid (0 = free)")
    features: list[TableFeature] = Field(default_factory=list)
    elevations: list[HeightPolygon] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique_ids(self):
        seen: set[str] = set()
        for f in [*self.features, *self.elevations]:
            if f.id in seen:
                raise ValueError(f"feature id '{f.id}' is used twice on this table")
            seen.add(f.id)
        return self

    def feature(self, feature_id: str) -> TableFeature:
        for f in self.features:
            if f.id == feature_id:
                return f
        raise KeyError(feature_id)


# ------------------------------------------------------------------ geometry bridge

def feature_geometry(f: TableFeature):
    """The Shapely shape of a feature: polygon as is, polyline buffered to its width (flat ends), point or
    circle buffered to its radius (a bare point to 1/8"). None when the points do not make the shape."""
    import shapely

    pts = [tuple(p) for p in f.points]
    if f.shape == "polygon":
        return shapely.polygons(pts) if len(pts) >= 3 else None
    if f.shape == "polyline":
        if len(pts) < 2:
            return None
        return shapely.buffer(shapely.linestrings(pts), (f.width_in or 0.0) / 2.0 or 1e-6, cap_style="flat")
    return shapely.buffer(shapely.points(pts[0]), f.radius_in or 0.125, quad_segs=16)


def table_geometry(table: MeasuredTable, terrain: dict | None = None) -> "TableGeometry":
    """A :class:`studio.geometry.TableGeometry` of the table. ``terrain`` maps a terrain id to
    ``{"blocks": bool, "height_in": float, "cover": float, "solid": bool}`` defaults (a ruleset's reading of its
    catalogue); a feature's own ``height_in``/``cover`` win. Invalid shapes are left out (the checks report them)."""
    from studio.geometry import Area, HeightArea

    import shapely

    terrain = terrain or {}
    areas = []
    for f in table.features:
        geom = feature_geometry(f)
        if geom is None or not geom.is_valid or geom.is_empty:
            continue
        t = terrain.get(f.terrain, {})
        height = f.height_in if f.height_in is not None else float(t.get("height_in", 0.0))
        cover = f.cover if f.cover is not None else float(t.get("cover", 0.0))
        areas.append(Area(f.id, f.terrain, geom, height=height, cover=cover, blocks=bool(t.get("blocks", False)),
                          solid=bool(t.get("solid", f.is_structure)), hidden_from=frozenset(f.hidden_from),
                          data={"feature": f}))
    heights = []
    for h in table.elevations:
        poly = shapely.polygons([tuple(p) for p in h.points])
        if poly.is_valid:
            heights.append(HeightArea(h.id, h.level_in, poly))
    from studio.geometry import TableGeometry

    return TableGeometry(table.width_in, table.depth_in, areas, heights)


# ------------------------------------------------------------------ static checks

def check_table(doc: "LoadedDocument", index: "ProjectIndex") -> Iterator["Diagnostic"]:
    """Static checks of a measured table (``map`` documents with ``table``); nothing for hex boards.

    ``table.shape`` (too few points, self-intersecting polygon, polyline without width), ``table.off-table``,
    ``table.overlap`` (structures on structures or in water), ``table.unknown-terrain``,
    ``table.height-missing`` (a feature of a terrain that blocks sight, with no height), ``table.ford-off-line``,
    ``table.elevation-shape``."""
    table: MeasuredTable | None = getattr(doc.model, "table", None)
    if table is None:
        return
    rs = index.model("ruleset", doc.model.ruleset)
    terrain = {t.id: t for t in rs.terrain} if rs is not None else None
    if certainly_plain(table):  # nothing for the exact (Shapely) checks to find: only the terrain checks
        for i, f in enumerate(table.features):
            if terrain is not None:
                yield from _terrain_problems(doc, f, terrain, f"/table/features/{i}")
        return
    yield from _exact_checks(doc, table, terrain)


def _exact_checks(doc: "LoadedDocument", table: MeasuredTable, terrain: dict | None) -> Iterator["Diagnostic"]:
    """Every check of :func:`check_table` on the Shapely shapes of the features."""
    shapes = {}
    for i, f in enumerate(table.features):
        where = f"/table/features/{i}"
        geom, problems = _shape_problems(f)
        for pointer, msg in problems:
            yield doc.error("table.shape", f"feature '{f.id}': {msg}", where + pointer)
        if geom is not None:
            shapes[i] = geom
            yield from _bounds_problems(doc, table, f, geom, where)
            yield from _ford_problems(doc, f, where)
        if terrain is not None:
            yield from _terrain_problems(doc, f, terrain, where)
    yield from _overlaps(doc, table, shapes)
    yield from _elevation_problems(doc, table)


def _shape_problems(f: TableFeature):
    """(geometry or None, [(pointer suffix, message)])."""
    import shapely

    need = {"polygon": 3, "polyline": 2}.get(f.shape, 1)
    if len(f.points) < need:
        return None, [("/points", f"a {f.shape} needs at least {need} points, it has {len(f.points)}")]
    problems = []
    if f.shape == "polyline" and f.width_in is None:
        problems.append(("/width_in", "a polyline needs width_in (its width in inches)"))
    if f.shape == "circle" and f.radius_in is None:
        problems.append(("/radius_in", "a circle needs radius_in"))
    geom = feature_geometry(f)
    if f.shape == "polygon" and not geom.is_valid:
        reason = shapely.is_valid_reason(geom)
        return None, problems + [("/points", f"the polygon is not simple ({reason}); its edges must not cross")]
    if geom.is_empty or geom.area <= 0:
        return None, problems + [("/points", "the shape has no area (points repeated or in one line)")]
    return geom, problems


def _bounds_problems(doc, table: MeasuredTable, f: TableFeature, geom, where: str):
    import shapely

    board = shapely.box(0, 0, table.width_in, table.depth_in)
    outside = [k for k, (x, y) in enumerate(f.points)
               if not (-1e-9 <= x <= table.width_in + 1e-9 and -1e-9 <= y <= table.depth_in + 1e-9)]
    if outside:
        k = outside[0]
        yield doc.error("table.off-table", f"feature '{f.id}' point {k} {f.points[k]} is off the "
                        f"{table.width_in:g}\" x {table.depth_in:g}\" table", f"{where}/points/{k}")
    elif f.shape == "circle" and not board.covers(geom.buffer(-1e-6)):
        yield doc.warning("table.off-table", f"circle '{f.id}' reaches past the table edge", where)


def _ford_problems(doc, f: TableFeature, where: str):
    import shapely

    if not f.fords:
        return
    line = shapely.linestrings([tuple(p) for p in f.points]) if f.shape == "polyline" else None
    for k, ford in enumerate(f.fords):
        if line is None:
            yield doc.error("table.ford-off-line", f"feature '{f.id}' has a ford but is not a polyline",
                            f"{where}/fords/{k}")
        elif shapely.distance(line, shapely.points(ford.at)) > (f.width_in or 0) / 2 + 0.05:
            yield doc.error("table.ford-off-line", f"ford {k} of '{f.id}' at {ford.at} is not on the line",
                            f"{where}/fords/{k}/at")


def _terrain_problems(doc, f: TableFeature, terrain: dict, where: str):
    t = terrain.get(f.terrain)
    if t is None:
        from .references import suggest

        yield doc.error("table.unknown-terrain", f"feature '{f.id}': terrain '{f.terrain}' is not in the "
                        f"ruleset{suggest(f.terrain, sorted(terrain))}", f"{where}/terrain")
        return
    if t.los.blocks and f.height_in is None and not t.los.height:
        yield doc.warning("table.height-missing", f"feature '{f.id}' ({t.name}) blocks line of sight but has no "
                          "height_in, and its terrain gives none: sight over it cannot be judged", where)


def _overlaps(doc, table: MeasuredTable, shapes: dict):
    """Structures may not overlap other structures or stand in water."""
    import shapely

    idx = sorted(shapes)
    if len(idx) < 2:
        return
    geoms = [shapes[i] for i in idx]
    tree = shapely.STRtree(geoms)
    for a, b in zip(*tree.query(geoms, predicate="intersects")):
        if a >= b:
            continue
        fa, fb = table.features[idx[a]], table.features[idx[b]]
        if not _incompatible(fa, fb):
            continue
        if shapely.intersection(geoms[a], geoms[b]).area <= 1e-6:
            continue  # touching edges
        yield doc.error("table.overlap", f"features '{fa.id}' and '{fb.id}' overlap, and a "
                        f"{_role(fa)} cannot share ground with a {_role(fb)}", f"/table/features/{idx[b]}")


def _role(f: TableFeature) -> str:
    return "structure" if f.is_structure else ("water feature" if f.is_water else "feature")


def _incompatible(a: TableFeature, b: TableFeature) -> bool:
    return (a.is_structure and (b.is_structure or b.is_water)) or (b.is_structure and a.is_water)


def _elevation_problems(doc, table: MeasuredTable):
    import shapely

    for i, h in enumerate(table.elevations):
        poly = shapely.polygons([tuple(p) for p in h.points])
        if not poly.is_valid:
            yield doc.error("table.elevation-shape", f"height polygon '{h.id}' is not simple "
                            f"({shapely.is_valid_reason(poly)})", f"/table/elevations/{i}/points")
        elif not shapely.box(0, 0, table.width_in, table.depth_in).buffer(1e-6).covers(poly):
            yield doc.error("table.off-table", f"height polygon '{h.id}' reaches off the table",
                            f"/table/elevations/{i}/points")
