"""MBT smoke and barrages (MBT 5.11, 6.1.4.3.10, 6.5.1.5-6, 6.5.2.5, 6.5.4.3, 6.8.6): IF smoke missions, smoke
clouds and barrages on the map, their effect on direct fire through ``hindrance_modifier``, laser sights, their
lifecycle, and direct-fire smoke; through positions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import FAR, TARGET, act, arty_state, calls, events, if_units, to_next_indirect_step, unit  # noqa: E402

BAT = "m109-battery-1"
SHOOTER = "4E4"   # a US tank two hexes from the Target Point's SHEAF edge, firing across it


def _smoke(mission="smoke closed", extra=(), dice=(6, 1), a_cmd="FIRE"):
    """The FO at FAR calls the M109 battery's ``mission`` on the T-80BV at 4E1."""
    units = if_units(fo_hex=FAR, extra=[unit("A", "m1", "us", "4H1", 5, command=a_cmd)] + list(extra))
    st = arty_state(units, dice=list(dice) + [50] * 200)
    act(st, f"call {BAT} by F at 4E1 {mission}")
    return st


def _end_if(st):
    """The US player ends its Indirect Fire Step (if it still has a choice)."""
    if st.phase_id() == "indirect-fire":
        act(st, "pass")
    return st


def _ids(st, *names):
    return [st.game.uindex[n] for n in names]


def test_smoke_mission_places_its_sheaf_and_acts_after_the_step():
    # MBT 6.5.1.6.1, 6.1.4.3.10: a smoke mission places Smoke/On over its SHEAF; smoke made in the Indirect Fire
    # Step takes effect in the following Direct Fire Step; Closed SHEAF smoke AP -5, GP -20 (6.5.2.5, 6.5.4.3)
    st = _smoke()
    a, t = _ids(st, "A", "T")
    (cloud,) = st.arty.clouds
    assert cloud.kind == "smoke" and cloud.sheaf == "closed" and cloud.on and st.game.map.hex(TARGET) in cloud.hexes
    assert len(cloud.hexes) == 6  # the Target Point and its neighbours on the map (4E1 lies on the board edge)
    assert st.hindrance_modifier(a, t, "ap") == 0  # not yet: made in this step
    act(st, "pass")
    assert st.phase_id() == "direct-fire-first"
    assert st.hindrance_modifier(a, t, "ap") == -5 and st.hindrance_modifier(a, t, "gp") == -20


def test_open_sheaf_smoke_minus_three_and_one_occurrence_per_cloud():
    # MBT 6.5.2.5: Open SHEAF smoke -3 (GP -10), per unique occurrence, not per hex of the SHEAF
    st = _end_if(_smoke("smoke open"))
    a, t = _ids(st, "A", "T")
    assert st.hindrance_modifier(a, t, "ap") == -3 and st.hindrance_modifier(a, t, "gp") == -10


def test_thermal_imager_smoke_values():
    # MBT 7.36.4.3 (MA113): a thermal-imager shooter takes -1 (GP -5) for the first smoke occurrence
    st = _end_if(_smoke())
    a, t = _ids(st, "A", "T")
    assert st.hindrance_modifier(a, t, "ap", thermal=True) == -1
    assert st.hindrance_modifier(a, t, "gp", thermal=True) == -5


def test_gp_mission_leaves_a_barrage_that_hinders_direct_fire():
    # MBT 6.1.4.3.10, 6.5.2.5: the impact area is a Barrage: Closed -3 AP / -10 GP, Open -1 / -5
    st = _end_if(_smoke("GP open", dice=(6,)))
    a, t = _ids(st, "A", "T")
    assert st.hindrance_modifier(a, t, "ap") == -1 and st.hindrance_modifier(a, t, "gp") == -5


def test_smoke_over_a_barrage_only_the_smoke_counts():
    # MBT 5.11 (example of 6.5.2.5): where smoke and a barrage share the hexes the line touches, only the larger,
    # the smoke, applies: the mortar's GP barrage (Closed, -3) lies inside the battery's Open smoke (-3)
    units = if_units(fo_hex=FAR, extra=[unit("A", "m1", "us", "4H1", 5, command="FIRE")])
    st = arty_state(units, dice=[6, 50, 6, 1] + [50] * 20)
    act(st, "call M by F at 4E1")
    act(st, f"call {BAT} by F at 4E1 smoke open")
    _end_if(st)
    a, t = _ids(st, "A", "T")
    assert len(st.arty.barrages) == 1 and len(st.arty.clouds) == 1
    assert st.hindrance_modifier(a, t, "ap") == -3


def test_laser_sights_blocked_by_smoke():
    # MBT 6.5.2.2.5: laser sights and designators do not work from, into or through smoke
    st = _end_if(_smoke())
    a, t = _ids(st, "A", "T")
    assert st.laser_blocked(st.hex[a], st.hex[t])
    assert not st.smoke_between(st.hex[a], st.game.map.hex("4H2"))


def test_smoke_lifecycle_on_off_removed():
    # MBT 6.8.6: Smoke/On turns Off in the Adjustment Phase, Smoke/Off is removed in the next one; the barrage of a
    # mission lasts the turn
    st = _end_if(_smoke(a_cmd="NC"))
    to_next_indirect_step(st, {"M": "FIRE", "F": "OW", "A": "NC"})
    assert [c.on for c in st.arty.clouds] == [False] and st.arty.barrages == ()
    a, t = _ids(st, "A", "T")
    _end_if(st)
    assert st.hindrance_modifier(a, t, "ap") == -5  # Off smoke still hinders
    to_next_indirect_step(st, {"M": "FIRE", "F": "OW", "A": "NC"})
    assert st.arty.clouds == ()


def test_direct_fire_smoke_by_an_smk_weapon():
    # MBT 6.1.4.3.10: an M125 (SMK) with a FIRE command fires smoke at a hex in sight and range without friendly
    # units: a one-hex Closed SHEAF; it rolls its S ammo limit (5.16.2.2) and is marked Spot/Fire
    units = [unit("C", "m125", "us", "4H1", 5, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5)]
    st = arty_state(units, phase="direct-fire-first", dice=[1] + [50] * 10)
    got = [a for a in calls(st) if a.startswith("smoke ")]
    assert got == ["smoke C at 4E1"]
    act(st, "smoke C at 4E1")
    (cloud,) = st.arty.clouds
    assert cloud.hexes == {st.game.map.hex(TARGET)} and cloud.sheaf == "closed"
    assert events(st, "C fires smoke into 4E1")
    assert st.mk[st.game.uindex["C"]] == 1  # Spot/Fire
