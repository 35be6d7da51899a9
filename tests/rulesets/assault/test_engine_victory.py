"""Exit victory points (Assault 24.E), casualty records, and the suppressed AFV's halved conventional fire
(11.A.1, A66, option c11), through positions and play."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def state_of(index, units, phase, scenario, dice=(), turn=1, extension=None, **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options} | options)
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": scenario, "phase": phase,
                                   "turn": turn, "units": units, "extension": extension or {}})
    state = game.state_from_position(pos)
    state.dice.force(*dice)
    return state


def unit(uid, card, side, hexlabel, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "status": status}


def test_exit_off_the_west_edge_scores_per_step(index):
    """The Probe gives the Soviets 2 VP per step exited off the west edge (Assault 24.E): a march-formation
    BTR platoon on column A01 may leave; one a hex further east may not; the U.S. has no exit edge."""
    units = [unit("su", "su-btr70-platoon", "soviet", "A0110", formation="march"),
             unit("su2", "su-btr70-platoon", "soviet", "A0210", formation="march"),
             unit("us", "us-m1-platoon", "us", "B2210")]
    state = state_of(index, units, "soviet-move-1", "assault-probe", turn=8,
                     extension={"force_levels": {"soviet": 1, "us": 1}})
    legal = state.legal_actions()
    assert "exit su" in legal and "exit su2" not in legal
    before = state.outcome().victory_points[0]
    state.play("exit su")
    assert [c.id for c in state.counters] == ["su2", "us"] and state.exited == [2, 0]
    assert state.outcome().victory_points[0] == before + 2 * 2 * state.game.levels["soviet"][0].vp_multiplier
    us_state = state_of(index, [unit("us", "us-m1-platoon", "us", "A0110", formation="march"),
                                unit("su", "su-btr70-platoon", "soviet", "B2210")], "us-move-1", "assault-probe")
    assert "exit us" not in us_state.legal_actions()


@pytest.mark.parametrize("choice, result", [("down", False), ("up", True)])
def test_A66_suppressed_afv_fires_half_at_close_range(index, choice, result):
    """Assault 11.A.1: a suppressed one-step BMP platoon fires HE 5 at range 1 halved: 2 (down) is 1:2 against
    the jeep's defence 3 in woods and a roll of 3 does nothing; 3 (up) is 1:1 and suppresses it."""
    units = [unit("su", "su-bmp-platoon", "soviet", "B0606", suppressed=True, steps=1),
             unit("us", "us-m151", "us", "B0506", spotted=True)]
    state = state_of(index, units, "soviet-fire", "assault-meeting", dice=[3, 10], **{"c11-halving": choice})
    state.play("fire su HE us")
    state.play("end")
    state.play("end")
    assert {c.id: c.suppressed for c in state.counters}["us"] is result


def test_casualties_name_the_weapon_and_range(index):
    """State.casualties(): one record per step lost, with the firer's card and ammunition, the range and the
    firer (play reports, studio.sim.casualties); the observation carries none (the firer may be hidden)."""
    units = [unit("us", "us-m1-platoon", "us", "B1010", spotted=True),
             unit("su", "su-t80-platoon", "soviet", "B1012", spotted=True)]
    state = state_of(index, units, "us-fire", "assault-meeting", dice=[1, 1, 10, 10, 10])
    state.play("fire us KP su")
    state.play("end")
    state.play("end")
    records = state.casualties()
    assert records and all(r == {"side": 0, "unit": "su", "unit_type": "su-t80-platoon", "turn": 1,
                                 "weapon": "us-m1-platoon KP", "range": 2, "by": "us"} for r in records)
    assert len(records) == state.lost_steps[0]
    assert state.observation(0).casualties() == []
