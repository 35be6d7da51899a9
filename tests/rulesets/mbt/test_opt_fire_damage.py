"""The damage-chain optional rules of direct fire through positions and the public API: 7.11 BU Modifier (MA89),
7.12 Variable AP Penetration (MA90), 7.13 Lower Hull Hits (MA91), 7.17 Attached Weapon Loss (MA93), 7.21
Variable Track Damage (MA95), 7.23 Vehicle Collateral Damage (MA97) and 7.47 Radar, SAM or ATGM Damage (MA121)."""
from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_fire_fixtures import (A, B, D, FACE_AWAY, FACE_SHOOTER, act, clear_pair, idx_of, legal_texts,  # noqa: E402
                               opt_state, unit)


def _shot(shooter, ammo, target, dice, rules, facing=FACE_AWAY, pair=None, options=None, grades=None, **status):
    a, b, d = pair or (A, B, D)
    st = opt_state([unit("S", shooter, "us", a, d, command="FIRE"), unit("T", target, "sov", b,
                                                                        (facing - D + d) % 6, **status)],
                   rules, dice=dice, options=options, grades=grades)
    act(st, f"fire S at T {ammo}")
    return st


# ---------------------------------------------------------------- 7.11
@pytest.mark.parametrize("rules, result", [(("bu-modifier",), "BU"), ((), "KO"), (("vehicle-collateral-damage",), "KO")])
def test_ma89_bu_notation_turns_a_knock_out_into_a_brew_up(rules, result):
    # MA89 (MBT 7.11): an M1 penetrates a T-80BV (BU notation) with AP and rolls 6 for damage: KO on the M1's
    # card, with +2 an 8: Brew Up (the M1 card's 6 and 8 are from this example)
    st = _shot("m1", "main:APFSDS", "t-80bv", [1, 56], rules)
    assert any("damage digit 6 -> " + result in e for e in st.events), st.events
    assert st.wreck.get(st.hex[idx_of(st, "T")]) == (2 if result == "BU" else 1)


def test_ma89_modified_11_is_a_brew_up_even_when_10_is_a_knock_out():
    # MA89 (MBT 7.11): a modified 11 or 12 is a Brew Up even if the card's highest result (10) is KO
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FACE_AWAY)],
                   ("bu-modifier",), dice=[1, 59])
    s = idx_of(st, "S")
    spec = st.game.units[s]
    rows = tuple(dataclasses.replace(r, card_damage=("ND",) * 4 + ("KO",) * 6) for r in spec.type.ap)
    st.game.units[s] = dataclasses.replace(spec, type=dataclasses.replace(spec.type, ap=rows))  # a game copy
    act(st, "fire S at T main:APFSDS")
    assert any("damage digit 9 -> BU" in e for e in st.events), st.events


def test_bu_close_assault_modifier():
    # MBT 7.11: -2 on the close-assault brew-up roll against a BU-notation vehicle (none against others)
    st = opt_state([unit("S", "m1", "us", A, D), unit("T", "t-80bv", "sov", B, FACE_AWAY)], ("bu-modifier",))
    assert st.bu_close_assault_modifier(idx_of(st, "T")) == -2 and st.bu_close_assault_modifier(idx_of(st, "S")) == 0


# ---------------------------------------------------------------- 7.12
@pytest.mark.parametrize("pen, dice, after", [(110, (10, 4), 118), (12, (1, 2), 9), (12, (5, 6), 12), (100, (10, 5), 111)])
def test_ma90_variable_penetration_examples(pen, dice, after):
    # MA90 (MBT 7.12): factor 110, dice 10 and 4: +11 -3 = +8; factor 12, dice 1 and 2: -2 -2 capped at Max 3
    st = opt_state([unit("S", "m1", "us", A, D), unit("T", "t-80bv", "sov", B, FACE_AWAY)],
                   ("variable-ap-penetration",), dice=list(dice))
    assert st.varied_penetration(idx_of(st, "S"), idx_of(st, "T"), pen) == after


