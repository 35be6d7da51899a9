"""MBT Optional Rule 7.36 Terrain, Time of Day and Weather: ground conditions in part of the map (7.36.3), no path or
road rate under cautious movement in very limited visibility (7.36.2), searchlights set in the Visualization step
(7.36.4.1, 6.8.2)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import act, clear_pair, legal, pos_state, unit  # noqa: E402

WEATHER = ("terrain-time-weather",)
FAR = "4T13"


def _step_cost(**ext):
    # an M1 at 2A1 facing SE (1) steps into 2B2 ... the cost of the first hex entered
    units = [unit("M", "m1", "us", "2A1", 1, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0, command="NC")]
    st = pos_state(units, WEATHER, phase="move-first", **ext)
    act(st, "move M")
    start = st.mv_left
    act(st, "fwd M")
    return start - st.mv_left, st


def test_snow_only_in_the_scenarios_ground_hexes():
    # MBT 7.36.3: 'only certain portions of the mapboard': snow +1 in the listed hexes, the rest as normal
    plain, st = _step_cost()
    entered = st.game.label(st.hex[0])
    assert _step_cost(ground_conditions="snow")[0] == plain + 1
    assert _step_cost(ground_conditions="snow", ground_hexes=[entered])[0] == plain + 1
    assert _step_cost(ground_conditions="snow", ground_hexes=["4T13"])[0] == plain


def test_mud_only_in_the_scenarios_ground_hexes():
    units = [unit("V", "m113", "us", "2A1", 2, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0)]
    inside = pos_state(units, WEATHER, phase="move-first", ground_conditions="mud", ground_hexes=["2A1"])
    outside = pos_state(units, WEATHER, phase="move-first", ground_conditions="mud", ground_hexes=["2A2"])
    assert inside.weather_bog(0)[0] == 2 and outside.weather_bog(0) == (1, 0)


def test_a_bad_ground_hex_is_refused():
    import pytest

    from studio.rules.position import PositionError

    with pytest.raises(PositionError):
        _step_cost(ground_conditions="snow", ground_hexes=["9Z99"])


def test_no_road_rate_under_cautious_movement_in_very_limited_visibility():
    # MBT 7.36.2: very limited visibility with cautious movement: vehicles may not use the path or road rate
    from studio.hexgrid.coords import neighbour
    from studio.model.maps import edge_key

    units0 = [unit("M", "m1", "us", "2A1", 0, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0)]
    g = pos_state(units0, WEATHER, phase="move-first").game
    h, f = next((h, f) for h in sorted(g.road_hexes) for f in range(6) if edge_key(h, neighbour(h, f)) in g.roads)
    units = [unit("M", "m1", "us", g.label(h), f, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0)]

    def road(**ext):
        st = pos_state(units, WEATHER, phase="move-first", light="dusk", **ext)
        act(st, "move M")
        return "road M" in legal(st)

    assert road() and road(cautious_movement=True)
    assert not road(cautious_movement=True, very_limited_visibility=True)
    assert road(very_limited_visibility=True)  # no cautious movement in the scenario: the road rate stays


def _adjusting(light="night", lit=()):
    # a T-80BV with an IR searchlight [IR] and an M1 8 hexes in front of it, at the end of the 2nd Air Phase
    a, b, d = clear_pair(8)
    units = [unit("T", "t-80bv", "sov", a, d), unit("A", "m1", "us", b, (d + 3) % 6)]
    return pos_state(units, WEATHER, phase="air-2", to_act="sov", light=light, searchlights_on=list(lit))


def test_the_visualization_step_switches_a_searchlight_on_for_the_next_turn():
    # MBT 7.36.4.1 / 6.8.2: the searchlight is set active during the Turret Adjustment & Visualization Step; at
    # night the active IR searchlight spots the M1 at 8 in the next Spotting Phase
    st = _adjusting()
    assert legal(st) == ["light T on", "light T off"]  # night next turn: on first
    act(st, "light T on")
    assert st.lit[0] and st.turn == 2 and 1 in st.spots[0]
    dark = _adjusting()
    act(dark, "light T off")
    assert not dark.lit[0] and dark.turn == 2 and 1 not in dark.spots[0]


def test_an_active_searchlight_may_be_switched_off_and_daylight_scenarios_skip_the_step():
    st = _adjusting(lit=("T",))
    assert st.lit[0]
    act(st, "light T off")
    assert not st.lit[0]
    assert not [a for a in legal(_adjusting(light="day")) if a.startswith("light")]


# ---------------------------------------------------------------- 7.4 with Full Cover (Advanced 6.1.4.2)
def test_a_full_cover_unit_next_to_the_target_does_not_stop_spot_removal():
    # MBT 7.4: only Unsuppressed, Non-Full Cover, Unbroken opposing units next to the target keep its Spot counter;
    # the US squad beside the Soviet squad stays in Full Cover: the removal roll (1) is made and removes the counter
    def run(cover: str):
        units = [unit("S", "sov-mr-squad", "sov", "2L10", 0, mark="spot-fire"), unit("A", "m2a1", "us", "2B12", 0),
                 unit("I", "us-mech-squad", "us", "2K10", 0, full_cover=True),
                 unit("X", "m1", "us", "4T1", 0, command="MOVE")]
        st = pos_state(units, ("spot-removal",), phase="move-first", dice=[1], force_grades={"us": "veteran"})
        act(st, "move X")
        act(st, "done X")
        while st.current_player() >= 0 and st.phase_id() == "adjustment":
            name = next(a for a in legal(st) if a.startswith("cover ")).split()[1]
            act(st, f"cover {name} {cover if name == 'I' else 'off'}")
        return st

    hidden = run("on")
    assert hidden.fc[2] and hidden.mk[0] == 0 and [e for e in hidden.events if "Spot counter removal" in e]
    seen = run("off")
    assert not seen.fc[2] and seen.mk[0] != 0


# ---------------------------------------------------------------- 7.40 delayed reaction to sighting
def _delayed_next_turn(enemy_hex, after=1, turns=1):
    """The next turn's Command Phase of a position with D delayed ``after`` turns after sighting."""
    from opt_command_fixtures import end_turn_decisions

    units = [unit("D", "m1", "us", "2A1", 1), unit("T", "t-80bv", "sov", enemy_hex, 4),
             unit("X", "m1", "us", "4T1", 0, command="MOVE")]
    st = pos_state(units, ("delayed-reaction",), phase="move-first",
                   delayed_reaction=[{"units": ["D"], "after_spotting": after}])
    for _ in range(turns):
        if "move X" in legal(st):
            act(st, "move X")
            act(st, "done X")
        end_turn_decisions(st)
        while st.current_player() >= 0 and st.phase_id() != "command":
            act(st, legal(st)[0] if not any(a.startswith("pass") for a in legal(st)) else "pass")
    return st


