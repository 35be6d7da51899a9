"""Fire results (Assault 11, 17.A.1) and the casualty records of play reports, found untested by a mutation run
of the engine (COVERAGE.md, Measurements), through positions and the state's result and report helpers."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from assault_states import by_id, state_of, u  # noqa: E402


@pytest.fixture(scope="module")
def index(sample_index):
    return sample_index.index                   # the sample project, validated once per session (conftest)


# ------------------------------------------------------------------ results (11)
@pytest.mark.parametrize("result, steps, suppressed", [("NE", 2, False), ("S", 2, True), ("H", 1, True),
                                                       ("E", 0, True)])
@pytest.mark.parametrize("card, formation, covers", [("su-motor-rifle-platoon", "combat", True),
                                                     ("su-motor-rifle-platoon", "march", False),
                                                     ("su-t80-platoon", "combat", False)])
def test_results_on_the_crt(index, result, steps, suppressed, card, formation, covers):
    """11: NE nothing; S suppresses; H one step and suppressed; E the whole counter. 11.A.1: suppressed personnel
    in combat formation go into cover. 17.A.1: the steps count against the company's morale."""
    state = state_of(index, [u("x", card, "soviet", "B1010", formation=formation, company="K"),
                             u("m1", "us-m1-platoon", "us", "B0101")], "us-fire")
    x = by_id(state)["x"]
    state._apply_result(x, result)
    assert (x.steps, x.suppressed) == (steps, suppressed)
    assert x.cover is (covers and suppressed)
    assert state.lost_steps == [2 - steps, 0] and state.morale["K"].lost == 2 - steps
    assert len(state.casualties()) == 2 - steps


def test_a_hit_on_a_one_step_section_eliminates_it(index):
    state = state_of(index, [u("x", "su-brdm2-at5-section", "soviet", "B1010"), u("m1", "us-m1-platoon", "us",
                                                                                  "B0101")], "us-fire")
    state._apply_result(by_id(state)["x"], "H")
    assert by_id(state)["x"].steps == 0 and state.lost_steps == [1, 0]


# ------------------------------------------------------------------ casualty records (play reports)
def test_a_fire_loss_is_recorded_with_firer_weapon_range_and_turn(index):
    """Play reports count losses by unit type, weapon and range: one record per step lost."""
    units = [u("m1", "us-m1-platoon", "us", "B1010", spotted=True),
             u("su", "su-t80-platoon", "soviet", "B1013", spotted=True)]
    state = state_of(index, units, "us-fire", dice=[1, 1, 1, 1, 10, 10])
    state.turn = 2
    state.play("fire m1 KP su")
    state.play("end")
    state.play("end")
    records = state.casualties()
    assert records and all(r == {"side": 0, "unit": "su", "unit_type": "su-t80-platoon", "turn": 2,
                                 "weapon": "us-m1-platoon KP", "range": 3, "by": "m1"} for r in records)
    assert len(records) == state.lost_steps[0]
    records[0]["unit"] = "changed"
    assert state.casualties()[0]["unit"] == "su"                    # a copy: the report cannot change the state


# ------------------------------------------------------------------ conventional fire values (12.E, 11.A.1, 8.D)
@pytest.mark.parametrize("rounding", [None, "down", "up"])
def test_conventional_fire_value_and_its_halving(index, rounding):
    """12.E: a conventional cell times the firer's steps; a suppressed AFV within range 1 (constant
    suppressed-afv-close-range) fires half, and so does infantry from its carrier (8.D); option c11 rounds an
    odd half down (default) or up."""
    options = {} if rounding is None else {"c11-halving": rounding}
    units = [u("m1", "us-m1-platoon", "us", "B1010", steps=1), u("su", "su-motor-rifle-platoon", "soviet", "B1011"),
             u("far", "su-motor-rifle-platoon", "soviet", "B1013")]
    state = state_of(index, units, "us-fire", **options)
    m1, su, far = by_id(state)["m1"], by_id(state)["su"], by_id(state)["far"]
    assert state.game.data.constant("suppressed-afv-close-range") == 1
    up = rounding == "up"
    for cell in (5, 6):
        assert state._conventional_value(m1, su, cell) == cell                # 1 step, not suppressed
        m1.steps = 2
        assert state._conventional_value(m1, su, cell) == 2 * cell
        m1.steps = 1
        m1.suppressed = True
        assert state._conventional_value(m1, su, cell) == cell // 2 + (1 if up and cell % 2 else 0)
        assert state._conventional_value(m1, far, cell) == cell               # range 3: not halved
        m1.suppressed = False
        m1.carrier = "x"
        assert state._conventional_value(m1, far, cell) == cell // 2 + (1 if up and cell % 2 else 0)
        m1.carrier = ""


# ------------------------------------------------------------------ surrender (17.A.2)
def test_a_broken_unit_sharing_a_hex_with_an_enemy_surrenders(index):
    """17.A.2: when morale is checked, a broken company's unit in a hex with an enemy unit surrenders: all its
    steps are lost (and count for victory); one of the same company elsewhere stays; a unit of a company in good
    order beside the enemy stays too."""
    units = [u("x", "su-motor-rifle-platoon", "soviet", "B1010", company="K"),
             u("y", "su-motor-rifle-platoon", "soviet", "B1012", company="K"),
             u("z", "su-motor-rifle-platoon", "soviet", "B1010", company="L"),
             u("m1", "us-m1-platoon", "us", "B1010")]
    state = state_of(index, units, "us-fire", extension={"morale": {"K": {"state": "broken"}}})
    state._check_morale()
    assert sorted(c.id for c in state.counters) == ["m1", "y", "z"]
    assert state.lost_steps == [2, 0]
    assert [r["weapon"] for r in state.casualties()] == ["surrender", "surrender"]


# ------------------------------------------------------------------ ten firing steps a hex (9.B, option c41)
def test_at_most_ten_steps_fire_from_one_hex(index):
    """9.B: at most ten steps fire from one hex (constant fire-stack-steps): after four M-1 platoons (8 steps)
    a fifth may fire (10), a sixth may not; a unit that has fired may fire its other shots."""
    units = [u(f"m{n}", "us-m1-platoon", "us", "B1010", spotted=True) for n in range(6)]
    units.append(u("su", "su-t80-platoon", "soviet", "B1013", spotted=True))
    state = state_of(index, units, "us-fire")
    assert state.game.data.constant("fire-stack-steps") == 10
    for n in range(4):
        state.play(f"fire m{n} KP su")
    legal = state.legal_actions()
    assert any(a.startswith("fire m4 ") for a in legal) and any(a.startswith("fire m5 ") for a in legal)
    state.play("fire m4 KP su")
    legal = state.legal_actions()
    assert not any(a.startswith("fire m5 ") for a in legal) and any(a.startswith("fire m0 ") for a in legal)


@pytest.mark.parametrize("choice, limited", [(None, True), ("all-fire", True), ("fire-phase", False)])
def test_c41_the_ten_step_limit_and_opportunity_fire(index, choice, limited):
    """Option c41: the ten-step limit also binds opportunity fire (default) or only the fire phase."""
    options = {} if choice is None else {"c41-fire-stack-scope": choice}
    units = [u(f"m{n}", "us-m1-platoon", "us", "B1010", cover=True) for n in range(6)]
    units.append(u("su", "su-t80-platoon", "soviet", "B1013", formation="march"))
    state = state_of(index, units, "soviet-move-1", **options)
    state.play("move su B1012")
    for n in range(5):
        state.play(f"fire m{n} KP su")
    assert (not any(a.startswith("fire m5 ") for a in state.legal_actions())) is limited
