"""Movement and stacking rules the engine plays (Assault 7.B, 7.D, 7.E, 9.B; option c18), through positions."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


#: the scenario's off-board OPs pay for each mover's order at 1 OP (option c31 'visible', Assault 4.B.3, 4.C)
PAID = {"c31-offboard-ops-visibility": "visible"}


def state_of(index, units, phase, dice=(), **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", "assault-probe"), index, {o.id: o.default for o in rs.options} | PAID | options)
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": phase, "units": units})
    state = game.state_from_position(pos)
    state.dice.force(*dice)
    return state


def inf(hexlabel, **status):
    return {"id": "inf", "card": "us-mech-infantry-platoon", "side": "us", "hex": hexlabel, "status": status}


ENEMY = {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "B2220"}


def moves(state, uid="inf"):
    return sorted(a.split()[2] for a in state.legal_actions() if a.startswith(f"move {uid} "))


def test_leg_unit_moves_one_hex(index):
    """Assault 7.D: a leg unit moves at most one hex per friendly movement phase."""
    state = state_of(index, [inf("A0913"), ENEMY], "us-move-1")
    assert len(moves(state)) == 6
    state.play("move inf A0914")
    assert moves(state) == []


@pytest.mark.parametrize("choice, after", [("stay", 0), ("retry", 5)])
def test_c18_failed_leg_roll(index, choice, after):
    """Woods A0613 needs a roll of 8 or less (placeholder terrain-effects); a 10 fails. 'stay' ends the unit's
    move; 'retry' lets it try the other hexes, not that one again."""
    state = state_of(index, [inf("A0712"), ENEMY], "us-move-1", dice=[10], **{"c18-leg-roll-fail": choice})
    assert "A0613" in moves(state)
    state.play("move inf A0613")
    assert state.counters[0].hex == state.game.map.hex("A0712")
    assert len(moves(state)) == after and "A0613" not in moves(state)


def test_leg_fatigue(index):
    """Assault 7.D: a leg unit that moves in the second movement phase may not move in the next first phase."""
    state = state_of(index, [inf("A0913"), ENEMY], "us-move-2")
    state.play("move inf A0914")
    state.play("end")
    assert state.counters[0].fatigued
    while state.phase_id() != "us-move-1":
        state.play("end" if state.phase_id() == "artillery" else state.legal_actions()[-1])
    assert moves(state) == []
    rested = state_of(index, [inf("A0913", fatigued=False), ENEMY], "us-move-1")
    assert moves(rested)


def test_ten_steps_fire_from_a_hex(index):
    """Assault 9.B: six M-1 platoons (12 steps) in one hex: after five have fired (10 steps) the sixth cannot."""
    units = [{"id": f"m{i}", "card": "us-m1-platoon", "side": "us", "hex": "A0120", "status": {"spotted": True}}
             for i in range(6)]
    units.append({"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "A0520", "status": {"spotted": True}})
    state = state_of(index, units, "us-fire")
    for i in range(5):
        state.play(f"fire m{i} KP su")
    assert not any(a.startswith("fire m5 ") for a in state.legal_actions())
    assert any(a.startswith("fire m4 ") for a in state.legal_actions())     # a unit that fired keeps its ROF


def test_A97_close_assault(index):
    """Assault 16: after movement, units of both sides in one hex (march formation included) fire at each other
    with their full ROF, the phasing player declaring first; in the fire phase nobody in that hex fires."""
    units = [{"id": "us", "card": "us-m1-platoon", "side": "us", "hex": "A0120", "status": {"spotted": True}},
             {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "A0120",
              "status": {"spotted": True, "formation": "march"}},
             {"id": "far", "card": "su-t80-platoon", "side": "soviet", "hex": "A0520", "status": {"spotted": True}}]
    state = state_of(index, units, "us-move-2", dice=[10] * 20)
    state.play("end")
    assert (state.phase_id(), state.current_player()) == ("us-move-2", 1)
    assert "fire us KP su" in state.legal_actions() and "fire us KP far" not in state.legal_actions()
    state.play("fire us KP su")
    state.play("end")
    assert state.current_player() == 0
    assert "fire su KP us" in state.legal_actions()        # march formation fires in close assault
    state.play("end")
    assert state.phase_id() == "artillery"
    fire_phase = state_of(index, units, "us-fire")
    assert not any(a.startswith(("fire us ", "fire su ")) for a in fire_phase.legal_actions())


def test_7F_facing_after_the_last_hex(index):
    """Assault 7.F: a vehicle re-faces after its move for 1 MP (facing-change-mp), once; a leg unit free under
    option c19 'free', not at all under 'keep'."""
    tank = {"id": "t", "card": "us-m1-platoon", "side": "us", "hex": "A0913"}
    state = state_of(index, [tank, ENEMY], "us-move-1")
    state.play("move t A0914")
    before = state.counters[0].mp_used
    faces = [a for a in state.legal_actions() if a.startswith("face t ")]
    assert len(faces) == 5
    state.play(faces[0])
    assert state.counters[0].mp_used == before + 1 and state.counters[0].facing == int(faces[0].split()[2])
    assert not [a for a in state.legal_actions() if a.startswith("face t ")]
    for choice, count in (("free", 5), ("keep", 0)):
        state = state_of(index, [inf("A0913"), ENEMY], "us-move-1", dice=[1], **{"c19-leg-facing": choice})
        state.play("move inf A0914")
        assert len([a for a in state.legal_actions() if a.startswith("face inf ")]) == count