def test_a_delayed_unit_waits_after_first_spotting_an_enemy():
    # MBT 7.40: D is held to N/C until it has sighted an opposing unit and one more turn has passed
    st = _delayed_next_turn("4T13")
    assert st.phase_id() == "command" and st.turn == 2 and not st.dsp[0]
    assert [x for x in legal(st) if x.startswith("command D")] == ["command D NC"]  # nothing sighted yet


def test_a_delayed_unit_that_sighted_an_enemy_acts_once_the_delay_has_passed():
    from opt_command_fixtures import end_turn_decisions

    a, b, d = clear_pair(10)
    units = [unit("D", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    ext = {"delayed_reaction": [{"units": ["D"], "after_spotting": 1}]}
    st = pos_state(units, ("delayed-reaction",), phase="command", to_act="us", **ext)
    assert st.dsp[0] == 1 and legal(st) == ["command D NC"]  # sighted this turn: one turn's delay
    while st.turn == 1 and st.current_player() >= 0:
        options = legal(st)
        act(st, next((x for x in options if x.endswith(" NC") or x == "pass" or x.startswith("hold")), options[0]))
        end_turn_decisions(st)
    assert st.turn == 2 and len([x for x in legal(st) if x.startswith("command D")]) > 1
    free = pos_state(units, (), phase="command", to_act="us", **ext)
    assert len(legal(free)) > 1
