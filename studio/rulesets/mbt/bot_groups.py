"""Formation play of the MBT Advanced heuristic bot (``bots_advanced.AdvancedHeuristicBot``): using one unique Command
counter for several units (MBT 6.2.1.1.2) and moving them as the shared command requires (6.2.1.1.4).

- Stack formations: a formation whose Command Range is 0 (Regulars, Green, Raw: the same hex) has about one command
  per three units. Its units head for one goal (the formation's). The first to enter (the slowest) moves toward
  it; each later one enters and moves to that unit's hex (the stack), the units due to enter taking the
  formation's command before the ones already on the map, which wait; then the stack moves and fires on one
  shared counter. A unit apart from the stack rejoins it.
- Sharers: a unit whose co-sharer has finished its move heads for that unit's hex (it must end within Command Range
  of it, 6.2.1.1.4), and of the sharers still to move the slowest moves first (the others can always follow it).
"""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .engine.codes import ON, WAIT

#: the command priority of a unit waiting to enter a stack formation's assembly hex (above any shot's value)
ENTRY_PRIORITY = 5.0


def stack_formation(state, f: int) -> bool:
    """Does formation ``f`` share commands only in one hex (Command Range 0, MBT 6.2.1.1.2)?"""
    return state.command_range(f) == 0 and state.game.options["command-range-zero"] == "same-hex"


def _members(game, f: int) -> list[int]:
    return [j for j in range(game.n) if game.formation_of[j] == f]


def due_waiting(state, i: int) -> list[int]:
    """The units of ``i``'s stack formation other than ``i`` still off the map and due to enter (MBT 4.5.1.1.9)."""
    g = state.game
    f = g.formation_of[i]
    if not stack_formation(state, f):
        return []
    return [j for j in _members(g, f) if j != i and state.st[j] == WAIT and g.units[j].entry_turn <= state.turn]


def anchor(state, i: int) -> int:
    """The unit whose goal ``i``'s stack formation follows: its first unit on the map or waiting to enter."""
    g = state.game
    f = g.formation_of[i]
    if not stack_formation(state, f):
        return i
    alive = [j for j in _members(g, f) if state.st[j] in (ON, WAIT) and not g.units[j].type.ag.leg]
    return alive[0] if alive else i


def moved_mate_hex(state, i: int):
    """The hex of a co-sharer of ``i`` that finished its move this phase (its end hex joins the shared move), or
    None."""
    grp = state.grp[i]
    if grp < 0:
        return None
    for j, x in enumerate(state.grp):
        if x == grp and j != i and state.moved[j] and state.st[j] == ON and not state.track[j]:
            return state.hex[j]
    return None


def stack_hex(state, i: int):
    """The hex of ``i``'s stack formation: where most of its other vehicles on the map are (the first unit's hex
    on a tie), or None."""
    g = state.game
    f = g.formation_of[i]
    count: dict = {}
    for j in _members(g, f):
        if j != i and state.st[j] == ON and not g.units[j].type.ag.leg:
            count.setdefault(state.hex[j], [0, j])[0] += 1
    if not count:
        return None
    return max(count.items(), key=lambda x: (x[1][0], -x[1][1]))[0]


def group_goal(bot, state, i: int, base_goal):
    """The hex unit ``i`` heads for: its moved co-sharer's hex; in a stack formation, the stack's hex (waiting
    there while due units of the formation are still off the map); else the formation's goal
    (``base_goal(anchor)``)."""
    mate = moved_mate_hex(state, i)
    if mate is not None:
        return mate
    g = state.game
    if g.units[i].type.ag.leg or not stack_formation(state, g.formation_of[i]):
        return base_goal(anchor(state, i))
    here = stack_hex(state, i)
    if here is None:  # the first on the map: it waits where it entered while the others are due
        return state.hex[i] if state.st[i] == ON and due_waiting(state, i) else base_goal(anchor(state, i))
    if state.st[i] == ON and state.hex[i] == here and not due_waiting(state, i) and not entered_now(state, i):
        return base_goal(anchor(state, i))
    return here  # join the stack, or wait in it for the units still to enter


