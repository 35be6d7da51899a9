"""MBT optional rule 7.28 Counter Battery, the parts added by OPTB: victory points of batteries Knocked Out and of
counter-battery assets eliminated go to the opposing side (7.28.2, 7.28.3), counted in the outcome and not as unit
losses; counter-counter battery locates the asset with its own card's data."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import FAR, act, arty_state, if_units  # noqa: E402

BAT = "m109-battery-1"
CB = [{"side": "sov", "battery": "2s1-battery"}, {"side": "us", "battery": "m109-battery"}]
ON = ("counter-battery",)


def _play(dice, optional=ON):
    st = arty_state(if_units(fo_hex=FAR), dice=list(dice) + [5] * 10, optional=optional, counter_battery=CB)
    before = st.outcome()
    act(st, f"call {BAT} by F at 4E1")
    return st, before


def test_knocked_out_battery_gives_its_points_to_the_opposing_side():
    # MBT 7.28.2: located (10 + 10 SP <= 40), effect 90: Knocked Out; "its listed Victory Points are awarded to the
    # opposing side" (the M109 card lists 20); "its loss does not count for Morale purposes": no unit loss.
    # The counter-counter battery roll 99 misses.
    st, before = _play([6, 50, 10, 90, 99])
    assert st.arty.bat[0] == 3
    us, sov = st.game.sides.index("us"), st.game.sides.index("sov")
    after = st.outcome()
    assert after.victory_points[sov] - before.victory_points[sov] == 20 and after.victory_points[us] == before.victory_points[us]
    assert list(st.lost) == list(before.losses)


def test_damaged_battery_scores_nothing_and_the_rule_off_scores_nothing():
    st, before = _play([6, 50, 30, 60, 99])  # Damaged
    assert st.arty.bat[0] == 2 and st.outcome().victory_points == before.victory_points
    off, before = _play([6, 50, 10, 90, 99], optional=())
    assert off.outcome().victory_points == before.victory_points


def test_eliminated_counter_battery_asset_gives_its_points():
    # MBT 7.28.3: the US asset locates the Soviet asset (20 + 10, the 2S1 card is SP, <= 40) and damages it (70):
    # eliminated; its listed points (the 2S1 card: 20) go to the US side, with the M109's 20 to the Soviet side
    st, before = _play([6, 50, 10, 90, 20, 70])
    assert st.arty.cb == (False, True)
    us, sov = st.game.sides.index("us"), st.game.sides.index("sov")
    after = st.outcome()
    assert after.victory_points[us] - before.victory_points[us] == 20 and after.victory_points[sov] - before.victory_points[sov] == 20
    assert any("roll 20+10 vs 40: located" in e for e in st.events), st.events


def test_counter_counter_battery_reads_the_assets_self_propelled_modifier():
    # 31 + 10 (the targeted asset's 2S1 card is SP) = 41 > 40: not located
    st, _ = _play([6, 50, 10, 90, 31, 70])
    assert st.arty.cb == (True, True)


def test_counter_counter_battery_ignores_a_suppression_result():
    # MBT 7.28.3: "a Suppression result is ignored": located (20 + 10 <= 40), effect 50 (01-50 Suppressed): the
    # asset stays in play and scores nothing
    st, before = _play([6, 50, 10, 90, 20, 50])
    assert st.arty.cb == (True, True)
    us = st.game.sides.index("us")
    assert st.outcome().victory_points[us] == before.victory_points[us]
