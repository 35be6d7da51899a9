"""Dynamic crossings on the movement planner's raster (digest f.6): bridges, wall breaches, filled trenches.

The planner's raster (:class:`.movement.NavGrid`) is static per game and judges each cell by its centre. Walls
and trenches a mover may not pass (table ``obstacle-crossing``: ``passes`` 0) are too thin for the 1" raster's
cell centres, and a slanting 1" stream leaves diagonal steps between centres on either bank; so for a mover the
cells touching those walls and trenches and water deeper than it may ford (BfOps p.11; the fords it may wade
excepted: cells whose centre lies at such a ford) are closed; deployed bridges that carry the unit (:mod:`.bridging`), wall breaches it may
pass (:mod:`.demolition`) and trench lengths filled wide enough for its base (:mod:`.works`) open the cells
they touch again (a bridge deck over deep water costs 1 per inch). Each distinct set of closures and openings
gives one derived grid, cached on the static grid it derives from (with its own distance fields, shared with
derived grids of other mobilities or fording depths whose costs are the same): the set only
changes when a bridge is laid or lifted, a wall breached or a trench filled, so play pays for the fields once
per change. A planned path's points in an opened cell are moved onto the crossing (a bridge's centre line, a
breach or filled point), so the exact path the rules adjudicate goes through it.
"""
from __future__ import annotations

import math

import numpy as np
import shapely

from .movement import CELL, cut, mover_class
from . import bridging as BR
from . import demolition as DM
from . import works as W

THIN = ("wall", "trench")
OPEN_RADIUS_IN = 0.5      # a breach or filled point opens the cells within 1/2" of it (a 1" section)


def obstacle_of(area) -> str:
    """The ``obstacle-crossing`` row name of an area: trenches by width (1/4" or 1/2"), else its kind."""
    if area.kind != "trench":
        return area.kind
    f = area.data.get("feature")
    return "trench_half" if f is not None and (f.width_in or 0.25) > 0.25 + 1e-9 else "trench_quarter"


def closed_areas(game, card) -> tuple:
    """Walls and trenches of the table that ``card``'s mover class may not pass (cached per class)."""
    mover = mover_class(card)
    memo = game.geometry.__dict__.setdefault("_closed_for", {})
    if mover not in memo:
        rows = game.tables.crossing
        memo[mover] = tuple(a for a in game.geometry.areas if a.kind in THIN
                            and (r := rows.get((obstacle_of(a), mover))) is not None and not r["passes"])
    return memo[mover]


def _too_deep(card, depth: float) -> bool:
    """Deeper than ``card`` may enter: its fording depth (vehicles), twice it (infantry), as ``game.cell_cost``."""
    if card.propulsion == "foot":
        return depth > 2 * max(card.fording_depth_in, 0.25)
    return depth > card.fording_depth_in


def deep_water(game, card):
    """(geometry, ford discs) of the water ``card`` may not enter, or None: water features deeper than it may
    ford, less the discs of the fords it may wade (a ford's depth within its width of the ford point, at least
    1", as ``game.cell_cost``). Cached per (propulsion, fording depth)."""
    memo = game.geometry.__dict__.setdefault("_deep_for", {})
    key = (card.propulsion == "foot", card.fording_depth_in)
    if key not in memo:
        parts, discs = [], []
        for a in game.geometry.areas:
            f = a.data.get("feature")
            if f is None or f.depth_in is None or not _too_deep(card, float(f.depth_in)):
                continue
            wade = [shapely.buffer(shapely.points(*ford.at), max(ford.width_in, 1.0)) for ford in f.fords
                    if not _too_deep(card, ford.depth_in)]
            discs += wade
            parts.append(shapely.difference(a.geom, shapely.union_all(wade)) if wade else a.geom)
        memo[key] = (shapely.union_all(parts), shapely.union_all(discs) if discs else None) if parts else None
    return memo[key]


