"""Orders to a stack (Assault 4.C: an order is addressed to a hex; 4.D.1, example A30: units moving with an HQ as a
stack need no OPs, an OP gives no such benefit), through positions on board A of the probe scenario."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]
FAR = {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "B2220", "status": {}}


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def state_of(index, units, ops=None, phase="us-move-1", dice=()):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", "assault-probe"), index, {o.id: o.default for o in rs.options})
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": phase, "units": [*units, FAR],
                                   "extension": {"ops": {"us": ops if ops is not None else {"HQC1": 3}}}})
    state = game.state_from_position(pos)
    state.dice.force(*dice)
    return state


def u(uid, card, hexlabel, side="us", **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "status": status}


def pair(**extra):
    return [u("a", "us-m1-platoon", "A0120", designation="1C1"), u("b", "us-m1-platoon", "A0120", designation="2C1"),
            u("hq", "us-hq", "A0119", designation="HQC1"), *extra.get("more", [])]


def test_one_order_moves_the_whole_stack(index):
    """Two M-1 platoons in A0120, their company HQ beside them (visible): one order, 1 OP, for both."""
    state = state_of(index, pair())
    assert "stack a 2" in state.legal_actions()
    state.play("stack a 2")
    a, b = state._by_id("a"), state._by_id("b")
    assert a.hex == b.hex == state.game.map.hex("A0221") and state.ops[1]["HQC1"] == 2
    state.play("stack a 2")                                    # the same stack goes on, paid
    assert state.ops[1]["HQC1"] == 2 and a.hex == b.hex
    assert not any(x.startswith(("move a ", "move b ")) for x in state.legal_actions())
    alone = state_of(index, pair())
    alone.play("move a A0221")
    alone.play("move b A0221")
    assert alone.ops[1]["HQC1"] == 1                           # two orders


def test_A30_a_stack_with_an_hq_moves_free(index):
    units = [u("a", "us-m1-platoon", "A0120", designation="1C1"), u("hq", "us-m1-hq", "A0120", designation="HQC1")]
    state = state_of(index, units, ops={})
    assert not any(x.startswith("move a ") for x in state.legal_actions())   # no OPs for a lone order
    state.play("stack a 2")
    assert state._by_id("a").hex == state._by_id("hq").hex == state.game.map.hex("A0221")


def test_A30_an_op_gives_its_stack_no_free_move(index):
    units = [u("a", "su-t80-platoon", "A0120", side="soviet", designation="A1"),
             u("op", "su-op", "A0120", side="soviet", designation="OP-91")]
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", "assault-probe"), index, {o.id: o.default for o in rs.options})
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": "soviet-move-1", "units": [*units, u("m1", "us-m1-platoon", "B2220")],
                                   "extension": {"ops": {"soviet": {}}}})
    state = game.state_from_position(pos)
    assert not any(x.startswith("stack ") and x[-1].isdigit() for x in state.legal_actions())


def test_a_stack_formation_order_is_one_order(index):
    state = state_of(index, pair())
    state.play("stack a march")
    assert state._by_id("a").formation == state._by_id("b").formation == "march"
    assert state.ops[1]["HQC1"] == 2


def test_a_leg_unit_whose_roll_fails_stays_behind_and_leaves_the_stack(index):
    """Woods A0613 needs 8 or less: the infantry rolls 10 and stays; the M-1 enters (7.E, option c18 'stay')."""
    units = [u("m", "us-m1-platoon", "A0712", designation="1C1"),
             u("inf", "us-mech-infantry-platoon", "A0712", designation="2C1"), u("hq", "us-hq", "A0711",
                                                                                 designation="HQC1")]
    state = state_of(index, units, dice=[10])
    target = state.game.map.hex("A0613")
    d = next(int(x.split()[2]) for x in state.legal_actions() if x.startswith("stack m ") and x[-1].isdigit()
             and state._step_hex(state._by_id("m"), int(x.split()[2])) == target)
    state.play(f"stack m {d}")
    m, inf = state._by_id("m"), state._by_id("inf")
    assert m.hex == target and inf.hex == state.game.map.hex("A0712") and inf.drill == ""
