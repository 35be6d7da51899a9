from hypothesis import given, strategies as st

from studio.hexgrid.coords import (
    DIRECTIONS, axial_to_offset, distance, neighbours, offset_to_axial, ring, rotate_180,
    rotated_offset_kind, within, to_cube, from_cube,
)

coord = st.integers(min_value=-40, max_value=40)
hexes = st.tuples(coord, coord)
kinds = st.sampled_from(["odd-q", "even-q", "odd-r", "even-r"])


@given(hexes, hexes)
def test_distance_symmetric_and_zero(a, b):
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_triangle_inequality(a, b, c):
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_neighbours_at_distance_one(h):
    ns = neighbours(h)
    assert len(set(ns)) == 6 and all(distance(h, n) == 1 for n in ns)


@given(hexes)
def test_cube_round_trip(h):
    assert from_cube(to_cube(h)) == h


@given(st.integers(-60, 60), st.integers(-60, 60), kinds)
def test_offset_axial_round_trip(col, row, kind):
    assert axial_to_offset(offset_to_axial(col, row, kind), kind) == (col, row)


@given(kinds, st.integers(0, 30), st.integers(0, 30))
def test_offset_neighbours_are_hex_neighbours(kind, col, row):
    # vertical (flat) or horizontal (pointy) offset neighbours are always adjacent
    step = (0, 1) if kind.endswith("q") else (1, 0)
    a = offset_to_axial(col, row, kind)
    b = offset_to_axial(col + step[0], row + step[1], kind)
    assert distance(a, b) == 1


@given(hexes, st.integers(0, 6))
def test_ring_and_within(center, radius):
    rg = ring(center, radius)
    assert len(rg) == (6 * radius if radius else 1)
    assert all(distance(center, h) == radius for h in rg)
    assert all(distance(rg[i], rg[(i + 1) % len(rg)]) <= 1 for i in range(len(rg)))
    w = within(center, radius)
    assert len(w) == 3 * radius * (radius + 1) + 1 == len(set(w))
    assert all(distance(center, h) <= radius for h in w)


@given(kinds, st.integers(1, 14), st.integers(1, 14))
def test_rotate_180_maps_board_onto_turned_board(kind, cols, rows):
    board = [offset_to_axial(c, r, kind) for c in range(cols) for r in range(rows)]
    turned_kind = rotated_offset_kind(kind, cols, rows)
    turned = {rotate_180(h, cols, rows, kind) for h in board}
    assert turned == {offset_to_axial(c, r, turned_kind) for c in range(cols) for r in range(rows)}
    # it is a rigid 180-degree turn: distances and direction reversal are preserved
    for a, b in zip(board, board[1:]):
        ra, rb = rotate_180(a, cols, rows, kind), rotate_180(b, cols, rows, kind)
        assert distance(ra, rb) == distance(a, b)
        if distance(a, b) == 1:
            d = DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))
            assert DIRECTIONS.index((rb[0] - ra[0], rb[1] - ra[1])) == (d + 3) % 6
    for h in board:
        assert rotate_180(rotate_180(h, cols, rows, kind), cols, rows, turned_kind) == h


def test_M9_adjacent_range_is_1():
    # MBT 3.5.1: count the target hex, not the firer's hex
    assert all(distance((3, 4), n) == 1 for n in neighbours((3, 4)))


def test_M10_max_range_33():
    # MBT 3.5.2: T-80BV APFSDS E=33: a target 33 hexes away may be engaged, 34 may not
    firer = offset_to_axial(0, 0, "odd-q")
    assert distance(firer, offset_to_axial(0, 33, "odd-q")) == 33
    assert distance(firer, offset_to_axial(0, 34, "odd-q")) == 34 > 33


def test_W3_range_counting_double_range():
    # WaW 1.2.1/6.1.1: range 8 -> legal 1..16 hexes; counted like MBT 3.5.1
    firer = (0, 0)
    legal = [h for h in within(firer, 20) if 1 <= distance(firer, h) <= 2 * 8]
    assert max(distance(firer, h) for h in legal) == 16
    assert len(legal) == 3 * 16 * 17


def test_M11_minimum_range_counts_like_range():
    # MBT 5.6: a min-5 mortar may not engage at range 4 but may at 5
    firer = offset_to_axial(3, 3, "odd-q")
    at4 = offset_to_axial(7, 3, "odd-q")
    at5 = offset_to_axial(8, 3, "odd-q")
    assert (distance(firer, at4), distance(firer, at5)) == (4, 5)


def test_W30_sniper_counts_target_hex_not_own_hex():
    # WaW 1.3.8: a target 3 hexes away is at range 3 (sniper hex not counted); adjacent is 1
    sniper = (2, 2)
    assert sum(1 for h in within(sniper, 3) if distance(sniper, h) == 3) == 18
    assert {distance(sniper, n) for n in neighbours(sniper)} == {1}
