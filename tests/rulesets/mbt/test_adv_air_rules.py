"""MBT air rules case by case (MBT 6.7.2-6.7.8): the points of the fixed-wing and helicopter rules the example
tests leave open (turn limits, turning, Crew 2, ammo, modifiers, passengers, scatter shifts, observation)."""
from __future__ import annotations

import copy
import dataclasses
import sys
from pathlib import Path

import pytest

from studio.hexgrid.coords import distance, neighbour

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402
from test_adv_air_fw import (A10, EXTRA_LOADS, T, _aa, _aa_roll_for, _extra_state, _net, events, fly,  # noqa: E402
                             fw_state, legal)


def _with_aircraft(st, **changes):
    """The state on a copy of its game whose first aircraft has ``changes`` (e.g. crew 2)."""
    g = copy.copy(st.game)
    g.aircraft = [dataclasses.replace(g.aircraft[0], **changes)] + list(g.aircraft[1:])
    st.game = g
    return st


# ------------------------------------------------------------------ availability and flight

@pytest.mark.parametrize("turn, ok", [(2, False), (3, True), (5, True), (6, False)])
def test_scenario_turn_window(turn, ok):
    # MBT 6.7.2.1: the scenario may limit the turns an aircraft appears (first_turn 3, last_turn 5 here)
    st = fw_state([T], aircraft=({**A10, "first_turn": 3, "last_turn": 5},), turn=3)
    st.turn = turn
    assert bool(st.fw_sorties(0)) == ok


def test_pass_ends_the_sorties_of_the_phase():
    st = fw_state([T, unit("H", "ah-1s", "us", "2A1", 2)])
    act(st, "pass")
    assert st.fw.done[0] and not any(a.startswith("sortie") for a in legal(st))
    assert any(a.startswith("fly H") for a in legal(st))  # the helicopters' turn


@pytest.mark.parametrize("way, facing", [("right", 4), ("left", 2)])
def test_a_slow_turn_is_one_hexside(way, facing):
    # MBT 6.7.2.3.1: heading S (3), a right turn heads SW (4), a left one SE (2)
    st = fly(fw_state([T]), "A-10A-1", "slow", "medium", "2B1", "S")
    act(st, f"wing A-10A-1 {way}")
    assert st.fw.face == facing and st.fw.hex == neighbour(st.game.map.hex("2B1"), facing)


def test_a_target_coming_into_view_starts_its_count_at_one():
    # MBT 6.7.3.1.1: the count is the hexes flown with the target in the front field of fire
    side = unit("T", "t-80bv", "sov", "2E5", 0)  # off the S heading at 2B3, ahead after turning SE at 2C3
    st = fly(fw_state([side]), "A-10A-1", "slow", "medium", "2B1", "S", hexes=2)
    assert 0 not in st.fw.acq
    act(st, "wing A-10A-1 left")
    assert st.fw.acq == {0: 1}
    act(st, "wing A-10A-1 ahead")
    assert st.fw.acq == {0: 2}


def test_crew_two_halves_the_requirement_and_sees_120_degrees():
    # MA50 / MBT 6.7.3.1: Crew 2 (FRG, BAOR) Fast/Low 10 -> 5; Front 120 field of fire
    st = _with_aircraft(fly(fw_state([unit("T", "t-80bv", "sov", "2E4", 0)]), "A-10A-1", "fast", "low", "2B1", "S"),
                        crew=2)
    assert st.fw_requirement(0) == 5
    from studio.hexgrid.facing import in_arc

    h = st.hex[0]
    assert in_arc(st.fw.hex, st.fw.face, h, 120) and not in_arc(st.fw.hex, st.fw.face, h, 60)
    assert st._fw_in_view(0)
    assert not _with_aircraft(st, crew=1)._fw_in_view(0)


def test_limited_spotting_minus_two_doubles():
    st = fly(fw_state([T]), "A-10A-1", "slow", "medium", "2B1", "S")
    g = copy.copy(st.game)
    g.turn_spot_mod = {t: -2 for t in st.game.turn_spot_mod}
    st.game = g
    assert st.fw_requirement(0) == 20


