"""MBT 6.7.9 special combats against helicopters and MA63 helicopter guns, through positions: a landed helicopter is
+2 Size for AP direct fire (6.7.9.2); helicopters at NOE or landed are attacked in GP SHEAFs and iron, high-drag and
incendiary bomb patterns, landed ones also by ICM and cluster bombs, never by strafing (6.7.9.1)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401  (autouse: each roll's die)
from mbt_adv_fixtures import act, adv_state, unit  # noqa: E402
from test_adv_air_fw import A10, events, fly, fw_state  # noqa: E402


def _landed(shooter="m1"):
    units = [unit("H", "mi-24", "sov", "2A1", 2), unit("M", shooter, "us", "2A8", 0, command="FIRE")]
    st = adv_state(units, phase="air-1", to_act="sov")
    act(st, "fly H 2A4 land")
    assert st.heli_alt[0] == "landed"
    return st


def test_a_landed_helicopter_is_plus_2_size_for_ap_direct_fire():
    # MBT 6.7.9.2: landed helicopters are attacked as S-Type vehicles, +2 Size for AP Direct Fire
    st = _landed()
    shots = st.fire_options(1, [0])
    row = next(r for t, r in shots if r.kind == "AP")
    landed, _band = st.hit_modifiers(1, 0, row, False)
    assert st.game.air.values["landed-heli-size"] == 2 and st.ap_target_size(0) == 2
    assert st.ap_target_size(1) == st.game.units[1].type.target_size  # a ground vehicle: its card's Size
    st.heli_alt[0] = "noe"  # the same shot at a flying helicopter would not have the +2 (nor be legal)
    flying, _band = st.hit_modifiers(1, 0, row, False)
    assert landed - flying == 2
    assert not st.fire_options(1, [0])


def _bombed(load: str, kind: str, alt: str):
    aircraft = ({**A10, "loads": [load]},)
    units = [unit("T", "t-80bv", "sov", "2B3", 0), unit("H", "ah-1s", "us", "2B4", 0)]
    st = fly(fw_state(units, aircraft=aircraft, dice=[1] * 6), "A-10A-1", "slow", "low" if kind == "strafe" else
             "medium", "2B1", "S", hexes=1)
    st.heli_alt[1] = alt
    act(st, f"attack A-10A-1 {kind} T")
    return st


@pytest.mark.parametrize("load, kind, alt, hit", [
    ("bomb", "bomb", "landed", True),        # iron bombs: NOE or landed
    ("bomb", "bomb", "noe", True),
    ("bomb", "bomb", "low", False),
    ("cluster", "cluster", "landed", True),  # cluster bombs: landed only
    ("cluster", "cluster", "noe", False),
])
def test_bomb_patterns_attack_noe_and_landed_helicopters(load, kind, alt, hit):
    # MBT 6.7.9.1: helicopters at NOE Altitude or landed in iron, high-drag, cluster (landed only) or incendiary
    # bomb patterns take normal GP fire (the landed one used to be skipped)
    st = _bombed(load, kind, alt)
    assert events(st, "A-10A-1>T")
    assert bool(events(st, "A-10A-1>H")) == hit, st.events


def test_strafing_never_attacks_a_helicopter():
    # MBT 6.7.9.1 lists bomb patterns only: a strafe pattern over an NOE helicopter attacks the tank alone
    aircraft = ({**A10, "loads": ["bomb"]},)
    units = [unit("T", "t-80bv", "sov", "2B3", 0), unit("H", "ah-1s", "us", "2B4", 0)]
    st = fly(fw_state(units, aircraft=aircraft, dice=[1] * 6), "A-10A-1", "slow", "low", "2B1", "S", hexes=1)
    act(st, "attack A-10A-1 strafe T")
    assert events(st, "A-10A-1>T") and not events(st, "A-10A-1>H"), st.events
