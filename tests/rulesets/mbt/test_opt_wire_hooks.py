"""Cross-area hooks of the fire optional rules in the close-combat, overrun and air code (issues 12, 13): each
test fails without its one-line hook."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, opt_game, opt_state, unit  # noqa: E402

A, B, D = clear_pair(1)


def _assault(rules, dice, target="t-80bv"):
    g = opt_game(rules, grades={"us": "seasoned", "sov": "seasoned"})
    units = [unit("I", "us-mech-squad", "us", A, D, command="MOVE"), unit("T", target, "sov", B, 0)]
    st = opt_state(g, units, phase="close-combat", dice=dice)
    act(st, "assault I T")
    return st


def test_close_assault_brew_up_roll_takes_the_bu_modifier():
    # MBT 7.11 (its example): an Effective Close Assault on a BU-notation vehicle (T-80BV): the KO/BU roll (10)
    # 5 is a Knock Out against half the GP factor 4, with -2 a 3: Brewed Up
    brewed = _assault(("bu-modifier",), [83, 5] + [99] * 5)
    plain = _assault((), [83, 5] + [99] * 5)
    assert [label for label, _ in brewed.dice.history] == ["Close Assault I>T", "CA KO/BU T"]
    assert brewed.st[1] == plain.st[1] == 3
    assert (brewed.wreck[(1, -1)], plain.wreck[(1, -1)]) == (2, 1)  # Brew Up, Knock Out


def test_a_squad_reduced_in_hand_to_hand_loses_attached_weapons():
    # MBT 7.17: a full squad reduced by Hand-to-Hand combat rolls (10) for each attached weapon, 1-5 destroyed
    st = _assault(("attached-weapon-loss",), [90, 10, 1, 1, 10, 90, 10, 90], target="us-mech-squad")
    t = st.game.uindex["T"]
    assert "dragon" in st.ofire.lostw[t] and "law" not in st.ofire.lostw[t], st.events  # first roll 1-2: lost
    off = _assault((), [90, 10, 1, 1, 10, 90, 10, 90], target="us-mech-squad")
    assert not off.ofire or not off.ofire.lostw[t]


def test_overrun_without_its_coax_loses_the_coax_modifier():
    # MBT 7.23.1 with 6.6.10.1: a damaged Coax MG no longer adds the coax Point Blank modifier to the Overrun
    from test_adv_move_overrun import D as OD, SCRUB, START

    g = opt_game(("vehicle-collateral-damage",), grades={"sov": "veteran", "us": "seasoned"})

    def net(lost):
        units = [unit("V", "t-62mv", "sov", START, OD, command="MOVE", collateral=lost),
                 unit("T", "us-mech-half-squad", "us", SCRUB, OD)]
        st = opt_state(g, units, to_act="sov", dice=[50] * 10)
        act(st, "move V")
        act(st, "overrun V T")
        return int(re.search(r"roll 50([+-]\d+) =", " ".join(st.events)).group(1))

    assert net([]) - net(["coax"]) == g.ag.gp_mod["coax-pointblank"]


def test_an_air_attack_damages_an_installation():
    # MBT 7.47 with 6.7.3: GP fire from the air is non-small-arms GP fire: a Suppressed result within 10 of the
    # S-Effect number damages the BMP-2's ATGM
    g = opt_game(("installation-damage",))
    units = [unit("S", "m1", "us", A, D), unit("T", "bmp-2", "sov", B, 0)]
    t = 1
    probe = opt_state(g, units, dice=[50])
    probe.fw_gp_attack(t, 10, 0, "bomb at T", "bomb")
    s_eff = int(re.search(r"/ S (\d+)", " ".join(probe.events)).group(1))
    for roll, damaged in ((s_eff, True), (s_eff - 10, False)):
        st = opt_state(g, units, dice=[roll] + [100] * 5)
        st.fw_gp_attack(t, 10, 0, "bomb at T", "bomb")
        assert st.sup[t] and ("atgm" in st.ofire.inst[t]) is damaged, st.events
