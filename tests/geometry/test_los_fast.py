"""The vectorised sight-line path (edge crossings) gives exactly the answers of the Shapely overlay
(``TableGeometry.los_exact``) on random pairs, on the sample table and on a synthetic one with holes,
multipolygons, overlapping areas and height polygons; degenerate lines (a vertex on the line, an end on a
boundary) are handed to the overlay."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import shapely

from studio.geometry import Area, HeightArea, TableGeometry

DATA = Path(__file__).resolve().parents[2] / "data"


def _synthetic() -> TableGeometry:
    ring = shapely.Polygon([(10, 10), (30, 10), (30, 30), (10, 30)], [[(15, 15), (25, 15), (25, 25), (15, 25)]])
    multi = shapely.MultiPolygon([shapely.box(40, 5, 44, 9), shapely.box(46, 5, 50, 9)])
    road = shapely.buffer(shapely.linestrings([(0, 40), (20, 35), (40, 44), (72, 38)]), 1.0, cap_style="flat")
    areas = [Area("ring", "woods", ring, height=1.0, blocks=True),
             Area("multi", "building", multi, height=0.8, cover=4, blocks=True, solid=True),
             Area("road", "road", road),
             Area("pond", "water", shapely.Point(55, 25).buffer(6, quad_segs=16)),
             Area("copse", "woods", shapely.box(20, 20, 35, 28), height=0.6, blocks=True),   # overlaps the ring
             Area("mines", "minefield", shapely.box(60, 0, 61, 20), hidden_from=frozenset({"red"}))]
    heights = [HeightArea("hill", 1.0, shapely.box(35, 15, 70, 45)), HeightArea("top", 2.0, shapely.box(45, 25, 60, 40))]
    return TableGeometry(72, 48, areas, heights)


def _sample() -> TableGeometry:
    from studio.rules.load import load_game

    return load_game(DATA / "scenarios" / "bfops" / "bfops-meeting-at-the-ford.yaml", DATA).game.geometry


def _same(a, b) -> None:
    assert a.length == pytest.approx(b.length, abs=1e-9)
    assert (a.ground_block is None) == (b.ground_block is None)
    if a.ground_block is not None:
        assert a.ground_block == pytest.approx(b.ground_block, abs=1e-9)
    assert [c.area.id for c in a.crossings] == [c.area.id for c in b.crossings]
    for c, d in zip(a.crossings, b.crossings):
        assert (c.faces, c.blocking, c.at_observer, c.at_target) == (d.faces, d.blocking, d.at_observer, d.at_target)
        assert (c.length, c.enter, c.exit) == (pytest.approx(d.length, abs=1e-9), pytest.approx(d.enter, abs=1e-9),
                                               pytest.approx(d.exit, abs=1e-9))


@pytest.mark.parametrize("build", [_synthetic, _sample], ids=["synthetic", "sample"])
def test_fast_los_equals_the_overlay_on_random_pairs(build):
    geo = build()
    rng = random.Random(7)
    crossed = 0
    for k in range(1500):
        x0, y0, x1, y1 = (rng.uniform(0, 72), rng.uniform(0, 48), rng.uniform(0, 72), rng.uniform(0, 48))
        eye, tgt = rng.choice([(0.3, 0.3), (1.5, 0.2), (3.0, 3.0)])
        side = rng.choice([None, "red", "blue"])
        fast, exact = geo.los(x0, y0, x1, y1, eye, tgt, side), geo.los_exact(x0, y0, x1, y1, eye, tgt, side)
        _same(fast, exact)
        crossed += len(fast.crossings)
    assert crossed > 500                      # the pairs do cross areas: the comparison is not vacuous


def test_integer_grid_pairs_equal_the_overlay():
    """Units and vertices on whole inches: lines along edges and through vertices (the overlay's cases)."""
    geo = _synthetic()
    rng = random.Random(3)
    for _ in range(600):
        x0, y0, x1, y1 = rng.randint(0, 72), rng.randint(0, 48), rng.randint(0, 72), rng.randint(0, 48)
        if (x0, y0) != (x1, y1):
            _same(geo.los(x0, y0, x1, y1, 0.3, 0.3), geo.los_exact(x0, y0, x1, y1, 0.3, 0.3))


def test_fast_path_is_taken_off_the_boundaries(monkeypatch):
    geo = _synthetic()
    expected = geo.los_exact(1.3, 12.1, 70.7, 20.9, 0.3, 0.3)
    monkeypatch.setattr(geo, "los_exact", lambda *a, **k: pytest.fail("the overlay was used"))
    r = geo.los(1.3, 12.1, 70.7, 20.9, 0.3, 0.3)
    _same(r, expected)
    assert r.crossings[0].area.id == "ring" and r.crossings[0].faces == 4   # in, into its hole, out, out


def test_degenerate_lines_go_to_the_overlay(monkeypatch):
    geo = _synthetic()
    used = []
    real = geo.los_exact
    monkeypatch.setattr(geo, "los_exact", lambda *a, **k: used.append(a) or real(*a, **k))
    r = geo.los(0, 10, 72, 10, 0.3, 0.3)          # along the ring's south edge (y = 10, x 10..30)
    assert used and [c.area.id for c in r.crossings] == [c.area.id for c in real(0, 10, 72, 10, 0.3, 0.3).crossings]
    used.clear()
    geo.los(10, 20, 5, 5)                         # starts on the ring's west edge
    assert used
