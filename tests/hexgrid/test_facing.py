import math

import pytest
from hypothesis import assume, given, strategies as st

from studio.hexgrid.coords import distance, neighbour, within
from studio.hexgrid.facing import (
    Aspect, bearing, direction_to, hit_angles, hit_aspect, in_arc, reverse, sector, turn, turn_cost,
)
from studio.hexgrid.layout import Layout

coord = st.integers(min_value=-25, max_value=25)
hexes = st.tuples(coord, coord)
facings = st.integers(0, 5)
FLAT = Layout(True, 1.0)


def true_angle(a, b):
    """Clockwise degrees from direction 0 (north on a flat-top map)."""
    (ax, ay), (bx, by) = FLAT.to_mm(a), FLAT.to_mm(b)
    return math.degrees(math.atan2(bx - ax, -(by - ay))) % 360.0


def rel(a, f, b):
    d = (true_angle(a, b) - 60.0 * f) % 360.0
    return d - 360.0 if d > 180.0 else d


@given(hexes, hexes)
def test_sector_matches_true_geometry(a, b):
    assume(a != b)
    ang = true_angle(a, b) / 60.0
    secs = sector(a, b)
    if abs(ang - math.floor(ang) - 0.5) < 1e-9:
        assert len(secs) == 2 and secs[1] == (secs[0] + 1) % 6
        assert secs[1] == int(math.floor(ang) + 1) % 6
    else:
        assert secs == (round(ang) % 6,)
    assert direction_to(a, b) == secs[0]


@given(hexes, hexes)
def test_bearing_is_exact_on_whole_and_half_units(a, b):
    assume(a != b)
    ang = true_angle(a, b) / 60.0
    bq = bearing(a, b)
    if abs(ang * 2 - round(ang * 2)) < 1e-9:
        assert math.isclose(bq, round(ang * 2) / 2 % 6, abs_tol=1e-12)


@given(hexes, facings, hexes, st.sampled_from([60, 120, 180, 360]), st.booleans())
def test_in_arc_matches_true_geometry(a, f, b, arc, rear):
    assume(a != b)
    off = abs(rel(a, (f + 3) % 6 if rear else f, b))
    inside = in_arc(a, f, b, arc, rear)
    if abs(off - arc / 2) > 1e-7:
        assert inside == (off < arc / 2)
    else:
        assert inside  # on the boundary: the hex is bisected (MBT 4.4.3.1.4, Q15)


@given(facings, facings)
def test_turn_cost(f1, f2):
    c = turn_cost(f1, f2)
    assert 0 <= c <= 3 and c == turn_cost(f2, f1)
    assert turn(f1, c) == f2 or turn(f1, -c) == f2


@given(hexes, facings, hexes)
def test_aspect_front_rear_partition(t, f, firer):
    assume(t != firer)
    asp = hit_aspect(t, f, firer)
    off = abs(rel(t, f, firer))
    if abs(off - 90) < 1e-7:
        assert asp is Aspect.OWNER_CHOOSES
    else:
        assert asp is (Aspect.FRONT if off < 90 else Aspect.REAR)
    # turning the target round swaps the aspect
    flipped = hit_aspect(t, reverse(f), firer)
    assert {asp, flipped} in ({Aspect.FRONT, Aspect.REAR}, {Aspect.OWNER_CHOOSES})


def test_arc_sizes_within_range_5():
    area = [h for h in within((0, 0), 5) if h != (0, 0)]
    counts = {arc: sum(in_arc((0, 0), 0, h, arc) for h in area) for arc in (60, 120, 180, 360)}
    # at range k: 60 -> 1 + 2*(k//2) (spine boundary hexes are bisected, so inside),
    # 120 -> 1 + 2k (boundary rows of hex centres), 180 -> 1 + 2k + 2*(k//2)
    ks = range(1, 6)
    assert counts == {
        60: sum(1 + 2 * (k // 2) for k in ks),
        120: sum(1 + 2 * k for k in ks),
        180: sum(1 + 2 * k + 2 * (k // 2) for k in ks),
        360: 90,
    } == {60: 17, 120: 35, 180: 47, 360: 90}


def test_M89_front_120_overwatch_arc():
    # MBT 4.4.3.2.2: a TT120 (front) vehicle facing north fires OW at a target inside its
    # front 120 degrees (-1); a target outside it is not allowed for a non-turreted vehicle
    firer, facing = (0, 0), 0
    assert in_arc(firer, facing, (0, -6), 120)
    assert in_arc(firer, facing, (3, -3), 120)  # on the boundary row of hex centres
    assert not in_arc(firer, facing, (3, 0), 120)
    assert in_arc(firer, facing, (0, 4), 120, rear=True)


def test_M91_los_along_front_rear_hexside_owner_chooses():
    # MBT 4.4.3.2.4: LOS exactly down the hexside dividing Front and Rear -> target's owner chooses
    target, facing = (0, 0), 0  # facing north (flat-top); side corners east and west
    assert hit_aspect(target, facing, (4, -2)) is Aspect.OWNER_CHOOSES  # due east, along the spine
    assert hit_aspect(target, facing, (-4, 2)) is Aspect.OWNER_CHOOSES  # due west
    assert hit_aspect(target, facing, (4, -3)) is Aspect.FRONT
    assert hit_aspect(target, facing, (4, -1)) is Aspect.REAR


def test_A81_armor_facing_by_hexside_crossed():
    # Assault R13.B.2: front armour if the LOS crosses the faced hexside (march) or either
    # of the two faced hexsides (combat formation faces a vertex); otherwise flank
    target = (0, 0)
    march_facing = 1
    assert hit_angles(target, march_facing, (3, -3)) == (0,)  # straight ahead: front
    assert hit_angles(target, march_facing, (3, 0)) == (1,)  # next hexside: flank
    vertex_hexsides = {1, 2}  # combat formation faces the vertex between hexsides 1 and 2
    for firer in [(3, -3), (3, 0), (3, -2)]:
        crossed = {(d + march_facing) % 6 for d in hit_angles(target, march_facing, firer)}
        assert crossed & vertex_hexsides
    # exactly through the vertex between two hexsides: ambiguous (AMB-C39) -> two answers
    assert len(hit_angles(target, 0, (2, -1))) == 2


def test_adjacent_sector_is_the_direction():
    for d in range(6):
        assert sector((5, 5), neighbour((5, 5), d)) == (d,)
    with pytest.raises(ValueError):
        sector((0, 0), (0, 0))


def test_M97_one_hexside_per_hex_is_a_single_step_turn():
    # MBT 4.5.1.1.4: turning 1 hexside in each of 4 successive hexes costs nothing (1 free per
    # hex); geometry side: each turn is exactly one hexside step, the total is 4 steps = 240 deg
    f = 0
    for _ in range(4):
        nf = turn(f, 1)
        assert turn_cost(f, nf) == 1
        f = nf
    assert f == 4 and turn_cost(0, f) == 2  # net change is 2 hexsides the short way round
