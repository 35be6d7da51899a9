"""MBT optional rule 7.30 Narrow Roads and Paths, stacking (OPTB): vehicles may not exceed the stacking limit (5.13:
six or more vehicles over-stack a hex) in a narrow hex; wrecks and leg units do not count."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402
from test_adv_move_quickmarch import _line  # noqa: E402

(H0, H1, H2), D = _line(("C", "C", "C"))
FAR = "4T13"


def _state(parked: int, rules=("narrow-roads",), legs: int = 0):
    units = [unit("V", "t-80bv", "sov", H0, D, command="MOVE")]
    units += [unit(f"P{k}", "bmp-2", "sov", H1, D) for k in range(parked)]
    units += [unit(f"L{k}", "sov-mr-squad", "sov", H1, D) for k in range(legs)]
    st = opt_state(opt_game(rules, narrow_roads=[H1]), units + [unit("E", "m1", "us", FAR, 2)], to_act="sov")
    act(st, "move V")
    return st


def test_no_sixth_vehicle_in_a_narrow_hex():
    # MBT 7.30: vehicles and dismounted towed units may not exceed stacking limits (5.13) on a narrow road
    assert "fwd V" in legal(_state(4))
    assert "fwd V" not in legal(_state(5))
    assert "fwd V" in legal(_state(5, rules=()))  # the normal rule: over-stacking is allowed, with its effects


def test_leg_units_do_not_count_for_stacking():
    assert "fwd V" in legal(_state(4, legs=3))

