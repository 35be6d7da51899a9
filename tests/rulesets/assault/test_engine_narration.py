"""Narration (COMMON narration contract): the engine appends what each roll did to ``state.events`` only while
the dice record; events are copied by clone, left out of the fingerprint and empty in observations."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def state_of(index, units, phase, dice=(), record=True):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", "assault-meeting"), index, {o.id: o.default for o in rs.options})
    doc = {"kind": "position", "schema_version": 1, "scenario": "assault-meeting", "phase": phase, "units": units}
    state = game.state_from_position(Position.model_validate(doc))
    state.dice.force(*dice)
    state.dice.record = record
    return state


DUEL = [{"id": "us", "card": "us-m1-platoon", "side": "us", "hex": "B1010", "facing": 3, "status": {"spotted": True}},
        {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "B1012", "facing": 0,
         "status": {"spotted": True}}]


def test_fire_is_narrated_with_its_rolls(index):
    state = state_of(index, DUEL, "us-fire", dice=[1, 9, 10, 10, 10])
    state.play("fire us KP su")
    state.play("end")
    state.play("end")
    text = " | ".join(state.events)
    assert "us fires KP at su, range 2" in text and "hit roll 1" in text and "hit roll 9" in text
    assert "checks morale" in text
    labels = [label for label, _ in state.dice.history]
    assert "KP hit us>su" in labels


def test_no_narration_without_recording_and_not_in_fingerprint_or_observation(index):
    quiet = state_of(index, DUEL, "us-fire", dice=[1, 9, 10, 10, 10], record=False)
    loud = state_of(index, DUEL, "us-fire", dice=[1, 9, 10, 10, 10])
    for s in (quiet, loud):
        s.play("fire us KP su")
        s.play("end")
        s.play("end")
    assert quiet.events == [] and loud.events
    assert quiet.fingerprint() == loud.fingerprint()
    assert loud.clone().events == loud.events
    assert loud.observation(0).events == [] and loud.observation(1).events == []


def test_spotting_and_artillery_are_narrated(index):
    units = [{"id": "m", "card": "us-m125-mortar", "side": "us", "hex": "B1010", "status": {"deployed": True}},
             {"id": "su", "card": "su-motor-rifle-platoon", "side": "soviet", "hex": "B1011"}]
    state = state_of(index, units, "us-move-2", dice=[10] * 8)
    state.play("end")
    assert any(e.startswith(("spotting su", "su is spotted")) for e in state.events)
    while state.phase_id() != "artillery":
        state.play("end")
    state.play("end")
    state.play("plot m B1011 HE")
    state.play("end")
    assert any("HE mission on B1011" in e for e in state.events)
    assert any(e.startswith("indirect fire") for e in state.events)
