"""Bridging units (BfOps p.19, digest c.19, B106/B107): truck-mounted bridges and AVLBs.

- A bridging unit (card capability ``bridging``: its type, the span it lays, the deck width) carries one bridge.
  In the command step, holding at the edge of a stream or trench (its base within the adjacency distance, table
  ``sequence``), it may be told ``bridge U`` (free: bridging units need no Command Card); while its element holds
  it lays the bridge after the deploy time of table ``bridging`` (truck-mounted and WARPAC AVLB 2 Move Phases,
  NATO AVLB 1 full Turn = the Turn's Move Phases). The bridge spans from the unit's spot to its mirror image
  across the gap's centre line (at most the card's span); the unit may then move off without it.
- ``lift U`` (free), holding at either end of its deployed bridge, takes the bridge up again after the same time.
- Capacity: table ``bridging`` (truck-mounted about 15 t, WARPAC AVLB 50 t, NATO AVLB 70 t; a card value
  overrides it, p.6). Option ``bridge-limit`` (A17): ``as-worded`` reads the truck's "up to that weight" as
  inclusive and the AVLB's "vehicles under the corresponding weight" as strict (column ``strict``); ``up-to``
  lets every bridge carry its rated weight.
- AVLBs move at most at Cruise (column ``cruise_only``: no double-time).
- A deployed bridge is a crossing for any unit it carries, of either side: the planner's raster opens it
  (:mod:`.crossings`), and on the exact path a unit on it neither fords (no cross-country cap) nor crosses the
  trench under it.
The truck's Soft-Unit status, the AVLB's halved front armour and its frontal machine gun are card data.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import shapely

GAPS = ("stream", "trench")      # BfOps p.19: streams not fordable, trenches too wide to be traversed


@dataclass(frozen=True, slots=True)
class Bridge:
    """A deployed bridge: its deck from (x0, y0) to (x1, y1), ``width`` inches wide, over gap area ``gap``,
    carrying units up to (``strict``: under) ``tons`` (fixed when laid: the bridge needs no unit to be used)."""

    unit: str
    x0: float
    y0: float
    x1: float
    y1: float
    width: float
    gap: str
    tons: float
    strict: bool

    def carries(self, card) -> bool:
        """The bridge carries a unit of ``card``'s weight (B106: 15 t may cross a 15 t bridge, 16 t may not)."""
        return card.weight_tons < self.tons if self.strict else card.weight_tons <= self.tons + 1e-9

    def deck(self):
        """The deck polygon (flat ends)."""
        return _deck(self.x0, self.y0, self.x1, self.y1, self.width)


@dataclass(frozen=True, slots=True)
class LayBridge:
    """Lay the unit's bridge across the gap at its edge (BfOps p.19)."""

    unit: str

    def __str__(self) -> str:
        return f"bridge {self.unit}"


@dataclass(frozen=True, slots=True)
class LiftBridge:
    """Lift the unit's deployed bridge (BfOps p.19)."""

    unit: str

    def __str__(self) -> str:
        return f"lift {self.unit}"


def _deck(x0: float, y0: float, x1: float, y1: float, width: float):
    return shapely.buffer(shapely.linestrings([(x0, y0), (x1, y1)]), width / 2, cap_style="flat")


# ------------------------------------------------------------------ data

def row_of(game, card) -> dict | None:
    """The table ``bridging`` row of a bridging card: ``truck_mounted`` or ``avlb_<bloc>``; None otherwise."""
    b = card.capabilities.bridging
    if b is None:
        return None
    key = "truck_mounted" if b.type == "truck_mounted" else f"avlb_{card.side.lower()}"
    return game.tables.bridging.get(key)


def capacity(game, card) -> tuple[float, bool]:
    """(rated tons, strict): the card's capacity if it gives one (cards override the rules, p.6), else the
    table's; strict (``under`` the weight) per option ``bridge-limit`` and column ``strict`` (A17)."""
    row = row_of(game, card)
    cap = card.capabilities.bridging.capacity_tons
    tons = float(cap if cap is not None else row["capacity_tons"])
    strict = game.options.get("bridge-limit") != "up-to" and bool(row["strict"])
    return tons, strict


def deploy_phases(game, card) -> int:
    """Move Phases to lay or lift: ``deploy_phases`` plus ``deploy_turns`` full Turns of Move Phases."""
    row = row_of(game, card)
    per_turn = max(1, int(game.tables.sequence["move_phases"]))
    return max(1, int(row["deploy_phases"]) + int(row["deploy_turns"]) * per_turn)


def cruise_only(state, element: str) -> bool:
    """An element with an AVLB (column ``cruise_only``) may not move faster than Cruise (BfOps p.19)."""
    g = state.game
    for u in state.units:
        if u.element == element:
            row = row_of(g, g.card_of(u))
            if row is not None and row["cruise_only"]:
                return True
    return False


# ------------------------------------------------------------------ laying and lifting

def _ready(state, u) -> bool:
    return not (u.disabled or u.immobilized or u.bogged or u.sup_move) and \
        state.orders.get(u.element, "hold") == "hold"


