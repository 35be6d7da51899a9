import math

from hypothesis import given, strategies as st

from studio.hexgrid.coords import neighbour
from studio.hexgrid.layout import Layout

coord = st.integers(min_value=-50, max_value=50)
hexes = st.tuples(coord, coord)
layouts = st.builds(
    Layout,
    flat=st.booleans(),
    size_mm=st.floats(min_value=5.0, max_value=40.0),
    origin=st.tuples(st.floats(-100, 100), st.floats(-100, 100)),
)


@given(layouts, hexes)
def test_hex_mm_hex_round_trip(lay, h):
    assert lay.from_mm(*lay.to_mm(h)) == h


@given(layouts, hexes, st.floats(0, 0.49), st.floats(0, 2 * math.pi))
def test_points_inside_inscribed_circle_pick_the_hex(lay, h, frac, ang):
    x, y = lay.to_mm(h)
    rad = frac * lay.size_mm  # inscribed radius is size/2
    assert lay.from_mm(x + rad * math.cos(ang), y + rad * math.sin(ang)) == h


@given(layouts, hexes, st.integers(0, 5))
def test_neighbour_centres_are_one_width_apart(lay, h, d):
    (x1, y1), (x2, y2) = lay.to_mm(h), lay.to_mm(neighbour(h, d))
    assert math.isclose(math.hypot(x2 - x1, y2 - y1), lay.size_mm, rel_tol=1e-9)


@given(layouts, hexes, st.integers(0, 5))
def test_hexside_i_runs_between_corners_i_and_i_plus_1(lay, h, d):
    cs = lay.corners(h)
    cx, cy = lay.to_mm(h)
    assert all(math.isclose(math.hypot(x - cx, y - cy), lay.radius, rel_tol=1e-9) for x, y in cs)
    mx, my = lay.hexside_midpoint(h, d)
    (ax, ay), (bx, by) = cs[d], cs[(d + 1) % 6]
    assert math.isclose(mx, (ax + bx) / 2, abs_tol=1e-9) and math.isclose(my, (ay + by) / 2, abs_tol=1e-9)


def test_flat_top_direction_0_is_north_and_pointy_direction_2_is_east():
    flat, pointy = Layout(True, 10.0), Layout(False, 10.0)
    x, y = flat.to_mm(neighbour((0, 0), 0))
    assert math.isclose(x, 0.0, abs_tol=1e-12) and y < 0
    x, y = pointy.to_mm(neighbour((0, 0), 2))
    assert x > 0 and math.isclose(y, 0.0, abs_tol=1e-12)
