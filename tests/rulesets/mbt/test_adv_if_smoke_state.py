"""MBT smoke state details (MBT 6.1.4.3.10, 6.8.6, 7.9, 7.22, 7.27, 7.28, 7.37): position extensions for smoke and
the scenario's artillery blocks, renewed smoke, discharger smoke of a carrier, night aids through smoke, checks
lasting one turn, direct-fire and infantry smoke conditions, counter-battery boundaries."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import (FAR, FO, TARGET, act, arty_state, calls, events, if_units,  # noqa: E402
                               to_next_indirect_step, unit)

from studio.rules.position import PositionError  # noqa: E402
from studio.rulesets.mbt.engine.codes import MFIRE_SA  # noqa: E402

BAT = "m109-battery-1"
ELITE = {"us": "elite", "sov": "regulars"}
DUEL = [unit("A", "m1", "us", "4H1", 5, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5)]


def _duel(smoke, **kw):
    return arty_state(DUEL, phase="direct-fire-first", position_ext={"smoke": smoke}, **kw)


def test_position_smoke_extension():
    # positions: smoke clouds given in the position are in effect at once; Open -3, Off smoke still hinders
    st = _duel([{"hexes": ["4F1"], "sheaf": "open", "on": False}])
    (cloud,) = st.arty.clouds
    assert not cloud.on and st.hindrance_modifier(0, 1, "ap") == -3
    assert _duel([{"hexes": ["4F1", "4G1"]}]).hindrance_modifier(0, 1, "gp") == -20


@pytest.mark.parametrize("smoke, what", [([{"hexes": ["9Z9"]}], "not hexes"), ([{"hexes": ["4F1"], "sheaf": "x"}],
                                                                             "sheaf"), (["4F1"], "sheaf")])
def test_position_smoke_extension_refuses_bad_data(smoke, what):
    with pytest.raises(PositionError, match=what):
        _duel(smoke)


def test_position_scenario_blocks_need_own_units():
    from studio.rules.position import position_state
    from mbt_arty_fixtures import arty_game, SCENARIO

    with pytest.raises(PositionError, match="own units"):
        position_state(arty_game(), {"scenario": SCENARIO, "phase": "indirect-fire", "to_act": "us",
                                     "extension": {"counter_battery": [{"side": "sov", "battery": "2s1-battery"}]}})
    with pytest.raises(PositionError, match="planned_fire"):
        arty_state(if_units(), position_ext={"planned_fire": [{"side": "us", "battery": "m109-battery", "turn": 1,
                                                               "segments": [{"mission": "CLGP", "sheaf": "closed",
                                                                             "hex": TARGET}]}]})


def test_position_pre_registered_extension():
    st = arty_state(if_units(fo_hex=FAR), dice=[4, 50] + [50] * 9,
                    position_ext={"pre_registered": [{"side": "us", "hex": TARGET}]})
    act(st, f"call {BAT} by F at 4E1")
    assert events(st, "F calls")[0].startswith(f"F calls {BAT} on 4E1: response roll 4+2 vs 6: responds")


def test_renewed_smoke_replaces_the_off_counter():
    # MBT 6.1.4.3.10: new smoke on Smoke/Off counters turns them On again (one cloud, not two)
    st = arty_state(if_units(fo_hex=FAR), dice=[7, 1] + [50] * 20,  # 7 - 1 (the smoke on the FO's line) = 6
                    position_ext={"smoke": [{"hexes": ["4E1"], "sheaf": "closed", "on": False}]})
    act(st, f"call {BAT} by F at 4E1 smoke closed")
    assert [c.on for c in st.arty.clouds] == [True] and len(st.arty.clouds[0].hexes) == 6


def test_night_aids_see_into_not_through_smoke_and_brew_up():
    # MBT 7.36.4: IR and image intensifiers spot into but not through smoke (Brew-Up included)
    st = _duel([{"hexes": ["4G1"]}])
    a, t = st.hex[0], st.hex[1]
    assert st.smoke_between(a, t) and not st.smoke_between(a, st.game.map.hex("4G1"))
    bu = arty_state(DUEL, phase="direct-fire-first", position_ext={"wrecks": {"4G1": "brewed-up"}})
    assert bu.smoke_between(a, t) and bu.laser_blocked(a, t) and not bu.smoke_between(a, bu.game.map.hex("4G1"))
    clear = arty_state(DUEL, phase="direct-fire-first")
    assert not clear.smoke_between(a, t) and not clear.laser_blocked(a, t)


def test_discharger_smoke_covers_the_carriers_passengers():
    # MBT 7.9: the DS cloud applies to fire to or from the vehicle and its passengers
    units = [unit("V", "t-80bv", "sov", TARGET, 5), unit("P", "sov-mr-squad", "sov", TARGET, 5, carried_by="V"),
             unit("A", "m1", "us", "4H1", 2)]
    st = arty_state(units, phase="command", to_act=None, dice=[1] + [5] * 50, optional=("smoke-dischargers",))
    act(st, "discharge V")
    st.phase = 7  # any step after the Command Phase
    v, p, a = (st.game.uindex[n] for n in ("V", "P", "A"))
    assert st.hindrance_modifier(a, p, "ap") == -3 and st.hindrance_modifier(a, v, "ap") == -3


def test_a_check_lasts_one_turn():
    # MBT 6.5.1.9: checked sources and observer join no other IF that turn, but may again the next
    st = arty_state(if_units(fo_hex=FAR), dice=[2, 50] + [5] * 300, grades=ELITE)
    act(st, "call M by F at 4E1")
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    act(st, "check F")
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    assert "call M by F at 4E1" in calls(st)


def test_direct_fire_smoke_not_into_a_hex_with_friendly_units():
    # MBT 6.1.4.3.10: direct-fire smoke goes into a hex without friendly units
    mixed = [unit("C", "m125", "us", "4H1", 5, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5),
             unit("U", "m113", "us", TARGET, 5)]
    assert not any(a.startswith("smoke ") for a in calls(arty_state(mixed, phase="direct-fire-first")))


def test_infantry_smoke_is_small_arms_and_only_squads_unsuppressed():
    # MBT 7.22: small-arms fire (the sideways Spot/Fire); squads and half-squads only, unsuppressed
    units = [unit("S", "us-mech-squad", "us", FO, 2, command="FIRE"), unit("T", "t-80bv", "sov", TARGET, 5)]
    st = arty_state(units, phase="direct-fire-first", dice=[5] + [50] * 10, optional=("infantry-smoke",))
    act(st, "smoke S")
    assert st.mk[st.game.uindex["S"]] == MFIRE_SA
    sup = [unit("S", "us-mech-squad", "us", FO, 2, command="FIRE", suppression="on"),
           unit("T", "t-80bv", "sov", TARGET, 5)]
    assert "smoke S" not in calls(arty_state(sup, phase="direct-fire-first", optional=("infantry-smoke",)))
    fo = [unit("S", "sov-fo-section", "sov", FO, 2, command="FIRE"), unit("U", "m1", "us", TARGET, 5)]
    assert "smoke S" not in calls(arty_state(fo, phase="direct-fire-first", to_act="sov",
                                             optional=("infantry-smoke",)))
    low = arty_state(units, phase="direct-fire-first", dice=[6] + [50] * 10, optional=("infantry-smoke",))
    act(low, "smoke S")
    assert not low.arty.clouds and events(low, "S smoke: ammo limit roll 6 > S5")


CB = [{"side": "sov", "battery": "2s1-battery"}, {"side": "sov", "battery": "2s1-battery"},
      {"side": "us", "battery": "m109-battery"}]


def test_counter_counter_battery_ignores_suppression():
    # MBT 7.28.3: a Suppression result against a counter-battery asset is ignored
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 50, 30, 60, 10, 40] + [5] * 10, optional=("counter-battery",),
                    counter_battery=CB)
    act(st, f"call {BAT} by F at 4E1")
    assert st.arty.cb == (True, True, True) and events(st, "counter-battery fire at CB-2s1-battery-1: roll 40")


def test_counter_battery_recovery_boundary_and_second_asset():
    # MBT 7.28.2: recovery on 01-50 exactly (50 recovers); 7.28.3 the US asset eliminates the first Soviet asset
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 50, 30, 10, 10, 60] + [50] * 300, optional=("counter-battery",),
                    counter_battery=CB, grades=ELITE)
    act(st, f"call {BAT} by F at 4E1")
    assert st.arty.cb == (False, True, True) and st.arty.bat_sup[0]
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    assert not st.arty.bat_sup[0]


def test_counter_battery_four_turn_mission_minus_twenty():
    # MA102 (MBT 7.28.2): consecutive turns 2-3 -10, 4 or more -20 (SP +10): +0, +0, then 50 - 10 = 40 located
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 50] + [99] * 12 + [50, 99, 99] + [99] * 300,
                    optional=("counter-battery",), counter_battery=CB[:1], grades=ELITE)
    act(st, f"call {BAT} by F at 4E1")
    seen = []
    for _ in range(3):
        st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
        st.events.clear()
        act(st, "continue F")
        seen += [e.split(": ", 1)[1] for e in st.events if "tries to locate" in e]
    assert seen == ["roll 99+0 vs 40: not located", "roll 99+0 vs 40: not located", "roll 50-10 vs 40: located"]


def test_damaged_battery_fires_worse():
    # MBT 7.28.2: Damaged (51-80): GP -10 and Fire Response -2
    extra = [unit("N", "t-80bv", "sov", "4E3", 5)]
    st = arty_state(if_units(fo_hex=FAR, extra=extra), dice=[6, 50, 30, 80] + [5] * 300,
                    optional=("counter-battery",), counter_battery=CB[:1], grades=ELITE)
    act(st, f"call {BAT} by F at 4E1")
    assert st.arty.bat[0] == 2  # 80: Damaged (51-80)
    st = to_next_indirect_step(st, {"M": "FIRE", "F": "OW"})
    st.events.clear()
    act(st, "adjust F at 4E3")
    assert any(f"F calls {BAT} on 4E3: response roll 5+1 vs 6" in e for e in st.events), st.events  # +1 +2 -2
    assert "roll 5-30 = -25" in events(st, "IF at N")[0]  # A-type -20, Damaged -10


def test_recon_by_fire_only_on_hexes_with_cover():
    # MBT 7.37 (ENGINE_POLICIES['recon-by-fire']): the hexes offered hold cover
    st = arty_state(if_units(fo_hex=FAR), optional=("recon-by-fire",))
    hexes = [a.split(" at ")[1].split()[0] for a in calls(st) if a.endswith(" recon")]
    assert hexes and all(st.game.cover[st.game.map.hex(h)] != "none" for h in hexes)


def test_illumination_off_in_daylight_and_outside_the_sheaf():
    # MBT 7.27: never above Spotting Level 0; only inside the illuminated SHEAF
    st = arty_state(if_units(), dice=[6, 1] + [5] * 20, optional=("illumination",), light="night",
                    position_ext={"smoke": [{"hexes": ["4T13"], "kind": "illum"}]})
    t = st.game.uindex["T"]
    assert st.light_modifier(t) == st.game.turn_spot_mod[1] < 0


def test_fascam_mission_lays_a_minefield_over_its_sheaf():
    # MBT 6.5.1.13.2, 7.31.1.2: FASCAM places mines in every SHEAF hex (MOVE's lay_fascam); M ammo limit (M4)
    st = arty_state(if_units(fo_hex=FAR), dice=[6, 4] + [50] * 20, optional=("mines",))
    act(st, f"call {BAT} by F at 4E1 FASCAM closed")
    (field,) = [m.field for m in st.mines if m.field.field == "fascam"]
    from studio.hexgrid.coords import within

    assert field.hexes == {h for h in within(st.game.map.hex(TARGET), 1) if h in st.game.map.label_of}
    assert not events(st, "IF at T")  # stationary units are not attacked