def test_ammo_is_counted_and_runs_out():
    # MBT 5.16.2.5: one attack per load; the strafe has its 'A' attacks
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2B3", 0)], dice=[1] * 4), "A-10A-1", "slow", "medium", "2B1", "S",
             hexes=1)
    act(st, "attack A-10A-1 bomb T")
    assert st.fw.ammo[0][1] == 0 and st.attacked[0]
    st.fw.acq = {0: 99}
    assert "attack A-10A-1 bomb T" not in legal(st) and "attack A-10A-1 cluster T" in legal(st)
    low = fly(fw_state([unit("T", "t-80bv", "sov", "2B3", 0)]), "A-10A-1", "slow", "low", "2B1", "S", hexes=1)
    low.fw.ammo[0][0] = 0
    assert "attack A-10A-1 strafe T" not in legal(low)


def test_the_load_named_is_the_load_dropped():
    # two loads: the high-drag bomb at Low is named in the narration, not the iron bomb listed first
    aircraft = ({**A10, "loads": ["bomb", "high-drag"]},)
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2B3", 0)], aircraft=aircraft, dice=[1] * 4), "A-10A-1", "slow",
             "low", "2B1", "S", hexes=1)
    act(st, "attack A-10A-1 high-drag T")
    assert events(st, "with Mk 82 Snakeye")
    assert st.fw.ammo[0] == [4, 1, 0]


def test_pgm_not_at_low_and_the_stand_off_edge():
    aircraft = ({**A10, "loads": ["bomb"], "pgm": ["bomb"]},)
    low = fly(fw_state([unit("T", "t-80bv", "sov", "2B8", 0)], aircraft=aircraft), "A-10A-1", "slow", "low", "2B1",
              "S")
    assert not [a for a in legal(low) if a.startswith("attack A-10A-1 bomb")]
    med = fly(fw_state([unit("T", "t-80bv", "sov", "2B7", 0)], aircraft=aircraft), "A-10A-1", "slow", "medium",
              "2B1", "S")
    assert "attack A-10A-1 bomb+pgm T" in legal(med)  # exactly 6 hexes


def test_high_bomb_pattern_has_width():
    # fw-bomb-patterns (placeholder): iron bombs at High 3 hexes long with the hexes beside each
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2B3", 0)]), "A-10A-1", "slow", "high", "2B1", "S", hexes=1)
    pattern = st.fw_pattern(1, "bomb", 0)
    front = neighbour(st.fw.hex, 3)
    assert front in pattern and neighbour(front, 2) in pattern and neighbour(front, 4) in pattern
    assert len(pattern) == len(set(pattern)) and neighbour(neighbour(front, 3), 3) in pattern


# ------------------------------------------------------------------ modifiers

def test_rockets_plus_20_at_low():
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2B13", 0)], dice=[1] * 4, grades={"us": "seasoned"}), "A-10A-1",
             "slow", "low", "2B1", "S", hexes=6)
    act(st, "attack A-10A-1 rockets T")
    assert _net(st) == 20 + st.game.ag.gp_mod["target-a-type"]


def test_aircraft_damaged_suppressed_and_grade_modifiers():
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2B3", 0)], dice=[1] * 4, grades={"us": "green"}), "A-10A-1",
             "slow", "low", "2B1", "S", hexes=1)
    st.fw.dmg[0], st.fw.sup[0] = True, True
    act(st, "attack A-10A-1 strafe T")
    g_mod = st.game.ag.gp_mod
    expect = 20 + g_mod["target-a-type"] + g_mod["shooter-damaged"] + g_mod["shooter-suppressed"] + \
        st.game.ag.grade_gp["green"]["E"]
    assert _net(st) == expect and st.game.ag.grade_gp["green"]["E"] != 0


