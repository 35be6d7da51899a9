"""MBT bots: a heuristic bot (and a passive baseline) that play through the same legal actions as anyone else.

The heuristic bot sees only its side's observation (enemy commands stay hidden). It
- places commands by situation: Fire from cover at a spotted target, Short Halt when it must advance and can
  shoot, Move toward its objective, Overwatch when it holds its ground without a target (MBT 4.2.1);
- fires at the target with the highest expected kill (hit number x chance that the penetration result destroys
  or damages, weighted by the target's threat), using the same modifier code as the rules (MBT 4.4.3);
- fires overwatch when the expected kill is worth it (MBT 4.4.2);
- moves with a macro action: a cheapest-path plan over (hex, facing) toward its objective (objective hexes of its
  side, exit edge, or the enemy's objectives to defend), preferring cover at the end of the move, expanded into
  primitive ``turn``/``fwd`` steps that are checked by the rules like any other action (MBT 4.5.1.1).
"""
from __future__ import annotations

import heapq
import random
import weakref

from studio.hexgrid.coords import distance, neighbour, neighbours
from studio.hexgrid.facing import Aspect, hit_aspect

from .engine.codes import SH
from .engine.game import BANDS, ON, WAIT, Action, MbtGame, MbtState
from .engine.state import LazyView

COVER_SCORE = {"none": 0.0, "light": 1.0, "medium": 2.0, "heavy": 3.0}


def expected_kill(state: MbtState, s: int, t: int, row, overwatch: bool) -> float:
    """Probability that this shot knocks out (1.0) or damages (0.4; 1.0 if already damaged) the target."""
    net, band = state.hit_modifiers(s, t, row, overwatch)
    if band is None:
        return 0.0
    p_hit = state.game.tables.ap_hit.get((net, band), 0) / 100.0
    if p_hit <= 0:
        return 0.0
    ut = state.game.units[t].type
    asp = hit_aspect(state.hex[t], state.fac[t], state.hex[s]) if state.hex[s] != state.hex[t] else Aspect.FRONT
    armor = ut.armor_rear if asp is Aspect.REAR else ut.armor_front
    pen = row.pens[BANDS.index(band)] or 0
    d = pen - armor
    if d < 0:
        return 0.0
    if d <= 3:
        return p_hit * (1.0 if state.dmg[t] else 0.4)
    return p_hit


def _epoch(state: MbtState) -> tuple:
    """Every fact ``expected_kill`` reads that play can change (positions, facings, status, commands, wrecks)."""
    return (state.turn, tuple(state.hex), tuple(state.fac), tuple(state.st), tuple(state.dmg), tuple(state.cmd),
            tuple(state.rev), tuple(sorted(state.wreck.items())), tuple(sorted(state.bu_new)))


def _place_epoch(state: MbtState) -> tuple:
    """``_epoch`` without the commands and reveals (``shot_facts`` adds the few a shot reads to its key): the
    facts that hold through a Command Phase and the announcements of a Direct Fire step."""
    return (state.turn, tuple(state.hex), tuple(state.fac), tuple(state.st), tuple(state.dmg),
            tuple(sorted(state.wreck.items())), tuple(sorted(state.bu_new)))


def shot_facts(state: MbtState, s: int, t: int) -> tuple:
    """The command facts a shot's hit number reads: a Short Halt shooter, a revealed target's command (MBT
    4.4.3.2.2, ``MbtState.hit_modifiers``); part of the remembered shot value's key."""
    return (state.cmd[s] == SH, state.cmd[t] if state.rev[t] else -1)


def threat(game: MbtGame, t: int) -> float:
    ut = game.units[t].type
    if not ut.ap:
        return 0.5
    return 1.0 + max(max(p for p in r.pens if p is not None) for r in ut.ap) / 100.0


_NO_MEMO: dict = {}  # never written: ``_action_values`` of a state that does not cache
_NOT_A_SHOT = float("-inf")  # the remembered value of an action that is not a shot (``hold``, ``pass``)


