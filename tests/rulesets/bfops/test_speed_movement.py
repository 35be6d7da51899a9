"""Issue 19 speed-ups of the Battlefield Ops! raster planner, each against its uncached computation: the distance
fields (Dijkstra on flat neighbour steps) equal the grid Dijkstra the planner first used, and grids with the same
costs share one field cache."""
from __future__ import annotations

import functools
import heapq
import math
import random
from pathlib import Path

import numpy as np
import pytest

from studio.rules.load import load_game
from studio.rulesets.bfops.engine.movement import NavGrid

DATA = Path(__file__).resolve().parents[3] / "data"
SCENARIOS = ["bfops-meeting-at-the-ford", "bfops-village-defence"]
_NEIGHBOURS = ((1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0),
               (1, 1, math.sqrt(2)), (1, -1, math.sqrt(2)), (-1, 1, math.sqrt(2)), (-1, -1, math.sqrt(2)))


@functools.lru_cache(maxsize=None)
def _game(name):
    return load_game(DATA / "scenarios" / "bfops" / f"{name}.yaml", DATA).game


def grid_dijkstra(cost: np.ndarray, goal: tuple[int, int]) -> np.ndarray:
    """The reference: Dijkstra on the 2-D grid, a step costing the mean of the two cells' costs times its length."""
    nx, ny = cost.shape
    dist = np.full((nx, ny), np.inf)
    dist[goal] = 0.0
    heap = [(0.0, goal)]
    while heap:
        d, (i, j) = heapq.heappop(heap)
        if d > dist[i, j]:
            continue
        for di, dj, step in _NEIGHBOURS:
            a, b = i + di, j + dj
            if 0 <= a < nx and 0 <= b < ny and math.isfinite(cost[a, b]):
                nd = d + step * (cost[a, b] + cost[i, j]) / 2
                if nd < dist[a, b]:
                    dist[a, b] = nd
                    heapq.heappush(heap, (nd, (a, b)))
    return dist


@pytest.mark.parametrize("name", SCENARIOS)
def test_distance_fields_equal_the_grid_dijkstra(name):
    game = _game(name)
    rng = random.Random(3)
    for mobility, fording in (("foot", 0.5), ("tracked", 0.4), ("wheeled", 1.0)):
        nav = NavGrid(game, mobility, fording)
        goals = [(rng.randrange(nav.nx), rng.randrange(nav.ny)) for _ in range(3)]
        impassable = np.argwhere(~np.isfinite(nav.cost))
        if len(impassable):
            goals.append(tuple(int(v) for v in impassable[0]))       # a goal in water: only itself at 0
        for goal in goals:
            assert np.array_equal(nav.field(goal), grid_dijkstra(nav.cost, goal)), (mobility, goal)


def test_a_field_follows_the_cost_of_the_cells():
    """A wall of impassable cells makes the field go round it (the fast field reads the costs)."""
    game = _game(SCENARIOS[0])
    nav = NavGrid(game, "foot", 0.5)
    nav.cost = np.ones_like(nav.cost)
    nav.cost[10, :-1] = np.inf
    nav._steps, nav.fields = None, {}
    dist = nav.field((5, 0))
    assert dist[15, 0] > 2 * (nav.ny - 1) - 1            # round the wall's open end at the far edge
    assert np.array_equal(dist, grid_dijkstra(nav.cost, (5, 0)))


def test_grids_with_equal_costs_share_their_fields():
    game = _game(SCENARIOS[1])
    cards = {(("foot" if c.propulsion == "foot" else c.propulsion), c.fording_depth_in): c
             for c in game.cards.values()}
    grids = [game.nav(c) for c in cards.values()]
    for a in grids:
        for b in grids:
            assert (a.fields is b.fields) == bool(np.array_equal(a.cost, b.cost))
    shared = [(a, b) for a in grids for b in grids if a is not b and a.fields is b.fields]
    assert shared, "the sample's tracked cards of different fording depths have the same costs"
    a, b = shared[0]
    assert np.array_equal(a.field((3, 4)), grid_dijkstra(b.cost, (3, 4)))