def test_a_moving_target_and_the_card_load_modifier():
    loads = ({"id": "mod", "kind": "bomb", "name": "test bomb", "points": 30, "gp_factor": 12, "modifier": 5},)
    import test_adv_air_fw as fwt

    saved = fwt.EXTRA_LOADS
    fwt.EXTRA_LOADS = EXTRA_LOADS + loads
    try:
        st = fly(_extra_state([unit("T", "t-80bv", "sov", "2B3", 0, command="MOVE", revealed=True)], ["mod"],
                              dice=[1] * 4), "A-10A-1", "slow", "medium", "2B1", "S", hexes=1)
    finally:
        fwt.EXTRA_LOADS = saved
    act(st, "attack A-10A-1 mod T")
    m = st.game.ag.gp_mod
    assert _net(st) == 10 + 5 + m["target-a-type"] + m["target-moving"]


# ------------------------------------------------------------------ passengers and incendiaries

def _carrier_attack(card, kind_load, protected: bool):
    carrier = unit("C", card, "sov", "2B3", 0)
    squad = unit("P", "sov-mr-squad", "sov", "2B3", 0, carried_by="C")
    loads = [kind_load] if kind_load != "bomb" else ["bomb"]
    st = fly(_extra_state([carrier, squad], loads, dice=[1] * 6), "A-10A-1", "slow", "medium", "2B1", "S", hexes=1)
    act(st, f"attack A-10A-1 {loads[0]} C")
    return st


def test_passengers_of_an_open_carrier_are_attacked_not_under_armor():
    # MBT 6.5.4.2.3: through a carrier that is not Under Armor (GPD 1 with no protection); incendiaries never reach
    # Under Armor passengers (6.7.3.3.3)
    open_ = _carrier_attack("m113", "bomb", False)
    assert events(open_, "(passenger of C, GPD 1S)")
    ua = _carrier_attack("bmp-2", "fire", True)
    assert not events(ua, "passenger of C")


# ------------------------------------------------------------------ scatter (Optional Rule 7.26.2)

def _scatter_state(aa_result_roll, optional=("scatter",)):
    units = [_aa(hex_="2C2"), unit("T", "t-80bv", "sov", "2B4", 0)]
    st = fly(fw_state(units, optional=optional), "A-10A-1", "slow", "medium", "2B1", "S")
    st.dice.force(aa_result_roll(st))
    act(st, "ow Z at A-10A-1 guns:HEI")
    act(st, "wing A-10A-1 ahead")
    act(st, "wing A-10A-1 ahead")
    return st


def test_scatter_after_a_damaging_aa_hit_uses_the_hit_limit_and_moves_the_whole_pattern():
    # MBT 7.26.2: after a Suppressed or Damaged AA result the load scatters at roll (10) + grade <= 6; the whole
    # pattern (2 hexes at Medium) moves 1 hex in the d6 direction
    st = _scatter_state(lambda s: _aa_roll_for(s, "suppressed"))
    before = st.fw_pattern(1, "bomb", 1)
    st.dice.force(5, 1, 1, 1, 1)  # 5 + 1 (Veteran) = 6 <= 6: scatters; direction 1 -> hexside 0 (N)
    act(st, "attack A-10A-1 bomb T")
    shifted = [neighbour(h, 0) for h in before]
    assert events(st, "on " + ", ".join(st.game.label(h) for h in shifted))


def test_no_scatter_without_aa_fire_or_off_the_map():
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2B4", 0)], optional=("scatter",), dice=[1] * 3), "A-10A-1",
             "slow", "medium", "2B1", "S", hexes=2)
    act(st, "attack A-10A-1 bomb T")
    assert events(st, "A-10A-1>T") and not events(st, "scatter")


# ------------------------------------------------------------------ AA fire

def test_aa_unit_is_revealed_and_roll_100_is_possible():
    st = fly(fw_state([_aa()], grades={"us": "veteran", "sov": "green"}), "A-10A-1", "slow", "medium", "2B1", "S")
    st.dice.force(100, 5, 5)
    act(st, "ow Z at A-10A-1 guns:HEI")
    assert st.rev[0] and st.fired[0]
    (e,) = events(st, "Z AA fire")
    band = e.split("GP ")[1].split(")")[0].split(", ")[1]
    assert int(e.split("roll 100")[1].split(" =")[0]) == st.game.ag.grade_gp["green"][band]


