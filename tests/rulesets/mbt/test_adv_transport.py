"""MBT Advanced Game transporting (MBT 6.6.7) and passengers under fire (MBT 6.5.2.7.2, 6.5.4.2.3)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_game, adv_state, clear_pair, unit  # noqa: E402

from studio.rulesets.mbt.engine.codes import CARRIED, DEAD, ON  # noqa: E402

A, B, D = clear_pair(5)


def test_scenario_mounts_the_infantry():
    # MBT 6.6.7.1: the air-strike scenario seats each M2A1's squad (capacity 1 leg unit)
    g = adv_game(scenario="mbt-adv-air-strike")
    seats = {g.units[p].name: g.units[c].name for p, c in enumerate(g.initial_carrier) if c >= 0}
    assert seats == {"US-1": "M2A1-1", "US-2": "M2A1-2", "US-3": "M2A1-3", "US-4": "M2A1-4"}
    st = g.new_initial_state(1)
    p = g.uindex["US-1"]
    assert st.st[p] == CARRIED and p not in [i for s in st.spots for i in s]


def _moving_carrier(**extra):
    units = [unit("C", "m113", "us", A, D, command="MOVE"), unit("P", "us-mech-squad", "us", A, D, carried_by="C"),
             unit("E", "t-80bv", "sov", "4T13", 5)]
    st = adv_state(units, phase="move-first", to_act="us", **extra)
    act(st, "move C")
    return st


def test_passengers_ride_with_the_carrier():
    # MBT 6.6.7: passengers have no command and move with their carrier
    st = _moving_carrier()
    act(st, "fwd C")
    assert st.hex[1] == st.hex[0] != st.game.map.hex(A) and st.st[1] == CARRIED


def test_dismount_costs_half_the_allowance_once_per_hex():
    # MBT 6.6.7: the carrier spends half its allowance (round down) in the hex; the passenger is placed in the
    # hex with Spot/Move and its move spent
    st = _moving_carrier()
    left = st.mv_left
    act(st, "dismount C P")
    assert st.mv_left == left - st.msa(0, st.game.units[0].type.cc) // 2
    assert st.st[1] == ON and st.hex[1] == st.hex[0] and st.moved[1] and st.mk[1] == 2
    assert any("dismounts from C" in e for e in st.events)


def test_mount_a_vehicle_in_the_hex():
    # MBT 6.6.7: a leg unit with a Move command boards a friendly vehicle in its hex (its whole move)
    units = [unit("C", "m113", "us", A, D), unit("P", "us-mech-squad", "us", A, D, command="MOVE"),
             unit("E", "t-80bv", "sov", "4T13", 5)]
    st = adv_state(units, phase="move-first", to_act="us")
    act(st, "move P")
    assert "mount P C" in [str(a) for a in st.legal_actions()]
    act(st, "mount P C")
    assert st.st[1] == CARRIED and st.carrier[1] == 0


def _ko_carrier(survive_roll):
    units = [unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "bmp-1", "sov", B, (D + 3) % 6),
             unit("P", "sov-mr-squad", "sov", B, 0, carried_by="T")]
    st = adv_state(units, to_act="us", dice=[1, 75, survive_roll])
    act(st, "fire S at T main:APFSDS")
    return st


def test_passengers_of_a_knocked_out_carrier_survive_on_21_or_more():
    # MBT 6.5.2.7.2: after a Knock Out each passenger survives on a roll at or above Knock Out - Leg (21+)
    survived = _ko_carrier(21)
    assert survived.st[1] == DEAD and survived.st[2] == ON and survived.sup[2] != 0
    lost = _ko_carrier(20)
    assert lost.st[2] == DEAD


def test_gp_fire_through_an_unprotected_carrier():
    # MBT 6.5.4.2.3: GP fire at an M113 (no protection) attacks its squad at GPD 1 with its own roll; Suppressed,
    # it bails out on the Suppressed - DF row (MBT 6.5.4.5, 5.15: 20-): here a 20
    a, b, d = clear_pair(13)
    units = [unit("S", "t-80bv", "sov", a, d, command="FIRE"), unit("T", "m113", "us", b, 0),
             unit("P", "us-mech-squad", "us", b, 0, carried_by="T")]
    st = adv_state(units, to_act="sov", dice=[1, 59, 34, 20])  # 1: the T-80BV's Ammo Limit roll (MBT 5.16.2)
    act(st, "fire S at T main:HE")
    assert any("passenger of T, GPD 1S" in e for e in st.events), st.events
    assert st.st[2] == ON and st.sup[2] != 0


def test_under_armor_passengers_are_not_attacked():
    # MBT 6.5.4.2.3: passengers of an Under Armor carrier (M2A1) are not attacked by GP fire at it
    a, b, d = clear_pair(13)
    units = [unit("S", "t-80bv", "sov", a, d, command="FIRE"), unit("T", "m2a1", "us", b, 0),
             unit("P", "us-mech-squad", "us", b, 0, carried_by="T")]
    st = adv_state(units, to_act="sov", dice=[1, 59])  # 1: the T-80BV's Ammo Limit roll (MBT 5.16.2)
    act(st, "fire S at T main:HE")
    assert st.st[2] == CARRIED and not any("passenger" in e for e in st.events)


def test_crew_bail_out_takes_the_passengers_out():
    # MBT 6.5.2.7.1: when the crew bails out, all passengers bail out automatically, Suppressed
    units = [unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "bmp-1", "sov", B, (D + 3) % 6),
             unit("P", "sov-mr-squad", "sov", B, 0, carried_by="T")]
    st = adv_state(units, to_act="us", dice=[1, 5, 1])  # Track hit, crew roll 1 <= 30
    act(st, "fire S at T main:APFSDS")
    assert st.bail[1] and st.st[2] == ON and st.sup[2] != 0


def test_emergency_bail_out_costs_nothing_and_suppresses():
    # MBT 6.6.7.1.2: an unsuppressed passenger of a moving carrier bails out at no cost, Suppression/On, in the
    # carrier's hex
    st = _moving_carrier()
    left = st.mv_left
    assert "bailout C P" in [str(a) for a in st.legal_actions()]
    act(st, "bailout C P")
    assert st.st[1] == ON and st.sup[1] and st.mv_left == left and st.hex[1] == st.hex[0]
    assert any("Emergency Bail Out" in e for e in st.events)
