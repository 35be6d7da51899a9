"""Positions as documents for MBT (``Game.state_from_position``, contract with ``studio.rules.position``).

Unit ``status`` keys: ``damaged`` (bool; Hull Damaged in the Advanced Game), ``command`` (FIRE, MOVE, SH, OW,
NC), ``revealed`` (bool, the command is face up), ``fired`` / ``moved`` (bool, done this turn), ``mark``
(``spot-fire``, ``spot-move``, ``none``; Advanced Game also ``spot-fire-small-arms``). Advanced Game only:
``suppression`` (``on``, ``off``, ``none``), ``turret_damaged``, ``track_hit`` (bool), ``carried_by`` (the id of
the vehicle a leg unit rides, in the same hex), ``attachments`` (a leg unit's crew-served card ids: they replace
its card's ``attached_weapons`` as the scenario's ``attachments`` do, MBT 5.1.3).
``facing`` is a hexside 0-5 (``coords`` order); null faces east or west toward the map centre. ``extension``:
``wrecks`` (hex label -> ``knocked-out`` | ``brewed-up``), ``control`` (hex label -> side id); Advanced Game:
``minefields`` and ``weight_limits`` (``opt_move_positions``, MBT 7.31-7.32); ``smoke``, ``counter_battery``,
``pre_registered``, ``planned_fire`` (``opt_arty_positions``, MBT 6.5.1, 7.28).

Phases (``codes.PHASES`` ids) and ``to_act``:

- ``spotting``: the start of the turn; Spot counters are checked as in the Spotting Phase (MBT 4.1.5), then
  commands are placed (unit ``command`` statuses are refused here).
- ``command``: vehicles with a ``command`` status have it; the others are commanded in order.
- ``initiative``: every vehicle without a command has N/C; ``to_act`` (default the first side) won the roll
  and chooses First or Second Player (needs the option ``initiative-winner: chooses`` and no fixed first player).
- ``direct-fire-first`` / ``direct-fire-second``: ``to_act`` is the First / Second Player announcing fire.
- ``overwatch``: Combat Phase overwatch at the vehicles with ``fired: true``; ``to_act`` (First Player) fires first.
- ``move-second`` / ``move-first``: ``to_act`` is the Second / First Player moving (Advanced Game: after the
  Close Assault / Hand-to-Hand Combat Step; ``close-combat`` is that step, ``to_act`` the First Player).
- ``adjustment``: the end of the turn is played at once (the state is the next turn's Command Phase).
- Advanced Game: ``air-1`` and ``indirect-fire`` lead to ``direct-fire-first`` (``to_act`` the First Player),
  ``air-2`` to the Advanced Adjustment; commands given in the position count against Available Commands.

Rolls the set-up makes itself (none, except an initiative reached from ``command`` when every vehicle already has
a command) use the state's own dice; the position's forced dice apply to the rolls after the set-up.
"""
from __future__ import annotations

import copy

from .codes import CARRIED, CMD_CODES, MFIRE, MFIRE_SA, MMOVE, NOMARK, ON, P_AIR1, P_AIR2, P_IF, P_INIT, P_MOVE
from .data import DataError, UnitSpec, engine_type
from .fire import FireRules
from .grades import assign_formations
from .opt_arty_positions import ARTY_EXTENSION, apply_arty_extension
from .opt_move_positions import MOVE_EXTENSION, MOVE_STATUS, apply_move_extension, apply_move_status
from .opt_fire_positions import FIRE_STATUS, apply_fire_status
from .opt_command_positions import COMMAND_EXTENSION, COMMAND_STATUS, apply_command_extension, command_position_game
from .suppression import SUP_NAMES

MARKS = {"none": NOMARK, "spot-fire": MFIRE, "spot-move": MMOVE}
AG_MARKS = {**MARKS, "spot-fire-small-arms": MFIRE_SA}
STATUS = {"damaged": bool, "command": str, "revealed": bool, "fired": bool, "moved": bool, "mark": str}
AG_STATUS = {"suppression": str, "turret_damaged": bool, "track_hit": bool, "carried_by": str, "attachments": list,
             **COMMAND_STATUS,
             **FIRE_STATUS, **MOVE_STATUS}
