"""Numeric tests of the measured-table geometry (studio.geometry): distances, LOS, depth, paths, radius,
exposure, elevation. Every expected figure is worked by hand in the comment beside it."""
from __future__ import annotations

import math

import pytest
import shapely

from studio.geometry import Area, HeightArea, TableGeometry, bearing, footprint, relative_bearing

WOOD = Area("wood", "woods", shapely.box(10, 10, 14, 14), height=1.0, blocks=True)
HOUSE = Area("house", "building", shapely.box(20, 0, 22, 2), height=1.0, cover=4, blocks=True, solid=True)
FIELD = Area("field", "rough", shapely.box(0, 20, 30, 30))
MINES = Area("mines", "minefield", shapely.box(40, 0, 41, 10), hidden_from=frozenset({"red"}))
RIDGE = HeightArea("ridge", 1.0, shapely.box(30, 0, 40, 48))
CREST = HeightArea("crest", 2.0, shapely.box(33, 0, 37, 48))


@pytest.fixture(scope="module")
def geo() -> TableGeometry:
    return TableGeometry(72, 48, [WOOD, HOUSE, FIELD, MINES], [RIDGE, CREST])


def test_distance_edge_and_centre():
    a, b = footprint(0, 0, 0, 1, 2), footprint(5, 0, 0, 1, 2)
    assert TableGeometry.distance(a, b) == pytest.approx(4.0)           # 5 - 0.5 - 0.5
    assert TableGeometry.distance(a, b, "centre") == pytest.approx(5.0)
    assert TableGeometry.distance(a, footprint(0.5, 0, 0, 1, 2)) == 0.0  # overlapping bases
    with pytest.raises(ValueError):
        TableGeometry.distance(a, b, "corner")


def test_footprint_follows_facing():
    east = footprint(0, 0, 90, 1, 3)       # 3" long toward the east
    minx, miny, maxx, maxy = east.bounds
    assert (maxx - minx, maxy - miny) == (pytest.approx(3.0), pytest.approx(1.0))
    assert bearing(0, 0, 1, 0) == pytest.approx(90.0) and bearing(0, 0, 0, -1) == pytest.approx(180.0)
    assert relative_bearing(350, 10) == pytest.approx(20.0) and relative_bearing(0, 180) == pytest.approx(180.0)


def test_los_lists_every_area_with_length_and_faces(geo):
    r = geo.los(0, 12, 60, 12, eye=0.3, target=0.3)
    ids = [c.area.id for c in r.crossings]
    assert ids == ["wood"]                                     # the house (y 0-2) and field (y 20-30) are missed
    c = r.crossings[0]
    assert (c.length, c.enter, c.exit, c.faces) == (pytest.approx(4.0), pytest.approx(10), pytest.approx(14), 2)
    assert c.blocking and not r.clear                          # 0.3" eye below the 1" wood
    assert r.ground_block == pytest.approx(30.0)               # ridge (level 1) starts 30" away


def test_los_diagonal_length_inside(geo):
    r = geo.los(8, 8, 16, 16, eye=5, target=5)                 # through the wood's diagonal
    c = r.crossings[0]
    assert c.length == pytest.approx(4 * math.sqrt(2))
    assert not c.blocking and r.clear                          # 5" eyes see over a 1" wood
    assert r.length_in("woods") == pytest.approx(4 * math.sqrt(2))


def test_los_from_inside_an_area_is_not_blocked_by_it(geo):
    r = geo.los(11, 12, 11, 5, eye=0.1, target=0.1)
    c = r.crossings[0]
    assert c.at_observer and not c.blocking and c.faces == 1 and c.length == pytest.approx(2.0)
    assert r.clear


def test_hidden_area_left_out_for_that_side(geo):
    assert [c.area.id for c in geo.los(38, 5, 45, 5, 5, 5).crossings] == ["mines"]
    assert geo.los(38, 5, 45, 5, 5, 5, side="red").crossings == ()


def test_ground_levels_and_crest(geo):
    assert geo.ground_at(5, 5) == 0.0 and geo.ground_at(31, 5) == 1.0 and geo.ground_at(35, 5) == 2.0
    # both on the lower step of the ridge (level 1), eyes 0.5" above it: the crest (2) is in between
    assert geo.los(31, 20, 39, 20, 0.5, 0.5).ground_block == pytest.approx(2.0)
    # from the crest itself, looking down the far slope: clear
    assert geo.los(35, 20, 45, 20, 0.5, 0.5).ground_block is None


def test_depth_inside_and_along(geo):
    assert geo.depth_inside(11, 12, WOOD) == pytest.approx(1.0)
    assert geo.depth_inside(12, 12, WOOD) == pytest.approx(2.0)
    assert geo.depth_inside(5, 5, WOOD) == 0.0
    assert geo.depth_along(11, 12, 30, 12, WOOD) == pytest.approx(3.0)   # leaves at x = 14
    assert geo.depth_along(5, 5, 30, 12, WOOD) == 0.0


def test_path_lengths_through_features(geo):
    got = {a.id: l for a, l in geo.path_lengths([(0, 12), (20, 12), (20, 25)])}
    assert got == {"wood": pytest.approx(4.0), "field": pytest.approx(5.0)}
    assert geo.path_lengths([(0, 12), (20, 12)], kinds=["rough"]) == []


def test_radius_queries(geo):
    near = geo.areas_within(shapely.Point(16, 12), 2.5)
    assert [(a.id, round(d, 6)) for a, d in near] == [("wood", 2.0)]
    assert [a.id for a, _ in geo.areas_within(shapely.Point(16, 12), 12)] == ["wood", "field", "house"]  # 2, 8, sqrt(4²+10²)
    assert geo.areas_within(shapely.Point(16, 12), 12, kinds=["building"])[0][0].id == "house"
    assert [a.id for a in geo.areas_at(12, 12)] == ["wood"]


def test_exposure_fraction(geo):
    assert geo.exposure(0, 12, 0.2, footprint(5, 12, 0, 1, 1), 0.2) == 1.0    # nothing between
    assert geo.exposure(0, 12, 0.2, footprint(16, 12, 0, 1, 1), 0.2) == 0.0   # wholly behind the wood
    # half the base pokes out above the wood's shadow: base y 13.5..15.5 seen from (0, 14) behind a wood whose
    # top edge is y = 14 -> the shadow's top edge runs along y = 14 exactly, so 1.5" of the 2" height is seen
    g = TableGeometry(72, 48, [WOOD])
    assert g.exposure(0, 14, 0.2, footprint(16, 14.5, 0, 2, 2), 0.2) == pytest.approx(0.75)
    assert g.exposure(0, 14, 5.0, footprint(16, 14.5, 0, 2, 2), 0.2) == 1.0   # seen from above the wood


def test_empty_table():
    g = TableGeometry(72, 48)
    r = g.los(0, 0, 72, 48)
    assert r.clear and r.crossings == () and r.length == pytest.approx(math.hypot(72, 48))
    assert g.ground_at(1, 1) == 0.0 and g.path_lengths([(0, 0), (1, 1)]) == []