def openings(state, card, closed) -> tuple:
    """The crossings open to ``card``: ("deck", x0, y0, x1, y1, width) per bridge that carries it, ("point", x,
    y) per wall breach and filled trench length it may pass (only on closed walls and trenches)."""
    out = [("deck", b.x0, b.y0, b.x1, b.y1, b.width) for b in BR.usable(state, card)] if state.bridges else []
    mover = mover_class(card)
    for a in closed:
        if a.kind == "wall" and state.breaches.get(a.id):
            out += [("point", x, y) for x, y in DM.gaps(state, a, mover)]
        elif a.kind == "trench" and state.filled.get(a.id):
            out += [("point", x, y) for x, y in W.fill_points(state, a, card.base.width_in)]
    return tuple(sorted(out))


def nav_for(state, card):
    """The planner's grid for ``card`` in this state: the game's static grid, or the derived grid of the
    closures and openings that apply to it (module docstring)."""
    game = state.game
    base = game.nav(card)
    closed = closed_areas(game, card)
    opens = openings(state, card, closed)
    water = deep_water(game, card)
    if not closed and not opens and water is None:
        return base
    memo = base.__dict__.setdefault("_overlays", {})
    key = (tuple(a.id for a in closed), opens, water is not None)
    nav = memo.get(key)
    if nav is None:
        if len(memo) > 64:
            memo.clear()
        nav = memo[key] = derive(base, closed, opens, water)
        derived = game.__dict__.setdefault("_derived_navs", [])
        same = next((d for d in derived if np.array_equal(d.cost, nav.cost)), None)
        if same is not None:
            nav.fields = same.fields                  # the same costs, the same distance fields
        else:
            derived.append(nav)
            del derived[:-32]
    return nav


def _cells(nav, geom) -> list[tuple[int, int]]:
    """Raster cells whose square touches ``geom``."""
    x0, y0, x1, y1 = geom.bounds
    i0, j0 = max(0, int(math.floor(x0 / CELL))), max(0, int(math.floor(y0 / CELL)))
    i1, j1 = min(nav.nx - 1, int(math.floor(x1 / CELL))), min(nav.ny - 1, int(math.floor(y1 / CELL)))
    if i1 < i0 or j1 < j0:
        return []
    ii, jj = np.meshgrid(np.arange(i0, i1 + 1), np.arange(j0, j1 + 1), indexing="ij")
    ii, jj = ii.ravel(), jj.ravel()
    hit = shapely.intersects(shapely.box(ii * CELL, jj * CELL, (ii + 1) * CELL, (jj + 1) * CELL), geom)
    return list(zip(ii[hit].tolist(), jj[hit].tolist()))


def _geom(op):
    if op[0] == "deck":
        return BR._deck(*op[1:])
    return shapely.buffer(shapely.points(op[1], op[2]), OPEN_RADIUS_IN)


def derive(base, closed, opens, water=None):
    """A copy of ``base`` with ``closed`` areas' cells and the cells touching ``water`` (:func:`deep_water`; but
    those whose centre lies in a ford disc) impassable, the ``opens`` cells passable again (their static cost, 1
    where that is impassable water), its own distance fields and a ``snaps`` map cell -> opening."""
    nav = object.__new__(type(base))
    nav.__dict__.update(base.__dict__)
    nav.__dict__.pop("_overlays", None)
    if "_steps" in nav.__dict__:
        nav._steps = None                       # the grid's neighbour steps are derived from its costs
    nav.cost = base.cost.copy()
    nav.fields = {}
    nav.snaps = {}
    for area in closed:
        for c in _cells(nav, area.geom):
            nav.cost[c] = math.inf
    if water is not None:
        deep, discs = water
        for c in _cells(nav, deep):
            centre = ((c[0] + 0.5) * CELL, (c[1] + 0.5) * CELL)
            if discs is None or not shapely.intersects_xy(discs, *centre):
                nav.cost[c] = math.inf
    nav.weight = base.weight.copy()
    for op in opens:
        for c in _cells(nav, _geom(op)):
            static = base.cost[c]
            if not math.isfinite(static):
                nav.weight[c] = 1.0                 # a bridge's deck over impassable water: plain ground
            nav.cost[c] = static if math.isfinite(static) else 1.0
            nav.snaps.setdefault(c, op)
    return nav