WRECKS = {"knocked-out": 1, "brewed-up": 2}
EXTENSION = ("wrecks", "control") + MOVE_EXTENSION + COMMAND_EXTENSION + ARTY_EXTENSION


def _error(message: str, pointer: str = ""):
    from studio.rules.position import PositionError

    return PositionError(message, pointer, code="position.mbt")


def state_from_position(game, position):
    """The MbtState of ``position`` (a ``studio.model.position.Position``); raises ``PositionError``."""
    g = _game_with_units(game, position) if position.units is not None else game
    state = g.state_class(g)
    state._reset(0)
    state.turn = position.turn
    _place(state, position)
    _extension(state, position)
    _phase(state, position)
    state._advance()
    return state


# ------------------------------------------------------------------ units

def _game_with_units(game, position):
    """A copy of ``game`` whose units are exactly the position's (names, cards, sides, set-up hexes)."""
    units, types, names = [], dict(game.types), set()
    counters: dict[str, int] = {}
    centre_q = sum(h[0] for h in game.map.label_of) / max(1, len(game.map.label_of))
    for i, pu in enumerate(position.units):
        base = f"/units/{i}"
        ut = _unit_type(game, types, pu, base)
        if ut is None:
            category = getattr(game.index.model("unit", pu.card), "category", "?")
            raise _error(f"unit card '{pu.card}' ({category}) is not played by this game (Basic Game: vehicles "
                         "only; Advanced: vehicles, leg and towed units, helicopters)", f"{base}/card")
        if pu.hex is None or pu.hex not in game.map.hex_of:
            raise _error(f"unit {pu.id or i}: MBT units need a hex of the scenario's boards, not {pu.hex!r}",
                         f"{base}/hex")
        h = game.map.hex(pu.hex)
        facing = _facing(pu, i, 2 if h[0] < centre_q else 5)
        name = pu.id
        if name is None:
            prefix = ut.name.split()[0]
            counters[prefix] = counters.get(prefix, 0) + 1
            name = f"{prefix}-{counters[prefix]}"
        if name in names or " " in name:
            raise _error(f"unit id '{name}' is used twice or has a space", f"{base}/id")
        names.add(name)
        units.append(UnitSpec(name, game.sides.index(pu.side), ut, "position", h, facing, 0))
    twin = copy.copy(game)
    twin.units, twin.types = units, types
    twin.uindex = {u.name: k for k, u in enumerate(units)}
    twin.n = len(units)
    twin.initial_carrier = [-1] * twin.n  # the scenario's batteries stay available (MBT 6.5.1.3)
    assign_formations(twin)
    if twin.advanced:
        command_position_game(twin, position)  # optional rules 7.1-7.46 (opt_command_positions)
    return twin


def _unit_type(game, types: dict, pu, base: str):
    """The engine type of position unit ``pu``: its card's, or with a status ``attachments`` (Advanced Game) the
    card with those crew-served weapons attached (keyed like ``data.compile_units``' scenario attachments)."""
    attached = pu.status.get("attachments") if game.advanced else None
    if attached is not None and not (isinstance(attached, list) and all(isinstance(x, str) for x in attached)):
        raise _error("status 'attachments' must be a list of crew-served card ids", f"{base}/status/attachments")
    key = pu.card if attached is None else f"{pu.card}+{'+'.join(attached)}"
    if key not in types:
        model = game.index.model("unit", pu.card)
        try:
            types[key] = engine_type(model, game.index, game.advanced, attached)
        except (AttributeError, KeyError, TypeError, ValueError, DataError) as exc:
            why = f": {exc}" if attached is not None and isinstance(exc, DataError) else ""
            raise _error(f"unit card '{pu.card}' is not an MBT vehicle card{why}", f"{base}/card") from None
    return types[key]


def _facing(pu, i: int, default: int) -> int:
    if pu.facing is None:
        return default
    if isinstance(pu.facing, bool) or pu.facing not in range(6):
        raise _error(f"unit {pu.id or i}: facing must be a hexside 0-5, not {pu.facing!r}", f"/units/{i}/facing")
    return int(pu.facing)


