"""MBT Advanced Game AP and ATGM fire (MBT 6.5.2, 5.1.3.3) through positions and the public API; the narration
(``state.events``) names each roll and result."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_game, adv_state, clear_pair, unit  # noqa: E402

from studio.rulesets.mbt.engine.ag_fire import faces, hit_angle  # noqa: E402
from studio.rulesets.mbt.engine.codes import MOVE, SH  # noqa: E402

A, B, D = clear_pair(5)          # shooter hex, target hex (range 5, band P of most guns), direction A -> B
FACE_SHOOTER = (D + 3) % 6       # the target facing the shooter: Front hit angle


def _shot(shooter_card, ammo, target_card, dice, target_facing=FACE_SHOOTER, options=None, **target_status):
    st = adv_state([unit("S", shooter_card, "us", A, D, command="FIRE"),
                    unit("T", target_card, "sov", B, target_facing, **target_status)],
                   to_act="us", dice=dice, options=options)
    act(st, f"fire S at T {ammo}")
    return st


def _unit_index(st, name):
    return st.game.uindex[name]


def test_faces_read_tens_and_units_zero_as_ten():
    # MBT 3.2, 6.5.2.2: the tens die gives the location, the units die the damage digit; face 0 counts 10
    assert faces(76) == (7, 6) and faces(100) == (10, 10) and faces(5) == (10, 5) and faces(14) == (1, 4)


@pytest.mark.parametrize("turn, angle", [(0, "front"), (1, "front_side"), (2, "rear_side"), (3, "rear"),
                                         (-1, "front_side"), (-2, "rear_side")])
def test_six_hit_angles_left_right_mirrored(turn, angle):
    # MBT 6.5.2.2: six 60-degree angles around the target, left and right mirrored (Q16)
    g = adv_game()
    a, b = g.map.hex(A), g.map.hex(B)
    assert hit_angle(b, (FACE_SHOOTER + turn) % 6, a) == angle


def test_front_side_roll_76_hits_hull_side_with_damage_digit_6():
    # MBT 6.5.2.2 example: Front/Side angle, roll 76 -> HS (the 7), damage digit 6
    st = _shot("m1", "main:APFSDS", "t-80bv", [1, 76, 99], target_facing=(FACE_SHOOTER + 1) % 6)
    hit = next(e for e in st.events if "hit front_side" in e)
    assert "at HS (roll 76)" in hit and "damage digit 6" in hit


def test_t80bv_armor_by_angle_and_elevation():
    # MBT 6.5.2.3.2-3 examples: T-80BV Front Rising HF 119; Front/Side Level HF 100
    st = adv_state([unit("S", "m1", "us", A, D), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)], phase="command")
    t = _unit_index(st, "T")
    assert st.armor_at(t, "front", "rising", "HF") == 119
    assert st.armor_at(t, "front_side", "level", "HF") == 100


def test_ce_armor_doubles_t64bv_turret_front_against_itow():
    # MBT 6.5.2.4.1 example: T-64BV TF 90 with CEx2 against ITOW (penetration 126): 180, no penetration;
    # the L-ERA roll 8 (> 7) has no effect
    st = _shot("m150", "tow:ITOW", "t-64bv", [1, 15, 8])
    assert any("armor 180: no penetration" in e for e in st.events), st.events
    assert any("L-ERA roll 8 vs 7: no effect" in e for e in st.events)
    assert st.st[_unit_index(st, "T")] == 1


def test_ce_armor_then_era_against_tow2():
    # MBT 6.5.2.4.2 example: T-64BV TF 90 -> CEx2 180 -> ERA effective on a 2 -> ERAC 260 > TOW II 180
    st = _shot("m901a1", "tow:TOW_2", "t-64bv", [1, 15, 2])
    assert any("armor 260: no penetration" in e for e in st.events), st.events


@pytest.mark.parametrize("rounding, armor", [("exact", 133), ("table-row", 130)])
def test_era_on_t62mv_hull_front(rounding, armor):
    # MBT 6.5.2.4.2 example: T-62MV HF 53 with L-ERA, ERA roll 5 effective: ERAC; the table reads the 50 row
    # (130), the exact calculation 133 (option special-armor-rounding, Q33); both stop the ITOW (126)
    st = _shot("m150", "tow:ITOW", "t-62mv", [1, 55, 5], options={"special-armor-rounding": rounding})
    assert any(f"penetration 126 vs armor {armor}: no penetration" in e for e in st.events), st.events


def test_light_era_ignores_ke_ammo():
    # MBT 6.5.2.4.2: L-ERA is effective only against CE ammo: no ERA roll against APFSDS
    st = _shot("m1", "main:APFSDS", "t-62mv", [1, 55, 99])
    assert not any("ERA" in e for e in st.events)


def test_known_number_of_hits_row_56_rof_f():
    # MBT 6.5.2.1 example: hit number 56, ROF F: 01-11 three hits, 12-22 two, 23-56 one
    st = adv_state([unit("S", "m1", "us", A, D)], phase="command")
    assert [st.number_of_hits(56, "F", r) for r in (1, 11, 12, 22, 23, 56)] == [3, 3, 2, 2, 1, 1]
    assert st.number_of_hits(56, "N", 1) == 1  # ROF N: one hit (MBT 6.5.2.1)


def test_rapid_fire_hits_the_target_more_than_once():
    # MBT 6.5.2.1: ROF R can make several hits with one roll (placeholder fractions off the known row)
    st = _shot("m2a1", "main:APDS", "t-80bv", [1, 76, 99, 76, 99], target_facing=(FACE_SHOOTER + 3) % 6)
    assert sum("hit rear" in e for e in st.events) >= 2, st.events


def test_track_hit_stops_movement_and_crew_check():
    # MBT 6.5.2.2.1: tens 0 (10) is a Track hit; the crew checks Bail Out (TK - Crew 30-): 31 stays
    st = _shot("m1", "main:APFSDS", "t-80bv", [1, 5, 31])
    t = _unit_index(st, "T")
    assert st.track[t] and st.st[t] == 1
    assert MOVE not in st.cmd_options(t) and SH not in st.cmd_options(t)


def test_track_hit_crew_bails_out_at_30():
    # MBT 6.5.2.7.1: TK - Crew 30-: a roll of 30 abandons the vehicle (no wreck)
    st = _shot("m1", "main:APFSDS", "t-80bv", [1, 5, 30])
    t = _unit_index(st, "T")
    assert st.bail[t] and st.st[t] != 1 and st.hex[t] not in st.wreck
    assert any("bails out" in e for e in st.events)


def test_turret_then_hull_damage_knocks_out():
    # MBT 6.5.2.2.4: a Damaged vehicle receiving a second Damaged result of either type is KO
    st = _shot("m1", "main:APFSDS", "t-80bv", [1, 73, 99], turret_damaged=True)  # M1 AP Damage digit 3: DM
    t = _unit_index(st, "T")
    assert any("-> DM" in e for e in st.events) and st.st[t] == 3 and st.wreck.get(st.hex[t]) == 1


def test_hull_damage_halves_movement_turret_damage_costs_the_shooter():
    # MBT 6.5.2.2.4: Hull Dmgd halves the speed allowance; Turret Dmgd applies Shooter Damaged (-3)
    st = _shot("m1", "main:APFSDS", "t-80bv", [1, 73, 99])  # Front 7: HF; digit 3: DM
    t = _unit_index(st, "T")
    assert st.dmg[t] and not st.tdmg[t]
    assert st.msa(t, 8) == 4
    plain = adv_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)],
                      to_act="us")
    damaged = adv_state([unit("S", "m1", "us", A, D, command="FIRE", turret_damaged=True),
                         unit("T", "t-80bv", "sov", B, FACE_SHOOTER)], to_act="us")
    row = next(r for r in plain.game.units[0].type.ap if r.key == "main:APFSDS")
    diff = damaged.hit_modifiers(0, 1, row, False)[0] - plain.hit_modifiers(0, 1, row, False)[0]
    assert diff == plain.game.tables.ap_mod["shooter-damaged"]


def test_brew_up_suppresses_friendly_units_in_the_hex():
    # MBT 6.5.2.6: a Brew Up suppresses every friendly ground unit in its hex (M1 AP Damage digit 9: BU)
    st = adv_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "bmp-2", "sov", B, FACE_SHOOTER),
                    unit("Q", "bmp-2", "sov", B, FACE_SHOOTER)], to_act="us", dice=[1, 79])
    act(st, "fire S at T main:APFSDS")
    assert any("-> BU" in e for e in st.events), st.events
    assert any("Q is Suppressed" in e for e in st.events)
    assert st.sup[_unit_index(st, "Q")] != 0 and st.wreck.get(st.hex[_unit_index(st, "T")]) == 2


def test_atgm_reads_range_bands_from_e():
    # MBT 5.1.3.3.2: ATGM range factors read right to left: Songster E 1, L skipped, M 2, S 4, P 40
    st = adv_state([unit("S", "t-80bv", "sov", A, D)], phase="command")
    row = next(r for r in st.game.units[0].type.ap if r.kind == "ATGM")
    assert [st.band_of(row, r) for r in (1, 2, 3, 4, 5, 40, 41)] == ["E", "M", "S", "S", "P", "P", None]


def test_atgm_target_moving_is_minus_one():
    # MBT 6.5.2.5: a moving target is -1 to an ATGM (-2 to guns)
    units = [unit("S", "m150", "us", A, D, command="FIRE"),
             unit("T", "t-80bv", "sov", B, FACE_SHOOTER, command="MOVE", revealed=True)]
    moving = adv_state(units, to_act="us")
    still = adv_state([units[0], unit("T", "t-80bv", "sov", B, FACE_SHOOTER)], to_act="us")
    row = next(r for r in moving.game.units[0].type.ap if r.kind == "ATGM")
    assert moving.hit_modifiers(0, 1, row, False)[0] - still.hit_modifiers(0, 1, row, False)[0] == \
        moving.game.ag.hit_mod["target-moving-atgm"] == -1


def test_no_short_halt_atgm_fire():
    # MBT 5.1.3.3.3: CL 3/4 and crew-served ATGMs may not fire with Short Halt
    st = adv_state([unit("S", "us-mech-squad", "us", A, D, command="SH"), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)],
                   to_act="us")
    assert not any(a[0] == "fire" and "dragon" in a[3].lower() for a in st.legal_actions())
    st = adv_state([unit("S", "us-mech-squad", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)],
                   to_act="us")
    assert any(a[0] == "fire" and "dragon" in a[3].lower() for a in st.legal_actions())


def test_ap_damage_read_on_the_firers_card():
    # MBT 6.5.2.6: the damage digit reads the firing unit's AP Damage (M1: 1-2 ND, 3-4 DM, 5-8 KO, 9-10 BU)
    results = {}
    for digit in (1, 3, 5, 9):
        st = _shot("m1", "main:APFSDS", "t-80bv", [1, 70 + digit, 99])
        results[digit] = next(e.rsplit("-> ", 1)[1] for e in st.events if "damage digit" in e)
    assert results == {1: "ND", 3: "DM", 5: "KO", 9: "BU"}


def test_narration_only_when_recording():
    # narration contract: events only when dice.record is set
    st = adv_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)],
                   to_act="us", dice=[1, 76, 99], record=False)
    act(st, "fire S at T main:APFSDS")
    assert st.events == [] and st.clone().events == []