def span(state, u):
    """The bridge ``u`` would lay from where it stands: (x1, y1, gap id) or None. The nearest stream or trench
    within the adjacency distance of its base; the far end mirrors the unit's spot across the gap's centre line,
    lies outside the gap, on the table, and at most the card's span away."""
    g = state.game
    card = g.card_of(u)
    reach = g.tables.sequence["adjacent_in"]
    foot = g.footprint(u)
    for area, _ in g.geometry.areas_within(foot, reach, kinds=GAPS):          # nearest first
        f = area.data.get("feature")
        if f is None or f.shape != "polyline" or len(f.points) < 2:
            continue
        line = shapely.linestrings([tuple(p) for p in f.points])
        here = shapely.points(u.x, u.y)
        p = shapely.get_coordinates(shapely.line_interpolate_point(line, shapely.line_locate_point(line, here)))[0]
        x1, y1 = 2 * p[0] - u.x, 2 * p[1] - u.y
        if math.hypot(x1 - u.x, y1 - u.y) > card.capabilities.bridging.span_in + 1e-9:
            continue
        if not (0 <= x1 <= g.geometry.width and 0 <= y1 <= g.geometry.depth) or \
                area.geom.covers(shapely.points(x1, y1)):
            continue
        return round(float(x1), 3), round(float(y1), 3), area.id
    return None


def _task(state, uid: str) -> str | None:
    return next((k for k in state.work if k.split(":")[1] == uid and k.split(":")[0] in ("bridge", "lift")), None)


def bridge_actions(state, side: int) -> list:
    """``bridge U`` / ``lift U`` for the side's bridging units ready at a gap / at their bridge."""
    g = state.game
    out = []
    reach = g.tables.sequence["adjacent_in"]
    for u in state.units:
        if u.side != side or g.card_of(u).capabilities.bridging is None or not _ready(state, u):
            continue
        if _task(state, u.id) is not None:
            continue
        laid = state.bridges.get(u.id)
        if laid is None:
            if span(state, u) is not None:
                out.append(LayBridge(u.id))
        elif any(shapely.distance(g.footprint(u), shapely.points(x, y)) <= reach
                 for x, y in ((laid.x0, laid.y0), (laid.x1, laid.y1))):
            out.append(LiftBridge(u.id))
    return out


def order(state, action) -> None:
    """Start laying or lifting (no Command Card, BfOps p.19): the Move Phases are counted in ``state.work``."""
    u = state.unit(action.unit)
    if isinstance(action, LayBridge):
        gap = span(state, u)[2]
        state.work[f"bridge:{u.id}:{gap}"] = 0
    else:
        state.work[f"lift:{u.id}:{state.bridges[u.id].gap}"] = 0


def progress(state) -> None:
    """One Move Phase of laying or lifting for every bridging unit at it; a unit no longer holding there (moved,
    suppressed, disabled) drops the task."""
    g = state.game
    for key in sorted(k for k in state.work if k.split(":")[0] in ("bridge", "lift")):
        kind, uid, gap = key.split(":")
        u = state.unit(uid)
        if not _ready(state, u) or (kind == "bridge" and (span(state, u) or (0, 0, None))[2] != gap):
            del state.work[key]
            state.narrate(f"{uid} stops working at its bridge (BfOps p.19)")
            continue
        card = g.card_of(u)
        state.work[key] += 1
        need = deploy_phases(g, card)
        if state.work[key] < need:
            state.narrate(f"{uid} {'lays' if kind == 'bridge' else 'lifts'} its bridge: Move Phase "
                          f"{state.work[key]} of {need} (BfOps p.19)")
            continue
        del state.work[key]
        if kind == "lift":
            del state.bridges[uid]
            state.narrate(f"{uid} has lifted its bridge over {gap} (BfOps p.19)")
            continue
        x1, y1, _ = span(state, u)
        tons, strict = capacity(g, card)
        state.bridges[uid] = Bridge(uid, u.x, u.y, x1, y1, card.capabilities.bridging.width_in, gap, tons, strict)
        state.narrate(f"{uid} has laid its bridge over {gap}: it carries units {'under' if strict else 'up to'} "
                      f"{tons:g} t (BfOps p.19)")


# ------------------------------------------------------------------ crossing

def usable(state, card) -> list[Bridge]:
    """The deployed bridges that carry a unit of ``card``."""
    return [b for b in state.bridges.values() if b.carries(card)]


def on_bridge(state, card, x: float, y: float) -> bool:
    """(x, y) lies on a deployed bridge that carries ``card`` (within 1/10" of its deck)."""
    if not state.bridges:
        return False
    here = shapely.points(x, y)
    return any(shapely.distance(b.deck(), here) <= 0.1 for b in usable(state, card))


def fords(state, card, path: list) -> bool:
    """The path wades a stream (BfOps p.11: speed capped at cross-country Cruise) other than on a bridge that
    carries the unit (B106/B107)."""
    g = state.game
    wet = [a for a, _ in g.geometry.path_lengths(path, kinds=["stream"])]
    if not wet:
        return False
    decks = [b.deck().buffer(0.5) for b in usable(state, card)] if state.bridges else []
    if not decks:
        return True
    line = shapely.linestrings(path)
    dry = shapely.union_all(decks)
    return any(shapely.length(shapely.difference(shapely.intersection(line, a.geom), dry)) > 1e-6 for a in wet)
