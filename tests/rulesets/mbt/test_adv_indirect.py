"""MBT Advanced Game Indirect Fire Step, on-map IF units (MBT 6.5.1): observers, called fire, Fire Response and
the On-Map Closed SHEAF, through positions."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, unit  # noqa: E402

# an M106 mortar 24 hexes from the target (beyond its own spotting range), the FIST 3 hexes from it
MORTAR, TARGET, FO = "2A1", "4E1", "4B1"


def _if(dice, fo_status=None, extra=(), target="t-80bv", **kw):
    units = [unit("M", "m106", "us", MORTAR, 2, command="FIRE"),
             unit("F", "m981", "us", FO, 2, command="OW", **(fo_status or {})),
             unit("T", target, "sov", TARGET, 5)] + list(extra)
    return adv_state(units, phase="indirect-fire", to_act="us", dice=dice, **kw)


def test_observer_calls_fire_on_a_spotted_target():
    # MBT 6.5.1.7: an FO with an OW command calls a FIRE-commanded IF unit on a hex where it spots an enemy
    st = _if([])
    assert st.phase_id() == "indirect-fire" and [str(a) for a in st.legal_actions()] == [
        "call M by F at 4E1", "call m109-battery-1 by F at 4E1", "pass"]


def test_no_indirect_fire_at_a_target_the_firer_spots():
    # MBT 6.5.1: IF may not be used against targets the firing unit can spot itself
    st = _if([], extra=[unit("N", "m106", "us", "4A1", 2, command="FIRE")])
    calls = [str(a) for a in st.legal_actions() if a[0] == "call" and not a[1].startswith("m109")]
    assert calls == ["call M by F at 4E1"]


@pytest.mark.parametrize("roll, responds", [(1, False), (2, True)])
def test_fo_attached_response_2(roll, responds):
    # MBT 6.5.1.12: FO / Attached response 2 (Seasoned observer, no modifier); an unmodified 1 always fails
    st = _if([roll, 50, 99, 99])
    act(st, "call M by F at 4E1")
    assert any(("responds" if responds else "no response") in e for e in st.events), st.events
    assert any(e.startswith("artillery lands at 4E1") for e in st.events) == responds


def test_suppressed_observer_minus_two():
    # MBT 6.5.1.12.1: observer Suppressed -2: a 3 no longer reaches 2
    st = _if([3], fo_status={"suppression": "on"})
    act(st, "call M by F at 4E1")
    assert any("response roll 3-2 vs 2: no response" in e for e in st.events), st.events


def test_sheaf_attacks_every_unit_in_the_hex_with_if_modifiers():
    # MBT 6.5.1.5, 6.5.1.13: the On-Map Closed SHEAF attacks each unit in the target hex, friend or foe;
    # range is the greater of firer and observer (24, band M of the M106 GP-IF row)
    st = _if([2, 50, 50], extra=[unit("U", "m113", "us", TARGET, 0)])
    act(st, "call M by F at 4E1")
    hits = [e for e in st.events if e.startswith("IF at")]
    assert len(hits) == 2 and any("IF at T" in e for e in hits) and any("IF at U" in e for e in hits)
    assert any("(M, GP 9, M)" in e or "GP 9, M)" in e for e in st.events), st.events


def test_leg_units_get_no_woods_cover_against_if():
    # MBT 6.5.4.3: against IF only overhead protection counts (a squad anywhere but a building: GPD 'none')
    st = _if([], target="sov-mr-squad")
    t = st.game.uindex["T"]
    assert st.if_leg_defense(t) == st.game.units[t].type.ag.gpd_cover["none"]


def test_step_passes_to_direct_fire():
    # MBT 6.5: after the Indirect Fire Step (both players) comes Direct Fire
    st = _if([])
    act(st, "pass")
    assert st.phase_id() != "indirect-fire"


def test_off_map_battery_closed_sheaf():
    # MBT 6.5.1.3, 6.5.1.5, 6.5.1.12: the scenario's M109 battery answers a call; a position's observer belongs to
    # no scenario formation, so the battery is Unattached to it; the Closed SHEAF also hits the hexes around the
    # target point
    st = _if([], extra=[unit("N", "t-80bv", "sov", "4E2", 5)])
    calls = [str(a) for a in st.legal_actions()]
    assert "call m109-battery-1 by F at 4E1" in calls
    need = st.game.ag.if_response[("fo", "unattached")]
    st = _if([need, 50, 50, 50], extra=[unit("N", "t-80bv", "sov", "4E2", 5)])
    act(st, "call m109-battery-1 by F at 4E1")
    assert any("artillery lands at 4E1 (m109-battery-1, Closed SHEAF" in e for e in st.events), st.events
    assert sum(e.startswith("IF at") for e in st.events) == 2
    low = _if([need - 1])
    act(low, "call m109-battery-1 by F at 4E1")
    assert any("no response" in e for e in low.events)
