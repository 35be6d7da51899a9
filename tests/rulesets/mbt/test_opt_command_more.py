"""Further cases of the MBT optional rules of morale, hidden units, spotting and command (mutation survivors)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import act, clear_pair, end_turn_decisions, events, legal, pos_state, unit  # noqa: E402

from studio.rules.position import PositionError  # noqa: E402

MORALE = ("morale",)
CP = {"us": 9, "sov": 9}
FAR = "4T13"
WOODS, NEAR_ENEMY, ENEMY = "2L10", "2A10", "2B12"


def _turn_over(st):
    act(st, "move X")
    act(st, "done X")
    end_turn_decisions(st)
    return st


X = unit("X", "m1", "us", "4T1", 0, command="MOVE")


# ---------------------------------------------------------------- hidden units
def test_counters_by_side_and_hexes_kept():
    units = [unit("V", "m1", "us", WOODS, 0), unit("I", "us-mech-squad", "us", NEAR_ENEMY, 0),
             unit("W", "m1", "us", "2A1", 0), unit("T", "t-80bv", "sov", ENEMY, 0)]
    hidden = [{"id": "H", "side": "us", "hex": WOODS, "units": ["V", "I"]}, {"id": "F", "side": "sov", "hex": "2P5"}]
    st = pos_state(units, ("hidden-units",), phase="spotting", hidden_units=hidden)
    assert st.hidden_counters(0) == [("H", WOODS)] and st.hidden_counters(1) == [("F", "2P5")]
    assert st.game.label(st.hex[1]) == NEAR_ENEMY and st.game.label(st.hex[0]) == WOODS
    other = st.scramble_hidden(1, 3)
    assert other.hex[2] == st.hex[2]  # a visible unit stays where it is


def test_helicopters_keep_spotting_visible_units():
    units = [unit("V", "m1", "us", WOODS, 0), unit("I", "us-mech-squad", "us", NEAR_ENEMY, 0),
             unit("W", "m1", "us", "2A13", 0), unit("H", "mi-24", "sov", ENEMY, 0)]
    st = pos_state(units, ("hidden-units",), phase="move-first",
                   hidden_units=[{"id": "H1", "side": "us", "hex": WOODS, "units": ["V", "I"]}])
    assert 2 in st._heli_spots(3) and 1 not in st._heli_spots(3)


def test_hidden_limit_allows_as_many_as_the_limit():
    units = [unit("H", "m1", "us", WOODS, 0), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, ("hidden-units",), phase="move-first", hidden_limit={"us": 2},
                   hidden_units=[{"id": "H1", "side": "us", "hex": WOODS, "units": ["H"]},
                                 {"id": "F1", "side": "us", "hex": "2A1"}])
    assert st.hcs == [0, 0]


# ---------------------------------------------------------------- morale
def test_non_combat_units_never_count():
    units = [unit("A", "m1", "us", "2A1", 0), unit("L", "m60-avlb", "us", "2A4", 0), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, MORALE, phase="move-first", cohesion_point=CP)
    st.st[1] = 3
    assert st.formation_losses(st.game.formation_of[0]) == 0


@pytest.mark.parametrize("losses, rolled", [(1, True), (0, False)])
def test_first_loss_rolls_the_cohesion_point_with_the_grade(losses, rolled):
    # MBT 7.1.1.1: roll + US Int +10 + Veteran +10, at the formation's first loss (option cohesion-timing)
    units = [unit("M", "m1", "us", "2A1", 1, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0, command="NC")]
    st = pos_state(units, MORALE, phase="move-first", dice=[45, 99], options={"cohesion-timing": "first-loss"},
                   morale_losses={"us": losses}, force_grades={"us": "veteran"})
    act(st, "move M")
    act(st, "fwd M")
    act(st, "done M")
    assert bool(events(st, "Cohesion Point excellent (roll 45+20)")) == rolled, st.events


def test_hesitation_off_turns_on_when_moving():
    units = [unit("M", "m1", "us", "2A1", 1, command="MOVE", morale="hesitation-off"), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, MORALE, phase="move-first", cohesion_point=CP)
    act(st, "move M")
    assert st.morale_status(0) == "hesitation-on"


# ---------------------------------------------------------------- command span and disruption
def test_move_commands_stay_offered_within_span():
    hexes = [f"2{c}{r}" for c in "ABCDE" for r in (1, 3)]
    units = [unit("C", "t-80bv", "sov", "2C3", 0)] + [unit(f"U{k}", "t-80bv", "sov", h, 0)
                                                     for k, h in enumerate(h for h in hexes if h != "2C3")][:6]
    units.append(unit("X", "m1", "us", "2A13", 0))
    st = pos_state(units, ("command-span",), phase="command", to_act="sov", command_units={"C": "CHQ"})
    assert st.msh[0] == -1 and "command C MOVE" in legal(st)


def test_disruption_halves_a_larger_formation():
    sov = [unit(f"T{k}", "t-80bv", "sov", f"2{c}13", 0, command="NC") for k, c in enumerate("ACEGIKMO")]
    units = [unit("X", "m1", "us", "4T1", 0, command="MOVE")] + sov
    st = pos_state(units, ("disrupted-communications",), phase="move-first", dice=[64, 29, 30],
                   force_grades={"us": "veteran", "sov": "seasoned"}, disrupted_communications={"level": "moderate"})
    full = st.game.ag.available["seasoned"][7]
    _turn_over(st)
    assert st.budget[st.game.formation_of[1]] == max(1, full // 2) and full // 2 != full // 3


def test_snow_planning_steps():
    units = [unit("M", "m1", "us", "2A1", 1, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0)]
    plain = pos_state(units, ("terrain-time-weather",), phase="move-first")
    snow = pos_state(units, ("terrain-time-weather",), phase="move-first", ground_conditions="snow")
    a, b = plain.xc_steps(0), snow.xc_steps(0)
    h = plain.hex[0]
    for (nb, c), (nb2, c2) in zip(a[h], b[h]):
        assert nb == nb2 and (c is None and c2 is None or c2 == c + 1)
    assert pos_state(units, (), phase="move-first", ground_conditions="snow").xc_steps(0)[h] == a[h]


# ---------------------------------------------------------------- positions
def test_position_extension_checks():
    units = [unit("A", "m1", "us", "2A1", 0), unit("T", "t-80bv", "sov", FAR, 0)]
    for ext in ({"formations": {"nobody": "a"}}, {"formations": {"A": 3}}, {"force_grades": {"us": "heroic"}},
                {"force_grades": {"mars": "elite"}}, {"cohesion_point": {"us": -1}}, {"morale_losses": {"us": True}}):
        with pytest.raises(PositionError):
            pos_state(units, MORALE, phase="move-first", **ext)
    from opt_command_fixtures import game_with
    from studio.rules.position import position_state
    with pytest.raises(PositionError):
        position_state(game_with(MORALE), {"scenario": "mbt-adv-combined-arms", "phase": "command",
                                           "extension": {"cohesion_point": {"us": 1}}})
    with pytest.raises(PositionError):
        pos_state([unit("A", "m1", "us", "2A1", 0, morale="panicked"), units[1]], MORALE, phase="move-first")


# ---------------------------------------------------------------- spotting
def test_a_suppressed_adjacent_enemy_does_not_stop_spot_removal_and_one_spotter_rolls():
    # MBT 7.4: only unsuppressed, unbroken opposing combat units adjacent make the counter ineligible; one spotter
    # reads the 1-unit column
    units = [unit("S", "sov-mr-squad", "sov", WOODS, 0, mark="spot-fire"),
             unit("M", "m1", "us", "2K10", 0, suppression="on"), unit("A", "m2a1", "us", "2B12", 0), X]
    st = _turn_over(pos_state(units, ("spot-removal",), phase="move-first", dice=[99]))
    assert events(st, "Spot counter removal"), st.events
    units[1] = unit("M", "m1", "us", "2K10", 0)
    st = _turn_over(pos_state(units, ("spot-removal",), phase="move-first", dice=[99]))
    assert not events(st, "Spot counter removal")
    lone = [units[0], units[2], X]
    st = _turn_over(pos_state(lone, ("spot-removal",), phase="move-first", dice=[99]))
    assert events(st, "(medium cover, 1 spotter(s))"), st.events


def test_an_active_ir_searchlight_is_seen_by_passive_ir_at_ten():
    a, b, d = clear_pair(10)
    units = [unit("T", "t-80bv", "sov", a, d), unit("A", "m1", "us", b, d)]  # A faces away: no own aid arc
    st = pos_state(units, ("terrain-time-weather",), phase="move-first", light="night", searchlights_on=["T"])
    st.game.ocs.aids[1] = frozenset({"P"})
    st._spotting_phase()
    assert 0 in st.spots[1]
    st.game.ocs.aids[1] = frozenset()
    st._spotting_phase()
    assert 0 not in st.spots[1]


def test_radar_spots_only_hidden_or_camouflaged_units():
    a, b, d = clear_pair(10)
    units = [unit("T", "t-80bv", "sov", a, d), unit("R", "m113", "us", b, (d + 3) % 6)]
    st = pos_state(units, ("ground-radar",), phase="spotting", light="night", ground_radar=["R"])
    assert 0 not in st.spots[1]
    camo = pos_state(units, ("ground-radar", "camouflage"), phase="spotting", light="night", ground_radar=["R"],
                     camouflaged=["T"])
    assert 0 in camo.spots[1]


def test_camouflage_hand_off_only_at_the_rollers_range_or_less():
    # MBT 7.24: the nearer spotter rolls (a 1 spots); the farther one does not get the hand-off
    units = [unit("T", "t-80bv", "sov", WOODS, 0), unit("A", "m1", "us", "2I10", 0), unit("B", "m1", "us", "2H11", 0),
             X]
    st = _turn_over(pos_state(units, ("camouflage",), phase="move-first", dice=[1], camouflaged=["T"]))
    assert 0 in st.spots[1] and 0 not in st.spots[2], st.events


def test_firing_camouflaged_unit_loses_camouflage_only_when_seen():
    a, b, d = clear_pair(6)
    units = [unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    st = pos_state(units, ("camouflage",), phase="direct-fire-first", dice=[99] * 6, camouflaged=["S"])
    act(st, next(x for x in legal(st) if x.startswith("fire S at T")))
    assert not st.camo[0]
    hidden_from = pos_state([units[0], unit("T", "t-80bv", "sov", FAR, 0)], ("camouflage",),
                            phase="direct-fire-first", camouflaged=["S"])
    hidden_from._fired_camouflage(0)
    assert hidden_from.camo[0]


# ---------------------------------------------------------------- staggered initiative
FORM = {"A1": "a", "A2": "b", "T1": "c", "T2": "d"}


def test_no_roll_for_the_first_formation():
    units = [unit("A1", "m1", "us", "2A2", 2, command="FIRE"), unit("A2", "m1", "us", "2A3", 2, command="FIRE"),
             unit("T1", "t-80bv", "sov", "2G5", 5, command="FIRE"), unit("T2", "t-80bv", "sov", "2G6", 5,
                                                                      command="FIRE")]
    st = pos_state(units, ("staggered-initiative",), phase="direct-fire-first", to_act="sov", dice=[90, 10],
                   formations=FORM)
    act(st, "formation c")
    assert {a.split()[1] for a in legal(st)} == {"T1"} and not st.dice.history  # no roll (MBT 7.5.1)


def test_the_other_side_fires_first_when_the_first_player_has_no_fire():
    units = [unit("A1", "m1", "us", "2A2", 2, command="FIRE"), unit("T1", "t-80bv", "sov", "2G5", 5, command="NC")]
    st = pos_state(units, ("staggered-initiative",), phase="direct-fire-first", to_act="sov",
                   formations={"A1": "a", "T1": "c"})
    assert {a.split()[1] for a in legal(st)} == {"A1"}
