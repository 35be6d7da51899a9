"""Specialized units at work in the Move Phase (BfOps p.19-20): recovery vehicles freeing bogged vehicles and
combat engineers clearing minefields.

- Recovery (p.19, B105): a vehicle needs a recovery vehicle of its chassis (trucks: a tow truck), or any ARV
  rated heavier than it. A recovery unit whose element holds, within the adjacency distance (table ``sequence``)
  of a bogged friendly vehicle it may recover, frees it after ``recovery_phases`` Move Phases there (the
  procedure and its time are base rules: table ``sequence``, placeholder). One vehicle at a time.
- Clearing minefields (p.20, B115, B117): an EOD unit (UR +2) or a demolitions-capable engineer (UR +1,
  table ``procedures``) whose element holds, adjacent to a minefield its side knows, clears the 1" square
  nearest it after ``mine_clear_phases`` Move Phases with a Unit Rating check; a roll of 10 sets the mines
  off unless a second Unit Rating check succeeds: the unit is fully disabled. Units passing a cleared square
  roll nothing there.
- Mine flails and rollers (p.20, B116; card capability ``mine_clearing``): inside a minefield the unit moves at
  ``flail_pace_in`` (1") per Move Phase, and for each 1" square it passes it makes a Unit Rating check at
  ``flail_clear_bonus`` (+1, "total = 7") instead of the mine roll: success detonates the square safely (it is
  cleared, units behind pass it freely), failure passes without detonating it, a 10 sets the mines off with
  their normal effect on the unit.
"""
from __future__ import annotations

import shapely


def may_recover(recovery, card) -> bool:
    """Recovery matching (BfOps p.19, B105): trucks need a tow truck; armour an ARV of its chassis or rated
    heavier than the vehicle."""
    if recovery is None:
        return False
    if card.soft and card.propulsion == "wheeled":
        return recovery.tow_truck
    same = bool(recovery.chassis) and recovery.chassis == card.chassis
    return same or card.weight_tons < recovery.max_weight_tons


def holding(state, u) -> bool:
    return not u.disabled and not u.bogged and state.orders.get(u.element, "hold") == "hold"


def tick(state, key: str, needed: int) -> bool:
    """One more Move Phase spent at a task; True (and the count cleared) when it has taken ``needed``."""
    state.work[key] = state.work.get(key, 0) + 1
    if state.work[key] >= needed:
        del state.work[key]
        return True
    return False


def recover(state) -> None:
    """Recovery vehicles at bogged vehicles of their side (module docstring)."""
    g = state.game
    reach = g.tables.sequence["adjacent_in"]
    needed = max(1, int(g.tables.sequence["recovery_phases"]))
    busy: set[str] = set()
    for v in state.units:
        if not v.bogged or v.disabled:
            continue
        card = g.card_of(v)
        for r in state.units:
            rc = g.card_of(r).capabilities.recovery
            if r.side != v.side or r is v or r.id in busy or not holding(state, r) or not may_recover(rc, card):
                continue
            if shapely.distance(g.footprint(r), g.footprint(v)) > reach:
                continue
            busy.add(r.id)
            if tick(state, f"recover:{r.id}:{v.id}", needed):
                v.bogged = False
                state.narrate(f"{r.id} recovers the bogged {v.id}: it may move again (BfOps p.19)")
            else:
                state.narrate(f"{r.id} works to recover {v.id} (BfOps p.19)")
            break


def _known_minefields(state, side: int) -> list:
    name = state.game.sides[side]
    return [a for a in state.game.geometry.areas if a.kind == "minefield"
            and (name not in a.hidden_from or a.id in state.mines_known[side])]


def centre_line(area):
    f = area.data.get("feature")
    if f is None or f.shape != "polyline" or len(f.points) < 2:
        return None
    return shapely.linestrings([tuple(p) for p in f.points])


def in_cleared_square(state, area, x: float, y: float) -> bool:
    """(x, y) lies in a cleared 1" square of the minefield strip (within 1/2" along its centre line)."""
    done = state.mines_cleared.get(area.id)
    line = centre_line(area) if done else None
    if line is None:
        return False
    at = float(shapely.line_locate_point(line, shapely.points(x, y)))
    return any(abs(at - c) <= 0.5 + 1e-9 for c in done)


