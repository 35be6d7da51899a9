"""Supply units, medical units and the Battalion Aid Station at work in the Move Phase (BfOps p.18-19; digest
c.18; B102, B103).

- Supply (p.18, B102): a supply unit (card ``capabilities.supply``: jeep, medium or heavy truck) carries
  ammunition loads; the base quantities are base rules (table ``sequence`` supply_jeep_loads and
  supply_medium_truck_loads, placeholders), a heavy truck carries twice the medium truck's (``procedures``
  heavy_truck_factor, the update's number). The only ammunition the engine counts is the automatic grenade
  launcher's reloads (p.8): a supply unit whose element holds, adjacent (``sequence`` adjacent_in) to a friendly
  unit that has used AGL reloads, gives one back each Move Phase until its loads are spent. "Additional rules
  for supply will be released at a later date."
- Medical (p.18, B103): a medical unit (``capabilities.medical``) whose element holds adjacent to a disabled
  friendly infantry unit treats it; after ``sequence`` medical_phases Move Phases, a Unit Rating check of the
  medical unit (the base rule's check and interval: placeholders) brings back ``sequence`` medical_hits Hits
  (the squad returns to play). With a Battalion Aid Station on the table (a friendly unit with
  ``capabilities.battalion_aid_station``), a holding vehicle with room (``carry_hits``: a jeep a 1-Hit Fire
  Team, trucks and armoured transports a squad or more) takes a disabled friendly infantry unit adjacent to it
  aboard instead (:mod:`.bailout`); a carrier holding adjacent to the Station sets its casualties down there,
  and after the same interval the same check (the Station's Unit Rating) restores the full unit (p.19).
"""
from __future__ import annotations

import shapely

from .bailout import passengers, room, set_down

SUPPLY_LOADS = {"jeep": "supply_jeep_loads", "medium_truck": "supply_medium_truck_loads"}


def loads(game, card) -> int:
    """Ammunition loads a supply unit carries (BfOps p.18, B102: heavy truck = 2 x medium truck)."""
    kind = card.capabilities.supply
    seq = game.tables.sequence
    if kind == "heavy_truck":
        return int(seq["supply_medium_truck_loads"] * game.tables.procedure("heavy_truck_factor"))
    return int(seq[SUPPLY_LOADS[kind]]) if kind in SUPPLY_LOADS else 0


def _holding(state, u) -> bool:
    return not u.disabled and not u.bogged and not u.sup_move and state.orders.get(u.element, "hold") == "hold"


def _adjacent(state, a, b) -> bool:
    g = state.game
    return float(shapely.distance(g.footprint(a), g.footprint(b))) <= g.tables.sequence["adjacent_in"] + 1e-9


def resupply(state) -> None:
    """Supply units give AGL reloads back (module docstring)."""
    g = state.game
    for s in state.units:
        card = g.card_of(s)
        if card.capabilities.supply == "none" or not _holding(state, s):
            continue
        key = f"supply:{s.id}"
        for v in state.units:
            if state.work.get(key, 0) >= loads(g, card):
                break
            if v.side == s.side and v is not s and not v.disabled and v.reloads > 0 and _adjacent(state, s, v):
                v.reloads -= 1
                state.work[key] = state.work.get(key, 0) + 1
                state.narrate(f"{s.id} resupplies {v.id}: one AGL reload back ({loads(g, card) - state.work[key]} "
                              "loads left, BfOps p.18)")


def _stations(state, side: int) -> list:
    return [u for u in state.units if u.side == side and not u.disabled
            and state.game.card_of(u).capabilities.battalion_aid_station]


def _casualties(state, side: int) -> list:
    return [v for v in state.units if v.side == side and v.disabled and state.game.card_of(v).infantry is not None]


def _treat(state, medic, v, key: str, full: bool) -> None:
    """One Move Phase of treatment; after the interval the Unit Rating check (p.18-19)."""
    g = state.game
    seq = g.tables.sequence
    state.work[key] = state.work.get(key, 0) + 1
    if state.work[key] < max(1, int(seq["medical_phases"])):
        state.narrate(f"{medic.id} treats {v.id} (BfOps p.18)")
        return
    del state.work[key]
    number = g.card_of(medic).unit_rating
    roll = state.dice.roll(10, f"medical {medic.id}>{v.id}")
    if roll > number:
        state.narrate(f"{medic.id} treats {v.id}: roll {roll} > {number:g}: not recovered")
        return
    size = g.card_of(v).infantry.hits
    v.hits = 0 if full else max(0, size - int(seq["medical_hits"]))
    v.disabled = False
    v.sup_move, v.sup_fire = False, 0
    state.narrate(f"{medic.id} recovers {v.id}: roll {roll} <= {number:g}: back in play with "
                  f"{size - v.hits} Hit(s) ({'Battalion Aid Station, ' if full else ''}BfOps p.18-19)")


def _evacuate(state, side: int, stations: list) -> None:
    """With a Battalion Aid Station: carriers load casualties and set them down at the Station (p.18)."""
    g = state.game
    for c in state.units:
        if c.side != side or not _holding(state, c) or g.card_of(c).capabilities.carry_hits <= 0:
            continue
        station = next((b for b in stations if _adjacent(state, c, b)), None)
        if station is not None:
            for v in passengers(state, c.id):
                set_down(state, v, station)                          # beside the Station's tent
                state.narrate(f"{c.id} brings the casualty {v.id} to the Battalion Aid Station {station.id} "
                              "(BfOps p.18)")
            continue
        for v in _casualties(state, side):
            if g.card_of(v).infantry.hits <= room(state, c) and _adjacent(state, c, v) and \
                    not any(_adjacent(state, v, b) for b in stations):
                state.units.remove(v)
                v.aboard = c.id
                state.carried.append(v)
                state.narrate(f"{c.id} takes the casualty {v.id} aboard (BfOps p.18)")


def medical(state) -> None:
    """Medical units and Battalion Aid Stations (module docstring)."""
    g = state.game
    for side in (0, 1):
        stations = _stations(state, side)
        if stations:
            _evacuate(state, side, stations)
        for v in _casualties(state, side):
            station = next((b for b in stations if _adjacent(state, v, b)), None)
            if station is not None:
                _treat(state, station, v, f"aid:{station.id}:{v.id}", True)
                continue
            medic = next((m for m in state.units if m.side == side and g.card_of(m).capabilities.medical
                          and _holding(state, m) and _adjacent(state, m, v)), None)
            if medic is not None:
                _treat(state, medic, v, f"medic:{medic.id}:{v.id}", False)