def test_tail_chase_track_counts_from_behind_only():
    # an MT track counts only the hexes flown with the unit in the aircraft's rear 120; the entry credit is for
    # units in LOS at the edge, not for later hexes
    from test_adv_air_sam import _sam, _site, _state as sam_state

    st = fly(sam_state([_site("2B3")], _sam("MT")), "A-10A-1", "slow", "medium", "2B1", "S", hexes=5)
    assert 0 < st.fw.rear.get(0, 0) < 10 and not st.fw.pending


def test_scramble_hides_what_the_pilot_cannot_know():
    st = fly(fw_state([_aa()]), "A-10A-1", "slow", "medium", "2B1", "S")
    for player in (0, 1):
        for seed in (1, 2):
            other = st.scramble_hidden(player, seed)
            assert other.observation(player).fw.key() == st.observation(player).fw.key()
    assert st.scramble_hidden(1, 3).fw.ammo != st.fw.ammo or st.scramble_hidden(1, 4).fw.ammo != st.fw.ammo


# ------------------------------------------------------------------ helicopters

def _hind(extra=(), dice=(), options=None):
    units = [unit("H", "mi-24", "sov", "2A1", 2), unit("M", "m1", "us", "4T14", 5)] + list(extra)
    return adv_state(units, phase="air-1", to_act="sov", dice=dice, options=options)


def test_load_a_squad_into_a_landed_helicopter():
    # MBT 6.7.5.3.3: a friendly leg unit in the hex with a Move command that has not moved boards (room 1, placeholder)
    squad = unit("P", "sov-mr-squad", "sov", "2A3", 2, command="MOVE")
    st = _hind([squad])
    act(st, "fly H 2A3 land")
    assert events(st, "helicopter H lands in 2A3")
    assert "mount P H" in legal(st)
    act(st, "mount P H")
    assert st.carrier[2] == 0 and st.st[2] == 4
    assert not [a for a in st.legal_actions() if a[0] in ("mount", "dismount")]
    moved = _hind([unit("P", "sov-mr-squad", "sov", "2A3", 2, command="MOVE", moved=True)])
    act(moved, "fly H 2A3 land")
    assert "mount P H" not in legal(moved)


def test_a_landed_helicopter_fires_only_s120_guns_and_is_destroyed_in_place():
    a, b, d = clear_pair(6)
    st = adv_state([unit("H", "ah-1s", "us", a, d), unit("T", "t-80bv", "sov", b, 0)], phase="air-1", to_act="us")
    act(st, f"fly H {a} land")
    assert not [x for x in st.legal_actions() if x[0] == "fire"]  # the AH-1S has no side-mounted guns
    assert st.heli_result(0, 81, "E") == "destroyed"
    assert st.st[0] != 1 and st.wreck.get(st.hex[0])


def test_heli_shot_down_counts_and_pop_up_ends():
    st = adv_state([unit("H", "ah-1s", "us", "2A1", 2), unit("T", "t-80bv", "sov", "4T14", 0)], phase="air-1",
                   to_act="us", dice=[1, 1, 1])
    st.popup, st.hover[0] = 0, True
    assert st.heli_result(0, 81, "E") == "shot down"
    assert st.lost[0] == 1 and st.popup == -1


def test_heli_fire_is_not_overwatch_fire():
    a, b, d = clear_pair(8)
    st = adv_state([unit("H", "ah-1s", "us", a, d), unit("T", "t-80bv", "sov", b, 0)], phase="air-1", to_act="us",
                   dice=[99] * 6)
    act(st, f"fly H {a}")
    row = next(r for r in st.game.units[0].type.ap if r.weapon == "tow")
    net, _ = st.hit_modifiers(0, 1, row, False)
    act(st, "fire H at T tow:TOW")
    assert events(st, f"net {net:+d}")


