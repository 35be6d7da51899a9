"""MBT Advanced Game: a vehicle in an Improved Position is Hull Down from every angle but its Rear (MBT 6.1.4.3.7,
6.5.2.2.3), the open angle fixed by its set-up facing or the way it drove in, not by a pivot; through positions
(scenario extension ``improved_positions``), play and the AP hit locations."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, opt_game, opt_state, unit  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.engine.hull_down import HD  # noqa: E402

A, B, D = clear_pair(6)  # B lies in direction D from A


def _state(ip=True, facing=D, phase="direct-fire-first", **status):
    """An M1 in the Improved Position at B, facing ``facing``; T-80BVs in front (beyond B) and behind (at A)."""
    g = opt_game(improved_positions=[B] if ip else [])
    front = g.label(neighbour(neighbour(g.map.hex(B), D), D))
    units = [unit("V", "m1", "us", B, facing, **status), unit("F", "t-80bv", "sov", front, (D + 3) % 6),
             unit("R", "t-80bv", "sov", A, D)]
    return opt_state(g, units, phase=phase, to_act="us" if phase.startswith("move") else None)


def _hd(st, shooter):
    from studio.rulesets.mbt.engine.ag_fire import hit_angle

    return st.hull_down_state(shooter, 0, hit_angle(st.hex[0], st.fac[0], st.hex[shooter]))


def test_hull_down_from_every_angle_but_the_rear():
    st = _state()
    assert _hd(st, 1) == HD   # from the front
    assert _hd(st, 2) == 0    # from the rear (the position's open side)
    plain = _state(ip=False)
    assert _hd(plain, 1) == 0  # no position, no Hull Down


def test_a_pivot_leaves_the_open_angle_where_it_was():
    # MBT 6.1.4.3.7: the non-HD angle remains in its original position
    st = _state(phase="move-first", command="MOVE")
    act(st, "move V")
    act(st, "turn V left")
    act(st, "turn V left")
    act(st, "turn V left")  # now facing the T-80BV at A
    assert st.fac[0] == (D + 3) % 6
    assert _hd(st, 2) == 0 and _hd(st, 1) == HD


def test_driving_in_the_open_angle_faces_where_it_came_from():
    # a vehicle entering the position moving in direction D (from the hex toward A): its rear toward A stays open
    g = opt_game(improved_positions=[B])
    front = g.label(neighbour(neighbour(g.map.hex(B), D), D))
    start = g.label(neighbour(g.map.hex(B), (D + 3) % 6))
    st = opt_state(g, [unit("V", "m1", "us", start, D, command="MOVE"), unit("F", "t-80bv", "sov", front, (D + 3) % 6),
                       unit("R", "t-80bv", "sov", A, D)], phase="move-first", to_act="us")
    act(st, "move V")
    act(st, "fwd V")
    assert st.hex[0] == g.map.hex(B)
    assert _hd(st, 1) == HD and _hd(st, 2) == 0


def test_reversing_in_the_front_faces_the_entrance():
    # backing in from the far side: its open angle is toward where it came from, its own Front
    g = opt_game(improved_positions=[B])
    far = neighbour(g.map.hex(B), D)
    st = opt_state(g, [unit("V", "m1", "us", g.label(far), D, command="MOVE"),
                       unit("F", "t-80bv", "sov", g.label(neighbour(far, D)), (D + 3) % 6),
                       unit("R", "t-80bv", "sov", A, D)], phase="move-first", to_act="us")
    act(st, "move V")
    act(st, "rev V")
    assert st.hex[0] == g.map.hex(B) and st.fac[0] == D
    assert _hd(st, 1) == 0 and _hd(st, 2) == HD