class PassiveBot:
    """Baseline: every vehicle stays put with NC; passes every decision it can."""

    name = "passive"

    def __init__(self, game: MbtGame, side: int, seed: int):
        self.game, self.side = game, side

    def choose(self, view, legal):
        for a in legal:
            if a[0] in ("pass", "done") or (a[0] == "command" and a[2] == "NC"):
                return a
        for a in legal:
            if a[0] in ("fire", "reveal", "initiative", "hold"):
                return a
        return legal[0]


class HeuristicBot:
    name = "heuristic"

    def __init__(self, game: MbtGame, side: int, seed: int):
        self.side = side
        self.rng = random.Random(seed)
        self.plan: list[Action] = []
        self.plan_unit = -1
        self._ek: dict = {}
        self._ek_epoch = self._ek_view = None
        self._av: dict = {}
        self._av_epoch = self._av_view = None
        self._bind(game)

    def _bind(self, game: MbtGame) -> None:
        """Read the objectives of ``game``: the game the states are of (a position's game has its own units)."""
        self.game = g = game
        side = self.side
        own, enemy, exits = [], [], []
        for v in g.scenario.victory:
            if v.type == "hold_hexes":
                hexes = [g.map.hex(h) for h in v.hexes if h in g.map.hex_of]
                (own if v.side == g.sides[side] else enemy).extend((h, v.points) for h in hexes)
            elif v.type == "exit_units" and v.side == g.sides[side] and v.edge:
                exits.append((v.edge, v.points))
        self.own_obj = own
        self.enemy_obj = enemy
        self.exit_edges = exits
        self.exit_hexes = {h for e, _ in exits for h in g.map.edge_hexes(e)}
        self.goal_of: dict[int, tuple] = {}
        mine = [k for k in range(g.n) if g.units[k].side == side]
        self._rank = {k: n for n, k in enumerate(mine)}  # a vehicle's place among its side's vehicles

    # ---------------------------------------------------------------- goals
    def goal(self, state, i: int):
        """The hex vehicle ``i`` heads for."""
        g = self.game
        h = state.hex[i] if state.st[i] != WAIT else g.units[i].entry_hexes[len(g.units[i].entry_hexes) // 2]
        cands = []
        rank = self._rank.get(i, 0)
        if self.own_obj:
            objs = sorted(self.own_obj, key=lambda x: (-x[1], x[0]))
            uncontrolled = [o for o in objs if state.control.get(o[0]) != self.side] or objs
            target = uncontrolled[rank % len(uncontrolled)][0]
            cands.append(target)
        if self.exit_hexes and (not cands or rank % 3 == 2):
            cands = [min(self.exit_hexes, key=lambda x: distance(h, x))]
        if not cands:
            # no ground of its own to take: hunt the nearest enemy vehicle on the map (kills score)
            enemies = [state.hex[k] for k in range(g.n) if g.units[k].side != self.side and state.st[k] == 1]
            if enemies:
                cands = [min(enemies, key=lambda x: (distance(h, x), x))]
        if not cands and self.enemy_obj:
            objs = sorted(self.enemy_obj, key=lambda x: (-x[1], x[0]))
            cands.append(objs[rank % len(objs)][0])
        if not cands:
            enemies = [state.hex[k] for k in range(g.n) if g.units[k].side != self.side and state.st[k] == 1]
            cands = [min(enemies, key=lambda x: distance(h, x))] if enemies else [h]
        return cands[0]

    # ---------------------------------------------------------------- choose
    def choose(self, view, legal):
        if len(legal) == 1:
            return legal[0]
        plan = self.plan
        if plan and plan[0] in legal:
            # the next step of the macro move (only the moving vehicle's primitives are legal then): decided
            # from the legal actions alone, without building the view
            return plan.pop(0)
        if isinstance(view, LazyView):
            view = view.materialize()
        if view.game is not self.game:
            self._bind(view.game)
        state = view  # the observation: a state with the enemy's hidden commands unknown
        phase = state.phase_id()
        kind = legal[0][0]
        if kind == "command":
            return self.command(view, state, legal)
        if kind == "initiative":
            return next(a for a in legal if a[1] == "first")
        if kind in ("reveal", "conceal"):
            return next(a for a in legal if a[0] == "reveal")
        if kind in ("pass", "ow"):  # overwatch decisions list "pass" first (MbtState.legal_actions)
            return self.overwatch(state, legal)
        if phase.startswith("direct-fire"):
            return self.fire(state, legal)
        if phase.startswith("move"):
            return self.move(state, legal)
        return legal[0]

    def command(self, view, state, legal):
        g = self.game
        i = g.uindex[legal[0][1]]  # the vehicle being commanded
        opts = {a[2]: a for a in legal}
        if state.st[i] == WAIT:
            return opts.get("MOVE", legal[0])
        goal = self.goal(state, i)
        here = state.hex[i]
        gd = distance(here, goal)
        cover = COVER_SCORE.get(g.cover.get(here, "none"), 0)
        at_goal = gd == 0 or (not self.own_obj and not self.exit_hexes and gd <= 2)
        if "FIRE" in opts:
            if at_goal or ((cover >= 1 or gd > 6) and self.worth_firing(state, i)):
                return opts["FIRE"]
            if "SH" in opts:
                return opts["SH"]
            return opts["FIRE"]
        if at_goal:
            return opts.get("OW", opts.get("NC", legal[0]))
        return opts.get("MOVE", legal[0])

    def worth_firing(self, state, i: int) -> bool:
        """Has vehicle ``i`` a shot at a target it spotted with a threat-weighted expected kill of 0.3 or more?"""
        return any(self.shot_value(state, i, t, row, False) >= 0.3
                   for t, row in state.fire_options(i, state.spots[i]))

    def _best_shot(self, state, legal, kind: str, overwatch: bool, floor: float):
        """The ``kind`` action ('fire' or 'ow') with the highest threat-weighted expected kill above ``floor``
        (the first such in legal order)."""
        values = self._action_values(state)
        if values is not _NO_MEMO:
            return self._best_remembered(state, legal, kind, overwatch, floor, values)
        best, score = None, floor
        for a in legal:
            if a[0] != kind:
                continue
            ek = values.get(a)
            if ek is None:
                g = self.game
                s, t = g.uindex[a[1]], g.uindex[a[2]]
                ek = self.shot_value(state, s, t, self._row(s, a[3]), overwatch)
                if values is not _NO_MEMO:
                    values[a] = ek
            if ek > score:
                best, score = a, ek
        return best, score

    def _best_remembered(self, state, legal, kind: str, overwatch: bool, floor: float, values: dict):
        """``_best_shot`` through the remembered values (``_action_values``; other kinds of action remembered as
        -inf): one lookup per legal action, the highest value above ``floor``, the first in legal order on a tie."""
        found = list(map(values.get, legal))
        if None in found:
            g = self.game
            for n, a in enumerate(legal):
                if found[n] is None:
                    if a[0] != kind:
                        found[n] = values[a] = _NOT_A_SHOT
                        continue
                    s, t = g.uindex[a[1]], g.uindex[a[2]]
                    found[n] = values[a] = self.shot_value(state, s, t, self._row(s, a[3]), overwatch)
        score = max(found, default=_NOT_A_SHOT)
        if score > floor:
            return legal[found.index(score)], score
        return None, floor

    def _row(self, s: int, key: str):
        """Vehicle ``s``'s AP row ``key``."""
        key = key.split("+")[0]  # a declared variant (``+pin`` 7.18, ``+cis`` 7.48) fires the same row
        return next(r for r in self.game.units[s].type.ap if r.key == key)

    def _action_values(self, state) -> dict:
        """Shot values by action for the facts of ``state`` (``_epoch``: they hold through the announcements of
        a Direct Fire step); ``_NO_MEMO`` when the state does not cache, or when a subclass values shots its
        own way (``shot_value`` overridden: the facts it reads are its own)."""
        if not state.caching or type(self).shot_value is not HeuristicBot.shot_value:
            return _NO_MEMO
        if state is not self._av_view:
            self._av_view = state
            epoch = _epoch(state)
            if epoch != self._av_epoch:
                self._av_epoch, self._av = epoch, {}
        return self._av

    def shot_value(self, state, s: int, t: int, row, overwatch: bool) -> float:
        """Threat-weighted expected kill of a shot, remembered while no fact it reads changes: the places
        (``_place_epoch``) and the shot's command facts (``shot_facts``); announcing shots changes none of them
        (MBT 4.4.1), nor does commanding a vehicle other than Short Halt."""
        if not state.caching:
            return expected_kill(state, s, t, row, overwatch) * threat(self.game, t)
        if state is not self._ek_view:  # a new view: its epoch (the view itself never changes)
            self._ek_view = state
            epoch = _place_epoch(state)
            if epoch != self._ek_epoch:
                self._ek_epoch = epoch
                self._ek = {}
        key = (s, t, row.key, overwatch, shot_facts(state, s, t))
        value = self._ek.get(key)
        if value is None:
            value = self._ek[key] = expected_kill(state, s, t, row, overwatch) * threat(self.game, t)
        return value

    def fire(self, state, legal):
        best, _ = self._best_shot(state, legal, "fire", False, -1.0)
        return best or legal[0]

    def overwatch(self, state, legal):
        best, score = self._best_shot(state, legal, "ow", True, 0.0)
        threshold = 0.12 if state.phase_id().startswith("move") else 0.2
        if best is not None and score >= threshold:
            return best
        return next((a for a in legal if a[0] == "pass"), legal[0])

    # ---------------------------------------------------------------- movement (macro action)
    def move(self, state, legal):
        g = self.game
        legal_set = set(legal)
        while self.plan:
            a = self.plan[0]
            if a in legal_set and (state.mv_u < 0 or g.uindex[a[1]] == state.mv_u):
                self.plan.pop(0)
                return a
            self.plan = []
        # pick the next unit (the active one, or the first in unit order)
        if state.mv_u < 0:
            return min(legal, key=lambda a: g.uindex[a[1]])
        i = state.mv_u
        self.plan = macro_move(state, i, self.goal(state, i), self)
        for a in list(self.plan):
            if a in legal_set:
                self.plan.pop(0)
                return a
            break
        self.plan = []
        name = g.units[i].name
        for a in legal:
            if a[1] == name and a[0] == "done":
                return a
        return next((a for a in legal if a[1] == name), legal[0])


def macro_move(state: MbtState, i: int, goal, bot: HeuristicBot | None = None) -> list[Action]:
    """A macro move: primitive actions taking vehicle ``i`` as far toward ``goal`` as its allowance allows,
    ending in the best-covered hex among the equally good ones. Each primitive is checked when played."""
    g = state.game
    name = g.units[i].name
    if state.st[i] == WAIT:
        return _entry_move(state, i, goal)
    if bot is not None and state.hex[i] in bot.exit_hexes:
        here = state.hex[i]
        for nf in range(6):
            if neighbour(here, nf) not in g.map.label_of:
                return _turns(name, state.fac[i], nf) + [Action(("exit", name))]
    probe = state if state.mv_u == i else state.planning_state(i)  # the search only reads the moving state
    start = (probe.hex[i], probe.fac[i])
    if start[0] == goal:
        return [Action(("done", name))]
    dist, prev, first_exception, cheapest = _reachable(probe, i, start)
    best = _best_end(state, i, goal, cheapest, start)
    if best == start and first_exception is not None and distance(first_exception[0], goal) < distance(start[0], goal):
        b, nf = first_exception
        return _turns(name, start[1], nf) + [Action(("fwd", name)), Action(("done", name))]
    path = []
    node = best
    while node != start:
        path.append(node)
        node = prev[node]
    path.reverse()
    actions: list[Action] = []
    f = start[1]
    for h, nf in path:
        actions += _turns(name, f, nf)
        actions.append(Action(("fwd", name)))
        f = nf
    actions.append(Action(("done", name)))
    return actions


def _entry_move(state: MbtState, i: int, goal) -> list[Action]:
    """An off-map vehicle enters at the free entry hex nearest its goal."""
    g = state.game
    name = g.units[i].name
    entries = [h for h in g.units[i].entry_hexes if not state.enemies_in(h, g.units[i].side)]
    if not entries:
        return [Action(("done", name))]
    h = min(entries, key=lambda x: (distance(x, goal), x))
    return [Action(("enter", name, g.label(h)))]


def _reachable(probe: MbtState, i: int, start) -> tuple[dict, dict, tuple | None, list]:
    """Dijkstra over (hex, facing) within the allowance: turn to a facing (first hexside free, more costs the
    Turn value), then forward. Returns distances, predecessors, the first step beyond the allowance from the
    start (the one-hex exception) and each hex's cheapest facing. Cross-country it reads the compiled step table
    (``MbtState.xc_steps``) and is remembered per game by what it depends on (traction, start, allowance, Brew-Up
    Smoke hexes). ``probe`` is only read."""
    if probe.mv_mode != "xc":
        return _planned(_search(probe, i, start, _state_steps(probe, i)))
    g = probe.game
    smoke = frozenset(h for h, w in probe.wreck.items() if w == 2)
    if not probe.caching:
        return _planned(_search(probe, i, start, _table_steps(probe.xc_steps(i), smoke, g.tables.bu_move_cost)))
    memo = _PLANS.setdefault(g, {})
    traction = g.units[i].type.traction
    key = (traction, start, probe.mv_left, smoke)
    found = memo.get(key)
    if found is None:
        if len(memo) > 20_000:
            memo.clear()
        moves = _compiled_moves(probe, i, traction, smoke)
        found = memo[key] = _planned(_search(probe, i, start, moves.steps, moves))
    return found


_PLANS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # game -> plan key -> _search result
MbtGame.derived_caches.append(_PLANS)
_MOVES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # game -> (traction, smoke) -> _Moves
MbtGame.derived_caches.append(_MOVES)


def _compiled_moves(probe: MbtState, i: int, traction, smoke: frozenset) -> "_Moves":
    """The cross-country steps of a traction as ``_Moves``, per game and Brew-Up Smoke hexes (compiled as the
    searches reach the hexes; the hexes away from smoke shared with the smoke-free table)."""
    per_game = _MOVES.setdefault(probe.game, {})
    moves = per_game.get((traction, smoke))
    if moves is None:
        table = probe.xc_steps(i)
        base = per_game.get((traction, frozenset()))
        if base is None:
            base = per_game[(traction, frozenset())] = _Moves(table.__getitem__, probe.game.turn_cost)
        if not smoke:
            return base
        if len(per_game) > 64:
            per_game.clear()
            per_game[(traction, frozenset())] = base
        moves = per_game[(traction, smoke)] = _Moves(_table_steps(table, smoke, probe.game.tables.bu_move_cost),
                                                     probe.game.turn_cost, base, _next_to(smoke, table), smoke)
    return moves


def _next_to(smoke: frozenset, table: dict) -> frozenset:
    """The hexes of ``table`` next to a smoke hex (the ones whose steps smoke changes)."""
    return frozenset(h for b in smoke for f in range(6) for h in (neighbour(b, f),) if h in table)


class _Moves(dict):
    """Hex -> for each facing, its forward steps ``((neighbour, new facing), cost, free turn)`` in new-facing
    order, the cost with the hex's Turn value (``turn_cost``) when the turn to the new facing pays it (2-3
    hexsides), prohibited steps and paid turns where no Turn value is given left out: ``steps`` (six (neighbour,
    cost or None) a hex) compiled for ``_search`` as hexes are first read. With ``base`` (the smoke-free moves),
    the hexes outside ``own`` (those next to ``smoke``) are ``base``'s, and an ``own`` hex's moves are shared
    through ``base.adjusted`` by the smoke hexes next to it (the only ones that change its steps)."""

    __slots__ = ("steps", "turn_cost", "base", "own", "smoke", "adjusted")

    def __init__(self, steps, turn_cost: dict, base: "_Moves | None" = None, own: frozenset = frozenset(),
                 smoke: frozenset = frozenset()):
        super().__init__()
        self.steps, self.turn_cost, self.base, self.own, self.smoke = steps, turn_cost, base, own, smoke
        self.adjusted: dict = {}  # (hex, smoke hexes next to it) -> moves (on the smoke-free moves only)

    def __missing__(self, h):
        base = self.base
        if base is None:
            value = _compile_row(self.steps(h), self.turn_cost.get(h))
        elif h not in self.own:
            value = base[h]
        else:
            key = (h, frozenset(b for b in neighbours(h) if b in self.smoke))
            value = base.adjusted.get(key)
            if value is None:
                value = base.adjusted[key] = _compile_row(self.steps(h), self.turn_cost.get(h))
        self[h] = value
        return value


def _compile_row(row: tuple, turn) -> tuple:
    """``_Moves``' value of a hex from its six (neighbour, cost or None) and its Turn value (None: no turn of
    2-3 hexsides there)."""
    paid_cost = int(turn) if turn is not None else None
    out = []
    for f in range(6):
        steps = []
        for nf, paid in _TURNS[f]:
            b, c = row[nf]
            if c is None or (paid and paid_cost is None):
                continue
            tcost = paid_cost if paid else 0
            steps.append(((b, nf), tcost + c, tcost == 0))
        out.append(tuple(steps))
    return tuple(out)


def _planned(found: tuple) -> tuple:
    """A search result with the cheapest facing of each hex (``_cheapest``) added."""
    return (*found, _cheapest(found[0]))


def _table_steps(table: dict, smoke: frozenset, bu: int):
    """The forward steps of a hex from the compiled table, Brew-Up Smoke added (MBT 4.5.1.1.2): only the hexes
    next to smoke differ from the table."""
    if not smoke:
        return table.__getitem__
    adjusted = {}
    for b in smoke:
        for f in range(6):
            h = neighbour(b, f)
            if h in table and h not in adjusted:
                adjusted[h] = tuple((x, c + bu if c is not None and x in smoke else c) for x, c in table[h])

    def steps(h):
        return adjusted.get(h) or table[h]
    return steps


def _state_steps(probe: MbtState, i: int):
    """The forward steps of a hex through ``step_cost`` (any movement mode)."""
    on_map = probe.game.map.label_of

    def steps(h):
        out = []
        for nf in range(6):
            b = neighbour(h, nf)
            out.append((b, probe.step_cost(i, h, b) if b in on_map else None))
        return tuple(out)
    return steps


_TURNS = tuple(tuple((nf, 2 <= (nf - f) % 6 <= 4) for nf in range(6)) for f in range(6))  # (new facing, paid)


def _search(probe: MbtState, i: int, start, steps, moves: "_Moves | None" = None) -> tuple[dict, dict, tuple | None]:
    """The Dijkstra of ``_reachable`` over ``steps(hex)`` = six (neighbour, cost or None) (read through
    ``moves``, their compiled form, when given). Every step costs at least 1, so the nodes at each distance are
    settled in one bucket, taken in node order (the order a heap of (distance, node) pops them: the same
    distances, predecessors and insertion order); a step of cost 0 (no such terrain in the data) falls back to
    the heap."""
    if moves is None:
        moves = _Moves(steps, probe.game.turn_cost)
    budget = probe.mv_left
    dist = {start: 0}
    prev: dict = {}
    first_exception = None
    seen = dist.get
    buckets: list[list] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    for d in range(budget + 1):
        bucket = buckets[d]
        if not bucket:
            continue
        bucket.sort()
        for node in bucket:
            if dist[node] != d:
                continue
            for key, cost, free in moves[node[0]][node[1]]:  # 2-3 hexsides pay the Turn value (in ``cost``)
                nd = d + cost
                if nd > budget:
                    if first_exception is None and free and node == start:
                        first_exception = key
                    continue
                if nd == d:
                    return _heap_search(probe, start, steps)
                old = seen(key)
                if old is None or nd < old:
                    dist[key] = nd
                    prev[key] = node
                    buckets[nd].append(key)
    return dist, prev, first_exception


def _heap_search(probe: MbtState, start, steps) -> tuple[dict, dict, tuple | None]:
    """``_search`` with a heap (any step costs, 0 included)."""
    budget = probe.mv_left
    dist = {start: 0}
    prev: dict = {}
    heap = [(0, start)]
    first_exception = None
    turn_cost = probe.game.turn_cost
    while heap:
        d, node = heapq.heappop(heap)
        if d > dist[node]:
            continue
        h, f = node
        row = steps(h)
        tc = turn_cost.get(h)
        paid_cost = int(tc) if tc is not None else None
        for nf, paid in _TURNS[f]:
            b, c = row[nf]
            if c is None or (paid and paid_cost is None):
                continue
            tcost = paid_cost if paid else 0
            nd = d + tcost + c
            if nd > budget:
                if first_exception is None and tcost == 0 and node == start:
                    first_exception = (b, nf)
                continue
            key = (b, nf)
            old = dist.get(key)
            if old is None or nd < old:
                dist[key] = nd
                prev[key] = node
                heapq.heappush(heap, (nd, key))
    return dist, prev, first_exception


def _best_end(state: MbtState, i: int, goal, cheapest: list, start):
    """The reachable (hex, facing) nearest the goal, in the best cover, cheapest; never with opposing vehicles
    (the first such in search order on a tie). Only each hex's cheapest facing can win, so the hexes are scored
    once each (``_cheapest``, remembered with the search), and the best end is remembered with the search by
    goal, start and the opposing vehicles' hexes it can reach."""
    g = state.game
    side = g.units[i].side
    st, hexes = state.st, state.hex
    reach = cheapest.hexes
    enemy = frozenset(h for h in (hexes[k] for k in g.enemies_of(side) if st[k] == ON) if h in reach)
    key = (goal, start, enemy)
    found = cheapest.best.get(key) if state.caching else None
    if found is None:
        found = cheapest.best[key] = _best_scored(g.cover, goal, cheapest, start, enemy)
    return found


def _best_scored(cover: dict, goal, cheapest: list, start, enemy: frozenset):
    """``_best_end`` once the opposing vehicles' hexes among the reachable ones are known."""
    best, best_score = start, None
    for h, f, d in cheapest:
        if h in enemy and (h, f) != start:
            continue
        score = -3.0 * distance(h, goal) + 0.8 * COVER_SCORE.get(cover.get(h, "none"), 0) - 0.01 * d
        if best_score is None or score > best_score:
            best, best_score = (h, f), score
    return best


def _cheapest(dist: dict) -> list[tuple]:
    """``(hex, facing, cost)`` of the first-found cheapest facing of each hex of a search, in search order; with
    opposing vehicles in a hex all its facings are excluded alike (the start excepted, which costs 0 and comes
    first), so the best end is among these."""
    best: dict = {}
    for n, ((h, f), d) in enumerate(dist.items()):
        old = best.get(h)
        if old is None or d < old[2]:
            best[h] = (n, f, d)
    return Cheapest([(h, f, d) for h, (n, f, d) in sorted(best.items(), key=lambda x: x[1][0])])


class Cheapest(list):
    """``_cheapest``'s list, with its hexes (``hexes``) and the best ends found on it (``best``: (goal, start,
    opposing hexes among ``hexes``) -> best end), remembered with the search."""

    __slots__ = ("hexes", "best")

    def __init__(self, items):
        super().__init__(items)
        self.hexes = frozenset(h for h, _, _ in items)
        self.best: dict = {}


def _turns(name: str, f: int, nf: int) -> list[Action]:
    d = (nf - f) % 6
    if d == 0:
        return []
    if d <= 3:
        return [Action(("turn", name, "right"))] * d
    return [Action(("turn", name, "left"))] * (6 - d)
