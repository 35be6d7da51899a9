"""World at War positions: a State from a position document (``Game.state_from_position``, issue 10 point 8).

The scenario gives the units (its TO&E slots, ids ``<force>.<n>``). A position with ``units: null`` keeps the
scenario's set-up; a list places exactly those units: each entry names a unit by ``id`` or, without one, takes the
next unused unit of that ``card`` and ``side``; units not listed are off the map (never entered, not counted as
lost). ``phase``: ``operations`` (the next formation marker is drawn), ``impulse`` (the formation named by
``extension.formation``, else the first of ``to_act``, is active, after its command and rally) or ``opfire``
(``extension.mover`` has just entered its hex). Unit ``status`` keys:

* ``damage``: ``full`` | ``reduced``;
* ``markers``: any of ``disrupted``, ``ops_complete``, ``out_of_command``, ``depleted``, ``breakdown``,
  ``hovering``, ``berserk``;
* ``mp_used``: Movement Points already spent this impulse; ``moved``: hexes a helicopter has flown this turn.

``extension`` keys: ``formation``, ``mover``, ``wrecks``, ``mines``, ``ip`` (Improved Positions), ``smoke`` (hex ->
turns), ``thor`` (Chaos 14 running), ``hand`` (list of ``volley``/``drill``/``fortune`` for the Alliance), ``cup``
(list of formation ids and ``end_turn``/``chaos``: the markers still in the cup; default the full cup of that
turn), ``jammed`` (formation ids with a Jammed counter on their HQ), ``drill`` (the second formation of a Battle
Drill impulse).
"""
from __future__ import annotations

from studio.rules.position import PositionError

MARKERS = ("disrupted", "ops_complete", "out_of_command", "depleted", "breakdown", "hovering", "berserk")
STATUS_KEYS = ("damage", "markers", "mp_used", "moved")
EXTENSION_KEYS = ("formation", "mover", "wrecks", "mines", "ip", "smoke", "thor", "hand", "cup", "jammed", "drill")


def state_from_position(game, position):
    """A WawState set up as ``position`` says; PositionError (with the JSON pointer) for anything wrong."""
    from .state import WawState

    for key in position.extension:
        if key not in EXTENSION_KEYS:
            raise PositionError(f"unknown extension key '{key}' (known: {', '.join(EXTENSION_KEYS)})",
                                f"/extension/{key}")
    state = WawState.initial(game, 0)
    state.turn = position.turn
    if position.units is not None:
        _place_units(game, state, position)
    _markers_on_map(game, state, position.extension)
    _cup(game, state, position)
    _phase(game, state, position)
    return state


def _hex(game, label, pointer):
    h = game.map.hex_of.get(label)
    if h is None:
        raise PositionError(f"no hex '{label}' on the scenario's map", pointer)
    return h


def _place_units(game, state, position):
    side_index = {s: i for i, s in enumerate(game.sides)}
    used: set[int] = set()
    for i in range(len(game.units)):
        state.hex[i] = None
        state.strength[i] = 2
        state.carrier[i] = -1
        state.disr[i] = False
    state.entered_f = set(range(len(game.formations)))
    placed: dict[str, int] = {}
    order = []
    for k, pu in enumerate(position.units):
        idx = _match(game, pu, side_index, used, f"/units/{k}")
        used.add(idx)
        placed[pu.id or game.units[idx].uid] = idx
        order.append((k, pu, idx))
        state.strength[idx] = 0
        if pu.hex is not None:
            state.hex[idx] = _hex(game, pu.hex, f"/units/{k}/hex")
        _status(game, state, idx, pu.status, f"/units/{k}/status")
    for k, pu, idx in order:
        for j, pid in enumerate(pu.passengers):
            if pid not in placed:
                raise PositionError(f"passenger '{pid}' is not a unit of the position", f"/units/{k}/passengers/{j}")
            state.carrier[placed[pid]] = idx
            state.hex[placed[pid]] = state.hex[idx]
    for k, pu, idx in order:
        if state.hex[idx] is None:
            raise PositionError("a unit needs a hex unless it is a passenger", f"/units/{k}/hex")
    state.control = dict(game.initial_control)


def _match(game, pu, side_index, used, pointer):
    side = side_index.get(pu.side)
    if side is None:
        raise PositionError(f"no side '{pu.side}' in the scenario", f"{pointer}/side")
    if pu.id is not None:
        idx = game.by_uid.get(pu.id)
        if idx is None:
            raise PositionError(f"no unit '{pu.id}' in the scenario (ids are <force>.<n>)", f"{pointer}/id")
        if game.units[idx].card != pu.card or game.units[idx].side != side:
            raise PositionError(f"unit '{pu.id}' is a {game.units[idx].card} of side "
                                f"'{game.sides[game.units[idx].side]}'", f"{pointer}/card")
        if idx in used:
            raise PositionError(f"unit '{pu.id}' is listed twice", f"{pointer}/id")
        return idx
    for u in game.units:
        if u.card == pu.card and u.side == side and u.idx not in used:
            return u.idx
    raise PositionError(f"the scenario has no (more) '{pu.card}' units for side '{pu.side}'", f"{pointer}/card")


