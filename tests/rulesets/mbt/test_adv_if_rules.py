"""More MBT indirect-fire rules through positions and play (MBT 6.5.1.5-6.5.1.13, 5.16.2.4, 7.26, 7.28): Closed
Linear SHEAFs, on-map one-hex SHEAFs, who may be called, special-mission allocations, Planned plots of several
batteries, ICM against buildings (M150), marks and bookkeeping the later steps read."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import (FAR, TARGET, act, arty_game, arty_state, calls, events, if_units,  # noqa: E402
                               to_next_indirect_step, unit)

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.engine.codes import MFIRE  # noqa: E402
from studio.rulesets.mbt.engine.if_data import if_data  # noqa: E402

BAT = "m109-battery-1"
ELITE = {"us": "elite", "sov": "regulars"}


def test_closed_linear_sheaf_runs_six_hexes_out():
    # MBT 6.5.1.5: the Closed Linear SHEAF is the Target Point and a straight line 6 hexes out (direction chosen
    # at the call, Q18); smoke in it is Closed smoke
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 1] + [50] * 20)
    act(st, f"call {BAT} by F at 4E1 smoke linear-2")
    (cloud,) = st.arty.clouds
    line, h = {st.game.map.hex(TARGET)}, st.game.map.hex(TARGET)
    for _ in range(6):
        h = neighbour(h, 2)
        line.add(h)
    assert cloud.hexes == line and cloud.sheaf == "closed"


def test_on_map_fire_is_a_one_hex_barrage_on_the_map_edge_sheaf_trimmed():
    # MBT 6.5.1.5: on-map GP fire covers the Target Point only; an off-map Closed SHEAF on the board edge keeps
    # the hexes on the map (6 of 7)
    st = arty_state(if_units(fo_hex=FAR), dice=[2, 50, 6] + [50] * 20)
    act(st, "call M by F at 4E1")
    assert [b.hexes for b in st.arty.barrages] == [{st.game.map.hex(TARGET)}]
    st = arty_state(if_units(fo_hex=FAR), dice=[6] + [50] * 20)
    act(st, f"call {BAT} by F at 4E1")
    assert len(st.arty.barrages[0].hexes) == 6 and st.arty.barrages[0].sheaf == "closed"


def test_firer_marked_and_battery_used_for_the_turn():
    # MBT 6.5.1: the on-map firer is marked Spot/Fire at once (the observer is not); a battery answers one call a
    # turn: a second FO may not call it again
    units = if_units(fo_hex=FAR, extra=[unit("G", "m981", "us", "4L2", 2, command="OW")])
    st = arty_state(units, dice=[2, 50, 6] + [50] * 20)
    act(st, "call M by F at 4E1")
    m, f = st.game.uindex["M"], st.game.uindex["F"]
    assert st.mk[m] == MFIRE and st.mk[f] != MFIRE and st.attacked[st.game.uindex["T"]]
    act(st, f"call {BAT} by F at 4E1")
    assert not any(a.startswith(f"call {BAT} by G") for a in calls(st))
    assert not any(a.startswith("continue") or a.startswith("check") for a in calls(st))  # not this turn


def test_only_fire_commanded_on_map_units_are_called():
    # MBT 6.5.1: on-map IF units need a FIRE command
    units = if_units(fo_hex=FAR)
    units[0]["status"]["command"] = "NC"
    st = arty_state(units)
    assert not any(a.startswith("call M ") for a in calls(st))


def test_scatter_reads_the_modified_roll():
    # MBT 7.26.1: the MODIFIED roll equals the factor: Elite observer +2, roll 4 + 2 = 6 = FO / Unattached 6
    st = arty_state(if_units(fo_hex=FAR), dice=[4, 3, 4] + [50] * 20, optional=("scatter",), grades=ELITE)
    act(st, f"call {BAT} by F at 4E1")
    assert any("scatters (7.26.1)" in e for e in st.events), st.events


def test_m150_icm_no_effect_inside_a_building():
    # M150, MBT 6.5.1.13.1: ICM has no effect on a squad inside a building; a squad in the open is attacked with
    # +20 (here with the Open SHEAF's -20)
    units = [unit("F", "m981", "us", "4L1", 2, command="OW"), unit("T", "t-80bv", "sov", "4K4", 5),
             unit("S", "sov-mr-squad", "sov", "4K5", 5), unit("Q", "sov-mr-squad", "sov", "4J4", 5)]
    st = arty_state(units, dice=[6, 1] + [50] * 20)
    act(st, f"call {BAT} by F at 4K4 ICM open")
    assert events(st, "ICM at S: no effect inside a building") and not events(st, "IF at S")
    assert "roll 50+0 = 50" in events(st, "IF at Q")[0]
    gp = arty_state(units, dice=[6] + [50] * 20)
    act(gp, f"call {BAT} by F at 4K4 GP open")
    assert events(gp, "IF at S")


def test_special_missions_allocated_by_the_scenario():
    # MBT 5.16.2.4, 6.5.1.6: the scenario allocates 2 smoke missions to the M109 battery: after two (a call and its
    # continuation) no new smoke call is offered and a third continuation fires nothing
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 1] + [5] * 300, grades=ELITE)
    smoke = f"call {BAT} by F at 4E1 smoke closed"
    assert smoke in calls(st) and ("smoke", "closed") in st.battery_missions(0)
    act(st, smoke)
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    act(st, "continue F")
    assert ("smoke", "closed") not in st.battery_missions(0) and ("GP", "closed") in st.battery_missions(0)
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    act(st, "continue F")
    assert any("no smoke mission left" in e for e in st.events), st.events


def test_continue_needs_a_target_in_or_next_to_the_target_point():
    # MBT 6.5.1.8.1: continuing needs a target the observer spots in or adjacent to the Target Point
    st = arty_state(if_units(fo_hex=FAR), dice=[2, 50] + [5] * 300, grades=ELITE)
    act(st, "call M by F at 4E1")
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    t = st.game.uindex["T"]
    st.hex[t] = st.game.map.hex("4E2")  # the target moved next to the Target Point
    assert "continue F" in calls(st)
    st.hex[t] = st.game.map.hex("4E3")
    assert "continue F" not in calls(st) and "adjust F at 4E3" in calls(st)


def test_adjusted_mission_counts_its_turns():
    # MBT 6.5.1.8.2, 7.28.2: an adjusted mission goes on (its consecutive turns count on)
    extra = [unit("N", "t-80bv", "sov", "4E3", 5)]
    st = arty_state(if_units(fo_hex=FAR, extra=extra), dice=[2, 50] + [5] * 300, grades=ELITE)
    act(st, "call M by F at 4E1")
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    act(st, "adjust F at 4E3")
    (m,) = st.arty.missions
    assert m.turns == 2 and m.tp == st.game.map.hex("4E3")


def test_two_soviet_plots_fire_with_the_two_batteries():
    # MBT 6.5.1.11.1: each plot names a battery card; a side with two batteries of that card plots both
    seg = [{"mission": "GP", "sheaf": "closed", "hex": "2Q2", "turns": 1}]
    plots = [{"side": "sov", "battery": "2s1-battery", "turn": 3, "segments": seg},
             {"side": "sov", "battery": "2s1-battery", "turn": 3, "segments": seg},
             {"side": "us", "battery": "m109-battery", "turn": 3, "segments": seg}]
    g = arty_game(planned_fire=plots)
    sov = [b for b, bat in enumerate(g.batteries) if bat.side == 1]
    us = [b for b, bat in enumerate(g.batteries) if bat.side == 0]
    assert [p.battery for p in if_data(g).plans] == sov + us and [p.side for p in if_data(g).plans] == [1, 1, 0]


def test_a_plot_not_yet_begun_leaves_its_battery_free():
    # MBT 6.5.1.11.1: the battery is busy only during its plot (and the turn after)
    plot = [{"side": "us", "battery": "m109-battery", "turn": 6,
             "segments": [{"mission": "GP", "sheaf": "closed", "hex": TARGET, "turns": 1}]}]
    st = arty_state(if_units(fo_hex=FAR), planned_fire=plot)
    assert f"call {BAT} by F at 4E1" in calls(st) and not any(a.startswith("planned") for a in calls(st))


def test_second_player_planned_fire_arrives_in_its_own_step():
    # MBT 6.5.1: the First Player fires first, then the Second: the Second Player's late plot arrives in its step
    plot = [{"side": "us", "battery": "m109-battery", "turn": 2,
             "segments": [{"mission": "GP", "sheaf": "closed", "hex": TARGET, "turns": 1}]}]
    st = arty_state(if_units(fo_hex=FAR), to_act="sov", turn=3, dice=[5] * 50, planned_fire=plot)
    assert st.arty.plans == (-1,) and st.arty.rest[0] == 5  # fired its one turn; rests turn 4


def test_knocked_out_battery_fires_no_more():
    # MBT 7.28.2: a Knocked Out battery may not fire for the rest of the scenario: its running mission loses it,
    # and no observer may call it
    cb = [{"side": "sov", "battery": "2s1-battery"}]
    units = if_units(fo_hex=FAR, extra=[unit("G", "m981", "us", "4L2", 2, command="OW")])
    st = arty_state(units, dice=[6, 50, 10, 90] + [5] * 300, optional=("counter-battery",), counter_battery=cb,
                    grades=ELITE)
    act(st, f"call {BAT} by F at 4E1")
    assert st.arty.bat[0] == 3
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW", "G": "OW"})
    assert st.arty.missions == () and not any(a.startswith(f"call {BAT}") for a in calls(st))
    assert any(a.startswith("call M by G") for a in calls(st))
