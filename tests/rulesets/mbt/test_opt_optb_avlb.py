"""MBT optional rule 7.49 AVLB over a hex (OPTB): a Gully hex (terrain G; the sample boards have none, so a game copy
turns one Clear hex into Gully) spanned by an M60 AVLB: launch, crossing only from the ends at the Clear cost,
the weight limit, bridges broken by a track hit or a knock-out on them, engineers against the bridge (GP Defense
6), recovery."""
from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, unit, with_terrain  # noqa: E402
from test_adv_move_quickmarch import _line  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rules.position import position_state  # noqa: E402
from studio.rulesets.mbt.engine.opt_avlb import HexBridge  # noqa: E402
from studio.rulesets.mbt.engine.opt_move_data import CardMove, move_opt  # noqa: E402

(H0, H1, H2, H3), D = _line(("C", "C", "C", "C"))
FAR = "4T13"


def _game(rules=("avlb",)):
    return with_terrain(opt_game(rules), [H1], "G")


def _state(game, units, turn=1, phase="move-first", to_act="us"):
    pos = {"scenario": game.scenario_id, "phase": phase, "turn": turn, "units": units, "dice": [], "to_act": to_act}
    st = position_state(game, pos)
    st.dice.record = True
    return st


def _bridged(units, rules=("avlb",), avlb_at=H0, avlb_facing=D, **status):
    """Turn 2 with the AVLB's bridge over H1 laid on turn 1 from H0 (axis D)."""
    g = _game(rules)
    avlb = unit("B", "m60-avlb", "us", avlb_at, avlb_facing, **status)
    st = _state(g, [avlb] + units + [unit("E", "t-80bv", "sov", FAR, 5)], turn=2)
    st.avlbh = {g.map.hex(H1): HexBridge(0, 1, D)}
    st.avlbc[0] = False
    return st


def test_launch_over_the_gully_hex_in_front():
    # MBT 7.49: AVLBs span Gully, Stream and Ditch hexes; launched with a Move command, facing the hex
    g = _game()
    st = _state(g, [unit("B", "m60-avlb", "us", H0, D, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 5)])
    act(st, "move B")
    assert "launch B" in legal(st)
    act(st, "launch B")
    assert st.avlbh == {g.map.hex(H1): HexBridge(0, 1, D)} and not st.avlbc[0]
    assert st.bridge_usable(g.map.hex(H1)) is None  # not until the next turn
    off = _state(_game(rules=()), [unit("B", "m60-avlb", "us", H0, D, command="MOVE"),
                                   unit("E", "t-80bv", "sov", FAR, 5)])
    act(off, "move B")
    assert "launch B" not in legal(off)


def test_cross_the_bridged_hex_from_its_ends_at_the_clear_cost():
    # MBT 7.49: units enter and leave an AVLB hex only from the hexes in front of and behind it
    st = _bridged([unit("M", "m1", "us", H0, D, command="MOVE")])
    act(st, "move M")
    left = st.mv_left
    act(st, "fwd M")
    assert st.mv_left == left - 1  # Clear cost, not the Gully's 2 for tracked vehicles
    g = st.game
    h1 = g.map.hex(H1)
    side = neighbour(h1, (D + 1) % 6)
    assert st.step_cost(1, h1, side) is None and st.step_cost(1, side, h1) is None
    act(st, "fwd M")
    assert st.game.label(st.hex[1]) == H2
    plain = _state(_game(), [unit("M", "m1", "us", H0, D, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 5)],
                   turn=2)
    act(plain, "move M")
    left = plain.mv_left
    act(plain, "fwd M")
    assert plain.mv_left == left - int(plain.game.cost[h1]["t"])


def test_heavier_than_the_bridge_may_not_cross():
    st = _bridged([unit("M", "m1", "us", H0, D, command="MOVE")])
    move_opt(st.game).cards["m1"] = CardMove(weight=61.0)
    act(st, "move M")
    assert "fwd M" not in legal(st)
    move_opt(st.game).cards.pop("m1")


def test_a_track_hit_or_knock_out_on_the_bridge_breaks_it():
    # MBT 7.49: a vehicle knocked out, brewed up or track-hit on an AVLB hex: the bridge may no longer be
    # traversed or recovered
    for hit in ("track", "KO"):
        st = _bridged([unit("M", "m1", "us", H1, D)])
        h1 = st.game.map.hex(H1)
        if hit == "track":
            st.track_hit(1)
        else:
            st.apply_damage(1, "KO", "HF")
        assert st.avlbh[h1].broken and st.bridge_usable(h1) is None, hit
    whole = _bridged([unit("M", "m1", "us", H2, D)])
    assert whole.bridge_usable(whole.game.map.hex(H1)) is not None


