"""MBT Advanced Game motorcycle leg units (MBT 6.6.4.4, 6.6.4.1, 6.6.1.2): the placeholder sample card
``frg-mc-recon-section`` (W factors 6 / 10 / 14 on its card, placeholders) moves as a wheeled vehicle, spots and is
spotted as a leg unit; through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair, index  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.model.maps import edge_key  # noqa: E402

MC, FOOT = "frg-mc-recon-section", "us-mech-half-squad"
A, B, D = clear_pair(6)
FAR = "4T13"


def _mover(card, hex_=A, facing=D, game=None, **status):
    st = opt_state(game or opt_game(), [unit("M", card, "us", hex_, facing, command="MOVE", **status),
                                        unit("E", "t-80bv", "sov", FAR, 5)])
    act(st, "move M")
    return st


def test_the_card_w_factors_are_the_allowance():
    # MBT 6.6.4.4: the W=Wheeled Movement Factors of the card instead of the leg factors
    mv = index().model("unit", MC).body.motorcycle_movement
    st = _mover(MC)
    ut = st.game.units[0].type
    assert (ut.traction, ut.cc, ut.path, ut.road) == ("w", mv.cross_country, mv.path, mv.road)
    assert st.mv_left == mv.cross_country and st.is_motorcycle(0) and st.is_leg(0)


def test_it_pays_the_wheeled_turn_cost_a_unit_on_foot_does_not():
    # MBT 6.6.4.4: movement as a wheeled vehicle; MBT 6.6.4: leg units have no turn cost
    g = opt_game()
    turn = int(g.tables.turn_cost[g.map.terrain[g.map.hex(A)]])
    for card, cost in ((MC, turn), (FOOT, 0)):
        st = _mover(card, game=g)
        left = st.mv_left
        act(st, "turn M left")
        act(st, "turn M left")  # the first hexside per hex is free (MBT 4.5.1.1.4)
        assert left - st.mv_left == cost, card


def test_woods_are_closed_to_motorcycles():
    # table terrain-effects: Woods have no W cost (prohibited to wheeled vehicles); leg units enter them
    g = opt_game()
    woods = next(h for h in sorted(g.map.label_of) if g.map.terrain.get(h) == "W" and
                 any(g.map.terrain.get(neighbour(h, f)) == "C" and neighbour(h, f) in g.map.label_of for f in range(6)))
    f = next(f for f in range(6) if g.map.terrain.get(neighbour(woods, f)) == "C")
    start = g.label(neighbour(woods, f))
    facing = (f + 3) % 6
    assert "fwd M" in legal(_mover(FOOT, start, facing, g))
    assert "fwd M" not in legal(_mover(MC, start, facing, g))


def test_no_quickmarch_and_no_crawl_on_motorcycles():
    foot = _mover(FOOT, full_cover=True)
    mc = _mover(MC, full_cover=True)
    assert "quickmarch M" in legal(foot) and any(a.startswith("crawl") for a in legal(foot))
    assert "quickmarch M" not in legal(mc) and not any(a.startswith("crawl") for a in legal(mc))


def _road_pair(g):
    """A road hex, the next road hex along it and the direction between (map data)."""
    for h in sorted(g.road_hexes):
        for f in range(6):
            b = neighbour(h, f)
            if b in g.road_hexes and edge_key(h, b) in g.roads:
                return h, b, f
    raise AssertionError("no straight road on the sample boards")


def test_it_takes_the_road_rate_and_stops_a_vehicle_s_road_rate():
    # MBT 6.6.4.4: path/road rates as a wheeled vehicle; 6.6.4.1: a motorcycle unit in a road hex stops a
    # vehicle's road rate there (a unit on foot does not)
    g = opt_game()
    h, b, f = _road_pair(g)
    assert "road M" in legal(_mover(MC, g.label(h), f, g))
    assert "road M" not in legal(_mover(FOOT, g.label(h), f, g))
    for card, stops in ((MC, True), (FOOT, False)):
        st = opt_state(g, [unit("V", "m113", "us", g.label(h), f, command="MOVE"),
                           unit("M", card, "us", g.label(b), f), unit("E", "t-80bv", "sov", FAR, 5)])
        act(st, "move V")
        act(st, "road V")
        assert ("fwd V" not in legal(st)) == stops, card


def test_never_across_a_hedgerow():
    # MBT 6.6.4.4: no Hedgerow or Wall hexsides (table motorcycle-prohibited-hexsides); the everything-on
    # scenario has a hedgerow on hexside 0 of 7N6
    g = opt_game(scenario="mbt-opt-everything")
    from studio.rulesets.mbt.engine.adv_move_data import adv_move

    assert adv_move(g).mc_hexsides == {"hedgerow", "wall"}
    assert "fwd M" not in legal(_mover(MC, "7N6", 0, g))


def test_spotted_as_a_leg_unit_of_its_size():
    # MBT 6.6.4.4: it still spots and is spotted as a leg unit (size column S, not the vehicle column)
    g = opt_game()
    st = opt_state(g, [unit("M", MC, "us", A, D), unit("F", FOOT, "us", A, D), unit("E", "t-80bv", "sov", B, 0)],
                   phase="spotting")
    assert st.spot_range(0) == st.spot_range(1)
    assert st.spot_range(0) != st.spot_range(2)


def _advance(option):
    """A motorcycle section two hexes from a spotted enemy squad, the only hex between them Rough (W 6)."""
    g = opt_game(options={"motorcycle-advance": option} if option else None)
    a = g.map.hex(A)
    mid = neighbour(a, D)
    from mbt_move_fixtures import with_terrain

    twin = with_terrain(g, [g.label(mid)], "R")
    st = opt_state(twin, [unit("M", MC, "us", A, D, command="MOVE"),
                          unit("T", "sov-mr-squad", "sov", twin.label(neighbour(mid, D)), 0)],
                   phase="close-combat", to_act="us")
    return st, twin.label(mid)


def test_advancing_attack_within_half_the_motorcycle_allowance():
    # MBT 6.6.4.4: advancing attacks at half the motorcycle allowance (option motorcycle-advance): Rough costs
    # W 6, more than half of 6; option one-hex: as on foot
    half, mid = _advance(None)
    assert not any(a.endswith(f"advance {mid}") for a in legal(half))
    free, mid = _advance("one-hex")
    assert any(a.endswith(f"advance {mid}") for a in legal(free))
