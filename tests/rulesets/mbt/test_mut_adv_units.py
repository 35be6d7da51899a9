"""MBT Advanced Game leg, towed and transported units: cases found by mutation testing (issue 12) that no other
test pinned down, through positions and the public API. Expected values come from the rulebook (MBT 5.16.2.3,
6.5.2.7, 6.5.4.2.3, 6.6.1, 6.6.7, 6.6.10) and the ruleset tables."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402
from towed_fixtures import towed_state  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.engine.codes import CARRIED, DEAD, ON  # noqa: E402

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


# ---------------------------------------------------------------- transporting (MBT 6.6.7, 6.5.2.7.2)
def _legal(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def _carrier_move(carrier="m113", **passenger):
    a, _, d = clear_pair(5)
    units = [unit("C", carrier, "us", a, d, command="MOVE"), unit("P", "us-mech-squad", "us", a, d, carried_by="C",
                                                                  **passenger),
             unit("E", "t-80bv", "sov", "4T13", 5)]
    st = adv_state(units, phase="move-first", to_act="us")
    act(st, "move C")
    return st


def test_a_suppressed_passenger_may_not_make_an_emergency_bail_out():
    # MBT 6.6.7.1.2: only an unsuppressed passenger makes an Emergency Bail Out; it may still dismount
    st = _carrier_move(suppression="on")
    assert "bailout C P" not in _legal(st) and "dismount C P" in _legal(st)


def test_no_dismount_without_half_the_allowance_left():
    # MBT 6.6.7: dismounting costs the carrier half its allowance in the hex: with less left, no dismount
    st = _carrier_move()
    half = st.msa(0, st.game.units[0].type.cc) // 2
    while st.mv_left >= half and "fwd C" in _legal(st):
        act(st, "fwd C")
    assert st.mv_left < half and "dismount C P" not in _legal(st) and "bailout C P" in _legal(st)


def test_mount_needs_room_and_an_unmoved_leg_unit():
    # MBT 6.6.7, 6.6.7.1: a leg unit boards a vehicle in its hex with room for it (M113: one leg unit) before it
    # has moved
    a, _, d = clear_pair(5)
    full = adv_state([unit("C", "m113", "us", a, d), unit("P", "us-mech-squad", "us", a, d, carried_by="C"),
                      unit("Q", "us-mech-squad", "us", a, d, command="MOVE"), unit("E", "t-80bv", "sov", "4T13", 5)],
                     phase="move-first", to_act="us")
    act(full, "move Q")
    assert not any(x.startswith("mount Q") for x in _legal(full))
    st = adv_state([unit("C", "m113", "us", a, d), unit("Q", "us-mech-squad", "us", a, d, command="MOVE"),
                    unit("E", "t-80bv", "sov", "4T13", 5)], phase="move-first", to_act="us")
    act(st, "move Q")
    assert "mount Q C" in _legal(st)
    act(st, "fwd Q")
    assert "mount Q C" not in _legal(st)


@pytest.mark.parametrize("carrier, roll, out", [("m113", 40, True), ("m113", 41, False), ("bmp-1", 1, False)])
def test_passengers_bail_out_of_a_track_hit_carrier_unless_under_armor(carrier, roll, out):
    # MBT 6.5.2.7.2: after a Track hit each passenger of a carrier bails out at or under its Bail Out value (table
    # bail-out-passengers: TK 40, Seasoned +0) and is Suppressed; never from an Under Armor carrier (BMP-1)
    a, b, d = clear_pair(5)
    units = [unit("S", "m1", "us", a, d, command="FIRE"), unit("T", carrier, "sov", b, (d + 3) % 6),
             unit("P", "sov-mr-squad", "sov", b, 0, carried_by="T")]
    st = adv_state(units, to_act="us", dice=[1, 5, 100, roll], grades={"us": "seasoned", "sov": "seasoned"})
    act(st, "fire S at T main:APFSDS")
    assert st.track[1] and st.st[1] == ON
    assert (st.st[2] == ON and st.sup[2] != 0) is out and (st.st[2] == CARRIED) is not out
    assert any(label == "Bail Out P" for label, _ in st.dice.history) is (carrier == "m113")


# ---------------------------------------------------------------- leg units (MBT 5.1, 6.5.4.2.2)
@pytest.mark.parametrize("away, suppression, may", [(True, "on", False), (False, "on", True), (True, "none", True)])
def test_a_suppressed_leg_unit_fires_only_into_its_front_60_degrees(away, suppression, may):
    # MBT 5.1: leg units have a 360 degree Field of Fire unless Suppressed (then the front 60 degrees); the target
    # is spotted by a friendly tank in the hex
    a, b, d = clear_pair(2)
    st = adv_state([unit("S", "us-mech-squad", "us", a, (d + 3) % 6 if away else d, command="FIRE",
                         suppression=suppression),
                    unit("F", "m1", "us", a, d), unit("T", "sov-mr-squad", "sov", b, 0)], to_act="us")
    row = next(r for r in st.game.units[0].type.ap if r.key == "rifles:GP")
    assert st.weapon_ok(0, 2, row) is may
    assert ("fire S at T rifles:GP" in [str(x) for x in st.legal_actions()]) is may


def test_leg_gp_defense_is_at_most_10():
    # MBT 6.5.4.2.2: the net GP Defense is never more than 10 (Soviet squad in the Heavy Cover of an Improved
    # Position 8, Full Cover +2 = 10; the position's full_cover status; a building is Medium for GP Defense)
    from mbt_move_fixtures import opt_game, opt_state

    a, b, d = clear_pair(2)
    st = opt_state(opt_game(improved_positions=[b]), [unit("T", "sov-mr-squad", "sov", b, 0, full_cover=True)],
                   phase="command", to_act=None)
    assert st.leg_gp_defense(0) == 10


@pytest.mark.parametrize("command, suppression, allowance", [("MOVE", "none", 2), ("MOVE", "on", 1), ("SH", "on", 1)])
def test_suppressed_movement_never_below_one(command, suppression, allowance):
    # MBT 6.6.2: Suppressed units move at half their allowance (a quarter with Short Halt), never below 1 (US mech
    # squad, cross-country 2)
    st = adv_state([unit("a", "us-mech-squad", "us", "2A1", 3, command=command, suppression=suppression),
                    unit("t", "t-80bv", "sov", "2P13", 0)], phase="move-second", to_act="us")
    act(st, "move a")
    assert st.mv_left == allowance


# ---------------------------------------------------------------- towed units in Hand-to-Hand (MBT 6.6.1.2)
HTH = re.compile(r"S hand-to-hand with G: (\d+) -> (-?\d+) vs (\d+) -> (-?\d+)")


def test_hand_to_hand_towed_defender_suppressed_minus_20_more():
    # MBT 6.6.1.2: a towed defender takes -40 (no size modifier) and its grade (Soviet Regulars -10), and Defender
    # Suppressed -20 on top
    def defender(suppression):
        a, b, d = clear_pair(1)
        st = towed_state([unit("S", "us-mech-squad", "us", a, d, command="MOVE"),
                          unit("G", "spg-9", "sov", b, 0, suppression=suppression)],
                         phase="close-combat", to_act="us", dice=[50, 95] + [50] * 6)
        act(st, "assault S G")
        m = HTH.search(next(e for e in st.events if "hand-to-hand" in e))
        return int(m.group(4)) - int(m.group(3))

    assert defender("none") == -50 and defender("on") == -70


# ---------------------------------------------------------------- spotting leg units (MBT 6.1.3)
@pytest.mark.parametrize("card, terrain, mark, spotted_at", [
    ("m1", "C", "none", 20), ("m1", "C", "spot-fire-small-arms", 30),
    ("sov-mr-squad", "C", "none", 10), ("sov-mr-squad", "C", "spot-fire-small-arms", 15),
    ("sov-mr-squad", "B", "none", 5)])
def test_spotting_ranges_by_size_column_and_small_arms_spot_fire(card, terrain, mark, spotted_at):
    # MBT 4.1.3, 6.1.3: vehicles are spotted by column V (0: 20), leg units by their size (the Soviet squad, S: 10,
    # Light Cover -1: 5); a unit that fired only Small Arms (the sideways Spot/Fire) is spotted one row up (V+1 30,
    # S+1 15)
    _, b, _ = clear_pair(2, "C", terrain)
    st = adv_state([unit("T", card, "sov", b, 0, mark=mark)], phase="command")
    assert st.spot_range(0) == spotted_at


@pytest.mark.parametrize("supporters, supported", [(("sov-mr-half-squad",), [True, False]),
                                                   (("sov-mr-half-squad", "sov-mr-half-squad"), [True, True])])
def test_a_half_squad_supports_a_single_vehicle(supporters, supported):
    # MBT 6.6.1.1.2: a dismounted half-squad supports a single vehicle of its hex (a squad two)
    from test_adv_assault import _woods_and_neighbour

    woods, clear, f = _woods_and_neighbour("C")
    units = [unit("V1", "t-80bv", "sov", woods, 0), unit("V2", "t-80bv", "sov", woods, 0),
             unit("I", "us-mech-squad", "us", clear, (f + 3) % 6, command="MOVE")] + \
        [unit(f"H{k}", card, "sov", woods, 0) for k, card in enumerate(supporters)]
    st = adv_state(units, phase="close-combat", to_act="us")
    assert [st.supported(v) for v in range(2)] == supported


@pytest.mark.parametrize("attacker, modifier", [("us-mech-squad", 0), ("us-mech-half-squad", -25),
                                                ("us-fo-section", -30)])
def test_hand_to_hand_size_modifier_of_the_attacker(attacker, modifier):
    # MBT 6.6.1.2.2: Hand-to-Hand size modifiers: half-squad -25, section -30, squad none (both Seasoned)
    a, b, d = clear_pair(1)
    st = adv_state([unit("I", attacker, "us", a, d, command="MOVE"), unit("T", "sov-mr-squad", "sov", b, 0)],
                   phase="close-combat", to_act="us", dice=[50, 60] + [50, 40] * 6,
                   grades={"us": "seasoned", "sov": "seasoned"})
    act(st, "assault I T")
    line = next(e for e in st.events if "hand-to-hand" in e)
    assert re.search(r"hand-to-hand with T: 50 -> (-?\d+) vs 60 -> 60", line).group(1) == str(50 + modifier)


def test_leaving_the_map_is_a_manhandled_hex_too():
    # MBT 6.6.5: a towed unit moves one hex a turn on its own: at the map edge it may exit instead of moving, not
    # after its one hex (2A3 -> 2A2, the board's edge); a vehicle with allowance left still may
    def after_one_hex(card):
        st = towed_state([unit("G", card, "sov", "2A3", 0, command="MOVE"), unit("E", "m1", "us", FAR, 5)],
                         phase="move-first", to_act="sov")
        act(st, "move G")
        act(st, "fwd G")
        act(st, "turn G left")          # facing the board's edge (hexside 5), as the fresh gun below
        assert st.game.label(st.hex[0]) == "2A2" and st.fac[0] == 5
        return "exit G" in [str(a) for a in st.legal_actions()]

    fresh = towed_state([unit("G", "spg-9", "sov", "2A2", 5, command="MOVE"), unit("E", "m1", "us", FAR, 5)],
                        phase="move-first", to_act="sov")
    act(fresh, "move G")
    assert "exit G" in [str(a) for a in fresh.legal_actions()]
    assert not after_one_hex("spg-9") and after_one_hex("m113")


@pytest.mark.parametrize("die, result", [(1, "BU"), (2, "KO")])
def test_close_assault_kill_by_a_section_brews_up_on_1_only(die, result):
    # MBT 6.6.1.1.3: an Effective result not ending in 5 or 0: roll (10) at or under half the attacker's GP factor
    # brews up, else Knock Out: a section (GP 2) brews up on a 1 only. Against the M106 (P-Type +20, GPD 3: S 83
    # on GP 2) a roll of 71 + 20 = 91 is Effective
    st, shot = _assault("us-fo-section", "m106", dice=(71, die, 100, 100))
    assert shot["gp"] == 2 and shot["result"] == "KILL"
    assert st.wreck.get(st.hex[1]) == (2 if result == "BU" else 1)