def test_heli_atgm_moving_gp_modifier_and_class_3():
    a, b, d = clear_pair(8)
    st = adv_state([unit("H", "ah-1s", "us", a, d), unit("S", "sov-mr-squad", "sov", b, 0),
                    unit("T", "t-80bv", "sov", b, 0)], phase="air-1", to_act="us")
    tow = next(r for r in st.game.units[0].type.ap if r.weapon == "tow")
    st.hover[0], st.heli_path[0] = False, 3
    moving = st.gp_modifiers(0, 1, tow, "M", False)
    st.hover[0] = True
    assert moving - st.gp_modifiers(0, 1, tow, "M", False) == st.game.air.values["heli-atgm-moving-gp"]
    st.hover[0] = False
    cl3 = dataclasses.replace(tow, atgm=dataclasses.replace(tow.atgm, cl=3))
    assert st.weapon_ok(0, 2, tow) and not st.weapon_ok(0, 2, cl3)  # MBT 6.7.6.4: CL 3/4 only hovering


def test_rockets_at_the_noe_minimum_range():
    a, b, _ = clear_pair(2)
    st = adv_state([unit("H", "ah-1s", "us", a, 0), unit("T", "t-80bv", "sov", b, 0)], phase="air-1", to_act="us")
    assert st._rocket_ok(0, 1)


def test_radar_does_not_track_a_moving_noe_helicopter():
    z = unit("Z", "zsu-23-4", "sov", "2A8", 0, command="OW")
    st = adv_state([unit("H", "ah-1s", "us", "2A1", 2), z], phase="air-1", to_act="us",
                   options={"aa-radar-state": "active"})
    act(st, "fly H 2A3")  # 2 hexes at NOE: optical Track 3 needed
    act(st, "hold H")
    assert not [x for x in st.legal_actions() if x[0] == "ow"]


@pytest.mark.parametrize("hexes, tracked", [(5, False), (6, True)])
def test_sam_tracking_of_a_moving_helicopter(hexes, tracked):
    # MBT 6.7.8.1.1: SAMs double the helicopter Track requirement (3 -> 6)
    from test_adv_air_sam import _SamIndex, _sam
    from mbt_adv_fixtures import index
    from studio.rules.position import position_state
    from studio.rulesets.mbt.engine import game as G

    idx = _SamIndex(index(), _sam("MA"))
    sc = idx.model("scenario", "mbt-adv-air-strike")
    g = G.create_game(sc.model_copy(update={"extension": sc.extension.model_copy(update={"aircraft": []})}), idx)
    st = position_state(g, {"scenario": "mbt-adv-air-strike", "phase": "air-1", "turn": 3, "to_act": "us",
                            "units": [unit("H", "ah-1s", "us", "2A1", 2),
                                      unit("Z", "zsu-23-4", "sov", "2A14", 0, command="OW")]})
    act(st, f"fly H 2A{1 + hexes}")
    act(st, "hold H")
    assert bool([x for x in st.legal_actions() if x[0] == "ow"]) == tracked


def test_pop_up_helicopter_is_seen_by_aa_over_ground_cover():
    # MBT 6.7.8.1.1: AA LOS to a helicopter at Low (a pop-up included) is the aircraft LOS reversed
    from test_adv_air_heli import _pair_hidden_from_the_ground

    g = adv_state([unit("H", "ah-1s", "us", "2A1", 2)], phase="air-1", to_act="us").game
    a, b = _pair_hidden_from_the_ground(g)
    st = adv_state([unit("H", "ah-1s", "us", a, 2), unit("Z", "zsu-23-4", "sov", b, 0, command="OW")],
                   phase="air-1", to_act="us", dice=[1] * 6)
    act(st, f"fly H {a}")
    act(st, "popup H")
    act(st, "hold H")
    assert [x for x in st.legal_actions() if x[0] == "ow"]


