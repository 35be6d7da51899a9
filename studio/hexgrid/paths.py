"""Movement range (Dijkstra) and shortest path (A*) over hexes with a caller cost function.

``cost(from_hex, to_hex) -> float | None`` is the price of one step into an *adjacent* hex
(terrain + hexside + road, per mobility class - the caller decides); ``None`` means
impassable (also use it for hexes off the board).  Costs must be >= 0.

Determinism: the frontier is ordered by (cost, hex tuple), neighbours are expanded in
direction order, and a node's predecessor only changes on a strictly cheaper cost, so equal
inputs always give equal outputs.
"""

from __future__ import annotations

import heapq
from typing import Callable, Iterable

from studio.hexgrid.coords import Hex, distance

CostFn = Callable[[Hex, Hex], "float | None"]


def _nbrs(h: Hex) -> tuple[Hex, ...]:
    q, r = h
    return ((q, r - 1), (q + 1, r - 1), (q + 1, r), (q, r + 1), (q - 1, r + 1), (q - 1, r))


def movement_range(start: Hex, budget: float, cost: CostFn) -> dict[Hex, float]:
    """Every hex reachable from ``start`` for total cost <= ``budget`` -> its cheapest cost.

    >>> def flat(a, b):
    ...     return 1.0
    >>> sorted(movement_range((0, 0), 1, flat).values())
    [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    >>> len(movement_range((0, 0), 2, flat))
    19
    """
    best, _, _ = _search(start, budget, cost)
    return best


def movement_tree(start: Hex, budget: float, cost: CostFn) -> tuple[dict[Hex, float], dict[Hex, Hex]]:
    """Like ``movement_range`` plus a predecessor map for rebuilding any route with
    ``path_to``.

    >>> best, prev = movement_tree((0, 0), 3, lambda a, b: 1)
    >>> path_to(prev, (0, 0), (2, 0))
    [(0, 0), (1, 0), (2, 0)]
    """
    best, prev, _ = _search(start, budget, cost)
    return best, prev


def path_to(prev: dict[Hex, Hex], start: Hex, goal: Hex) -> list[Hex] | None:
    """Rebuild start..goal from a predecessor map; None if goal was not reached.

    >>> path_to({}, (0, 0), (0, 0))
    [(0, 0)]
    """
    if goal != start and goal not in prev:
        return None
    out = [goal]
    while out[-1] != start:
        out.append(prev[out[-1]])
    out.reverse()
    return out


def _search(start: Hex, budget: float, cost: CostFn, goal: Hex | None = None,
            hscale: float = 0.0) -> tuple[dict[Hex, float], dict[Hex, Hex], float | None]:
    """Best-first search: Dijkstra over every hex within ``budget`` (no ``goal``), or A* to ``goal`` with the
    heuristic ``distance * hscale``. Returns ``(best cost per hex, predecessors, cost of the goal or None)``.
    Ties break on (cost, hex tuple), so results are deterministic."""
    best: dict[Hex, float] = {start: 0.0}
    prev: dict[Hex, Hex] = {}
    done: set[Hex] = set()
    heap: list[tuple[float, float, Hex]] = [(distance(start, goal) * hscale if goal is not None else 0.0,
                                             0.0, start)]
    pop = heapq.heappop
    push = heapq.heappush
    while heap:
        _, g, h = pop(heap)
        if h in done:
            continue
        if h == goal:
            return best, prev, g
        done.add(h)
        for n in _nbrs(h):
            if n in done:
                continue
            c = cost(h, n)
            if c is None:
                continue
            if c < 0:
                raise ValueError(f"negative step cost {c!r} from {h!r} to {n!r}")
            ng = g + c
            if ng > budget:
                continue
            old = best.get(n)
            if old is None or ng < old:
                best[n] = ng
                prev[n] = h
                push(heap, (ng + distance(n, goal) * hscale if goal is not None else ng, ng, n))
    return best, prev, None


def shortest_path(
    start: Hex,
    goal: Hex,
    cost: CostFn,
    budget: float = float("inf"),
    min_step_cost: float = 0.0,
) -> tuple[list[Hex], float] | None:
    """Cheapest route ``start`` .. ``goal`` (inclusive) and its cost, or None if the goal
    cannot be reached within ``budget``.

    A* with heuristic ``distance * min_step_cost``: pass the cheapest possible step cost
    (it must not overestimate, else the route may not be optimal); 0 = plain Dijkstra.
    With an infinite budget, the cost function must bound the search (None off the board).

    >>> board = {(q, r) for q in range(5) for r in range(5)}
    >>> def cost(a, b):
    ...     return None if b not in board or b == (1, 1) else 1
    >>> shortest_path((0, 0), (2, 2), cost, min_step_cost=1)
    ([(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)], 4.0)
    >>> shortest_path((0, 0), (4, 4), cost, budget=3) is None
    True
    """
    if start == goal:
        return ([start], 0.0)
    _, prev, reached = _search(start, budget, cost, goal, float(min_step_cost))
    if reached is None:
        return None
    path = path_to(prev, start, goal)
    assert path is not None
    return (path, reached)


def path_cost(path: Iterable[Hex], cost: CostFn) -> float | None:
    """Total cost of walking ``path`` step by step; None if any step is impassable.

    >>> path_cost([(0, 0), (1, 0), (2, 0)], lambda a, b: 2)
    4.0
    """
    total = 0.0
    it = iter(path)
    try:
        prev = next(it)
    except StopIteration:
        return 0.0
    for h in it:
        c = cost(prev, h)
        if c is None:
            return None
        total += c
        prev = h
    return total