def _status(game, state, idx, status, pointer):
    for key in status:
        if key not in STATUS_KEYS:
            raise PositionError(f"unknown status key '{key}' (known: {', '.join(STATUS_KEYS)})", f"{pointer}/{key}")
    damage = status.get("damage", "full")
    if damage not in ("full", "reduced"):
        raise PositionError("damage is 'full' or 'reduced'", f"{pointer}/damage")
    if damage == "reduced":
        if game.units[idx].body.reduced is None and not game.units[idx].is_hq:
            raise PositionError(f"{game.units[idx].card} has no Reduced side", f"{pointer}/damage")
        state.strength[idx] = 1
    markers = status.get("markers", [])
    if not isinstance(markers, list):
        raise PositionError("markers is a list", f"{pointer}/markers")
    for j, m in enumerate(markers):
        if m not in MARKERS:
            raise PositionError(f"unknown marker '{m}' (known: {', '.join(MARKERS)})", f"{pointer}/markers/{j}")
    state.disr[idx] = "disrupted" in markers
    state.ops_complete[idx] = "ops_complete" in markers
    state.out_of_command[idx] = "out_of_command" in markers
    state.depleted[idx] = game.const("depleted_turns") if "depleted" in markers else 0
    state.breakdown[idx] = game.const("chaos_breakdown") if "breakdown" in markers else 0
    state.hover[idx] = "hovering" in markers
    if "berserk" in markers:
        state.berserk[idx] = 1
    for key, slot in (("mp_used", state.mp_used), ("moved", state.heli_moves)):
        value = status.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise PositionError(f"{key} is a number >= 0", f"{pointer}/{key}")
        slot[idx] = type(slot[idx])(value)


def _markers_on_map(game, state, ext):
    for key, slot in (("wrecks", state.wrecks), ("mines", state.mines), ("ip", state.ip)):
        for j, label in enumerate(ext.get(key, [])):
            slot.add(_hex(game, label, f"/extension/{key}/{j}"))
    smoke = ext.get("smoke", {})
    if not isinstance(smoke, dict):
        raise PositionError("smoke maps hex labels to turns left", "/extension/smoke")
    for label, turns in smoke.items():
        state.smoke[_hex(game, label, f"/extension/smoke/{label}")] = int(turns)
    state.thor = 1 if ext.get("thor") else 0
    alliance = game.roles.index("Alliance") if "Alliance" in game.roles else 1
    for j, fid in enumerate(ext.get("jammed", [])):
        state.jammed[_formation(game, fid, f"/extension/jammed/{j}")] = 1
    if "drill" in ext:
        state.drill = _formation(game, ext["drill"], "/extension/drill")
    for j, item in enumerate(ext.get("hand", [])):
        if item not in ("volley", "drill", "fortune"):
            raise PositionError("hand items are volley, drill or fortune", f"/extension/hand/{j}")
        state.hand.add((item, alliance))


def _formation(game, fid, pointer):
    for fi, f in enumerate(game.formations):
        if f.id == fid:
            return fi
    raise PositionError(f"no formation '{fid}' in the scenario", pointer)


def _cup(game, state, position):
    state.pending = ("none",)
    state._new_cup()
    spec = position.extension.get("cup")
    if spec is None:
        return
    cup = []
    for j, item in enumerate(spec):
        if item == "end_turn":
            cup.append(("E", 0))
        elif item == "chaos":
            cup.append(("C", 0))
        else:
            cup.append(("F", _formation(game, item, f"/extension/cup/{j}")))
    state.cup = cup


def _phase(game, state, position):
    phase = position.phase or "operations"
    ext = position.extension
    side = game.sides.index(position.to_act) if position.to_act in game.sides else None
    if phase == "operations":
        state._advance()
        return
    if "formation" in ext:
        fi = _formation(game, ext["formation"], "/extension/formation")
    else:
        mine = [fi for fi, f in enumerate(game.formations) if side is None or f.side == side]
        if not mine:
            raise PositionError("the side to act has no formation", "/to_act")
        fi = mine[0]
    if phase == "impulse":
        kept = ("disr", "out_of_command", "ops_complete", "mp_used", "heli_moves")
        saved = {u: [getattr(state, k)[u] for k in kept] for u in game.formations[fi].units}
        state._activate(fi)
        for u, values in saved.items():       # the position's markers win over 4.1-4.3
            for k, value in zip(kept, values):
                getattr(state, k)[u] = value
        state.pending = ("ops", fi)
        return
    if phase == "opfire":
        mover = game.by_uid.get(ext.get("mover", ""))
        if mover is None:
            raise PositionError("an opfire position names the moving unit (extension.mover)", "/extension/mover")
        state.pending = ("opfire", mover, game.units[mover].formation)
        return
    raise PositionError(f"a position cannot start in phase '{phase}' (operations, impulse or opfire)", "/phase")
