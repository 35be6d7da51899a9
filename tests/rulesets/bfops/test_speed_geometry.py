"""Issue 19 memos of the measured-table geometry and the Battlefield Ops! planner, each against its uncached
computation: ground levels, areas at a point and shadows per eye give what a fresh computation gives, and random
playouts with every speed memo forgotten before each action (recomputed) play the same as with the memos kept
(the same legal actions and fingerprints step by step)."""
from __future__ import annotations

import functools
import random
from pathlib import Path

import numpy as np
import pytest
import shapely

from studio.geometry import footprint
from studio.rules.load import load_game

DATA = Path(__file__).resolve().parents[3] / "data"
SCENARIOS = ["bfops-meeting-at-the-ford", "bfops-village-defence"]
GEOMETRY_MEMOS = ("_memo", "_exposure_memo", "_shadow_memo", "_ground_memo", "_areas_memo")


def _game(name):
    return load_game(DATA / "scenarios" / "bfops" / f"{name}.yaml", DATA).game


@functools.lru_cache(maxsize=None)
def _cached_game(name):
    return _game(name)


def _geometry(name):
    return _cached_game(name).geometry


def _forget(game) -> None:
    for m in GEOMETRY_MEMOS:
        getattr(game.geometry, m).clear()
    game._nav.clear()                                   # raster grids and their distance fields
    game._dists.clear()                                 # unit-to-unit distances


@pytest.mark.parametrize("name", SCENARIOS)
def test_point_memos_answer_as_computed(name):
    g = _geometry(name)
    rng = random.Random(11)
    pts = [(rng.uniform(0, g.width), rng.uniform(0, g.depth)) for _ in range(150)]
    pts += [(float(rng.randrange(73)), float(rng.randrange(49))) for _ in range(50)]    # on whole inches
    for x, y in pts + pts:                                        # the second pass answers from the memos
        inside = shapely.intersects_xy(np.array([h.geom for h in g.heights], dtype=object), x, y)
        levels = [h.level for h, k in zip(g.heights, inside) if k]
        assert g.ground_at(x, y) == (max(levels) if levels else 0.0)
        assert g.areas_at(x, y) == [a for a in g.areas if a.geom.covers(shapely.points(x, y))]
    assert any(g.ground_at(x, y) > 0 for x, y in pts) and any(g.areas_at(x, y) for x, y in pts)
    got = g.areas_at(*pts[0])
    got.append("x")
    assert "x" not in g.areas_at(*pts[0])                         # each caller gets its own list


@pytest.mark.parametrize("name", SCENARIOS)
def test_memoized_shadows_give_the_exposures_computed_afresh(name):
    g = _geometry(name)
    rng = random.Random(12)
    eyes = [(rng.uniform(0, g.width), rng.uniform(0, g.depth)) for _ in range(20)]
    partial = 0
    for x, y in eyes:
        for _ in range(8):                                        # one eye, many footprints: shadows reused
            foot = footprint(rng.uniform(0, g.width), rng.uniform(0, g.depth), rng.uniform(0, 360), 0.5, 0.9)
            memo = g._exposure(x, y, 0.35, foot, 0.3, None)
            g._shadow_memo.clear()
            assert memo == g._exposure(x, y, 0.35, foot, 0.3, None)
            partial += 0 < memo < 1
    assert partial > 0


@pytest.mark.parametrize("name", [SCENARIOS[0], pytest.param(SCENARIOS[1], marks=pytest.mark.slow)])
def test_random_playouts_same_with_the_speed_memos_forgotten_every_step(name):
    runs = []
    for forget in (True, False):
        game = _game(name)
        s = game.new_initial_state(4)
        rng = random.Random(4)
        prints = []
        while s.legal_actions() and len(prints) < 60:
            if forget:
                _forget(game)
            legal = [str(a) for a in s.legal_actions()]
            s.apply(rng.choice(s.legal_actions()))
            prints.append((legal, s.fingerprint()))
        runs.append(prints)
    assert runs[0] == runs[1] and len(runs[0]) == 60


@pytest.mark.parametrize("name", SCENARIOS)
def test_areas_within_of_some_kinds_equal_the_tree_query(name):
    g = _geometry(name)
    rng = random.Random(13)
    kinds_seen = sorted({a.kind for a in g.areas})
    found = 0
    for _ in range(300):
        foot = footprint(rng.uniform(0, g.width), rng.uniform(0, g.depth), rng.uniform(0, 360), 0.5, 0.9)
        radius = rng.choice([0.0, 0.25, 1.0, 4.0, 10.0])
        kinds = rng.sample(kinds_seen, rng.randint(1, 3))
        idx = g._tree.query(foot, predicate="dwithin", distance=radius)
        want = sorted(((g.areas[i], float(shapely.distance(foot, g._geoms[i]))) for i in idx
                       if g.areas[i].kind in kinds), key=lambda o: (o[1], o[0].id))
        got = g.areas_within(foot, radius, kinds=kinds)
        assert got == want
        found += len(got)
    assert found > 20                                             # the comparison met areas


@pytest.mark.parametrize("name", SCENARIOS)
def test_structures_listed_once_are_the_solid_areas_with_cover(name):
    from studio.rulesets.bfops.engine.structures import structures

    game = _cached_game(name)
    want = tuple(a for a in game.geometry.areas if a.solid and a.cover > 0)
    assert structures(game) == want and structures(game) == want and want


@pytest.mark.parametrize("name", SCENARIOS)
def test_exposure_shortcut_far_from_blockers_answers_as_the_full_computation(name):
    g = _game(name).geometry                                       # its own: the test changes the geometry
    rng = random.Random(14)
    cases = []
    for _ in range(150):
        x0, y0 = rng.uniform(0, g.width), rng.uniform(0, g.depth)
        x1, y1 = x0 + rng.uniform(-8, 8), y0 + rng.uniform(-8, 8)      # short lines: often far from blockers
        cases.append((x0, y0, 0.35, footprint(x1, y1, rng.uniform(0, 360), 0.5, 0.9), 0.3, None))
    fast = [g._exposure(*c) for c in cases]
    g._blocking_bounds = [(-np.inf, -np.inf, np.inf, np.inf)]             # every case takes the full path
    g._shadow_memo.clear()
    assert fast == [g._exposure(*c) for c in cases]
    assert 1.0 in fast and any(e < 1.0 for e in fast)