def clear_minefields(state) -> None:
    """Engineers and EOD units clearing minefields (module docstring)."""
    g = state.game
    t = g.tables
    reach = t.sequence["adjacent_in"]
    needed = max(1, int(t.procedure("mine_clear_phases")))
    for u in state.units:
        caps = g.card_of(u).capabilities
        if not (caps.eod or caps.demolitions) or not holding(state, u) or u.sup_move:
            continue
        foot = g.footprint(u)
        near = [a for a in _known_minefields(state, u.side) if shapely.distance(foot, a.geom) <= reach]
        line = centre_line(near[0]) if near else None
        if line is None:
            continue
        area = near[0]
        at = round(float(shapely.line_locate_point(line, shapely.points(u.x, u.y))), 3)
        if in_cleared_square(state, area, *shapely.get_coordinates(shapely.line_interpolate_point(line, at))[0]):
            continue
        if not tick(state, f"clear:{u.id}:{area.id}", needed):
            state.narrate(f"{u.id} works at minefield {area.id} (BfOps p.20)")
            continue
        _clearing_check(state, u, g.card_of(u), area, at,
                        t.procedure("eod_clear_bonus") if caps.eod else t.procedure("demolition_clear_bonus"))


def _clearing_check(state, u, card, area, at: float, bonus: float) -> None:
    number = card.unit_rating + bonus
    roll = state.dice.roll(10, f"clear mines {u.id}>{area.id}")
    if roll == 10:                                                        # BfOps p.20: a 10
        again = state.dice.roll(10, f"clear mines again {u.id}>{area.id}")
        if again > card.unit_rating:
            u.disabled = True
            state.narrate(f"{u.id} clearing {area.id}: roll 10, second check {again} > {card.unit_rating}: the "
                          "mines detonate, the unit is disabled (BfOps p.20)")
        else:
            state.narrate(f"{u.id} clearing {area.id}: roll 10, second check {again} <= {card.unit_rating}: safe")
        return
    if roll <= number:
        state.mines_cleared.setdefault(area.id, []).append(at)
        state.narrate(f"{u.id} clears a 1\" square of minefield {area.id}: roll {roll} <= {number:g} (BfOps p.20)")
    else:
        state.narrate(f"{u.id} fails to clear minefield {area.id}: roll {roll} > {number:g}")


# ------------------------------------------------------------------ mine flails and rollers (p.20)

def flail_pace(state, u, card, path: list) -> list:
    """A flail or roller moves at ``flail_pace_in`` inches a Move Phase inside a minefield (BfOps p.20)."""
    if not card.capabilities.mine_clearing or len(path) < 2:
        return path
    from .movement import cut

    pace = state.game.tables.procedure("flail_pace_in")
    line = shapely.linestrings(path)
    stop = None
    for area, _ in state.game.geometry.path_lengths(path, kinds=["minefield"]):
        part = shapely.intersection(line, area.geom)
        first = shapely.get_parts(part)[0] if part.geom_type.startswith("Multi") else part
        at = float(shapely.line_locate_point(line, shapely.get_point(first, 0)))
        stop = at + pace if stop is None else min(stop, at + pace)
    if stop is None or stop >= float(shapely.length(line)) - 1e-9:
        return path
    state.narrate(f"{u.id} flails through the minefield at {pace:g}\" a Move Phase (BfOps p.20)")
    return cut(path, stop)


def flail_check(state, u, area, x: float, y: float) -> bool | None:
    """The flail's check for one 1" square of minefield (module docstring): None for a unit without a flail or
    roller (it takes the mine roll), True when the mines go off on it (a 10), else False."""
    card = state.game.card_of(u)
    if not card.capabilities.mine_clearing:
        return None
    number = card.unit_rating + state.game.tables.procedure("flail_clear_bonus")
    roll = state.dice.roll(10, f"flail {u.id}>{area.id}")
    if roll == 10:
        state.narrate(f"{u.id} flails {area.id}: roll 10, the mines detonate under it (BfOps p.20)")
        return True
    if roll > number:
        state.narrate(f"{u.id} flails {area.id}: roll {roll} > {number:g}, passes without detonating")
        return False
    line = centre_line(area)
    if line is not None:
        at = round(float(shapely.line_locate_point(line, shapely.points(x, y))), 3)
        state.mines_cleared.setdefault(area.id, []).append(at)
    else:
        state.cleared.add(f"{area.id}@{round(x, 1)},{round(y, 1)}")
    state.narrate(f"{u.id} flails a 1\" square of {area.id} clear: roll {roll} <= {number:g} (BfOps p.20)")
    return False