def test_variable_penetration_is_rolled_before_the_location():
    # MBT 7.12: the two d10 come before the Hit Location roll; the M1's 82 against the T-80BV's Front TF 90
    # penetrates only with the variation (read from the table row of 82)
    st = _shot("m1", "main:APFSDS", "t-80bv", [1, 10, 10, 11, 100], ("variable-ap-penetration",), facing=FACE_SHOOTER)
    _, adj, cap = next(r for r in reversed(st.ofire.d.pen_rows) if r[0] <= 82)
    pen = 82 + min(cap, 2 * adj[10])
    assert any(f"penetration {pen} vs armor 90: damage digit 1" in e for e in st.events), st.events
    off = _shot("m1", "main:APFSDS", "t-80bv", [1, 11, 100], (), facing=FACE_SHOOTER)
    assert any("penetration 82 vs armor 90: no penetration" in e for e in off.events), off.events


# ---------------------------------------------------------------- 7.13
def _lower(rng: int, rules=("lower-hull-hits",), up: int = 3):
    a, b, d = clear_pair(rng)
    st = opt_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, (d + 3) % 6)],
                   rules, dice=[1, 51, 100])
    st.game.elev = dict(st.game.elev)  # this position's game copy: target at Height 3, shooter at 0
    st.game.elev[st.hex[idx_of(st, "S")]] = 0
    st.game.elev[st.hex[idx_of(st, "T")]] = up
    act(st, "fire S at T main:APFSDS")
    return next(e for e in st.events if " hit front " in e)


@pytest.mark.parametrize("rng, lower", [(3, False), (4, True), (5, True), (6, True), (7, False)])
def test_ma91_lower_hull_at_range_4_to_6_from_three_heights_below(rng, lower):
    # MA91 (MBT 7.13.2): target Height 3, shooter Height 0: lower hull hits at range 4-6 (3 or less is automatic
    # Partial Hull Down); armor half the Rising HF (T-80BV 119 -> 59), no ERA
    hit = _lower(rng)
    assert ("vs armor 59 (lower hull)" in hit) is lower, hit
    if not lower:
        assert "vs armor 119" in hit


@pytest.mark.parametrize("rules, armor", [(("lower-hull-hits",), "vs armor 44 (lower hull)"), ((), "vs armor 100")])
def test_lower_hull_when_crossing_a_stream_under_overwatch(rules, armor):
    # MBT 7.13.1: the T-80BV crosses the stream hexside 2C4 -> 2C3; the overwatching M1 (2A1) stands at its new
    # Height: an HF hit meets half the Rising HF (Front/Side 89 -> 44) although the shot is level
    st = opt_state([unit("S", "m1", "us", "2A1", 2, command="OW"), unit("V", "t-80bv", "sov", "2C4", 0, command="MOVE")],
                   rules, phase="move-second", to_act="sov", dice=[1, 51, 100, 100])
    act(st, "move V")
    act(st, "fwd V")
    act(st, "ow S at V main:APFSDS")
    assert any(f"at HF (roll 51): penetration 82 {armor}" in e for e in st.events), st.events


@pytest.mark.parametrize("rng, up, lower", [(3, 2, True), (4, 2, True), (2, 1, False)])
def test_lower_hull_from_two_heights_below(rng, up, lower):
    # MBT 7.13: only a height advantage of 2 or more; range above it and at most twice it
    assert ("(lower hull)" in _lower(rng, up=up)) is lower


def test_lower_hull_needs_the_rule():
    assert "vs armor 119" in _lower(5, ())


# ---------------------------------------------------------------- 7.21
@pytest.mark.parametrize("rules, tracked", [(("variable-track-damage",), False), ((), True),
                                            (("vehicle-collateral-damage",), True)])
