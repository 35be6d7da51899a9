"""MBT indirect-fire and smoke details through positions (MBT 5.16.2, 6.5.1.3, 6.5.1.8-6.5.1.13, 6.5.4.3, 7.9, 7.27,
7.28, 7.31.3): each test pins one boundary or condition of the rules."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import (FAR, TARGET, act, arty_game, arty_state, calls, events, if_units,  # noqa: E402
                               to_next_indirect_step, unit)

BAT = "m109-battery-1"
ELITE = {"us": "elite", "sov": "regulars"}
CB = [{"side": "sov", "battery": "2s1-battery"}]


def test_an_on_map_firer_answers_one_call_a_turn():
    # MBT 6.5.1: each unit fires once per turn: a second FO may not call the mortar again
    units = if_units(fo_hex=FAR, extra=[unit("G", "m981", "us", "4L2", 2, command="OW")])
    st = arty_state(units, dice=[2, 50] + [50] * 20)
    act(st, "call M by F at 4E1")
    assert not any(a.startswith("call M by G") for a in calls(st))


def test_ammo_limit_roll_at_the_limit_fires():
    # MBT 5.16.2.2: roll (10) at or under the limit: S7, a 7 places the smoke
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 7] + [50] * 20)
    act(st, f"call {BAT} by F at 4E1 smoke closed")
    assert st.arty.clouds


def test_only_gp_missions_attack_minefields():
    # MBT 7.31.3.1 (MA109): GP IF attacks visible minefield hexes in its SHEAF; ICM, smoke ... do not
    field = [{"side": "sov", "hexes": [TARGET], "field": "deliberate", "mines": "av", "visible": True}]
    gp = arty_state(if_units(fo_hex=FAR), dice=[6] + [50] * 20, optional=("mines",),
                    position_ext={"minefields": field})
    act(gp, f"call {BAT} by F at 4E1")
    assert any("minefield in 4E1" in e for e in gp.events), gp.events
    icm = arty_state(if_units(fo_hex=FAR), dice=[6, 1] + [50] * 20, optional=("mines",),
                     position_ext={"minefields": field})
    act(icm, f"call {BAT} by F at 4E1 ICM open")
    assert not any("minefield" in e for e in icm.events), icm.events


def test_leg_units_inside_buildings_have_overhead_cover_against_if():
    # MBT 6.5.4.3: against IF a leg unit inside a building counts Medium cover, elsewhere none
    st = arty_state([unit("S", "sov-mr-squad", "sov", "4K5", 5), unit("Q", "sov-mr-squad", "sov", "4J4", 5),
                     unit("F", "m981", "us", "4L1", 2, command="OW")])
    s, q = st.game.uindex["S"], st.game.uindex["Q"]
    cover = st.game.units[s].type.ag.gpd_cover
    assert st.if_leg_defense(s) == cover["medium"] and st.if_leg_defense(q) == cover["none"]


def test_continue_needs_the_on_map_firers_fire_command():
    # MBT 6.5.1.8: continuing or adjusting needs every on-map firer to keep its FIRE command
    st = arty_state(if_units(fo_hex=FAR), dice=[2, 50] + [5] * 300, grades=ELITE)
    act(st, "call M by F at 4E1")
    st = to_next_indirect_step(st, {"M": "NC", "F": "OW"})
    assert calls(st) == ["check F", "pass"]


def test_planned_fire_not_announced_when_its_battery_fired():
    # MBT 6.5.1.11.1: a battery in another mission is not free for its plot
    plot = [{"side": "us", "battery": "m109-battery", "turn": 2,
             "segments": [{"mission": "GP", "sheaf": "closed", "hex": TARGET, "turns": 1}]}]
    st = arty_state(if_units(fo_hex=FAR), dice=[6] + [50] * 20, planned_fire=plot)
    assert f"planned {BAT}@2" in calls(st)
    act(st, f"call {BAT} by F at 4E1")
    assert f"planned {BAT}@2" not in calls(st)


def test_attachment_to_the_observers_formation():
    # MBT 6.5.1.3: the scenario's M109 battery is Attached to the FIST's force, Unattached to other observers
    g = arty_game()
    st = g.new_initial_state(1)
    fist = next(i for i, u in enumerate(g.units) if u.force == "fist")
    other = next(i for i, u in enumerate(g.units) if u.force == "mech")
    assert st.attachment(0, fist) == "attached" and st.attachment(0, other) == "unattached"


def test_observer_hindrances_count_each_occurrence():
    # MBT 6.5.1.12.1 (M142): Brew-Up Smoke and a smoke cloud on the observer's line: -1 each
    st = arty_state(if_units(), dice=[4] + [50] * 10,
                    position_ext={"wrecks": {"4C1": "brewed-up"}, "smoke": [{"hexes": ["4D1"]}]})
    act(st, "call M by F at 4E1")
    assert any("response roll 4-2 vs 2" in e for e in st.events), st.events


def test_barrages_last_their_turn_only():
    # MBT 6.1.4.3.10: an impact area hinders for the rest of the turn; next turn only a new impact does
    st = arty_state(if_units(fo_hex=FAR), dice=[6] + [5] * 300, grades=ELITE)
    act(st, f"call {BAT} by F at 4E1")
    assert st.arty.barrages
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    assert st.arty.barrages == ()


def test_illumination_at_dusk_reaches_level_zero():
    # MBT 7.27: dusk -2 + 2 = 0 inside the illuminated SHEAF
    st = arty_state(if_units(), optional=("illumination",), light="dusk",
                    position_ext={"smoke": [{"hexes": [TARGET], "kind": "illum"}]})
    t = st.game.uindex["T"]
    assert st.game.turn_spot_mod[1] == -2 and st.light_modifier(t) == 0


def test_two_vehicles_discharge_in_one_hex():
    # MBT 7.9: each vehicle's Smoke/DS counter is its own
    units = [unit("V", "t-80bv", "sov", TARGET, 5), unit("W", "t-80bv", "sov", TARGET, 5),
             unit("A", "m1", "us", "4H1", 2)]
    st = arty_state(units, phase="command", to_act=None, dice=[1, 1] + [5] * 50, optional=("smoke-dischargers",))
    act(st, "discharge V")
    act(st, "command V NC")
    act(st, "discharge W")
    assert sorted(c.unit for c in st.arty.clouds) == [st.game.uindex["V"], st.game.uindex["W"]]


def test_counter_battery_damage_range_ends_at_80():
    # MBT 7.28.2: 51-80 Damaged, 81-00 Knocked Out
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 50, 30, 81] + [5] * 10, optional=("counter-battery",),
                    counter_battery=CB)
    act(st, f"call {BAT} by F at 4E1")
    assert st.arty.bat[0] == 3 and events(st, f"counter-battery fire at {BAT}: roll 81: Knocked Out")


def test_direct_fire_smoke_range_limit():
    # MBT 6.1.4.3.10: the target hex within the SMK weapon's GP range
    from studio.rulesets.mbt.engine.if_data import if_data

    units = [unit("C", "m125", "us", "4H1", 5, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5)]
    st = arty_state(units, phase="direct-fire-first")
    c = st.game.uindex["C"]
    reach = if_data(st.game).smoke_reach[c]
    assert reach[0] >= 3 and reach[1] in (60, 120, 180, 360)


def test_position_counter_battery_extension():
    # positions: counter-battery assets given in a position replace the scenario's (MBT 7.28)
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 50, 30, 50, 99] + [5] * 10, optional=("counter-battery",),
                    position_ext={"counter_battery": CB})
    act(st, f"call {BAT} by F at 4E1")
    assert st.arty.cb == (True,) and st.arty.bat_sup == (True,) + (False,) * (len(st.game.batteries) - 1)
    assert events(st, f"counter-battery fire at {BAT}: roll 50: Suppressed")


def test_own_side_counter_battery_never_fires_at_its_batteries():
    # MBT 7.28.1: counter-battery assets fire at the OPPOSING batteries
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 50] + [5] * 10, optional=("counter-battery",),
                    counter_battery=[{"side": "us", "battery": "m109-battery"}])
    act(st, f"call {BAT} by F at 4E1")
    assert not any("locate" in e for e in st.events)


def test_second_damage_knocks_the_battery_out():
    # MBT 7.28.2: a second Damaged result is a Knock Out (the battery Damaged earlier: set up on the state)
    st = arty_state(if_units(fo_hex=FAR), dice=[8, 50, 30, 60] + [5] * 10, optional=("counter-battery",),
                    counter_battery=CB)
    st.arty.bat = (2,) + st.arty.bat[1:]
    act(st, f"call {BAT} by F at 4E1")  # 8 - 2 (Damaged) = 6 responds
    assert events(st, f"counter-battery fire at {BAT}: roll 60: Damaged") and st.arty.bat[0] == 3


def test_fixed_wing_scatter_at_the_limit_and_direction_six():
    # MBT 7.26.2: roll (10) + grade at the limit scatters; direction 6 of the roll (6) is hexside 5
    from studio.hexgrid.coords import neighbour
    from studio.rulesets.mbt.engine.opt_scatter import fw_scatter

    st = arty_state(if_units(), dice=[2, 6], optional=("scatter",))
    h = st.game.map.hex("4E5")
    assert fw_scatter(st, h, "iron", "medium", "NE", "seasoned", "bomb") == neighbour(h, 5)


def test_m149_clgp_ko_bu_or_nothing():
    # M149, MBT 6.5.1.13.3: CLGP rolls 37 KO, 70 BU, 90 no effect (Q20); one hex; the FIST's Laser Designator
    for roll, result in ((37, "KO"), (70, "BU"), (90, "ND")):
        st = arty_state(if_units(fo_hex=FAR), dice=[6, 1, roll] + [50] * 20)
        act(st, f"call {BAT} by F at 4E1 CLGP onmap")
        assert events(st, f"CLGP at T: roll {roll}: {result}"), st.events


def test_clgp_needs_a_designator_a_clear_line_and_a_vehicle():
    # MBT 6.5.1.13.3, 6.5.2.2.5: no CLGP through smoke, without a Laser Designator or at leg units
    smoke = arty_state(if_units(fo_hex=FAR), position_ext={"smoke": [{"hexes": ["4G1"]}]})
    assert not any("CLGP" in a for a in calls(smoke))
    legs = arty_state(if_units("sov-mr-squad", fo_hex="4B1"))
    assert not any("CLGP" in a for a in calls(legs))
    sov = [unit("O", "sov-fo-section", "sov", "4B1", 2, command="OW"), unit("E", "m1", "us", TARGET, 5)]
    st = arty_state(sov, to_act="sov")
    assert any(a.startswith("call 2s1-battery") for a in calls(st)) and not any("CLGP" in a for a in calls(st))
