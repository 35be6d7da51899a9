"""MBT optional rule 7.10 Hedgerow Spotting outside the Spotting Phase (OPTB): an INB unit's Overwatch, an INB
observer's sight of its Target Point and FO spotting for aircraft see through its hedgerow, on board 7 of the
everything-on scenario (hedgerow on hexside 0 of 7N6)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

SCENARIO = "mbt-opt-everything"
HEX, SIDE = "7N6", 0
BEHIND = "7M2"   # hidden from 7N6 by that hedgerow only


def _mover(rules=("hedgerow-spotting",), inb=True):
    g = opt_game(rules, scenario=SCENARIO)
    squad = unit("L", "us-mech-squad", "us", HEX, 3, command="OW", **({"inb": SIDE} if inb else {}))
    st = opt_state(g, [squad, unit("T", "t-80bv", "sov", "7M1", 3, command="MOVE")], to_act="sov")
    act(st, "move T")
    act(st, "fwd T")  # into 7M2, behind the hedgerow
    return st


def test_inb_unit_on_overwatch_fires_through_its_hedgerow_at_a_mover():
    # MBT 7.10: once dug in, a leg unit spots (and so fires Overwatch) as if the hedgerow did not exist
    st = _mover()
    assert st.game.label(st.hex[1]) == BEHIND
    assert any(a.startswith("ow L at T") for a in legal(st))
    assert not any(a.startswith("ow L") for a in legal(_mover(inb=False)))


def test_sight_through_the_hedgerow_only_for_the_inb_unit_and_with_the_rule():
    g = opt_game(("hedgerow-spotting",), scenario=SCENARIO)
    units = [unit("L", "us-mech-squad", "us", HEX, 3, inb=SIDE), unit("T", "t-80bv", "sov", BEHIND, 3),
             unit("M", "us-mech-squad", "us", HEX, 3)]
    st = opt_state(g, units, to_act=None, phase="move-first")
    behind = g.map.hex(BEHIND)
    assert st.sight_clear(0, 1) and st.sight_clear(1, 0) and st.sight_clear_to(0, behind)
    assert not st.sight_clear(2, 1) and not st.sight_clear_to(2, behind)  # its hex-mate is not INB



def test_inb_observer_keeps_sight_of_its_target_point_behind_the_hedgerow():
    # MBT 6.5.1.9 with 7.10: a running mission checks when its observer loses sight of the Target Point; an INB
    # observer sees through its hedgerow
    from types import SimpleNamespace

    def check(inb, rules=("hedgerow-spotting",)):
        g = opt_game(rules, scenario=SCENARIO)
        squad = unit("L", "us-mech-squad", "us", HEX, 3, command="OW", **({"inb": SIDE} if inb else {}))
        st = opt_state(g, [squad, unit("T", "t-80bv", "sov", "4T13", 3)], to_act=None, phase="move-first")
        return st._auto_check(SimpleNamespace(danger=False, recon=False, observer=0, tp=g.map.hex(BEHIND)))

    assert check(True) == ""
    assert check(False) == "observer lost sight of the Target Point"


def test_overwatch_without_inb_units_is_the_normal_rule():
    # the rule on, no unit INB: Overwatch as usual (a mover in the open is offered, one behind the hedgerow not)
    st = _mover(inb=False)
    assert not any(a.startswith("ow L") for a in legal(st))
    g = opt_game(("hedgerow-spotting",), scenario=SCENARIO)
    squad = unit("L", "us-mech-squad", "us", HEX, 3, command="OW")
    open_ = opt_state(g, [squad, unit("T", "t-80bv", "sov", "7H3", 1, command="MOVE")], to_act="sov")
    act(open_, "move T")
    act(open_, "fwd T")
    assert any(a.startswith("ow L at T") for a in legal(open_))


def test_an_inb_unit_may_also_take_full_cover_and_stays_inb():
    # MBT 7.10: "It may also be in Full Cover by marking it with a second Location counter"
    g = opt_game(("hedgerow-spotting",), scenario=SCENARIO)
    st = opt_state(g, [unit("L", "us-mech-squad", "us", HEX, 3, command="MOVE", inb=SIDE),
                       unit("E", "t-80bv", "sov", "4T13", 5)], phase="air-2", to_act=None)
    assert "cover L on" in legal(st)
    act(st, "cover L on")
    assert st.fc[0] and st.inb[0] == SIDE
