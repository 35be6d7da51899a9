"""MBT Optional Rules of spotting through positions: 7.4 Removing Spot Counters (MA82), 7.7 Limited Spotting
(MA83), 7.24 Camouflage, 7.36.4 night aids (MA113) and 7.46 Ground-Based Radar. Spotting rolls are made in the
next turn's Spotting Phase (after the mover ``X`` ends the turn), where the position's forced dice apply."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import act, clear_pair, end_turn_decisions, events, pos_state, unit  # noqa: E402

WOODS = "2L10"                      # a Woods hex (Medium cover)
AT6, AT10, AT10B = "2F11", "2B12", "2B13"   # Clear hexes with a clear LOS to it at 6, 10 and 10
AT4, AT4B = "2H11", "2H12"
MOVER = unit("X", "m1", "us", "2A1", 0, command="MOVE")


def _next_spotting(units, rules, dice, **kw):
    """The position's Movement Phase; X moves and the turn ends: the next Spotting Phase rolls ``dice``."""
    st = pos_state(units + [MOVER], rules, phase="move-first", dice=dice, **kw)
    act(st, "move X")
    act(st, "done X")
    end_turn_decisions(st)
    return st


# ---------------------------------------------------------------- 7.4
@pytest.mark.parametrize("roll, removed", [(10, True), (11, False)])
def test_ma82_spot_removal(roll, removed):
    # MA82 / MBT 7.4: a unit with Spot/Fire in Woods spotted to 15 (the example's SPG-9, towed units are not
    # played in positions: a squad with the same range), three spotters (3-5 column), one at 6 <= 15 // 2: the
    # first value 20 (Medium, 3-5); Veteran +10: removed iff roll + 10 <= 20
    units = [unit("S", "sov-mr-squad", "sov", WOODS, 0, mark="spot-fire"),
             unit("A", "m2a1", "us", AT10, 0), unit("B", "m2a1", "us", AT10B, 0), unit("M", "m1", "us", AT6, 0)]
    st = _next_spotting(units, ("spot-removal",), [roll], grades={"us": "veteran", "sov": "seasoned"})
    assert events(st, f"3 spotter(s)): roll {roll}+10 vs 20"), st.events
    assert (st.mk[0] == 0) == removed


def test_no_spot_removal_next_to_an_enemy_or_with_the_rule_off():
    units = [unit("S", "sov-mr-squad", "sov", WOODS, 0, mark="spot-fire"), unit("A", "m2a1", "us", AT10, 0),
             unit("M", "m1", "us", "2K10", 0)]
    st = _next_spotting(units, ("spot-removal",), [1], grades={"us": "veteran"})
    assert not events(st, "Spot counter removal") and st.mk[0] != 0
    st = _next_spotting(units[:2], (), [1])
    assert not events(st, "Spot counter removal") and st.mk[0] != 0


# ---------------------------------------------------------------- 7.7
@pytest.mark.parametrize("roll, seen", [(70, True), (71, False)])
def test_ma83_limited_spotting(roll, seen):
    # MA83 / MBT 7.7: two Veteran M1s spot a tank in Woods at 4 (> half of 7): 60 + 10 for the second -> 70
    units = [unit("T", "t-80bv", "sov", WOODS, 0), unit("A", "m1", "us", AT4, 0), unit("B", "m1", "us", AT4B, 0)]
    st = _next_spotting(units, ("limited-spotting",), [roll], grades={"us": "veteran", "sov": "seasoned"})
    assert events(st, f"roll {roll} vs 70"), st.events
    assert (0 in st.spots[1] and 0 in st.spots[2]) == seen


def test_limited_spotting_range_one_is_automatic_and_off_switch():
    units = [unit("T", "t-80bv", "sov", WOODS, 0), unit("A", "m1", "us", "2K10", 0)]
    st = _next_spotting(units, ("limited-spotting",), [99])
    assert 0 in st.spots[1] and not events(st, "tries to spot")
    far = [unit("T", "t-80bv", "sov", WOODS, 0), unit("A", "m1", "us", AT4, 0)]
    assert 0 in _next_spotting(far, (), [99]).spots[1]
    assert 0 not in _next_spotting(far, ("limited-spotting",), [99]).spots[1]


def test_maximum_spots():
    # MBT 7.7.2: a unit keeps at most its grade's Max spots (table spotting-table), the nearest
    enemies = [unit(f"E{k}", "t-80bv", "sov", f"2{c}1", 0) for k, c in enumerate("CDEFGHIJ")]
    units = enemies + [unit("A", "m1", "us", "2E4", 0)]
    st = _next_spotting(units, ("limited-spotting",), [1] * 20, grades={"us": "raw"})
    cap = st.game.optc.spotting["raw"][2]
    a = len(enemies)
    assert 0 < len(st.spots[a]) <= cap


# ---------------------------------------------------------------- 7.24
@pytest.mark.parametrize("roll, seen", [(7, True), (8, False)])
def test_camouflage_roll(roll, seen):
    # MBT 7.24: a camouflaged vehicle in Woods (spotting range 7) is spotted on roll (10) <= 7
    units = [unit("T", "t-80bv", "sov", WOODS, 0), unit("A", "m1", "us", AT4, 0)]
    st = _next_spotting(units, ("camouflage",), [roll], camouflaged=["T"])
    assert events(st, f"roll {roll}+0 vs 7"), st.events
    assert (0 in st.spots[1]) == seen and st.camo[0]


