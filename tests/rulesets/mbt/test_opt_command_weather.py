"""MBT Optional Rule 7.36 Terrain, Time of Day and Weather: cautious movement, snow and mud (MA113); the night
aids are in test_opt_command_spotting.py."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import act, legal, pos_state, unit  # noqa: E402

WEATHER = ("terrain-time-weather",)
FAR = "4T13"


def _left_after_step(rules, light="day", **ext):
    units = [unit("M", "m1", "us", "2A1", 1, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0, command="NC")]
    st = pos_state(units, rules, phase="move-first", light=light, **ext)
    act(st, "move M")
    start = st.mv_left
    act(st, "fwd M")
    return start, st.mv_left


def test_snow_adds_one_to_the_terrain_cost():
    # MA113 / MBT 7.36.3: snow +1 movement cost
    start, left = _left_after_step(WEATHER, ground_conditions="snow")
    start0, left0 = _left_after_step(WEATHER)
    assert start == start0 and (start - left) == (start0 - left0) + 1
    assert _left_after_step((), ground_conditions="snow") == (start0, left0)


def test_cautious_movement_halves_vehicles_at_dusk():
    # MBT 7.36.2: cautious movement in limited visibility: vehicle movement factors 1/2 (rounded down)
    dusk, _ = _left_after_step(WEATHER, light="dusk", cautious_movement=True)
    plain, _ = _left_after_step(WEATHER, light="dusk")
    assert dusk == plain // 2
    day, _ = _left_after_step(WEATHER, cautious_movement=True)
    assert day == _left_after_step(WEATHER)[0]


def test_no_quickmarch_under_cautious_movement():
    # MBT 7.36.2: squads and half-squads may not quickmarch
    units = [unit("L", "us-mech-squad", "us", "2A1", 2, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, WEATHER, phase="move-first", light="dusk", cautious_movement=True)
    act(st, "move L")
    assert "quickmarch L" not in legal(st)
    free = pos_state(units, WEATHER, phase="move-first", light="dusk")
    act(free, "move L")
    assert "quickmarch L" in legal(free)


def test_mud_doubles_the_bog_range_and_passengers_weigh():
    # MBT 7.36.3: mud doubles the bog range; snow or mud: -5 per unit of the passengers' towed capacity (a squad
    # takes none: towed.py counts the towed component of each passenger, MBT 6.6.7.1)
    units = [unit("V", "m113", "us", "2A1", 2, command="MOVE"), unit("L", "us-mech-squad", "us", "2A1", 2,
                                                                     carried_by="V"),
             unit("T", "t-80bv", "sov", FAR, 0)]
    mud = pos_state(units, WEATHER, phase="move-first", ground_conditions="mud")
    assert mud.weather_bog(0) == (2, 0)
    assert pos_state(units, WEATHER, phase="move-first").weather_bog(0) == (1, 0)
    assert pos_state(units, (), phase="move-first", ground_conditions="mud").weather_bog(0) == (1, 0)