def test_missing_bomb_pattern_is_refused():
    from mbt_adv_fixtures import index
    from studio.rules.load import ScenarioRefused
    from studio.rulesets.mbt.engine import game as G

    idx = index()
    rs = idx.model("ruleset", "mbt")
    tables = [t.model_copy(update={"rows": t.rows[1:]}) if t.id == "fw-bomb-patterns" else t for t in rs.tables]

    class _Idx:
        def model(self, kind, mid):
            return rs.model_copy(update={"tables": tables}) if kind == "ruleset" else idx.model(kind, mid)

        def __getattr__(self, name):
            return getattr(idx, name)

    with pytest.raises((ScenarioRefused, Exception)) as err:
        G.MbtGame(idx.model("scenario", "mbt-adv-air-strike"), _Idx())
    assert "fw-bomb-patterns" in str(err.value)


# ------------------------------------------------------------------ more cases

def test_soviet_aircraft_against_us_aa():
    # the side that flies is either side: a Su-25 and a US-crewed AA unit (test data) track and fire the other way
    st = fw_state([unit("Z", "zsu-23-4", "us", "2C6", 0, command="OW"), unit("T", "m1", "us", "2B9", 0),
                   unit("S", "t-80bv", "sov", "4T14", 0)],
                  aircraft=({"side": "sov", "aircraft": "su-25", "count": 1, "loads": ["bomb"]},), turn=3)
    st.first = 1
    st.fw_phase_start()
    st.cp = 1
    act(st, "sortie Su-25-1 slow medium")
    act(st, "arrive Su-25-1 2B1 S")
    assert st.current_player() == 0 and "ow Z at Su-25-1 guns:HEI" in legal(st)


def test_second_air_phase_offers_sorties_again():
    # MBT 6.7.2.1: either Air Phase; a pass in the 1st leaves the aircraft for the 2nd
    st = fw_state([T], phase="air-2")
    assert any(a.startswith("sortie") for a in legal(st))
    st.fw.done = [True, True]
    st.fw_phase_start()
    assert st.fw.done == [False, False]


def test_turning_left_from_north_wraps_the_facing():
    st = fly(fw_state([T]), "A-10A-1", "slow", "medium", "2B14", "N")
    act(st, "wing A-10A-1 left")
    assert st.fw.face == 5


@pytest.mark.parametrize("target, ok", [("2B12", True), ("2B11", False)])
def test_pgm_stand_off_at_high_11_to_20(target, ok):
    # MBT 6.7.3.7: from High the stand-off is 11-20 hexes (acquired on entry: Fast/High Acquire 18, placeholder)
    aircraft = ({**A10, "loads": ["bomb"], "pgm": ["bomb"]},)
    st = fly(fw_state([unit("T", "t-80bv", "sov", target, 0)], aircraft=aircraft), "A-10A-1", "fast", "high",
             "2B1", "S")
    assert ("attack A-10A-1 bomb+pgm T" in legal(st)) == ok


def test_pgms_and_strafes_never_scatter():
    aircraft = ({**A10, "loads": ["bomb"], "pgm": ["bomb"]},)
    units = [_aa(hex_="2C2"), unit("T", "t-80bv", "sov", "2B8", 0)]
    st = fly(fw_state(units, aircraft=aircraft, optional=("scatter",)), "A-10A-1", "slow", "medium", "2B1", "S")
    st.dice.force(1)
    act(st, "ow Z at A-10A-1 guns:HEI")
    st.dice.force(1, 1, 1, 1)
    act(st, "attack A-10A-1 bomb+pgm T")
    assert not events(st, "scatter") and events(st, "A-10A-1>T")


def test_noe_helicopters_in_a_bomb_pattern_are_attacked():
    # MBT 6.7.9.1: helicopters at NOE in a bomb pattern take GP fire; at Low they do not
    units = [unit("T", "t-80bv", "sov", "2B3", 0), unit("H", "ah-1s", "us", "2B4", 0)]
    st = fly(fw_state(units, dice=[1] * 4), "A-10A-1", "slow", "medium", "2B1", "S", hexes=1)
    act(st, "attack A-10A-1 bomb T")
    assert events(st, "A-10A-1>H")
    st = fly(fw_state(units, dice=[1] * 4), "A-10A-1", "slow", "medium", "2B1", "S", hexes=1)
    st.heli_alt[1] = "low"
    act(st, "attack A-10A-1 bomb T")
    assert not events(st, "A-10A-1>H")


