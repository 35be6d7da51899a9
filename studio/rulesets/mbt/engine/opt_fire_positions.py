"""Position documents for the direct-fire optional rules (``studio.rules.position``, MBT positions): unit status
``turret`` (the turret's offset in hexsides clockwise from the hull front, 0-5, MBT 7.8), ``buttoned`` (an A-Type
Buttoned Up, 7.8.3), ``collateral`` (collateral effects already suffered, 7.23: optics, night-equipment, coax,
turret-ring, radio, running-gear, fuel), ``malfunctioned`` (weapon ids out of action until repaired, 7.25) and
``fired_at_last_turn`` (the unit id it fired at last turn with a Fire command, 7.50). Each needs its optional
rule switched on in the scenario."""
from __future__ import annotations

from .opt_fire_specs import COLLATERAL_EFFECTS

FIRE_STATUS = {"turret": int, "buttoned": bool, "collateral": list, "malfunctioned": list,
               "fired_at_last_turn": str}
_RULE = {"turret": "turrets", "buttoned": "turrets", "collateral": "vehicle-collateral-damage",
         "malfunctioned": "weapon-malfunction", "fired_at_last_turn": "nato-target-acquisition"}
_FLAG = {"turrets": "turrets", "vehicle-collateral-damage": "collateral", "weapon-malfunction": "malfunction",
         "nato-target-acquisition": "nato"}


def _error(message: str, pointer: str):
    from studio.rules.position import PositionError

    return PositionError(message, pointer, code="position.mbt")


def apply_fire_status(state, position) -> None:
    """The fire optional rules' unit statuses onto ``state``; raises ``PositionError`` for a status whose rule
    is off or a bad value."""
    g = state.game
    rec = state.ofire
    for i, pu in enumerate(position.units or []):
        for key in FIRE_STATUS:
            if key not in pu.status:
                continue
            pointer = f"/units/{i}/status/{key}"
            rule = _RULE[key]
            if rec is None or not rec.d.on[_FLAG[rule]]:
                raise _error(f"status '{key}' needs the optional rule '{rule}' switched on", pointer)
            _apply(state, g.uindex[g.units[i].name], key, pu.status[key], pointer)


def _apply(state, i: int, key: str, value, pointer: str) -> None:
    rec = state.ofire
    g = state.game
    if key == "turret":
        if not 0 <= value <= 5:
            raise _error(f"turret offset must be 0-5 hexsides from the hull front, not {value}", pointer)
        rec.toff[i] = value
    elif key == "buttoned":
        rec.btn[i] = value
    elif key == "collateral":
        bad = [v for v in value if v not in COLLATERAL_EFFECTS]
        if bad:
            raise _error(f"collateral effect {bad[0]!r} is not one of {', '.join(COLLATERAL_EFFECTS)}", pointer)
        rec.collat[i] = frozenset(value)
    elif key == "malfunctioned":
        weapons = {r.weapon for r in g.units[i].type.ap}
        bad = [v for v in value if v not in weapons]
        if bad:
            raise _error(f"weapon {bad[0]!r} is not a weapon of {g.units[i].name}", pointer)
        rec.malf[i] = frozenset(value)
    elif value not in g.uindex:
        raise _error(f"no unit '{value}'", pointer)
    else:
        rec.tgt[i] = g.uindex[value]  # the position set-up's turn start makes it last turn's target


__all__ = ["FIRE_STATUS", "apply_fire_status"]
