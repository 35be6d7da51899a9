"""More cases of the MBT optional rules of morale, hidden units, spotting and command: the boundaries and branches
the other test files leave open (each case fails if the code it names is broken)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import act, clear_pair, end_turn_decisions, events, game_with, legal, pos_state, unit  # noqa: E402

from studio.rules.position import PositionError  # noqa: E402
from studio.rulesets.mbt.engine.morale import numeric_cp  # noqa: E402

MORALE = ("morale",)
CP = {"us": 9, "sov": 9}
FAR = "4T13"
WOODS, NEAR_ENEMY, ENEMY, WOODS_EXIT = "2L10", "2A10", "2B12", "2K10"


# ---------------------------------------------------------------- morale
def test_numeric_cp_tens():
    # MBT 7.1.1.1: 10 units read the tens column once; 19 = tens + column 9
    good = game_with(MORALE).optc.cp_levels["good"]
    assert numeric_cp(good, 10) == 5 and numeric_cp(good, 19) == 10 and numeric_cp(good, 9) == 5


def test_losses_are_the_formations_own_and_add_to_the_offset():
    units = [unit("A", "m1", "us", "2A1", 0), unit("B", "m1", "us", "2A4", 0), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, MORALE, phase="move-first", cohesion_point={"us": 2, "sov": 1},
                   morale_losses={"us": 1})
    us, sov = st.game.formation_of[0], st.game.formation_of[2]
    assert st.recorded_losses()[us] == 1 and not st.cohesion_reached(us)
    st.st[1] = 3
    assert st.formation_losses(us) == 2 and st.formation_losses(sov) == 0 and st.cohesion_reached(us)
    assert not st.cohesion_reached(sov)


def test_a_cohesion_point_of_zero_is_reached_at_once_and_undetermined_never():
    units = [unit("A", "m1", "us", "2A1", 0), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, MORALE, phase="move-first", cohesion_point={"us": 0, "sov": 9})
    assert st.cohesion_reached(st.game.formation_of[0])
    late = pos_state(units, MORALE, phase="move-first", options={"cohesion-timing": "first-loss"})
    assert late.cpn == [-1, -1] and not late.cohesion_reached(0) and late.cpn[0] == -1


def test_a_unit_that_does_not_leave_its_hex_does_not_check():
    units = [unit("M", "m1", "us", "2A1", 1, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0, command="NC")]
    st = pos_state(units, MORALE, phase="move-first", dice=[5], cohesion_point={"us": 1, "sov": 9},
                   morale_losses={"us": 1})
    act(st, "move M")
    act(st, "done M")
    assert not events(st, "Morale Check")


def test_no_modifiers_for_calm_units():
    a, b, d = clear_pair(6)
    st = pos_state([unit("S", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, 0)], MORALE, cohesion_point=CP)
    assert st.morale_bail_mod(0) == 0 and st.morale_if_response_mod(0) == 0 and st.morale_fire_mod(0, "ap") == 0
    off = pos_state([unit("S", "m1", "us", a, d, morale="break-on"), unit("T", "t-80bv", "sov", b, 0)], (),
                    cohesion_point=CP)
    assert off.morale_bail_mod(0) == 0 and off.morale_if_response_mod(0) == 0 and off.morale_fire_mod(0, "gp") == 0


def test_a_broken_unit_does_not_limit_the_spotting_of_the_others():
    a, b, d = clear_pair(12)
    units = [unit("S", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, 0), unit("X", "m1", "us", "2A1", 0,
                                                                             morale="break-on")]
    st = pos_state(units, MORALE, phase="spotting", cohesion_point=CP)
    assert 1 in st.spots[0]


def test_broken_units_see_less_for_the_spotted_enemy_modifier():
    # MBT 7.1.4 with 7.1.5.2: an enemy counts only if the checking unit spots it itself: a Broken unit (two rows
    # down the Spotting Ranges table) does not see the tank in Woods at 4
    st = pos_state([unit("M", "m1", "us", "2H11", 0), unit("T", "t-80bv", "sov", WOODS, 0)],
                   MORALE, phase="move-first", cohesion_point=CP)
    assert st.morale_modifiers(0, False) == -10  # the tank in Woods at 4 (range 7): -10
    st.mor[0] = 3
    assert st.morale_modifiers(0, False) == 0


def test_brew_up_in_the_hex_and_attacked_unit_checks():
    # MBT 7.1.2: a formation vehicle Brewing Up in the hex makes the others there check; the attacked unit
    # checks only while it is on the map
    units = [unit("A", "m1", "us", "2A1", 0), unit("B", "m1", "us", "2A1", 0), unit("C", "m1", "us", "2A4", 0),
             unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, MORALE, phase="move-first", dice=[99, 99, 99], cohesion_point={"us": 0, "sov": 9})
    before = st.st[:]
    st.st[0] = 3
    st.wreck[st.hex[0]] = 2
    st._after_losses(before, (0,))
    assert events(st, "B Morale Check (brew-up)") and not events(st, "C Morale") and not events(st, "A Morale")


# ---------------------------------------------------------------- hidden units
def test_units_away_from_their_counter_are_not_spotted_with_it():
    # MBT 7.2.2.1: the counter (at its first unit, a tank in Woods 10 hexes off: range 7) is used for spotting;
    # its squad 2 hexes from the enemy is not spotted while the counter is not
    units = [unit("V", "m1", "us", WOODS, 0), unit("I", "us-mech-squad", "us", NEAR_ENEMY, 0),
             unit("T", "t-80bv", "sov", ENEMY, 0)]
    hidden = [{"id": "H", "side": "us", "hex": WOODS, "units": ["V", "I"]}]
    st = pos_state(units, ("hidden-units",), phase="spotting", hidden_units=hidden)
    assert st.hcs == [0] and 1 not in st.spots[2]
    plain = pos_state(units, (), phase="spotting", hidden_units=hidden)
    assert 1 in plain.spots[2]


def test_a_visible_unit_firing_reveals_no_counter():
    a, b, d = clear_pair(6)
    units = [unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, 0),
             unit("H", "m1", "us", WOODS, 0)]
    st = pos_state(units, ("hidden-units",), phase="direct-fire-first", dice=[99] * 6,
                   hidden_units=[{"id": "H1", "side": "us", "hex": WOODS, "units": ["H"]}])
    act(st, next(x for x in legal(st) if x.startswith("fire S at T")))
    assert st.hcs == [0] and st.hid[2] == 0


def test_scramble_places_hidden_units_at_their_sides_counters():
    units = [unit("H", "m1", "us", WOODS, 0), unit("T", "t-80bv", "sov", FAR, 0)]
    counters = [{"id": "H1", "side": "us", "hex": WOODS, "units": ["H"]}, {"id": "F1", "side": "us", "hex": "2A1"},
                {"id": "F2", "side": "sov", "hex": "2A13"}]
    st = pos_state(units, ("hidden-units",), phase="move-first", hidden_units=counters)
    seen = {st.game.label(st.scramble_hidden(1, seed).hex[0]) for seed in range(12)}
    assert seen == {WOODS, "2A1"}


def test_a_hidden_unit_moving_into_view_is_revealed():
    # MBT 7.2.2.2: a moving hidden unit is spotted with its Spot/Move range after its step
    units = [unit("H", "m1", "us", WOODS, 4, command="MOVE"), unit("T", "t-80bv", "sov", ENEMY, 0, command="NC")]
    st = pos_state(units, ("hidden-units",), phase="move-first",
                   hidden_units=[{"id": "H1", "side": "us", "hex": WOODS, "units": ["H"]}])
    assert st.hcs == [0]
    act(st, "move H")
    act(st, "fwd H")
    assert st.game.label(st.hex[0]) == WOODS_EXIT and st.hcs == [1]


def test_reveal_of_no_counter_is_nothing():
    units = [unit("H", "m1", "us", WOODS, 0), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, ("hidden-units",), phase="move-first",
                   hidden_units=[{"id": "H1", "side": "us", "hex": WOODS, "units": ["H"]}])
    st.reveal(-1, "test")
    assert st.hcs == [0]


# ---------------------------------------------------------------- command span
def _company(bhq=None, rhq=None, rules=("command-span",)):
    hexes = [f"2{c}{r}" for c in "ABCDEFGHI" for r in (1, 3, 5)]
    units = [unit("C", "t-80bv", "sov", "2E5", 0)] + [unit(f"U{k}", "t-80bv", "sov", h, 0)
                                                     for k, h in enumerate(h for h in hexes if h != "2E5")][:10]
    hq = {"C": "CHQ"}
    for uid, where, level in (("B", bhq, "BHQ"), ("R", rhq, "RHQ")):
        if where:
            units.append(unit(uid, "brdm-2-at5", "sov", where, 0))
            hq[uid] = level
    units.append(unit("X", "m1", "us", "2A13", 0))
    return pos_state(units, rules, phase="command", to_act="sov", grades={"sov": "seasoned"},
                     force_grades={"us": "seasoned", "sov": "seasoned"}, command_units=hq)


@pytest.mark.parametrize("bhq, rhq, grade", [("2E13", None, "seasoned"), ("4F3", None, "green"),
                                             ("2E13", "4F1", "green"), (None, None, "seasoned")])
def test_row_drops_of_the_higher_hqs(bhq, rhq, grade):
    # MBT 7.43: a CHQ beyond its BHQ's span (20) drops two rows; a BHQ beyond its RHQ's span too; cumulative
    st = _company(bhq, rhq)
    assert st.available_grade(0) == grade
    assert _company(bhq, rhq, ()).available_grade(0) == "seasoned"


def test_lost_bhqs_drop_two_rows_and_both_losses_add_up():
    st = _company("2E13", "2E9")
    b, r = st.game.uindex["B"], st.game.uindex["R"]
    st.st[b] = 3
    assert st.available_grade(0) == "green"
    st.st[r] = 3
    assert st.available_grade(0) == "raw"  # four rows down, never below Raw


def test_span_limit_resets_each_turn_and_counts_only_new_counters():
    st = _company()
    assert st.msh[0] == -1
    st.game.ocs.company_span[0] = 1  # a span of 1: most units are out of it
    try:
        st._available_commands()
        assert st.msh[0] == max(1, st.budget[0] // 2)
        st.game.ocs.company_span[0] = 30
        st._available_commands()
        assert st.msh[0] == -1
    finally:
        st.game.ocs.company_span.pop(0, None)


# ---------------------------------------------------------------- staggered initiative
def test_the_initial_first_player_may_be_the_second_side():
    units = [unit("A1", "m1", "us", "2A2", 2, command="FIRE"), unit("A2", "m1", "us", "2A3", 2, command="FIRE"),
             unit("T1", "t-80bv", "sov", "2G5", 5, command="FIRE"), unit("T2", "t-80bv", "sov", "2G6", 5,
                                                                      command="FIRE")]
    st = pos_state(units, ("staggered-initiative",), phase="direct-fire-first", to_act="sov",
                   formations={"A1": "a", "A2": "b", "T1": "c", "T2": "d"})
    assert legal(st) == ["formation c", "formation d"] and st.current_player() == 1


# ---------------------------------------------------------------- limited spotting / camouflage
def test_limited_spotting_near_value_at_half_range():
    # MBT 7.7: at half the maximum range or less the first value: Veteran near (placeholder 80) at 3 of 7
    from opt_command_fixtures import game_with as gw

    units = [unit("T", "t-80bv", "sov", WOODS, 0), unit("A", "m1", "us", "2I10", 0),
             unit("X", "m1", "us", "4T1", 0, command="MOVE")]
    st = pos_state(units, ("limited-spotting",), phase="move-first", dice=[80], force_grades={"us": "veteran"})
    act(st, "move X")
    act(st, "done X")
    end_turn_decisions(st)
    near = gw(("limited-spotting",)).optc.spotting["veteran"][0]
    assert events(st, f"roll 80 vs {near}"), st.events


def test_camouflage_thermal_and_recon_modifiers():
    g = game_with(("camouflage",))
    units = [unit("T", "t-80bv", "sov", WOODS, 0), unit("A", "m1", "us", "2H11", 0),
             unit("R", "brdm-2-at5", "sov", "2A1", 0)]
    st = pos_state(units, ("camouflage",), phase="move-first", camouflaged=["T"])
    recon = st.game.units[2].type.ag.recon
    assert st._camo_mod(2) == (g.optc.values["camouflage-recon"] if recon else 0)
    assert st._camo_mod(1) == 0


def test_a_damaged_radio_needs_the_command_unit_in_its_hex():
    # MBT 7.23.5.4: the unbroken command unit modifier only in the same hex for a unit with a damaged radio
    rules = MORALE + ("vehicle-collateral-damage",)
    units = [unit("M", "m1", "us", "2A1", 0), unit("C", "m1", "us", "2A2", 0), unit("T", "t-80bv", "sov", FAR, 0)]
    ext = {"cohesion_point": CP, "command_units": {"C": "CHQ"}, "force_grades": {"us": "veteran"}}
    calm = pos_state(units, rules, phase="move-first", **ext)
    cut = pos_state([unit("M", "m1", "us", "2A1", 0, collateral=["radio"])] + units[1:], rules, phase="move-first",
                    **ext)
    same = pos_state([unit("M", "m1", "us", "2A2", 0, collateral=["radio"])] + units[1:], rules,
                     phase="move-first", **ext)
    assert calm.morale_modifiers(0, False) == 10 + 20
    assert cut.morale_modifiers(0, False) == 10 and same.morale_modifiers(0, False) == 10 + 20


def test_a_fixed_wing_attack_reveals_and_triggers_a_check():
    # MBT 7.2.2.3: the target of an aircraft attack is revealed; MBT 7.1.2: past the CP it checks (any air attack)
    units = [unit("H", "m1", "us", WOODS, 0), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, ("hidden-units",) + MORALE, phase="move-first", dice=[1, 5, 99, 99],
                   hidden_units=[{"id": "H1", "side": "us", "hex": WOODS, "units": ["H"]}],
                   cohesion_point={"us": 0, "sov": 9})
    st.fw_gp_attack(0, 2, 0, "A-10>H", "bomb")
    assert st.hcs == [1] and events(st, "H Morale Check (attacked)"), st.events


# ---------------------------------------------------------------- more boundaries
@pytest.mark.parametrize("roll, sup", [(60, 1), (75, 2), (95, 0)])
def test_tank_fright_marks(roll, sup):
    a, b, d = clear_pair(1)
    units = [unit("I", "us-mech-squad", "us", a, d, command="MOVE"), unit("T", "t-80bv", "sov", b, 0)]
    st = pos_state(units, ("tank-fright",), phase="close-combat", grades={"us": "raw"},
                   force_grades={"us": "green"})
    st.dice.force(roll)
    assert st._passes_fright(0) == (sup == 0) and st.sup[0] == sup


def test_dead_units_neither_check_nor_count_as_spotted_enemies():
    a, b, d = clear_pair(1)
    units = [unit("M", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, 0)]
    st = pos_state(units, MORALE, phase="move-first", cohesion_point={"us": 0, "sov": 0})
    assert st.morale_modifiers(0, False) == -20
    st.st[1] = 3
    assert st.morale_modifiers(0, False) == 0
    st.morale_event(1, "attacked")
    assert not events(st, "T Morale")


def _disrupted(dice, rules=("disrupted-communications",), reset=False):
    sov = [unit("C", "t-80bv", "sov", "2A13", 0, command="NC"), unit("T1", "t-80bv", "sov", "2D13", 0,
                                                                      command="NC"),
           unit("T2", "t-80bv", "sov", "2M13", 0, command="NC")]
    units = [unit("X", "m1", "us", "4T1", 0, command="MOVE")] + sov
    st = pos_state(units, rules, phase="move-first", dice=dice, force_grades={"us": "veteran", "sov": "seasoned"},
                   disrupted_communications={"level": "moderate"}, command_units={"C": "CHQ"})
    if reset:
        st.dcom = [True] * len(st.dcom)
    act(st, "move X")
    act(st, "done X")
    return st, st.game.formation_of[1]


def test_disruption_with_units_out_of_command_span():
    # MBT 7.42: -20 when Command Span is in play and the formation has units out of span (T2 12 hexes from C)
    st, f = _disrupted([64, 29, 45], ("disrupted-communications", "command-span"))
    assert st.dcom[f]
    st, f = _disrupted([64, 29, 45])
    assert not st.dcom[f]
    st, f = _disrupted([64, 35], reset=True)
    assert not any(st.dcom)


def test_a_broken_chq_has_no_span_and_formations_without_a_chq_no_limit():
    near = [unit("C", "t-80bv", "sov", "2E5", 0, morale="break-on"), unit("U", "t-80bv", "sov", "2E7", 0),
            unit("X", "m1", "us", "2A13", 0)]
    rules = ("command-span", "morale")
    st = pos_state(near, rules, phase="command", to_act="sov", command_units={"C": "CHQ"}, cohesion_point=CP)
    assert st.msh[st.game.formation_of[0]] == 1
    calm = pos_state([unit("C", "t-80bv", "sov", "2E5", 0)] + near[1:], rules, phase="command", to_act="sov",
                     command_units={"C": "CHQ"}, cohesion_point=CP)
    assert calm.msh[0] == -1
    none = pos_state([unit("C", "t-80bv", "sov", "2E5", 0)] + near[1:], rules, phase="command", to_act="sov",
                     cohesion_point=CP)
    assert none.msh[0] == -1


def _battalion(tree=None, **kw):
    # C: the CHQ of company "coy" at 2E5; B: a BHQ of formation "battalion" 31 hexes away at 4F3 (beyond 20)
    units = [unit("C", "t-80bv", "sov", "2E5", 0), unit("B", "brdm-2-at5", "sov", "4F3", 0),
             unit("X", "m1", "us", "2A13", 0)] + kw.pop("more", [])
    forms = {"C": "coy", "B": "battalion", **kw.pop("formations", {})}
    ext = {"command_tree": tree} if tree else {}
    return pos_state(units, ("command-span",), phase="command", to_act="sov", force_grades={"sov": "seasoned"},
                     command_units={"C": "CHQ", "B": "BHQ", **kw.pop("hqs", {})}, formations=forms, **ext, **kw)


def test_a_bhq_commands_the_formations_below_it_in_the_command_tree():
    # MBT 7.43: the CHQ of coy is beyond the span (20) of its BHQ: two rows down (Seasoned -> Green)
    st = _battalion({"coy": "battalion"})
    assert st.game.formation_of[0] != st.game.formation_of[1]
    assert st.available_grade(st.game.formation_of[0]) == "green"
    # without the tree the battalion HQ is not coy's: coy's BHQ is off map, in span
    assert _battalion().available_grade(st.game.formation_of[0]) == "seasoned"


def test_a_bhq_out_of_its_rhq_span_drops_only_its_own_companies():
    # MBT 7.43: R (RHQ of the regiment, 4T5) is 35 hexes from B (BHQ of battalion over coy, 2E13, 8 from coy's CHQ:
    # in span); battalion-2's BHQ D (4P5) is 4 from R: coy drops two rows for its BHQ beyond the RHQ's span (20),
    # coy2 (under battalion-2) does not
    more = [unit("R", "brdm-2-at5", "sov", "4T5", 0), unit("D", "brdm-2-at5", "sov", "4P5", 0),
            unit("C2", "t-80bv", "sov", "4N5", 0)]
    tree = {"coy": "battalion", "battalion": "regiment", "coy2": "battalion-2", "battalion-2": "regiment"}
    st = _battalion(tree, more=more, hqs={"R": "RHQ", "D": "BHQ", "C2": "CHQ"},
                    formations={"R": "regiment", "D": "battalion-2", "C2": "coy2"})
    g = st.game
    st.hex[g.uindex["B"]] = g.map.hex("2E13")
    coy, coy2 = g.formation_of[0], g.formation_of[g.uindex["C2"]]
    assert st.available_grade(coy) == "green"
    assert st.available_grade(coy2) == "seasoned"
    st.hex[0] = g.map.hex("4F3")  # coy's CHQ beyond its BHQ's span too: four rows, Raw
    from studio.hexgrid.coords import distance

    assert distance(st.hex[0], st.hex[g.uindex["B"]]) > 20 and st.available_grade(coy) == "raw"
    st.st[g.uindex["R"]] = 3  # the only RHQ lost: two rows down for both companies for good
    assert st.available_grade(coy2) == "green"


def test_a_bad_command_tree_is_refused():
    with pytest.raises(PositionError):
        _battalion({"coy": "nowhere"})
    with pytest.raises(PositionError):
        _battalion({"coy": "battalion", "battalion": "coy"})


@pytest.mark.parametrize("aid, rng, seen", [("T", 13, True), ("I2", 13, True), ("IR", 10, False),
                                            ("none", 10, False)])
def test_night_aids_ranges(aid, rng, seen):
    # MBT 7.36.4: Thermal Imager 20 and Image Intensifier 15 (always on); an inactive IR searchlight nothing
    a, b, d = clear_pair(rng)
    units = [unit("S", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    st = pos_state(units, ("terrain-time-weather",), phase="move-first", light="night")
    st.game.ocs.aids[0] = frozenset({aid})
    st._spotting_phase()
    assert (1 in st.spots[0]) == seen


def test_ir_searchlight_range_ten_and_wl_seen_by_all():
    a, b, d = clear_pair(10)
    units = [unit("T", "t-80bv", "sov", a, d), unit("A", "m1", "us", b, (d + 3) % 6)]
    lit = pos_state(units, ("terrain-time-weather",), phase="spotting", light="night", searchlights_on=["T"])
    assert 1 in lit.spots[0]  # IR 10: at 10 still
    wl = pos_state(units, ("terrain-time-weather",), phase="move-first", light="night", searchlights_on=["T"])
    wl.game.ocs.aids[0] = frozenset({"WL"})
    wl._spotting_phase()
    assert 0 in wl.spots[1]  # an active WL searchlight is seen by every opposing unit within 15


def test_recon_spotters_roll_one_lower_for_camouflage():
    # MBT 7.24: Recon -1: the M3 rolls 8 - 1 = 7 <= 7 against the camouflaged tank in Woods
    units = [unit("T", "t-80bv", "sov", WOODS, 0), unit("R", "m3", "us", "2H11", 0),
             unit("X", "m1", "us", "4T1", 0, command="MOVE")]
    st = pos_state(units, ("camouflage",), phase="move-first", dice=[8], camouflaged=["T"])
    act(st, "move X")
    act(st, "done X")
    end_turn_decisions(st)
    assert 0 in st.spots[1] and events(st, "roll 8-1 vs 7"), st.events
