"""MBT Advanced Game GP direct fire (MBT 6.5.4) at vehicles and leg units, through positions: the GP Combat
Results Table's N/S numbers, the vehicle results (Rule of 5s and 10s, GP Effectiveness, Small Arms limits) and
the leg results (Suppressed, squad reduced, eliminated)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402

A, B, D = clear_pair(13)   # T-80BV HE at range 13: band L, GP factor 6 (MBT 6.5.4.1 example values)
FACE = (D + 3) % 6


def _setup(shooter, ammo, target, a=A, b=B, grades=None, **status):
    st = adv_state([unit("S", shooter, "sov", a, D, command="FIRE"), unit("T", target, "us", b, FACE, **status)],
                   to_act="sov", grades=grades)
    s, t = 0, 1
    row = next(r for r in st.game.units[s].type.ap if r.key == ammo)
    band, factor = st.gp_factor(row, distance(st.hex[s], st.hex[t]))
    net = st.gp_modifiers(s, t, row, band, False)
    return st, row, band, factor, net


def _fire(shooter, ammo, target, dice_for_x, a=A, b=B, extra=(), grades=None, **status):
    """Fire with the roll that makes the modified result ``dice_for_x(net, n, s)``."""
    st, row, band, factor, net = _setup(shooter, ammo, target, a, b, grades, **status)
    ag = st.game.units[1].type.ag
    defense = st.leg_gp_defense(1) if ag.leg else ag.gp_value
    n_eff, s_eff = st.game.ag.gp_crt[(factor, defense)]
    st.dice.force(*_ammo_die(st, row), dice_for_x(net, n_eff, s_eff) - net, *extra)
    act(st, f"fire S at T {ammo}")
    return st


def _ammo_die(st, row) -> tuple:
    """The Ammo Limit roll (10) of a limited weapon (MBT 5.16.2, T-80BV A9 G9): a 1, within the limit."""
    return (1,) if st.ammo_limit(0, row) is not None else ()


def test_gp_factor_by_range_t80bv_he():
    # MBT 6.5.4.1 example: the T-80BV's HE at range 10 has GP factor 7 (the first range >= 10 is 12, band M)
    a, b, _ = clear_pair(10)
    st, row, band, factor, _ = _setup("t-80bv", "main:HE", "m2", a=a, b=b)
    assert (band, factor) == ("M", 7)


def test_known_gp_combat_cells():
    # MBT 6.5.4.4 examples: GP 6 vs GPD 3 = 39/69; GP 6 vs GPD 6 = 53/83; GP 5 vs GPD 3 = 43/72
    st, *_ = _setup("t-80bv", "main:HE", "m2")
    crt = st.game.ag.gp_crt
    assert crt[(6, 3)] == (39, 69) and crt[(6, 6)] == (53, 83) and crt[(5, 3)] == (43, 72)


def test_a_type_target_and_modifiers():
    # MBT 6.5.4.3: an A-type target is -20 to the GP roll
    st, row, band, factor, net = _setup("t-80bv", "main:HE", "m2")
    assert (band, factor) == ("L", 6)
    ag = st.game.ag
    assert net == ag.gp_mod["target-a-type"] + ag.grade_gp["regulars"]["L"] + ag.sight_gp["L"]["L"]


@pytest.mark.parametrize("x, result", [("n", "NE"), ("n+1", "SUP"), ("s", "SUP")])
def test_n_and_s_effect_thresholds(x, result):
    # MBT 6.5.4.4: modified roll <= N: No Effect; <= S: Suppressed (M2 Bradley, GP 6 vs GPD 3: 39/69)
    pick = {"n": lambda net, n, s: n, "n+1": lambda net, n, s: n + 1, "s": lambda net, n, s: s}[x]
    st = _fire("t-80bv", "main:HE", "m2", pick)
    assert any(e.endswith(f"-> {result}") for e in st.events), st.events
    assert (st.sup[1] != 0) == (result == "SUP")


def _after(s_eff: int, digit: int) -> int:
    """The smallest modified result above the S-Effect number whose last digit is ``digit``."""
    x = s_eff + 1
    return x + (digit - x) % 10


def test_rule_of_5s_damage_and_10s_track():
    # MBT 6.5.4.4.2: an Effective result ending in 5 is DAMAGE (roll (10) 1-4 Turret), ending in 0 a TRACK
    five = _fire("t-80bv", "main:HE", "m2", lambda net, n, s: _after(s, 5), extra=(3, 99))
    assert any(e.endswith("-> DAMAGE") for e in five.events) and five.tdmg[1]
    hull = _fire("t-80bv", "main:HE", "m2", lambda net, n, s: _after(s, 5), extra=(5, 99))
    assert hull.dmg[1] and not hull.tdmg[1]
    ten = _fire("t-80bv", "main:HE", "m2", lambda net, n, s: _after(s, 0), extra=(99,))
    assert any(e.endswith("-> TRACK") for e in ten.events) and ten.track[1]


def test_effective_kill_ko_or_bu_by_gp_effectiveness():
    # MBT 6.5.4.4.2: otherwise KO or BU: roll (10) at or under the max GP Effectiveness (T-80BV 125mm: 5) is BU
    bu = _fire("t-80bv", "main:HE", "m2", lambda net, n, s: _after(s, 1), extra=(5,))
    assert bu.wreck.get(bu.hex[1]) == 2
    ko = _fire("t-80bv", "main:HE", "m2", lambda net, n, s: _after(s, 1), extra=(6,))
    assert ko.wreck.get(ko.hex[1]) == 1


def test_effective_needs_gp_effectiveness_at_least_the_defense():
    # MBT 6.5.4.4.2: against A/P types an Effective result counts only if max GPE >= GPD (M1 GPD 8 > GPE 5)
    a, b, _ = clear_pair(3)
    st = _fire("t-80bv", "main:HE", "m1", lambda net, n, s: _after(s, 1), a=a, b=b,
               grades={"sov": "elite", "us": "seasoned"})
    assert any(e.endswith("E-Effect -> SUP") for e in st.events), st.events
    assert st.st[1] == 1 and st.sup[1] != 0


@pytest.mark.parametrize("rng, result", [(1, "SUP"), (2, "NE")])
def test_small_arms_against_a_type_suppress_only_at_pointblank(rng, result):
    # MBT 6.5.4.4.2: Small Arms against an A-type: an S-Effect suppresses only at range factor P
    a, b, _ = clear_pair(rng)
    st = _fire("t-80bv", "mmg:GP", "m113", lambda net, n, s: n + 1, a=a, b=b)
    assert any("S-Effect" in e and e.endswith(f"-> {result}") for e in st.events), st.events


def test_gp_on_a_squad_reduces_then_eliminates():
    # MBT 6.5.4.4.3: an Effective result reduces a squad to its half-squad (Suppressed), then eliminates it,
    # leaving no wreck
    a, b, _ = clear_pair(8)
    st = _fire("t-80bv", "main:HE", "us-mech-squad", lambda net, n, s: s + 1, a=a, b=b)
    assert any("reduced to a half-squad" in e for e in st.events), st.events
    assert st.red[1] and st.sup[1] != 0 and st.st[1] == 1
    st2 = _fire("t-80bv", "main:HE", "us-mech-squad", lambda net, n, s: s + 1, a=a, b=b)
    st3 = adv_state([unit("S", "t-80bv", "sov", a, D, command="FIRE"), unit("T", "us-mech-squad", "us", b, FACE)],
                    to_act="sov")
    st3.red[1] = True
    row = next(r for r in st3.game.units[0].type.ap if r.key == "main:HE")
    band, factor = st3.gp_factor(row, distance(st3.hex[0], st3.hex[1]))
    net = st3.gp_modifiers(0, 1, row, band, False)
    n_eff, s_eff = st3.game.ag.gp_crt[(factor, st3.leg_gp_defense(1))]
    st3.dice.force(*_ammo_die(st3, row), s_eff + 1 - net)
    act(st3, "fire S at T main:HE")
    assert st3.st[1] == 3 and st3.hex[1] not in st3.wreck and st2.red[1]


def test_reduced_squad_fires_its_half_squad_weapons():
    # MBT 5.1.1, 6.5.4.4.3: a reduced squad fires as its half-squad; attached weapons are unaffected
    a, b, _ = clear_pair(2)
    st = adv_state([unit("S", "us-mech-squad", "us", a, D, command="FIRE"), unit("T", "m113", "sov", b, FACE)],
                   to_act="us")
    full = {x[3] for x in st.legal_actions() if x[0] == "fire"}
    st.red[0] = True
    half = {x[3] for x in st.legal_actions() if x[0] == "fire"}
    assert "rifles:GP" in full and "rifles:GP" not in half and any(k.startswith("rifles-h:") for k in half)
    assert {k for k in full if not k.startswith("rifles")} == {k for k in half if not k.startswith("rifles")}


def test_leg_gp_defense_by_cover_and_movement():
    # MBT 6.5.4.2.2: leg GP Defense by the hex's cover; moving -2; within 1..10 (Mech squad: none 2)
    st = adv_state([unit("T", "us-mech-squad", "us", B, FACE)], phase="command")
    assert st.leg_gp_defense(0) == 2
    moving = adv_state([unit("T", "us-mech-squad", "us", B, FACE, command="MOVE", revealed=True)],
                       phase="move-second", to_act="us")
    assert moving.leg_gp_defense(0) == 1  # 2 - 2 = 0, raised to 1


def test_ap_fire_never_targets_leg_units():
    # MBT 6.5.2: AP fire is directed only at vehicles; GP rows may fire at leg units
    a, b, _ = clear_pair(3)
    st = adv_state([unit("S", "m1", "us", a, D, command="FIRE"), unit("T", "us-mech-squad", "sov", b, FACE)],
                   to_act="us")
    kinds = {next(r.kind for r in st.game.units[0].type.ap if r.key == x[3]) for x in st.legal_actions()
             if x[0] == "fire"}
    assert kinds == {"GP"}
