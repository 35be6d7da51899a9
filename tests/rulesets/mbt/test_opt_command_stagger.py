"""MBT Optional Rule 7.5 Staggered Initiative through positions with named formations."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import act, legal, pos_state, unit  # noqa: E402

STAGGER = ("staggered-initiative",)
FORMATIONS = {"A1": "a", "A2": "b", "T1": "c", "T2": "d"}


def _duel(rules, dice=(), A2=None, **kw):
    units = [unit("A1", "m1", "us", "2A2", 2, command="FIRE"), unit("A2", "m1", "us", "2A3", 2, **(A2 or {"command": "FIRE"})),
             unit("T1", "t-80bv", "sov", "2G5", 5, command="FIRE"), unit("T2", "t-80bv", "sov", "2G6", 5,
                                                                      command="FIRE")]
    return pos_state(units, rules, phase="direct-fire-first", to_act="us", dice=list(dice),
                     formations=FORMATIONS, **kw)


def _shooters(st) -> set:
    return {a.split()[1] for a in legal(st) if a.startswith(("fire", "hold"))}


def test_direct_fire_formation_by_formation():
    # MBT 7.5.1: the initial First Player names one of its formations; it announces and fires first, alone
    st = _duel(STAGGER)
    assert legal(st) == ["formation a", "formation b"] and st.current_player() == 0
    act(st, "formation b")
    assert _shooters(st) == {"A2"}
    plain = _duel(())
    assert _shooters(plain) == {"A1", "A2"}


def test_a_force_with_one_formation_left_fires_it_without_a_decision():
    # MBT 7.5.1: a force whose only formation with fire left is a fires it at once
    st = _duel(STAGGER, A2={"command": "NC"})
    assert _shooters(st) == {"A1"}


def test_next_formation_by_roll():
    # MBT 7.5.1.1: after formation a fires (hit roll 99: a miss), each force rolls (100) + Force Grade (Seasoned 0, Regulars -20):
    # US 30 vs Soviet 60 - 20 = 40: the Soviet force names its next formation (c or d); its fire resolves, then
    # the rolls again
    st = _duel(STAGGER, [99, 30, 60] + [99] * 12, force_grades={"us": "seasoned", "sov": "regulars"})
    act(st, "formation a")
    act(st, next(a for a in legal(st) if a.startswith("fire A1 at T1")))
    assert st.sgf == [0] and legal(st) == ["formation c", "formation d"] and st.current_player() == 1
    assert st.phase_id() == "direct-fire-second"
    act(st, "formation d")
    assert _shooters(st) == {"T2"}, legal(st)
    # the US wins the next roll the other way round: 70 vs 50 - 20
    won = _duel(STAGGER, [99, 70, 50] + [99] * 12, force_grades={"us": "seasoned", "sov": "regulars"})
    act(won, "formation a")
    act(won, next(a for a in legal(won) if a.startswith("fire A1 at T1")))
    assert _shooters(won) == {"A2"} and won.current_player() == 0  # its one formation left: no decision


def test_a_formation_not_offered_is_refused():
    import pytest

    from studio.rules.api import RulesError

    st = _duel(STAGGER)
    with pytest.raises(RulesError):
        act(st, "formation c")  # a Soviet formation: the US names one of its own


def test_reverse_order_movement():
    # MBT 7.5.2: formations move in reverse Direct Fire order (option staggered-movement: reverse-order); the
    # formation that fired first moves last
    units = [unit("A1", "m1", "us", "2A2", 2, command="MOVE"), unit("A2", "m1", "us", "2A3", 2, command="MOVE"),
             unit("T1", "t-80bv", "sov", "4T13", 5, command="MOVE")]
    st = pos_state(units, STAGGER, phase="move-second", to_act="sov",
                   options={"staggered-movement": "reverse-order"}, formations={"A1": "a", "A2": "b", "T1": "c"})
    st.sgf = [0, 2, 1]  # Direct Fire order a, c, b: movement b, c, a
    assert st.mover_side() == 0 and [a for a in legal(st)] == ["move A2"]
    streamlined = pos_state(units, STAGGER, phase="move-second", to_act="sov", formations={"A1": "a", "A2": "b",
                                                                                        "T1": "c"})
    streamlined.sgf = [0, 2, 1]
    assert legal(streamlined) == ["move T1"]  # MBT 7.5.3: the Second Player moves everything first


def test_direct_fire_morale_checks_wait_for_the_units_own_formation():
    # MBT 7.5.1.2: T1 (formation c, past its CP) is fired at by formation a (a miss, 99): its check is held; the
    # Soviet force wins the next roll (60 - 20 vs 30): before formation c fires, T1 takes its single check (5)
    rules = STAGGER + ("morale",)
    ext = {"force_grades": {"us": "seasoned", "sov": "regulars"}, "cohesion_point": {"us": 9, "sov": 1},
           "morale_losses": {"sov": 1}}
    st = _duel(rules, [99, 30, 60, 5] + [99] * 10, **ext)
    act(st, "formation a")
    act(st, next(a for a in legal(st) if a.startswith("fire A1 at T1")))
    assert not [e for e in st.events if "T1 Morale" in e]  # formation d would fire first: still held
    act(st, "formation c")
    assert [e for e in st.events if "T1 Morale Check (attacked)" in e] and not st.sgp
    held = _duel(rules, [99, 90, 10] + [99] * 10, **ext)
    act(held, "formation a")
    act(held, next(a for a in legal(held) if a.startswith("fire A1 at T1")))
    assert held.sgp == [(2, "attacked")] and not [e for e in held.events if "T1 Morale" in e]


def test_no_direct_fire_at_all_goes_on_to_overwatch():
    units = [unit("A1", "m1", "us", "2A2", 2, command="NC"), unit("T1", "t-80bv", "sov", "2G5", 5, command="NC")]
    st = pos_state(units, STAGGER, phase="direct-fire-first", to_act="us", formations={"A1": "a", "T1": "c"})
    assert not st.phase_id().startswith("direct-fire")


def test_the_force_grade_modifier_counts_in_the_subsequent_rolls():
    # MBT 7.5.1.1: Veteran +10 against Seasoned 0: US 45 + 10 = 55 beats Soviet 50 (without the modifier 45 < 50)
    st = _duel(STAGGER, [99, 45, 50] + [99] * 12, force_grades={"us": "veteran", "sov": "seasoned"})
    act(st, "formation a")
    act(st, next(a for a in legal(st) if a.startswith("fire A1 at T1")))
    assert _shooters(st) == {"A2"} and st.current_player() == 0
    even = _duel(STAGGER, [99, 45, 50] + [99] * 12, force_grades={"us": "seasoned", "sov": "seasoned"})
    act(even, "formation a")
    act(even, next(a for a in legal(even) if a.startswith("fire A1 at T1")))
    assert legal(even) == ["formation c", "formation d"]
