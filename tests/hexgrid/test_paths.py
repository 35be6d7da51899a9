import random

import pytest
from hypothesis import given, settings, strategies as st

from studio.hexgrid.coords import distance, offset_to_axial, within
from studio.hexgrid.paths import movement_range, movement_tree, path_cost, path_to, shortest_path


def make_board(seed, cols=12, rows=10):
    rng = random.Random(seed)
    cells = {offset_to_axial(c, r, "odd-q"): rng.choice([1, 1, 2, 3, None]) for c in range(cols) for r in range(rows)}

    def cost(a, b):
        return cells.get(b) if b in cells else None

    return cells, cost


@given(st.integers(0, 5))
def test_uniform_cost_range_is_within(radius):
    assert set(movement_range((0, 0), radius, lambda a, b: 1)) == set(within((0, 0), radius))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_astar_matches_dijkstra_and_is_deterministic(seed):
    cells, cost = make_board(seed)
    start = offset_to_axial(0, 0, "odd-q")
    goal = offset_to_axial(11, 9, "odd-q")
    cells[start] = 1
    cells[goal] = 1
    best, prev = movement_tree(start, float("inf"), cost)
    res = shortest_path(start, goal, cost, min_step_cost=1)
    if goal not in best:
        assert res is None
        return
    path, c = res
    assert c == best[goal] == path_cost(path, cost)
    assert all(distance(path[i], path[i + 1]) == 1 for i in range(len(path) - 1))
    assert shortest_path(start, goal, cost, min_step_cost=1) == res
    assert shortest_path(start, goal, cost) [1] == c  # plain Dijkstra, same cost
    # budget: exactly enough succeeds, a hair less fails
    assert shortest_path(start, goal, cost, budget=c) is not None
    assert shortest_path(start, goal, cost, budget=c - 0.5) is None
    assert path_to(prev, start, goal)[0] == start


def test_impassable_and_budget():
    wall = {(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)}
    rng = movement_range((0, 0), 10, lambda a, b: None if b in wall else (1 if distance((0, 0), b) < 12 else None))
    assert rng == {(0, 0): 0.0}
    with pytest.raises(ValueError):
        movement_range((0, 0), 3, lambda a, b: -1)


def test_hexside_costs_are_directional():
    # entering (1, 0) across a river hexside costs 3 from (0, 0), 1 otherwise
    def cost(a, b):
        if max(abs(b[0]), abs(b[1]), abs(b[0] + b[1])) > 3:
            return None
        return 3 if (a, b) == ((0, 0), (1, 0)) else 1

    assert shortest_path((0, 0), (1, 0), cost)[1] == 2  # around via (1,-1) or (0,1)
    assert movement_range((0, 0), 1, cost).get((1, 0)) is None