def _place(state, position) -> None:
    """Unit statuses (``STATUS``) onto the state; marks first, the rest after the phase set-up."""
    if position.units is None:
        return
    advanced = state.game.advanced
    known = {**STATUS, **AG_STATUS} if advanced else STATUS
    marks = AG_MARKS if advanced else MARKS
    for i, pu in enumerate(position.units):
        for key, value in pu.status.items():
            want = known.get(key)
            pointer = f"/units/{i}/status/{key}"
            if want is None:
                extra = " (an Advanced Game status: the scenario plays the Basic Game)" if key in AG_STATUS else ""
                raise _error(f"unknown MBT unit status '{key}'{extra} (known: {', '.join(known)})", pointer)
            if not isinstance(value, want):
                raise _error(f"status '{key}' must be a {want.__name__}, not {value!r}", pointer)
        mark = pu.status.get("mark", "none")
        if mark not in marks:
            raise _error(f"mark must be one of {', '.join(marks)}, not {mark!r}", f"/units/{i}/status/mark")
        state.mk[i] = state.mkdf[i] = marks[mark]
        state.dmg[i] = pu.status.get("damaged", False)
        if advanced:
            _place_ag(state, i, pu)


def _place_ag(state, i: int, pu) -> None:
    """Advanced Game statuses: Suppression, Turret Damaged, Track hit."""
    sup = pu.status.get("suppression", "none")
    if sup not in SUP_NAMES:
        raise _error(f"suppression must be one of {', '.join(SUP_NAMES)}, not {sup!r}",
                     f"/units/{i}/status/suppression")
    state.sup[i] = SUP_NAMES[sup]
    state.tdmg[i] = pu.status.get("turret_damaged", False)
    state.track[i] = pu.status.get("track_hit", False)
    carrier = pu.status.get("carried_by")
    if carrier is not None:
        g = state.game
        c = g.uindex.get(carrier, -1)
        if c < 0 or c == i or g.units[c].type.ag.leg or not g.units[i].type.ag.leg or state.hex[c] != state.hex[i]:
            raise _error(f"carried_by {carrier!r}: a leg unit rides a vehicle of the position in its own hex",
                         f"/units/{i}/status/carried_by")
        state.carrier[i] = c
        state.st[i] = CARRIED
    apply_move_status(state, i, pu, _error)  # Hull Down (MBT 6.6.9)


def _apply_turn_status(state, position) -> None:
    """Commands and what was done this turn (after the turn's start cleared them)."""
    for i, pu in enumerate(position.units or []):
        command = pu.status.get("command")
        if command is not None:
            if command not in CMD_CODES:
                raise _error(f"command must be one of {', '.join(CMD_CODES)}, not {command!r}",
                             f"/units/{i}/status/command")
            if state.game.advanced:
                state._place_command(i, CMD_CODES[command])  # counts against Available Commands (MBT 6.2.1)
            else:
                state.cmd[i] = CMD_CODES[command]
        state.rev[i] = pu.status.get("revealed", False)
        state.fired[i] = pu.status.get("fired", False)
        state.moved[i] = pu.status.get("moved", False)


def _extension(state, position) -> None:
    g = state.game
    ext = position.extension or {}
    for key in ext:
        if key not in EXTENSION:
            raise _error(f"unknown MBT position extension '{key}' (known: {', '.join(EXTENSION)})",
                         f"/extension/{key}")
    for label, kind in (ext.get("wrecks") or {}).items():
        if label not in g.map.hex_of or kind not in WRECKS:
            raise _error(f"wreck {label!r}: {kind!r} (a hex label -> knocked-out or brewed-up)",
                         f"/extension/wrecks/{label}")
        state.wreck[g.map.hex(label)] = WRECKS[kind]
    for label, side in (ext.get("control") or {}).items():
        if label not in g.map.hex_of or side not in g.sides:
            raise _error(f"control {label!r}: {side!r} (a hex label -> side id)", f"/extension/control/{label}")
        state.control[g.map.hex(label)] = g.sides.index(side)
    apply_move_extension(state, ext, _error, position.units is not None)  # MBT 7.31, 7.32
    apply_arty_extension(state, ext, _error, position.units is not None)  # MBT 6.5.1, 7.28 (smoke, plots, CB)
    if g.advanced:
        apply_command_extension(state, position, position.units is not None)  # MBT 7.1-7.46
        apply_fire_status(state, position)  # MBT 7.8-7.50 fire optional rules (opt_fire_positions)


