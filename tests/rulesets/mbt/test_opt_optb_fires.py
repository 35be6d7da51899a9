"""MBT optional rule 7.35 Fires, the parts added by OPTB: a burning hex bars entry and hinders fire (Advanced
6.1.4.3.5, 6.5.2.5 / 6.5.4.3 On Fire, 5.11 coexistence), fixed-wing bombs and rockets and incendiary bombs (7.35,
7.35.1), missed ATGMs (7.35.3, option ``fires-missed-atgm``) and scenario fire terrain (7.35.4); the position
extension ``burning``."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, unit  # noqa: E402
from test_adv_move_quickmarch import _line  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402
from studio.rules.position import PositionError, position_state  # noqa: E402

(H0, H1, H2, H3), D = _line(("C", "C", "C", "C"))
FIRES = ("fires",)


def _pos(game, units, phase="move-first", to_act="sov", burning=None, dice=(), **ext):
    pos = {"scenario": game.scenario_id, "phase": phase, "turn": 1, "units": units, "dice": list(dice)}
    if to_act:
        pos["to_act"] = to_act
    extension = dict(ext)
    if burning is not None:
        extension["burning"] = burning
    if extension:
        pos["extension"] = extension
    st = position_state(game, pos)
    st.dice.record = True
    return st


def test_no_ground_unit_enters_a_burning_hex():
    # MBT 6.1.4.3.5: all units but aircraft and helicopters are prohibited from entering a Fire hex
    units = [unit("V", "t-80bv", "sov", H0, D, command="MOVE"), unit("E", "m1", "us", "4T13", 2)]
    st = _pos(opt_game(FIRES), units, burning={H1: 1})
    act(st, "move V")
    assert "fwd V" not in legal(st)
    assert st.xc_steps(0)[st.game.map.hex(H0)][D][1] is None  # the bots' step table agrees
    cold = _pos(opt_game(FIRES), units)
    act(cold, "move V")
    assert "fwd V" in legal(cold)


def test_burning_needs_the_rule_and_good_hexes():
    units = [unit("V", "t-80bv", "sov", H0, D), unit("E", "m1", "us", "4T13", 2)]
    assert _pos(opt_game(), units, burning={H1: 1}).burning == {}  # no fires with the rule off
    with pytest.raises(PositionError):
        _pos(opt_game(FIRES), units, burning={H1: 0})
    with pytest.raises(PositionError):
        _pos(opt_game(FIRES), units, burning={"ZZ99": 1})


def _shooters(burning=None, smoke=None):
    units = [unit("M", "m1", "us", H0, D, command="FIRE"), unit("T", "t-80bv", "sov", H3, (D + 3) % 6)]
    ext = {"smoke": smoke} if smoke else {}
    return _pos(opt_game(FIRES), units, phase="direct-fire-first", to_act="us", burning=burning, **ext)


def test_on_fire_hinders_ap_and_gp_fire_per_burning_hex():
    # MBT 6.5.2.5 / 6.5.4.3 On Fire: -5 AP, -20 GP per burning hex the line passes through (cumulative), also
    # when the firer or the target is in one
    assert _shooters().hindrance_modifier(0, 1, "ap") == 0
    one = _shooters({H1: 1})
    assert one.hindrance_modifier(0, 1, "ap") == -5 and one.hindrance_modifier(0, 1, "gp") == -20
    assert _shooters({H1: 1, H2: 1}).hindrance_modifier(0, 1, "ap") == -10
    assert _shooters({H3: 1}).hindrance_modifier(0, 1, "ap") == -5  # the target's own hex


def test_fire_and_smoke_in_the_same_hex_take_the_larger_modifier_only():
    # MBT 5.11: Fire with Smoke or a Barrage in the same hex: the single largest modifier (On Fire -5 AP)
    smoke = [{"hexes": [H1], "sheaf": "open"}]
    assert _shooters(smoke=smoke).hindrance_modifier(0, 1, "ap") == -3
    assert _shooters({H1: 1}, smoke=smoke).hindrance_modifier(0, 1, "ap") == -5
    # smoke elsewhere on the line still counts beside the fire
    apart = [{"hexes": [H2], "sheaf": "open"}]
    assert _shooters({H1: 1}, smoke=apart).hindrance_modifier(0, 1, "ap") == -8


def test_incendiary_bombs_start_fires_and_bombs_are_checked():
    # MBT 7.35.1: fixed-wing incendiary bombs start fires without a roll; bombs and rockets that include a
    # building hex in their pattern are checked; strafing is not (not bombs or rockets)
    g = opt_game(FIRES)
    town = next(h for h in sorted(g.building_hexes))
    st = _pos(g, [unit("L", "sov-mr-squad", "sov", g.label(town), 0), unit("E", "m1", "us", "4T13", 2)],
              to_act=None)
    st.note_fire_pattern("strafe", [town], 8)
    assert st.fire_gp == {}
    st.note_fire_pattern("bomb", [town], 12)
    assert st.fire_gp == {town: 12}
    st.note_fire_pattern("incendiary_bomb", [town], 10)
    st._fire_checks()
    assert st.burning == {town: st.turn} and any("incendiary" in e for e in st.events)
    off = _pos(opt_game(), [unit("L", "sov-mr-squad", "sov", g.label(town), 0), unit("E", "m1", "us", "4T13", 2)],
               to_act=None)
    off.note_fire_pattern("incendiary_bomb", [town], 10)
    assert off.fire_gp == {}


def _atgm_at_town(option: str):
    g = opt_game(FIRES, options={"fires-missed-atgm": option})
    town = next(h for h in sorted(g.building_hexes))
    st = _pos(g, [unit("B", "bmp-2", "sov", g.label(town), 0), unit("E", "m1", "us", "4T13", 2)], to_act=None)
    e, b = st.game.uindex["E"], st.game.uindex["B"]
    row = next(r for r in st.game.units[b].type.ap if r.kind == "ATGM")
    return st, town, b, e, row


def test_missed_atgm_at_a_vehicle_in_a_building_is_checked_by_option():
    # MBT 7.35.3: a missed ATGM at a vehicle in a building hex is checked with its fixed GP Factor (the option)
    st, town, b, e, row = _atgm_at_town("on")
    st.hex[e] = st.hex[b]  # the BMP-2 fires at the M1 standing in the town (a test placement)
    st.hex[b] = next(x for x in st.game.hexes if x not in st.game.building_hexes and
                     row.min_range <= distance(x, town) <= 3 and st.game.los.clear(x, town))
    st.dice.force(100)  # a miss
    st.ap_fire(b, e, row, False)
    assert st.fire_gp == {town: row.atgm.gp}
    off, town, b, e, row = _atgm_at_town("off")
    off.hex[e], off.hex[b], off.fac[b] = st.hex[e], st.hex[b], st.fac[b]
    off.dice.force(100)
    off.ap_fire(b, e, row, False)
    assert off.fire_gp == {}


def test_scenario_fire_terrain_burns_as_a_building_with_its_modifier():
    # MBT 7.35.4: the scenario lists woods or brush hexes that burn as a Wood/Brick/Stone building, plus modifiers
    g0 = opt_game()
    woods = next(h for h in sorted(g0.hexes) if g0.map.terrain.get(h) == "W")
    g = opt_game(FIRES, fire_terrain={g0.label(woods): {"construction": "brick", "modifier": 5}})
    st = _pos(g, [unit("L", "sov-mr-squad", "sov", g.label(woods), 0), unit("E", "m1", "us", "4T13", 2)],
              to_act=None)
    st.note_fire_attack(woods, 8)
    assert st.fire_gp == {woods: 8}
    st.dice.force(6)  # 6 + 5 = 11 > 10 (brick, GP 8: 01-10): no fire
    st._fire_checks()
    assert st.burning == {} and any("roll 6+5" in e for e in st.events)
    st.note_fire_attack(woods, 8)
    st.dice.force(5)
    st._fire_checks()
    assert st.burning == {woods: st.turn}
    plain = _pos(opt_game(FIRES), [unit("L", "sov-mr-squad", "sov", g.label(woods), 0),
                                   unit("E", "m1", "us", "4T13", 2)], to_act=None)
    plain.note_fire_attack(woods, 8)
    assert plain.fire_gp == {}


def test_on_fire_gp_modifier_not_for_low_helicopter_combat():
    # MBT 6.5.4.3 On Fire: "It does not apply to ... Helicopter (Low Altitude) Combat"; AP fire and NOE take it
    units = [unit("H", "ah-1s", "us", H0, D), unit("T", "t-80bv", "sov", H3, (D + 3) % 6)]
    st = _pos(opt_game(FIRES), units, phase="direct-fire-first", to_act="us", burning={H1: 1})
    assert st.hindrance_modifier(0, 1, "gp") == -20
    st.heli_alt[0] = "low"  # positions set no altitude: as the Air Phase would
    assert st.hindrance_modifier(0, 1, "gp") == 0 and st.hindrance_modifier(0, 1, "ap") == -5
