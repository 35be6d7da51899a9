"""MBT Advanced Game Hull Down (MBT 6.6.9, 6.5.2.2.3): cases found by mutation testing (issue 12) that no other
test pinned down, through positions and play."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402


@pytest.mark.parametrize("command, kept", [("SH", False), ("OW", True), ("FIRE", True), ("NC", True)])
def test_a_short_halt_command_abandons_the_position_others_keep_it(command, kept):
    # MBT 6.6.9: a Move or Short Halt command abandons a Hull Down position at the end of the Command Phase, even
    # if the vehicle stays; Fire, Overwatch and N/C keep it (and its reversed facing)
    a, b, d = clear_pair(5)
    st = adv_state([unit("V", "m1", "us", a, d, hull_down="hd-rev"), unit("E", "t-80bv", "sov", b, (d + 3) % 6)],
                   phase="command")
    assert st.hd[0] == 1 and st.hdrev[0]
    act(st, f"command V {command}")
    act(st, "command E NC")
    assert st.phase_id() == "initiative"
    assert (st.hd[0], st.hdrev[0]) == ((1, True) if kept else (0, False))


def test_a_reversed_position_protects_from_the_rear_only():
    # MBT 6.6.9, 6.5.2.2.3: a vehicle that backed into its position is protected through the Rear and Rear/Side
    # angles, not the Front ones
    a, b, d = clear_pair(5)
    st = adv_state([unit("S", "t-80bv", "sov", a, d), unit("V", "m1", "us", b, d, hull_down="hd-rev")],
                   phase="command")
    assert st.hull_down_state(0, 1, "rear") == 1 and st.hull_down_state(0, 1, "rear_side") == 1
    assert st.hull_down_state(0, 1, "front") == 0 and st.hull_down_state(0, 1, "front_side") == 0
