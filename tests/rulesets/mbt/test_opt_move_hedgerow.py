"""MBT Optional Rule 7.10 Hedgerow Spotting, on the everything-on scenario's board 7 (hedgerows between rows 5 and
6 of its N-R columns), through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

SCENARIO = "mbt-opt-everything"
HEX, SIDE, ACROSS = "7N6", 0, "7N5"   # a Clear hex with a hedgerow on its hexside 0 (towards 7N5)
SEEN = "7M1"                          # hidden from 7N6 by that hedgerow, seen without it
FAR = "4T13"


def _game(rules=("hedgerow-spotting",), options=None):
    return opt_game(rules, options=options, scenario=SCENARIO)


def test_inb_spends_the_move_and_keeps_the_hex():
    st = opt_state(_game(), [unit("L", "us-mech-squad", "us", HEX, 3, command="MOVE"),
                             unit("E", "t-80bv", "sov", FAR, 5)])
    act(st, "move L")
    assert f"inb L {SIDE}" in legal(st)
    act(st, f"inb L {SIDE}")
    assert st.inb[0] == SIDE and st.hex[0] == st.game.map.hex(HEX)
    off = opt_state(_game(rules=()), [unit("L", "us-mech-squad", "us", HEX, 3, command="MOVE"),
                                      unit("E", "t-80bv", "sov", FAR, 5)])
    act(off, "move L")
    assert not any(a.startswith("inb") for a in legal(off))


def test_inb_unit_spots_and_is_spotted_through_its_hedgerow():
    # MBT 7.10: it spots and is spotted as if the hedgerow were absent
    g = _game()
    units = [unit("L", "us-mech-squad", "us", HEX, 3), unit("T", "t-80bv", "sov", SEEN, 2)]
    plain = opt_state(g, units, phase="spotting", to_act=None)
    assert 1 not in plain.spots[0]
    inb = opt_state(g, [dict(units[0], status={"inb": SIDE}), units[1]], phase="spotting", to_act=None)
    assert 1 in inb.spots[0]


def test_inb_cover_heavy_for_spotting_and_medium_for_defense():
    g = _game()
    st = opt_state(g, [unit("L", "us-mech-squad", "us", HEX, 3, inb=SIDE), unit("E", "t-80bv", "sov", FAR, 5)])
    ag = st.game.units[0].type.ag
    assert st.leg_gp_defense(0) == ag.gpd_cover["medium"]
    plain = opt_state(g, [unit("L", "us-mech-squad", "us", HEX, 3), unit("E", "t-80bv", "sov", FAR, 5)])
    assert st.ag_spot_range(0, 0, 0) < plain.ag_spot_range(0, 0, 0)


def test_leaving_inb_by_option():
    # MBT 7.10 (AMBIG, option hedgerow-exit): a Move command ends INB in its own hex or across the hedgerow
    for option, where in (("own-hex", HEX), ("far-side", ACROSS)):
        g = _game(options={"hedgerow-exit": option})
        st = opt_state(g, [unit("L", "us-mech-squad", "us", HEX, 3, command="MOVE", inb=SIDE),
                           unit("E", "t-80bv", "sov", FAR, 5)])
        act(st, "move L")
        assert st.inb[0] == -1 and st.hex[0] == g.map.hex(where)
