"""MBT Optional Rule 7.1 Morale and 7.6 Tank Fright through positions (examples MA70, MA73-MA79)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import act, clear_pair, events, game_with, legal, pos_state, unit  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.engine.morale import BRK_OFF, BRK_ON, HES_ON, cohesion_level, numeric_cp  # noqa: E402

MORALE = ("morale",)
CP = {"us": 9, "sov": 9}


def _hex_of(code: str, free_behind: bool = True) -> tuple[str, str, str]:
    """A hex of terrain ``code`` whose front (hexside 0) and rear (3) neighbours and hexside 1 are on the map."""
    g = game_with(MORALE)
    for h in sorted(g.map.label_of):
        if g.map.terrain.get(h) != code:
            continue
        nb = [neighbour(h, d) for d in (0, 1, 3)]
        if all(x in g.map.label_of for x in nb) and g.los.clear(h, nb[2]):
            return g.label(h), g.label(nb[1]), g.label(nb[2])
    raise LookupError(code)


FAR = "2P13"


# ---------------------------------------------------------------- 7.1.1 Cohesion Point
def test_numeric_cohesion_point_examples():
    # MA73 / MBT 7.1.1.1: Good, 17 combat units -> 5.5 + 4 = 9.5 -> 9; 24 units -> 2 x 5.5 + 2 = 13
    g = game_with(MORALE)
    good = g.optc.cp_levels["good"]
    assert (numeric_cp(good, 17), numeric_cp(good, 24)) == (9, 13)
    # the Soviet Regulars roll 77 - 20 (deployment +2) - 10 (Regulars) = 47 -> Good (46-55)
    assert cohesion_level(g.optc.cp_levels, 77 - 20 - 10) == "good"
    assert g.optc.cp_nation["SOV"]["plus2"] == -20 and g.optc.grade_cohesion["regulars"] == -10
    assert cohesion_level(g.optc.cp_levels, 91) == "superb" and cohesion_level(g.optc.cp_levels, 25) == "poor"
    assert cohesion_level(g.optc.cp_levels, 26) == "fair"


def test_listed_level_gives_the_numeric_point_of_the_formation():
    # MBT 7.1.1: a listed level is read with the formation's combat units (the first US force of the sample)
    g = game_with(MORALE, morale=({"force": _first_force(g0 := game_with(MORALE)), "cohesion": "excellent"},))
    f = 0
    n = sum(1 for i, ff in enumerate(g.formation_of) if ff == f and g.units[i].type.combat)
    st = g.new_initial_state(1)
    assert st.cpn[f] == numeric_cp(g.optc.cp_levels["excellent"], n)
    listed = game_with(MORALE, morale=({"force": _first_force(g0), "cohesion_point": 8},))  # MA74: CP-8
    assert listed.new_initial_state(1).cpn[0] == 8


def _first_force(g) -> str:
    return g.units[0].force


def test_rolled_cohesion_point_at_setup_or_first_loss():
    # MBT 7.1.1.1: without a listed value the formation rolls; option cohesion-timing first-loss defers it
    st = game_with(MORALE).new_initial_state(5)
    assert all(x >= 0 for x in st.cpn)
    late = game_with(MORALE, options={"cohesion-timing": "first-loss"}).new_initial_state(5)
    assert all(x == -1 for x in late.cpn)
    assert game_with(()).new_initial_state(5).cpn == [-1] * len(st.cpn)


# ---------------------------------------------------------------- 7.1.2 triggers
def _mover(**ext):
    a, b, d = clear_pair(1)
    units = [unit("M", "m1", "us", a, d, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0, command="NC")]
    return units, b


@pytest.mark.parametrize("losses, checks", [(1, True), (0, False)])
def test_normal_check_after_a_move_once_the_cohesion_point_is_reached(losses, checks):
    # MBT 7.1.2 / MA77: with losses equal to the CP (1 of 1) a unit that moves from its hex checks when the move
    # is complete: roll 5, Seasoned, Clear, command MOVE -20 -> -15: Break (US 01-50)
    units, _ = _mover()
    st = pos_state(units, MORALE, phase="move-first", dice=[5], cohesion_point={"us": 1, "sov": 9},
                   morale_losses={"us": losses})
    act(st, "move M")
    act(st, next(a for a in legal(st) if a.startswith("fwd")))
    act(st, "done M")
    assert bool(events(st, "Morale Check (moved)")) == checks, st.events
    assert st.broken(0) == checks


def test_no_checks_with_morale_off():
    units, _ = _mover()
    st = pos_state(units, (), phase="move-first", dice=[5], cohesion_point={"us": 1}, morale_losses={"us": 1})
    act(st, "move M")
    act(st, next(a for a in legal(st) if a.startswith("fwd")))
    act(st, "done M")
    assert not events(st, "Morale") and st.mor[0] == 0


def test_forced_check_when_a_hex_mate_is_eliminated_in_hand_to_hand():
    # MBT 7.1.3: before the CP a leg unit whose formation's leg hex-mate is eliminated in Hand-to-Hand takes a
    # Forced Morale Check (+20)
    a, b, d = clear_pair(1)
    units = [unit("I", "us-mech-squad", "us", a, d, command="MOVE"),
             unit("T1", "sov-mr-squad", "sov", b, 0), unit("T2", "sov-mr-squad", "sov", b, 0)]
    st = pos_state(units, MORALE, phase="close-combat", dice=[90, 10, 90, 10, 99], cohesion_point=CP)
    act(st, "assault I T1")
    assert st.st[1] == 3
    assert events(st, "T2 Forced Morale Check (hexmate-lost)"), st.events
    assert not events(st, "I Forced")


# ---------------------------------------------------------------- 7.1.4 procedure
def _ma78(suppressed: bool, facing_t: bool = False, dice=(36,)):
    h, side, behind = _hex_of("S")
    g = game_with(MORALE)
    units = [unit("I", "us-mech-squad", "us", h, 3 if facing_t else 0, suppression="on" if suppressed else "none"),
             unit("C", "m113", "us", side, 0), unit("T", "t-80bv", "sov", behind, 0)]
    return pos_state(units, MORALE, phase="move-first", dice=list(dice), grades={"us": "veteran", "sov": "seasoned"},
                     cohesion_point=CP, command_units={"C": "CHQ"})


def test_ma78_forced_check_of_a_suppressed_squad():
    # MA78 / MBT 7.1.4: Veteran +10, Suppressed -20, command unit in range +20, Forced +20 = +30; the T-80BV
    # behind it is not counted (a Suppressed unit spots only to its front); 36 -> 66: Hesitation (USA 51-70)
    st = _ma78(True)
    assert st.morale_modifiers(0, True) == 30
    st.morale_check(0, True, "overrun")
    assert st.mor[0] == HES_ON
    assert events(st, "roll 36+30 = 66"), st.events


def test_spotted_enemy_modifiers():
    # MBT 7.1.4: an unsuppressed squad sees the adjacent T-80BV: -20 (and no Suppressed -20); suppressed but
    # facing it: both apply
    assert _ma78(False).morale_modifiers(0, True) == 30
    assert _ma78(True, facing_t=True).morale_modifiers(0, True) == 10


def test_break_and_hesitate_results_by_the_break_point_table():
    st = _ma78(True, dice=())
    st.dice.force(20)
    st.morale_check(0, True, "test")  # 20 + 30 = 50: Break (01-50)
    assert st.mor[0] == BRK_ON
    st.dice.force(30)
    st.morale_check(0, True, "test")  # 60: Hesitate, but a Broken unit keeps its Break (MBT 7.1.4)
    assert st.mor[0] == BRK_ON
    st.mor[0] = 0
    st.dice.force(41)
    st.morale_check(0, True, "test")  # 71: unaffected
    assert st.mor[0] == 0


def test_command_unit_bonus_counts_once_and_not_when_broken():
    # MA79: +20 at most, whatever the number of command units; a Broken command unit gives none, a Broken unit
    # of the formation in range gives -10
    h, side, behind = _hex_of("S")
    g = game_with(MORALE)
    other = g.label(neighbour(g.map.hex(h), 0))
    base = [unit("I", "us-mech-squad", "us", h, 0), unit("T", "t-80bv", "sov", FAR, 0)]
    two = base + [unit("C", "m113", "us", side, 0), unit("D", "m113", "us", other, 0)]
    st = pos_state(two, MORALE, phase="move-first", grades={"us": "veteran"}, cohesion_point=CP,
                   command_units={"C": "CHQ", "D": "CHQ"})
    assert st.morale_modifiers(0, False) == 10 + 20
    one_broken = [dict(x) for x in two]
    one_broken[3] = unit("D", "m113", "us", other, 0, morale="break-on")
    one_broken[2] = unit("C", "m113", "us", side, 0, morale="break-on")
    st = pos_state(one_broken, MORALE, phase="move-first", grades={"us": "veteran"}, cohesion_point=CP,
                   command_units={"C": "CHQ", "D": "CHQ"})
    assert st.morale_modifiers(0, False) == 10 - 10


def test_cover_damage_and_command_modifiers():
    # MA79: Woods (Medium) +10; Damaged -20; a command other than N/C -20
    g = game_with(MORALE)
    w = next(g.label(h) for h in sorted(g.map.label_of) if g.map.terrain.get(h) == "W")
    st = pos_state([unit("M", "m1", "us", w, 0, damaged=True, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0)],
                   MORALE, phase="move-first", cohesion_point=CP)
    assert st.cover_of(st.hex[0]) == "medium"
    assert st.morale_modifiers(0, False) == 10 - 20 - 20
    assert st.morale_modifiers(0, True) == 10 - 20 - 20 + 20


# ---------------------------------------------------------------- 6.8.5 recovery
@pytest.mark.parametrize("roll, status", [(34, 0), (11, 0), (10, BRK_OFF)])
def test_ma70_break_recovery(roll, status):
    # MA70 / MBT 6.8.5.2: Veteran M2 Break/Off in Woods, N/C, unbroken CHQ adjacent: +40; 51-00 recovers (the
    # turn ends after X's move, so the recovery roll is the position's forced die)
    g = game_with(MORALE)
    w = next(h for h in sorted(g.map.label_of) if g.map.terrain.get(h) == "W" and
             neighbour(h, 1) in g.map.label_of)
    units = [unit("B", "m2", "us", g.label(w), 0, morale="break-off", command="NC"),
             unit("C", "m1", "us", g.label(neighbour(w, 1)), 0, command="NC"),
             unit("X", "m1", "us", "2A1", 0, command="MOVE"), unit("T", "t-80bv", "sov", FAR, 0, command="NC")]
    st = pos_state(units, MORALE, phase="move-first", dice=[roll], grades={"us": "veteran", "sov": "seasoned"},
                   cohesion_point=CP, command_units={"C": "CHQ"})
    act(st, "move X")
    act(st, "done X")
    assert st.mor[0] == status
    assert events(st, f"roll {roll}+40 = {roll + 40} vs 51-00"), st.events


def test_hesitation_off_is_removed_and_on_turns_off():
    # MBT 6.8.5.1, 6.8.6: Hesitation/Off is removed, Hesitation/On and Break/On turn Off
    units = [unit("A", "m1", "us", "2A1", 0, morale="hesitation-off"), unit("B", "m1", "us", "2A4", 0,
             morale="hesitation-on"), unit("C", "m1", "us", "2A7", 0, morale="break-on"),
             unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, MORALE, phase="adjustment", cohesion_point=CP)
    assert [st.morale_status(i) for i in range(3)] == ["none", "hesitation-off", "break-off"]


# ---------------------------------------------------------------- 7.1.5 effects
def _shooter(status: str, rules=MORALE):
    a, b, d = clear_pair(6)
    units = [unit("S", "m1", "us", a, d, command="FIRE", morale=status), unit("T", "t-80bv", "sov", b, 0)]
    return pos_state(units, rules, phase="direct-fire-first", cohesion_point=CP)


@pytest.mark.parametrize("status, ap, gp", [("hesitation-on", -3, -10), ("break-off", -5, -20)])
def test_fire_modifiers_of_hesitating_and_broken_units(status, ap, gp):
    # MBT 7.1.5.1-2: -3 / -5 AP, -10 / -20 GP
    base, worse, off = _shooter("none"), _shooter(status), _shooter(status, ())
    row = next(r for r in base.game.units[0].type.ap if r.kind != "GP")
    assert worse.hit_modifiers(0, 1, row, False)[0] - base.hit_modifiers(0, 1, row, False)[0] == ap
    assert off.hit_modifiers(0, 1, row, False) == base.hit_modifiers(0, 1, row, False)
    gprow = next(r for r in base.game.units[0].type.ap if r.kind == "GP")
    assert worse.gp_modifiers(0, 1, gprow, "S", False) - base.gp_modifiers(0, 1, gprow, "S", False) == gp
    assert worse.morale_bail_mod(0) == gp and worse.morale_if_response_mod(0) == (-1 if ap == -3 else -2)


def test_hesitation_if_response_option():
    st = pos_state([unit("S", "m1", "us", "2A1", 0, morale="hesitation-on"), unit("T", "t-80bv", "sov", FAR, 0)],
                   MORALE, options={"hesitation-if-response": "none"}, cohesion_point=CP)
    assert st.morale_if_response_mod(0) == 0


def test_broken_units_move_at_half_and_turn_on():
    # MBT 7.1.5.2: 1/2 speed rounded down; Break/Off turns On when it moves
    units = [unit("M", "m1", "us", "2A1", 2, command="MOVE", morale="break-off"), unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, MORALE, phase="move-first", cohesion_point=CP)
    ok = pos_state([dict(units[0], status={"command": "MOVE"}), units[1]], MORALE, phase="move-first",
                   cohesion_point=CP)
    act(st, "move M")
    act(ok, "move M")
    assert st.mv_left == ok.mv_left // 2 and st.mor[0] == BRK_ON


def test_hesitating_units_may_not_close_assault_and_hth_modifier():
    # MBT 7.1.5: no Close Assault / Hand-to-Hand initiation; in HTH -10 (Hesitating) / -20 (Broken)
    a, b, d = clear_pair(1)
    units = [unit("I", "us-mech-squad", "us", a, d, command="MOVE", morale="hesitation-on"),
             unit("T", "sov-mr-squad", "sov", b, 0, morale="break-on")]
    st = pos_state(units, MORALE, phase="close-combat", cohesion_point=CP)
    assert st.phase_id() != "close-combat"
    calm = pos_state([dict(units[0], status={"command": "MOVE"}), dict(units[1], status={})], MORALE,
                     phase="close-combat", cohesion_point=CP)
    assert calm.phase_id() == "close-combat"
    assert st._hth_mod(1, False, 0) - calm._hth_mod(1, False, 0) == -20


def test_broken_units_are_not_active_for_commands_and_spot_two_rows_down():
    # MBT 7.1.5.2: a Broken unit is not an active unit; it spots two rows down the Spotting Ranges table
    a, b, d = clear_pair(12)
    units = [unit("S", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, 0)]
    calm = pos_state(units, MORALE, phase="spotting", cohesion_point=CP)
    broken = pos_state([unit("S", "m1", "us", a, d, morale="break-off"), units[1]], MORALE, phase="spotting",
                       cohesion_point=CP)
    assert 1 in calm.spots[0] and 1 not in broken.spots[0]
    assert broken._active_units(0, [0]) == 0 and calm._active_units(0, [0]) == 1


# ---------------------------------------------------------------- 7.6 Tank Fright
@pytest.mark.parametrize("roll, sup, attacks", [(60, 1, False), (75, 2, False), (95, 0, True)])
def test_tank_fright(roll, sup, attacks):
    # MBT 7.6: a Green squad takes a Forced Morale Check before its Close Assault, without the spotted-unit
    # modifiers: Green -20, Forced +20, Move -20 = -20. 60 -> 40 Break: Suppression/On; 75 -> 55 Hesitate:
    # Suppression/Off; 95 -> 75 passes and attacks
    a, b, d = clear_pair(1)
    units = [unit("I", "us-mech-squad", "us", a, d, command="MOVE"), unit("T", "t-80bv", "sov", b, 0)]
    st = pos_state(units, ("tank-fright",), phase="close-combat", dice=[roll, 50, 5], grades={"us": "green"})
    act(st, "assault I T")
    assert events(st, f"roll {roll}-20 = {roll - 20}"), st.events
    said = {1: "Suppression/On", 2: "Suppression/Off", 0: "close assaults"}[sup]
    assert events(st, said) and bool(events(st, "close assaults")) == attacks, st.events


def test_no_tank_fright_for_seasoned_squads_or_with_the_rule_off():
    a, b, d = clear_pair(1)
    units = [unit("I", "us-mech-squad", "us", a, d, command="MOVE"), unit("T", "t-80bv", "sov", b, 0)]
    for rules, grades in ((("tank-fright",), None), ((), {"us": "green"})):
        st = pos_state(units, rules, phase="close-combat", dice=[60, 50, 5], grades=grades)
        act(st, "assault I T")
        assert not events(st, "tank fright") and events(st, "close assaults")


@pytest.mark.parametrize("status, mod", [("hesitation-on", -1), ("break-off", -2), ("none", 0)])
def test_fire_response_of_a_hesitating_or_broken_observer(status, mod):
    # MBT 7.1.5: a Hesitating observer's Called Fire Response -1 (option hesitation-if-response), Broken -2
    from mbt_arty_fixtures import arty_state, if_units

    st = arty_state(if_units(fo_status={"morale": status}), dice=[5, 50, 99, 99], optional=MORALE,
                    position_ext={"cohesion_point": CP})
    act(st, "call M by F at 4E1")
    assert events(st, f"F calls M on 4E1: response roll 5{mod:+d} vs 2"), st.events


def test_indirect_gp_of_a_broken_mortar():
    # MBT 7.1.5.2: -20 on the GP fire of a Broken unit, Indirect Fire included
    from mbt_arty_fixtures import arty_state, if_units

    def net(status):
        st = arty_state([dict(u, status={**u["status"], "morale": status}) if u["id"] == "M" else u
                         for u in if_units()], dice=[5, 50, 99, 99], optional=MORALE,
                        position_ext={"cohesion_point": CP})
        act(st, "call M by F at 4E1")
        e = events(st, "IF at T")
        return int(e[0].split("roll 50")[1].split(" =")[0]) if e else None
    assert net("break-off") - net("none") == -20


def test_a_unit_attacked_by_direct_fire_checks_after_the_shot():
    # MBT 7.1.2: past its Cohesion Point a unit attacked by Direct Fire checks at the completion of the attack
    a, b, d = clear_pair(6)
    units = [unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    for losses, checks in ((1, True), (0, False)):
        st = pos_state(units, MORALE, phase="direct-fire-first", dice=[100, 5, 99, 99],
                       cohesion_point={"us": 9, "sov": 1}, morale_losses={"sov": losses})
        act(st, next(x for x in legal(st) if x.startswith("fire S at T") and "APFSDS" in x))
        assert bool(events(st, "T Morale Check (attacked)")) == checks, st.events


def test_a_unit_attacked_by_indirect_fire_checks():
    from mbt_arty_fixtures import arty_state, if_units

    st = arty_state(if_units(), dice=[5, 50, 5, 99, 99], optional=MORALE,
                    position_ext={"cohesion_point": {"us": 9, "sov": 1}, "morale_losses": {"sov": 1}})
    act(st, "call M by F at 4E1")
    assert events(st, "T Morale Check (attacked)"), st.events


def test_losing_a_command_unit_forces_checks_within_command_range():
    # MBT 7.1.3: a formation command unit eliminated within Command Range: a Forced Morale Check (before the CP);
    # units beyond the range do not check
    g = game_with(MORALE)
    a, b, d = clear_pair(1)
    near = next(g.label(neighbour(g.map.hex(b), k)) for k in range(6) if neighbour(g.map.hex(b), k) in g.map.label_of
                and g.label(neighbour(g.map.hex(b), k)) != a)
    units = [unit("I", "us-mech-squad", "us", a, d, command="MOVE"), unit("C", "sov-mr-squad", "sov", b, 0),
             unit("N", "t-80bv", "sov", near, 0), unit("F", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, MORALE, phase="close-combat", dice=[90, 10, 90, 10, 99, 99], cohesion_point=CP,
                   command_units={"C": "CHQ"}, force_grades={"us": "seasoned", "sov": "seasoned"})
    act(st, "assault I C")
    assert st.st[1] == 3
    assert events(st, "N Forced Morale Check (command-unit-lost)"), st.events
    assert not events(st, "F Forced")


def test_ma77_what_counts_as_a_loss():
    # MA77 / MBT 7.1.1.2: eliminated combat units and KO/BU/Bailed Out vehicles count; a squad reduced to its
    # half-squad, a Track hit or Damage do not; helicopter losses never count
    units = [unit("A", "m1", "us", "2A1", 0), unit("B", "m1", "us", "2A4", 0, damaged=True, track_hit=True),
             unit("I", "us-mech-squad", "us", "2A7", 0), unit("H", "ah-1s", "us", "2A10", 0),
             unit("T", "t-80bv", "sov", FAR, 0)]
    st = pos_state(units, MORALE, phase="move-first", cohesion_point=CP)
    f = st.game.formation_of[0]
    st.red[2] = True
    assert st.formation_losses(f) == 0
    st.st[0] = st.st[3] = 3
    assert st.formation_losses(f) == 1
    st.st[2] = 3
    assert st.formation_losses(f) == 2
