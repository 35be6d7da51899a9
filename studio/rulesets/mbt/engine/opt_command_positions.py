"""Position documents for the optional rules of morale, hidden units, spotting and command (``studio.rules.position``,
key ``extension``, MBT positions): the scenario-extension keys of these rules in the same form
(``hidden_units``, ``hidden_limit``, ``platoons``, ``camouflaged``, ``delayed_reaction``,
``disrupted_communications``, ``command_span``, ``ground_radar``, ``searchlights_on``, ``ground_conditions``,
``cautious_movement``, ``command_units``, ``command_tree``, ``ground_hexes``, ``very_limited_visibility``) plus ``cohesion_point`` (side -> Numeric Cohesion Point of its
formation), ``morale_losses`` (side -> losses already recorded), ``force_grades`` (side -> Force Grade, in
place of the scenario's: the position's formations and units take it, MBT 5.8) and ``formations`` (unit id ->
formation name; a position's units otherwise form one formation per side); unit status ``morale`` (none,
hesitation-on, hesitation-off, break-on, break-off). They need a position with its own units, whose game copy
they change."""
from __future__ import annotations

from pydantic import ValidationError

from .data import DataError
from .morale import MOR_CODES
from .opt_command_data import compile_opt_command_scenario

SCENARIO_KEYS = ("hidden_units", "hidden_limit", "platoons", "camouflaged", "delayed_reaction",
                 "disrupted_communications", "command_span", "ground_radar", "searchlights_on", "ground_conditions",
                 "cautious_movement", "command_units", "command_tree", "ground_hexes", "very_limited_visibility")
COMMAND_EXTENSION = SCENARIO_KEYS + ("cohesion_point", "morale_losses", "force_grades", "formations")
COMMAND_STATUS = {"morale": str}


def _error(message: str, pointer: str):
    from studio.rules.position import PositionError

    return PositionError(message, pointer, code="position.mbt")


def command_position_game(twin, position) -> None:
    """Recompile these rules' scenario data on ``twin`` (a game copy with the position's units) from the
    position's extension; raises ``PositionError`` for bad data."""
    from ..cards import MbtScenarioExtension

    ext = {k: v for k, v in (position.extension or {}).items() if k in COMMAND_EXTENSION}
    try:
        checked = MbtScenarioExtension.model_validate({k: v for k, v in ext.items() if k in SCENARIO_KEYS})
    except ValidationError as exc:
        raise _error(f"extension: {exc.errors()[0]['msg']} at {exc.errors()[0]['loc']}", "/extension") from None
    data = checked.model_dump()
    data.update({k: ext[k] for k in ("cohesion_point", "morale_losses") if k in ext})
    for key in ("cohesion_point", "morale_losses"):
        for side, value in (data.get(key) or {}).items():
            if side not in twin.sides or isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise _error(f"extension {key}: {side!r}: {value!r} (a side id -> a number of 0 or more)",
                             f"/extension/{key}")
    _formations(twin, ext.get("formations"))
    _grades(twin, ext.get("force_grades"))
    try:
        twin.ocs = compile_opt_command_scenario(twin, data, position=True)
        twin.oc_snow = twin.oc_night and twin.ocs.ground == "snow"
    except DataError as exc:
        raise _error(str(exc), "/extension") from None


def _formations(twin, given) -> None:
    """Units of the position in named formations (one per side and name)."""
    if not given:
        return
    import dataclasses

    from .grades import assign_formations

    if not isinstance(given, dict) or any(k not in twin.uindex or not isinstance(v, str) for k, v in given.items()):
        raise _error(f"extension formations: {given!r} (a unit id -> a formation name)", "/extension/formations")
    twin.units = [dataclasses.replace(u, force=given.get(u.name, u.force)) for u in twin.units]
    assign_formations(twin)


def _grades(twin, given) -> None:
    """The position's Force Grades (side -> grade) replace the scenario's (MBT 5.8)."""
    if not given:
        return
    from .ag_specs import GRADES
    from .grades import assign_formations

    if not isinstance(given, dict) or any(s not in twin.sides or g not in GRADES for s, g in given.items()):
        raise _error(f"extension force_grades: {given!r} (a side id -> one of {', '.join(GRADES)})",
                     "/extension/force_grades")
    twin.force_grades = [given.get(side, grade) for side, grade in zip(twin.sides, twin.force_grades)]
    assign_formations(twin)


def apply_command_extension(state, position, own_units: bool) -> None:
    """Unit ``morale`` statuses onto ``state``; these rules' extension keys need the position's own units."""
    ext = position.extension or {}
    mine = [k for k in ext if k in COMMAND_EXTENSION]
    if mine and not own_units:
        raise _error(f"extension {mine[0]}: needs a position with its own units", f"/extension/{mine[0]}")
    for i, pu in enumerate(position.units or []):
        value = pu.status.get("morale")
        if value is None:
            continue
        if value not in MOR_CODES:
            raise _error(f"morale must be one of {', '.join(MOR_CODES)}, not {value!r}", f"/units/{i}/status/morale")
        state.mor[i] = MOR_CODES[value]
