"""Movement: macro moves planned on a 1" raster (distance fields), executed and adjudicated on exact geometry.

The raster is only a planner (digest f.6): the unit's path is the polyline through the raster cells it follows,
cut to its speed, and every rule (ground-type Bog checks, fording, minefield rolls per inch) is applied to that
polyline on the exact table geometry.
"""
from __future__ import annotations

import heapq
import math

import numpy as np

CELL = 1.0  # inches per raster cell
#: planner only (no rule): vehicles weigh a cell of ground that asks for a Bog check this many times its cost, so
#: the macro moves go round broken ground and marsh when a detour exists (a failed check strands the vehicle)
BOG_AVOIDANCE = 3.0
_NEIGHBOURS = ((1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0),
               (1, 1, math.sqrt(2)), (1, -1, math.sqrt(2)), (-1, 1, math.sqrt(2)), (-1, -1, math.sqrt(2)))


class NavGrid:
    """Cost per cell (inches of movement per inch crossed; inf = impassable) for one mobility and fording depth."""

    def __init__(self, game, mobility: str, fording_in: float):
        g = game.geometry
        self.nx, self.ny = int(math.ceil(g.width / CELL)), int(math.ceil(g.depth / CELL))
        self.cost = np.ones((self.nx, self.ny))
        self.weight = np.ones((self.nx, self.ny))       # the planner's Bog weighting of each cell (1: none)
        ii, jj = np.meshgrid(np.arange(self.nx), np.arange(self.ny), indexing="ij")
        xs, ys = (ii.ravel() + 0.5) * CELL, (jj.ravel() + 0.5) * CELL
        bare = None                                      # a cell no area covers: the same cost everywhere
        for i, j, x, y, areas in zip(ii.ravel(), jj.ravel(), xs, ys, g.areas_at_points(xs, ys)):
            if not areas and bare is not None:
                self.cost[i, j] = bare
                continue
            cost = game.cell_cost(mobility, fording_in, x, y, areas)
            weight = BOG_AVOIDANCE if mobility != "foot" and game.ground_of(x, y, areas) in game.tables.bog else 1.0
            self.cost[i, j] = cost * weight
            self.weight[i, j] = weight
            if not areas:
                bare = cost * weight
        self._steps: list | None = None                  # per direction: (index offset, step cost per cell)
        self.fields: dict[tuple[int, int], np.ndarray] = next(
            (other.fields for other in getattr(game, "_nav", {}).values() if np.array_equal(other.cost, self.cost)),
            {})

    def cell(self, x: float, y: float) -> tuple[int, int]:
        return (min(self.nx - 1, max(0, int(x / CELL))), min(self.ny - 1, max(0, int(y / CELL))))

    def field(self, goal: tuple[int, int]) -> np.ndarray:
        """Movement distance from every cell to ``goal`` (Dijkstra, the whole field), as an (nx, ny) array."""
        f = self._field(goal)
        f.settle_all()
        return np.array(f.dist).reshape(self.nx + 2, self.ny + 2)[1:-1, 1:-1].copy()

    def _field(self, goal: tuple[int, int]) -> "_Field":
        """The distance field to ``goal``, computed as far as asked so far; cached per goal cell in this game
        (grids of other mobilities or fording depths with the same costs share the cache: the same costs, the
        same field)."""
        f = self.fields.get(goal)
        if f is None:
            if self._steps is None:
                self._steps = _direction_steps(self.cost)
            f = self.fields[goal] = _Field(self._steps, (self.nx + 2) * (self.ny + 2), self._flat(*goal))
        return f

    def _flat(self, i: int, j: int) -> int:
        """The flat index of cell (i, j) on the grid padded with one impassable cell all round."""
        return (i + 1) * (self.ny + 2) + j + 1

    def plan(self, x: float, y: float, goal_xy: tuple[float, float], budget: float,
             field_at: tuple[float, float] | None = None) -> list[tuple[float, float]]:
        """Cell centres from (x, y) down the distance field toward the goal, within ``budget`` inches of movement
        (the cells' movement costs: the field's Bog weighting only chooses the way, it costs no movement).
        ``field_at`` (default: the goal) is the point whose distance field is followed: units bound for one
        objective share its field and step to their own spot beside it at the end. The field is settled up to
        the start's distance: every cell the descent compares is then final (a cell not yet settled is farther
        than the start, and its tentative distance is never below its final one)."""
        goal = self.cell(*goal_xy)
        f = self._field(self.cell(*(field_at or goal_xy)))
        here = self.cell(x, y)
        k = self._flat(*here)
        f.settle(k)
        dist = f.dist
        path = [(x, y)]
        spent = 0.0
        while here != goal and math.isfinite(dist[k]) and dist[k] > 0:
            best = kb = None
            length = 0.0
            for di, dj, step in _NEIGHBOURS:
                a, b = here[0] + di, here[1] + dj
                if 0 <= a < self.nx and 0 <= b < self.ny:
                    m = self._flat(a, b)
                    if dist[m] < dist[k] - 1e-9 and (best is None or dist[m] < dist[kb]):
                        best, kb, length = (a, b), m, step
            if best is None:
                break
            step_cost = length * (self.cost[here] / self.weight[here] + self.cost[best] / self.weight[best]) / 2
            if spent + step_cost > budget + 1e-9:
                break
            spent += step_cost
            here, k = best, kb
            path.append(((here[0] + 0.5) * CELL, (here[1] + 0.5) * CELL))
        near = math.hypot((here[0] + 0.5) * CELL - goal_xy[0], (here[1] + 0.5) * CELL - goal_xy[1])
        if near <= 2.5 and spent + near <= budget and math.isfinite(self.cost[goal]):
            path.append(goal_xy)
        return path


