"""MBT Advanced Game: advancing attacks combined with hex-mates (MBT 6.6.1.1, 6.6.1.2, 6.6.1.2.2): units of one
hex attacking one target combine, also when they advance; ``assault A T advance HEX all``; through positions in the
Close Assault / Hand-to-Hand Combat Step, legal actions, play and the narration."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402

A2, B2, D2 = clear_pair(2)
DICE = [80, 10, 80, 10, 80, 10, 80, 10]


def _step(mate="us-mech-half-squad", mate_status=None, dice=DICE):
    units = [unit("L", "us-mech-squad", "us", A2, D2, command="MOVE"),
             unit("H", mate, "us", A2, D2, **(mate_status or {"command": "MOVE"})),
             unit("T", "sov-mr-squad", "sov", B2, (D2 + 3) % 6)]
    return adv_state(units, phase="close-combat", to_act="us", dice=list(dice))


def _legal(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def _first_hth(st) -> int:
    ev = next(e for e in st.events if " hand-to-hand with " in e)
    ra, x = map(int, re.search(r": (\d+) -> (-?\d+) vs", ev).groups())
    return x - ra


def test_hex_mates_may_advance_together():
    st = _step()
    alls = [a for a in _legal(st) if a.startswith("assault L T advance ") and a.endswith(" all")]
    assert alls
    act(st, alls[0])
    h = st.game.map.hex(alls[0].split()[4])
    # both advanced (and, the target eliminated, took its hex together)
    assert st.hex[0] == st.hex[1] and st.hex[0] in (h, st.game.map.hex(B2)) and st.moved[1]
    assert any("L, H advance to" in str(e) for e in st.events)


def test_a_mate_that_may_not_assault_is_no_option():
    # a mate without a Move command may not attack (MBT 6.6.1.2): no combined advance
    st = _step(mate_status={"command": "FIRE"})
    assert not any(a.endswith(" all") and " advance " in a for a in _legal(st))


def test_the_combined_advance_adds_the_half_squad_and_the_advance_modifier():
    # MBT 6.6.1.2.2: Advance Attack -10; each additional half-squad +10 (table close-combat-extra)
    alone, both = _step(), _step()
    hexes = sorted(a.split()[4] for a in _legal(alone) if a.startswith("assault L T advance ") and len(a.split()) == 5)
    act(alone, f"assault L T advance {hexes[0]}")
    act(both, f"assault L T advance {hexes[0]} all")
    for st in (alone, both):
        while st.phase_id() == "overwatch" or (st.legal_actions() and str(st.legal_actions()[0]).startswith("ow ")):
            st.play(next(a for a in st.legal_actions() if str(a) == "pass"))
    assert _first_hth(both) - _first_hth(alone) == 10
