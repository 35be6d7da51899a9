"""Optional Rules 7.8 Turrets and 7.45 Small Turrets through positions and the public API (examples MA85, MA86,
MA119 of the Advanced examples; rulebook MBT 7.8.1-7.8.4, 7.45)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_fire_fixtures import (A, B, D, FACE_AWAY, FACE_SHOOTER, act, clear_pair, idx_of, legal_texts,  # noqa: E402
                               opt_state, unit)

TUR = ("turrets",)
REAR_SIDE = (FACE_SHOOTER + 2) % 6   # the hull facing that the shooter hits at Rear/Side (MBT 6.5.2.2)


def _net(events) -> int:
    shot = next(e for e in events if " fires " in e)
    return int(re.search(r"net ([+-]\d+)", shot).group(1))


@pytest.mark.parametrize("reading", ["same-tens", "face-by-angle"])
def test_ma85_turret_hit_angle_reads_the_same_roll(reading):
    # MA85 (MBT 7.8.2): T-64BV hull Hit Angle Rear/Side, roll 39 -> TR; its turret faces the shooter, so the
    # Turret's Hit Angle is Front and the same roll reads TF: armor 90 instead of 35 (the APFSDS 82 bounces)
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"),
                    unit("T", "t-64bv", "sov", B, REAR_SIDE, turret=(FACE_SHOOTER - REAR_SIDE) % 6)],
                   TUR, dice=[1, 39, 100], options={"turret-hit-reading": reading})
    act(st, "fire S at T main:APFSDS")
    hit = next(e for e in st.events if "hit rear_side" in e)
    assert "at TF (roll 39)" in hit and "armor 90: no penetration" in hit, st.events
    assert st.st[idx_of(st, "T")] == 1


def test_ma85_without_turrets_the_hull_angle_location_stands():
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-64bv", "sov", B, REAR_SIDE)],
                   (), dice=[1, 39, 100])
    act(st, "fire S at T main:APFSDS")
    hit = next(e for e in st.events if "hit rear_side" in e)
    assert "at TR (roll 39)" in hit and "vs armor 35" in hit, st.events


@pytest.mark.parametrize("offset, mode, legal", [(0, "turret-arc", True), (1, "turret-arc", False),
                                                 (1, "turn-tt", True), (2, "turn-tt", True),
                                                 (3, "turn-tt", False), (5, "turn-tt", True), (4, "turn-tt", True)])
def test_turret_weapons_fire_into_the_turret_arc(offset, mode, legal):
    # MBT 7.8: turret weapons direct fire only at targets in the turret's field of fire; option
    # turret-direct-fire 'turn-tt' lets the turret turn up to its TT Factor (M1: 2) first
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE", turret=offset),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER)], TUR, options={"turret-direct-fire": mode})
    texts = legal_texts(st)
    assert ("fire S at T main:APFSDS" in texts) is legal
    assert "fire S at T loader-mmg:GP" in texts  # the loader's MMG is TT 360: no turret


def test_turret_follows_its_target():
    # MBT 7.8.4: the turret turns to cover the target it fires at; that is its new facing
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE", turret=2),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER)], TUR, dice=[100],
                   options={"turret-direct-fire": "turn-tt"})
    s = idx_of(st, "S")
    assert st.turret_facing(s) == (D + 2) % 6
    act(st, "fire S at T main:APFSDS")
    assert st.turret_facing(s) in (D, (D + 1) % 6) and st.in_turret_arc(s, idx_of(st, "T"))


def _ow(turret: int, rules=TUR):
    extra = {"turret": turret} if rules else {}
    st = opt_state([unit("S", "m1", "us", A, D, command="OW", **extra),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER, command="FIRE", revealed=True, fired=True)],
                   rules, phase="overwatch", dice=[100])
    act(st, "ow S at T main:APFSDS")
    return _net(st.events), st


def test_overwatch_outside_the_turret_arc_takes_the_adjust_modifier():
    # MBT 7.8.4: Overwatch at a target outside the turret's field of fire: -3 (Overwatch Adjust) instead of -1
    inside, _ = _ow(0)
    outside, st = _ow(1)
    assert inside - outside == 2
    assert st.turret_facing(idx_of(st, "S")) == D  # the turret now covers the target
    off, _ = _ow(1, ())  # without Turrets a turreted weapon's arc is the hull's: the same as inside
    assert off == inside


def test_overwatch_needs_a_turret_turn_within_tt():
    st = opt_state([unit("S", "m1", "us", A, D, command="OW", turret=3),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER, command="FIRE", revealed=True, fired=True)],
                   TUR, phase="overwatch")
    assert "ow S at T main:APFSDS" not in legal_texts(st)  # 3 hexsides > TT 2 (MBT 7.8.4)


def test_turret_turns_once_per_new_hex_entered():
    # MBT 7.8.1: moving, the turret may turn up to TT hexsides for each new hex entered
    a, b, d = clear_pair(3)
    st = opt_state([unit("S", "m1", "us", a, d, command="MOVE")], TUR, phase="move-second", to_act="us")
    act(st, "move S")
    assert not any(t.startswith("turn S turret") for t in legal_texts(st))
    act(st, "fwd S")
    texts = legal_texts(st)
    assert {"turn S turret 1", "turn S turret -2"} <= texts and "turn S turret 3" not in texts
    s = idx_of(st, "S")
    act(st, "turn S turret -2")
    assert st.turret_facing(s) == (d - 2) % 6
    assert not any(t.startswith("turn S turret") for t in legal_texts(st))
    act(st, "turn S right")  # the turret keeps its place on the hull
    assert st.turret_facing(s) == (d - 1) % 6


def test_turret_damage_limits_the_turn_to_one():
    a, b, d = clear_pair(3)
    st = opt_state([unit("S", "m1", "us", a, d, command="MOVE", turret_damaged=True)], TUR, phase="move-second")
    act(st, "move S")
    act(st, "fwd S")
    texts = legal_texts(st)
    assert "turn S turret 1" in texts and "turn S turret 2" not in texts


def test_adjust_turret_step_chooses_facing_and_buttoned():
    # MBT 7.8.1 / 7.8.3: in the Adjustment Phase each turreted or A-Type vehicle adjusts its turret (up to TT)
    # and A-Types choose Open or Buttoned Up for the next turn
    st = opt_state([unit("S", "m1", "us", A, D, command="NC"), unit("T", "m113", "sov", B, FACE_SHOOTER)],
                   TUR, phase="air-2", to_act=None)
    assert st.phase_id() == "adjustment"
    texts = legal_texts(st)
    assert {"turn S turret 0 open", "turn S turret 2 buttoned", "turn S turret -1 open"} <= texts
    act(st, "turn S turret 1 buttoned")
    s = idx_of(st, "S")
    assert st.buttoned(s) and st.turret_facing(s) == (D + 1) % 6
    # the M113 has no turret (TT 360) but is an A-Type: it may button up
    assert legal_texts(st) == {"turn T turret 0 open", "turn T turret 0 buttoned"}
    act(st, "turn T turret 0 open")
    assert st.turn == 2 and st.phase_id() == "command"


def test_without_turrets_there_is_no_adjust_turret_step():
    st = opt_state([unit("S", "m1", "us", A, D, command="NC"), unit("T", "m113", "sov", B, FACE_SHOOTER)],
                   (), phase="air-2", to_act=None)
    assert st.turn == 2


def _spot_pair():
    """A spotter and a vehicle in Woods at exactly its spotting range."""
    from opt_fire_fixtures import opt_game

    g = opt_game(TUR)
    for rng in range(4, 12):
        try:
            a, b, d = clear_pair(rng, "C", "W")
        except LookupError:
            continue
        st = opt_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, (d + 3) % 6)],
                       TUR, game=g)
        t = idx_of(st, "T")
        if st.spot_range(t) == rng and st.ag_spot_range(t, st.mk[t], -1) < rng:
            return a, b, d
    pytest.skip("no woods hex at its spotting range on the sample boards")


def test_buttoned_spotter_spots_one_row_worse():
    # MBT 7.8.3: a Buttoned Up vehicle moves one row down on the Spotting Ranges Table
    a, b, d = _spot_pair()
    units = [unit("S", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    st = opt_state(units, TUR, phase="spotting")
    assert idx_of(st, "T") in st.spots[idx_of(st, "S")]
    units[0]["status"] = {"buttoned": True}
    st = opt_state(units, TUR, phase="spotting")
    assert idx_of(st, "T") not in st.spots[idx_of(st, "S")]


@pytest.mark.parametrize("buttoned, turret_damaged", [(False, True), (True, False)])
def test_ma86_open_a_type_takes_turret_damage_from_effective_gp(buttoned, turret_damaged):
    # MA86 (MBT 7.8.3): non-small-arms GP Effective with the max GP Effectiveness (T-80BV HE: 5) below the GP
    # Defense (M1 8A) only suppresses a Buttoned vehicle, but damages an Open turret
    a, b, d = clear_pair(3)  # Point Blank: HE GP 9 against GPD 8, Elite +10: roll 100 -> 90 > S 82 (G9 roll 1)
    st = opt_state([unit("S", "t-80bv", "sov", a, d, command="FIRE"),
                    unit("T", "m1", "us", b, (d + 3) % 6, buttoned=buttoned)], TUR, to_act="sov", dice=[1, 100, 100],
                   grades={"sov": "elite"})
    act(st, "fire S at T main:HE")
    t = idx_of(st, "T")
    assert any("E-Effect" in e for e in st.events), st.events
    assert st.tdmg[t] is turret_damaged and bool(st.sup[t]) is not turret_damaged


def test_ma86_open_a_type_small_arms_effective_at_pointblank():
    a, b, d = clear_pair(1)
    st = opt_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "bmp-2", "sov", b, (d + 3) % 6)],
                   TUR, dice=[100, 100])
    act(st, "fire S at T cdr-hmg:GP")
    assert st.tdmg[idx_of(st, "T")], st.events


@pytest.mark.parametrize("roll, location", [(11, "TS"), (21, "HS"), (31, "TR"), (41, "HS"), (51, "HS")])
def test_ma119_small_turret_reads_2_as_6_and_4_as_8(roll, location):
    # MA119 (MBT 7.45): not Hull Down, hit locations 1 and 3 stay, 2 reads as 6 and 4 as 8 (Rear/Side row:
    # 2 TS -> 6 HS, 4 TS -> 8 HS)
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, REAR_SIDE)],
                   ("small-turrets",), dice=[1, roll, 100, 100])
    st.ofire.d.cards["t-80bv"].small_turret = True  # no sample card is noted Small Turret (this game is a copy)
    act(st, "fire S at T main:APFSDS")
    hit = next(e for e in st.events if "hit rear_side" in e)
    assert f"at {location} (roll {roll})" in hit, st.events


def test_small_turret_needs_the_card_note():
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, REAR_SIDE)],
                   ("small-turrets",), dice=[1, 21, 100, 100])
    act(st, "fire S at T main:APFSDS")
    assert any("at TS (roll 21)" in e for e in st.events), st.events


def test_turret_statuses_need_the_rule():
    from studio.rules.position import PositionError

    with pytest.raises(PositionError, match="needs the optional rule 'turrets'"):
        opt_state([unit("S", "m1", "us", A, D, turret=1)], ())


def test_open_turret_required_silences_a_buttoned_vehicle():
    # MBT 7.8.3: some A-Types must be Open to fire (their card's Notes); no sample card is, so a game copy's is
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE", buttoned=True),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER)], TUR)
    s, t = idx_of(st, "S"), idx_of(st, "T")
    row = next(r for r in st.game.units[s].type.ap if r.key == "main:APFSDS")
    assert st.weapon_ok(s, t, row)
    st.ofire.d.cards["m1"].open_required = True
    assert not st.weapon_ok(s, t, row)
    st.ofire.btn[s] = False
    assert st.weapon_ok(s, t, row)


def test_buttoned_spotter_still_spots_within_the_lower_row():
    a, b, d = _spot_pair()
    st = opt_state([unit("S", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6)], TUR, phase="spotting")
    t = idx_of(st, "T")
    near = st.ag_spot_range(t, st.mk[t], -1)
    from studio.hexgrid.coords import neighbour

    g = st.game
    h = g.map.hex(a)
    for _ in range(st.spot_range(t) - near):
        h = neighbour(h, d)  # closer along the line, to exactly the Buttoned range
    st = opt_state([unit("S", "m1", "us", g.label(h), d, buttoned=True), unit("T", "t-80bv", "sov", b, (d + 3) % 6)],
                   TUR, phase="spotting")
    assert idx_of(st, "T") in st.spots[idx_of(st, "S")]


def test_tt1_turret_turns_one_hexside():
    # MBT 7.8.1: the turret turns at most its TT Factor (ZSU-23-4 guns: TT 1)
    a, b, d = clear_pair(3)
    st = opt_state([unit("S", "zsu-23-4", "sov", a, d, command="MOVE")], TUR, phase="move-second", to_act="sov")
    act(st, "move S")
    act(st, "fwd S")
    texts = legal_texts(st)
    assert "turn S turret 1" in texts and "turn S turret -1" in texts and "turn S turret 2" not in texts


def test_turret_follows_clockwise_past_the_front():
    # MBT 7.8.4: from offset 5 (one hexside left of the hull front) the turret turns right onto the target
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE", turret=5),
                    unit("T", "t-80bv", "sov", B, FACE_SHOOTER)], TUR, dice=[100],
                   options={"turret-direct-fire": "turn-tt"})
    s = idx_of(st, "S")
    act(st, "fire S at T main:APFSDS")
    assert st.turret_offset(s) == 0 and st.turret_facing(s) == D


def test_hull_locations_stay_hull_with_a_turned_turret():
    # MBT 7.8.2: only turret hits are read again; roll 51 at Rear/Side is HS whatever the turret's angle
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"),
                    unit("T", "t-64bv", "sov", B, REAR_SIDE, turret=(FACE_SHOOTER - REAR_SIDE) % 6)],
                   TUR, dice=[1, 51, 100, 100])
    act(st, "fire S at T main:APFSDS")
    assert any("at HS (roll 51)" in e for e in st.events), st.events


@pytest.mark.parametrize("reading, location", [("same-tens", "TF"), ("face-by-angle", "TS")])
def test_turret_hit_reading_options_differ(reading, location):
    # MBT 7.8.2 (option turret-hit-reading): hull Rear, turret Front/Side: roll 11 reads TF on the Front/Side row
    # ('same-tens') or the Front/Side turret face TS ('face-by-angle')
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"),
                    unit("T", "t-64bv", "sov", B, FACE_AWAY, turret=(FACE_SHOOTER + 1 - FACE_AWAY) % 6)],
                   TUR, dice=[1, 11, 100, 100], options={"turret-hit-reading": reading})
    act(st, "fire S at T main:APFSDS")
    assert any(f"at {location} (roll 11)" in e for e in st.events), st.events


def test_turret_ring_fixes_the_turret():
    # MBT 7.23.2 with 7.8: a damaged turret ring: the turret may not rotate for the rest of the scenario
    a, b, d = clear_pair(3)
    st = opt_state([unit("S", "m1", "us", a, d, command="MOVE", collateral=["turret-ring"])],
                   TUR + ("vehicle-collateral-damage",), phase="move-second")
    act(st, "move S")
    act(st, "fwd S")
    assert not any(t.startswith("turn S turret") for t in legal_texts(st))


def test_adjust_turret_step_skips_leg_units_and_turns_left():
    st = opt_state([unit("L", "us-mech-squad", "us", A, D), unit("S", "m1", "us", A, D, command="NC")],
                   TUR, phase="air-2", to_act=None)
    if "cover L off" in legal_texts(st):
        act(st, "cover L off")  # the Adjust Full Cover step (MBT 6.8.3) of the leg unit
    assert st.cp == st.game.sides.index("us") and not any(t.startswith("turn L") for t in legal_texts(st))
    assert "turn S turret -2 open" in legal_texts(st)
    s = idx_of(st, "S")
    st.apply(st.game.parse_action("turn S turret -2 open"))
    assert st.ofire.toff[s] == 4
