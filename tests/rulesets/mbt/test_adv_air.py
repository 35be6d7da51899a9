"""MBT Advanced Game helicopters in the Air Phases (MBT 6.4, 6.7.5-6.7.8), simplified (ENGINE_POLICIES
['helicopters']), through positions."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, unit  # noqa: E402


def _air(dice=(), zsu_command="OW", extra=()):
    units = [unit("H", "ah-1s", "us", "2A1", 2), unit("Z", "zsu-23-4", "sov", "2A6", 0, command=zsu_command)]
    return adv_state(units + list(extra), phase="air-1", to_act="us", dice=dice)


def test_helicopters_get_no_commands_and_fly_in_the_air_phase():
    # MBT 6.7: aircraft get no commands; a helicopter flies (its NOE allowance, 10 for the AH-1S) then attacks
    st = adv_state([unit("H", "ah-1s", "us", "2A1", 2), unit("T", "t-80bv", "sov", "2P13", 0)], phase="command")
    assert all(a[1] != "H" for a in st.legal_actions())
    st = _air()
    flights = [a for a in st.legal_actions() if a[0] == "fly"]
    assert flights and all(a[1] == "H" for a in flights)
    from studio.hexgrid.coords import distance
    # MBT 6.7.5.1: the NOE allowance (10 for the AH-1S) and the Low one (24) by the announced altitude
    assert max(distance(st.hex[0], st.game.map.hex(a[2])) for a in flights if len(a) == 3) == 10
    assert max(distance(st.hex[0], st.game.map.hex(a[2])) for a in flights if a[3:] == ("low",)) == 24


def test_helicopter_attacks_a_spotted_ground_unit():
    # MBT 6.7.6: one attack at a spotted target, AP/ATGM/GP as direct fire
    st = _air([1, 76, 99, 99])
    act(st, "fly H 2A1")
    assert "fire H at Z tow:TOW" in [str(a) for a in st.legal_actions()]
    act(st, "fire H at Z tow:TOW")
    assert any(e.startswith("helicopter H attacks Z") for e in st.events)


@pytest.mark.parametrize("roll, result, alive", [(35, "no effect", True), (66, "Suppressed", True),
                                                 (75, "shot down", False), (70, "Damaged", True)])
def test_aa_fire_at_a_hovering_helicopter(roll, result, alive):
    # MBT 6.7.8: AA GP fire, +10 at a hovering helicopter (net +5 here: N 40, S 71): Suppressed; Effective
    # ending in 5 or 0 Damaged (75 - 5 ends in 0 ... the modified result decides), otherwise shot down
    st = _air([roll])
    act(st, "fly H 2A1")
    act(st, "hold H")
    act(st, "ow Z at H guns:HEI")
    x = roll + 5
    expect = "no effect" if x <= 40 else "Suppressed" if x <= 71 else ("Damaged" if x % 10 in (0, 5) else "shot down")
    assert (st.st[0] == 1) == (expect != "shot down")
    assert bool(st.dmg[0]) == (expect == "Damaged") and bool(st.sup[0]) == (expect == "Suppressed")


def test_ground_fire_at_helicopters_only_by_aa_on_overwatch():
    # MBT 6.7.8: AA fire is Overwatch fire by AA weapons; a FIRE command does not target helicopters
    units = [unit("H", "ah-1s", "us", "2A6", 2), unit("T", "t-80bv", "sov", "2A1", 3, command="FIRE"),
             unit("M", "m1", "us", "2P13", 0)]
    st = adv_state(units, to_act="sov")
    assert not any(a[0] == "fire" and a[2] == "H" for a in st.legal_actions())


def test_helicopters_do_not_block_ground_movement():
    st = adv_state([unit("H", "ah-1s", "us", "2A2", 2), unit("T", "t-80bv", "sov", "2A1", 3, command="MOVE")],
                   phase="move-first", to_act="sov")
    assert not st.enemies_in(st.game.map.hex("2A2"), 1)
