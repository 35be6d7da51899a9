"""MBT Advanced Game leg, towed and transported units: cases found by mutation testing (issue 12) that no other
test pinned down, through positions and the public API. Expected values come from the rulebook (MBT 5.16.2.3,
6.5.2.7, 6.5.4.2.3, 6.6.1, 6.6.7, 6.6.10) and the ruleset tables."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402
from towed_fixtures import towed_state  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.engine.codes import DEAD  # noqa: E402

FAR = "2P13"


# ---------------------------------------------------------------- Ammo Limits of leg and towed units (MBT 5.16.2.3)
@pytest.mark.parametrize("steps, supplied", [(0, True), (1, True), (2, False)])
def test_towed_ammo_is_unlimited_within_1_hex_of_its_original_carrier(steps, supplied):
    # MBT 5.16.2.3: a towed unit away from its ammo dump (its set-up hex) has unlimited ammo while its original
    # transporting vehicle is within 1 hex (the SPG-9: S8 otherwise); only the original carrier supplies it
    g0 = towed_state([unit("G", "spg-9", "sov", "2A2", 2)]).game
    moved = neighbour(g0.map.hex("2A2"), 2)          # the hex the gun is manhandled into
    far = moved
    for _ in range(steps):
        far = neighbour(far, 2)
    # V first (unit 0) and W last: "no carrier" (-1) must not read the last unit, nor carrier 0 count as none
    st = towed_state([unit("V", "bmp-1", "sov", g0.label(far), 2), unit("G", "spg-9", "sov", "2A2", 2, command="MOVE"),
                      unit("E", "m1", "us", FAR, 5), unit("W", "bmp-1", "sov", g0.label(moved), 2)],
                     phase="move-first", to_act="sov")
    row = st.game.units[1].type.ap[0]
    act(st, "move G")
    act(st, "fwd G")
    assert st.hex[1] == moved and st.ammo_limit(1, row) == 8   # W (not its carrier) beside it supplies nothing
    st.game.initial_carrier[1] = 0                           # V: the gun's original transporting vehicle
    assert (st.ammo_limit(1, row) is None) is supplied
    st.st[0] = DEAD                                          # knocked out: the limit applies at once
    assert st.ammo_limit(1, row) == 8