def test_camouflage_lost_on_moving_and_never_at_range_one():
    units = [unit("T", "t-80bv", "sov", WOODS, 0), unit("A", "m1", "us", "2K10", 0)]
    st = _next_spotting(units, ("camouflage",), [10], camouflaged=["T"])
    assert 0 in st.spots[1] and not events(st, "camouflaged T")
    mover = pos_state([unit("T", "m1", "us", "2A1", 0, command="MOVE"), unit("E", "t-80bv", "sov", "2P13", 0)],
                      ("camouflage",), phase="move-first", camouflaged=["T"])
    assert mover.camo[0]
    act(mover, "move T")
    assert not mover.camo[0]
    off = _next_spotting([unit("T", "t-80bv", "sov", WOODS, 0), unit("A", "m1", "us", AT4, 0)], (), [10],
                         camouflaged=["T"])
    assert 0 in off.spots[1] and not off.camo[0]


# ---------------------------------------------------------------- 7.46
def test_ground_radar_spots_camouflaged_units_without_a_roll():
    units = [unit("T", "t-80bv", "sov", WOODS, 0), unit("R", "m113", "us", AT10, 0)]
    st = _next_spotting(units, ("camouflage", "ground-radar"), [10], camouflaged=["T"], ground_radar=["R"])
    assert 0 in st.spots[1] and not events(st, "camouflaged T")
    st = _next_spotting(units, ("camouflage",), [10], camouflaged=["T"], ground_radar=["R"])
    assert 0 not in st.spots[1]


def test_ground_radar_reveals_hidden_counters_beyond_the_spotting_range():
    # MBT 7.46: a leg unit to 20 hexes (beyond its own spotting range 10 in Clear)
    a, b, d = clear_pair(12)
    units = [unit("I", "us-mech-squad", "us", a, d), unit("R", "bmp-2", "sov", b, 0)]
    hidden = [{"id": "H", "side": "us", "hex": a, "units": ["I"]}]
    st = pos_state(units, ("hidden-units", "ground-radar"), phase="spotting", hidden_units=hidden,
                   ground_radar=["R"])
    assert st.hcs == [1]
    st = pos_state(units, ("hidden-units",), phase="spotting", hidden_units=hidden, ground_radar=["R"])
    assert st.hcs == [0]


# ---------------------------------------------------------------- 7.36.4
def test_night_ir_searchlight():
    # MA113 / MBT 7.36.4.1.1: at night an active IR searchlight spots to 10 in its front arc at the day range
    a, b, d = clear_pair(8)
    units = [unit("T", "t-80bv", "sov", a, d), unit("A", "m1", "us", b, (d + 3) % 6)]
    rules = ("terrain-time-weather",)
    dark = pos_state(units, rules, phase="spotting", light="night")
    lit = pos_state(units, rules, phase="spotting", light="night", searchlights_on=["T"])
    off = pos_state(units, (), phase="spotting", light="night", searchlights_on=["T"])
    assert 1 not in dark.spots[0] and 1 in lit.spots[0] and 1 not in off.spots[0]
    assert lit.game.optc.night == {"IR": 10, "WL": 15, "I2": 15, "T": 20}


def test_a_damaged_radio_gets_no_hand_off():
    # MBT 7.23.5.1 with 7.7: a unit with a damaged radio rolls alone: A (60) fails with 65, B (60) spots with 55
    units = [unit("T", "t-80bv", "sov", WOODS, 0), unit("A", "m1", "us", AT4, 0),
             unit("B", "m1", "us", AT4B, 0, collateral=["radio"])]
    rules = ("limited-spotting", "vehicle-collateral-damage")
    st = _next_spotting(units, rules, [65, 55], grades={"us": "veteran", "sov": "seasoned"})
    assert 0 not in st.spots[1] and 0 in st.spots[2], st.events
    both = _next_spotting(units[:2] + [unit("B", "m1", "us", AT4B, 0)], rules, [65],
                          grades={"us": "veteran", "sov": "seasoned"})
    assert 0 in both.spots[1] and 0 in both.spots[2]


def test_thermal_imager_shooters_take_the_thermal_smoke_modifiers(monkeypatch):
    # MBT 7.36.4.3: a Thermal Imager unit uses the -1/-2 AP, -5/-10 GP smoke values (the smoke module's thermal
    # reading); the aid comes from the card (no sample card has one: set on the position's game copy)
    from studio.rulesets.mbt.engine import smoke

    seen = []
    monkeypatch.setattr(smoke.SmokeRules, "hindrance_modifier",
                        lambda self, s, t, kind="ap", thermal=False: seen.append(thermal) or 0)
    a, b, d = clear_pair(6)
    units = [unit("S", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, 0)]
    for rules, aid, want in ((("terrain-time-weather",), "T", True), (("terrain-time-weather",), "IR", False),
                             ((), "T", False)):
        st = pos_state(units, rules, phase="direct-fire-first")
        st.game.ocs.aids[0] = frozenset({aid})
        st.hindrance_modifier(0, 1, "gp")
        assert seen[-1] is want
