"""Cross-area wiring (issues 12, 13): combinations of optional rules that crashed the everything-on games.

Each test is a position on the Advanced sample scenario with the combination switched on, played through the
public API (legal actions, play)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

A, B, D = clear_pair(1)
ENEMY = "4T13"


def _engineers_with(rules):
    g = opt_game(("engineers-vs-terrain",) + tuple(rules), terrain_gpd={B: 4})
    return opt_state(g, [unit("N", "us-engineer-squad", "us", A, D, command="MOVE"),
                         unit("E", "t-80bv", "sov", ENEMY, 5)], phase="close-combat")


def test_engineers_clear_terrain_with_morale_and_tank_fright_on():
    # MBT 7.19 with 7.1 (morale) and 7.6 (tank fright): ``clear ENGINEER HEX`` names a hex, not a unit; the
    # morale layer's Close Assault handling (checks after the combat, fright before it) must let it through
    # (it looked the hex up as a unit: KeyError in the everything-on games)
    for rules in (("morale",), ("morale", "tank-fright")):
        st = _engineers_with(rules)
        assert st.game.oc_morale
        assert f"clear N {B}" in legal(st)
        st.dice.force(100, 100)
        act(st, f"clear N {B}")
        assert st.game.map.hex(B) in st.razed
        assert st.is_terminal() or len(st.legal_actions()) >= 1


# ---------------------------------------------------------------- hooks between the areas
def _crew(status: str, rules=("morale",)):
    from opt_command_fixtures import pos_state
    from opt_command_fixtures import unit as cunit

    a, b, d = clear_pair(6)
    units = [cunit("S", "m1", "us", a, d), cunit("T", "t-80bv", "sov", b, 0, morale=status)]
    return pos_state(units, rules, phase="direct-fire-first", cohesion_point={"us": 9, "sov": 9})


def test_a_hesitating_or_broken_crew_bails_out_more_readily():
    # MBT 7.1.5 with 6.5.2.7.1: the Bail Out roll takes the crew's morale modifier (Hesitating -10, Broken -20)
    # beside the Unit Grade modifier; a roll 5 over the Bail Out value bails out only with the morale modifier
    for status in ("hesitation-on", "break-off"):
        st = _crew(status)
        g = st.game
        mod = g.ag.grade_bail[st.unit_grade(1)]
        assert st.morale_bail_mod(1) <= -10
        roll = g.ag.bail["TK"] - mod + 5
        for state, out in ((st, True), (_crew("none"), False), (_crew(status, ()), False)):
            state.dice.force(roll)
            state.bail_out(1, "TK")
            assert state.bail[1] is out, (status, state.game.optional_rules)


def _battery_at_bmp2(roll: int, rules=("installation-damage",)):
    from mbt_arty_fixtures import act as aact
    from mbt_arty_fixtures import arty_state, if_units

    st = arty_state(if_units(target="bmp-2"), dice=[6, roll] + [50] * 20, optional=rules)
    aact(st, "call m109-battery-1 by F at 4E1")
    return st


def test_indirect_fire_damages_an_installation():
    # MBT 7.47 (MA121) with 6.5.4.4: GP indirect fire is GP fire: a Suppressed result within 10 of the S-Effect
    # number damages the BMP-2's ATGM (the battery's closed SHEAF at the BMP-2: -20, N 29 / S 62)
    st = _battery_at_bmp2(50)
    t = st.game.uindex["T"]
    net, s_eff = (int(x) for x in __import__("re").search(r"roll 50([+-]\d+) = \d+ vs N \d+ / S (\d+)",
                                                          " ".join(st.events)).groups())
    hit = _battery_at_bmp2(s_eff - net)
    assert hit.sup[t] and "atgm" in hit.ofire.inst[t], hit.events
    assert not _battery_at_bmp2(s_eff - net - 10).ofire.inst[t]  # outside the window of 10
    off = _battery_at_bmp2(s_eff - net, rules=())
    assert off.sup[t] and (off.ofire is None or not off.ofire.inst[t])


def test_damaged_night_equipment_turns_the_searchlight_off():
    # MBT 7.23.1 (collateral result 2) with 7.36.4.1.1 (MA113): an active IR searchlight spots to 10 at night;
    # with its night-fighting equipment out of action the vehicle spots as without aids
    from opt_command_fixtures import pos_state
    from opt_command_fixtures import unit as cunit

    a, b, d = clear_pair(8)
    rules = ("terrain-time-weather", "vehicle-collateral-damage")
    seen = []
    for lost in ([], ["night-equipment"]):
        units = [cunit("T", "t-80bv", "sov", a, d, collateral=lost), cunit("A", "m1", "us", b, (d + 3) % 6)]
        st = pos_state(units, rules, phase="spotting", light="night", searchlights_on=["T"])
        assert st.night_equipment_lost(0) is bool(lost)
        seen.append(1 in st.spots[0])
    assert seen == [True, False]


def test_a_damaged_radio_gives_an_hq_command_span_0():
    # MBT 7.43 with 7.23.5: a BHQ with a damaged radio has Command Span 0: its CHQ is beyond it, the Available
    # Commands drop two rows (Seasoned -> Green) as if the CHQ were out of the BHQ's span of 20
    from opt_command_fixtures import pos_state
    from opt_command_fixtures import unit as cunit

    grades = {}
    for lost in ([], ["radio"]):
        units = [cunit("C", "t-80bv", "sov", "2E5", 0), cunit("B", "brdm-2-at5", "sov", "2E13", 0, collateral=lost),
                 cunit("X", "m1", "us", "2A13", 0)]
        st = pos_state(units, ("command-span", "vehicle-collateral-damage"), phase="command", to_act="sov",
                       grades={"sov": "seasoned"}, force_grades={"us": "seasoned", "sov": "seasoned"},
                       command_units={"C": "CHQ", "B": "BHQ"})
        grades[bool(lost)] = st.available_grade(0)
    assert grades == {False: "seasoned", True: "green"}


def test_the_adjust_turret_step_comes_before_the_full_cover_step():
    # MBT 6.8: the Adjustment Phase's steps in order: 6.8.2 Adjust Turret & Visualization (7.8) before 6.8.3
    # Adjust Full Cover; both after the 2nd Air Phase, then the next turn
    g = opt_game(("turrets",))
    st = opt_state(g, [unit("L", "us-mech-squad", "us", A, D, command="NC"),
                       unit("S", "m1", "us", B, D, command="NC"), unit("E", "t-80bv", "sov", "4T13", 5)],
                   phase="air-2", to_act=None)
    order = []
    while st.turn == 1:
        moves = legal(st)
        order.append(moves[0].split()[0])
        act(st, moves[0])
    assert order == ["turn", "turn", "cover"], order
    assert st.phase_id() == "command"


def test_cautious_movement_halves_a_helicopters_noe_flight_only():
    # MBT 7.36.2: in limited visibility cautious movement halves the NOE movement factor of a helicopter (rounded
    # down); its Low Altitude flights keep their reach
    from opt_command_fixtures import pos_state
    from opt_command_fixtures import unit as cunit

    from studio.hexgrid.coords import distance

    def reach(**ext):
        st = pos_state([cunit("H", "ah-1s", "us", "2A1", 2), cunit("T", "t-80bv", "sov", "4T13", 0)],
                       ("terrain-time-weather",), phase="air-1", light="dusk", **ext)
        g = st.game
        here = g.map.hex("2A1")
        far = {"noe": 0, "low": 0}
        for a in st.legal_actions():
            if a[0] == "fly" and a[1] == "H" and (len(a) == 3 or a[3] == "low"):
                alt = "low" if len(a) == 4 else "noe"
                far[alt] = max(far[alt], distance(here, g.map.hex(a[2])))
        return far

    plain, cautious = reach(), reach(cautious_movement=True)
    assert plain["noe"] > 0 and cautious["noe"] == plain["noe"] // 2
    assert cautious["low"] == plain["low"] > 0
