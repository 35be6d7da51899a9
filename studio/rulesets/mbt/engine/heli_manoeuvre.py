"""Helicopter flight paths (MBT 6.7.5.2): the cheapest cost of reaching each hex and facing from a start hex and
facing within an allowance, by forward or reverse flight, side slips, pylon and funnel turns.

The rules searched (costs from table ``heli-movement-costs``, the slip minimum from ``air-values``):

- forward flight enters the hex in front (``forward``), reverse flight the hex behind (``reverse``); after each
  hex so entered the helicopter may turn one hexside, free (6.7.5.2.1: never at the start of a move);
- a side slip enters the hex ahead-left or ahead-right keeping the facing (``side-slip``), in reverse the hex
  behind-left or behind-right (``reverse-side-slip``); at least ``heli-slip-min`` hexes in one direction, a
  normal turn may follow its last hex, and a slip the other way needs a normal hex first (6.7.5.2.3);
- a pylon turn circles the hex in front, nose on it (``pylon``); a funnel turn circles the hex behind, tail on
  it (``funnel``); the other way round needs a normal hex first (6.7.5.2.4);
- forward and reverse manoeuvres never mix in one Air Phase (6.7.5.2.2): pylon turns and side slips are forward
  flight, funnel turns and reverse side slips reverse flight (the text calls the funnel turn the reverse
  variation).

Terrain never matters (6.7.5.2: the helicopter flies above it); only the map's hexes are entered. The result is a
pure function of its arguments and cached on the game."""
from __future__ import annotations

from typing import NamedTuple

from studio.hexgrid.coords import neighbour

#: the manoeuvres of table heli-movement-costs (MBT 6.7.5.2.1-6.7.5.2.4)
MANOEUVRES = ("forward", "reverse", "side-slip", "reverse-side-slip", "pylon", "funnel")

#: search modes: after a normal hex or the start, slipping, after a pylon/funnel hex, after a slip's closing turn
_NORMAL, _SLIP, _CIRCLE, _TURNED = range(4)


class FlightRules(NamedTuple):
    """The costs of each manoeuvre and the side-slip minimum (MBT 6.7.5.2)."""

    costs: dict
    slip_min: int


def _steps(rules: FlightRules, reverse: bool, nb, h: int, f: int, mode: int, slip: int, cnt: int, circle: int):
    """The moves from one search state (``h`` a hex index, ``nb[h][d]`` its neighbours, -1 off the map): a list of
    (cost, hex, facing, mode, slip side, slip count, circling side)."""
    c = rules.costs
    ns = nb[h]
    slip_cost = c["reverse-side-slip" if reverse else "side-slip"]
    if mode == _SLIP and cnt < rules.slip_min:  # a slip goes on to its minimum, the same way
        return [(slip_cost, ns[(f + 3 - slip) % 6 if reverse else (f + slip) % 6], f, _SLIP, slip, cnt + 1, circle)]
    nh = ns[(f + 3) % 6 if reverse else f]  # MBT 6.7.5.2.1-2: a normal hex, then a free turn of one hexside
    normal = c["reverse" if reverse else "forward"]
    out = [(normal, nh, f, _NORMAL, 0, 0, 0), (normal, nh, (f + 1) % 6, _NORMAL, 0, 0, 0),
           (normal, nh, (f - 1) % 6, _NORMAL, 0, 0, 0)]
    if mode == _SLIP:  # MBT 6.7.5.2.3: a normal turn may close a slip
        out += [(0, h, (f + 1) % 6, _TURNED, slip, 0, circle), (0, h, (f - 1) % 6, _TURNED, slip, 0, circle)]
    circ = c["funnel" if reverse else "pylon"]
    for s in (1, -1):
        if slip in (0, s):  # MBT 6.7.5.2.3: the other way only after a normal hex
            k = cnt + 1 if mode == _SLIP and slip == s else 1
            out.append((slip_cost, ns[(f + 3 - s) % 6 if reverse else (f + s) % 6], f, _SLIP, s,
                        min(k, rules.slip_min), circle))
        if circle in (0, s):  # MBT 6.7.5.2.4: pylon (nose on the hex in front), funnel (tail on the hex behind)
            out.append((circ, ns[(f + 3 + s) % 6 if reverse else (f + s) % 6], (f - s) % 6, _CIRCLE, slip, 0, s))
    return out