# ------------------------------------------------------------------ phases

def _side(position, default: int, game) -> int:
    return game.sides.index(position.to_act) if position.to_act is not None else default


def _phase(state, position) -> None:
    """Put ``state`` in ``position.phase`` (see the module docstring)."""
    g = state.game
    phase = position.phase or "spotting"
    if phase == "spotting" and any("command" in pu.status for pu in position.units or []):
        raise _error("commands are placed after the Spotting Phase: use phase 'command'", "/phase")
    if phase == "spotting":
        state._start_turn()
    else:
        state.mkdf = list(state.mk)
        _turn_start_without_spotting(state)
    _apply_turn_status(state, position)
    if phase in ("spotting", "command"):
        return
    for i in range(g.n):
        if state.st[i] == ON and not state.cmd[i]:
            state.cmd[i] = CMD_CODES["NC"]
    state.cq = g.n
    _SETUP[phase](state, position)


def _turn_start_without_spotting(state) -> None:
    """The start of the turn with the given Spot counters kept (the Spotting Phase is over)."""
    marks = list(state.mk)
    state._start_turn()
    state.mk = marks
    state.mkdf = list(marks)
    state._spot_targets()


def _initiative(state, position) -> None:
    g = state.game
    if g.first_fixed is not None or g.options["initiative-winner"] != "chooses":
        raise _error("this scenario has no initiative decision (fixed First Player or option initiative-winner)",
                     "/phase")
    state.phase = P_INIT
    state.cp = _side(position, 0, g)


def _direct_fire(first_player: bool):
    def setup(state, position) -> None:
        side = _side(position, 0 if first_player else 1, state.game)
        state.first = side if first_player else 1 - side
        FireRules._begin_df(state)
        state.df_side = side
    return setup


def _overwatch(state, position) -> None:
    state.first = _side(position, 0, state.game)
    state._begin_owc()


def _movement(first_player: bool):
    def setup(state, position) -> None:
        side = _side(position, 0 if first_player else 1, state.game)
        state.first = side if first_player else 1 - side
        state.phase = P_MOVE
        state.mv_idx = 1 if first_player else 0
        state.mv_u = -1
        if state.game.advanced:
            state.ca_side = -2  # the Close Assault / Hand-to-Hand Combat Step is over
    return setup


def _close_combat(state, position) -> None:
    """Advanced Game: the Close Assault / Hand-to-Hand Combat Step; ``to_act`` is the First Player."""
    state.first = _side(position, 0, state.game)
    state.phase = P_MOVE
    state.mv_idx = 0
    state.mv_u = -1
    state.ca_side = -1


def _adjustment(state, position) -> None:
    state.phase = P_MOVE
    state.mv_idx = 1
    state.mv_u = -1
    state._adjust()


def _air1(state, position) -> None:
    """Advanced Game: the 1st Air Phase (then the Indirect Fire Step and Direct Fire); ``to_act`` is First."""
    state.first = _side(position, 0, state.game)
    state.phase = P_AIR1


def _indirect(state, position) -> None:
    """Advanced Game: the Indirect Fire Step (then Direct Fire); ``to_act`` is the First Player."""
    state.first = _side(position, 0, state.game)
    state.phase = P_IF


def _air2(state, position) -> None:
    """Advanced Game: the 2nd Air Phase, then the Advanced Adjustment Phase."""
    state.first = _side(position, 0, state.game)
    state.phase = P_AIR2


_SETUP = {"close-combat": _close_combat, "air-1": _air1, "indirect-fire": _indirect, "air-2": _air2, "initiative": _initiative, "direct-fire-first": _direct_fire(True),
          "direct-fire-second": _direct_fire(False), "overwatch": _overwatch, "move-second": _movement(False),
          "move-first": _movement(True), "adjustment": _adjustment}

__all__ = ["state_from_position", "MARKS", "STATUS", "WRECKS"]
