"""Scenario forces as World at War formations: TO&E expansion and deterministic set-up placement.

Shared by the static checks and the engine so both see the same units in the same hexes.

* A force's units are ``studio.model.forces.expand_force`` (its TO&E's vehicles depth first, substitutions
  applied). Unit ``index`` (0-based, in this order) names a unit in the extension.
* Set-up ``hexes``: one hex per unit when there are as many hexes as units; one shared hex when a single hex is
  given; otherwise unit ``i`` of ``n`` goes to ``hexes[i * len // n]``. ``zone``: hexes are filled in order, at
  most two stacking units per hex (WaW 1.4), HQs joining the previous unit's hex.
"""
from __future__ import annotations

from dataclasses import dataclass

from studio.model.forces import expand_force

STACK_EXEMPT = ("hq", "helicopter", "support_weapon", "sniper", "leader", "hero")


@dataclass
class ForceUnit:
    force: str
    index: int
    unit: str            # card id
    slot: str            # slot path
    role: str
    hex: str | None = None


def unit_class(index, unit_id: str) -> str | None:
    card = index.model("unit", unit_id)
    body = getattr(card, "body", None)
    return getattr(body, "unit_class", None)


def force_units(force, index) -> list[ForceUnit]:
    units = [ForceUnit(force.id, i, u.unit, u.path, u.role) for i, u in enumerate(expand_force(force, index))]
    place(force, units, index)
    return units


def place(force, units: list[ForceUnit], index) -> None:
    if force.setup is None:
        return
    n = len(units)
    hexes = list(force.setup.hexes)
    if hexes:
        for i, u in enumerate(units):
            u.hex = hexes[i] if len(hexes) == n else hexes[i * len(hexes) // n]
        return
    zone = list(force.setup.zone)
    if not zone:
        return
    load: dict[str, int] = {}
    zi = 0
    last = zone[0]
    for u in units:
        cls = unit_class(index, u.unit)
        if cls in STACK_EXEMPT:
            u.hex = last
            continue
        while zi < len(zone) and load.get(zone[zi], 0) >= 2:
            zi += 1
        h = zone[min(zi, len(zone) - 1)]
        u.hex = h
        last = h
        load[h] = load.get(h, 0) + 1


def scenario_units(scenario, index) -> dict[str, list[ForceUnit]]:
    """Force id -> its units (with set-up hexes; None for entering forces)."""
    out = {}
    for side in scenario.sides:
        for force in side.forces:
            out[force.id] = force_units(force, index)
    return out


def side_of_force(scenario) -> dict[str, str]:
    return {f.id: s.id for s in scenario.sides for f in s.forces}
