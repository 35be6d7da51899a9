"""MBT Advanced Game Pivot Step (MBT 6.8.1): every dismounted leg and towed unit may face any hexside in the
Advanced Adjustment Phase, whatever its command, without spending movement or taking a Spot/Move counter; played
through positions in the 2nd Air Phase, legal actions, play and narration."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402
from towed_fixtures import towed_state  # noqa: E402

from studio.hexgrid.coords import FLAT_DIRECTION_NAMES as NAMES  # noqa: E402
from studio.rulesets.mbt.bots_advanced import AdvancedHeuristicBot  # noqa: E402
from studio.rulesets.mbt.engine.codes import NOMARK  # noqa: E402

A, B, D = clear_pair(6)
ENEMY = "4T13"


def _adjust(units, **kw):
    return opt_state(opt_game(), units, phase="air-2", to_act=None, **kw)


def _pivots(st) -> list[str]:
    return [a for a in legal(st) if a.startswith("pivot")]


def test_every_other_facing_is_offered_after_the_cover_actions():
    # MBT 6.8.1: any hexside; the unit's own facing is no pivot
    st = _adjust([unit("L", "us-mech-squad", "us", A, 2, command="FIRE"), unit("E", "t-80bv", "sov", ENEMY, 5)])
    assert st.phase_id() == "adjustment"
    assert legal(st)[:2] == ["cover L off", "cover L on"]
    assert _pivots(st) == [f"pivot L {NAMES[f]}" for f in (0, 1, 3, 4, 5)]


def test_pivot_changes_the_facing_once_and_the_cover_choice_ends_the_decision():
    st = _adjust([unit("L", "us-mech-squad", "us", A, 0, command="NC"), unit("E", "t-80bv", "sov", ENEMY, 5)])
    act(st, f"pivot L {NAMES[3]}")
    assert st.fac[0] == 3 and st.turn == 1
    assert st.mk[0] == NOMARK and not st.moved[0]  # MBT 6.8.1: no movement, no Spot/Move counter
    assert legal(st) == ["cover L off", "cover L on"]  # one pivot per step
    act(st, "cover L off")
    assert st.turn == 2 and st.fac[0] == 3  # kept into the next turn
    assert any("pivots to face" in e for e in map(str, st.events))


def test_regardless_of_command_each_dismounted_unit_may_pivot():
    # MBT 6.8.1: whatever the command (an Overwatch and a Fire command here), in unit order
    st = _adjust([unit("L", "us-mech-squad", "us", A, 0, command="OW"),
                  unit("M", "us-mech-squad", "us", B, 0, command="FIRE"), unit("E", "t-80bv", "sov", ENEMY, 5)])
    assert legal(st)[0] == "cover L off" and len(_pivots(st)) == 5
    act(st, "cover L off")
    assert legal(st)[0] == "cover M off" and len(_pivots(st)) == 5
    act(st, f"pivot M {NAMES[4]}")
    act(st, "cover M off")
    assert st.fac[:2] == [0, 4]


def test_passengers_and_vehicles_do_not_pivot():
    # MBT 6.8.1: dismounted leg and towed units only
    st = _adjust([unit("C", "m113", "us", A, 0, command="NC"),
                  unit("L", "us-mech-squad", "us", A, 0, carried_by="C"), unit("E", "t-80bv", "sov", ENEMY, 5)])
    assert st.turn == 2 and not any(str(e).startswith("L pivots") for e in st.events)


def test_a_towed_unit_pivots():
    # MBT 6.8.1: towed units too
    st = towed_state([unit("G", "spg-9", "sov", A, 0, command="NC"), unit("E", "m1", "us", ENEMY, 5)],
                     phase="air-2", to_act=None)
    assert st.is_towed(0) and _pivots(st)[0] == f"pivot G {NAMES[1]}"
    act(st, f"pivot G {NAMES[5]}")
    assert st.fac[0] == 5


def test_the_pivot_is_in_the_fingerprint_and_the_clone():
    st = _adjust([unit("L", "us-mech-squad", "us", A, 0, command="NC"), unit("E", "t-80bv", "sov", ENEMY, 5)])
    before = st.fingerprint()
    twin = st.clone()
    act(st, f"pivot L {NAMES[1]}")
    assert st.fingerprint() != before and twin.fac[0] == 0 and len(_pivots(twin)) == 5


def test_heuristic_bot_faces_the_nearest_spotted_enemy_then_chooses_cover():
    # the bot pivots toward the enemy its side spots (MBT 6.8.1), then decides Full Cover (6.8.3)
    st = _adjust([unit("L", "us-mech-squad", "us", A, (D + 3) % 6, command="NC"),
                  unit("T", "t-80bv", "sov", B, D)])
    assert 1 in st.spots[0]
    bot = AdvancedHeuristicBot(st.game, 0, 1)
    pick = bot.choose(st.observation(0), st.legal_actions())
    assert tuple(pick) == ("pivot", "L", NAMES[D])
    act(st, str(pick))
    assert bot.choose(st.observation(0), st.legal_actions())[0] == "cover"


def test_heuristic_bot_keeps_a_facing_that_already_points_at_the_enemy():
    st = _adjust([unit("L", "us-mech-squad", "us", A, D, command="NC"), unit("T", "t-80bv", "sov", B, D)])
    bot = AdvancedHeuristicBot(st.game, 0, 1)
    assert bot.choose(st.observation(0), st.legal_actions())[0] == "cover"


def test_a_unit_that_pivoted_may_pivot_again_next_turn():
    # MBT 6.8.1: the step comes every turn; one pivot in a turn does not use up the next turn's
    st = _adjust([unit("L", "us-mech-squad", "us", A, 0, command="NC"), unit("E", "t-80bv", "sov", ENEMY, 5)])
    act(st, f"pivot L {NAMES[2]}")
    act(st, "cover L off")
    for _ in range(200):
        if st.phase_id() == "adjustment" or st.is_terminal():
            break
        st.play(st.legal_actions()[0])
    assert st.turn == 2 and st.phase_id() == "adjustment"
    assert len(_pivots(st)) == 5 and f"pivot L {NAMES[2]}" not in _pivots(st)
