"""MBT Advanced Game indirect fire (MBT 6.5.1): cases found by mutation testing (issue 12) that no other test pinned
down, through the sample scenario and positions. Expected values come from the rulebook and the scenario."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import adv_game  # noqa: E402
from mbt_arty_fixtures import act, arty_state, if_units, unit  # noqa: E402


def test_scenario_batteries_one_unless_counted():
    # MBT 5.3, 6.5.1.2: the scenario's off-map batteries (extension artillery): the US M109 entry gives no count
    # (one battery), the Soviet 2S1 entry count 2; each named after its card and its place in the list
    g = adv_game()
    assert [(b.name, g.sides[b.side], b.attachment, b.force) for b in g.batteries] == [
        ("m109-battery-1", "us", "attached", "fist"), ("2s1-battery-2", "sov", "attached", "fo"),
        ("2s1-battery-3", "sov", "attached", "fo")]


@pytest.mark.parametrize("status, grade, modifier", [({"turret_damaged": True}, "seasoned", -2),
                                                     ({"turret_damaged": True, "suppression": "on"}, "seasoned", -4),
                                                     ({}, "elite", 2), ({}, "raw", -3)])
def test_fire_response_observer_modifiers(status, grade, modifier):
    # MBT 6.5.1.12.1: observer Turret Damaged -2 (with Suppressed -2 more); the observer's IF RSP grade modifier
    # (Elite +2 ... Raw -3, complete in the rule text)
    st = arty_state(if_units(fo_status=status), dice=[5, 50, 99, 99], grades={"us": grade, "sov": "regulars"})
    act(st, "call M by F at 4E1")
    assert any(e.startswith(f"F calls M on 4E1: response roll 5{modifier:+d} vs ") for e in st.events), st.events


def test_indirect_fire_moving_modifier_only_in_the_target_point_hex():
    # MBT 6.5.4.3 (Q9): Target Vehicle Moving -20 for Indirect Fire only in the Target Point hex; both T-80BVs are
    # A-Types (-20) with a revealed Move command, T in the Target Point, N in the Closed SHEAF beside it
    moving = {"command": "MOVE", "revealed": True}
    units = [u if u["id"] != "T" else {**u, "status": moving}
             for u in if_units(extra=[unit("N", "t-80bv", "sov", "4E2", 5, **moving)])]
    st = arty_state(units, dice=[10] + [50] * 10)
    act(st, "call m109-battery-1 by F at 4E1")
    assert any(e.startswith("IF at T (GPD 8A): roll 50-40 =") for e in st.events), st.events
    assert any(e.startswith("IF at N (GPD 8A): roll 50-20 =") for e in st.events), st.events


def test_leg_units_in_woods_have_no_cover_against_indirect_fire():
    # MBT 6.5.4.3: against Indirect Fire only cover with overhead protection counts: a Soviet squad in Woods
    # (4D2) defends with its None value, GPD 2 (6 against direct fire, Medium Cover)
    units = [u for u in if_units() if u["id"] != "T"] + [unit("Q", "sov-mr-squad", "sov", "4D2", 5)]
    st = arty_state(units, dice=[10] + [50] * 10)
    act(st, "call m109-battery-1 by F at 4D2")
    assert any(e.startswith("IF at Q (GPD 2S):") for e in st.events), st.events
