"""MBT Advanced Game indirect fire (MBT 6.5.1, 6.5.4): boundary and bookkeeping cases found by the second round of
mutation testing (issue 12) that no other test pinned down, through positions and play. Expected values come from
the rule text, the scenario and the ruleset tables."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_arty_fixtures import (FAR, TARGET, act, arty_game, arty_state, events, if_units,  # noqa: E402
                               to_next_indirect_step, unit)

from studio.rulesets.mbt.engine.if_data import if_data  # noqa: E402

BAT = "m109-battery-1"
ELITE = {"us": "elite", "sov": "regulars"}   # enough Available Commands for the mortar's FIRE and the FO's OW


@pytest.mark.parametrize("friend_hex, danger", [("4J1", True), ("4K1", False)])
def test_danger_close_reaches_exactly_five_hexes(friend_hex, danger):
    # MBT 6.5.1.10 (table indirect-fire-values danger-close-range 5): an unmodified 1 lands on a spotted friendly
    # unit within 5 hexes of the Target Point: an M1 the T-80BV spots 5 hexes away (4J1) is hit, 6 away (4K1) not
    st = arty_state(if_units(fo_hex=FAR, extra=[unit("A", "m1", "us", friend_hex, 5)]), dice=[1] + [50] * 10)
    act(st, "call M by F at 4E1")
    want = "F calls M on 4E1: response roll 1: " + (f"Danger Close, the fire lands on A at {friend_hex}" if danger
                                                     else "no response")
    assert events(st, "F calls M") == [want]


def test_a_clgp_attack_counts_for_suppression_recovery():
    # MBT 6.8.4.1.2: a Suppressed unit attacked by indirect fire this turn recovers at +10, whatever the effect:
    # a CLGP round without effect (6.5.1.13.3: 90 > 85) on the Suppressed T-80BV; its recovery roll 5 is net 15
    units = [u if u["id"] != "T" else {**u, "status": {"suppression": "off"}} for u in if_units(fo_hex=FAR)]
    st = arty_state(units, dice=[6, 1, 90] + [5] * 300)
    act(st, f"call {BAT} by F at 4E1 CLGP onmap")
    assert events(st, "CLGP at T: roll 90: ND")
    to_next_indirect_step(st)
    assert events(st, "T Suppression recovery: roll 5, net 15 ")


def test_a_plot_announced_on_turn_one_runs_on_next_turn():
    # MBT 6.5.1.11.1-2: a plot for turn 2 announced a turn early (turn 1) fires its first turn at once and its
    # second next turn (the plot: GP Closed 2 turns, smoke Open 1 turn)
    plot = [{"side": "us", "battery": "m109-battery", "turn": 2,
             "segments": [{"mission": "GP", "sheaf": "closed", "hex": TARGET, "turns": 2},
                          {"mission": "smoke", "sheaf": "open", "hex": TARGET, "turns": 1}]}]
    st = arty_state(if_units(fo_hex=FAR), dice=[5] * 300, turn=1, grades=ELITE, planned_fire=plot)
    act(st, f"planned {BAT}@2")
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    assert st.turn == 2 and events(st, f"planned fire of {BAT} arrives at 4E1 (turn 2 of 3)")


def test_indirect_fire_at_gp_defense_one():
    # MBT 6.5.4.4: the BMP-2's GP Defense 1 is read on the GP CRT's row 1 (table gp-combat: factor 9, defense 1:
    # N 21 / S 54); the M106's IF factor 9; A-Type -20; its HE is not Small Arms in combat (5.1.3.1, 5.7, MA9),
    # so an S-Effect Suppresses the vehicle (6.5.4.4.2)
    st = arty_state(if_units("bmp-2"), dice=[5, 50, 50, 50])
    act(st, "call M by F at 4E1")
    assert events(st, "IF at T") == ["IF at T (GPD 1A): roll 50-20 = 30 vs N 21 / S 54: S-Effect -> SUP"]


def test_plots_go_to_the_batteries_of_their_card_in_turn():
    # MBT 6.5.1.11.1: each plot names a battery card of its side; plots of one card go to its batteries in order
    # (another card's plots of the same side do not count), a plot beyond them to the last one
    art = [{"side": "us", "battery": "m109-battery", "attachment": "attached", "force": "fist", "count": 2},
           {"side": "us", "battery": "2s1-battery", "attachment": "attached", "force": "fist"},
           {"side": "sov", "battery": "2s1-battery", "attachment": "attached", "force": "fo", "count": 2}]
    seg = [{"mission": "GP", "sheaf": "closed", "hex": TARGET, "turns": 1}]
    plans = [{"side": "us", "battery": b, "turn": t, "segments": seg}
             for b, t in (("2s1-battery", 2), ("m109-battery", 2), ("m109-battery", 3), ("m109-battery", 4))]
    g = arty_game(artillery=art, planned_fire=plans)
    assert [g.batteries[p.battery].name for p in if_data(g).plans] == [
        "2s1-battery-3", "m109-battery-1", "m109-battery-2", "m109-battery-2"]


def test_an_artillery_entry_without_a_count_is_one_battery():
    # MBT 6.5.1.2, 5.3: an off-map artillery entry is one battery unless the scenario counts more (built here for
    # this test, so the reading is covered by it and not only by a cached game)
    art = [{"side": "us", "battery": "m109-battery", "attachment": "attached", "force": "fist"},
           {"side": "sov", "battery": "2s1-battery", "attachment": "attached", "force": "fo", "count": 3}]
    g = arty_game(artillery=art)
    assert [(b.name, g.sides[b.side]) for b in g.batteries] == [
        ("m109-battery-1", "us"), ("2s1-battery-2", "sov"), ("2s1-battery-3", "sov"), ("2s1-battery-4", "sov")]
