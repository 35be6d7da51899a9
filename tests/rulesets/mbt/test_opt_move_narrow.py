"""MBT Optional Rule 7.30 Narrow Roads and Paths, through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402
from test_adv_move_quickmarch import _line  # noqa: E402

(H0, H1, H2), D = _line(("C", "C", "C"))
FAR = "4T13"


def _state(units, rules=("narrow-roads",), to_act="sov", dice=()):
    g = opt_game(rules, narrow_roads=[H1])
    return opt_state(g, units, to_act=to_act, dice=dice)


def test_opposing_vehicles_block_a_narrow_hex():
    # MBT 7.30: vehicles may not enter or move through a narrow hex holding opposing vehicles
    units = [unit("V", "t-80bv", "sov", H0, D, command="MOVE"), unit("E", "m1", "us", H1, 0)]
    st = _state(units)
    act(st, "move V")
    assert "fwd V" not in legal(st)
    off = _state(units, rules=())
    act(off, "move V")
    assert "fwd V" in legal(off)  # the normal rule: through, if it can leave again (MBT 4.5.1.1.10)


def test_opposing_legs_only_by_overrun():
    units = [unit("V", "t-80bv", "sov", H0, D, command="MOVE"), unit("L", "us-mech-squad", "us", H1, 0)]
    st = _state(units)
    act(st, "move V")
    assert "fwd V" not in legal(st) and "overrun V L" in legal(st)


def test_a_friendly_vehicle_stops_the_column():
    # MBT 7.30: any unit may enter a narrow hex holding a friendly vehicle but may not exit it
    units = [unit("V", "t-80bv", "sov", H0, D, command="MOVE"), unit("F", "bmp-2", "sov", H1, D),
             unit("E", "m1", "us", FAR, 2)]
    st = _state(units)
    act(st, "move V")
    act(st, "fwd V")
    assert st.hex[0] == st.game.map.hex(H1) and "fwd V" not in legal(st)
    off = _state(units, rules=())
    act(off, "move V")
    act(off, "fwd V")
    assert "fwd V" in legal(off)


def test_push_t80bv_bmp2_plus_25():
    # MBT 7.30 example: a T-80BV pushing an immobile BMP-2 applies +25; 51+ moves it to the shoulder
    units = [unit("V", "t-80bv", "sov", H0, D, command="MOVE"), unit("F", "bmp-2", "sov", H1, D, track_hit=True),
             unit("E", "m1", "us", FAR, 2)]
    ok = _state(units, dice=[26])
    act(ok, "move V")
    assert "push V" in legal(ok)
    act(ok, "push V")
    assert ("u", 1) in ok.shoulder and any("+25" in e and "shoulder" in e for e in ok.events)
    assert not ok._blocked(0, ok.game.map.hex(H1))
    fail = _state(units, dice=[25])
    act(fail, "move V")
    act(fail, "push V")
    assert not fail.shoulder and fail.mv_left == 0


def test_push_needs_a_heavier_tracked_pusher():
    units = [unit("V", "bmp-2", "sov", H0, D, command="MOVE"), unit("F", "t-80bv", "sov", H1, D, track_hit=True),
             unit("E", "m1", "us", FAR, 2)]
    st = _state(units)
    act(st, "move V")
    assert "push V" not in legal(st)
