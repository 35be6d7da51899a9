"""MBT Advanced Game crawling (MBT 6.6.4.3; example MA39), through positions, legal actions, play and the
narration."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.rulesets.mbt.engine.adv_move_data import adv_move  # noqa: E402
from studio.rulesets.mbt.engine.codes import MMOVE, NOMARK  # noqa: E402

A, B, D = clear_pair(3)  # 2A1 -> 2D3 along hexside 2, Clear
FAR = "4T13"


def _crawler(enemy_hex=FAR, enemy_cmd="NC", dice=(), **status):
    status = {"full_cover": True, "command": "MOVE", **status}
    units = [unit("L", "us-mech-squad", "us", A, D, **status),
             unit("O", "t-80bv", "sov", enemy_hex, (D + 3) % 6, command=enemy_cmd)]
    return opt_state(opt_game(), units, dice=dice)


def _crawls(st) -> list:
    return [a for a in legal(st) if a.startswith("crawl ")]


def test_crawl_modifier_from_the_text():
    # MBT 6.6.4.3: all GP direct and indirect fire at a crawling unit +10
    assert adv_move(opt_game()).val["crawl-gp"] == 10


def test_a_full_cover_squad_crawls_one_hex_and_keeps_full_cover_without_spot_move():
    st = _crawler()
    act(st, "move L")
    assert _crawls(st)
    act(st, "crawl L 2B2")
    assert st.game.label(st.hex[0]) == "2B2" and st.fc[0]
    assert st.mk[0] == NOMARK  # not marked Spot/Move (MA39)
    assert not [a for a in legal(st) if a.split()[0] in ("fwd", "rev", "crawl", "quickmarch")]  # one hex only
    assert any("crawls to 2B2" in e for e in st.events)


def test_walking_out_instead_ends_full_cover_and_marks_spot_move():
    st = _crawler()
    act(st, "move L")
    act(st, "fwd L")
    assert not st.fc[0] and st.mk[0] == MMOVE


def test_no_crawl_without_full_cover_suppressed_or_after_moving():
    plain = _crawler(full_cover=False)
    act(plain, "move L")
    assert not _crawls(plain)
    sup = _crawler(suppression="on")
    act(sup, "move L")
    assert not _crawls(sup)
    turned = _crawler()
    act(turned, "move L")
    act(turned, "fwd L")
    assert not _crawls(turned)


def test_no_crawl_next_to_a_spotted_enemy():
    # MBT 6.6.4.3: a crawl may not end adjacent to an opposing unit spotted by any friendly unit: with the enemy
    # two hexes away, the hexes next to it are not offered; with it far away they are
    from studio.hexgrid.coords import distance

    near_hex = clear_pair(2)[1]
    st = _crawler(enemy_hex=near_hex)
    assert 1 in st.spots[0]
    act(st, "move L")
    hexes = {a.split()[-1] for a in _crawls(st)}
    g = st.game
    assert hexes and all(distance(g.map.hex(h), g.map.hex(near_hex)) > 1 for h in hexes)
    far = _crawler()
    act(far, "move L")
    all_hexes = {a.split()[-1] for a in _crawls(far)}
    assert hexes < all_hexes and any(distance(g.map.hex(h), g.map.hex(near_hex)) == 1 for h in all_hexes)


def test_no_crawl_changing_elevation():
    g = opt_game()
    st = _crawler()
    act(st, "move L")
    for a in _crawls(st):
        assert g.elev.get(g.map.hex(a.split()[-1]), 0) == g.elev.get(g.map.hex(A), 0)


def _ow_net(st) -> tuple[int, int]:
    """The net modifier and GP Defense of the overwatch GP shot narrated last."""
    ev = [e for e in st.events if " fires " in e and "GPD" in e][-1]
    net = int(re.search(r"roll \d+([+-]\d+) =", ev).group(1))
    gpd = int(re.search(r"GPD (\d+)", ev).group(1))
    return net, gpd


def _ow_shot(verb: str):
    # a T-80BV on Overwatch 3 hexes away fires its coax at the squad as it crawls / walks into 2B2
    st = _crawler(enemy_hex=B, enemy_cmd="OW", dice=[1, 99, 99, 99])
    act(st, "move L")
    act(st, verb)
    shots = [a for a in legal(st) if a.startswith("ow O at L") and "coax" in a.lower()] or \
        [a for a in legal(st) if a.startswith("ow O at L")]
    assert shots, legal(st)
    act(st, shots[0])
    return _ow_net(st)


def test_gp_fire_at_a_crawler_is_plus_10_and_it_is_not_moving():
    # MBT 6.6.4.3: +10 on GP fire; not moving for combat (no -2 on its GP Defense)
    walk_net, walk_gpd = _ow_shot("fwd L")
    crawl_net, crawl_gpd = _ow_shot("crawl L 2B2")
    assert crawl_net == walk_net + 10
    st = _crawler()
    g = st.game
    squad = g.units[0].type.ag.gpd_cover["none"]  # the squad's GP Defense in Clear (no cover)
    assert walk_gpd == max(1, squad - 2)  # moving -2, Full Cover lost by walking out
    assert crawl_gpd == squad + int(g.options["full-cover-bonus"])  # Full Cover kept, not moving


def test_crawled_is_cleared_next_turn():
    st = _crawler()
    act(st, "move L")
    act(st, "crawl L 2B2")
    assert st.crawled[0]
    st._start_turn()
    assert not st.crawled[0]


def test_no_crawl_up_or_down_a_height():
    # 2M2 (Height 0) is Clear all round; its neighbour 2N3 is one Height up
    g = opt_game()
    st = opt_state(g, [unit("L", "us-mech-squad", "us", "2M2", 0, full_cover=True, command="MOVE"),
                       unit("O", "t-80bv", "sov", FAR, 0)])
    act(st, "move L")
    got = {a.split()[-1] for a in _crawls(st)}
    assert got == {"2M1", "2N2", "2M3", "2L3", "2L2"}


def test_a_crawl_keeps_the_spot_counter_it_had_and_faces_its_way():
    st = _crawler(mark="spot-fire")
    from studio.rulesets.mbt.engine.codes import MFIRE

    act(st, "move L")
    assert st.mk[0] == MMOVE  # a move marks Spot/Move ...
    act(st, "crawl L 2B2")
    assert st.mk[0] == MFIRE  # ... a crawl does not: the counter it had stays
    g = st.game
    from studio.hexgrid.coords import neighbour

    assert neighbour(g.map.hex(A), st.fac[0]) == g.map.hex("2B2")
