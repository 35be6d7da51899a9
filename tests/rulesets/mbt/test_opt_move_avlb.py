"""MBT Optional Rule 7.49 AVLB, through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402
from test_opt_move_terrain import S1, S2, SD  # noqa: E402  a Clear pair across a stream hexside

from studio.rulesets.mbt.engine.opt_move_data import card_move, move_opt  # noqa: E402

FAR = "4T13"


def _avlb(rules=("avlb",), extra=()):
    g = opt_game(rules)
    units = [unit("B", "m60-avlb", "us", S1, SD, command="MOVE"), *extra, unit("E", "t-80bv", "sov", FAR, 5)]
    st = opt_state(g, units)
    act(st, "move B")
    return st


def test_m60_avlb_card_60_tons_and_a_plow():
    g = opt_game(("avlb",))
    st = opt_state(g, [unit("B", "m60-avlb", "us", S1, SD), unit("E", "t-80bv", "sov", FAR, 5)])
    assert card_move(st.game, 0).avlb == 60 and card_move(st.game, 0).plow and move_opt(g).avlb_span == {"stream"}


def test_launch_then_cross_from_the_next_turn():
    # MBT 7.49: launched in the Movement Step facing the stream; usable from the next turn; no stream cost
    st = _avlb()
    assert "launch B" in legal(st)
    act(st, "launch B")
    a, b = st.game.map.hex(S1), st.game.map.hex(S2)
    assert st.avlb and not st.avlbc[0] and st.mv_left == 0
    plain = st.step_cost(0, a, b)
    st.turn += 1
    assert st.step_cost(0, a, b) < plain
    assert "launch B" not in legal(_avlb(rules=()))


def test_bridge_weight_limit():
    st = _avlb()
    act(st, "launch B")
    st.turn += 1
    g = st.game
    a, b = g.map.hex(S1), g.map.hex(S2)
    from studio.rulesets.mbt.engine.opt_move_data import CardMove

    move_opt(g).cards["m60-avlb"] = CardMove(weight=61.0, avlb=60.0)
    assert st.step_cost(0, a, b) is None  # heavier than 60 tons: may not cross


def test_recover_and_launch_again():
    st = _avlb()
    act(st, "launch B")
    st.turn += 1
    st.mv_u = -1
    st.moved[0] = False
    st.cov0[0] = st.hex[0]
    act(st, "move B")
    assert "recover B" in legal(st)
    act(st, "recover B")
    assert not st.avlb and st.avlbc[0]


def test_plow_only_after_the_bridge_is_launched():
    # MBT 7.31.3.4: AVLBs carry plows but must deploy their bridge first
    st = _avlb(rules=("avlb", "mines"))
    assert not st.plow_ready(0)
    act(st, "launch B")
    assert st.plow_ready(0)