def test_engineers_attack_the_bridge_gp_defense_6():
    # MBT 7.49 "All AVLBs have a GP Defense of 6", attacked as terrain by engineers (7.19): two Effective results
    st = _bridged([unit("N", "us-engineer-squad", "us", H2, D, command="MOVE")], rules=("avlb", "engineers-vs-terrain"))
    h1 = st.game.map.hex(H1)
    assert st._terrain_gpd(h1) == move_opt(st.game).avlb_values["gpd"] == 6
    st.dice.force(100, 100)
    st.engineer_attack(1, h1)
    assert st.avlbh[h1].broken and st._terrain_gpd(h1) is None


def test_recover_from_either_end_unless_occupied():
    # MBT 7.49: recovered like a launch from either side of the hex; not if a unit or a wreck occupies it
    for at, facing in ((H0, D), (H2, (D + 3) % 6)):
        st = _bridged([unit("M", "m1", "us", H3, D)], avlb_at=at, avlb_facing=facing, command="MOVE")
        act(st, "move B")
        assert "recover B" in legal(st), at
        act(st, "recover B")
        assert st.avlbh == {} and st.avlbc[0]
    busy = _bridged([unit("M", "m1", "us", H1, D)], command="MOVE")
    act(busy, "move B")
    assert "recover B" not in legal(busy)


@functools.lru_cache(maxsize=4)
def _board7_game(rules: tuple):
    from studio.rules.load import load_game, rebuild_game

    loaded = load_game("opt-everything", Path(__file__).resolve().parents[3] / "data")
    return rebuild_game(loaded, optional_rules=list(rules))


def _board7(rules=("avlb",), dice=(81,), broken=False):
    """Board 7: the T-80BV on the bridge over the Gully hex 7B3 (laid from 7C2), the M1 in 7B5 on Fire."""
    game = _board7_game(tuple(rules))
    units = [unit("S", "m1", "us", "7B5", 0, command="FIRE"), unit("T", "t-80bv", "sov", "7B3", 0),
             unit("B", "m60-avlb", "sov", "7C2", 4)]
    pos = {"scenario": "mbt-opt-everything", "phase": "direct-fire-first", "to_act": "us", "units": units,
           "dice": list(dice), "extension": {"avlb_bridges": [{"avlb": "B", "hex": "7B3", "from": "7C2",
                                                               "broken": broken}]}}
    st = position_state(game, pos)
    st.dice.record = True
    return st


def test_position_bridges_and_direct_gp_fire_at_a_unit_on_the_bridge():
    # MBT 7.49 GP Defense 6 / 6.5.4.2.5: non-small-arms direct GP fire at a unit on the bridge attacks the bridge:
    # HEAT-MP GP 7 vs GPD 6 (S 80): 81 destroys it, 80 does not
    st = _board7()
    h = st.game.map.hex("7B3")
    assert st.avlbh[h] == HexBridge(2, 0, 4) and st.bridge_usable(h) is not None and not st.avlbc[2]
    act(st, "fire S at T main:HEAT-MP")
    assert st.avlbh[h].broken and any("AVLB bridge in 7B3" in e and "destroyed" in e for e in st.events)
    holds = _board7(dice=(80,))
    act(holds, "fire S at T main:HEAT-MP")
    assert not holds.avlbh[h].broken
    small = _board7(dice=(100,))
    act(small, "fire S at T mmg:GP")  # small arms do not attack terrain
    assert not small.avlbh[h].broken
    assert _board7(rules=()).avlbh == {}  # no bridges with the rule off
    assert _board7(broken=True).bridge_usable(h) is None


def test_board_7_bridge_axis_and_the_bots_step_table():
    # the bridge over 7B3 laid from 7C2 (axis 4): entered from 7C2 or 7A3 only; the bots' step table agrees
    st = _board7(rules=("avlb",))
    g = st.game
    h, c2, a3, b2 = (g.map.hex(x) for x in ("7B3", "7C2", "7A3", "7B2"))
    assert st.step_cost(0, c2, h) == 1 and st.step_cost(0, a3, h) == 1 and st.step_cost(0, b2, h) is None
    table = st.xc_steps(0)
    assert dict(table[a3])[h] == 1 and dict(table[b2])[h] is None and dict(table[h])[c2] is not None
    assert dict(table[h])[b2] is None
