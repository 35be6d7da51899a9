"""Position extensions of the movement optional rules (``studio.rules.position`` documents, key ``extension``):
``minefields`` (plots in the scenario-extension form, MBT 7.31.1: they replace the scenario's) and
``weight_limits`` (MBT 7.32) and ``narrow_roads`` (MBT 7.30), only in a position with its own units, whose game
copy they change; ``burning`` (hex -> the turn its fire started, MBT 7.35) sets the state's fires;
``avlb_bridges`` (``{avlb: unit id, hex: label, from: label, broken: false}``, MBT 7.49) bridges laid the turn
before: over ``hex`` when its terrain is spanned (entered from ``from``), else over the ``from``/``hex``
hexside."""
from __future__ import annotations

import dataclasses

from pydantic import ValidationError

from .data import DataError
from .opt_mines import MineState
from .opt_move_data import _limits, _minefields, move_opt

MOVE_EXTENSION = ("minefields", "weight_limits", "narrow_roads", "burning", "avlb_bridges", "hasty_entrenchments")


def apply_move_extension(state, ext: dict, error, own_units: bool) -> None:
    """Set the position's minefields and weight limits on ``state``; ``error(message, pointer)`` builds the
    position error raised for bad data."""
    from ..cards import MinefieldPlot, WeightLimit

    g = state.game
    if "burning" in ext:
        _burning(state, ext["burning"], error)
    if "avlb_bridges" in ext:
        _bridges(state, ext["avlb_bridges"] or [], error)
    if "hasty_entrenchments" in ext:
        _hasty(state, ext["hasty_entrenchments"] or {}, error)
    for key, model in (("minefields", MinefieldPlot), ("weight_limits", WeightLimit), ("narrow_roads", str)):
        if key not in ext:
            continue
        if not g.advanced:
            raise error(f"extension {key}: an Advanced Game optional rule (MBT 7.31-7.32)", f"/extension/{key}")
        try:
            items = [_item(model, x) for x in ext[key] or ()]
        except (ValidationError, TypeError) as exc:
            raise error(f"extension {key}: {exc}", f"/extension/{key}") from None
        try:
            _apply(state, key, items, own_units)
        except DataError as exc:
            raise error(str(exc), f"/extension/{key}") from None


def _hasty(state, value, error) -> None:
    """The Hasty Entrenchment counters of the position (hex -> side 1, 2, 3 or hasty, MBT 6.6.8): they replace
    the scenario's."""
    from .adv_move_data import HASTY_SIDES, adv_move

    g = state.game
    full = adv_move(g).hasty_complete()
    if not g.advanced or not isinstance(value, dict):
        raise error("extension hasty_entrenchments: an Advanced Game mapping hex -> 1, 2, 3 or hasty (MBT 6.6.8)",
                    "/extension/hasty_entrenchments")
    out = {}
    for label, side in value.items():
        if label not in g.map.hex_of or str(side) not in HASTY_SIDES:
            raise error(f"hasty_entrenchments {label!r}: {side!r} (a hex label -> 1, 2, 3 or hasty)",
                        f"/extension/hasty_entrenchments/{label}")
        done = HASTY_SIDES[str(side)]
        out[g.map.hex(label)] = full if done is None else done
    state.hasty = out


def _burning(state, value, error) -> None:
    """Fires burning at the position (MBT 7.35): hex label -> the turn the fire started; checked, and kept only
    while optional rule fires is on (as the position's minefields with mines off)."""
    g = state.game
    where = "/extension/burning"
    if not g.advanced:
        raise error("extension burning: an Advanced Game optional rule (MBT 7.35)", where)
    if not isinstance(value, dict):
        raise error("extension burning: a mapping hex -> turn the fire started", where)
    out = {}
    for label, turn in value.items():
        if label not in g.map.hex_of or isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
            raise error(f"extension burning: {label!r}: a hex of the map and a turn >= 1", f"{where}/{label}")
        out[g.map.hex(label)] = turn
    state.burning = out if g.optional_on("fires") else {}


