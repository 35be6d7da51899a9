"""MBT artillery and smoke optional rules (MBT 7.9, 7.22, 7.26, 7.27, 7.28, 7.37, 7.38) through positions and play;
each test runs the rule on and off where the difference is the point. Examples MA87, MA101, MA102, MA114."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import (FAR, FO, TARGET, act, arty_state, calls, events, if_units,  # noqa: E402
                               to_next_indirect_step, unit)

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.engine.opt_scatter import fw_scatter  # noqa: E402

BAT = "m109-battery-1"
ELITE = {"us": "elite", "sov": "regulars"}


# ---------------------------------------------------------------- 7.26 scatter
def test_scatter_when_the_modified_roll_equals_the_factor():
    # MBT 7.26.1: response 2 = FO / Attached 2: the impact scatters; roll (10) 3 -> 1 hex, roll (6) 4 -> direction
    st = arty_state(if_units(), dice=[2, 3, 4] + [50] * 10, optional=("scatter",))
    act(st, "call M by F at 4E1")
    hit = st.game.label(neighbour(st.game.map.hex(TARGET), 3))
    assert any(e.startswith("M scatters (7.26.1): roll 3 -> 1 hex in direction 4") for e in st.events), st.events
    assert events(st, f"artillery lands at {hit}")
    off = arty_state(if_units(), dice=[2, 50] + [50] * 10)
    act(off, "call M by F at 4E1")
    assert events(off, "artillery lands at 4E1") and not any("scatters" in e for e in off.events)


def test_scatter_two_hexes_on_seven_to_ten():
    # MBT 7.26.1: roll (10) 7-10 -> 2 hexes; a roll above the factor lands on target
    st = arty_state(if_units(fo_hex=FAR, fo_status={}), dice=[2, 7, 1] + [50] * 10, optional=("scatter",))
    act(st, "call M by F at 4E1")
    assert any("roll 7 -> 2 hexes" in e for e in st.events), st.events
    st = arty_state(if_units(), dice=[3, 50] + [50] * 10, optional=("scatter",))
    act(st, "call M by F at 4E1")
    assert events(st, "artillery lands at 4E1")


def test_fixed_wing_scatter_function():
    # MBT 7.26.2: after AA No Effect roll (10) 1-2 scatters (Elite +2: a 1 becomes 3, no scatter); after Suppressed
    # or Damaged 6 or less; Medium 1 hex, High 2; high-drag never; no AA fire, no scatter
    st = arty_state(if_units(), dice=[1, 2, 3, 5, 4], optional=("scatter",))
    h = st.game.map.hex("4E5")
    assert fw_scatter(st, h, "iron", "medium", "NE", "seasoned", "bomb") == neighbour(h, 1)
    assert fw_scatter(st, h, "iron", "medium", "NE", "elite", "bomb") == h
    assert fw_scatter(st, h, "cluster", "high", "S", "seasoned", "bomb") == neighbour(neighbour(h, 3), 3)
    assert fw_scatter(st, h, "high-drag", "high", "S", "seasoned", "bomb") == h
    assert fw_scatter(st, h, "iron", "high", None, "seasoned", "bomb") == h
    off = arty_state(if_units(), dice=[1, 2])
    assert fw_scatter(off, h, "iron", "medium", "NE", "seasoned", "bomb") == h


# ---------------------------------------------------------------- 7.38 air bursts
def test_ma114_air_burst_plus_ten_on_s_types_in_woods():
    # MA114, MBT 7.38: IF GP at a squad (S-Type) in Woods: +10; at the T-80BV (A-Type, not Open) in Woods: none
    units = if_units(extra=[unit("S", "sov-mr-squad", "sov", "4E2", 5), unit("V", "t-80bv", "sov", "4E2", 5)])
    st = arty_state(units, dice=[6, 50, 50, 50, 50] + [50] * 10, optional=("air-bursts",))
    s, v = st.game.uindex["S"], st.game.uindex["V"]
    assert st.air_burst(s) == 10 and st.air_burst(v) == 0
    act(st, f"call {BAT} by F at 4E1")
    assert "roll 50+10 = 60" in events(st, "IF at S")[0]
    off = arty_state(units, dice=[6, 50, 50, 50, 50] + [50] * 10)
    act(off, f"call {BAT} by F at 4E1")
    assert "roll 50+0 = 50" in events(off, "IF at S")[0]


# ---------------------------------------------------------------- 7.37 reconnaissance by fire
def test_ma114_recon_by_fire_minus_two_fo_only_and_checks_next_turn():
    # MA114, MBT 7.37: an FO calls one off-map battery on a hex with no spotted unit (Closed GP), -2 response;
    # the mission checks next turn; never on-map units
    st = arty_state(if_units(fo_hex=FAR), dice=[9] + [5] * 300, optional=("recon-by-fire",), grades=ELITE)
    recon = [a for a in calls(st) if a.endswith(" recon")]
    assert recon and all(a.startswith(f"call {BAT} by F at ") for a in recon) and f"call {BAT} by F at 4E1 recon" \
        not in recon
    act(st, recon[0])
    assert any("response roll 9+0 vs 6" in e for e in st.events), st.events  # Elite +2, recon -2
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    assert any("checks (reconnaissance by fire)" in e for e in st.events), st.events
    off = arty_state(if_units(fo_hex=FAR))
    assert not any(a.endswith(" recon") for a in calls(off))


# ---------------------------------------------------------------- 7.27 illumination
def test_ma101_illumination_plus_two_never_above_level_zero():
    # MA101, MBT 7.27: a unit inside an illuminated SHEAF spots with +2 on the night modifier, at most 0
    units = if_units()
    st = arty_state(units, dice=[6, 1] + [5] * 20, optional=("illumination",), light="night")
    t = st.game.uindex["T"]
    night = st.light_modifier(t)
    assert night < 0
    before = st.spot_range(t)
    act(st, f"call {BAT} by F at 4E1 illumination closed")
    act(st, "pass") if st.phase_id() == "indirect-fire" else None
    assert st.light_modifier(t) == min(0, night + 2) and st.spot_range(t) > before
    day = arty_state(units, optional=("illumination",))
    assert day.light_modifier(t) == 0
    off = arty_state(units, light="night")
    assert not any("illumination" in a for a in calls(off))


# ---------------------------------------------------------------- 7.28 counter battery
CB = [{"side": "sov", "battery": "2s1-battery"}, {"side": "us", "battery": "m109-battery"}]


def test_ma102_counter_battery_locates_then_damages():
    # MA102, MBT 7.28.2: after the M109 battery's mission the Soviet CB asset rolls to locate it: 30 + 10 (SP)
    # = 40 <= 40 located; effect 60: Damaged (GP -10, response -2); then the US asset fires back (7.28.3): 99 misses
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 50, 30, 60, 99] + [5] * 10, optional=("counter-battery",),
                    counter_battery=CB)
    act(st, f"call {BAT} by F at 4E1")
    assert any("tries to locate m109-battery-1 (7.28.2): roll 30+10 vs 40: located" in e for e in st.events)
    assert events(st, "counter-battery fire at m109-battery-1: roll 60: Damaged")
    assert st.arty.bat[0] == 2 and st.battery_gp_modifier(0) == -10 and st.battery_response_modifier(0) == -2
    off = arty_state(if_units(fo_hex=FAR), dice=[6, 50, 30, 60, 99], counter_battery=CB)
    act(off, f"call {BAT} by F at 4E1")
    assert off.arty.bat[0] == 0 and not any("locate" in e for e in off.events)


def test_counter_battery_knock_out_and_counter_counter_battery():
    # MBT 7.28.2: 81-00 Knocked Out: it fires no more; 7.28.3: the US asset locates the Soviet asset (20) and
    # damages it (70): eliminated
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 50, 10, 90, 20, 70] + [5] * 10,
                    optional=("counter-battery",), counter_battery=CB)
    act(st, f"call {BAT} by F at 4E1")
    assert st.arty.bat[0] == 3 and st.arty.cb == (False, True)
    assert not st.battery_ready(0)


def test_counter_battery_suppression_and_recovery():
    # MBT 7.28.2: 01-50 Suppressed: GP -20; recovery at the Adjustment Phase on 01-50, no modifiers
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 50, 30, 10, 99] + [5] * 300, optional=("counter-battery",),
                    counter_battery=CB, grades=ELITE)
    act(st, f"call {BAT} by F at 4E1")
    assert st.arty.bat_sup[0] and st.battery_gp_modifier(0) == -20
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    assert not st.arty.bat_sup[0] and any("m109-battery-1 recovery roll 5 vs 50: recovers" in e for e in st.events)


def test_counter_battery_consecutive_turns_modifier():
    # MBT 7.28.2: a mission of 2-3 consecutive turns -10, 4 or more -20
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 50, 99] + [5] * 300, optional=("counter-battery",),
                    counter_battery=CB, grades=ELITE)
    act(st, f"call {BAT} by F at 4E1")
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    st.events.clear()
    act(st, "continue F")
    assert any("roll 5+0 vs 40" in e for e in st.events), st.events  # 2 turns -10, SP +10


# ---------------------------------------------------------------- 7.9 smoke dischargers
def _ds(dice, optional=("smoke-dischargers",)):
    units = [unit("T", "t-80bv", "sov", TARGET, 5), unit("A", "m1", "us", "4H1", 2)]
    return arty_state(units, phase="command", to_act=None, dice=list(dice) + [5] * 300, optional=optional)


def test_ma87_dischargers_roll_at_or_under_d_five():
    # MA87, MBT 7.9: T-80BV D limit 5: roll (10) 5 places Smoke/DS on it; 6 fails
    st = _ds([5])
    assert calls(st)[0] == "discharge T"
    act(st, "discharge T")
    assert events(st, "T fires its smoke dischargers: roll 5 vs D5: Smoke/DS placed")
    assert not any(a.startswith("discharge") for a in calls(st))  # once per turn
    st = _ds([6])
    act(st, "discharge T")
    assert events(st, "T fires its smoke dischargers: roll 6 vs D5: failed") and not st.arty.clouds
    assert not any(a.startswith("discharge") for a in calls(_ds([], optional=())))


def _command(st, cmds: dict):
    """Finish the Command and Initiative Phases: ``cmds`` unit -> command; the winner goes first."""
    turn = st.turn
    while st.phase_id() in ("command", "initiative") and st.turn == turn:
        acts = [a for a in st.legal_actions() if a[0] != "discharge"]
        if acts[0][0] == "initiative":
            act(st, "initiative first")
        else:
            act(st, f"command {acts[0][1]} {cmds[acts[0][1]]}")


def test_discharger_smoke_counts_only_for_its_vehicle_and_not_next_turn():
    # MBT 7.9: Open SHEAF smoke only for fire to or from the vehicle; under the vehicle at 6.8.6: no discharge
    # the next turn
    st = _ds([5])
    act(st, "discharge T")
    _command(st, {"T": "NC", "A": "FIRE"})
    t, a = st.game.uindex["T"], st.game.uindex["A"]
    assert st.phase_id() == "direct-fire-first"
    assert st.hindrance_modifier(a, t, "ap") == -3 and st.hindrance_modifier(t, a, "gp") == -10
    st = _ds([5])
    act(st, "discharge T")
    _command(st, {"T": "NC", "A": "NC"})
    assert st.turn == 2 and st.arty.ds_under == {t} and st.arty.clouds == ()
    assert not any(x.startswith("discharge") for x in calls(st))


def test_discharger_smoke_goes_when_the_vehicle_turns():
    # MBT 7.9: removed at once if the vehicle moves within its hex
    st = _ds([5])
    act(st, "discharge T")
    t, a = st.game.uindex["T"], st.game.uindex["A"]
    _command(st, {"T": "NC", "A": "FIRE"})
    assert st.hindrance_modifier(a, t, "ap") == -3
    st.fac[t] = (st.fac[t] + 1) % 6  # as a pivot in its hex would
    assert st.hindrance_modifier(a, t, "ap") == 0


# ---------------------------------------------------------------- 7.22 infantry smoke
def _inf(optional=("infantry-smoke",), grades=None, extra=()):
    units = [unit("S", "us-mech-squad", "us", FO, 2, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5)]
    return arty_state(units + list(extra), phase="direct-fire-first", dice=[5] + [50] * 10, optional=optional,
                      grades=grades)


def test_infantry_smoke_in_its_own_hex_s5():
    # MBT 7.22: a squad with a Fire command places Open SHEAF smoke in its own hex after an S5 ammo roll
    st = _inf()
    assert "smoke S" in calls(st)
    act(st, "smoke S")
    (cloud,) = st.arty.clouds
    assert cloud.hexes == {st.game.map.hex(FO)} and cloud.sheaf == "open"
    assert not any(a == "smoke S" for a in calls(_inf(optional=())))


def test_infantry_smoke_limit_modifiers():
    # MBT 7.22.2: Elite or Veteran +1, Green or Raw -1 (Engineer +3)
    s = _inf().game.uindex["S"]
    assert _inf().infantry_smoke_limit(s) == 5
    assert _inf(grades={"us": "veteran", "sov": "regulars"}).infantry_smoke_limit(s) == 6
    assert _inf(grades={"us": "green", "sov": "regulars"}).infantry_smoke_limit(s) == 4


def test_infantry_smoke_needs_a_hex_without_other_dismounted_legs():
    # MBT 7.22: no other dismounted leg or towed unit in the hex
    st = _inf(extra=[unit("H", "us-mech-half-squad", "us", FO, 2)])
    assert "smoke S" not in calls(st)
