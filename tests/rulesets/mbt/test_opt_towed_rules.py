"""The towing parts of Optional Rules 7.29 Bogging Down, 7.30 Narrow Roads, 7.34 Amphibious Vehicles, 7.36
Weather and 7.10 Hedgerow Spotting, with the test-only towing cards of ``towed_fixtures`` (MBT fields no towed
unit with a towed component, 6.6.7.1)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from towed_fixtures import act, legal, towed_state, unit  # noqa: E402
from test_adv_move_quickmarch import _line  # noqa: E402

FAR = "4T13"
(H0, H1, H2), D = _line(("C", "C", "C"))


def _tow(passenger: str | None, hex_: str, facing: int, rules, dice=(), scenario="mbt-adv-combined-arms", **ext):
    units = [unit("V", "test-mover", "sov", hex_, facing, command="MOVE"), unit("E", "m1", "us", FAR, 5)]
    if passenger:
        units.insert(1, unit("P", passenger, "sov", hex_, facing, carried_by="V"))
    st = towed_state(units, phase="move-first", to_act="sov", dice=dice, rules=rules, scenario=scenario, **ext)
    return act(st, "move V")


def test_towing_vehicle_bogs_with_minus_5():
    # MBT 7.29: "all vehicles currently towing another unit, apply a -5 modifier" (table bog-modifiers towing);
    # Rough bogs on 01-35 (MA103): roll 38 - 5 = 33 bogs the towing vehicle, 38 alone moves on
    towing = act(_tow("test-towed-gun", "2C9", 0, ("bogging-down",), [38]), "fwd V")
    assert towing.bogged[0] and towing.hex[0] == towing.game.map.hex("2C9")
    assert any("roll 38-5" in e for e in towing.events)
    alone = act(_tow(None, "2C9", 0, ("bogging-down",), [38]), "fwd V")
    assert not alone.bogged[0] and alone.hex[0] == alone.game.map.hex("2C8")
    carrying = act(_tow("us-mech-squad", "2C9", 0, ("bogging-down",), [38]), "fwd V")
    assert not carrying.bogged[0]  # a carried squad is not towed


def test_amphibious_vehicle_may_not_tow_into_water():
    # MBT 7.34: amphibious units (the M113A2 the test mover is built on) swim into water, but may not tow units
    swim = _tow(None, "7H3", 2, ("amphibious",), scenario="mbt-opt-everything")
    assert "fwd V" in legal(swim)
    towing = _tow("test-towed-gun", "7H3", 2, ("amphibious",), scenario="mbt-opt-everything")
    assert "fwd V" not in legal(towing)
    carrying = _tow("spg-9", "7H3", 2, ("amphibious",), scenario="mbt-opt-everything")
    assert "fwd V" in legal(carrying)  # MBT 7.34: the SPG-9 is transported, not towed


def test_snow_bog_modifier_counts_the_towed_component():
    # MBT 7.36.3: in snow or mud -5 per unit of the passengers' towed capacity: the towed gun (1-1) -5, a squad 0
    rules = ("terrain-time-weather", "bogging-down")
    assert _tow("test-towed-gun", "2C9", 0, rules, ground_conditions="snow").weather_bog(0) == (1, -5)
    assert _tow("us-mech-squad", "2C9", 0, rules, ground_conditions="snow").weather_bog(0) == (1, 0)


def _narrow(units, dice=()):
    return towed_state(units, phase="move-first", to_act="sov", dice=dice, rules=("narrow-roads",),
                       narrow_roads=[H1])


def test_opposing_vehicles_block_a_towed_unit_on_a_narrow_road():
    # MBT 7.30: "vehicles and dismounted towed units may not enter ... a hex occupied by opposing vehicles"
    st = act(_narrow([unit("G", "spg-9", "sov", H0, D, command="MOVE"), unit("E", "m1", "us", H1, 0)]), "move G")
    assert "fwd G" not in legal(st)
    leg = act(_narrow([unit("G", "sov-mr-squad", "sov", H0, D, command="MOVE"), unit("E", "m1", "us", H1, 0)]),
              "move G")
    assert "fwd G" in legal(leg)  # dismounted leg unit movement is not restricted


def test_a_friendly_towed_unit_blocks_the_narrow_road():
    # MBT 7.30: all units may enter a hex occupied by friendly vehicles or towed units, but may not exit it
    st = _narrow([unit("V", "t-80bv", "sov", H0, D, command="MOVE"), unit("G", "spg-9", "sov", H1, 0),
                  unit("E", "m1", "us", FAR, 0)])
    act(st, "move V")
    act(st, "fwd V")
    assert "fwd V" not in legal(st)
    clear = _narrow([unit("V", "t-80bv", "sov", H0, D, command="MOVE"), unit("G", "sov-mr-squad", "sov", H1, 0),
                     unit("E", "m1", "us", FAR, 0)])
    act(clear, "move V")
    act(clear, "fwd V")
    assert "fwd V" in legal(clear)


def test_a_towed_unit_is_pushed_to_the_shoulder():
    # MBT 7.30: a tracked vehicle may push a towed unit to the shoulder (the test gun weighs 3 t, the T-80BV a
    # placeholder 42.5 t): roll 40 + 5 per full 5 tons more (35) = 75, at least 51, moves it
    st = _narrow([unit("V", "t-80bv", "sov", H0, D, command="MOVE"), unit("G", "test-towed-gun", "sov", H1, 0),
                  unit("E", "m1", "us", FAR, 0)], dice=[40])
    act(st, "move V")
    assert "push V" in legal(st)
    act(st, "push V")
    assert ("u", 1) in st.shoulder
    light = _narrow([unit("V", "t-80bv", "sov", H0, D, command="MOVE"), unit("G", "spg-9", "sov", H1, 0),
                     unit("E", "m1", "us", FAR, 0)])
    assert "push V" not in legal(act(light, "move V"))  # the SPG-9 card gives no weight


def test_towed_units_never_dig_into_a_hedgerow():
    # MBT 7.10: leg units may dig into Hedgerow hexsides; towed units are not leg units
    def st(card):
        s = towed_state([unit("G", card, "sov", "7N5", 3, command="MOVE"), unit("E", "m1", "us", "7A1", 0)],
                        phase="move-first", to_act="sov", rules=("hedgerow-spotting",), scenario="mbt-opt-everything")
        return legal(act(s, "move G"))

    assert any(a.startswith("inb G") for a in st("us-mech-squad"))
    assert not any(a.startswith("inb G") for a in st("spg-9"))