def _search(rules: FlightRules, nb, start: int, facing: int, budget: int, reverse: bool, best: dict, stop) -> None:
    """Dijkstra (buckets by cost) over (hex, facing, mode, slip side, slip count, circling side) in one direction
    of flight; ``best[(hex index, facing)]`` keeps the cheapest cost of a state that may end there; ``stop(cost)``
    ends the search before the states of that cost (nothing the caller needs can change any more)."""
    first = (start, facing, _NORMAL, 0, 0, 0)
    seen = {first: 0}
    normal: dict = {}
    buckets: list = [[] for _ in range(budget + 1)]
    buckets[0].append(first)
    for cost in range(budget + 1):
        if stop(cost):
            return
        level = buckets[cost]
        while level:
            state = level.pop()
            if seen[state] < cost:
                continue
            h, f, mode, slip, cnt, circle = state
            if mode == _NORMAL:
                if normal.get((h, f), budget + 1) <= cost and state != first:
                    continue
                normal[(h, f)] = cost
            elif mode != _SLIP and normal.get((h, f), budget + 1) <= cost:
                continue  # a normal hex at no more cost may do all this state may (no slip or circle limits)
            if not (mode == _SLIP and cnt < rules.slip_min) and cost < best.get((h, f), budget + 1):
                best[(h, f)] = cost
            for step, nh, nf, nmode, nslip, ncnt, ncircle in _steps(rules, reverse, nb, h, f, mode, slip, cnt,
                                                                    circle):
                total = cost + step
                if total > budget or nh < 0:
                    continue
                nxt = (nh, nf, nmode, nslip, ncnt, ncircle)
                if total < seen.get(nxt, budget + 1):
                    seen[nxt] = total
                    buckets[total].append(nxt)


def _neighbours(game) -> tuple:
    """Hex index tables of the map: (hexes, index of each hex, neighbours by direction, -1 off the map)."""
    got = game.__dict__.get("_heli_nb")
    if got is None:
        hexes = sorted(game.map.label_of)
        index = {h: k for k, h in enumerate(hexes)}
        nb = [[index.get(neighbour(h, d), -1) for d in range(6)] for h in hexes]
        got = game.__dict__["_heli_nb"] = (hexes, index, nb)
    return got


def _cached(game, kind: str, rules: FlightRules, start, facing: int, budget: int, goal=None):
    """Run the searches of both directions once per key (cached on ``game``): ``kind`` 'hexes' stops once every
    hex of the map is reached (a hex reached within the budget is all a flight's legality needs), 'goal' once the
    six facings of ``goal`` are settled; returns ``best`` over hex indexes."""
    cache = game.__dict__.setdefault("_heli_reach", {})
    key = (kind, start, facing, budget, goal, rules.slip_min, tuple(sorted(rules.costs.items())))
    got = cache.get(key)
    if got is not None:
        return got
    if len(cache) > 4096:
        cache.clear()
    hexes, index, nb = _neighbours(game)
    best: dict = {(index[start], facing): 0}
    if kind == "hexes":
        found: set = {index[start]}

        def stop(_cost):
            found.update(h for h, _f in best)
            return len(found) == len(nb)
    else:
        g = index[goal]

        def stop(cost):
            done = [best[(g, f)] for f in range(6) if (g, f) in best]
            return len(done) == 6 and cost >= max(done)
    for reverse in (False, True):
        _search(rules, nb, index[start], facing, budget, reverse, best, stop)
    got = cache[key] = best
    return got


def reachable(game, rules: FlightRules, start, facing: int, budget: int) -> frozenset:
    """The hexes a helicopter at ``start`` facing ``facing`` may end a flight in within ``budget`` (MBT 6.7.5.2),
    its own hex included."""
    hexes = _neighbours(game)[0]
    return frozenset(hexes[h] for h, _f in _cached(game, "hexes", rules, start, facing, budget))


def facing_costs(game, rules: FlightRules, start, facing: int, budget: int, goal) -> dict:
    """Facing -> the cheapest cost of a flight from ``start`` (facing ``facing``) that ends in ``goal`` with it,
    within ``budget`` (MBT 6.7.5.2; the start itself: its facing at cost 0)."""
    g = _neighbours(game)[1][goal]
    best = _cached(game, "goal", rules, start, facing, budget, goal)
    return {f: c for (h, f), c in best.items() if h == g}


__all__ = ["FlightRules", "MANOEUVRES", "facing_costs", "reachable"]