def entered_now(state, i: int) -> bool:
    """Is ``i`` the moving unit and did its move start off the map (``enter`` counts as its first step)?"""
    return state.mv_u == i and state.mv_steps == len(state.mv_trail)


def formation_goal(bot, state, i: int, base_goal):
    """The objective of ``i``'s formation (``base_goal`` of its anchor), whatever the stack does this turn."""
    return base_goal(anchor(state, i))


def entry_priority(state, i: int) -> float:
    """Extra command priority of unit ``i``: a stack formation's unit due to enter gets the command first."""
    g = state.game
    if state.st[i] == WAIT and g.units[i].entry_turn <= state.turn and stack_formation(state, g.formation_of[i]):
        return ENTRY_PRIORITY + 1.0 / (1 + g.units[i].type.cc)  # the slowest first: the others can join it
    return 0.0


def hex_mates(state, i: int, later: list[int]) -> list[int]:
    """The units of ``later`` that could share ``i``'s counter (in the same hex of a stack formation)."""
    if state.st[i] != ON or not stack_formation(state, state.game.formation_of[i]):
        return []
    return [j for j in later if state.st[j] == ON and state.hex[j] == state.hex[i]]


def mover_key(state, i: int) -> tuple:
    """Order of the units to move (MBT 4.5: the owner chooses): units with no co-sharer moved yet before the ones
    joining a co-sharer, the slowest first (the faster sharers can follow it), then unit order."""
    joining = moved_mate_hex(state, i) is not None
    return (joining, state.game.units[i].type.cc if state.grp[i] >= 0 else 0, i)


def plan_end(state, i: int, plan: list):
    """The hex a macro move ``plan`` of unit ``i`` ends in (its ``fwd``/``rev`` steps and turns replayed)."""
    from studio.hexgrid.coords import neighbour

    h, f = state.hex[i], state.fac[i]
    for a in plan:
        if a[0] == "turn":
            f = (f + (1 if a[2] == "right" else -1)) % 6
        elif a[0] in ("fwd", "rev"):
            h = neighbour(h, f if a[0] == "fwd" else (f + 3) % 6)
    return h


def _road_reach(game, start) -> dict:
    """Road/path hexes reachable along the roads from ``start``: hex -> number of road steps."""
    from studio.hexgrid.coords import neighbour
    from studio.model.maps import edge_key

    steps = {start: 0}
    todo = [start]
    while todo:
        h = todo.pop(0)
        for f in range(6):
            b = neighbour(h, f)
            if b not in steps and edge_key(h, b) in game.roads:
                steps[b] = steps[h] + 1
                todo.append(b)
    return steps


def road_waypoint(game, i: int, h, goal):
    """The road hex to head for from road hex ``h`` when the road gets unit ``i`` to ``goal`` sooner than
    cross-country (``entry_time``'s estimate without the entry turn), else None."""
    ut = game.units[i].type
    if h not in game.road_hexes or ut.road <= ut.cc:
        return None
    best, pick = distance(h, goal) / max(1, ut.cc), None
    for r, n in _road_reach(game, h).items():
        t = n / ut.road + distance(r, goal) / max(1, ut.cc)
        if t < best:
            best, pick = t, r
    return pick


def entry_time(game, i: int, h, goal) -> float:
    """Estimated turns for unit ``i`` entering at ``h`` to reach ``goal``: cross-country, or along the road from a
    road entry hex to the road hex nearest the goal and on from there (MBT 4.5.1.1.5)."""
    ut = game.units[i].type
    best = distance(h, goal) / max(1, ut.cc)
    if h in game.road_hexes and ut.road > ut.cc:
        for r, n in _road_reach(game, h).items():
            best = min(best, 1 + n / ut.road + distance(r, goal) / max(1, ut.cc))  # the first turn enters
    return best


