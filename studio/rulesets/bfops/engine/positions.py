"""Positions on a measured table: units at x/y inches with facings in degrees (``studio/rulesets/README.md``)."""
from __future__ import annotations

from studio.rules.position import PositionError

from .state import BfopsState, Unit, new_state

STATUS_KEYS = {"hits", "disabled", "immobilized", "bogged", "suppressed", "moved", "element", "order", "spotted",
               "double_time", "idle_turns", "agl_bursts", "agl_reloads"}


def state_from_position(game, position) -> BfopsState:
    """The state of a position document: its units (x, y, facing, status), turn, phase and side to act."""
    state = new_state(game, 0)
    state.dice.record = True      # a position is for test-play and tests: its rolls and narration are shown
    if position.units is not None:
        riding = {p for u in position.units for p in u.passengers}
        state.units = [_unit(game, i, u, u.id in riding) for i, u in enumerate(position.units)]
        state.orders = {u.element: "hold" for u in state.units}
        for i, u in enumerate(position.units):
            if "order" in u.status:   # a position's order stands from an earlier Turn (double-time, p.16)
                state.orders[state.units[i].element] = str(u.status["order"])
                state.issued[state.units[i].element] = position.turn - 1
            if u.status.get("double_time"):
                state.doubled.add(state.units[i].element)
        state.spotted = [set(), set()]
        for i, u in enumerate(position.units):
            if u.status.get("spotted"):
                state.spotted[1 - state.units[i].side].add(state.units[i].id)
        _board(game, state, position)           # after every loop indexed like position.units
    from .engineering import load_position

    load_position(state, position.extension)          # bridges, breaches, filled trenches, charges (p.19-20)
    state.turn = position.turn
    state.phase = position.phase or "command"
    state.sights, state.legal_cache = {}, None
    if position.to_act is not None:
        state.player = game.sides.index(position.to_act)
    if state.phase == "command":
        hand = position.extension.get("hand", [1, 1]) if isinstance(position.extension, dict) else [1, 1]
        if not (isinstance(hand, list) and len(hand) == 2 and all(isinstance(h, int) and h >= 0 for h in hand)):
            raise PositionError("extension.hand must be [cards of the first side, cards of the second]",
                                "/extension/hand")
        state.hand = list(hand)
        if position.to_act is None:
            state.player = 0 if hand[0] >= hand[1] else 1
    if state.phase == "fire":
        state.priority, state.declared, state.decided = 0, [], set()
        state.hand = [0, 0]
        state._next_decider()
    return state


def _unit(game, i: int, u, carried: bool = False) -> Unit:
    where = f"/units/{i}"
    unknown = set(u.status) - STATUS_KEYS
    if unknown:
        raise PositionError(f"unknown status key(s) {sorted(unknown)}; known: {sorted(STATUS_KEYS)}",
                            f"{where}/status")
    if u.card not in game.cards:
        raise PositionError(f"card '{u.card}' is not a Battlefield Ops! unit card", f"{where}/card")
    if carried and (u.x is None or u.y is None):
        u = u.model_copy(update={"x": 0.0, "y": 0.0})       # aboard: placed with its carrier (_board)
    if u.x is None or u.y is None:
        raise PositionError("a unit on a measured table needs x and y (inches)", where)
    if not (0 <= u.x <= game.geometry.width and 0 <= u.y <= game.geometry.depth):
        raise PositionError(f"({u.x}, {u.y}) is off the {game.geometry.width:g}\" x {game.geometry.depth:g}\" "
                            "table", f"{where}/x")
    st = u.status
    return Unit(u.id or f"u{i + 1}", u.card, game.sides.index(u.side), str(st.get("element", u.id or f"e{i + 1}")),
                float(u.x), float(u.y), float(u.facing or 0.0) % 360.0, hits=int(st.get("hits", 0)),
                disabled=bool(st.get("disabled", False)), immobilized=bool(st.get("immobilized", False)),
                bogged=bool(st.get("bogged", False)), sup_move=bool(st.get("suppressed", False)),
                sup_fire=position_turn(st), moved=float(st.get("moved", 0.0)), idle=int(st.get("idle_turns", 0)),
                bursts=int(st.get("agl_bursts", 0)), reloads=int(st.get("agl_reloads", 0)))


def _board(game, state, position) -> None:
    """Units a carrier lists in ``passengers`` ride in it, off the table (BfOps p.16-18, :mod:`.bailout`)."""
    from .bailout import room

    index = {u.id: i for i, u in enumerate(state.units)}
    for i, u in enumerate(position.units):
        for pid in u.passengers:
            j = index.get(pid)
            where = f"/units/{i}/passengers"
            if j is None or j == i or position.units[j].passengers or state.units[j].aboard:
                raise PositionError(f"passenger '{pid}' must be another unit of the position, carried once and "
                                    "carrying none", where)
            v = state.units[j]
            if v.side != state.units[i].side or game.card_of(v).infantry is None:
                raise PositionError("only infantry ride aboard a vehicle of their own side", where)
            v.aboard = state.units[i].id
    carriers = {u.id: u for u in state.units}
    for v in [v for v in state.units if v.aboard]:
        c = carriers[v.aboard]
        v.x, v.y, v.facing = c.x, c.y, c.facing
        state.units.remove(v)
        state.carried.append(v)
    for cid in sorted({v.aboard for v in state.carried}):
        if room(state, state.unit(cid)) < 0:
            raise PositionError(f"'{cid}' carries more infantry Hits than its card's carry_hits", "/units")


def position_turn(status) -> int:
    return 1 if status.get("suppressed") else 0