def reference_plan(nav, dist_of, x, y, goal_xy, budget, field_at=None):
    """The planner's descent on whole fields (the first planner): ``dist_of(cell)`` gives the full field; each
    step spends its length times the mean of the two cells' movement costs (no Bog weighting)."""
    goal = nav.cell(*goal_xy)
    dist = dist_of(nav.cell(*(field_at or goal_xy)))
    here = nav.cell(x, y)
    path, spent = [(x, y)], 0.0
    while here != goal and math.isfinite(dist[here]) and dist[here] > 0:
        best, length = None, 0.0
        for di, dj, step in _NEIGHBOURS:
            a, b = here[0] + di, here[1] + dj
            if 0 <= a < nav.nx and 0 <= b < nav.ny and dist[a, b] < dist[here] - 1e-9:
                if best is None or dist[a, b] < dist[best]:
                    best, length = (a, b), step
        if best is None:
            break
        cost = length * (nav.cost[here] / nav.weight[here] + nav.cost[best] / nav.weight[best]) / 2
        if spent + cost > budget + 1e-9:
            break
        spent += cost
        here = best
        path.append(((here[0] + 0.5), (here[1] + 0.5)))
    near = math.hypot(here[0] + 0.5 - goal_xy[0], here[1] + 0.5 - goal_xy[1])
    if near <= 2.5 and spent + near <= budget and math.isfinite(nav.cost[goal]):
        path.append(goal_xy)
    return path


@pytest.mark.parametrize("name", SCENARIOS)
def test_plans_on_fields_settled_as_far_as_asked_equal_plans_on_whole_fields(name):
    """Fields computed only up to each start's distance (resumed by later, farther starts) give the plans of
    whole fields, nearer and farther starts in any order."""
    game = _game(name)
    rng = random.Random(6)
    nav = NavGrid(game, "tracked", 0.4)
    nav.fields = {}
    whole = {}

    def dist_of(goal):
        if goal not in whole:
            whole[goal] = grid_dijkstra(nav.cost, goal)
        return whole[goal]

    goals = [(rng.uniform(1, 71), rng.uniform(1, 47)) for _ in range(3)]
    moved = 0
    for _ in range(60):
        gx, gy = rng.choice(goals)
        x, y = rng.uniform(0, 72), rng.uniform(0, 48)
        budget = rng.choice([4.0, 8.0, 30.0, 200.0])
        spot = (gx + rng.uniform(-1.5, 1.5), gy + rng.uniform(-1.5, 1.5))
        got = nav.plan(x, y, spot, budget, (gx, gy))
        assert got == reference_plan(nav, dist_of, x, y, spot, budget, (gx, gy))
        moved += len(got) > 2
    assert moved > 30
    fresh = NavGrid(game, "tracked", 0.4)
    fresh.fields = {}                                    # its own fields, none computed yet
    gx, gy = goals[0]
    fresh.plan(gx + 2, gy, (gx, gy), 8.0)
    near = fresh._field(fresh.cell(gx, gy))
    assert near.heap and sum(math.isfinite(d) for d in near.dist) < fresh.nx * fresh.ny / 4   # only near it


def _path_cost(nav: NavGrid, path: list) -> float:
    """Movement spent along a planned cell path: each step's length times the mean of the two cells' movement
    costs (the cost without the planner's Bog weighting)."""
    spent = 0.0
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        a, b = nav.cell(x0, y0), nav.cell(x1, y1)
        spent += math.hypot(x1 - x0, y1 - y0) * (nav.cost[a] / nav.weight[a] + nav.cost[b] / nav.weight[b]) / 2
    return spent


@pytest.mark.parametrize("name", SCENARIOS)
def test_bog_weighting_chooses_the_way_but_costs_no_movement(name):
    """The planner weighs Bog ground (BOG_AVOIDANCE) to go round it, but a plan spends the cells' movement
    costs: a vehicle starting inside Bog ground still moves its speed's worth (it used to spend the weighted
    cost and stand still inside a marsh)."""
    game = _game(name)
    nav = NavGrid(game, "tracked", 0.4)
    bog = [tuple(int(v) for v in c) for c in np.argwhere(nav.weight > 1.0) if np.isfinite(nav.cost[tuple(c)])]
    if not bog:
        pytest.skip("no Bog ground on this table")
    far = max(((i, j) for i in range(nav.nx) for j in range(nav.ny) if np.isfinite(nav.cost[i, j])),
              key=lambda c: math.dist(c, bog[0]))
    start = ((bog[0][0] + 0.5), (bog[0][1] + 0.5))
    goal = ((far[0] + 0.5), (far[1] + 0.5))
    budget = 8.0
    path = nav.plan(*start, goal, budget)
    assert len(path) > 1, "a vehicle in Bog ground moves"
    spent = _path_cost(nav, path)
    assert spent <= budget + 1e-6
    weighted = sum(math.hypot(x1 - x0, y1 - y0) * (nav.cost[nav.cell(x0, y0)] + nav.cost[nav.cell(x1, y1)]) / 2
                   for (x0, y0), (x1, y1) in zip(path, path[1:]))
    assert weighted > spent, "the path crossed weighted Bog ground and was charged only its movement cost"
