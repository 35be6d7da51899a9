"""MBT Advanced Game direct-fire smoke (MBT 6.1.4.3.10) and optional rule 7.22 Infantry Smoke: cases found by
mutation testing (issue 12) that no other test pinned down, through positions and the legal actions."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_arty_fixtures import FO, TARGET, act, arty_state, calls, unit  # noqa: E402


@pytest.mark.parametrize("rng, offered", [(1, True), (2, False)])
def test_engineers_fire_smoke_into_an_adjacent_hex_only(rng, offered):
    # MBT 6.1.4.3.10: Engineers place smoke in an adjacent hex (the US engineer squad, an enemy 1 or 2 hexes away)
    a, b, d = clear_pair(rng)
    st = arty_state([unit("E", "us-engineer-squad", "us", a, d, command="FIRE"),
                     unit("T", "sov-mr-squad", "sov", b, 0)], phase="direct-fire-first")
    assert (f"smoke E at {st.game.label(st.hex[1])}" in calls(st)) is offered
    assert "fire E at T rifles:GP" in calls(st)


@pytest.mark.parametrize("card, grade, limit", [("us-mech-squad", "veteran", 6), ("us-mech-squad", "green", 4),
                                                ("us-mech-squad", "seasoned", 5), ("us-engineer-squad", "seasoned", 8)])
def test_infantry_smoke_ammo_limit_by_grade_and_engineers(card, grade, limit):
    # MBT 7.22.2: Infantry Smoke rolls (10) against S5, +1 Elite/Veteran, -1 Green/Raw, +3 Engineer: at or under
    # it the smoke is placed
    def placed(roll):
        st = arty_state([unit("S", card, "us", FO, 2, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5)],
                        phase="direct-fire-first", dice=[roll] + [50] * 10, optional=("infantry-smoke",),
                        grades={"us": grade, "sov": "regulars"})
        act(st, "smoke S")
        return bool(st.arty.clouds)

    assert placed(limit) and not placed(limit + 1)