def test_incendiary_reaches_passengers_of_an_open_carrier():
    st = _carrier_attack("m113", "fire", False)
    assert events(st, "(passenger of C, GPD 1S)")


def test_an_fo_that_fired_cannot_spot_for_aircraft():
    units = [unit("F", "m981", "us", "2L7", 3, command="OW", fired=True), unit("T", "sov-mr-squad", "sov", "2L10", 0)]
    st = fly(fw_state(units), "A-10A-1", "slow", "medium", "2L1", "S")
    assert 1 not in st.fw.acq
    fresh = fly(fw_state([units[0] | {"status": {"command": "OW"}}, units[1]]), "A-10A-1", "slow", "medium", "2L1",
                "S")
    assert 1 in fresh.fw.acq  # the FO is unit 0


def test_the_second_players_helicopter_acts_when_the_first_has_none():
    st = adv_state([unit("M", "m1", "us", "4T14", 5), unit("H", "mi-24", "sov", "2A1", 2)], phase="air-1",
                   to_act="us")
    assert st.current_player() == 1 and any(a[0] == "fly" for a in st.legal_actions())


def test_flying_helicopters_at_one_altitude_do_not_share_a_hex():
    st = adv_state([unit("H", "ah-1s", "us", "2A1", 2), unit("G", "ah-1s", "us", "2A3", 2),
                    unit("T", "t-80bv", "sov", "4T14", 0)], phase="air-1", to_act="us")
    flights = {str(a) for a in st.legal_actions() if a[0] == "fly" and a[1] == "H"}
    assert "fly H 2A3" not in flights and "fly H 2A3 low" in flights


def test_landed_helicopter_draws_no_aa_and_takes_off_narrated():
    z = unit("Z", "zsu-23-4", "us", "2A6", 0, command="OW")
    st = adv_state([unit("H", "mi-24", "sov", "2A1", 2), unit("M", "m1", "us", "4T14", 5), z], phase="air-1",
                   to_act="sov")
    act(st, "fly H 2A3 land")
    act(st, "hold H")
    assert not [a for a in st.legal_actions() if a[0] == "ow"]
    st.air_done, st.air_u = [], -1
    st.phase, st.air_side = st.phase, 1
    act(st, "fly H 2A4")
    assert events(st, "helicopter H takes off")


def test_no_countermeasures_no_spoofing():
    # the AH-1S has no Countermeasures: no spoofing roll even against an active-radar gun at Low
    units = [unit("H", "ah-1s", "us", "2A1", 2), unit("Z", "zsu-23-4", "sov", "2A6", 0, command="OW")]
    st = adv_state(units, phase="air-1", to_act="us", dice=[96, 2, 5], options={"aa-radar-state": "active"})
    act(st, "fly H 2A1 low")
    act(st, "hold H")
    act(st, "ow Z at H guns:HEI")
    assert not events(st, "countermeasures roll")


@pytest.mark.parametrize("state, hexes, tracked", [("active", 2, True), ("optical", 2, False)])
def test_radar_tracks_a_low_helicopter_at_half(state, hexes, tracked):
    z = unit("Z", "zsu-23-4", "sov", "2A8", 0, command="OW")
    st = adv_state([unit("H", "ah-1s", "us", "2A1", 2), z], phase="air-1", to_act="us",
                   options={"aa-radar-state": state})
    act(st, f"fly H 2A{1 + hexes} low")
    act(st, "hold H")
    assert bool([x for x in st.legal_actions() if x[0] == "ow"]) == tracked


def test_passengers_lost_with_the_helicopter_count():
    squad = unit("P", "sov-mr-squad", "sov", "2A1", 2, carried_by="H")
    st = adv_state([unit("H", "mi-24", "sov", "2A1", 2), unit("M", "m1", "us", "4T14", 5), squad], phase="air-1",
                   to_act="sov", dice=[1, 1, 1])
    st.hover[0] = True
    st.heli_result(0, 81, "E")
    assert st.carrier[2] == -1 and st.lost[1] == 2
