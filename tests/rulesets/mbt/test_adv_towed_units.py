"""MBT Advanced Game towed units (MBT 5.2, 6.6.5, 6.6.7, 6.6.1, 6.5.2.7.2, 6.5.4.4.3): played through positions,
legal actions and play. The SPG-9 and NSV HMG are the sample cards; towing uses the test-only cards of
``towed_fixtures`` (MBT fields no towed unit with a towed component, 6.6.7.1)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from towed_fixtures import act, clear_pair, legal, towed_game, towed_state, unit  # noqa: E402

from studio.rulesets.mbt.engine.codes import CARRIED, DEAD, ON  # noqa: E402

FAR = "4T13"


def _mover(card: str, hex_: str = "2A2", facing: int = 2, **status):
    return towed_state([unit("G", card, "sov", hex_, facing, command="MOVE", **status), unit("E", "m1", "us", FAR, 5)],
                       phase="move-first", to_act="sov")


# ---------------------------------------------------------------- the card in play (MBT 5.2)
def test_towed_cards_are_played_in_the_advanced_game():
    # MBT 5.2: towed units are units of the Advanced Game (engine/data.py PLAYED)
    st = _mover("spg-9")
    g = st.game
    assert st.is_towed(0) and g.units[0].type.ag.leg and not st.is_towed(1)
    assert g.units[0].type.ag.size == "S"  # MBT 6.1.3: the SPG-9 is size S


def test_towed_units_are_spotted_by_their_size_column():
    # MBT 6.1.3: a size S towed unit in the open is spotted at 10 hexes (S column, row 0), not a vehicle's 20
    st = _mover("spg-9")
    assert st.spot_range(0) == 10


def test_ap_fire_never_targets_a_towed_unit():
    # MBT 5.1.3.4, 6.5.2: AP rounds are for vehicles; an M1 may fire only GP rows at an SPG-9
    a, b, d = clear_pair(5)
    st = towed_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("G", "spg-9", "sov", b, (d + 3) % 6)],
                     to_act="us")
    fires = [x for x in legal(st) if x.startswith("fire S at G")]
    assert fires and all(st.game.units[0].type.ap[[r.key for r in st.game.units[0].type.ap].index(
        f.split()[-1].split("+")[0])].kind == "GP" for f in fires)


def test_gp_effective_eliminates_the_towed_gun_and_its_crew():
    # MBT 5.2, 6.5.4.4.3 (MA17): gun and crew are one unit; an Effective result eliminates it (no wreck)
    st = _mover("spg-9")
    assert st.apply_leg_result(0, "S") == "Suppressed" and st.st[0] == ON
    assert st.apply_leg_result(0, "E") == "eliminated"
    assert st.st[0] == DEAD and st.game.map.hex("2A2") not in st.wreck


# ---------------------------------------------------------------- manhandling (MBT 6.6.5)
def test_manhandling_moves_one_hex_per_turn_whatever_the_allowance():
    # MBT 6.6.5: towed units move only one hex per turn (the test gun has a cross-country allowance of 3)
    st = _mover("test-towed-gun")
    act(st, "move G")
    assert st.mv_left == 3 and "fwd G" in legal(st)
    act(st, "fwd G")
    assert st.mv_left == 2 and "fwd G" not in legal(st) and "done G" in legal(st)


def test_a_squad_with_the_same_allowance_moves_on():
    # the contrast of the test above: a leg unit keeps moving while it has allowance (MBT 6.6.4)
    st = _mover("us-mech-squad")
    act(st, "move G")
    act(st, "fwd G")
    assert "fwd G" in legal(st)


def test_manhandling_changes_at_most_one_height():
    # MBT 6.6.5: a towed unit changes only a single Height; 2O1 -> 2P2 climbs two (legs may, table height-change)
    assert "fwd G" not in legal(act(_mover("spg-9", "2O1", 2), "move G"))
    assert "fwd G" in legal(act(_mover("us-mech-squad", "2O1", 2), "move G"))


def test_manhandling_never_crosses_a_hedgerow():
    # MBT 6.6.5: no Hedgerow or Wall hexsides (table towed-prohibited-hexsides); 7N5 -> 7N6 crosses a hedgerow
    def mover(card):
        return towed_state([unit("G", card, "sov", "7N5", 3, command="MOVE"), unit("E", "m1", "us", "7A1", 0)],
                           phase="move-first", to_act="sov", scenario="mbt-opt-everything")

    assert "fwd G" not in legal(act(mover("spg-9"), "move G"))
    assert "fwd G" in legal(act(mover("us-mech-squad"), "move G"))


def test_a_gun_without_manhandling_never_moves_on_its_own():
    # MBT 5.2, 6.6.5: the very large guns have no manhandling (card manhandle: false)
    st = _mover("test-big-gun")
    act(st, "move G")
    assert not any(a.startswith(("fwd", "rev", "exit")) for a in legal(st))


def test_no_short_halt_commands_for_towed_units():
    # MBT 6.6.5: towed units may not have Short Halt commands (the squad with the same target may)
    a, b, d = clear_pair(5)
    def cmds(card):
        return legal(towed_state([unit("G", card, "sov", a, d), unit("T", "m113", "us", b, (d + 3) % 6)],
                                 phase="command"))

    assert "command G FIRE" in cmds("spg-9") and "command G SH" not in cmds("spg-9")
    assert "command G SH" in cmds("sov-mr-squad")


def test_full_cover_towed_units_have_no_move_command():
    # MBT 6.1.4.2: Full Cover towed units may never have Move commands
    st = towed_state([unit("G", "spg-9", "sov", "2A2", 2, full_cover=True), unit("E", "m1", "us", FAR, 5)],
                     phase="command")
    assert "command G MOVE" not in legal(st) and "command G NC" in legal(st)


# ---------------------------------------------------------------- close combat (MBT 6.6.1)
def _melee(defender: str, dice):
    return towed_state([unit("S", "us-mech-squad", "us", "2A2", 2, command="MOVE"),
                        unit("G", defender, "sov", "2B3", 5, command="MOVE")], phase="close-combat", to_act="us",
                       dice=dice)


def test_towed_units_never_initiate_close_combat():
    # MBT 6.6.1.1, 6.6.1.2: towed units may not initiate Close Assaults or Hand-to-Hand combat
    assert _melee("spg-9", ()).assaults(1) == []
    assert _melee("sov-mr-squad", ()).assaults(1)


def test_hand_to_hand_towed_defender_minus_40():
    # MBT 6.6.1.2: a towed defender takes -40 (no size modifier): US Seasoned 50 beats Regulars 95 - 10 - 40 = 45
    st = _melee("spg-9", [50, 95])
    act(st, "assault S G")
    assert st.st[1] == DEAD and st.st[0] == ON
    assert any("G loses" in e for e in st.events)


# ---------------------------------------------------------------- transport and towing (MBT 6.6.7.1)
def test_a_towed_gun_needs_a_vehicle_with_towed_capacity():
    # MBT 6.6.7.1: the test gun (1-1) mounts the 2-2 test mover but not an M113 (0-1), in its own hex
    def st_with(carrier):
        return towed_state([unit("G", "test-towed-gun", "sov", "2A2", 2, command="MOVE"),
                            unit("V", carrier, "sov", "2A2", 2), unit("E", "m1", "us", FAR, 5)],
                           phase="move-first", to_act="sov")

    assert "mount G V" in legal(act(st_with("test-mover"), "move G"))
    assert "mount G V" not in legal(act(st_with("m113"), "move G"))
    st = act(act(st_with("test-mover"), "move G"), "mount G V")
    assert st.st[0] == CARRIED and st.carrier[0] == 1


def test_an_spg9_rides_like_a_leg_unit():
    # MBT 6.6.7.1: the SPG-9 (0-1) has no towed component: it mounts an M113 (0-1) like a leg unit
    st = towed_state([unit("G", "spg-9", "sov", "2A2", 2, command="MOVE"), unit("V", "m113", "sov", "2A2", 2),
                      unit("E", "m1", "us", FAR, 5)], phase="move-first", to_act="sov")
    assert "mount G V" in legal(act(st, "move G"))


def test_a_vehicle_tows_a_single_unit():
    # MBT 6.6.7.1: one towed unit regardless of the Towed Capacity (table towed-units tow-max-units)
    st = towed_state([unit("V", "test-mover", "sov", "2A2", 2), unit("G1", "test-towed-gun", "sov", "2A2", 2,
                                                                     carried_by="V"),
                      unit("G2", "test-towed-gun", "sov", "2A2", 2, command="MOVE"), unit("E", "m1", "us", FAR, 5)],
                     phase="move-first", to_act="sov")
    assert "mount G2 V" not in legal(act(st, "move G2"))


def test_a_towing_vehicle_may_not_move_in_reverse():
    # MBT 6.6.7.1: when transporting a towed unit, the vehicle may not move in reverse
    def st_with(passenger):
        st = towed_state([unit("V", "test-mover", "sov", "2B3", 2, command="MOVE"),
                          unit("P", passenger, "sov", "2B3", 2, carried_by="V"), unit("E", "m1", "us", FAR, 5)],
                         phase="move-first", to_act="sov")
        return act(st, "move V")

    assert "rev V" not in legal(st_with("test-towed-gun")) and "fwd V" in legal(st_with("test-towed-gun"))
    assert "rev V" in legal(st_with("us-mech-squad"))
    # a towed gun elsewhere does not stop a vehicle that tows nothing
    st = towed_state([unit("V", "test-mover", "sov", "2B3", 2, command="MOVE"),
                      unit("G", "test-towed-gun", "sov", "2A1", 2), unit("E", "m1", "us", FAR, 5)],
                     phase="move-first", to_act="sov")
    assert "rev V" in legal(act(st, "move V"))


def test_towed_passenger_of_a_knocked_out_carrier_survives_on_61():
    # MBT 6.5.2.7.2: "Knocked Out - Towed is 61+" (a leg passenger needs 21+)
    def shot(passenger, roll):
        a, b, d = clear_pair(5)
        st = towed_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "bmp-1", "sov", b, (d + 3) % 6),
                          unit("P", passenger, "sov", b, 0, carried_by="T")], to_act="us", dice=[1, 75, roll])
        return act(st, "fire S at T main:APFSDS")

    assert shot("spg-9", 60).st[2] == DEAD
    survived = shot("spg-9", 61)
    assert survived.st[1] == DEAD and survived.st[2] == ON and survived.sup[2]
    assert shot("sov-mr-squad", 60).st[2] == ON


def test_scenario_seats_a_towed_gun_only_behind_a_towing_vehicle():
    # MBT 6.6.7.1 (scenario ``mounted``): a gun with a towed component is seated only on a vehicle with the
    # towed capacity, one per vehicle
    from studio.rulesets.mbt.engine.transport import initial_mounts

    st = towed_state([unit("V", "test-mover", "sov", "2A2", 2), unit("M", "m113", "sov", "2A2", 2),
                      unit("G1", "test-towed-gun", "sov", "2A2", 2), unit("G2", "test-towed-gun", "sov", "2A2", 2),
                      unit("E", "m1", "us", FAR, 5)])
    g = st.game
    g.extension = dict(g.extension, mounted=[{"force": "position"}])
    assert initial_mounts(g)[:4] == [-1, -1, 0, -1]


def test_a_dismounted_towed_unit_stops_the_road_rate():
    # MBT 6.6.4: a dismounted towed unit in a path or road hex stops a vehicle using the path/road rate there
    g = towed_game()
    from studio.hexgrid.coords import neighbour

    a, f = next((h, f) for h in sorted(g.road_hexes) for f in range(6)
                if (lambda b: b in g.road_hexes and g.roads.get(tuple(sorted((h, b)))) is not None)(neighbour(h, f)))
    b = neighbour(a, f)

    def road(extra):
        st = towed_state([unit("V", "m1", "us", g.label(a), f, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 0)]
                         + extra, phase="move-first", to_act="us")
        act(st, "move V")
        act(st, "road V")
        return st

    assert "fwd V" in legal(road([]))
    assert "fwd V" not in legal(road([unit("G", "spg-9", "us", g.label(b), 0)]))
    assert "fwd V" in legal(road([unit("Q", "us-mech-squad", "us", g.label(b), 0)]))


def test_towed_ammo_is_unlimited_only_at_its_ammo_dump():
    # MBT 5.16.2.3: all towed units have Ammo Limits, unlimited in the set-up hex (the ammo dump)
    st = _mover("spg-9")
    row = st.game.units[0].type.ap[0]
    assert st.ammo_limit(0, row) is None
    act(st, "move G")
    act(st, "fwd G")
    assert st.ammo_limit(0, row) == 8


def test_overrun_eliminates_a_towed_gun():
    # MBT 6.6.10: vehicles overrun dismounted leg and towed units; an Effective result eliminates the gun (only a
    # squad is reduced, 6.6.10.2)
    from test_adv_move_overrun import D as OD, SCRUB, START

    st = towed_state([unit("V", "t-62mv", "us", START, OD, command="MOVE"), unit("G", "spg-9", "sov", SCRUB, OD)],
                     phase="move-first", to_act="us", dice=[99])
    act(st, "move V")
    assert "overrun V G" in legal(st)
    act(st, "overrun V G")
    assert st.st[1] == DEAD and any("overruns" in e and "eliminated" in e for e in st.events)


def test_ma17_gp_fire_effective_on_a_towed_gun_eliminates_it():
    # MA17 / MBT 6.5.4.4.3: GP fire at a towed unit uses its GP Defense by cover (target type S); Effective
    # eliminates the gun with its crew
    a, b, d = clear_pair(3)
    st = towed_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("G", "spg-9", "sov", b, (d + 3) % 6)],
                     to_act="us", dice=[99] * 6)
    gp = next(x for x in legal(st) if x.startswith("fire S at G") and "mmg" in x)
    act(st, gp)
    line = next(e for e in st.events if "fires" in e and "at G" in e)
    assert f"GPD {st.game.units[1].type.ag.gpd_cover['none']}S" in line
    assert st.st[1] == DEAD


def test_ma42_capacities_of_the_sample_towed_cards():
    # MA42 / MBT 6.6.7.1: the SPG-9 (SM-14B) and NSV HMG (SM-14A) have passenger capacity 0-1: carried, not towed
    st = towed_state([unit("G", "spg-9", "sov", "2A2", 2), unit("N", "nsv-hmg", "sov", "2A2", 2),
                      unit("E", "m1", "us", FAR, 5)])
    for i in (0, 1):
        ag = st.game.units[i].type.ag
        assert (ag.passenger_towed, ag.passenger_leg) == (0, 1) and st.is_towed(i) and not st.is_tow(i)


def test_ma43_a_towed_unit_mounts_only_in_the_carriers_hex():
    # MA43 / MBT 6.6.7.1.1: a towed unit must be in the same hex as the vehicle to mount
    st = towed_state([unit("G", "spg-9", "sov", "2A2", 2, command="MOVE"), unit("V", "m113", "sov", "2B3", 2),
                      unit("E", "m1", "us", FAR, 5)], phase="move-first", to_act="sov")
    assert not any(a.startswith("mount") for a in legal(act(st, "move G")))


@pytest.mark.parametrize("roll, removed", [(10, True), (11, False)])
def test_ma82_spot_removal_of_an_spg9(roll, removed):
    # MA82 / MBT 7.4: the example's own unit, a Soviet SPG-9 with Spot/Fire in Woods (size S, spotted to 15),
    # three spotters (3-5), the M1 at 6 <= 15 // 2: Medium 20; Veteran +10: removed iff roll + 10 <= 20
    from test_opt_command_spotting import AT6, AT10, AT10B, WOODS, _next_spotting, events

    units = [unit("S", "spg-9", "sov", WOODS, 0, mark="spot-fire"),
             unit("A", "m2a1", "us", AT10, 0), unit("B", "m2a1", "us", AT10B, 0), unit("M", "m1", "us", AT6, 0)]
    st = _next_spotting(units, ("spot-removal",), [roll], grades={"us": "veteran", "sov": "seasoned"})
    assert events(st, f"3 spotter(s)): roll {roll}+10 vs 20"), st.events
    assert (st.mk[0] == 0) == removed


# ---------------------------------------------------------------- boundaries of the rules above
def test_manhandling_climbs_one_height_and_moves_on_high_ground():
    # MBT 6.6.5: a single Height is allowed (2B9 -> 2B8 up a slope); level ground on a hill is no change
    assert "fwd G" in legal(act(_mover("spg-9", "2B9", 0), "move G"))
    assert "fwd G" in legal(act(_mover("spg-9", "2D7", 2), "move G"))


def test_manhandling_off_the_map_is_the_one_hex_too():
    # MBT 6.6.5: leaving the map is a move; after its one hex a towed unit may not leave (2A1 -> 2B1 -> off map)
    st = act(_mover("test-towed-gun", "2A1", 1), "move G")
    act(st, "fwd G")
    assert not any(a.startswith("exit") for a in legal(st))
    assert "exit G" in legal(act(_mover("spg-9", "2B1", 1), "move G"))


def test_a_towing_vehicle_may_not_back_off_the_map():
    # MBT 6.6.7.1: no reverse while towing, off the map either (2B1 faces away from the edge)
    def st_with(passenger):
        st = towed_state([unit("V", "test-mover", "sov", "2B1", 4, command="MOVE"),
                          unit("P", passenger, "sov", "2B1", 4, carried_by="V"), unit("E", "m1", "us", FAR, 5)],
                         phase="move-first", to_act="sov")
        return legal(act(st, "move V"))

    assert "exit V rev" not in st_with("test-towed-gun") and "exit V rev" in st_with("us-mech-squad")
    # forward off the map and dismounting stay open to the towing vehicle
    st = towed_state([unit("V", "test-mover", "sov", "2B1", 1, command="MOVE"),
                      unit("P", "test-towed-gun", "sov", "2B1", 1, carried_by="V"), unit("E", "m1", "us", FAR, 5)],
                     phase="move-first", to_act="sov")
    moves = legal(act(st, "move V"))
    assert "exit V" in moves and "dismount V P" in moves and "rev V" not in moves


def test_towed_capacity_equal_to_the_need_is_enough():
    # MBT 6.6.7.1: "equal to or greater than": the 1-1 test mover tows the 1-1 test gun
    st = towed_state([unit("G", "test-towed-gun", "sov", "2A2", 2, command="MOVE"),
                      unit("V", "test-light-mover", "sov", "2A2", 2), unit("E", "m1", "us", FAR, 5)],
                     phase="move-first", to_act="sov")
    assert "mount G V" in legal(act(st, "move G"))


def test_a_towed_unit_elsewhere_keeps_the_road_rate():
    # MBT 6.6.4: only a towed unit in the road hex entered stops the road rate
    g = towed_game()
    from studio.hexgrid.coords import neighbour

    a, f = next((h, f) for h in sorted(g.road_hexes) for f in range(6)
                if (lambda b: b in g.road_hexes and g.roads.get(tuple(sorted((h, b)))) is not None)(neighbour(h, f)))
    st = towed_state([unit("V", "m1", "us", g.label(a), f, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 0),
                      unit("G", "spg-9", "us", "2A1", 0)], phase="move-first", to_act="us")
    act(st, "move V")
    act(st, "road V")
    assert "fwd V" in legal(st)


def test_hand_to_hand_squad_defender_keeps_its_own_modifiers():
    # MBT 6.6.1.2: the towed modifier is the towed defender's only: a Regulars squad defends 95 - 10 = 85 > 50
    st = _melee("sov-mr-squad", [50, 95])
    act(st, "assault S G")
    assert st.red[0] and not st.red[1]


def test_hand_to_hand_suppressed_towed_defender_minus_20_more():
    # MBT 6.6.1.2: Defender Suppressed -20 as well: 100 - 10 - 40 - 20 = 30 < 50 (unsuppressed 50: a tie, rolled
    # again; the second round 50 against 1 - 50)
    st = towed_state([unit("S", "us-mech-squad", "us", "2A2", 2, command="MOVE"),
                      unit("G", "spg-9", "sov", "2B3", 5, command="MOVE", suppression="on")],
                     phase="close-combat", to_act="us", dice=[50, 100])
    act(st, "assault S G")
    assert st.st[1] == DEAD and not st.red[0]
    tie = _melee("spg-9", [50, 100, 50, 1])
    act(tie, "assault S G")
    assert tie.st[1] == DEAD and not tie.red[0] and len([e for e in tie.events if "hand-to-hand" in e]) == 1
    assert len([r for r in tie.dice.history if r[0].startswith("HTH")]) == 4  # the tie was rolled again


def test_towed_cards_are_no_recon_units():
    # MBT 6.1.3.3: only Recon units spot one row up; the SPG-9 card has no Recon label
    st = _mover("spg-9")
    assert not st.game.units[0].type.ag.recon


def test_bad_towed_values_are_refused():
    # a negative manhandling or towing value is refused with the table named; zero is allowed (no manhandling)
    from studio.rulesets.mbt.engine.data import DataError
    from studio.rulesets.mbt.engine.towed import compile_towed

    ruleset = towed_game().ruleset
    i = next(k for k, t in enumerate(ruleset.tables) if t.id == "towed-units")
    for r in range(3):
        for value, ok in ((0, True), (-1, False)):
            rows = [list(x) for x in ruleset.tables[i].rows]
            rows[r][1] = value
            tables = list(ruleset.tables)
            tables[i] = tables[i].model_copy(update={"rows": rows})
            changed = ruleset.model_copy(update={"tables": tables})
            if ok:
                assert compile_towed(changed)
            else:
                with pytest.raises(DataError, match="towed-units"):
                    compile_towed(changed)


def test_a_towed_unit_set_up_inside_a_building_only_pivots():
    # MBT 6.1.4.3.1 (check V54): set up inside a building (Town 2H8) it may not move from there; it may pivot
    st = act(_mover("spg-9", "2H8", 2), "move G")
    assert not any(a.startswith(("fwd", "rev", "exit", "mount")) for a in legal(st))
    assert "turn G left" in legal(st)
    # moving into a building hex is moving into its alleys (MBT 6.1.4.3.1): not inside, it moves on later
    from studio.hexgrid.coords import neighbour

    g = st.game
    town = g.map.hex("2H8")
    f, start = next((f, neighbour(town, (f + 3) % 6)) for f in range(6)
                    if neighbour(town, (f + 3) % 6) in g.map.label_of and neighbour(town, (f + 3) % 6)
                    not in g.building_hexes)
    st = act(_mover("spg-9", g.label(start), f), "move G")
    act(st, "fwd G")
    assert st.hex[0] == town and not st.set_up_inside(0)
