"""MBT Advanced movement chapter (MBT 6.6.1.2, 6.6.3, 6.6.4.3, 6.6.7.2, 6.1.4.3.7): cases found by the second round
of mutation testing (issue 12) that no other test pinned down, through positions, legal actions, play and the
narration. Expected values come from the rule text and the ruleset tables."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from studio.hexgrid.coords import neighbour

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402
from mbt_move_fixtures import legal, opt_game, opt_state  # noqa: E402

A2, B2, D2 = clear_pair(2)
A3, B3, D3 = clear_pair(3)
FAR = "4T13"
HTH_WIN = [80, 10, 80, 10, 80, 10, 80, 10] + [50] * 20   # the attacker wins every Hand-to-Hand roll-off


def _advances(st) -> list[str]:
    return [str(a) for a in st.legal_actions() if " advance " in str(a)]


def _close_combat(*extra, dice=HTH_WIN):
    """A US squad two hexes from a Soviet squad in the Close Assault / Hand-to-Hand Combat Step, US first."""
    units = [unit("L", "us-mech-squad", "us", A2, D2, command="MOVE"),
             unit("T", "sov-mr-squad", "sov", B2, (D2 + 3) % 6), *extra]
    return adv_state(units, phase="close-combat", to_act="us", dice=dice)


# ---------------------------------------------------------------- advancing attacks (MBT 6.6.1.2)

def test_an_advancing_attacker_does_not_take_a_hex_an_enemy_still_holds():
    # MBT 6.6.1.2.3: the winner may move into the eliminated defender's hex only if no other opposing unit is
    # there; a T-80BV shares the squad's hex, so the attacker stays where it advanced to
    st = _close_combat(unit("V", "t-80bv", "sov", B2, 0))
    (advance,) = [a for a in _advances(st) if a.startswith("assault L T ")]
    act(st, advance)
    assert st.st[1] != 1   # the squad is eliminated (two roll-offs lost)
    g = st.game
    assert g.label(st.hex[0]) == advance.split()[-1] != B2
    assert neighbour(g.map.hex(A2), st.fac[0]) == st.hex[0]   # it faces the hexside it advanced through


def test_after_an_advancing_attack_the_second_player_resolves_its_combats():
    # MBT 6.6.1.2.1: the First Player resolves all its Hand-to-Hand and Close Assault combats, then the Second
    # Player: after the US advancing attack the Soviet squad may still attack the US squad next to it
    st = _close_combat(unit("S", "sov-mr-squad", "sov", "2A10", 0, command="MOVE"),
                       unit("U", "us-mech-squad", "us", "2A9", 0))
    act(st, _advances(st)[0])
    assert st.phase_id() == "close-combat" and st.current_player() == 1
    assert "assault S U" in legal(st)


@pytest.mark.parametrize("target, advances", [("2P1", ["assault L T advance 2O1"]), ("2P2", [])])
def test_no_advancing_attack_two_heights_up(target, advances):
    # MBT 6.6.1.2: units may not be attacked two or more Heights above or below the attacker: from 2N1 the only
    # hex next to both is 2O1 (Height 0); the squad in 2P1 (Height 1) may be attacked from it, in 2P2 (Height 2) not
    units = [unit("L", "us-mech-squad", "us", "2N1", 0, command="MOVE"), unit("T", "sov-mr-squad", "sov", target, 0)]
    st = adv_state(units, phase="close-combat", to_act="us", dice=HTH_WIN)
    g = st.game
    assert [g.elev[g.map.hex(h)] for h in ("2N1", "2O1", target)] == [0, 0, int(target[-1])]
    assert st.spots[0] == (1,) and _advances(st) == advances


def test_no_advancing_attack_on_a_helicopter():
    # MBT 6.6.1.1-2: Hand-to-Hand attacks dismounted leg and towed units, Close Assault vehicles; a helicopter two
    # hexes away, spotted by the squad, is neither
    units = [unit("L", "us-mech-squad", "us", A2, D2, command="MOVE"), unit("H", "mi-24", "sov", B2, 0)]
    st = adv_state(units, phase="close-combat", to_act="us", dice=HTH_WIN)
    assert 1 in st.spots[0] and not _advances(st)


def test_a_copy_made_during_the_overwatch_fire_still_attacks():
    # MBT 6.6.1.2: an Advancing Attack's Overwatch Fire is resolved before the Hand-to-Hand combat; a copy of the
    # state taken while that fire is open resolves the same attack afterwards
    st = _close_combat(unit("O", "t-80bv", "sov", "2A6", 0, command="OW"))
    act(st, _advances(st)[0])
    twin = st.clone()
    twin.events.clear()
    while "pass" in legal(twin) and not any(" hand-to-hand with " in e for e in twin.events):
        act(twin, "pass")
    assert any(e.startswith("L hand-to-hand with T: ") for e in twin.events), twin.events


# ---------------------------------------------------------------- crawling (MBT 6.6.4.3)

def test_a_section_without_attached_weapons_may_crawl():
    # MBT 6.6.4.3: squads, half-squads and sections without attached weapons crawl; the FO section has none
    units = [unit("L", "us-fo-section", "us", A3, D3, full_cover=True, command="MOVE"),
             unit("O", "t-80bv", "sov", FAR, (D3 + 3) % 6, command="NC")]
    st = opt_state(opt_game(), units)
    act(st, "move L")
    assert [a for a in legal(st) if a.startswith("crawl L ")]


def test_nobody_is_crawling_in_a_new_position():
    # MBT 6.6.4.3, 6.5.4.3: the crawl modifier (+10) is for units that crawled this turn; a squad in Clear under the
    # M106's indirect fire takes no modifier at all (leg targets: no target-type, cover or moving modifiers)
    from mbt_arty_fixtures import arty_state, if_units

    units = [u for u in if_units() if u["id"] != "T"] + [unit("Q", "sov-mr-squad", "sov", "4E1", 5)]
    st = arty_state(units, dice=[10] + [50] * 10)
    act(st, "call M by F at 4E1")
    assert any(e.startswith("IF at Q (GPD 2S): roll 50+0 = 50 ") for e in st.events), st.events


@pytest.mark.parametrize("to", ["2D2", "2E2", "2E3", "2D4", "2C3", "2C2"])
def test_a_crawl_goes_along_any_hexside_and_faces_it(to):
    # MBT 6.6.4.3: one hex in any direction from the Full Cover hex 2D3 (the six neighbours, Clear)
    units = [unit("L", "us-mech-squad", "us", "2D3", 0, full_cover=True, command="MOVE"),
             unit("O", "t-80bv", "sov", FAR, 0, command="NC")]
    st = opt_state(opt_game(), units)
    act(st, "move L")
    act(st, f"crawl L {to}")
    g = st.game
    assert g.label(st.hex[0]) == to and neighbour(g.map.hex("2D3"), st.fac[0]) == st.hex[0] and st.fc[0]


# ---------------------------------------------------------------- buildings (MBT 6.6.3)

def test_ma35_the_building_damage_rolls_use_their_dice(dice_sides):
    # MA35 (MBT 6.6.3): the check (100) 22 + 5, the damage roll (100) 77 (Damaged), the location roll (10) 9 (Hull)
    units = [unit("V", "bmp-2", "sov", "2I10", 0, command="MOVE"), unit("E", "m1", "us", FAR, 3)]
    st = adv_state(units, phase="move-first", to_act="sov", dice=[22, 77, 9])
    act(st, "move V")
    act(st, "fwd V")
    assert [x for x in dice_sides if x[0].startswith("building ")] == [
        ("building enter V", 100), ("building damage V", 100), ("building damage location V", 10)]


@pytest.mark.parametrize("inside, facing, outside", [("2I9", 4, "2J9"), ("2I8", 5, "2J9")])
def test_reversing_out_of_a_building_checks(inside, facing, outside):
    # MBT 6.6.3: a tracked vehicle leaving a building rolls the damage check; reversing from facing 4 (5) it
    # leaves along hexside 1 (2) into Clear 2J9, although the hex ahead of hexside 0 (1) is a building too
    units = [unit("V", "bmp-2", "sov", inside, facing, command="MOVE"), unit("E", "m1", "us", FAR, 3)]
    st = adv_state(units, phase="move-first", to_act="sov", dice=[90, 50, 50])
    act(st, "move V")
    act(st, "rev V")
    assert st.game.label(st.hex[0]) == outside
    assert st.events[-1] == f"V exits the brick building at {inside}: roll 90+5 = 95 vs HIT# 01-65: no damage"


def test_the_chapter_data_is_in_the_game_fingerprint():
    # the compiled scenario data of this chapter (here a Hasty Entrenchment counter, MBT 6.6.8) changes the game's
    # data fingerprint; the per-card building bar filled on use (MBT 6.6.3) does not
    from studio.rulesets.mbt.engine.adv_move_data import building_bar

    assert opt_game().data_fingerprint() != opt_game(hasty_entrenchments={A3: "2"}).data_fingerprint()
    g = adv_state([unit("V", "m106", "us", "2I10", 0, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 3)]).game
    before = g.data_fingerprint()
    assert building_bar(g, 0) == "open-topped"
    assert g.data_fingerprint() == before


# ---------------------------------------------------------------- Improved Positions (MBT 6.1.4.3.7)

@pytest.mark.parametrize("hex_, gain", [("2G4", -10), ("2H8", 0)])
def test_a_vehicle_in_an_improved_position_takes_heavy_cover_instead_of_its_own(hex_, gain):
    # MBT 6.1.4.3.7, 6.5.4.3 (table ag-gp-modifiers: target in Medium Cover -10, Heavy -20; the cover modifiers are
    # exclusive): in Medium Cover (2G4) the position makes it -20 instead of -10; in Heavy Cover (2H8) no change
    def net(**ext):
        units = [unit("S", "m1", "us", "2F4" if hex_ == "2G4" else "2G7", 2, command="FIRE"),
                 unit("T", "bmp-2", "sov", hex_, 5)]
        st = opt_state(opt_game(**ext), units, phase="direct-fire-first", to_act="us", dice=[50, 99, 99, 99])
        act(st, "fire S at T main:HEAT-MP")
        ev = [e for e in st.events if e.startswith("S fires")][-1]
        return int(re.search(r"roll \d+([+-]\d+) =", ev).group(1))

    assert net(improved_positions=[hex_]) - net() == gain


# ---------------------------------------------------------------- Hasty Entrenchments (MBT 6.6.8)

def test_two_builders_in_a_hex_add_one_turn_named_after_the_first():
    # MBT 6.6.8: each hex with a builder adds one turn of construction to its counter, however many units dig
    # there; the narration names the first of them in unit order
    units = [unit("L", "us-mech-squad", "us", A3, D3, full_cover=True, command="NC"),
             unit("M", "us-mech-squad", "us", A3, D3, full_cover=True, command="NC"),
             unit("V", "m1", "us", "2A10", 0, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 5)]
    st = opt_state(opt_game(), units, phase="move-first", to_act="us")
    act(st, "move V")
    act(st, "done V")
    assert st.phase_id() == "adjustment" and st.hasty.get(st.game.map.hex(A3), 0) == 1
    assert [e for e in st.events if " digs in at " in e] == [f"L digs in at {A3}: Hasty Entrenchment side 1"]


# ---------------------------------------------------------------- transported fire (MBT 6.6.7.2)

@pytest.mark.parametrize("extra, spotted", [(0, True), (1, False)])
def test_a_passenger_spots_up_to_the_targets_spot_range(extra, spotted):
    # MBT 6.6.7.2, 6.3: a passenger makes its own spotting attempt from the carrier's hex: it spots a squad in
    # Medium Cover at exactly its spot range, not one hex further
    ranges = {}
    for rng in range(1, 8):
        a, b, d = clear_pair(rng, "C", "K")
        units = [unit("C", "m113", "us", a, d, command="NC"), unit("P", "us-mech-squad", "us", a, d, carried_by="C"),
                 unit("T", "sov-mr-squad", "sov", b, (d + 3) % 6)]
        st = adv_state(units, phase="direct-fire-first", to_act="us", dice=[50] * 5)
        ranges[rng] = st
    reach = ranges[1].spot_range(2, df=True)
    st = ranges[reach + extra]
    assert (st.spots[1] == (2,)) == spotted
    assert any(str(x).startswith("fire P at T ") for x in st.legal_actions()) == spotted


# ---------------------------------------------------------------- barrage movement (MBT 6.6.6)

def test_a_passenger_moving_into_an_off_map_barrage_is_attacked_by_the_battery(dice_sides):
    # MBT 6.6.6, 6.5.4.2.3: the M113 drives into the Soviet battery's Closed SHEAF (4E2); its passenger (no
    # protection) is attacked with it, by the battery (no unit on the map fires)
    from mbt_arty_fixtures import arty_state, calls

    units = [unit("O", "sov-fo-section", "sov", "4B1", 2, command="OW"), unit("E", "m1", "us", "4E1", 5),
             unit("C", "m113", "us", "4E3", 0, command="MOVE"), unit("P", "us-mech-squad", "us", "4E3", 0,
                                                                    carried_by="C")]
    st = arty_state(units, to_act="sov", dice=[9] + [50] * 40)
    act(st, "call 2s1-battery-2 by O at 4E1")
    while "fwd C" not in calls(st):
        got = calls(st)
        act(st, "move C" if "move C" in got else "pass" if "pass" in got else got[0])
    dice_sides.clear()
    act(st, "fwd C")
    assert "C moves into the barrage of 2s1-battery-2 at 4E2" in st.events
    assert ("GP battery>P (passenger)", 100) in dice_sides


def test_a_unit_a_mine_eliminates_on_entering_the_barrage_is_not_attacked_by_it():
    # MBT 6.6.6, 7.31.2.2: the M106's barrage on 4E1; a Soviet half-squad steps in and the US deliberate AP field
    # there eliminates it (roll 50 within the Leg & Towed column's 01-70: Effective, a half-squad is eliminated):
    # the barrage has nobody left to attack
    from mbt_arty_fixtures import arty_state, calls, if_units

    field = {"side": "us", "hexes": ["4E1"], "field": "deliberate", "mines": "ap", "visible": False}
    st = arty_state(if_units() + [unit("V", "sov-mr-half-squad", "sov", "4E2", 0, command="MOVE")],
                    dice=[2] + [50] * 20, optional=("mines",), minefields=[field])
    act(st, "call M by F at 4E1")
    while "fwd V" not in calls(st):
        got = calls(st)
        act(st, "move V" if "move V" in got else "pass" if "pass" in got else got[0])
    st.events.clear()
    act(st, "fwd V")
    assert st.events == ["V enters a deliberate AP minefield in 4E1: us rolls 50 (column leg): eliminated"]
