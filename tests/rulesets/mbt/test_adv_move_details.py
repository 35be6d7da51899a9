"""MBT Advanced movement, close combat and movement optional rules: the boundaries and bookkeeping of each rule
(which player acts, marks, once-per-turn limits, exact thresholds), through positions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import adv_state, clear_pair  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit, with_terrain  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.engine.codes import DEAD, MMOVE, ON  # noqa: E402
from studio.rulesets.mbt.engine.opt_move_data import CardMove, move_opt  # noqa: E402

A, B, D = clear_pair(1)
FAR = "4T13"


def _close(target, dice, attacker="us-mech-squad", grades=None, **status):
    units = [unit("I", attacker, "us", A, D, command="MOVE"), unit("T", target, "sov", B, 0, **status),
             unit("W", "m1", "us", FAR, 2, command="MOVE")]
    return adv_state(units, phase="close-combat", to_act="us", dice=dice, grades=grades)


def _ca_line(st):
    return next(e for e in st.events if "close assaults" in e)


def test_close_combat_first_player_then_second():
    # MBT 6.6.1: the First Player's attacks, then the Second Player's
    units = [unit("I", "us-mech-squad", "us", A, D, command="MOVE"),
             unit("S", "sov-mr-squad", "sov", B, (D + 3) % 6, command="MOVE")]
    st = adv_state(units, phase="close-combat", to_act="us")
    first = st.first
    assert st.cp == first
    act(st, "pass")
    assert st.phase_id() == "close-combat" and st.cp == 1 - first
    act(st, "pass")
    assert st.phase_id() != "close-combat"


def test_attackers_are_marked_spot_move_and_have_moved():
    # MBT 6.6.1.1: attackers are marked Spot/Move; the attack is their move
    st = _close("t-80bv", [1, 99, 99])
    act(st, "assault I T")
    assert st.mk[0] == MMOVE and st.rev[0] and st.moved[0]


def test_close_assault_no_effect_at_exactly_n():
    # MBT 6.5.4.4: at or under N is No Effect, above it Suppressed
    g = _close("t-80bv", []).game
    n_eff, s_eff = g.ag.gp_crt[(8, 5)]
    at_n = _close("t-80bv", [n_eff])
    act(at_n, "assault I T")
    assert ": NE" in _ca_line(at_n) and not at_n.sup[1]
    above = _close("t-80bv", [n_eff + 1])
    act(above, "assault I T")
    assert ": SUP" in _ca_line(above) and above.sup[1]


def test_close_assault_effective_ending_in_0_is_a_track_hit_and_bu_by_half_the_gp():
    # MBT 6.6.1.1.3: 10s TRACK; otherwise roll (10) at or under half the primary's GP factor (8 -> 4) BU, else KO
    track = _close("t-80bv", [90, 99])
    act(track, "assault I T")
    assert ": TRACK" in _ca_line(track) and track.track[1]
    bu = _close("t-80bv", [91, 4])
    act(bu, "assault I T")
    assert bu.st[1] == DEAD and bu.wreck.get(bu.hex[1]) == 2
    ko = _close("t-80bv", [91, 5])
    act(ko, "assault I T")
    assert ko.st[1] == DEAD and ko.wreck.get(ko.hex[1]) == 1


def test_close_assault_damage_roll_9_is_hull_damage():
    # MA35-like: Damaged, roll (10) above the turret maximum -> Hull Damaged
    st = _close("t-80bv", [95, 9, 99, 99])
    act(st, "assault I T")
    assert st.dmg[1] and not st.tdmg[1]


def test_targets_two_heights_away_may_not_be_attacked():
    # MA25 (MBT 6.6.1.1): a target 2 or more Heights above or below cannot be attacked; 1 above is allowed
    g = adv_state([unit("E", "m1", "us", FAR, 2)], phase="move-first").game
    pair = one = None
    for h in sorted(g.map.label_of):
        for f in range(6):
            b = neighbour(h, f)
            if b not in g.map.label_of:
                continue
            rise = g.elev.get(b, 0) - g.elev.get(h, 0)
            if rise >= 2 and pair is None:
                pair = (g.label(h), g.label(b), f)
            if rise == 1 and one is None:
                one = (g.label(h), g.label(b), f)
    assert one is not None
    for spot, allowed in ((one, True), (pair, False)):
        if spot is None:
            continue
        a, b, f = spot
        units = [unit("I", "us-mech-squad", "us", a, f, command="MOVE"), unit("T", "t-80bv", "sov", b, 0),
                 unit("W", "m1", "us", FAR, 2, command="MOVE")]
        st = adv_state(units, phase="close-combat", to_act="us", dice=[50, 99, 99])
        if not allowed:
            assert "assault I T" not in legal(st)
            continue
        assert "assault I T" in legal(st)
        act(st, "assault I T")
        flat = _close("t-80bv", [50, 99, 99])
        act(flat, "assault I T")
        uphill = int(_ca_line(st).split("roll 50")[1].split(" =")[0])
        level = int(_ca_line(flat).split("roll 50")[1].split(" =")[0])
        assert uphill == level + st.game.ag.close["uphill"]


# ------------------------------------------------------------------ overrun bookkeeping

def test_one_overrun_per_turn_even_with_a_second_target_ahead():
    from test_adv_move_overrun import BEYOND, D as OD, SCRUB, START

    g = opt_game()
    far = g.label(neighbour(g.map.hex(BEYOND), OD))
    units = [unit("V", "t-62mv", "sov", START, OD, command="MOVE"), unit("T", "us-mech-squad", "us", SCRUB, 0),
             unit("U", "us-mech-squad", "us", BEYOND, 0)]
    st = opt_state(g, units, to_act="sov", dice=[1, 1])
    act(st, "move V")
    before = st.fingerprint()
    act(st, "overrun V T")
    assert st.ovr[0] and "|ovr1" in st.fingerprint() and before != st.fingerprint()
    assert st.hex[0] == g.map.hex(SCRUB) and st.st[2] == ON and not st.overrun_targets(0)
    assert far in g.map.hex_of


def test_overrun_adds_the_passenger_squads_own_weapons():
    # MBT 6.6.10.1: passenger squads' GP factors join the Overrun (attached weapons do not)
    from test_adv_move_overrun import D as OD, SCRUB, START

    g = opt_game()
    units = [unit("V", "bmp-2", "sov", START, OD, command="MOVE"), unit("P", "sov-mr-squad", "sov", START, OD,
                                                                         carried_by="V"),
             unit("T", "us-mech-half-squad", "us", SCRUB, 0)]
    st = opt_state(g, units, to_act="sov")
    empty = opt_state(g, [units[0], units[2]], to_act="sov")
    alone, _ = empty.overrun_gp(0)
    loaded, _ = st.overrun_gp(0)
    own = sum(st.gp_factor(r, 1)[1] for r in st.game.units[1].type.ap if r.kind == "GP" and r.half is False)
    assert own > 0 and loaded == min(15, alone + own)


# ------------------------------------------------------------------ mines bookkeeping

def _plower(dice, lost=False):
    from test_opt_move_mines import A as MA, D as MD, M1, _field

    g = opt_game(("mines",), minefields=[_field(field="hasty", visible=True, hexes=(M1,))])
    move_opt(g).cards["m113"] = CardMove(plow=True)
    st = opt_state(g, [unit("V", "m113", "us", MA, MD, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 5)],
                   dice=dice)
    if lost:
        st.plow[0] = 2
    act(st, "move V")
    return st


def test_a_lost_plow_stays_lost_and_no_longer_protects():
    # MBT 7.31.3.4: the plow, once eliminated, is gone for the scenario; the vehicle is then attacked by AV mines
    st = _plower([1], lost=True)
    st._start_turn()
    assert st.plow[0] == 2
    st2 = _plower([1, 99], lost=True)
    act(st2, "fwd V")
    assert st2.dmg[0] or st2.track[0]


def test_the_plow_attacks_once_per_turn():
    # MBT 7.31.3.4: once per turn, on entering or moving within the hex
    st = _plower([1, 99])
    act(st, "fwd V")
    assert st.plow[0] == 1 and not st.mines[0].gone
    rolls = len(st.dice.history)
    st.mine_attack(0)  # moving within the hex: no second plow attack this turn, and no AV attack on a plow
    assert len(st.dice.history) == rolls and st.plow[0] == 1


def test_a_landed_helicopter_without_a_track_hit_may_take_off():
    from test_opt_move_mines import _landed

    st = _landed([71])
    assert any(len(a) < 4 or a[3] != "land" for a in st._heli_flights(0))


# ------------------------------------------------------------------ amphibious, full cover, fires

def test_a_vehicle_without_the_amphibious_mark_may_not_swim_and_sinking_counts_a_loss():
    from test_opt_move_terrain import W1, W2, WD

    g = with_terrain(opt_game(("amphibious",)), [W2], "L")
    st = opt_state(g, [unit("V", "m1", "us", W1, WD, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 5)])
    act(st, "move V")
    assert "fwd V" not in legal(st)
    move_opt(g).cards["m113"] = CardMove(amphibious=True)
    sw = opt_state(g, [unit("V", "m113", "us", W1, WD, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 5)])
    act(sw, "move V")
    act(sw, "fwd V")
    lost = sw.lost[0]
    sw.apply_damage(0, "KO", "HF")
    assert sw.st[0] == DEAD and sw.lost[0] == lost + 1 and sw.mv_end


def test_no_full_cover_step_in_the_first_air_phase():
    # MBT 6.8.3: the Adjust Full Cover Step follows the 2nd Air Phase; in the 1st the helicopters act
    g = opt_game()
    st = opt_state(g, [unit("L", "us-mech-squad", "us", A, D), unit("H", "mi-24", "sov", FAR, 5)],
                   phase="air-1", to_act="sov")
    assert st.phase_id() == "air-1" and legal(st) and not any(a.startswith("cover") for a in legal(st))


def test_fire_in_a_wood_building_by_construction():
    # MBT 7.35.1: the construction of the building hex picks the row (scenario building_construction)
    from test_opt_move_fires import TOWN, _burning_state

    wood = _burning_state(construction="wood")
    h = wood.game.map.hex(TOWN)
    wood.note_fire_attack(h, 8)
    top = next(m for c, lo, hi, m in move_opt(wood.game).fire_start if c == "wood" and lo <= 8 <= hi)
    wood.dice.force(top)
    wood._fire_checks()
    assert wood.burning == {h: wood.turn}
    assert wood._construction(h) == "wood"


def test_units_in_a_fire_die_with_their_passengers():
    from test_opt_move_fires import TOWN

    g = opt_game(("fires",))
    st = opt_state(g, [unit("V", "m113", "us", TOWN, 0), unit("P", "us-mech-squad", "us", TOWN, 0, carried_by="V"),
                       unit("E", "t-80bv", "sov", FAR, 5)], to_act=None)
    st.burning[g.map.hex(TOWN)] = st.turn - 1
    lost = st.lost[0]
    st._burn_units()
    assert st.st[0] == DEAD and st.st[1] == DEAD and st.carrier[1] == -1 and st.lost[0] == lost + 2
    assert st.st[2] == ON


# ------------------------------------------------------------------ transport

def test_passengers_of_under_armor_carriers_do_not_bail_out_after_nd():
    # MBT 6.5.2.7.2: after ND, DM or TK, passengers of Under Armor / Under Cover carriers do not bail out
    g = opt_game()
    for card, stays in (("bmp-2", True), ("m113", False)):  # Under Armor; no protection
        st = opt_state(g, [unit("C", card, "sov", A, D), unit("P", "sov-mr-squad", "sov", A, D, carried_by="C"),
                           unit("E", "m1", "us", FAR, 2)], to_act=None, dice=[1, 1])
        st.passengers_bail(0, "ND")
        assert (st.carrier[1] == 0 and st.st[1] != ON) == stays


# ------------------------------------------------------------------ batch 2: more boundaries

def test_escorts_are_overwatch_targets_and_marked_spot_move():
    # MBT 7.41: the covered legs move with the vehicle: Overwatch may fire at them, they are marked Spot/Move
    a, b, d = clear_pair(4)
    g = opt_game(("vehicle-assault-cover",))
    units = [unit("V", "m113", "us", a, d, command="MOVE"), unit("L", "us-mech-squad", "us", a, d, command="MOVE"),
             unit("E", "t-80bv", "sov", b, (d + 3) % 6, command="OW")]
    st = opt_state(g, units)
    act(st, "move V")
    act(st, "fwd V")
    assert st.mk[1] == MMOVE and st.hex[1] == st.hex[0]
    shots = [x for x in legal(st) if x.startswith("ow E at")]
    assert any(" at L " in x for x in shots), legal(st)


def test_engineers_attack_adjacent_terrain_only_and_the_defense_is_capped():
    # MBT 7.19 with the Close Assault procedure: adjacent, GPD at most the CA maximum (Deliberate field GPD 6 -> 5)
    from test_opt_move_engineers import A as EA, B as EB, D as ED

    g = opt_game(("engineers-vs-terrain", "mines"),
                 minefields=[{"side": "sov", "hexes": [EB], "field": "deliberate", "mines": "both",
                              "visible": True}])
    from studio.hexgrid.coords import distance

    far = g.label(next(h for h in sorted(g.map.label_of) if distance(h, g.map.hex(EB)) == 2))
    units = [unit("N", "us-engineer-squad", "us", EA, ED, command="MOVE"),
             unit("M", "us-engineer-squad", "us", far, ED, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 5)]
    st = opt_state(g, units, phase="close-combat", dice=[1])
    assert f"clear N {EB}" in legal(st)
    act(st, f"clear N {EB}")
    assert any("GPD 5)" in e for e in st.events) and st.moved[0]


def test_position_narrow_roads_and_hull_down_reversed():
    from studio.rules.position import position_state
    from test_opt_move_narrow import D as ND, H0, H1

    g = opt_game(("narrow-roads",))
    pos = {"scenario": g.scenario_id, "phase": "move-first", "to_act": "sov", "optional_rules": ["narrow-roads"],
           "units": [unit("V", "t-80bv", "sov", H0, ND, command="MOVE", hull_down="hd-rev"),
                     unit("E", "m1", "us", H1, 0)], "extension": {"narrow_roads": [H1]}}
    st = position_state(g, pos)
    assert st.hd[0] == 1 and st.hdrev[0]
    act(st, "move V")
    assert "fwd V" not in legal(st)  # the opposing M1 blocks the narrow hex


def test_push_a_wreck_and_the_shoulder_keeps_the_road_rate():
    # MBT 7.30: a wreck pushed to the shoulder no longer blocks and does not cost the road rate
    from test_opt_move_narrow import D as ND, H0, H1, _state

    units = [unit("V", "t-80bv", "sov", H0, ND, command="MOVE"), unit("X", "bmp-2", "sov", H1, ND),
             unit("E", "m1", "us", FAR, 2)]
    st = _state(units, dice=[50])
    h1 = st.game.map.hex(H1)
    st.st[1] = DEAD
    st.wreck[h1] = 1
    act(st, "move V")
    assert "push V" in legal(st)
    act(st, "push V")
    assert ("w", h1) in st.shoulder and not st._blocked(0, h1)
    halt = _state([dict(units[0], status={"command": "SH"})] + units[1:], dice=[50])
    halt.st[1] = DEAD
    halt.wreck[h1] = 1
    act(halt, "move V")
    assert "push V" not in legal(halt)  # a Move command only


def test_dismount_exactly_at_half_the_allowance_and_killed_passengers_count():
    # MBT 6.6.7: the carrier pays half its allowance (round down): allowed when exactly that much is left
    from test_adv_transport import _moving_carrier

    st = _moving_carrier()
    st.mv_left = st._transfer_cost(0)
    assert "dismount C P" in legal(st)
    st.mv_left -= 1
    assert "dismount C P" not in legal(st)
    g = opt_game()
    ko = opt_state(g, [unit("C", "m113", "us", A, D), unit("P", "us-mech-squad", "us", A, D, carried_by="C"),
                       unit("E", "t-80bv", "sov", FAR, 5)], to_act=None, dice=[1])
    lost = ko.lost[0]
    ko.passengers_bail(0, "KO")
    assert ko.st[1] == DEAD and ko.lost[0] == lost + 1 and ko.carrier[1] == -1


def test_passenger_bail_out_reads_the_grade_modifier():
    # MBT 6.5.2.7.2: roll (100) + the Unit Grade modifier against the passenger Bail Out value
    g = opt_game(grades={"us": "elite", "sov": "regulars"})
    mod = g.ag.grade_bail["elite"]
    value = g.ag.bail_pass["DM"]
    assert mod != 0
    roll = value - mod if mod < 0 else value - mod + 1
    st = opt_state(g, [unit("C", "m113", "us", A, D), unit("P", "us-mech-squad", "us", A, D, carried_by="C"),
                       unit("E", "t-80bv", "sov", FAR, 5)], to_act=None, dice=[max(1, min(100, roll))])
    st.passengers_bail(0, "DM")
    plain = opt_state(opt_game(), [unit("C", "m113", "us", A, D), unit("P", "us-mech-squad", "us", A, D,
                                                                      carried_by="C"),
                                   unit("E", "t-80bv", "sov", FAR, 5)], to_act=None, dice=[max(1, min(100, roll))])
    plain.passengers_bail(0, "DM")
    assert (st.carrier[1] == -1) != (plain.carrier[1] == -1)


# ------------------------------------------------------------------ batch 3: mutation survivors

def test_mine_track_at_exactly_70_and_fascam_needs_the_rule():
    from test_opt_move_mines import _mover

    at70 = act(_mover(dice=[70, 99]), "fwd V")
    assert at70.track[0]
    off = opt_state(opt_game(), [unit("E", "t-80bv", "sov", FAR, 5)], to_act=None)
    assert off.lay_fascam([off.game.map.hex(A)], 0) == [] and off.mines == []


def test_a_grounded_helicopter_may_only_stay_landed():
    from test_opt_move_mines import _landed

    grounded = _landed([70])
    flights = grounded._heli_flights(0)
    assert flights and all(len(a) > 3 and a[3] == "land" for a in flights)


def test_hand_to_hand_losses_count_and_the_target_is_attacked():
    st = _close("sov-mr-half-squad", [100, 1, 100, 1], grades=None)
    lost = st.lost[1]
    act(st, "assault I T")
    assert st.st[1] == DEAD and st.lost[1] == lost + 1
    ca = _close("t-80bv", [1, 99, 99])
    act(ca, "assault I T")
    assert ca.attacked[1]


def test_overrun_suppressed_result_suppresses_an_unsuppressed_target():
    from test_adv_move_overrun import _overrun

    st = _overrun([1])
    g = st.game
    f, row = st.overrun_gp(0)
    n_eff, s_eff = g.ag.gp_crt[(min(15, f), st.leg_gp_defense(1))]
    net = move_opt(g).overrun["modifier"] + st.gp_modifiers(0, 1, row, "P", False)
    if not row.coax and any(r.coax and r.kind == "GP" for r in g.units[0].type.ap):
        net += g.ag.gp_mod["coax-pointblank"]
    st.dice.force(max(1, s_eff - net))
    act(st, "overrun V T")
    assert st.sup[1] == 1 and st.st[1] == ON


def test_search_offers_every_facing():
    from test_adv_move_hull_down import _searcher

    st = _searcher([1])
    assert all(f"search V hd {f}" in legal(st) for f in range(6))


def test_a_vehicle_starting_in_a_narrow_hex_with_a_friend_may_leave():
    # MBT 7.30: only a vehicle that entered the blocked hex during its move may not leave it
    from test_opt_move_narrow import D as ND, H1, H2, _state

    units = [unit("V", "t-80bv", "sov", H1, ND, command="MOVE"), unit("F", "bmp-2", "sov", H1, ND),
             unit("E", "m1", "us", FAR, 2)]
    st = _state(units)
    act(st, "move V")
    assert "fwd V" in legal(st)
    act(st, "fwd V")
    assert st.hex[0] == st.game.map.hex(H2)


def test_full_cover_step_waits_for_every_leg_unit():
    g = opt_game()
    st = opt_state(g, [unit("L", "us-mech-squad", "us", A, D, command="NC"),
                       unit("M", "us-mech-half-squad", "us", B, D, command="NC"),
                       unit("E", "t-80bv", "sov", FAR, 5)], phase="air-2", to_act=None)
    act(st, "cover L on")
    assert legal(st)[:2] == ["cover M off", "cover M on"] and st.turn == 1  # then M's pivots (MBT 6.8.1)
    act(st, "cover M off")
    assert st.fc[:2] == [True, False] and st.turn == 2


def test_a_new_game_has_no_hull_down_positions_and_turn_start_hexes():
    g = opt_game()
    st = g.new_initial_state(1)
    assert not any(st.hd) and not any(st.hdrev) and not any(st.fc) and not any(st.bogged)
    assert st.cov0 == st.hex
    units = [unit("V", "m113", "us", A, D, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 5)]
    pos = opt_state(g, units)
    act(pos, "move V")
    act(pos, "fwd V")
    moved_to = pos.hex[0]
    pos._start_turn()
    assert pos.cov0[0] == moved_to
