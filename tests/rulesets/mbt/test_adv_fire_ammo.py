"""MBT Advanced Game Ammo Limits of direct fire (MBT 5.16.2, 5.16.2.1, 5.16.2.6) through positions and the public
API: the T-80BV's A9 G9 (rolled) and the M150's ITOW A10 (counted)."""
from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_fire_fixtures import A, B, D, FACE_SHOOTER, act, idx_of, legal_texts, opt_state, unit  # noqa: E402


def _net(st, gp=False) -> int:
    e = next(e for e in st.events if e.startswith("S fires"))
    return int(re.search(r"roll \d+([+-]\d+) =" if gp else r"net ([+-]\d+)", e).group(1))


@pytest.mark.parametrize("ammo, gp, modifier", [("main:APFSDS", False, -3), ("main:HE", True, -10)])
def test_t80bv_ammo_limit_roll_of_10(ammo, gp, modifier):
    # MBT 5.16.2.1 example: the T-80BV (A9 G9) rolls (10) before the combat: a 10 is above 9, the shot resolves
    # with the Ammo Limit modifier (AP -3, GP -10); a 9 is within the limit
    def fire(roll):
        st = opt_state([unit("S", "t-80bv", "sov", A, D, command="FIRE"), unit("T", "m1", "us", B, FACE_SHOOTER)],
                       to_act="sov", dice=[roll, 50, 100, 100])
        act(st, f"fire S at T {ammo}")
        assert ("Ammo limit S " + ("G" if gp else "A"), roll) in st.dice.history
        return _net(st, gp)

    assert fire(10) - fire(9) == modifier


def test_unlimited_weapons_roll_nothing():
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)],
                   dice=[100])
    act(st, "fire S at T main:APFSDS")
    assert not any(label.startswith("Ammo limit") for label, _ in st.dice.history)


def test_ammo_limit_reduces_rof_to_n():
    # MBT 5.16.2.1: above the limit the rate of fire is N (a game copy's T-80BV gun at ROF R)
    st = opt_state([unit("S", "t-80bv", "sov", A, D, command="FIRE"), unit("T", "m1", "us", B, FACE_SHOOTER)],
                   to_act="sov", dice=[10, 1, 100, 100, 100, 100])
    s = idx_of(st, "S")
    spec = st.game.units[s]
    rows = tuple(dataclasses.replace(r, rof="R") if r.weapon == "main" else r for r in spec.type.ap)
    st.game.units[s] = dataclasses.replace(spec, type=dataclasses.replace(spec.type, ap=rows))
    act(st, "fire S at T main:APFSDS")
    assert any(e.startswith("S fires") and ": 1 hit(s)" in e for e in st.events), st.events


def test_m150_itow_missiles_are_counted():
    # MBT 5.16.2.6: a vehicle's ATGM limit above 9 is the number carried (M150 ITOW A10): no roll, a count;
    # with none left the launcher may not fire
    st = opt_state([unit("S", "m150", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FACE_SHOOTER)],
                   dice=[100])
    s = idx_of(st, "S")
    st.ammo[(s, "tow")] = 9  # nine fired before (no position status for it)
    assert "fire S at T tow:ITOW" in legal_texts(st)
    act(st, "fire S at T tow:ITOW")
    assert st.ammo[(s, "tow")] == 10 and not any(label.startswith("Ammo limit") for label, _ in st.dice.history)
    row = next(r for r in st.game.units[s].type.ap if r.key == "tow:ITOW")
    assert not st.weapon_ok(s, idx_of(st, "T"), row)


@pytest.mark.parametrize("mode, rolled", [("roll", True), ("count", False)])
def test_atgm_limits_of_9_or_less_by_option(mode, rolled):
    # MBT 5.16.2.6 (Q31, option atgm-ammo-limits): the T-80BV's Songster shares its gun's A9: rolled, or counted
    st = opt_state([unit("S", "t-80bv", "sov", A, D, command="FIRE"), unit("T", "m1", "us", B, FACE_SHOOTER)],
                   to_act="sov", dice=[1, 100], options={"atgm-ammo-limits": mode})
    act(st, "fire S at T main:Songster_(Kobra)")
    s = idx_of(st, "S")
    assert any(label == "Ammo limit S A" for label, _ in st.dice.history) is rolled
    assert (st.ammo.get((s, "main"), 0) == 1) is not rolled


def test_ammo_limit_prefix_of_each_row():
    # MBT 5.16.2: A for AP, APDS, APFSDS (and vehicle ATGMs), G for GP, H for HEAT and HESH
    from studio.rulesets.mbt.engine.ammo import prefix_of

    st = opt_state([unit("S", "m1", "us", A, D)])
    rows = {r.key: r for r in st.game.units[0].type.ap}
    assert [prefix_of(rows[k]) for k in ("main:APFSDS", "main:HEAT", "main:HEAT-MP", "mmg:GP")] == ["A", "H", "H", "G"]


def test_short_of_ammo_is_in_the_fingerprint():
    st = opt_state([unit("S", "t-80bv", "sov", A, D, command="FIRE"), unit("T", "m1", "us", B, FACE_SHOOTER)],
                   to_act="sov")
    base = st.fingerprint()
    st.short = (0, 1)
    assert st.fingerprint() != base
