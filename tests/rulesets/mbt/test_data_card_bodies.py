"""MBT card categories of the Advanced Game (issue 12): every category has a body model registered with the
plugin and a schema, the models refuse values outside the rules' enumerations, and the passenger seating rule
(MBT 6.6.7.1) shared by the checks and the engine."""
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from studio.model.registry import plugin
from studio.rulesets.mbt.cards import (CARD_BODIES, BatteryBody, CoverGpDefense, LegBody, MbtScenarioExtension,
                                       Transport, VehicleBody, assign_passengers)

REPO = Path(__file__).resolve().parents[3]

LEG = {"unit_type": "Motor Rifle", "leg_size": "squad", "movement": {"cross_country": 2, "quickmarch": 3},
       "size": "S", "gp_defense": {"none": 2, "light": 4, "medium": 6, "heavy": 8},
       "passenger_capacity": {"towed": 0, "leg": 1}}


def test_every_category_is_registered_with_a_schema():
    plug = plugin("mbt")
    assert set(plug.card_bodies) == {"vehicle", "leg", "crew_served", "towed", "fixed_wing", "helicopter",
                                     "battery"}
    for category, model in CARD_BODIES.items():
        assert plug.card_body_model(category) is model
        schema = json.loads((REPO / "schemas" / "mbt" / f"unit-{category}.schema.json").read_text())
        assert schema["properties"]["body"], category


def test_leg_movement_is_leg_traction_and_gp_defense_by_cover():
    body = LegBody.model_validate(LEG)
    assert body.movement.traction == "L" and body.movement.quickmarch == 3      # MBT 6.6.4.1 '2L 3'
    assert [body.gp_defense.for_cover(c) for c in ("none", "light", "medium", "heavy")] == [2, 4, 6, 8]
    with pytest.raises(ValidationError):
        LegBody.model_validate({**LEG, "movement": {"cross_country": 2, "traction": "T", "quickmarch": 3}})
    with pytest.raises(ValidationError):   # MBT 6.5.4.2.2: GPD 1..10
        CoverGpDefense.model_validate({"none": 0, "light": 4, "medium": 6, "heavy": 8})
    with pytest.raises(ValidationError):   # full cover adds "1 or 2"
        CoverGpDefense.model_validate({"none": 2, "light": 4, "medium": 6, "heavy": 8, "full_cover_bonus": 3})


def test_battery_needs_a_mission_and_a_known_class():
    weapon = {"id": "guns", "name": "122mm", "sight": {"primary": "O"}, "tt_factor": 360,
              "ammo": [{"ammo_type": "HE", "kind": "GP-IF", "range": {"E": 60}, "gp_factor": {"E": 6}}]}
    ok = BatteryBody.model_validate({"battery_class": "light", "tubes": 6, "missions": ["GP", "smoke"],
                                     "weapon": weapon})
    assert ok.missions == ["GP", "smoke"]
    with pytest.raises(ValidationError):
        BatteryBody.model_validate({"battery_class": "tiny", "tubes": 6, "missions": ["GP"], "weapon": weapon})
    with pytest.raises(ValidationError):
        BatteryBody.model_validate({"battery_class": "light", "tubes": 6, "missions": [], "weapon": weapon})


def test_attachment_levels_are_the_three_of_the_rules():
    ext = MbtScenarioExtension.model_validate(
        {"game": "advanced", "artillery": [{"side": "sov", "battery": "x", "attachment": "organic"}]})
    assert ext.artillery[0].attachment == "organic"
    with pytest.raises(ValidationError):
        MbtScenarioExtension.model_validate({"artillery": [{"side": "sov", "battery": "x", "attachment": "direct"}]})


def test_assign_passengers_seats_in_order_and_tows_one_unit_only():
    carriers = [("apc-1", Transport(towed=1, leg=2)), ("apc-2", Transport(towed=1, leg=1))]
    squad, gun = Transport(towed=0, leg=1), Transport(towed=1, leg=1)
    seats, left = assign_passengers(carriers, [("sq-1", squad), ("gun-1", gun), ("gun-2", gun), ("sq-2", squad)])
    # sq-1 takes one leg seat of apc-1, gun-1 the rest of apc-1 (towed 1 + leg 1), gun-2 all of apc-2
    assert seats == {"sq-1": "apc-1", "gun-1": "apc-1", "gun-2": "apc-2"}
    assert left == ["sq-2"]
    seats, left = assign_passengers([("t", Transport(towed=2, leg=2))], [("g1", gun), ("g2", gun)])
    assert seats == {"g1": "t"} and left == ["g2"]          # tows only a single unit (MBT 6.6.7.1)


def test_smoke_dischargers_are_the_d_ammo_limit():
    from studio.model.project import load_document

    doc = load_document(REPO / "data" / "units" / "mbt" / "t-80bv.yaml")
    assert isinstance(doc.model.body, VehicleBody)
    assert doc.model.body.smoke_discharger_limit() == 5     # MBT 5.16.2: T-80BV D 5
    m2 = load_document(REPO / "data" / "units" / "mbt" / "m2a1.yaml").model.body
    assert m2.smoke_discharger_limit() is None
