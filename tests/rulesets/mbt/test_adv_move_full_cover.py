"""MBT Advanced Game Full Cover (MBT 6.1.4.2, 6.1.3.2, 6.5.4.2.2, 6.8.3), through positions, legal actions and
play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.rulesets.mbt.engine.codes import CMD_CODES  # noqa: E402
from studio.rulesets.mbt.engine.opt_move_data import move_opt  # noqa: E402

A, B, D = clear_pair(6)
ENEMY = "4T13"


def _squad(options=None, phase="move-first", **status):
    g = opt_game(options=options)
    return opt_state(g, [unit("L", "us-mech-squad", "us", A, D, **status), unit("E", "t-80bv", "sov", ENEMY, 5)],
                     phase=phase)


def test_full_cover_rows_from_the_text():
    # MBT 6.1.3.2: spotted 2 rows down, spotting 4 rows down
    assert move_opt(opt_game()).spot_fc == {"target-full-cover": -2, "spotter-full-cover": -4}


def test_gp_defense_adds_the_full_cover_bonus():
    # MBT 6.5.4.2.2 (Q28, option full-cover-bonus: the examples add 2)
    plain = _squad()
    fc = _squad(full_cover=True)
    assert fc.leg_gp_defense(0) == plain.leg_gp_defense(0) + 2
    one = _squad(options={"full-cover-bonus": 1}, full_cover=True)
    assert one.leg_gp_defense(0) == plain.leg_gp_defense(0) + 1


def test_full_cover_target_is_spotted_two_rows_down():
    plain = _squad()
    fc = _squad(full_cover=True)
    assert fc.ag_spot_range(0, 0, 0) < plain.ag_spot_range(0, 0, 0)
    assert fc.ag_spot_range(0, 0, 0) == plain.ag_spot_range(0, 0, -2)


def test_full_cover_spotter_sees_four_rows_down():
    # MBT 6.1.3.2: a Full Cover spotter spots 4 rows down: a target it spots in the open it may lose
    g = opt_game()
    a, b, d = clear_pair(9)
    units = [unit("L", "us-mech-squad", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    seen = opt_state(g, units, phase="spotting")
    hidden = opt_state(g, [dict(units[0], status={"full_cover": True}), units[1]], phase="spotting")
    assert 1 in seen.spots[0]
    rng = hidden.ag_spot_range(1, hidden.mkdf[1], -4)
    assert (1 in hidden.spots[0]) == (9 <= rng)


def test_no_short_halt_in_full_cover():
    # MBT 6.1.4.2: Full Cover leg units may never have Short Halt commands
    g = opt_game()
    enemy = unit("E", "t-80bv", "sov", B, (D + 3) % 6)  # spotted: Short Halt needs a target
    free = opt_state(g, [unit("L", "us-mech-squad", "us", A, D), enemy], phase="command", to_act="us")
    assert CMD_CODES["SH"] in free.cmd_options(0)
    st = opt_state(g, [unit("L", "us-mech-squad", "us", A, D, full_cover=True), enemy], phase="command", to_act="us")
    assert CMD_CODES["SH"] not in st.cmd_options(0)


def test_adjust_full_cover_step_after_the_second_air_phase():
    # MBT 6.8.3: each dismounted leg unit enters or leaves Full Cover for the next turn, whatever its command
    g = opt_game()
    st = opt_state(g, [unit("L", "us-mech-squad", "us", A, D, command="NC"), unit("E", "t-80bv", "sov", ENEMY, 5)],
                   phase="air-2", to_act=None)
    # the unit's Pivot Step choices follow (MBT 6.8.1: test_adv_pivot.py)
    assert legal(st)[:2] == ["cover L off", "cover L on"] and st.phase_id() == "adjustment"
    assert all(a.startswith("pivot L ") for a in legal(st)[2:])
    act(st, "cover L on")
    assert st.fc[0] and st.turn == 2


def test_moving_out_of_the_hex_ends_full_cover():
    st = _squad(full_cover=True, command="MOVE")
    act(st, "move L")
    act(st, "fwd L")
    assert not st.fc[0]
