"""MBT Advanced Game Hull Down (MBT 6.1.4.1, 6.5.2.2.3, 6.6.9): searching in the Movement Phase and the hits it
masks, through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.hexgrid import coords  # noqa: E402
from studio.rulesets.mbt.engine.codes import MOVE  # noqa: E402
from studio.rulesets.mbt.engine.opt_move_data import move_opt  # noqa: E402

ENEMY = "4T13"


def _hex_of(code: str) -> str:
    g = opt_game()
    return next(g.label(h) for h in sorted(g.map.label_of) if g.map.terrain.get(h, "") == code)


ROUGH = _hex_of("R")


def _searcher(dice, grade="seasoned", card="m1"):
    g = opt_game(grades={"us": grade, "sov": "regulars"})
    st = opt_state(g, [unit("V", card, "us", ROUGH, 0, command="MOVE"), unit("E", "t-80bv", "sov", ENEMY, 5)],
                   dice=dice)
    act(st, "move V")
    return st


def test_search_modifiers_from_the_text():
    # MBT 6.6.9: PHD -20; size +2 +10 ... -2 -10; Elite -10, Veteran -5, Seasoned 0, Regulars +5, Green/Raw +10
    mo = move_opt(opt_game())
    assert mo.hd_mod == {"partial": -20, "size+2": 10, "size+1": 5, "size+0": 0, "size-1": -5, "size-2": -10}
    assert mo.hd_grade == {"elite": -10, "veteran": -5, "seasoned": 0, "regulars": 5, "green": 10, "raw": 10}
    assert mo.hd_front_side == {"hd": frozenset(range(5, 11)), "phd": frozenset({6, 8, 9, 10})}


def test_search_spends_the_whole_allowance_and_finds_a_position_within_the_range():
    # MBT 6.6.9: the vehicle turns to any hexside and rolls (100) + modifiers within the terrain's range
    st = _searcher([1])
    top = st._hd_range(0)
    size = st.game.units[0].type.target_size
    mod = move_opt(st.game).hd_mod[f"size{size:+d}"]
    hit = _searcher([top - mod])
    assert "search V hd 3" in legal(hit) and "search V phd 3 rev" in legal(hit)
    act(hit, "search V hd 3")
    assert hit.hd[0] == 1 and hit.fac[0] == 3 and not hit.hdrev[0] and hit.mv_left == 0
    assert legal(hit) == ["done V"]
    miss = _searcher([top - mod + 1])
    act(miss, "search V hd 3")
    assert miss.hd[0] == 0
    # Partial Hull Down: -20 on the roll
    phd = _searcher([top - mod + 20])
    act(phd, "search V phd 3 rev")
    assert phd.hd[0] == 2 and phd.hdrev[0]


def test_grade_shifts_the_search_roll():
    st = _searcher([1])
    top = st._hd_range(0)
    mod = move_opt(st.game).hd_mod[f"size{st.game.units[0].type.target_size:+d}"]
    elite = _searcher([top - mod + 10], grade="elite")
    act(elite, "search V hd 0")
    assert elite.hd[0] == 1
    green = _searcher([top - mod - 9], grade="green")
    act(green, "search V hd 0")
    assert green.hd[0] == 0


def test_no_search_after_moving_or_outside_hull_down_terrain():
    st = _searcher([1])
    act(st, "turn V left")
    act(st, "turn V left")
    assert not any(a.startswith("search") for a in legal(st))
    a, _, d = clear_pair(3)
    g = opt_game()
    clear = opt_state(g, [unit("V", "m1", "us", a, d, command="MOVE"), unit("E", "t-80bv", "sov", ENEMY, 5)])
    act(clear, "move V")
    assert g.map.terrain[g.map.hex(a)] not in move_opt(g).hd_max
    assert not any(x.startswith("search") for x in legal(clear))


def test_a_move_command_abandons_the_position():
    # MBT 6.6.9: a Move or Short Halt command abandons the position even if the vehicle stays
    st = _searcher([1])
    act(st, "search V hd 0")
    st.cmd[0] = MOVE
    st._initiative()
    assert st.hd[0] == 0


def _duel(status, facing, dice, shooter_hex=None):
    """An M1 at range 5 fires APFSDS at a T-80BV in the given position and facing (Front: facing the M1)."""
    a, b, d = clear_pair(5)
    g = opt_game()
    units = [unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, facing, **status)]
    st = opt_state(g, units, phase="direct-fire-first", to_act="us", dice=dice)
    return st, d


def test_hull_down_masks_hull_and_track_hits_from_the_front():
    # MBT 6.5.2.2.3: Hull Down: every Hull, Hull* and TK location from a protected angle is a miss
    a, b, d = clear_pair(5)
    front = (d + 3) % 6
    st, _ = _duel({"hull_down": "hd"}, front, [1, 1, 71, 99, 99])
    g = st.game
    hull = [t for t in range(1, 11) if g.ag.locations[("front", t)][0] in ("HF", "HS", "TK")]
    turret = [t for t in range(1, 11) if g.ag.locations[("front", t)][0] in ("TF", "TS")]
    assert hull and turret
    for tens in hull:
        assert st.hull_down_miss(0, 1, "front", tens, g.ag.locations[("front", tens)][0])
    for tens in turret:
        assert st.hull_down_miss(0, 1, "front", tens, g.ag.locations[("front", tens)][0]) == \
            g.ag.locations[("front", tens)][1]
    # from the rear the position does not protect
    assert not st.hull_down_miss(0, 1, "rear", hull[0], g.ag.locations[("rear", hull[0])][0])


def test_hull_down_miss_in_play_is_narrated():
    a, b, d = clear_pair(5)
    front = (d + 3) % 6
    g = opt_game()
    tens = next(t for t in range(1, 11) if g.ag.locations[("front", t)][0] == "HF")
    loc_roll = tens * 10 % 100 + 1 if tens < 10 else 1  # tens digit, units digit 1
    units = [unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, front, hull_down="hd")]
    st = opt_state(g, units, phase="direct-fire-first", to_act="us", dice=[1, 76, loc_roll, 99, 99, 99])
    act(st, "fire S at T main:APFSDS")
    assert any("hull down: a miss" in e for e in st.events)
    plain = opt_state(g, [units[0], dict(units[1], status={})], phase="direct-fire-first", to_act="us",
                      dice=[1, 76, loc_roll, 99, 99, 99])
    act(plain, "fire S at T main:APFSDS")
    assert not any("hull down" in e for e in plain.events)


def test_partial_hull_down_and_front_side_rows():
    # MBT 6.5.2.2.3: PHD misses Hull* and TK; at Front/Side HD misses rolls 5-10, PHD 6, 8, 9, 10
    a, b, d = clear_pair(5)
    st, _ = _duel({"hull_down": "phd"}, (d + 3) % 6, [])
    g = st.game
    for tens in range(1, 11):
        loc, star = g.ag.locations[("front", tens)]
        assert st.hull_down_miss(0, 1, "front", tens, loc) == (loc == "TK" or star)
        assert st.hull_down_miss(0, 1, "front_side", tens, g.ag.locations[("front_side", tens)][0]) == \
            (tens in (6, 8, 9, 10))
    hd, _ = _duel({"hull_down": "hd"}, (d + 3) % 6, [])
    assert [t for t in range(1, 11) if hd.hull_down_miss(0, 1, "front_side", t, "HS")] == list(range(5, 11))


def test_automatic_partial_hull_down_from_below():
    # MBT 6.1.4.1.3: fire from a lower unit at a range up to the target's height advantage: Partial Hull Down
    g = opt_game()
    for h in sorted(g.map.label_of):
        rise = g.elev.get(h, 0)
        if rise < 1:
            continue
        for f in range(6):
            lo = coords.neighbour(h, f)
            if lo in g.map.label_of and g.elev.get(lo, 0) < rise:
                st = opt_state(g, [unit("S", "m1", "us", g.label(lo), (f + 3) % 6, command="FIRE"),
                                   unit("T", "t-80bv", "sov", g.label(h), f)], phase="direct-fire-first",
                               to_act="us")
                assert st.hull_down_state(0, 1, "front") == 2 and st.hull_down_state(1, 0, "front") == 0
                return
    raise AssertionError("no height difference on the sample boards")


def test_gp_track_on_a_hull_down_vehicle_is_no_effect():
    # MBT 6.5.4.4.2: hit by GP direct fire while HD or PHD, a TK result is No Effect
    a, b, d = clear_pair(5)
    st, _ = _duel({"hull_down": "hd"}, (d + 3) % 6, [])
    assert st.hull_down_track_no_effect(0, 1)
    plain, _ = _duel({}, (d + 3) % 6, [])
    assert not plain.hull_down_track_no_effect(0, 1)


def test_ma47_veteran_size_minus_1_partial_search_minus_30():
    # MA47 (MBT 6.6.9): a Veteran size -1 vehicle searching for PHD: -20 - 5 - 5 = -30
    g = opt_game(grades={"us": "veteran", "sov": "regulars"})
    st = opt_state(g, [unit("V", "bmp-2", "us", ROUGH, 0, command="MOVE"), unit("E", "t-80bv", "sov", ENEMY, 5)],
                   dice=[50])
    assert st.game.units[0].type.target_size == -1
    act(st, "move V")
    act(st, "search V phd 0")
    assert any("roll 50-30" in e for e in st.events)
