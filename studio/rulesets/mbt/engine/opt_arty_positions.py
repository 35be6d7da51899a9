"""Position extensions of indirect fire and smoke (``studio.rules.position`` documents, key ``extension``):
``smoke`` (clouds on the map: ``{hexes: [...], sheaf: open | closed, on: true, kind: smoke | illum}``, in effect at
once), and, in a position with its own units (whose game copy they change), the scenario-extension blocks
``counter_battery`` (MBT 7.28), ``pre_registered`` (6.5.1.4) and ``planned_fire`` (6.5.1.11), replacing the
scenario's."""
from __future__ import annotations

from pydantic import ValidationError

from .data import DataError
from .smoke import ArtyState, Cloud

ARTY_EXTENSION = ("smoke", "counter_battery", "pre_registered", "planned_fire")
SCENARIO_KEYS = ("counter_battery", "pre_registered", "planned_fire")


def _models() -> dict:
    from ..cards import CounterBatteryAsset, PlannedFire, PreRegisteredPoint

    return {"counter_battery": CounterBatteryAsset, "pre_registered": PreRegisteredPoint,
            "planned_fire": PlannedFire}


def apply_arty_extension(state, ext: dict, error, own_units: bool) -> None:
    """Set the position's artillery extensions on ``state``; ``error(message, pointer)`` builds the position error
    raised for bad data."""
    g = state.game
    keys = [k for k in ARTY_EXTENSION if k in ext]
    if not keys:
        return
    if not g.advanced:
        raise error(f"extension {keys[0]}: Advanced Game indirect fire and smoke (MBT 6.5.1)", f"/extension/{keys[0]}")
    scen = [k for k in keys if k in SCENARIO_KEYS]
    if scen:
        if not own_units:
            raise error(f"extension {scen[0]}: needs the position's own units (a game copy)", f"/extension/{scen[0]}")
        _scenario_blocks(state, ext, scen, error)
    if "smoke" in ext:
        _smoke(state, ext["smoke"], error)


def _scenario_blocks(state, ext: dict, keys: list, error) -> None:
    from .if_data import if_data

    g = state.game
    models = _models()
    extension = dict(g.extension)
    for key in keys:
        try:
            extension[key] = [models[key].model_validate(x).model_dump() for x in ext[key] or ()]
        except (ValidationError, TypeError) as exc:
            raise error(f"extension {key}: {exc}", f"/extension/{key}") from None
    g.extension = extension
    g.__dict__.pop("_ifd", None)
    try:
        ifd = if_data(g)
    except DataError as exc:
        raise error(str(exc), f"/extension/{keys[0]}") from None
    state.arty = ArtyState(len(g.batteries), len(ifd.plans), len(ifd.cb_assets))


def _smoke(state, items, error) -> None:
    g = state.game
    clouds = []
    for k, item in enumerate(items or ()):
        where = f"/extension/smoke/{k}"
        if not isinstance(item, dict) or item.get("sheaf", "closed") not in ("open", "closed") or \
                item.get("kind", "smoke") not in ("smoke", "illum"):
            raise error("smoke: {hexes: [...], sheaf: open | closed, on: true | false, kind: smoke | illum}", where)
        hexes = item.get("hexes") or []
        bad = [h for h in hexes if h not in g.map.hex_of]
        if bad or not hexes:
            raise error(f"smoke: hexes {bad or hexes!r} are not hexes of the scenario's boards", where)
        clouds.append(Cloud(item.get("kind", "smoke"), frozenset(g.map.hex(h) for h in hexes),
                            item.get("sheaf", "closed"), bool(item.get("on", True)), (0, 0)))
    state.arty.clouds = tuple(clouds)


__all__ = ["ARTY_EXTENSION", "apply_arty_extension"]
