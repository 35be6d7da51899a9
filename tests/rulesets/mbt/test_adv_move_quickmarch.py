"""MBT Advanced Game quickmarch (MBT 6.6.4.2), through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.hexgrid import coords  # noqa: E402
from studio.model.maps import edge_key  # noqa: E402
from studio.rulesets.mbt.engine.opt_move_data import move_opt  # noqa: E402

ENEMY = "4T13"


def _line(codes: tuple):
    """Hexes a, b, c... in a line whose terrain codes are ``codes`` (no hexside features, same height)."""
    g = opt_game()
    for a in sorted(g.map.label_of):
        for d in range(6):
            hexes = [a]
            for _ in codes[1:]:
                hexes.append(coords.neighbour(hexes[-1], d))
            if all(h in g.map.label_of and g.map.terrain.get(h, "") == c and g.elev.get(h) == g.elev.get(a)
                   for h, c in zip(hexes, codes)) and \
                    all(g.features.get(edge_key(x, y)) is None and edge_key(x, y) not in g.roads
                        for x, y in zip(hexes, hexes[1:])):
                return [g.label(h) for h in hexes], d
    raise LookupError(codes)


CLEAR4, CD = _line(("C", "C", "C", "C"))
INTO_WOODS, WD = _line(("C", "W"))


def _squad(hexes, d, grade="veteran", dice=(), card="us-mech-squad", **status):
    g = opt_game(grades={"us": grade, "sov": "regulars"})
    st = opt_state(g, [unit("L", card, "us", hexes[0], d, command="MOVE", **status),
                       unit("E", "t-80bv", "sov", ENEMY, 5)], dice=dice)
    act(st, "move L")
    return st


def test_quickmarch_allowance_is_the_quickmarch_factor():
    # MBT 6.6.4.1-2: "2L 3": cross-country 2, quickmarch 3
    st = _squad(CLEAR4, CD)
    assert "quickmarch L" in legal(st)
    normal = st.mv_left
    act(st, "quickmarch L")
    assert st.mv_left == 3 > normal
    for _ in range(3):
        act(st, "fwd L")
    assert st.hex[0] == st.game.map.hex(CLEAR4[3])


def test_veteran_quickmarch_suppressed_on_01_40():
    # MBT 6.6.4.2: after the move a Veteran unit rolls (100): 01-40 Suppression/On
    mo = move_opt(opt_game())
    assert mo.qm_supp["veteran"] == 40
    st = _squad(CLEAR4, CD, dice=[40])
    act(st, "quickmarch L")
    act(st, "fwd L")
    act(st, "done L")
    assert st.sup[0] and any("quickmarch" in e for e in st.events)
    ok = _squad(CLEAR4, CD, dice=[41])
    act(ok, "quickmarch L")
    act(ok, "fwd L")
    act(ok, "done L")
    assert not ok.sup[0]


def test_quickmarch_only_through_clear_brush_crops_or_roads():
    # MBT 6.6.4.2: every hex entered must be Brush, Clear, Crops, Path or Road
    st = _squad(INTO_WOODS, WD)
    assert "fwd L" in legal(st)
    act(st, "quickmarch L")
    assert "fwd L" not in legal(st)


def test_no_quickmarch_when_suppressed_or_after_moving():
    # MBT 6.6.4.2: unsuppressed units only; the quickmarch is chosen before moving
    assert "quickmarch L" not in legal(_squad(CLEAR4, CD, suppression="on"))
    st = _squad(CLEAR4, CD)
    act(st, "fwd L")
    assert "quickmarch L" not in legal(st)