def _snap(op, x: float, y: float) -> tuple[float, float]:
    if op[0] == "point":
        return op[1], op[2]
    _, x0, y0, x1, y1, _ = op
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / max(dx * dx + dy * dy, 1e-12)))
    return round(x0 + t * dx, 4), round(y0 + t * dy, 4)


def plan(state, card, x: float, y: float, goal, budget: float, field_at=None) -> list:
    """The planned path (``NavGrid.plan`` on :func:`nav_for`'s grid) with its points in opened cells moved onto
    their crossing, a bridge entered and left at its ends; the start and an exact goal are kept."""
    nav = nav_for(state, card)
    path = nav.plan(x, y, goal, budget, field_at)
    snaps = getattr(nav, "snaps", None)
    if not snaps or len(path) < 2:
        return path
    out = [path[0]]
    last, prev = len(path) - 1, None
    for k in range(1, len(path)):
        p = path[k]
        op = None if (k == last and tuple(p) == tuple(goal)) else snaps.get(nav.cell(*p))
        if op is not prev and prev is not None and prev[0] == "deck":
            _add(out, _end(prev, *p))                                        # off the bridge at its end
        if op is not prev and op is not None and op[0] == "deck":
            _add(out, _end(op, *out[-1]))                                    # onto the bridge at its end
        _add(out, _snap(op, *p) if op is not None else p)
        prev = op
    return out


def _end(op, x: float, y: float) -> tuple[float, float]:
    """The end of a bridge deck nearer (x, y)."""
    _, x0, y0, x1, y1, _ = op
    return (x0, y0) if math.hypot(x - x0, y - y0) <= math.hypot(x - x1, y - y1) else (x1, y1)


def _add(out: list, q) -> None:
    if math.hypot(q[0] - out[-1][0], q[1] - out[-1][1]) > 1e-9:
        out.append((float(q[0]), float(q[1])))


# ------------------------------------------------------------------ the exact path

def wade_stop(state, u, card, path: list) -> list:
    """The exact path stops 1/10" before water deeper than the unit may ford (BfOps p.11), unless it is on a
    bridge that carries it (p.19); a unit already in such water moves on."""
    water = deep_water(state.game, card) if len(path) >= 2 else None
    if water is None:
        return path
    deep = water[0]
    if state.bridges:
        decks = [b.deck() for b in BR.usable(state, card)]
        if decks:
            deep = shapely.difference(deep, shapely.union_all(decks))
    line = shapely.linestrings(path)
    if not shapely.intersects(line, deep) or shapely.intersects_xy(deep, *path[0]):
        return path
    points = shapely.points(shapely.get_coordinates(shapely.intersection(line, deep)))
    at = float(shapely.line_locate_point(line, points).min())                # where it first meets the water
    state.narrate(f"{u.id} stops at water deeper than it may ford (BfOps p.11)")
    return cut(path, max(0.0, at - 0.1))


def passes_free(state, u, card, path: list, at: float, area, mover: str) -> bool:
    """The obstacle entered ``at`` inches along the path is crossed freely: a trench under a bridge that carries
    the unit or filled across its base's width (BfOps p.19-20), a wall breached enough for its class (B113)."""
    if area.kind not in THIN:
        return False
    x, y = W.entry_point(path, at)
    if area.kind == "wall":
        free = DM.wall_open(state, area, x, y, mover)
    else:
        free = BR.on_bridge(state, card, x, y) or W.filled_at(state, area, x, y, card.base.width_in)
    if free:
        state.narrate(f"{u.id} passes {area.kind} {area.id} at a bridge, breach or fill (BfOps p.19-20)")
    return free