def entry_choice(bot, state, i: int, goal, legal: list):
    """The ``enter`` action of ``legal`` whose hex gets unit ``i`` soonest to ``goal`` (``entry_time``)."""
    g = state.game
    enters = [a for a in legal if a[0] == "enter" and g.uindex.get(a[1]) == i]
    if not enters:
        return None
    return min(enters, key=lambda a: (entry_time(g, i, g.map.hex(a[2]), goal), a[2]))


def road_facing(game, h, f: int, goal):
    """The facing along a road/path from hex ``h`` toward ``goal`` (the start of the next move at the road rate,
    MBT 4.5.1.1.5), when ``h`` is a road hex and facing ``f`` is not already along one; else None."""
    from studio.hexgrid.coords import neighbour
    from studio.model.maps import edge_key

    if h not in game.road_hexes:
        return None
    along = [nf for nf in range(6) if edge_key(h, neighbour(h, nf)) in game.roads]
    if not along or f in along:
        return None
    return min(along, key=lambda nf: (distance(neighbour(h, nf), goal), nf))


def turns_to(name: str, f: int, nf: int) -> list:
    """The ``turn`` actions from facing ``f`` to ``nf`` (the shorter way)."""
    from .engine.actions import Action

    d = (nf - f) % 6
    if d <= 3:
        return [Action(("turn", name, "right"))] * d
    return [Action(("turn", name, "left"))] * (6 - d)


def finish_on_road(bot, state, i: int, action, legal: list):
    """Before ``done`` on a road hex, the turns to face along the road toward the formation's objective (so the
    next move may start at the road rate), when they are legal now; else ``action``."""
    if action[0] != "done" or state.st[i] != ON:
        return action
    g = state.game
    nf = road_facing(g, state.hex[i], state.fac[i], bot.objective(state, i))
    if nf is None:
        return action
    turns = turns_to(g.units[i].name, state.fac[i], nf)
    if not turns or turns[0] not in legal:
        return action
    bot.plan = turns[1:] + [action]
    return turns[0]


def _road_path(game, start, stop) -> list:
    """The road hexes from ``start`` (excluded) to ``stop`` along the roads (breadth first), or []."""
    from studio.hexgrid.coords import neighbour
    from studio.model.maps import edge_key

    prev = {start: None}
    todo = [start]
    while todo:
        h = todo.pop(0)
        if h == stop:
            break
        for f in range(6):
            b = neighbour(h, f)
            if b not in prev and edge_key(h, b) in game.roads:
                prev[b] = h
                todo.append(b)
    if stop not in prev:
        return []
    path = []
    while stop != start:
        path.append(stop)
        stop = prev[stop]
    return path[::-1]


def road_walk(bot, state, i: int, goal) -> list | None:
    """A move at the road/path rate (MBT 4.5.1.1.5) along the road toward ``road_waypoint``: ``road``, then for
    each road hex the turns to face it and ``fwd``, as far as the road rate's allowance goes; None when the road
    is no faster than cross-country. Each step is checked when played (a refused one ends the plan)."""
    from studio.hexgrid.coords import neighbour

    from .engine.actions import Action

    g = state.game
    stop = road_waypoint(g, i, state.hex[i], goal)
    if stop is None:
        return None
    path = _road_path(g, state.hex[i], stop)
    if not path:
        return None
    name = g.units[i].name
    budget = state.msa(i, g.units[i].type.road)
    plan = [Action(("road", name))]
    h, f = state.hex[i], state.fac[i]
    for b in path[:budget]:
        nf = next(d for d in range(6) if neighbour(h, d) == b)
        plan += turns_to(name, f, nf) + [Action(("fwd", name))]
        h, f = b, nf
    return plan + [Action(("done", name))]