def _bridges(state, items, error) -> None:
    """AVLB bridges at the position (MBT 7.49), laid the turn before; kept only while optional rule avlb is on."""
    from studio.hexgrid.coords import neighbour
    from studio.model.maps import edge_key

    from .opt_avlb import HexBridge

    g = state.game
    where = "/extension/avlb_bridges"
    if not g.advanced or not isinstance(items, list):
        raise error("extension avlb_bridges: a list, in the Advanced Game (MBT 7.49)", where)
    mo = move_opt(g)
    for k, item in enumerate(items):
        at = f"{where}/{k}"
        if not isinstance(item, dict) or set(item) - {"avlb", "hex", "from", "broken"}:
            raise error("extension avlb_bridges: items {avlb, hex, from, broken}", at)
        i = g.uindex.get(item.get("avlb"), -1)
        h, a = g.map.hex_of.get(item.get("hex")), g.map.hex_of.get(item.get("from"))
        if i < 0 or (g.optional_on("avlb") and (state._avlb_limit(i) is None or not state.avlbc[i])):
            raise error(f"extension avlb_bridges: {item.get('avlb')!r} is not an AVLB with its bridge", at)
        axis = next((f for f in range(6) if a is not None and neighbour(a, f) == h), None)
        if h is None or axis is None:
            raise error("extension avlb_bridges: hex and from must be adjacent hexes of the map", at)
        if not g.optional_on("avlb"):
            continue
        if g.map.terrain.get(h, "") in mo.avlb_hex:
            state.avlbh[h] = HexBridge(i, state.turn - 1, axis, bool(item.get("broken", False)))
        elif (g.features.get(edge_key(a, h)) or _NO_FEATURE).id in mo.avlb_span:
            state.avlb[edge_key(a, h)] = (i, state.turn - 1)
        else:
            raise error("extension avlb_bridges: nothing an AVLB spans there (table avlb-span)", at)
        state.avlbc[i] = False


class _NoFeature:
    id = None


_NO_FEATURE = _NoFeature()


def _item(model, x):
    if model is str:
        if not isinstance(x, str):
            raise TypeError(f"a hex label, not {x!r}")
        return x
    return model.model_validate(x).model_dump()


def _apply(state, key: str, items: list, own_units: bool) -> None:
    g = state.game
    mo = move_opt(g)
    if key == "minefields":
        fields = _minefields(g, mo.mine_values, items, forbidden=mo.mine_forbidden)
        state.mines = [MineState(f, f.hexes if f.visible else frozenset(), frozenset()) for f in fields] \
            if g.optional_on("mines") else []
        return
    if not own_units:
        raise DataError(f"{key} in a position need the position's own units (a game copy)")
    if key == "narrow_roads":
        from .opt_move_data import _hex

        narrow = frozenset(_hex(g, h, "narrow_roads") for h in items)
        g.__dict__["_move_opt"] = dataclasses.replace(mo, narrow=narrow, cards={}, xc_cache={})
        return
    bridge, ice = _limits(g, items)
    g.__dict__["_move_opt"] = dataclasses.replace(mo, bridge_limit=bridge, ice_limit=ice, cards={}, xc_cache={})


__all__ = ["MOVE_EXTENSION", "MOVE_STATUS", "apply_move_extension", "apply_move_status"]


#: unit status keys of the Advanced movement rules: ``hull_down`` none | hd | phd | hd-rev | phd-rev (MBT 6.6.9;
#: ``-rev``: reversed into the position, protected from the rear); ``full_cover`` (MBT 6.1.4.2); ``inb`` the
#: hedgerow hexside 0-5 a leg unit is INB on (MBT 7.10); ``upper_floor`` on the top floor of a multi-story building
#: (MBT 6.1.4.3.1, ``leg_levels``)
MOVE_STATUS = {"hull_down": str, "full_cover": bool, "inb": int, "upper_floor": bool}
HULL_DOWN = {"none": (0, False), "hd": (1, False), "phd": (2, False), "hd-rev": (1, True), "phd-rev": (2, True)}


def apply_move_status(state, i: int, pu, error) -> None:
    """Set unit ``i``'s Hull Down position from its status (MBT 6.6.9)."""
    value = pu.status.get("hull_down", "none")
    if value not in HULL_DOWN:
        raise error(f"hull_down must be one of {', '.join(HULL_DOWN)}, not {value!r}", f"/units/{i}/status/hull_down")
    if value != "none" and (state.is_leg(i) or state.game.units[i].type.ag.heli):
        raise error("hull_down: only vehicles take Hull Down positions (MBT 6.1.4.1)", f"/units/{i}/status/hull_down")
    state.hd[i], state.hdrev[i] = HULL_DOWN[value]
    fc = pu.status.get("full_cover", False)
    if fc and not state.is_leg(i):
        raise error("full_cover: only leg units take Full Cover (MBT 6.1.4.2)", f"/units/{i}/status/full_cover")
    state.fc[i] = bool(fc)
    inb = pu.status.get("inb")
    if inb is not None:
        if isinstance(inb, bool) or inb not in range(6) or not state.is_leg(i) or inb not in state._hedgerow_sides(i):
            raise error("inb: a leg unit's hedgerow hexside 0-5 (MBT 7.10)", f"/units/{i}/status/inb")
        state.inb[i] = inb
    from .leg_levels import apply_level_status

    apply_level_status(state, i, pu, error)