def test_ma95_bmp2_track_hit_on_an_m1_is_a_miss(rules, tracked):
    # MA95 (MBT 7.21): a BMP-2 (max GP Effectiveness 1) scores a Track hit on an M1 (GPD 8A): 1 x 3 = 3 < 8, a miss
    # and no Bail Out roll
    st = opt_state([unit("S", "bmp-2", "sov", A, D, command="FIRE"), unit("T", "m1", "us", B, FACE_AWAY)],
                   rules, to_act="sov", dice=[1, 100, 100])
    act(st, "fire S at T main:APDS")
    assert st.track[idx_of(st, "T")] is tracked
    assert any("Bail Out" in e for e in st.events) is tracked


def test_bmp2_track_hit_on_an_m113_stands():
    # MBT 7.21: 3 x 1 = 3 reaches the M113's GP Defense 3
    st = opt_state([unit("S", "bmp-2", "sov", A, D, command="FIRE"), unit("T", "m113", "us", B, FACE_AWAY)],
                   ("variable-track-damage",), to_act="sov", dice=[1, 100, 100])
    act(st, "fire S at T main:APDS")
    assert st.track[idx_of(st, "T")], st.events


def test_m1_track_hit_on_a_bmp2_stands():
    st = _shot("m1", "main:APFSDS", "bmp-2", [1, 100, 100], ("variable-track-damage",))
    assert st.track[idx_of(st, "T")] and any("Track hit stands" in e for e in st.events)


@pytest.mark.parametrize("reading, target, tracked", [("tripled-is-one", "m2a1", False), ("one-tripled", "m2a1", True),
                                                      ("one-tripled", "zsu-23-4", False)])
def test_track_factor_of_units_without_a_gp_weapon(reading, target, tracked):
    # MBT 7.21 "assumed to have a tripled factor of 1" (option track-small-arms-factor): 1 or 3 against GPD 3
    st = opt_state([unit("S", "bmp-2", "sov", A, D, command="FIRE"), unit("T", target, "us", B, FACE_AWAY)],
                   ("variable-track-damage",), to_act="sov", dice=[1, 100, 100],
                   options={"track-small-arms-factor": reading})
    st.ofire.d.cards["bmp-2"].gpe_max = 0  # as if it had no GP weapon (this position's game copy)
    act(st, "fire S at T main:APDS")
    assert st.track[idx_of(st, "T")] is tracked


# ---------------------------------------------------------------- 7.23
COL = ("vehicle-collateral-damage",)


def test_ma97_radio_damaged_by_a_turret_rear_hit():
    # MA97 (MBT 7.23.2): a penetrating No Damage hit at TR, roll (10) 2: radio damaged (7.23.5)
    st = _shot("m1", "main:APFSDS", "bmp-2", [1, 11, 100, 2], COL)
    t = idx_of(st, "T")
    assert st.st[t] == 1 and st.radio_damaged(t), st.events
    assert any("collateral damage (TR) roll 2: radio" in e for e in st.events)


def test_ma97_optics_without_secondary_sight_silence_the_weapon():
    # MA97 (MBT 7.23.1): TF roll 1, optics: an L, S, M or D primary sight is out; a weapon without a secondary
    # sight may not fire for the rest of the scenario (O sights are not optics)
    st = _shot("m1", "main:APFSDS", "t-80bv", [1, 11, 100, 1], COL, facing=FACE_SHOOTER)
    t, s = idx_of(st, "T"), idx_of(st, "S")
    assert "optics" not in st.ofire.collat[t]  # no penetration (TF 90): no collateral roll
    st = _shot("m1", "main:APFSDS", "bmp-2", [1, 11, 100, 1], COL, facing=FACE_SHOOTER)
    t = idx_of(st, "T")
    assert "optics" in st.ofire.collat[t], st.events
    spec = st.game.units[t]
    main = next(r for r in spec.type.ap if r.key == "main:HE")
    assert st.weapon_ok(t, s, main)  # the 30mm's primary sight is O: not optics
    lone = dataclasses.replace(main, sight="L")
    st.ofire.d.cards["bmp-2"].secondary["main"] = None
    assert not st.weapon_ok(t, s, lone)  # an L sight without a secondary: may not fire


