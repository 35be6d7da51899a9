"""MBT Advanced Game units (transport, hull down, leg units, assault), second round of mutation-aimed cases (issue
12), through positions and the public API (legal actions, play, the narration). Expected values from the rulebook
(MBT 6.6.7, 6.6.9) and the cards / ruleset tables."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import act, adv_game, adv_state, clear_pair, unit  # noqa: E402


def _texts(st) -> set:
    return {str(a) for a in st.legal_actions()}


# ---------------------------------------------------------------- transport (MBT 6.6.7)
def test_a_carrier_may_dismount_with_exactly_half_its_allowance_left():
    # the M113 (allowance 8) pays half of it, 4, to dismount its squad: after 4 hexes it still may, after 5 not
    a, _, d = clear_pair(5)
    st = adv_state([unit("C", "m113", "us", a, d, command="MOVE"), unit("P", "us-mech-squad", "us", a, d, carried_by="C"),
                    unit("E", "t-80bv", "sov", "4T13", 5)], phase="move-first", to_act="us")
    act(st, "move C")
    assert st.mv_left == 8
    for _ in range(4):
        act(st, "fwd C")
    assert st.mv_left == 4 and "dismount C P" in _texts(st)
    act(st, "fwd C")
    assert "dismount C P" not in _texts(st) and "bailout C P" in _texts(st)  # Emergency Bail Out costs nothing


# ---------------------------------------------------------------- hull down (MBT 6.6.9)
def test_a_hull_down_search_may_end_in_any_of_the_six_facings():
    # the vehicle searching in a rough hex chooses the facing of the position it looks for: hexsides 0-5, hull
    # down or partial, facing or backing into it
    g = adv_game()
    rough = next(g.label(h) for h in sorted(g.map.label_of) if g.map.terrain.get(h, "") == "R")
    st = adv_state([unit("V", "m1", "us", rough, 0, command="MOVE"), unit("E", "t-80bv", "sov", "4T13", 5)],
                   phase="move-first", to_act="us")
    act(st, "move V")
    searches = {a for a in _texts(st) if a.startswith("search ")}
    assert searches == {f"search V {k} {f}{r}" for k in ("hd", "phd") for f in range(6) for r in ("", " rev")}


# ---------------------------------------------------------------- leg results (MBT 6.5.4.4.3)
def test_an_eliminated_section_counts_one_loss_and_leaves_no_wreck():
    # the M1's coax (GP 3 at S) at the Soviet FO section in the open (GPD 2): roll 99, an E-Effect: a section
    # (not a squad) is eliminated, one loss of its side, no wreck
    a, b, d = clear_pair(2)
    st = adv_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "sov-fo-section", "sov", b, (d + 3) % 6),
                    unit("V", "t-80bv", "sov", "4T13", 5)], to_act="us", dice=[99, 99, 99])
    act(st, "fire S at T mmg:GP")
    assert any("E-Effect -> eliminated" in e for e in st.events), st.events
    assert st.outcome().losses == [0, 1]
    assert st.hex[1] not in st.wreck


# ---------------------------------------------------------------- Suppressed movement (MBT 6.6.2)
@pytest.mark.parametrize("command, suppression, allowance", [("MOVE", "none", 2), ("MOVE", "on", 1),
                                                             ("SH", "none", 1), ("SH", "on", 1)])
def test_a_suppressed_unit_moves_at_half_never_below_one(command, suppression, allowance):
    # the US squad's cross-country rate 2: Move 2, Suppressed 1 (half); Short Halt 1 (half), Suppressed a half of
    # that rounds to 0, raised to the minimum 1
    a, _, d = clear_pair(3)
    st = adv_state([unit("P", "us-mech-squad", "us", a, d, command=command, suppression=suppression),
                    unit("V", "t-80bv", "sov", "4T13", 5)], phase="move-first", to_act="us")
    act(st, "move P")
    assert st.mv_left == allowance


# ---------------------------------------------------------------- Full Cover spotting (MBT 6.1.3.2)
def test_only_the_spotter_in_full_cover_spots_rows_down():
    # the US squad far away is in Full Cover (its own spotting 4 rows down); the M1 is not: it still spots the
    # T-80BV 4 hexes away (spotting range 20) and may take a Fire command at it
    a, b, d = clear_pair(4)
    st = adv_state([unit("S", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6),
                    unit("F", "us-mech-squad", "us", "4T1", 0, full_cover=True)], phase="command")
    assert st.spots[0] == (1,)
    assert "command S FIRE" in _texts(st)


def test_no_unit_starts_a_scenario_in_full_cover():
    # MBT 6.1.4.2, 6.8.3: Full Cover is taken in the Adjust Full Cover Step; at the start of the scenario no unit
    # has it (the state's fc slot, also in its fingerprint)
    st = adv_game().new_initial_state(1)
    assert not any(st.fc)
    assert st.fingerprint().split("|fc", 1)[1].split("/", 1)[0] == "0" * st.game.n
