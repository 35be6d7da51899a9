"""The MBT Advanced heuristic bot's formation play (``bot_groups``) and its use of the Advanced rules: stack
formations (Command Range 0) entering slowest first and waiting to assemble, a sharer joining its moved co-sharer
(MBT 6.2.1.1.4), road marches at the road rate (4.5.1.1.5), Overwatch at its goal, mounting far from it (6.6.7)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_game, adv_state, clear_pair, index, unit  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.model.maps import edge_key  # noqa: E402
from studio.rulesets.mbt.bots import PassiveBot  # noqa: E402
from studio.rulesets.mbt.bots_advanced import AdvancedHeuristicBot  # noqa: E402
from studio.rulesets.mbt.engine import game as G  # noqa: E402

REGULARS = {"us": "seasoned", "sov": "regulars"}


def _regulars_scenario():
    """The combined-arms scenario with every Soviet formation at its Force Grade (Regulars: Command Range 0)."""
    sc = index().model("scenario", "mbt-adv-combined-arms")
    ext = sc.extension.model_copy(update={"formation_grades": {}})
    return G.create_game(sc.model_copy(update={"extension": ext}), index(), None)


def test_stack_formation_enters_slowest_first_and_waits_at_the_entry_hex():
    # MBT 6.2.1.1.1-2: a Regulars tank platoon has one command; the bot gives it to its slowest tank (T-64BV)
    # due to enter, which enters at the road hex and stays there for the others (they join it, then move as one)
    g = _regulars_scenario()
    st = g.new_initial_state(3)
    bots = {0: PassiveBot(g, 0, 1), 1: AdvancedHeuristicBot(g, 1, 1)}
    orders = {}
    while st.turn == 1 and st.current_player() >= 0:
        p = st.current_player()
        a = bots[p].choose(st.observation(p), st.legal_actions())
        if a[0] == "command":
            orders[a[1]] = a[2]
        st.apply(a)
    assert (orders["T-80BV-1"], orders["T-64BV-1"], orders["T-80BV-2"]) == ("NC", "MOVE", "NC")
    i = g.uindex["T-64BV-1"]
    assert g.label(st.hex[i]) in {g.label(h) for h in g.units[i].entry_hexes} and st.hex[i] in g.road_hexes


import pytest  # noqa: E402


@pytest.mark.parametrize("grade", ["regulars", "seasoned"])
def test_a_sharer_follows_its_moved_co_sharer_into_its_hex(grade):
    # MBT 6.2.1.1.4: B shares A's Move (Regulars: one hex; Seasoned: within 1): after A moved 3 hexes (away from
    # the Soviet objectives) the bot takes B into A's hex
    a, b, d = clear_pair(3)
    st = adv_state([unit("A", "t-80bv", "sov", a, d), unit("B", "t-80bv", "sov", a, d),
                    unit("U", "m1", "us", "4T14", 0)], phase="command", grades={"us": "seasoned", "sov": grade})
    for text in ("command A MOVE", "command B MOVE", "command U NC", "initiative first", "move A", "fwd A", "fwd A",
                 "fwd A", "done A"):
        act(st, text)
    bot = AdvancedHeuristicBot(st.game, 1, 1)
    while st.phase_id().startswith("move") and not st.moved[1]:
        st.play(bot.choose(st.observation(1), st.legal_actions()))
    assert st.hex[1] == st.hex[0] and st.game.label(st.hex[1]) == b


def _road_start():
    """4T5 (the east end of board 4's road) and the facing along the road westward."""
    g = adv_game()
    h = g.map.hex("4T5")
    f = next(nf for nf in range(6) if edge_key(h, neighbour(h, nf)) in g.roads)
    return "4T5", f


def test_bot_marches_along_the_road_at_the_road_rate():
    # MBT 4.5.1.1.5: on the road facing along it, far from its objective, the bot moves at the road rate
    hx, f = _road_start()
    st = adv_state([unit("T", "t-80bv", "sov", hx, f, command="MOVE"), unit("U", "m1", "us", "2A1", 0)],
                   phase="move-first", to_act="sov")
    bot = AdvancedHeuristicBot(st.game, 1, 1)
    first = bot.choose(st.observation(1), st.legal_actions())
    if first[0] == "move":
        st.play(first)
        first = bot.choose(st.observation(1), st.legal_actions())
    assert tuple(first) == ("road", "T")
    st.play(first)
    start = st.game.map.hex(hx)
    while st.mv_u == 0:
        st.play(bot.choose(st.observation(1), st.legal_actions()))
    from studio.hexgrid.coords import distance

    assert distance(st.hex[0], start) > st.game.units[0].type.cc  # farther than its cross-country allowance


def test_bot_overwatches_at_its_goal_without_a_target():
    # MBT 4.2.1: an M1 on the US objective 2I8 with nothing in sight takes Overwatch
    st = adv_state([unit("M", "m1", "us", "2I8", 2), unit("T", "t-80bv", "sov", "4T14", 5)], phase="command")
    legal = st.legal_actions()
    assert legal[0][1] == "M"
    assert AdvancedHeuristicBot(st.game, 0, 1).choose(st.observation(0), legal)[2] == "OW"


def test_bot_mounts_infantry_far_from_its_goal():
    # MBT 6.6.7: a dismounted squad far from its goal, no enemy near, mounts the M113 in its hex
    st = adv_state([unit("I", "us-mech-squad", "us", "2A13", 2, command="MOVE"),
                    unit("C", "m113", "us", "2A13", 2, command="MOVE"), unit("T", "t-80bv", "sov", "4T1", 5)],
                   phase="move-first", to_act="us")
    bot = AdvancedHeuristicBot(st.game, 0, 1)
    for _ in range(4):
        legal = st.legal_actions()
        pick = bot.choose(st.observation(0), legal)
        if pick[0] == "mount":
            break
        st.play(pick)
    assert tuple(pick)[:2] == ("mount", "I")
