"""The MBT Advanced heuristic bot's use of the Advanced movement chapter (``adv_move_bot``): Full Cover at its goal
(MBT 6.8.3), digging a Hasty Entrenchment there with N/C (6.6.8), crawling into its goal (6.6.4.3); on the US
objective 2I8 of the sample scenario."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, unit  # noqa: E402

from studio.rulesets.mbt.bots_advanced import AdvancedHeuristicBot  # noqa: E402

GOAL, NEXT, FAR = "2I8", "2I9", "4T14"


def _choice(st, side=0):
    return AdvancedHeuristicBot(st.game, side, 1).choose(st.observation(side), st.legal_actions())


def test_full_cover_at_its_goal_not_away_from_it():
    near = adv_state([unit("L", "us-mech-squad", "us", GOAL, 0, command="NC"), unit("T", "t-80bv", "sov", FAR, 5)],
                     phase="air-2")
    assert near.phase_id() == "adjustment"
    assert tuple(_choice(near)) == ("cover", "L", "on")
    away = adv_state([unit("L", "us-mech-squad", "us", "2A1", 0, command="NC", full_cover=True),
                      unit("T", "t-80bv", "sov", FAR, 5)], phase="air-2")
    assert tuple(_choice(away)) == ("pivot", "L", "SE")  # first toward its goal (MBT 6.8.1; 2I8 lies SE)
    act(away, "pivot L SE")
    assert tuple(_choice(away)) == ("cover", "L", "off")


def test_digs_in_at_its_goal_with_nothing_to_fire_at():
    st = adv_state([unit("L", "us-mech-squad", "us", GOAL, 0, full_cover=True), unit("T", "t-80bv", "sov", FAR, 5)],
                   phase="command")
    assert st.legal_actions()[0][1] == "L"
    assert _choice(st)[2] == "NC"
    done = adv_state([unit("L", "us-mech-squad", "us", GOAL, 0, full_cover=True), unit("T", "t-80bv", "sov", FAR, 5)],
                     phase="command", hasty_entrenchments={GOAL: "hasty"})
    from studio.rulesets.mbt.adv_move_bot import dig_command

    opts = {a[2]: a for a in done.legal_actions()}
    bot = AdvancedHeuristicBot(done.game, 0, 1)
    assert dig_command(bot, done, 0, opts) is None  # a complete entrenchment needs no more digging
    assert dig_command(bot, st, 0, {a[2]: a for a in st.legal_actions()}) == opts["NC"]


def test_crawls_the_last_hex_into_its_goal():
    st = adv_state([unit("L", "us-mech-squad", "us", NEXT, 0, command="MOVE", full_cover=True),
                    unit("T", "t-80bv", "sov", FAR, 5)], phase="move-first", to_act="us")
    act(st, "move L")
    assert f"crawl L {GOAL}" in [str(a) for a in st.legal_actions()]
    bot = AdvancedHeuristicBot(st.game, 0, 1)
    pick = bot.choose(st.observation(0), st.legal_actions())
    assert str(pick) == f"crawl L {GOAL}"
    act(st, str(pick))
    assert str(bot.choose(st.observation(0), st.legal_actions())) == "done L"