class _Field:
    """A distance field to one goal by Dijkstra on the flat padded grid, computed only as far as asked and
    resumed later: ``dist`` is final for every cell whose distance is at most that of a cell settled so far. A
    step between two cells costs ``step * (cost_a + cost_b) / 2`` (the precomputed ``steps``), the same float as
    summed on the grid, so the field is exactly the grid's (every Dijkstra reaches the unique fixed point of
    those sums); an impassable neighbour's step costs inf and is never taken."""

    __slots__ = ("dist", "heap", "steps")

    def __init__(self, steps: list, size: int, goal: int):
        self.steps = steps
        self.dist = [math.inf] * size
        self.dist[goal] = 0.0
        self.heap = [(0.0, goal)]

    def settle(self, k: int) -> None:
        """Run Dijkstra until cell ``k`` and every cell not farther than it are final (all of them when ``k`` is
        unreachable)."""
        dist, heap, steps = self.dist, self.heap, self.steps
        pop, push = heapq.heappop, heapq.heappush
        while heap and heap[0][0] <= dist[k]:
            d, c = pop(heap)
            if d > dist[c]:
                continue
            for off, w in steps:
                nd = d + w[c]
                if nd < dist[c + off]:
                    dist[c + off] = nd
                    push(heap, (nd, c + off))

    def settle_all(self) -> None:
        """Run Dijkstra to the end: the whole field final."""
        self.settle(len(self.dist) - 1)   # a border cell: never reached, so the heap empties


def _direction_steps(cost: np.ndarray) -> list[tuple[int, list[float]]]:
    """Per neighbour direction, the flat index offset on the grid padded with one impassable cell all round and
    the cost of the step from each cell (flat, padded): ``step * (cost[neighbour] + cost[cell]) / 2`` as the grid
    Dijkstra sums it, inf where the neighbour is impassable or off the table."""
    nx, ny = cost.shape
    pad = np.full((nx + 4, ny + 4), np.inf)          # two cells of border: every neighbour of the padded grid
    pad[2:-2, 2:-2] = cost
    here = pad[1:-1, 1:-1]
    out = []
    for di, dj, step in _NEIGHBOURS:
        there = pad[1 + di:nx + 3 + di, 1 + dj:ny + 3 + dj]
        w = step * (there + here) / 2
        w[~np.isfinite(there)] = np.inf
        out.append((di * (ny + 2) + dj, w.ravel().tolist()))
    return out


def cut(path: list[tuple[float, float]], length: float) -> list[tuple[float, float]]:
    """The first ``length`` inches of a polyline."""
    out = [path[0]]
    left = length
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        seg = math.hypot(x1 - x0, y1 - y0)
        if seg <= left:
            out.append((x1, y1))
            left -= seg
            continue
        if seg > 0 and left > 0:
            t = left / seg
            out.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t))
        break
    return out


def polyline_length(path) -> float:
    return sum(math.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(path, path[1:]))


def mover_class(card) -> str:
    """The mover column of table ``obstacle-crossing`` (BfOps p.9-10): infantry, soft wheeled (jeeps, trucks),
    wheeled armoured by axles, light tank, tank, other tracked (APCs and their kin)."""
    if card.infantry is not None or card.propulsion == "foot":
        return "infantry"
    if card.propulsion == "wheeled":
        return "wheeled_soft" if card.soft else f"wheeled_{card.axles or 2}"
    if card.category in ("tank", "light_tank"):
        return card.category
    return "tracked_apc"
