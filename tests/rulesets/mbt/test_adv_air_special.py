"""MBT 6.7.9 special combats against helicopters and MA63 helicopter guns, through positions: a landed helicopter is
+2 Size for AP direct fire (6.7.9.2); helicopters at NOE or landed are attacked in GP SHEAFs and iron, high-drag and
incendiary bomb patterns, landed ones also by ICM and cluster bombs, never by strafing (6.7.9.1); a moving
helicopter's guns take their SB modifier, a hovering one's not, and a landed one fires only S120 guns (MA63, on the
``ah-1s-testbed`` card: the sample helicopter cards list no SB factor and no S120 gun)."""
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


def _if_at_helicopter(alt: str, call: str, dice, **kw):
    from mbt_arty_fixtures import TARGET, arty_state, if_units

    st = arty_state(if_units(extra=[unit("H", "mi-24", "sov", TARGET, 5)], **kw), dice=dice)
    h = st.game.uindex["H"]
    st.heli_alt[h] = alt  # a test placement: positions start helicopters at NOE
    act(st, call)
    return st, h


@pytest.mark.parametrize("alt, hit", [("noe", True), ("landed", True), ("low", False)])
def test_gp_indirect_fire_attacks_noe_and_landed_helicopters(alt, hit):
    # MBT 6.5.1.5 / 6.7.9.1: GP SHEAFs attack helicopters at NOE or landed with the helicopter results (a roll of
    # 99 on the GP Combat Results Table: Effective, ending in 9 -> shot down (no damage first), the crash attacks
    # the hex; the T-80BV in the hex rolls 1 first)
    need_response = 2  # FO / Attached response 2 (test_fo_attached_response_2)
    st, h = _if_at_helicopter(alt, "call M by F at 4E1", [need_response, 1, 99, 5, 50, 50, 50])
    assert bool(events(st, "IF at H ")) == hit, st.events
    if hit:
        line = next(e for e in st.events if e.startswith("IF at H "))
        assert "-> shot down" in line or "-> destroyed" in line, line
        assert st.st[h] != 1


def test_a_helicopter_suppressed_by_indirect_fire_is_narrated_so():
    # the S-Effect of a GP SHEAF at an NOE helicopter Suppresses it (MBT 6.7.8.2.2 results, 6.7.9.1): roll 50 vs
    # the Mi-24's GPD 4 (placeholder)
    st, h = _if_at_helicopter("noe", "call M by F at 4E1", [2, 1, 50])
    assert st.sup[h] and events(st, "H is Suppressed (indirect fire)"), st.events


@pytest.mark.parametrize("alt, hit", [("noe", False), ("landed", True)])
def test_icm_attacks_landed_helicopters_only(alt, hit):
    # MBT 6.7.9.1: "ICM (landed only)"; the battery's response and ICM ammo rolls as in test_icm_plus_twenty
    from mbt_arty_fixtures import FAR

    st, h = _if_at_helicopter(alt, "call m109-battery-1 by F at 4E1 ICM open", [6, 1] + [50] * 9, fo_hex=FAR)
    assert events(st, "IF at T ")
    assert bool(events(st, "IF at H ")) == hit, st.events


# ------------------------------------------------------------------ MA63: helicopter guns (MBT 6.7.6.2)

def _gun_net(card: str, start: str, dice=(50,)):
    """The GP net modifier of helicopter H's cannon at the T-80BV after flying from ``start`` to 2A4 (a hover when
    it starts there)."""
    units = [unit("H", card, "us", start, 2), unit("T", "t-80bv", "sov", "2A8", 5)]
    st = adv_state(units, phase="air-1", to_act="us", dice=list(dice))
    act(st, "fly H 2A4")
    assert st.hover[0] == (start == "2A4")
    act(st, "fire H at T cannon:HEI")
    line = next(e for e in st.events if "roll 50" in e)
    return int(line.split("roll 50")[1].split(" =")[0]), st


def test_ma63_a_moving_helicopter_applies_its_guns_stabilization_a_hovering_one_not():
    # MA63 / MBT 6.7.6.2: helicopter guns have SB factors applied like a ground unit's Short Halt; a helicopter
    # firing while hovering applies none. The test-bed card's cannon is SB 1 (placeholder): GP Short Halt SB 1 -5
    moving, st = _gun_net("ah-1s-testbed", "2A1")
    hovering, _ = _gun_net("ah-1s-testbed", "2A4")
    assert moving - hovering == st.game.ag.gp_mod["short-halt-sb1"] == -5
    # the sample AH-1S card lists no SB factor: no modifier either way
    plain_moving, _ = _gun_net("ah-1s", "2A1")
    plain_hovering, _ = _gun_net("ah-1s", "2A4")
    assert plain_moving == plain_hovering == hovering


def test_ma63_only_s120_guns_fire_while_landed():
    # MBT 6.7.6.2: a landed helicopter fires only its S120 (side-mounted TT 120) guns: the door gun, not the cannon
    units = [unit("H", "ah-1s-testbed", "us", "2A1", 2), unit("T", "t-80bv", "sov", "2A7", 5)]
    st = adv_state(units, phase="air-1", to_act="us")
    act(st, "fly H 2A4 land")
    fires = {str(a) for a in st.legal_actions() if a[0] == "fire"}
    assert fires == {"fire H at T door:Ball"}, fires
    flying = adv_state(units, phase="air-1", to_act="us")
    act(flying, "fly H 2A4")
    assert "fire H at T cannon:HEI" in {str(a) for a in flying.legal_actions()}