def test_ma97_optics_cost_one_on_ap_fire():
    # MA97 (MBT 7.23.1): -1 AP direct fire for the rest of the scenario, with the secondary sight (M1: L -> O)
    def net(status):
        st = opt_state([unit("S", "m1", "us", A, D, command="FIRE", **status),
                        unit("T", "t-80bv", "sov", B, FACE_SHOOTER)], COL, dice=[100])
        act(st, "fire S at T main:APFSDS")
        return int(re.search(r"net ([+-]\d+)", st.events[0]).group(1))

    sight = opt_state([unit("S", "m1", "us", A, D)], COL).game.ag.sight_ap
    band_diff = sight.get("O", {}).get("P", 0) - sight.get("L", sight["O"]).get("P", 0)
    assert net({"collateral": ["optics"]}) - net({}) == -1 + band_diff


def test_ma97_turretless_turret_ring_suppresses():
    # MA97 (MBT 7.23.2): turret ring on a turretless vehicle (M113: TT 360) marks Suppression/On
    st = _shot("m1", "main:APFSDS", "m113", [1, 11, 100, 1], COL)
    assert st.sup[idx_of(st, "T")], st.events


def test_ma97_collateral_needs_a_no_damage_penetration():
    st = _shot("m1", "main:APFSDS", "bmp-2", [1, 13, 100], COL)  # damage digit 3: DM, no collateral roll
    assert not any("collateral" in e for e in st.events), st.events
    assert not st.ofire.collat[idx_of(st, "T")]


def test_ma97_running_gear_costs_two_movement_factors():
    st = opt_state([unit("S", "m1", "us", A, D, collateral=["running-gear"]), unit("T", "m1", "sov", B, D)], COL)
    s, t = idx_of(st, "S"), idx_of(st, "T")
    assert st.msa(s, 6) == st.msa(t, 4) and st.msa(s, 2) == st.msa(t, 1)


def _fuel(dice):
    """S (fuel damaged) fires and misses, then the Movement Phase starts."""
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE", collateral=["fuel"]),
                    unit("T", "m1", "sov", B, FACE_SHOOTER, command="NC")], COL, dice=[100, *dice])
    act(st, "fire S at T main:APFSDS")
    return st


@pytest.mark.parametrize("roll, tracked, dead", [(1, True, False), (2, False, True), (3, False, False)])
def test_ma97_fuel_damage_rolls_at_the_start_of_movement(roll, tracked, dead):
    # MA97 (MBT 7.23.4): each Movement Phase start, roll (10): 1 out of fuel (Track hit, Bail Out), 2 fire (BU)
    st = _fuel([roll, 100])
    s = idx_of(st, "S")
    assert ("Fuel damage S", roll) in st.dice.history
    assert (st.turn == 2 and st.phase_id() == "command") or st.current_player() < 0  # the turn went on
    assert st.track[s] is tracked and (st.st[s] == 3) is dead


def test_fuel_checks_once_per_movement_phase():
    st = _fuel([5, 5, 5])
    assert sum(1 for label, _ in st.dice.history if label == "Fuel damage S") == 1


# ---------------------------------------------------------------- 7.47
def _gp_at_bmp2(roll_for):
    """M1 HEAT-MP (non-small-arms GP) at a BMP-2 whose card notes ATGM damage; ``roll_for(n, s, net)`` picks the
    roll (100)."""
    units = [unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "bmp-2", "sov", B, FACE_SHOOTER)]
    probe = opt_state(units, ("installation-damage",), dice=[50])
    act(probe, "fire S at T main:HEAT-MP")
    m = re.search(r"roll 50([+-]\d+) = \d+ vs N (\d+) / S (\d+)", probe.events[0])
    net, n_eff, s_eff = int(m.group(1)), int(m.group(2)), int(m.group(3))
    st = opt_state(units, ("installation-damage",), dice=[roll_for(n_eff, s_eff, net), 100])
    act(st, "fire S at T main:HEAT-MP")
    return st


