"""MBT Advanced Game Close Assault and Hand-to-Hand combat (MBT 6.6.1) through positions."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402

A, B, D = clear_pair(1)


def _close(target_card, dice, attacker="us-mech-squad", grades=None, **target_status):
    units = [unit("I", attacker, "us", A, D, command="MOVE"), unit("T", target_card, "sov", B, 0, **target_status)]
    return adv_state(units, phase="close-combat", to_act="us", dice=dice, grades=grades)


def test_close_combat_step_opens_the_movement_phase():
    # MBT 6.6.1: a dismounted leg unit with a Move command adjacent to a spotted enemy may attack
    st = _close("t-80bv", [])
    assert st.phase_id() == "close-combat"
    assert [str(a) for a in st.legal_actions()] == ["assault I T", "pass"]
    act(st, "pass")
    assert st.phase_id() in ("move-second", "move-first")


def test_suppressed_or_not_moving_units_may_not_attack():
    # MBT 6.6.1.1: the attacker is unsuppressed and has a Move command
    units = [unit("I", "us-mech-squad", "us", A, D, command="MOVE", suppression="on"), unit("T", "t-80bv", "sov", B, 0)]
    st = adv_state(units, phase="close-combat", to_act="us")
    assert st.phase_id() != "close-combat"


def test_close_assault_gp8_against_gpd_5_at_most():
    # MBT 6.6.1.1.1: a squad attacks with GP 8; the vehicle's GP Defense counts at most 5 (T-80BV: 8 -> 5)
    st = _close("t-80bv", [1])
    act(st, "assault I T")
    assert any("(GP 8 vs GPD 5)" in e for e in st.events), st.events


def test_close_assault_effective_kills():
    # MBT 6.6.1.1.3: Effective regardless of type: not ending in 5 or 0 -> roll (10) at or under half the GP
    # factor (4) BU, else KO. Seasoned squad vs T-80BV: GP 8 vs 5 (S 72, CRT): 83 is Effective
    n, s = None, None
    st = _close("t-80bv", [83, 4, 99])
    n, s = st.game.ag.gp_crt[(8, 5)]
    assert 83 > s
    act(st, "assault I T")
    assert st.st[1] == 3 and st.wreck.get(st.hex[1]) == 2 and st.hex[0] == st.hex[1]


@pytest.mark.parametrize("grade, mod", [("veteran", 10), ("regulars", -10)])
def test_close_assault_grade_modifier(grade, mod):
    # MBT 6.6.1: HTH CA grade column: Veteran +10, Regulars -10
    st = _close("t-80bv", [50], grades={"us": grade, "sov": "seasoned"})
    act(st, "assault I T")
    assert any(f"roll 50{mod:+d} = {50 + mod}" in e for e in st.events), st.events


def test_hand_to_hand_reduces_then_eliminates():
    # MBT 6.6.1.2: opposed rolls; a losing squad becomes a half-squad (not suppressed), then is eliminated
    st = _close("sov-mr-squad", [90, 10, 90, 10])
    act(st, "assault I T")
    assert st.st[1] == 3 and not st.sup[1]
    assert sum("hand-to-hand" in e for e in st.events) == 2


def test_hand_to_hand_half_squad_minus_25():
    # MBT 6.6.1.2: a half-squad side is -25; 60 vs 40 for the defender's half-squad -> 60 vs 15
    st = _close("sov-mr-squad", [60, 40, 60, 40])
    st.red[1] = True
    act(st, "assault I T")
    assert any("60 -> 60 vs 40 -> 5" in e or "60 -> 60 vs 40 -> 15" in e for e in st.events), st.events


def _pair_attack(target_card, dice, second="us-mech-half-squad", target_hex=B, **target_status):
    units = [unit("I", "us-mech-squad", "us", A, D, command="MOVE"), unit("J", second, "us", A, D, command="MOVE"),
             unit("T", target_card, "sov", target_hex, 0, **target_status)]
    return adv_state(units, phase="close-combat", to_act="us", dice=dice)


def test_combined_close_assault_additional_attackers():
    # MBT 6.6.1.1.2: attackers in the same hex combine: each additional half-squad +10 (section +5, squad +20)
    st = _pair_attack("t-80bv", [1])
    legal = [str(a) for a in st.legal_actions()]
    assert "assault I T all" in legal and "assault I T" in legal
    alone = _pair_attack("t-80bv", [1])
    act(alone, "assault I T")
    act(st, "assault I T all")
    line = next(e for e in st.events if "close assaults" in e)
    base = next(e for e in alone.events if "close assaults" in e)
    assert "I with J close assaults" in line
    net = int(line.split("roll 1")[1].split(" =")[0])
    assert net == int(base.split("roll 1")[1].split(" =")[0]) + 10
    assert st.moved[1] and not alone.moved[1]


def test_unsupported_vehicle_in_woods_plus_30():
    # MBT 6.6.1.1.2: a vehicle in terrain subject to support without friendly squads or half-squads: +30
    from studio.hexgrid.coords import neighbour

    g = adv_state([unit("E", "m1", "us", "4T13", 2)], phase="move-first").game
    woods = next(h for h in sorted(g.map.label_of) if g.map.terrain.get(h) == "W" and any(
        g.map.terrain.get(neighbour(h, f)) == "C" and g.elev.get(neighbour(h, f)) == g.elev.get(h) for f in range(6)))
    f = next(f for f in range(6) if g.map.terrain.get(neighbour(woods, f)) == "C" and
             g.elev.get(neighbour(woods, f)) == g.elev.get(woods))
    att = g.label(neighbour(woods, f))

    def ca(extra_units):
        units = [unit("I", "us-mech-squad", "us", att, (f + 3) % 6, command="MOVE"),
                 unit("T", "t-80bv", "sov", g.label(woods), f)] + extra_units
        st = adv_state(units, phase="close-combat", to_act="us", dice=[1])
        act(st, "assault I T")
        line = next(e for e in st.events if "close assaults" in e)
        return int(line.split("roll 1")[1].split(" =")[0]), st

    alone, st = ca([])
    assert not st.supported(1)
    backed, st2 = ca([unit("S", "sov-mr-squad", "sov", g.label(woods), 0)])
    from studio.rulesets.mbt.engine.opt_move_data import move_opt

    assert move_opt(g).ca_extra["unsupported"] == 30
    assert st2.supported(1) and alone - backed == 30


def test_combined_hand_to_hand_primary_then_the_next_attacker():
    # MBT 6.6.1.2: each additional attacker adds to the attacker's roll (half-squad +10); an eliminated primary
    # hands over to the next attacker; with no attacker left the defender stays
    st = _pair_attack("sov-mr-squad", [50, 50, 1, 100, 1, 100, 1, 100, 1, 100], second="us-mech-half-squad")
    act(st, "assault I T all")
    first = next(e for e in st.events if "hand-to-hand" in e)
    alone = _pair_attack("sov-mr-squad", [50, 50, 1, 100, 1, 100], second="us-mech-half-squad")
    act(alone, "assault I T")
    solo = next(e for e in alone.events if "hand-to-hand" in e)
    x = int(first.split(" -> ")[1].split(" vs")[0])
    assert x == int(solo.split(" -> ")[1].split(" vs")[0]) + 10
    from studio.rulesets.mbt.engine.codes import DEAD, ON

    # I (squad) reduced, then eliminated; J (half-squad) becomes the primary and is eliminated: T holds
    assert st.st[0] == DEAD and st.st[1] == DEAD and st.st[2] == ON
    assert any(e.startswith("J hand-to-hand") for e in st.events)


def _woods_and_neighbour(code="S"):
    from studio.hexgrid.coords import neighbour

    g = adv_state([unit("E", "m1", "us", "4T13", 2)], phase="move-first").game
    for h in sorted(g.map.label_of):
        if g.map.terrain.get(h) != "W":
            continue
        for f in range(6):
            b = neighbour(h, f)
            if g.map.terrain.get(b) == code and g.elev.get(b) == g.elev.get(h):
                return g.label(h), g.label(b), f
    raise LookupError(code)


def test_ma21_close_assault_on_a_suppressed_moving_m1():
    # MA21 (MBT 6.6.1.1.3): a Regulars Motor Rifle squad in Woods close assaults a Suppressed, moving M1 in Scrub:
    # GP 8 vs GPD 5; net 0 (moving -10, Suppressed +20, Regulars -10); CRT(8,5) 40/72; roll 85: Effective ending
    # in 5 -> Damaged; roll (10) 3 -> Turret Damaged. The boards have no Scrub next to Woods: the M1 stands in
    # Clear (terrain of either side is ignored in a Close Assault, and neither is subject to support)
    woods, scrub, f = _woods_and_neighbour("C")
    units = [unit("I", "sov-mr-squad", "sov", woods, f, command="MOVE"),
             unit("T", "m1", "us", scrub, 0, command="MOVE", revealed=True, suppression="on")]
    st = adv_state(units, phase="close-combat", to_act="sov", dice=[85, 3, 99, 99])
    act(st, "assault I T")
    line = next(e for e in st.events if "close assaults" in e)
    assert "(GP 8 vs GPD 5)" in line and "roll 85+0 = 85 vs N 40 / S 72: DAMAGE" in line
    assert st.tdmg[1] and not st.dmg[1]


def test_ma23_one_squad_supports_two_of_three_vehicles():
    # MA23 (MBT 6.6.1.1.2): a dismounted squad supports up to 2 vehicles: with 3 vehicles in a Woods hex one is
    # unsupported (+30 if close assaulted)
    woods, clear, f = _woods_and_neighbour("C")
    units = [unit("V1", "t-80bv", "sov", woods, 0), unit("V2", "t-80bv", "sov", woods, 0),
             unit("V3", "t-80bv", "sov", woods, 0), unit("S", "sov-mr-squad", "sov", woods, 0),
             unit("I", "us-mech-squad", "us", clear, (f + 3) % 6, command="MOVE")]
    st = adv_state(units, phase="close-combat", to_act="us")
    assert [st.supported(v) for v in range(3)] == [True, True, False]


def test_ma27_hand_to_hand_round_one_reduces_the_us_primary():
    # MA27 (MBT 6.6.1.2): a Veteran US squad + half-squad vs a Regulars Motor Rifle squad: US net +20 (additional
    # half-squad +10, Veteran +10), Soviet -10; US 13 -> 33, Soviet 65 -> 55: the US primary squad is reduced to
    # a half-squad (not Suppressed) and the combat goes on
    units = [unit("I", "us-mech-squad", "us", A, D, command="MOVE"), unit("J", "us-mech-half-squad", "us", A, D,
                                                                            command="MOVE"),
             unit("T", "sov-mr-squad", "sov", B, 0)]
    st = adv_state(units, phase="close-combat", to_act="us", dice=[13, 65, 100, 1, 100, 1, 100, 1],
                   grades={"us": "veteran", "sov": "regulars"})
    act(st, "assault I T all")
    first = next(e for e in st.events if "hand-to-hand" in e)
    assert "13 -> 33 vs 65 -> 55: I loses" in first
    assert st.red[0] and not st.sup[0]
    assert len([e for e in st.events if "hand-to-hand" in e]) > 1  # the combat goes on


def test_dismount_attack_minus_10_never_combined():
    # MBT 6.6.1.1 (Dismount Attack): a passenger dismounts during its carrier's move and close assaults an adjacent
    # spotted vehicle at -10
    a, b, d = clear_pair(1)
    units = [unit("C", "m113", "us", a, d, command="MOVE"), unit("P", "us-mech-squad", "us", a, d, carried_by="C"),
             unit("T", "t-80bv", "sov", b, 0)]
    st = adv_state(units, phase="move-first", to_act="us", dice=[50, 99, 99])
    act(st, "move C")
    assert "dismount C P T" in [str(x) for x in st.legal_actions()]
    act(st, "dismount C P T")
    line = next(e for e in st.events if "close assaults" in e)
    plain = _close("t-80bv", [50, 99, 99])
    act(plain, "assault I T")
    base = next(e for e in plain.events if "close assaults" in e)
    assert int(line.split("roll 50")[1].split(" =")[0]) == int(base.split("roll 50")[1].split(" =")[0]) - 10
    assert st.carrier[1] == -1 and st.hex[1] == st.hex[0]
