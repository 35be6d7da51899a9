"""MBT Optional Rule 7.20 Long Guns (with 7.8 Turrets), through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402
from test_opt_move_terrain import _pair  # noqa: E402

from studio.rulesets.mbt.engine.opt_move_data import CardMove, move_opt  # noqa: E402

CLEAR, WOODS, WD = _pair("C", "W")
ENEMY = "4T13"


def _tank(rules=("turrets", "long-guns"), offset=1, long_gun=True):
    g = opt_game(rules)
    move_opt(g).cards["m1"] = CardMove(long_gun=long_gun)
    st = opt_state(g, [unit("V", "m1", "us", CLEAR, WD, command="MOVE"), unit("E", "t-80bv", "sov", ENEMY, 5)])
    if st.has_turret(0):
        st.set_turret_offset(0, offset)
    act(st, "move V")
    return st


def test_long_gun_enters_woods_only_with_the_turret_fore_or_aft():
    # MBT 7.20: moving into a Woods hex, a Long Gun turret must point directly to the front or rear
    assert move_opt(opt_game()).long_gun_terrain == {"T", "W", "LW"}
    assert "fwd V" not in legal(_tank(offset=1))
    assert "fwd V" in legal(_tank(offset=0)) and "fwd V" in legal(_tank(offset=3))
    assert "fwd V" in legal(_tank(rules=("turrets",), offset=1))  # rule off
    assert "fwd V" in legal(_tank(offset=1, long_gun=False))  # no Long Gun on the card


def test_turret_turns_only_fore_or_aft_while_moving_in_woods():
    # MBT 7.20: while moving in the woods the turret may only point fore or aft; the rule off, it turns up to TT
    st = _tank(offset=0)
    act(st, "fwd V")
    tt = st.turret_tt(0)
    turns = sorted(int(a.split()[-1]) for a in legal(st) if " turret " in a)
    assert tt > 0 and turns == [k for k in range(-tt, tt + 1) if k and k % 3 == 0]
    off = _tank(rules=("turrets",), offset=0)
    act(off, "fwd V")
    assert sorted(int(a.split()[-1]) for a in legal(off) if " turret " in a) == [k for k in range(-tt, tt + 1) if k]
