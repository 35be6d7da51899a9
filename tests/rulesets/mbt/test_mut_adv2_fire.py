"""MBT Advanced Game direct fire, second round of mutation-aimed cases (issue 12): AP armor fallback, ERA and
Bail Out boundaries, a Track hit on the moving vehicle, ATGM dodge, direct-fire smoke and GP fire. Through
positions and the public API (legal actions, play, the narration, the dice record). Expected values come from the
rulebook (MBT 5.1.3.3.4, 6.1.4.3.10, 6.5.2.2.1, 6.5.2.3, 6.5.2.4.2, 6.5.2.7.1) and the ruleset tables / cards."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402

A, B, D = clear_pair(2)
BACK = (D + 3) % 6  # a target at B facing the shooter at A


def _texts(st) -> set:
    return {str(a) for a in st.legal_actions()}


# ---------------------------------------------------------------- armor (MBT 6.5.2.3, ENGINE_POLICIES)
@pytest.mark.parametrize("facing, armor", [(BACK, 85), (D, 32)])
def test_a_card_without_the_advanced_armor_table_uses_its_basic_front_and_rear(facing, armor):
    # the M1 card gives no Advanced armor table: through the Front angle its Basic Front factor (85), from the
    # rear its Rear factor (32) (card basic_armor; policy ag-armor-fallback); APFSDS is KE: no CEx2
    st = adv_state([unit("S", "t-80bv", "sov", A, D, command="FIRE"), unit("T", "m1", "us", B, facing)],
                   to_act="sov", dice=[1, 1, 15, 100, 100, 100])
    act(st, "fire S at T main:APFSDS")
    assert any(f"penetration 96 vs armor {armor}:" in e for e in st.events), st.events


# ---------------------------------------------------------------- ERA (MBT 6.5.2.4.2, table era-effect)
@pytest.mark.parametrize("roll, armor", [(7, 133), (8, 53)])
def test_light_era_is_effective_at_the_roll_max_and_not_above(roll, armor):
    # T-62MV HF 53 with L-ERA against the ITOW (CE, not tandem): roll_max 7; at 7 ERAC (53 x 2.5 = 133, the
    # rulebook's example), at 8 no effect: the bare 53
    st = adv_state([unit("S", "m150", "us", A, D, command="FIRE"), unit("T", "t-62mv", "sov", B, BACK)],
                   to_act="us", dice=[1, 55, roll, 100, 100, 100])
    act(st, "fire S at T tow:ITOW")
    word = "effective" if roll == 7 else "no effect"
    assert any(f"L-ERA roll {roll} vs 7: {word}" in e for e in st.events), st.events
    assert any(f"penetration 126 vs armor {armor}:" in e for e in st.events), st.events


# ---------------------------------------------------------------- Bail Out (MBT 6.5.2.7.1)
@pytest.mark.parametrize("grade, roll, out", [("elite", 25, True), ("elite", 26, False),
                                              ("green", 35, True), ("green", 36, False)])
def test_bail_out_adds_the_unit_grade_modifier_to_the_roll(grade, roll, out):
    # TK - Crew 30; the roll (100) plus the grade's Bail Out modifier (Elite +5, Green -5, unit-grade-modifiers)
    # must be at or under 30
    st = adv_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, BACK)],
                   to_act="us", dice=[1, 5, roll], grades={"us": "seasoned", "sov": grade})
    act(st, "fire S at T main:APFSDS")
    t = st.game.uindex["T"]
    assert st.bail[t] is out and (st.st[t] == 1) is not out, st.events
    mod = "+5" if grade == "elite" else "-5"
    assert any(f"roll {roll}{mod} vs 30" in e for e in st.events), st.events
    assert st.outcome().losses == [0, 1 if out else 0]  # an abandoned vehicle is one loss


# ---------------------------------------------------------------- Track hit (MBT 6.5.2.2.1)
def test_a_track_hit_on_the_moving_vehicle_ends_its_move_at_once():
    # an Overwatch shot tracks the turning T-80BV: no more movement or pivots: it may only end its move
    a, b, d = clear_pair(3)
    st = adv_state([unit("S", "m1", "us", a, d, command="OW"),
                    unit("T", "t-80bv", "sov", b, (d + 3) % 6, command="MOVE")],
                   phase="move-second", to_act="sov", dice=[1, 5, 100])
    act(st, "move T")
    assert {"fwd T", "rev T"} <= _texts(st)
    act(st, "turn T right")
    act(st, "ow S at T main:APFSDS")
    assert st.track[st.game.uindex["T"]], st.events
    assert _texts(st) == {"done T"}


# ---------------------------------------------------------------- ATGM Dodge (MBT 5.1.3.3.4)
SPIGOT = "main:Spigot_(Fagot)"


def test_a_pending_dodge_decision_is_part_of_the_state_fingerprint():
    # the BMP-1's Spigot (SP 12) at the Bradley with a Move command at range 13: the owner decides whether to
    # dodge; a state waiting for that answer differs from every other (perturbing the decision changes the hash)
    from studio.rules.conformance_data import check_fingerprint_complete

    st = adv_state([unit("S", "bmp-1", "sov", "2A1", 0, command="FIRE"),
                    unit("T", "m2a1", "us", "2A14", 1, command="MOVE", revealed=True)], to_act="sov",
                   dice=[1, 1, 50, 50, 50])
    act(st, f"fire S at T {SPIGOT}")
    assert _texts(st) == {"fwd T", "hold T"}
    check_fingerprint_complete(st)


def test_the_overwatching_unit_whose_atgm_was_dodged_triggers_the_movers_overwatch():
    # MBT 4.4.2, 5.1.3.3.4: the Bradley dodges the BMP-1's Overwatch Spigot into 2B14; the BMP-1 fired, so the
    # Bradley's side may overwatch it in turn (the M1 on Overwatch at 2A10)
    st = adv_state([unit("S", "bmp-1", "sov", "2A1", 0, command="OW"),
                    unit("T", "m2a1", "us", "2A14", 0, command="MOVE"),
                    unit("U", "m1", "us", "2A10", 0, command="OW")], phase="move-second", to_act="us",
                   dice=[1, 1, 50, 50, 50])
    act(st, "move T")
    act(st, "turn T right")
    act(st, f"ow S at T {SPIGOT}")
    act(st, "fwd T")
    assert any("dodges" in e for e in st.events), st.events
    assert "ow U at S main:APFSDS" in _texts(st)


# ---------------------------------------------------------------- direct-fire smoke (MBT 6.1.4.3.10)
SMOKE_UNITS = [unit("C", "m125", "us", "4H1", 5, command="FIRE"), unit("M", "m1", "us", "4H2", 5, command="FIRE"),
               unit("T", "t-80bv", "sov", "4E1", 5)]


def test_smoke_is_fired_instead_of_a_shot_the_unit_is_done_for_the_step():
    # the M125 fires smoke at the T-80BV's hex: it has fired this step (no shot, no second smoke); the M1 still may
    st = adv_state(SMOKE_UNITS, to_act="us", dice=[1] + [50] * 10)
    assert "smoke C at 4E1" in _texts(st)
    act(st, "smoke C at 4E1")
    left = _texts(st)
    assert "fire M at T main:APFSDS" in left
    assert not any(a.split()[1] == "C" for a in left), left


def test_no_direct_fire_smoke_outside_the_direct_fire_step():
    # smoke instead of a shot is a Direct Fire Step action: none in the Command Phase
    st = adv_state(SMOKE_UNITS, phase="command", dice=[50] * 10)
    assert _texts(st) and not any(a.startswith("smoke ") for a in _texts(st)), _texts(st)


# ---------------------------------------------------------------- Hit Angle sectors (MBT 6.5.2.2, Q16)
@pytest.mark.parametrize("shooter, angle", [
    ((1, -4), "front"), ((1, -2), "front"),              # 1/4 and 1/2 hexside off the front (a boundary)
    ((2, -3), "front_side"), ((1, -1), "front_side"),    # 2/3, 1
    ((3, -2), "front_side"), ((2, -1), "front_side"),    # 4/3, 3/2 (a boundary)
    ((3, -1), "rear_side"), ((1, 0), "rear_side"),       # 5/3, 2
    ((2, 1), "rear_side"), ((1, 1), "rear_side"),        # 7/3, 5/2 (a boundary)
    ((1, 2), "rear"), ((0, 1), "rear")])                 # 8/3, 3
def test_hit_angle_sectors_are_one_hexside_wide_and_boundaries_go_to_the_more_frontal(shooter, angle):
    # six 60-degree sectors centred on the target's hexsides (Q16): Front within 1/2 hexside of the front
    # hexside, Front/Side to 3/2, Rear/Side to 5/2, then Rear; on a boundary the owner takes the more frontal
    # angle (policy hit-angle-owner-choice); left and right mirrored
    from studio.rulesets.mbt.engine.ag_fire import hit_angle

    assert hit_angle((0, 0), 0, shooter) == angle
    assert hit_angle((0, 0), 0, (-shooter[0], shooter[0] + shooter[1])) == angle  # the mirror image


# ---------------------------------------------------------------- 7.35.3 (optional): only a missed ATGM
def test_an_atgm_that_hits_a_vehicle_in_a_building_is_no_fire_check():
    # MBT 7.35.3 (option fires-missed-atgm on): only a missed ATGM is checked for a fire; one that hits is not
    from test_opt_optb_fires import _atgm_at_town

    from studio.hexgrid.coords import distance

    st, town, b, e, row = _atgm_at_town("on")
    st.hex[e] = st.hex[b]  # the BMP-2 fires at the M1 standing in the town (the test placement of that file)
    st.hex[b] = next(x for x in st.game.hexes if x not in st.game.building_hexes and
                     row.min_range <= distance(x, town) <= 3 and st.game.los.clear(x, town))
    st.dice.force(1, *([50, 5] + [100] * 4) * 3)  # hit roll 1: a hit (ROF: one or more)
    assert st.ap_fire(b, e, row, False) >= 1
    assert st.fire_gp == {}


# ---------------------------------------------------------------- target cover (MBT 6.5.2.5, table cover-ap)
def _net(terrain: str) -> int:
    import re

    a, b, d = clear_pair(3, "C", terrain)
    st = adv_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, (d + 3) % 6)],
                   to_act="us", dice=[100] * 6)
    act(st, "fire S at T main:APFSDS")
    line = next(e for e in st.events if " fires " in e)
    return int(re.search(r"net ([+-]\d+)", line).group(1))


def test_ap_fire_at_a_target_in_cover_takes_the_cover_modifier():
    # the same M1 APFSDS shot at 3 hexes at a T-80BV in the open, in woods (Medium Cover, -3) and in brush
    # (Light Cover, -1)
    clear = _net("C")
    assert _net("W") == clear - 3 and _net("B") == clear - 1
