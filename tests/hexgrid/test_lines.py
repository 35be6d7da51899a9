import numpy as np
from hypothesis import given, strategies as st

from studio.hexgrid.coords import distance
from studio.hexgrid.layout import Layout, cube_round
from studio.hexgrid.lines import crossed_hexes, hex_line, line_steps, runs_along_hexsides

coord = st.integers(min_value=-30, max_value=30)
hexes = st.tuples(coord, coord)


@given(hexes, hexes, st.sampled_from([0, 1]))
def test_line_has_distance_plus_one_adjacent_hexes(a, b, side):
    line = hex_line(a, b, side)
    assert len(line) == distance(a, b) + 1
    assert line[0] == a and line[-1] == b
    assert all(distance(line[i], line[i + 1]) == 1 for i in range(len(line) - 1))
    assert all(distance(a, h) == i for i, h in enumerate(line))


@given(hexes, hexes)
def test_steps_reverse_symmetric_and_splits_well_formed(a, b):
    steps = line_steps(a, b)
    assert line_steps(b, a) == steps[::-1]
    for i, st_ in enumerate(steps):
        if len(st_) == 2:
            p0, p1 = st_
            assert distance(p0, p1) == 1
            assert 0 < i < len(steps) - 1
            assert len(steps[i - 1]) == 1 and len(steps[i + 1]) == 1
            for p in st_:
                assert distance(p, steps[i - 1][0]) == 1 and distance(p, steps[i + 1][0]) == 1
    offsets = {(s[1][0] - s[0][0], s[1][1] - s[0][1]) for s in steps if len(s) == 2}
    assert len(offsets) <= 1  # the first hex is always on the same side


@given(hexes, hexes)
def test_split_steps_are_exact_ties_of_the_true_segment(a, b):
    n = distance(a, b)
    lay = Layout(True, 10.0)
    (ax, ay), (bx, by) = lay.to_mm(a), lay.to_mm(b)
    for i, st_ in enumerate(line_steps(a, b)):
        t = i / n if n else 0.0
        x, y = ax + (bx - ax) * t, ay + (by - ay) * t
        # nudge perpendicular to the line both ways: a split sees both hexes, else one
        px, py = -(by - ay) * 1e-6, (bx - ax) * 1e-6
        seen = {lay.from_mm(x + px, y + py), lay.from_mm(x - px, y - py)}
        if len(st_) == 2 and runs_along_hexsides(a, b):
            assert seen == set(st_)
        elif len(st_) == 1:
            assert seen == {st_[0]}


def test_spine_lines_detected():
    assert runs_along_hexsides((0, 0), (2, -4))  # (2, -4, 2): q == s
    assert not runs_along_hexsides((0, 0), (3, 0))  # a hex row
    steps = line_steps((0, 0), (2, 2))
    assert [len(s) for s in steps] == [1, 2, 1, 2, 1]
    assert cube_round(0.5, 0.5) in steps[1]


def _np_round(fq, fr):
    fs = -fq - fr
    q, r, s_ = np.round(fq), np.round(fr), np.round(fs)
    dq, dr, ds = np.abs(q - fq), np.abs(r - fr), np.abs(s_ - fs)
    q = np.where((dq > dr) & (dq > ds), -r - s_, q)
    r = np.where(~((dq > dr) & (dq > ds)) & (dr > ds), -q - s_, r)
    return q.astype(int), r.astype(int)


def dense_interior_hexes(a, b, samples_per_hex=4000):
    """Hexes whose interior contains some sample of the segment (numpy, axial space)."""
    n = max(distance(a, b), 1)
    t = np.linspace(0.0, 1.0, samples_per_hex * n + 1)
    fq = a[0] + (b[0] - a[0]) * t
    fr = a[1] + (b[1] - a[1]) * t
    q1, r1 = _np_round(fq + 1e-9, fr + 2e-9)
    q2, r2 = _np_round(fq - 1e-9, fr - 2e-9)
    same = (q1 == q2) & (r1 == r2)
    return set(zip(q1[same].tolist(), r1[same].tolist()))


def test_crossed_hexes_matches_dense_sampling():
    for q in range(-6, 7):
        for r in range(-6, 7):
            b = (q, r)
            crossed = crossed_hexes((0, 0), b)
            assert set(crossed) == dense_interior_hexes((0, 0), b), b
            assert crossed[0] == (0, 0) and crossed[-1] == b
            singles = {s[0] for s in line_steps((0, 0), b) if len(s) == 1}
            assert singles <= set(crossed)
