"""The two MBT Advanced Game sample scenarios (issue 12, Deliver 4): they validate cleanly, field infantry,
artillery or air as their titles promise, seat every mounted passenger (MBT 6.6.7.1), give every side with off-map
artillery an observer (MBT 6.5.1.1) and fit the aircraft loads to the card (MBT 6.7.1)."""
from functools import lru_cache
from pathlib import Path

import pytest

from studio.model.forces import expand_force
from studio.model.validate import validate_paths
from studio.rulesets.mbt.cards import (BatteryBody, FixedWingBody, HelicopterBody, LegBody, VehicleBody,
                                       assign_passengers)

DATA = Path(__file__).resolve().parents[3] / "data"
SCENARIOS = {"mbt-adv-combined-arms": "adv-combined-arms.yaml", "mbt-adv-air-strike": "adv-air-strike.yaml"}


@lru_cache(maxsize=1)
def result():
    return validate_paths([DATA])


def scenario(sid):
    return result().index.model("scenario", sid)


def bodies(force):
    index = result().index
    return [index.model("unit", u.unit).body for u in expand_force(force, index)]


@pytest.mark.parametrize("sid", sorted(SCENARIOS))
def test_advanced_scenarios_validate_without_findings(sid):
    mine = [d for d in result().diagnostics if Path(d.file).name == SCENARIOS[sid]
            and d.severity.value in ("error", "warning")]
    assert not mine, [d.format_text() for d in mine]
    sc = scenario(sid)
    assert sc.extension.game == "advanced"
    assert set(sc.extension.force_grades) == {s.id for s in sc.sides}          # MBT 5.8


@pytest.mark.parametrize("sid", sorted(SCENARIOS))
def test_both_sides_field_infantry_and_every_mounted_passenger_has_a_seat(sid):
    sc = scenario(sid)
    for side in sc.sides:
        assert any(isinstance(b, LegBody) for f in side.forces for b in bodies(f)), side.id
    forces = {f.id: f for s in sc.sides for f in s.forces}
    assert sc.extension.mounted
    for m in sc.extension.mounted:
        passengers = [(i, b.passenger_capacity) for i, b in enumerate(bodies(forces[m.force]))
                      if isinstance(b, LegBody)]
        carriers = [(i, b.general.transport) for i, b in enumerate(bodies(forces[m.carriers or m.force]))
                    if isinstance(b, VehicleBody)]
        seats, left = assign_passengers(carriers, passengers)
        assert passengers and not left and len(set(seats.values())) == len(seats)   # one squad per IFV/APC


def test_combined_arms_has_artillery_and_observers_on_both_sides():
    sc = scenario("mbt-adv-combined-arms")
    index = result().index
    sides = {a.side for a in sc.extension.artillery}
    assert sides == {"us", "sov"}
    for a in sc.extension.artillery:
        assert isinstance(index.model("unit", a.battery).body, BatteryBody)
        assert a.attachment == "attached" and a.force in {f.id for s in sc.sides if s.id == a.side for f in s.forces}
    us = next(s for s in sc.sides if s.id == "us")
    mortars = [b for f in us.forces for b in bodies(f) if isinstance(b, VehicleBody)
               and any(w.weapon_type == "mortar" for w in b.weapons)]
    assert len(mortars) == 3                                                     # M106A2 x2, M125A2 (on-map IF)
    for side in sc.sides:
        assert any("fo" in b.labels for f in side.forces for b in bodies(f)), side.id


def test_air_strike_has_aircraft_helicopters_and_air_defence():
    sc = scenario("mbt-adv-air-strike")
    index = result().index
    (a10,) = sc.extension.aircraft
    card = index.model("unit", a10.aircraft).body
    assert isinstance(card, FixedWingBody) and len(a10.loads) <= card.max_loads
    assert card.load_points(a10.loads, a10.pgm) == 174 + 30 + 40 + 30 + 20     # MBT 6.7.1 point values
    us, sov = sc.sides
    assert any(isinstance(b, HelicopterBody) for f in us.forces for b in bodies(f))
    assert not any(isinstance(b, HelicopterBody) for f in sov.forces for b in bodies(f))   # one side flies (6.7)
    assert any(w.aa is not None and w.aa.radar for f in sov.forces for b in bodies(f) for w in b.weapons)


def test_infantry_toes_carry_their_squads_and_weapons():
    index = result().index
    for toe_id, carrier, squad, weapons in (("us-m113-mech-platoon", "m113", "us-mech-squad", {"dragon", "law"}),
                                            ("us-m2a1-mech-platoon", "m2a1", "us-mech-squad", {"dragon", "law"}),
                                            ("sov-bmp2-mr-platoon", "bmp-2", "sov-mr-squad", {"rpg-7"})):
        toe = index.model("toe", toe_id)
        units = [s.unit for s in toe.root.slots for _ in range(s.count)]
        assert units.count(squad) == units.count(carrier) >= 3          # one squad per carrier
        assert set(index.model("unit", squad).body.attached_weapons) == weapons