@pytest.mark.parametrize("offset, damaged", [(0, True), (9, True), (10, False)])
def test_ma121_installation_damaged_within_10_of_the_s_effect(offset, damaged):
    # MA121 (MBT 7.47): Suppressed by non-small-arms GP fire with the combat result within 10 of the S number
    # (N 34 / S 63: 54..63) damages the ATGM; it may not fire for the rest of the scenario
    st = _gp_at_bmp2(lambda n, s, net: s - offset - net)
    t = idx_of(st, "T")
    assert st.sup[t], st.events
    assert ("atgm" in st.ofire.inst[t]) is damaged
    atgm = next(r for r in st.game.units[t].type.ap if r.kind == "ATGM")
    assert st.weapon_ok(t, idx_of(st, "S"), atgm) is not damaged


# ---------------------------------------------------------------- 7.17
@pytest.mark.parametrize("rolls, lost", [((1, 7, 6), {"dragon"}), ((2, 8, 5), {"dragon"}), ((2, 7, 6), {"law"}),
                                         ((1, 8, 6), set())])
def test_ma93_reduced_squad_loses_attached_weapons(rolls, lost):
    # MA93 (MBT 7.17): a full squad reduced by GP fire rolls (10) per attached weapon, 1-5 destroyed; with two,
    # the first (chosen at random) rolls -2 (7 -> 5: lost)
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "us-mech-squad", "sov", B, FACE_SHOOTER)],
                   ("attached-weapon-loss",), dice=[100, *rolls])
    act(st, "fire S at T main:HEAT-MP")
    t = idx_of(st, "T")
    assert st.red[t] and any(e.endswith("-> reduced to a half-squad and Suppressed") for e in st.events), st.events
    assert set(st.ofire.lostw[t]) == lost


def test_attached_weapon_loss_needs_the_rule():
    st = opt_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "us-mech-squad", "sov", B, FACE_SHOOTER)],
                   ("bu-modifier",), dice=[100, 1, 1, 1])
    act(st, "fire S at T main:HEAT-MP")
    assert st.red[idx_of(st, "T")] and not st.ofire.lostw[idx_of(st, "T")]


# ---------------------------------------------------------------- 7.38 (ARTY's rule, the mortar direct fire part)
def test_mortar_direct_gp_fire_air_bursts_in_woods():
    # MBT 7.38: mortar direct GP fire at an S-Type in Woods (2J4, seen from 2D1 at range 6 with its Spot/Fire)
    # gets the air-burst modifier (opt_air_bursts.air_burst: table air-values of indirect fire)
    def net(rules, card="m106", ammo="mortar:HE"):
        st = opt_state([unit("S", card, "us", "2D1", 0, command="FIRE"),
                        unit("T", "sov-mr-squad", "sov", "2J4", 0, mark="spot-fire")], rules, dice=[1])
        act(st, f"fire S at T {ammo}")
        return int(re.search(r"roll 1([+-]\d+) =", next(e for e in st.events if " fires " in e)).group(1)), st

    on, st = net(("air-bursts",))
    assert on - net(())[0] == st.air_burst(idx_of(st, "T")) > 0
    assert net(("air-bursts",), ammo="mmg:GP")[0] == net((), ammo="mmg:GP")[0]  # not a mortar


def test_damaged_radio_command_range_zero():
    # MBT 7.23.5.2: a Damaged Radio Set makes the Command Range 0 (units one hex apart are no longer linked)
    a, b, _ = clear_pair(1)
    def linked(status):
        st = opt_state([unit("X", "m1", "us", a, D, **status), unit("Y", "m1", "us", b, D)], COL)
        x, y = idx_of(st, "X"), idx_of(st, "Y")
        return st.in_command_range(x, y, st.game.formation_of[x])

    assert linked({}) and not linked({"collateral": ["radio"]})


