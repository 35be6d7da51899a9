"""MBT Advanced Game Command Control (MBT 6.2.1): cases found by mutation testing (issue 12) that no other test
pinned down, through positions in the Command Phase and the legal commands. Expected values come from the
rulebook (6.2.1.1.1-6.2.1.1.3: the known cells of the Available Commands Table, Command Ranges) and the ruleset's
table ``available-commands``."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import act, adv_state, unit  # noqa: E402

ROWS = [f"2{c}{r}" for c in "ACEGIKMOQS" for r in (1, 4, 7, 10)]   # hexes 2+ apart: never in Command Range


def _command(units, grade, **kw):
    return adv_state(units + [unit("t", "t-80bv", "sov", "2P13", 0)], phase="command",
                     grades={"us": grade, "sov": grade}, **kw)


def _legal(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


@pytest.mark.parametrize("grade, n, commands", [("veteran", 10, 7), ("seasoned", 20, 12)])
def test_whole_tens_of_active_units_read_only_the_tens_column(grade, n, commands):
    # MBT 6.2.1.1.1: the 10s column is a multiplier (Veteran 7, Seasoned 6, known cells): 10 Veteran units 7, 20
    # Seasoned units 2 x 6 = 12, nothing from the units columns
    st = _command([unit(f"u{k}", "m1", "us", ROWS[k], 0) for k in range(n)], grade)
    assert st.budget[0] == commands


def test_a_formation_never_has_fewer_than_one_command():
    # MBT 6.2.1.1.1: never less than 1 Command; Recon units are no active units (a formation of one Recon M3: 0
    # active units, still 1 command)
    st = _command([unit("r", "m3", "us", "2A1", 0)], "raw")
    assert st.budget[0] == 1


@pytest.mark.parametrize("avlb_hex, active", [("2A2", 2), ("2A3", 1)])
def test_unarmed_units_are_active_only_within_command_range_of_a_combat_unit(avlb_hex, active):
    # MBT 6.2.1.1: an unarmed unit (the M60 AVLB) is active only within Command Range of a combat unit (Elite 2:
    # 2A1-2A2 at 1, 2A1-2A3 at 2 are in range: both active; Seasoned 1: only 2A2); Seasoned: 1 unit 1, 2 units 1;
    # Elite: 1 unit 1, 2 units 2
    elite = _command([unit("a", "m1", "us", "2A1", 0), unit("x", "m60-avlb", "us", avlb_hex, 0)], "elite")
    assert elite.budget[0] == 2
    seasoned = _command([unit("a", "m1", "us", "2A1", 0), unit("x", "m60-avlb", "us", avlb_hex, 0)], "veteran")
    row = seasoned.game.ag.available["veteran"]
    assert seasoned.budget[0] == row[active - 1]


def test_at_most_one_unarmed_unit_per_combat_unit():
    # MBT 6.2.1.1: no more than one unarmed unit may be activated per combat unit (Elite: 2 M1 + 3 AVLBs in range:
    # 4 active units, Elite column 4; all five would be column 5)
    units = [unit("a", "m1", "us", "2A1", 0), unit("b", "m1", "us", "2A2", 0)] + \
        [unit(f"x{k}", "m60-avlb", "us", h, 0) for k, h in enumerate(("2A1", "2A2", "2A3"))]
    st = _command(units, "elite")
    row = st.game.ag.available["elite"]
    assert row[3] != row[4] and st.budget[0] == row[3]


def test_a_unit_joins_a_shared_counter_only_within_range_of_all_its_units():
    # MBT 6.2.1.1.2: units within Command Range of one another share a counter; Veteran range 1: a-b adjacent
    # share, c beside b but 2 hexes from a takes a new one; with no command left c may only take N/C
    units = [unit("a", "m1", "us", "2A1", 0), unit("b", "m1", "us", "2A2", 0), unit("c", "m1", "us", "2A3", 0)]
    st = _command(units, "raw")      # 3 Raw units: 1 command (Command Range 0: the same hex)
    assert st.budget[0] == 1
    act(st, "command a MOVE")
    assert "command b MOVE" not in _legal(st)   # Raw: range 0, b is not in a's hex
    vet = _command(units, "veteran")
    budget = vet.budget[0]
    act(vet, "command a MOVE")
    act(vet, "command b MOVE")
    act(vet, "command c MOVE")
    assert vet.budget[0] == budget - 2 and vet.grp[:3] == [0, 0, 2]


def test_recon_units_never_share_a_counter():
    # MBT 6.2.1.1.3: Recon units get their own free command; non-Recon units may not share with them
    units = [unit("r", "m3", "us", "2A1", 0), unit("a", "m1", "us", "2A1", 0)]
    st = _command(units, "veteran")
    budget = st.budget[0]
    act(st, "command r MOVE")
    act(st, "command a MOVE")
    assert st.budget[0] == budget - 1 and st.grp[1] == 1


def test_with_no_command_left_a_unit_still_joins_a_shared_counter():
    # MBT 6.2.1.1.2: the last command spent, a unit in range of a counter's units may still share it (the same
    # command only), else N/C
    units = [unit("a", "m1", "us", "2A1", 0), unit("b", "m1", "us", "2A2", 0)]
    st = _command(units, "veteran")     # 2 Veteran units: 1 command
    assert st.budget[0] == 1
    act(st, "command a MOVE")
    assert st.budget[0] == 0
    assert sorted(x for x in _legal(st) if x.startswith("command b")) == ["command b MOVE", "command b NC"]


def test_on_map_indirect_fire_units_may_take_fire_without_a_target():
    # MBT 6.5.1: an on-map IF unit (the M106 mortar carrier) fires indirect with a Fire command, no spotted target
    # needed; a tank without a target gets no Fire command (the units are commanded in turn)
    st = _command([unit("a", "m1", "us", "2A13", 0), unit("m", "m106", "us", "2A1", 0)], "veteran")
    assert "command a FIRE" not in _legal(st) and "command a MOVE" in _legal(st)
    act(st, "command a NC")
    assert "command m FIRE" in _legal(st)


def test_a_recon_unit_joins_no_counter_of_its_formation():
    # MBT 6.2.1.1.3: a Recon unit's free command is its own: a unit commanded after it still shares the counter of
    # the units in range (a's Move, shared by b), not the Recon unit's
    units = [unit("a", "m1", "us", "2A1", 0), unit("r", "m3", "us", "2A2", 0), unit("b", "m1", "us", "2A2", 0)]
    st = _command(units, "veteran")
    budget = st.budget[0]
    for name in "arb":
        act(st, f"command {name} MOVE")
    assert st.budget[0] == budget - 1 and st.grp[:3] == [0, -1, 0]


def test_shared_counters_are_placed_anew_each_turn():
    # MBT 6.2.1.1: commands are recalculated and placed each turn: last turn's shared counter is gone in the
    # next Command Phase
    units = [unit("a", "m1", "us", "2A1", 0), unit("b", "m1", "us", "2A2", 0)]
    st = _command(units, "veteran")
    act(st, "command a MOVE")
    act(st, "command b MOVE")
    assert st.grp[:2] == [0, 0]
    for _ in range(50):
        if st.turn > 1:
            break
        legal = _legal(st)
        act(st, next((x for x in legal if x == "pass" or x.startswith(("done", "hold", "command t NC"))), legal[0]))
    assert st.turn == 2 and st.phase_id() == "command" and st.grp == [-1, -1, -1]


def test_units_waiting_to_enter_later_are_not_active():
    # MBT 6.2.1.1.1 (ENGINE_POLICIES['entering-active']): units due to enter this turn are active, later ones not:
    # in turn 1 of the sample scenario the Soviet 1st Tank Platoon (3 tanks entering on turn 1, Seasoned: 2
    # commands) and the 2nd (entering on turn 2: no active unit, still 1 command)
    from mbt_adv_fixtures import adv_game

    g = adv_game()
    st = g.new_initial_state(1)
    first = next(f for f in range(len(g.formation_side)) if g.units[g.formation_of.index(f)].force == "tanks"
                 and g.formation_side[f] == 1)
    second = next(f for f in range(len(g.formation_side)) if g.units[g.formation_of.index(f)].force == "tanks-2")
    assert st.turn == 1 and st.budget[first] == g.ag.available["seasoned"][2] == 2 and st.budget[second] == 1


def test_sharers_fire_overwatch_at_the_same_target_also_when_it_is_the_first_unit():
    # MBT 6.2.1.1.4 Overwatch: once S1 fired at T1, its co-sharer S2 is not offered T3; T1 is unit 0 here (a
    # recorded target of index 0 is a target like any other)
    from test_adv_adv_shared_commands import REGULARS, SPARE, _fire_layout, play_overwatch_turn

    a, t1, _, t3, d = _fire_layout()
    units = [unit("T1", "m113", "us", t1, (d + 3) % 6), unit("S1", "t-80bv", "sov", a, d),
             unit("S2", "t-80bv", "sov", a, d), unit("T3", "m113", "us", t3, (d + 3) % 6),
             unit("X", "m113", "us", "2A13", 0)] + SPARE
    st = adv_state(units, phase="command", grades=REGULARS)
    for text in ("command T1 MOVE", "command S1 OW", "command S2 OW", "command T3 MOVE", "command X NC",
                 "command C NC", "command D NC"):
        act(st, text)
    offered, aims = play_overwatch_turn(st, 1)
    assert 0 in aims and not offered


def test_an_activated_unarmed_unit_shares_the_counter_of_the_combat_unit_in_range():
    # MBT 6.2.1.1.2 (the A1-A4 example): the unarmed A4, active in Command Range of A3, may share A3's command but
    # not that of A1 and A2 out of its range; an inactive unarmed unit (x, beyond range of every combat unit)
    # takes its own counter. Seasoned, Command Range 1: A1 2A1, A2 2A2, A3 2A3, A4 2A4, x 2A9
    units = [unit(f"A{k}", "m1", "us", f"2A{k}", 0) for k in (1, 2, 3)] + [unit("A4", "m60-avlb", "us", "2A4", 0),
                                                                          unit("x", "m60-avlb", "us", "2A9", 0)]
    st = _command(units, "seasoned")
    assert st.budget[0] == st.game.ag.available["seasoned"][3] == 2   # 3 combat + A4: 4 active (x inactive)
    act(st, "command A1 MOVE")
    act(st, "command A2 MOVE")      # shares A1's counter
    act(st, "command A3 MOVE")      # 2 hexes from A1: the last command
    assert st.budget[0] == 0 and st.grp[:3] == [0, 0, 2]
    assert "command A4 MOVE" in _legal(st) and "command A4 OW" not in _legal(st)   # only A3's shared Move
    act(st, "command A4 MOVE")
    assert st.grp[3] == 2 and st.budget[0] == 0
    assert _legal(st) == ["command x NC"]   # inactive: no sharing, no command left
