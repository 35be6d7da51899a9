import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from studio.hexgrid.coords import axial_to_offset, neighbour, offset_to_axial
from studio.hexgrid.lines import EdgePolicy
from studio.hexgrid.los import LosRules, check_los
from studio.hexgrid.visibility import board_callbacks, visibility_map

KINDS = ["odd-q", "even-q", "odd-r", "even-r"]


def random_board(rng, rows, cols, kind, with_sides):
    ground = rng.choice([0, 0, 0, 1, 2, 3], size=(rows, cols)).astype(float)
    obstacle = rng.choice([0, 0, 0, 0, 1, 2], size=(rows, cols)).astype(float)
    sides = None
    if with_sides:
        sides = np.full((rows, cols, 6), np.nan)
        for r in range(rows):
            for c in range(cols):
                h = offset_to_axial(c, r, kind)
                for d in range(3):
                    if rng.random() < 0.08:
                        n = neighbour(h, d)
                        top = ground[r, c] + rng.choice([1, 2])
                        sides[r, c, d] = top
                        nc, nr = axial_to_offset(n, kind)
                        if 0 <= nc < cols and 0 <= nr < rows:
                            sides[nr, nc, (d + 3) % 6] = top
    return ground, obstacle, sides


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    kind=st.sampled_from(KINDS),
    policy=st.sampled_from(list(EdgePolicy)),
    eq=st.booleans(),
    ends=st.sampled_from([(False, False), (True, False), (False, True)]),
    adjacent=st.booleans(),
    along=st.booleans(),
    with_sides=st.booleans(),
    heights=st.sampled_from([(0.0, 0.0), (0.5, 0.0), (1.0, 0.5), (0.0, 1.0)]),
)
def test_visibility_map_equals_check_los(seed, kind, policy, eq, ends, adjacent, along, with_sides, heights):
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(1, 10)), int(rng.integers(1, 10))
    ground, obstacle, sides = random_board(rng, rows, cols, kind, with_sides)
    rules = LosRules(
        rule="x", edge_policy=policy, equal_blocks=eq, observer_hex_blocks=ends[0], target_hex_blocks=ends[1],
        adjacent_always_clear=adjacent, along_hexside_blocks=along,
    )
    obs = (int(rng.integers(0, cols)), int(rng.integers(0, rows)))
    vis = visibility_map(obs, ground, obstacle, kind, heights[0], heights[1], rules, sides)
    terrain, hexside = board_callbacks(ground, obstacle, kind, sides)
    a = offset_to_axial(*obs, kind)
    expected = np.array(
        [
            [check_los(a, offset_to_axial(c, r, kind), terrain, hexside, heights[0], heights[1], rules).clear
             for c in range(cols)]
            for r in range(rows)
        ]
    )
    assert vis.dtype == bool and vis.shape == (rows, cols)
    assert (vis == expected).all()


def test_visibility_map_is_fast_on_a_large_board():
    rng = np.random.default_rng(1)
    ground, obstacle, _ = random_board(rng, 60, 80, "odd-q", False)
    t0 = time.perf_counter()
    vis = visibility_map((40, 30), ground, obstacle, "odd-q")
    assert vis[30, 40]
    assert time.perf_counter() - t0 < 2.0


def test_bad_observer():
    with pytest.raises(ValueError, match="off the"):
        visibility_map((5, 0), np.zeros((2, 2)), np.zeros((2, 2)), "odd-q")
