"""MBT Advanced Game leg, towed and transported units: cases found by mutation testing (issue 12) that no other
test pinned down, through positions and the public API. Expected values come from the rulebook (MBT 5.16.2.3,
6.5.2.7, 6.5.4.2.3, 6.6.1, 6.6.7, 6.6.10) and the ruleset tables."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402
from towed_fixtures import towed_state  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.engine.codes import DEAD, ON  # noqa: E402

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


# ---------------------------------------------------------------- Close Assault (MBT 6.6.1.1)
CA_LINE = re.compile(r"close assaults T \(GP (\d+) vs GPD (\d+)\): roll (\d+)([+-]\d+) = (-?\d+) vs N (-?\d+) / S "
                     r"(-?\d+): (\w+)")


def _assault(attacker, target, a=None, b=None, dice=(50,) + (100,) * 6, grades=None, **t_status):
    if a is None:
        a, b, _ = clear_pair(1)
    st = adv_state([unit("I", attacker, "us", a, 0, command="MOVE"), unit("T", target, "sov", b, 0, **t_status)],
                   phase="close-combat", to_act="us", dice=dice, grades=grades or {"us": "seasoned", "sov": "seasoned"})
    act(st, "assault I T")
    m = CA_LINE.search(next(e for e in st.events if "close assaults" in e))
    return st, {"gp": int(m.group(1)), "gpd": int(m.group(2)), "net": int(m.group(4)), "result": m.group(8)}


@pytest.mark.parametrize("attacker, gp", [("us-mech-squad", 8), ("us-mech-half-squad", 4), ("us-fo-section", 2)])
def test_close_assault_gp_factor_by_the_attackers_size(attacker, gp):
    # MBT 6.6.1.1.1: common GP factors by the primary attacker's size: squad 8, half-squad 4, section 2
    assert _assault(attacker, "m113")[1]["gp"] == gp


@pytest.mark.parametrize("target, modifier", [("m106", 20), ("m981", 20)])
def test_close_assault_p_type_and_c_indicator_plus_20(target, modifier):
    # MBT 6.6.1.1.2: Vs. P-Type Vehicle +20 (M106); Vs. Vehicle with the C indicator +20 (M981 FISTV, an A-Type
    # like the M113, both GPD 3)
    base = _assault("us-mech-squad", "m113")[1]
    other = _assault("us-mech-squad", target)[1]
    assert other["gpd"] == base["gpd"] == 3 and other["net"] - base["net"] == modifier


def test_close_assault_uphill_minus_10():
    # MBT 6.6.1.1.2: Uphill Attack -10 when the target is 1 Height above the attacker (2B9 height 0 -> 2B8 height 1)
    up = _assault("us-mech-squad", "m113", "2B9", "2B8")[1]
    down = _assault("us-mech-squad", "m113", "2B8", "2B9")[1]
    assert up["net"] - down["net"] == -10


def test_close_assault_effective_result_rule_of_5s_and_10s():
    # MBT 6.6.1.1.3: an Effective result ending in 5 Damages the vehicle (roll (10) 1-4 Turret), ending in 0 is a
    # Track hit (the crew checks Bail Out); M113, GPD 3 vs GP 8
    probe = _assault("us-mech-squad", "m113")[0]
    n, s = probe.game.ag.gp_crt[(8, 3)]
    def x_ending(digit):
        x = s + 1
        return x + (digit - x) % 10
    five = _assault("us-mech-squad", "m113", dice=(x_ending(5), 3, 100, 100))
    zero = _assault("us-mech-squad", "m113", dice=(x_ending(0), 100, 100))
    assert five[1]["result"] == "DAMAGE" and five[0].tdmg[1] and five[0].st[1] == ON
    assert zero[1]["result"] == "TRACK" and zero[0].track[1]
