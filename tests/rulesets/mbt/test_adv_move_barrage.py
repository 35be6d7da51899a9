"""MBT Advanced Game barrage movement (MBT 6.6.6; example MA41), through positions, play and the narration: the
M106 of the indirect-fire fixtures lands a one-hex on-map barrage on 4E1; a BMP-2 in 4E2 faces it."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import act, arty_state, calls, events, if_units, unit  # noqa: E402

BAT = "m109-battery-1"


def _to_move(st):
    """Pass on to the BMP-2's move and select it."""
    for _ in range(30):
        got = calls(st)
        if "move V" in got:
            act(st, "move V")
            return st
        act(st, "pass" if "pass" in got else got[0])
    raise AssertionError("the BMP-2 never moves")


def _barrage(call="call M by F at 4E1", dice=(2, 50, 50, 99, 99, 99, 99, 99, 99), mover="bmp-2", hex_="4E2"):
    st = arty_state(if_units() + [unit("V", mover, "sov", hex_, 0, command="MOVE")], dice=list(dice))
    act(st, call)
    return _to_move(st)


def mv(st, text: str):
    """Play ``text`` once the Overwatch windows before it are passed."""
    while text not in calls(st) and "pass" in calls(st):
        act(st, "pass")
    act(st, text)


def _attacks(st, name="V") -> list[str]:
    return events(st, f"IF at {name} ")


def test_moving_into_the_sheaf_is_attacked_at_once():
    st = _barrage()
    assert not _attacks(st)
    mv(st, "fwd V")
    assert events(st, "V moves into the barrage of M at 4E1")
    assert len(_attacks(st)) == 1


def test_attacked_once_per_source_however_often_it_enters():
    # MBT 6.6.6 (MA41): once per IF unit and SHEAF, not per hex entered; pivoting attacks nothing. The mover's
    # attack rolls 1 (no effect): a Suppressed mover keeps only half its remaining allowance (6.6.2, MA31)
    st = _barrage(dice=(2, 50) + (1,) * 8)
    mv(st, "fwd V")
    mv(st, "rev V")
    mv(st, "fwd V")
    mv(st, "turn V left")
    assert len(_attacks(st)) == 1


def test_units_that_stay_under_the_barrage_are_not_attacked_again():
    st = _barrage()
    mv(st, "done V")
    assert len(_attacks(st, "T")) == 1 and not _attacks(st)


def test_no_target_moving_modifier_within_a_barrage():
    # MBT 6.6.6, 6.5.4.3: the vehicle moving within a barrage takes no -20 Target Vehicle Moving (IF); only the
    # A-Type modifier of the BMP-2 applies
    st = _barrage()
    mv(st, "fwd V")
    net = int(re.search(r"roll \d+([+-]\d+) =", _attacks(st)[0]).group(1))
    m = st.game.ag.gp_mod
    assert net == m["target-a-type"]
    assert st.game.ag.if_mod["target-moving-if"] != 0


def test_overlapping_sheafs_attack_once_each():
    # the mortar's one-hex SHEAF on 4E1 inside the battery's Closed SHEAF (4E1, 4E2 and around): a BMP-2 driving
    # from 4E3 through 4E2 into 4E1 is attacked once by each source, twice in all (MA41 'overlapping patterns')
    st = arty_state(if_units() + [unit("V", "bmp-2", "sov", "4E3", 0, command="MOVE")],
                    dice=[2, 50, 6, 50] + [1] * 20)
    act(st, "call M by F at 4E1")
    act(st, f"call {BAT} by F at 4E1")
    g = st.game
    assert g.map.hex("4E2") in st.bfires[1].hexes and g.map.hex("4E3") not in st.bfires[1].hexes
    assert not _attacks(st)
    _to_move(st)
    mv(st, "fwd V")
    assert len(_attacks(st)) == 1 and events(st, f"V moves into the barrage of {BAT} at 4E2")
    mv(st, "fwd V")
    assert len(_attacks(st)) == 2 and events(st, "V moves into the barrage of M at 4E1")


def test_barrages_are_lifted_next_turn():
    st = _barrage()
    assert st.bfires
    st._start_turn()
    assert not st.bfires and not st.bhit


def test_a_crawler_moving_into_a_barrage_is_attacked_at_plus_10():
    # MBT 6.6.4.3, 6.6.6: a crawl is a move into a new hex; indirect fire at a crawling unit +10
    def attacked(verb: str) -> int:
        squad = unit("V", "sov-mr-squad", "sov", "4E2", 0, command="MOVE", full_cover=True)
        st = arty_state(if_units() + [squad], dice=[2, 50, 50] + [99] * 10)
        act(st, "call M by F at 4E1")
        _to_move(st)
        mv(st, verb)
        ev = _attacks(st)
        assert len(ev) == 1 and events(st, "V moves into the barrage of M at 4E1")
        return int(re.search(r"roll \d+([+-]\d+) =", ev[0]).group(1))

    assert attacked("crawl V 4E1") == attacked("fwd V") + 10
