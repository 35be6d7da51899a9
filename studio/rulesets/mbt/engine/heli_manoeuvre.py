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

#: search modes beyond the slip counts: after a normal hex or the start, after a pylon/funnel hex, after a slip's
#: closing turn; slipping with k hexes so far is mode SLIP0 + k - 1 (k = 1 .. slip minimum)
_NORMAL, _CIRCLE, _TURNED, _SLIP0 = range(4)


class FlightRules(NamedTuple):
    """The costs of each manoeuvre and the side-slip minimum (MBT 6.7.5.2)."""

    costs: dict
    slip_min: int


class _Space:
    """The search space of one map and rules, one direction of flight: state index
    ``((hex * 6 + facing) * modes + mode) * 9 + (slip side + 1) * 3 + (circling side + 1)`` and, per move kind, the
    target state of every state (-1: no such move) and its cost."""

    def __init__(self, nb, rules: FlightRules, reverse: bool):
        import numpy as np

        nh, k = len(nb), rules.slip_min
        modes = _SLIP0 + k
        self.modes, self.n = modes, nh * 6 * modes * 9
        idx = np.arange(self.n)
        cs, ss = idx % 3 - 1, (idx // 3) % 3 - 1
        mode = (idx // 9) % modes
        f = (idx // (9 * modes)) % 6
        h = idx // (9 * modes * 6)
        nbr = np.asarray(nb, dtype=np.int64)  # hex -> neighbour by direction, -1 off the map
        c = rules.costs
        back = 3 if reverse else 0
        slipping = mode >= _SLIP0
        count = np.where(slipping, mode - _SLIP0 + 1, 0)
        forced = slipping & (count < k)  # a slip goes on to its minimum, the same way (MBT 6.7.5.2.3)
        free = ~forced

        def state(hh, ff, mm, s2, c2):
            ok = hh >= 0
            out = (((np.where(ok, hh, 0) * 6 + ff % 6) * modes + mm) * 9 + (s2 + 1) * 3 + (c2 + 1))
            return np.where(ok, out, -1)

        moves = []
        for turn in (0, 1, -1):  # MBT 6.7.5.2.1-2: a normal hex, then a free turn of one hexside
            t = state(nbr[h, (f + back) % 6], f + turn, np.full_like(h, _NORMAL), 0 * h, 0 * h)
            moves.append((np.where(free, t, -1), c["reverse" if reverse else "forward"]))
        slip_cost = c["reverse-side-slip" if reverse else "side-slip"]
        circle_cost = c["funnel" if reverse else "pylon"]
        for side in (1, -1):
            d = (f + 3 - side) % 6 if reverse else (f + side) % 6
            go_on = slipping & (ss == side)
            nmode = np.where(go_on, np.minimum(count + 1, k) - 1 + _SLIP0, _SLIP0)
            t = state(nbr[h, d], f, nmode, np.full_like(h, side), cs)
            ok = (ss == 0) | (ss == side)  # the other way only after a normal hex (MBT 6.7.5.2.3)
            moves.append((np.where(ok & (free | go_on), t, -1), slip_cost))
            d = (f + 3 + side) % 6 if reverse else (f + side) % 6  # pylon: nose on the hex in front; funnel: tail
            t = state(nbr[h, d], f - side, np.full_like(h, _CIRCLE), ss, np.full_like(h, side))
            ok = (cs == 0) | (cs == side)  # MBT 6.7.5.2.4
            moves.append((np.where(ok & free, t, -1), circle_cost))
        closing = slipping & ~forced  # MBT 6.7.5.2.3: a normal turn may close a slip
        self.turns = [np.where(closing, state(h, f + turn, np.full_like(h, _TURNED), ss, cs), -1) for turn in (1, -1)]
        self.moves = moves
        self.ends = ~forced  # states a flight may end in (no slip short of its minimum)

    def search(self, start: int, facing: int, budget: int):
        """Cheapest cost of each state from (``start``, ``facing``) within ``budget`` (inf: out of reach): a
        Dijkstra by cost levels over every state at once (costs are small integers)."""
        import numpy as np

        inf = budget + 1
        dist = np.full(self.n, inf, dtype=np.int32)
        dist[(start * 6 + facing) * self.modes * 9 + 4] = 0  # mode normal, no slip or circle side
        for level in range(budget + 1):
            frontier = np.flatnonzero(dist == level)
            if frontier.size == 0:
                continue
            for turn in self.turns:  # the cost-0 closing turns stay in this level (their targets turn no more)
                tgt = turn[frontier]
                tgt = tgt[tgt >= 0]
                if tgt.size:
                    better = tgt[dist[tgt] > level]
                    dist[better] = level
                    frontier = np.concatenate((frontier, better))
            for tgt_of, cost in self.moves:
                nxt = level + cost
                if nxt > budget:
                    continue
                tgt = tgt_of[frontier]
                tgt = tgt[tgt >= 0]
                dist[tgt] = np.minimum(dist[tgt], nxt)
        return dist


def _neighbours(game) -> tuple:
    """Hex index tables of the map: (hexes, index of each hex, neighbours by direction, -1 off the map)."""
    got = game.__dict__.get("_heli_nb")
    if got is None:
        hexes = sorted(game.map.label_of)
        index = {h: k for k, h in enumerate(hexes)}
        nb = [[index.get(neighbour(h, d), -1) for d in range(6)] for h in hexes]
        got = game.__dict__["_heli_nb"] = (hexes, index, nb)
    return got


def _costs(game, rules: FlightRules, start, facing: int, budget: int):
    """Cheapest cost of every (hex index, facing) over both directions of flight: an array (hexes, 6), more than
    ``budget`` where out of reach; cached on ``game`` per start and facing (a search with a larger budget
    answers a smaller one: its costs up to the budget are the same)."""
    import numpy as np

    cache = game.__dict__.setdefault("_heli_reach", {})
    key = (start, facing, rules.slip_min, tuple(sorted(rules.costs.items())))
    got = cache.get(key)
    if got is not None and got[0] >= budget:
        return got[1]  # costs within a larger budget are the same cheapest costs
    if len(cache) > 4096:
        cache.clear()
    hexes, index, nb = _neighbours(game)
    spaces = game.__dict__.setdefault("_heli_space", {})
    best = None
    for reverse in (False, True):
        sk = (reverse, rules.slip_min, tuple(sorted(rules.costs.items())))
        if sk not in spaces:
            spaces[sk] = _Space(nb, rules, reverse)
        sp = spaces[sk]
        dist = np.where(sp.ends, sp.search(index[start], facing, budget), budget + 1)
        per = dist.reshape(len(nb), 6, sp.modes * 9).min(axis=2)
        best = per if best is None else np.minimum(best, per)
    cache[key] = (budget, best)
    return best


def reachable(game, rules: FlightRules, start, facing: int, budget: int) -> frozenset:
    """The hexes a helicopter at ``start`` facing ``facing`` may end a flight in within ``budget`` (MBT 6.7.5.2),
    its own hex included."""
    import numpy as np

    hexes = _neighbours(game)[0]
    best = _costs(game, rules, start, facing, budget)
    return frozenset(hexes[k] for k in np.flatnonzero(best.min(axis=1) <= budget))


def facing_costs(game, rules: FlightRules, start, facing: int, budget: int, goal) -> dict:
    """Facing -> the cheapest cost of a flight from ``start`` (facing ``facing``) that ends in ``goal`` with it,
    within ``budget`` (MBT 6.7.5.2; the start itself: its facing at cost 0)."""
    row = _costs(game, rules, start, facing, budget)[_neighbours(game)[1][goal]]
    return {f: int(c) for f, c in enumerate(row) if c <= budget}


__all__ = ["FlightRules", "MANOEUVRES", "facing_costs", "reachable"]