def test_damaged_radio_may_not_call_indirect_fire():
    # MBT 7.23.5.3: an observer with a Damaged Radio Set may not call indirect fire
    from mbt_arty_fixtures import FO, arty_state, calls, if_units

    def called(status):
        return [a for a in calls(arty_state(if_units("t-80bv", FO, status), optional=COL)) if a.startswith("call")]

    assert called(None) and not called({"collateral": ["radio"]})


def test_ma97_coax_lost_or_suppression():
    # MA97 (MBT 7.23.1): TF roll 3: the Coax MG is damaged (the BMP-2 has one); without one (M113): Suppression/On
    bmp = _shot("m1", "main:APFSDS", "bmp-2", [1, 11, 100, 3], COL, facing=FACE_SHOOTER)
    t = idx_of(bmp, "T")
    assert bmp.coax_lost(t) and not bmp.sup[t], bmp.events
    m113 = _shot("m1", "main:APFSDS", "m113", [1, 11, 100, 3], COL, facing=FACE_SHOOTER)
    assert m113.sup[idx_of(m113, "T")] and m113.coax_lost(idx_of(m113, "T")), m113.events


def test_ma97_damaged_coax_loses_the_pointblank_modifier():
    # MBT 7.23.1: the M1's coax MMG at a squad at Point Blank: +10, not with a damaged Coax MG
    a, b, d = clear_pair(1)

    def net(status):
        st = opt_state([unit("S", "m1", "us", a, d, command="FIRE", **status),
                        unit("T", "sov-mr-squad", "sov", b, (d + 3) % 6)], COL, dice=[50])
        act(st, "fire S at T mmg:GP")
        return int(re.search(r"roll 50([+-]\d+) =", next(e for e in st.events if " fires " in e)).group(1))

    coax = opt_state([unit("S", "m1", "us", A, D)], COL).game.ag.gp_mod["coax-pointblank"]
    assert net({}) - net({"collateral": ["coax"]}) == coax


def test_ma97_optics_cost_five_on_gp_fire():
    def net(status):
        st = opt_state([unit("S", "m1", "us", A, D, command="FIRE", **status),
                        unit("T", "sov-mr-squad", "sov", B, FACE_SHOOTER)], COL, dice=[50])
        act(st, "fire S at T main:HEAT-MP")
        return int(re.search(r"roll 50([+-]\d+) =", next(e for e in st.events if " fires " in e)).group(1))

    g = opt_state([unit("S", "m1", "us", A, D)], COL).game
    band = g.ag.sight_gp.get("O")["P"] - g.ag.sight_gp.get("L", g.ag.sight_gp["O"])["P"]
    assert net({"collateral": ["optics"]}) - net({}) == -5 + band


def test_ma97_no_effect_roll_records_nothing():
    st = _shot("m1", "main:APFSDS", "bmp-2", [1, 11, 100, 5], COL, facing=FACE_SHOOTER)
    assert not st.ofire.collat[idx_of(st, "T")] and any("roll 5: no effect" in e for e in st.events), st.events


def test_ma97_each_collateral_effect_applies_once():
    st = _shot("m1", "main:APFSDS", "m113", [1, 11, 100, 1], COL, collateral=["turret-ring"])
    t = idx_of(st, "T")
    assert not st.sup[t] and any("roll 1: no effect" in e for e in st.events), st.events


@pytest.mark.parametrize("card, ammo", [("m150", "tow:ITOW")])
def test_atgm_track_hits_always_stand(card, ammo):
    # MBT 7.21: ATGMs (and hand-held AT weapons) are excluded: the M150's ITOW Track hit on an M1 stands
    st = opt_state([unit("S", card, "us", A, D, command="FIRE"), unit("T", "m1", "sov", B, FACE_AWAY)],
                   ("variable-track-damage",), dice=[1, 100, 100])
    act(st, f"fire S at T {ammo}")
    assert st.track[idx_of(st, "T")], st.events
