"""MBT Advanced Game Indirect Fire Step (MBT 6.5.1): observers, called fire, mission types and SHEAFs, Fire
Response (with Danger Close and Pre-Registered Points) and the SHEAF attacks, through positions."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import FAR, FO, TARGET, act, arty_state, calls, events, if_units, unit  # noqa: E402

BAT = "m109-battery-1"


def _if(dice=(), fo_status=None, extra=(), target="t-80bv", fo_hex=FO, **kw):
    return arty_state(if_units(target, fo_hex, fo_status, extra), dice=dice, **kw)


def test_observer_calls_fire_on_a_spotted_target():
    # MBT 6.5.1.7: an FO with an OW command calls a FIRE-commanded IF unit (GP, or smoke: the M106 is SMK) and the
    # off-map battery on a hex where it spots an enemy; MBT 6.5.1.6: GP and smoke in Closed, Open and Closed
    # Linear SHEAFs, ICM Open only, CLGP on one hex (the FIST has a Laser Designator); the M109 card's
    # illumination (7.27 off) and FASCAM (7.31 off) not offered
    got = calls(_if())
    assert got[:3] == ["call M by F at 4E1", "call M by F at 4E1 smoke onmap", f"call {BAT} by F at 4E1"]
    tail = {a.rsplit(" at 4E1 ", 1)[1] for a in got if a.startswith(f"call {BAT}") and a.count(" ") > 5}
    linear = {f"linear-{d}" for d in range(6)}
    assert tail == {"GP open", "smoke closed", "smoke open", "ICM open", "CLGP onmap"} | {f"GP {x}" for x in linear} | \
        {f"smoke {x}" for x in linear}
    assert got[-1] == "pass"


def test_illumination_and_fascam_need_their_optional_rules():
    # MBT 6.5.1.6.2: Illumination (7.27) and FASCAM (7.31) fire only in a Closed SHEAF
    got = calls(_if(optional=("illumination", "mines")))
    assert f"call {BAT} by F at 4E1 illumination closed" in got and f"call {BAT} by F at 4E1 FASCAM closed" in got
    assert not any("illumination open" in a or "FASCAM open" in a or "illumination linear" in a for a in got)


def test_no_indirect_fire_at_a_target_the_firer_spots():
    # MBT 6.5.1: IF may not be used against targets the firing unit can spot itself
    st = _if(extra=[unit("N", "m106", "us", "4A1", 2, command="FIRE")])
    assert not any(a.startswith("call N ") for a in calls(st))
    assert "call M by F at 4E1" in calls(st)


@pytest.mark.parametrize("roll, responds", [(2, True), (3, True)])
def test_fo_attached_response_2(roll, responds):
    # MBT 6.5.1.12: FO / Attached response 2 (Seasoned observer, no modifier)
    st = _if([roll, 50, 99, 99])
    act(st, "call M by F at 4E1")
    assert events(st, "F calls M on 4E1: response roll") == [f"F calls M on 4E1: response roll {roll}+0 vs 2: responds"]
    assert events(st, "artillery lands at 4E1")


def test_unmodified_one_is_danger_close_onto_the_spotted_friend():
    # MBT 6.5.1.10, 6.5.1.12: an unmodified 1 with a spotted friendly unit (the FIST, spotted by the T-80BV)
    # within 5 hexes of the Target Point: the impact lands on it
    st = _if([1, 50, 50])
    act(st, "call M by F at 4E1")
    assert any("Danger Close, the fire lands on F at 4B1" in e for e in st.events), st.events
    assert events(st, "artillery lands at 4B1") and events(st, "IF at F")


def test_m139_unmodified_one_without_friends_near_fails_even_pre_registered():
    # M139 (MBT 6.5.1.13 example): the Heavy battery rolls an unmodified 1 on its Pre-Registered Point, no spotted
    # friendly unit within 5 hexes: it fails (the +2 is irrelevant); the Light one rolls 5 >= 2 and responds
    pre = [{"side": "us", "hex": TARGET, "batteries": ["m109-battery"]}]
    st = _if([1], fo_hex=FAR, pre_registered=pre)
    act(st, f"call {BAT} by F at 4E1")
    assert events(st, "F calls") == [f"F calls {BAT} on 4E1: response roll 1: no response"]
    assert not events(st, "artillery lands")


def test_pre_registered_point_plus_two_for_its_battery_only():
    # MBT 6.5.1.4, 6.5.1.12.1: +2 for the batteries assigned to the point; on-map units get nothing there
    pre = [{"side": "us", "hex": TARGET, "batteries": ["m109-battery"]}]
    st = _if([3, 99] + [99] * 8, fo_hex=FAR, pre_registered=pre)
    act(st, f"call {BAT} by F at 4E1")
    assert events(st, "F calls")[0].startswith(f"F calls {BAT} on 4E1: response roll 3+2 vs")
    st = _if([3, 99], fo_hex=FAR, pre_registered=pre)
    act(st, "call M by F at 4E1")
    assert events(st, "F calls")[0].startswith("F calls M on 4E1: response roll 3+0 vs")


def test_suppressed_observer_minus_two():
    # MBT 6.5.1.12.1: observer Suppressed -2: a 3 no longer reaches 2
    st = _if([3], fo_status={"suppression": "on"})
    act(st, "call M by F at 4E1")
    assert any("response roll 3-2 vs 2: no response" in e for e in st.events), st.events


def test_observer_hindered_by_brew_up_smoke_on_its_line():
    # MBT 6.5.1.12.1 (M142): each unique Brew-Up Smoke, Smoke or Barrage on the observer's line is -1
    st = _if([3], position_ext={"wrecks": {"4C1": "brewed-up"}})
    act(st, "call M by F at 4E1")
    assert any("response roll 3-1 vs 2" in e for e in st.events), st.events


def test_veteran_observer_grade_applies_not_the_firers():
    # MBT 6.5.1.12.1: only the observer's grade (IF RSP, Veteran +1) affects indirect fire, and only the response
    st = _if([2, 50, 50], grades={"us": "veteran", "sov": "regulars"})
    act(st, "call M by F at 4E1")
    assert any("response roll 2+1 vs 2: responds" in e for e in st.events), st.events
    attack = events(st, "IF at T")[0]
    assert "roll 50-20 = 30" in attack  # A-type -20 only: no Unit Grade GP modifier in indirect fire


def test_sheaf_attacks_every_unit_in_the_hex_with_if_modifiers():
    # MBT 6.5.1.5, 6.5.1.13: the On-Map Closed SHEAF attacks each unit in the target hex, friend or foe;
    # range is the greater of firer and observer (24, band M of the M106 GP-IF row: GP 9)
    st = _if([2, 50, 50], extra=[unit("U", "m113", "us", TARGET, 0)])
    act(st, "call M by F at 4E1")
    hits = events(st, "IF at")
    assert len(hits) == 2 and any("IF at T" in e for e in hits) and any("IF at U" in e for e in hits)


def test_moving_modifier_only_in_the_target_point_hex():
    # MBT 6.5.4.3 (Q9 of M141): Target Vehicle Moving IF -20 only for units in the Target Point hex
    pre = [unit("N", "t-80bv", "sov", "4E2", 5, command="MOVE", revealed=True)]
    st = _if([6] + [50] * 9, fo_hex=FAR, extra=pre)
    act(st, f"call {BAT} by F at 4E1")
    assert "roll 50-20 = 30" in events(st, "IF at N")[0]


def test_off_map_open_sheaf_minus_twenty_and_its_area():
    # MBT 6.5.1.5: an Open SHEAF covers the Target Point and 2 hexes around; MBT 6.5.4.3: IF Open SHEAF -20
    st = _if([6] + [50] * 9, fo_hex=FAR, extra=[unit("N", "t-80bv", "sov", "4E3", 5)])
    act(st, f"call {BAT} by F at 4E1 GP open")
    assert "roll 50-40 = 10" in events(st, "IF at N")[0]


def test_icm_plus_twenty():
    # MBT 6.5.1.13.1: ICM +20 (Open SHEAF only, so -20 + 20)
    st = _if([6, 1] + [50] * 9, fo_hex=FAR)
    act(st, f"call {BAT} by F at 4E1 ICM open")
    assert "roll 50-20 = 30" in events(st, "IF at T")[0]


def test_step_passes_to_direct_fire():
    # MBT 6.5: after the Indirect Fire Step (both players) comes Direct Fire
    st = _if()
    act(st, "pass")
    assert st.phase_id() != "indirect-fire"


def test_off_map_battery_closed_sheaf():
    # MBT 6.5.1.3, 6.5.1.5, 6.5.1.12: the scenario's M109 battery answers a call; a position's observer belongs to
    # no scenario formation, so the battery is Unattached to it; the Closed SHEAF also hits the hexes around
    st = _if()
    need = st.game.ag.if_response[("fo", "unattached")]
    st = _if([need, 50, 50, 50], extra=[unit("N", "t-80bv", "sov", "4E2", 5)])
    act(st, f"call {BAT} by F at 4E1")
    assert events(st, f"artillery lands at 4E1 ({BAT}, GP closed")
    assert len(events(st, "IF at")) == 2
    low = _if([need - 1])
    act(low, f"call {BAT} by F at 4E1")
    assert any("no response" in e for e in low.events)


def test_observer_capacity_then_one_target_point():
    # MBT 6.5.1.1.1: a Seasoned FO calls up to 4 sources, all on its one Target Point; Raw: 1
    st = _if([2, 50, 50], extra=[unit("N", "t-80bv", "sov", "4E2", 5)])
    act(st, "call M by F at 4E1")
    assert all(" at 4E1" in a for a in calls(st) if a.startswith("call "))
    assert any(a.startswith(f"call {BAT} by F at 4E1") for a in calls(st))
    raw = _if([2, 50, 50], grades={"us": "raw", "sov": "regulars"})
    act(raw, "call M by F at 4E1")
    assert not any(a.startswith("call ") for a in calls(raw))


def test_special_mission_ammo_limit_roll():
    # MBT 5.16.2.4: a smoke mission rolls the S ammo limit (M109 card S7): 8 places nothing
    st = _if([6, 8], fo_hex=FAR)
    act(st, f"call {BAT} by F at 4E1 smoke closed")
    assert any("ammo limit roll 8 > S7: not fired" in e for e in st.events), st.events
    assert not st.arty.clouds
