"""MBT Advanced Game fixed-wing aircraft (MBT 6.7.1-6.7.3) and AA fire at them (6.7.8), through positions on the
air-strike scenario's boards with the scenario's aircraft block varied; examples MA49-MA55, MA65-MA67."""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import pytest

from studio.hexgrid.coords import distance
from studio.rules.position import position_state
from studio.rulesets.mbt.engine import game as G

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import act, index, unit  # noqa: E402

SCENARIO = "mbt-adv-air-strike"
A10 = {"side": "us", "aircraft": "a-10", "count": 1, "loads": ["bomb", "cluster", "rockets", "high-drag"]}


@lru_cache(maxsize=32)
def _game(aircraft: tuple, options: tuple, optional: tuple, grades: tuple) -> G.MbtGame:
    idx = index()
    sc = idx.model("scenario", SCENARIO)
    from studio.rulesets.mbt.cards import AircraftAssignment

    update = {"aircraft": [AircraftAssignment(**{k: list(v) if isinstance(v, tuple) else v for k, v in a})
                           for a in aircraft]}
    if grades:
        update["force_grades"] = dict(grades)
    ext = sc.extension.model_copy(update=update)
    sc = sc.model_copy(update={"extension": ext, "optional_rules": list(optional)})
    return G.create_game(sc, idx, dict(options) or None)


def fw_game(aircraft=(A10,), options=None, optional=(), grades=None) -> G.MbtGame:
    frozen = tuple(tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in a.items())) for a in aircraft)
    return _game(frozen, tuple(sorted((options or {}).items())), tuple(optional), tuple(sorted((grades or {}).items())))


def fw_state(units, aircraft=(A10,), options=None, optional=(), dice=(), turn=3, phase="air-1", grades=None):
    g = fw_game(aircraft, options, optional, grades)
    pos = {"scenario": SCENARIO, "phase": phase, "turn": turn, "units": list(units), "dice": list(dice),
           "to_act": "us"}
    if not any(u["side"] == "us" for u in units):
        pos["units"].append(US)
    st = position_state(g, pos)
    st.dice.record = True
    return st


def legal(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def fly(st, name: str, speed: str, alt: str, hex_: str, facing: str, hexes: int = 0):
    act(st, f"sortie {name} {speed} {alt}")
    act(st, f"arrive {name} {hex_} {facing}")
    for _ in range(hexes):
        if st.fw.pending:
            act(st, "pass")
        act(st, f"wing {name} ahead")
    return st


def events(st, text: str) -> list[str]:
    return [e for e in st.events if text in e]


# a clear column far from any woods: 2B1 (north edge) to 2B14, flown heading S; a US tank far away keeps the
# game going
T = unit("T", "t-80bv", "sov", "2B8", 0)
US = unit("U0", "m1", "us", "4T14", 5)


def test_aircraft_come_from_the_scenario_with_their_loads_and_pgm_fits():
    # MBT 6.7.1: loads fixed before set-up; the scenario's pgm field fits a bomb load as a PGM (+20 points, 6.7.3.7)
    g = fw_game(({**A10, "loads": ["bomb", "bomb"], "pgm": ["bomb"]},))
    (a,) = g.aircraft
    assert a.name == "A-10A-1" and [x.key for x in a.loads] == ["bomb+pgm", "bomb"]
    assert fw_game(({**A10, "count": 2},)).aircraft[1].name == "A-10A-2"
    from studio.rules.load import ScenarioRefused
    with pytest.raises(ScenarioRefused) as err:
        fw_game(({**A10, "loads": ["rockets"], "pgm": ["rockets"]},))
    assert "cannot be fitted as a PGM" in str(err.value)


def test_sortie_announces_speed_and_altitude_then_enters_on_an_edge():
    # MBT 6.7.2.1-6.7.2.2: any edge on the first appearance; speed and altitude announced at the edge
    st = fw_state([T])
    assert set(legal(st)) >= {"sortie A-10A-1 slow low", "sortie A-10A-1 fast high", "pass"}
    act(st, "sortie A-10A-1 slow low")
    entries = [a for a in st.legal_actions() if a[0] == "arrive"]
    g = st.game
    assert entries and all(g.edges.get(g.map.hex(a[2])) for a in entries)
    assert "arrive A-10A-1 2B1 S" in [str(a) for a in entries]
    act(st, "arrive A-10A-1 2B1 S")
    assert any("enters at 2B1 heading S" in e for e in st.events)


def test_fast_aircraft_fly_straight_slow_ones_turn_once():
    # MBT 6.7.2.3.1: Slow may make one single-hexside turn, Fast none
    st = fly(fw_state([T]), "A-10A-1", "fast", "medium", "2B1", "S")
    assert [a for a in legal(st) if a.startswith("wing")] == ["wing A-10A-1 ahead"]
    st = fly(fw_state([T]), "A-10A-1", "slow", "medium", "2B1", "S")
    assert {a for a in legal(st) if a.startswith("wing")} == {"wing A-10A-1 ahead", "wing A-10A-1 left",
                                                               "wing A-10A-1 right"}
    act(st, "wing A-10A-1 left")
    assert [a for a in legal(st) if a.startswith("wing")] == ["wing A-10A-1 ahead"]


def test_ma49_loiter_five_turns_plus_three_per_drop_tank():
    # MA49: available for 5 consecutive turns from the first appearance (skipped turns count); +3 per Drop Tank
    st = fly(fw_state([T], turn=3), "A-10A-1", "fast", "high", "2B1", "S")
    assert st.fw.first == [3]
    assert [st.game.aircraft[0].drop_tanks, st.fw_loiter(0)] == [0, 5]
    tank = fw_state([T], aircraft=({**A10, "loads": ["drop-tank", "drop-tank"]},))
    assert tank.fw_loiter(0) == 11
    # once a turn: after its flight this turn it offers no sortie
    while st.fw.k >= 0:
        act(st, "pass" if st.fw.pending else "wing A-10A-1 ahead")
    assert not any(a.startswith("sortie") for a in legal(st))
    st.turn = 7
    st.fw.done = [False, False]
    assert st.fw_sorties(0) == [0]
    st.turn = 8
    assert st.fw_sorties(0) == []


def test_reentry_on_the_exit_edge_of_last_turn():
    # MBT 6.7.2.1: a flight the turn after must enter on the edge it left by; after a skipped turn any edge
    st = fly(fw_state([T], turn=3), "A-10A-1", "fast", "high", "2B1", "S")
    while st.fw.k >= 0:
        act(st, "pass" if st.fw.pending else "wing A-10A-1 ahead")
    assert st.fw.exit == ["south"]
    g = st.game
    st.turn = 4
    assert all("south" in g.edges[h] for h, _ in st.fw_entries(0))
    st.turn = 5
    assert {e for h, _ in st.fw_entries(0) for e in g.edges[h]} == {"north", "south", "east", "west"}


def test_ma50_acquisition_requirement():
    # MA50: Fast/Low 10 hexes; Crew 2 halves it (5); Suppressed doubles it (20); Slow/Medium 10
    st = fly(fw_state([T]), "A-10A-1", "fast", "low", "2B1", "S")
    assert st.fw_requirement(0) == 10
    st.fw.sup[0] = True
    assert st.fw_requirement(0) == 20
    st.fw.sup[0] = False
    st.fw.speed, st.fw.alt = "slow", "medium"
    assert st.fw_requirement(0) == 10
    su = fw_state([T], aircraft=({"side": "us", "aircraft": "su-25", "count": 1, "loads": ["bomb"]},))
    assert su.game.aircraft[0].crew == 1


def test_a_target_is_acquired_after_the_requirement_of_flight_in_view():
    # MBT 6.7.3.1.1: the target must stay in the front field of fire with LOS for the requirement; on entry the
    # off-map approach counts for targets nearer than the requirement
    far = unit("T", "t-80bv", "sov", "2B14", 0)  # 13 hexes ahead of 2B1
    st = fly(fw_state([far]), "A-10A-1", "slow", "low", "2B1", "S")
    assert st.fw.acq == {0: 0}
    for n in range(1, 6):
        act(st, "wing A-10A-1 ahead")
        assert st.fw.acq == {0: n}
    assert not st.fw_acquired()  # Slow/Low needs 6 (placeholder cell)
    act(st, "wing A-10A-1 ahead")
    assert st.fw_acquired() == [0]
    near = fly(fw_state([unit("T", "t-80bv", "sov", "2B5", 0)]), "A-10A-1", "slow", "low", "2B1", "S")
    assert near.fw_acquired() == [0]


def test_targets_in_woods_need_an_fo_on_overwatch():
    # MBT 6.7.3.1.1-2: no acquisition in woods or buildings without a friendly FO (Overwatch) spotting the target
    woods = unit("T", "t-80bv", "sov", "2L10", 0)
    st = fly(fw_state([woods]), "A-10A-1", "slow", "medium", "2L1", "S")
    assert st.fw.acq == {}
    fo = unit("F", "m981", "us", "2L7", 3, command="OW")
    st = fly(fw_state([woods, fo]), "A-10A-1", "slow", "medium", "2L1", "S")
    assert 0 in st.fw.acq


def _obstacle_pair(g, top: int, gap: int):
    """A hex whose nearest obstacle (terrain top >= 2) is exactly ``gap`` hexes away and of height ``top``."""
    tops = g.los.terrain_top
    obstacles = [h for h, t in tops.items() if t >= 2]
    for h in sorted(g.hexes):
        if tops.get(h, 0) != 0:
            continue
        near = [(distance(h, o), tops[o]) for o in obstacles if distance(h, o) <= 4]
        if near and min(d for d, _ in near) == gap and all(t == top for d, t in near if d <= gap + 1):
            return h
    raise LookupError((top, gap))


def test_ma51_aircraft_line_of_sight():
    # MA51: at Low a target within 1-2 hexes of Woods (height 3) is not seen; at 3 hexes it is; at Medium Woods
    # never blocks (only obstacles of height 4, adjacent)
    st = fw_state([T])
    g = st.game
    two, three = _obstacle_pair(g, 3, 2), _obstacle_pair(g, 3, 3)
    assert not st.air_los("low", two)
    assert st.air_los("low", three)
    assert st.air_los("medium", two) and st.air_los("medium", _obstacle_pair(g, 3, 1))


def test_ma53_strafe_pattern_slow_three_hexes_fast_five_friends_too():
    # MA53: the hex in front and the next 2 (Slow) or 4 (Fast); every unit in it is attacked, friend or foe
    units = [unit("T", "t-80bv", "sov", "2B3", 0), unit("U", "m1", "us", "2B5", 0),
             unit("V", "t-80bv", "sov", "2B7", 0)]
    st = fly(fw_state(units, dice=[1] * 12), "A-10A-1", "slow", "low", "2B1", "S", hexes=1)
    assert "attack A-10A-1 strafe T" in legal(st)
    act(st, "attack A-10A-1 strafe T")
    assert events(st, "on 2B3, 2B4, 2B5")
    attacked = {e.split(">")[1].split(" ")[0] for e in events(st, "A-10A-1>")}
    assert attacked == {"T", "U"}
    assert st.fw.ammo[0][0] == 3  # one strafe = one use of ammo (MBT 5.16.2.5)
    st = fly(fw_state(units, dice=[1] * 12), "A-10A-1", "fast", "low", "2B1", "S", hexes=1)
    act(st, "attack A-10A-1 strafe T")
    assert {e.split(">")[1].split(" ")[0] for e in events(st, "A-10A-1>")} == {"T", "U", "V"}


def test_strafing_and_rockets_at_low_only_bombs_by_altitude():
    # MA54: strafe and rockets Low only; iron/cluster bombs Medium or High; high-drag Low only
    target = [unit("T", "t-80bv", "sov", "2B3", 0)]
    low = fly(fw_state(target), "A-10A-1", "slow", "low", "2B1", "S", hexes=1)
    kinds = {a.split()[2] for a in legal(low) if a.startswith("attack")}
    assert kinds == {"strafe", "high-drag"}
    med = fly(fw_state(target), "A-10A-1", "slow", "medium", "2B1", "S", hexes=1)
    assert {a.split()[2] for a in legal(med) if a.startswith("attack")} == {"bomb", "cluster"}


def test_rockets_fire_straight_ahead_at_6_to_30():
    # MBT 6.7.3.4: FOF 0, range 6-30 (A-10 rockets), the target hex only
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2B13", 0), unit("S", "t-80bv", "sov", "2C13", 0)]),
             "A-10A-1", "slow", "low", "2B1", "S", hexes=6)
    assert sorted(st.fw_acquired()) == [0, 1]  # 6 hexes in view (Slow/Low)
    attacks = [a for a in legal(st) if a.startswith("attack A-10A-1 rockets")]
    assert attacks == ["attack A-10A-1 rockets T"]  # 6 hexes straight ahead; S is off the line
    act(st, "wing A-10A-1 ahead")
    assert not [a for a in legal(st) if "rockets" in a]  # range 5: below the minimum 6


def test_pgm_stand_off_range_medium_6_to_10():
    # MA54, MBT 6.7.3.7: a PGM hits an acquired target anywhere in the field of fire at 6-10 hexes (Medium)
    aircraft = ({**A10, "loads": ["bomb"], "pgm": ["bomb"]},)
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2C7", 0)], aircraft=aircraft), "A-10A-1", "slow", "medium",
             "2B1", "S")
    assert "attack A-10A-1 bomb+pgm T" in legal(st)
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2C4", 0)], aircraft=aircraft), "A-10A-1", "slow", "medium",
             "2B1", "S")
    assert not [a for a in legal(st) if a.startswith("attack")]  # 3 hexes: inside the stand-off range


def _net(st, name="A-10A-1>T"):
    (e,) = [e for e in st.events if e.startswith(name)]
    return int(e.split("roll ")[1].split(" =")[0].lstrip("0123456789"))


@pytest.mark.parametrize("speed, sign, expect", [("slow", "minus", 20), ("fast", "minus", 0), ("fast", "plus", 40)])
def test_ma55_strafe_modifiers(speed, sign, expect):
    # MA55: strafing at Low +20, Fast speed 20 (sign by option fw-fast-speed-sign, Z1), Unit Grade at Extreme
    # range (Seasoned 0 here)
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2B3", 0)], options={"fw-fast-speed-sign": sign},
                      grades={"us": "seasoned", "sov": "regulars"}, dice=[50] * 8),
             "A-10A-1", speed, "low", "2B1", "S", hexes=1)
    act(st, "attack A-10A-1 strafe T")
    ag = st.game.ag
    target = ag.gp_mod["target-a-type"]
    assert _net(st) == expect + target + ag.grade_gp["seasoned"]["E"]


def test_bomb_at_medium_plus_10_and_grade_only_for_strafing():
    st = fly(fw_state([unit("T", "t-80bv", "sov", "2B3", 0)], grades={"us": "veteran", "sov": "regulars"},
                      dice=[50] * 8), "A-10A-1", "slow", "medium", "2B1", "S", hexes=1)
    act(st, "attack A-10A-1 bomb T")
    assert _net(st) == 10 + st.game.ag.gp_mod["target-a-type"]


class _CardIndex:
    """The project index with extra loads on the A-10A card (incendiary bombs, an ARM): the sample card has
    neither."""

    def __init__(self, idx, loads):
        self._idx, self._loads = idx, loads

    def model(self, kind, mid):
        m = self._idx.model(kind, mid)
        if kind == "unit" and mid == "a-10":
            from studio.rulesets.mbt.cards import LoadOption

            body = m.body.model_copy(update={"loads": list(m.body.loads) + [LoadOption(**x) for x in self._loads]})
            m = m.model_copy(update={"body": body})
        return m

    def __getattr__(self, name):
        return getattr(self._idx, name)


EXTRA_LOADS = ({"id": "fire", "kind": "incendiary_bomb", "name": "Mk 77", "points": 30, "gp_factor": 12},
               {"id": "arm", "kind": "ARM", "name": "AGM-88", "points": 40, "gp_factor": 10})


def _extra_state(units, loads, options=None, dice=()):
    from studio.rulesets.mbt.cards import AircraftAssignment

    idx = _CardIndex(index(), EXTRA_LOADS)
    sc = idx.model("scenario", SCENARIO)
    ext = sc.extension.model_copy(update={"aircraft": [AircraftAssignment(side="us", aircraft="a-10", loads=loads)]})
    g = G.create_game(sc.model_copy(update={"extension": ext}), idx, options)
    st = position_state(g, {"scenario": SCENARIO, "phase": "air-1", "turn": 3, "units": list(units) + [US],
                            "dice": list(dice), "to_act": "us"})
    st.dice.record = True
    return st


def test_incendiary_bombs_plus_20_on_soft_targets_and_brew_up():
    # MBT 6.7.3.8: incendiary bombs +20 against a dismounted leg unit (with Medium +10); MBT 6.7.3.3.3: a vehicle
    # Knock Out is a Brew Up
    squad = unit("T", "sov-mr-squad", "sov", "2B3", 0)
    st = fly(_extra_state([squad], ["fire"], dice=[1]), "A-10A-1", "slow", "medium", "2B1", "S", hexes=1)
    act(st, "attack A-10A-1 fire T")
    assert _net(st) == 10 + 20
    tank = unit("T", "t-80bv", "sov", "2B3", 0)
    st = fly(_extra_state([tank], ["fire"]), "A-10A-1", "slow", "medium", "2B1", "S", hexes=1)
    g = st.game
    n_eff, s_eff = g.ag.gp_crt[(12, g.units[0].type.ag.gp_value)]
    net = 10 + g.ag.gp_mod.get("target-a-type", 0) * 0  # incendiary: no target-type modifier (MBT 6.5.4.3)
    roll = next(r for r in range(1, 101) if r + net > s_eff and (r + net) % 10 not in (0, 5))
    st.dice.force(roll, 10)
    act(st, "attack A-10A-1 fire T")
    assert st.st[0] != 1 and st.wreck.get(st.hex[0]) == 2


def test_arm_attacks_an_active_radar_aa_unit_only():
    # MBT 6.7.3.5: no acquisition, any altitude; only an AA unit with active radar, and nothing else in its hex
    units = [unit("Z", "zsu-23-4", "sov", "2T14", 0), unit("W", "t-80bv", "sov", "2T14", 0)]
    st = fly(_extra_state(units, ["arm"], options={"aa-radar-state": "active"}, dice=[1]), "A-10A-1", "fast", "high",
             "2B1", "S")
    assert "attack A-10A-1 arm Z" in legal(st) and "attack A-10A-1 arm W" not in legal(st)
    act(st, "attack A-10A-1 arm Z")
    assert events(st, "A-10A-1>Z") and not events(st, "A-10A-1>W")
    st = fly(_extra_state(units, ["arm"]), "A-10A-1", "fast", "high", "2B1", "S")
    assert not [a for a in legal(st) if a.startswith("attack")]  # radar off (the default)


def _aa(command="OW", hex_="2C6", facing=0):
    return unit("Z", "zsu-23-4", "sov", hex_, facing, command=command)


def test_aa_tracks_an_aircraft_entering_in_los_at_once_and_fires_once_a_turn():
    # MBT 6.7.8.1.1: an aircraft appearing at the edge in LOS is tracked at once; AA needs Overwatch; one shot
    st = fly(fw_state([_aa()], dice=[10]), "A-10A-1", "slow", "medium", "2B1", "S", hexes=0)
    assert st.cp == 1 and "ow Z at A-10A-1 guns:HEI" in legal(st)
    act(st, "ow Z at A-10A-1 guns:HEI")
    assert events(st, "Z AA fire")
    act(st, "wing A-10A-1 ahead")
    assert not st.fw.pending  # one AA shot per turn
    st = fly(fw_state([_aa(command="FIRE")]), "A-10A-1", "slow", "medium", "2B1", "S", hexes=0)
    assert not st.fw.pending


def test_aa_cannot_fire_at_high_altitude_when_na():
    # MBT 6.7.8.1.2: the ZSU-23-4 is N/A vs High Altitude
    st = fly(fw_state([_aa()]), "A-10A-1", "slow", "high", "2B1", "S", hexes=0)
    assert not st.fw.pending


def test_tracking_requirement_optical_and_radar():
    # MBT 6.7.8.1.1 example: Fast/Medium optical 6 hexes, active radar 3; Suppressed doubles
    st = fw_state([_aa()])
    row = next(r for r in st.game.units[0].type.ap if r.aa)
    assert st.aa_requirement(0, row, "fast", "medium") == 6
    radar = fw_state([_aa()], options={"aa-radar-state": "active"})
    assert radar.aa_requirement(0, row, "fast", "medium") == 3
    radar.sup[0] = 1
    assert radar.aa_requirement(0, row, "fast", "medium") == 6


def test_aa_tracking_needs_the_requirement_of_flight_without_entry_credit():
    # a unit out of the aircraft's LOS at entry tracks only the hexes it then sees: Slow/Medium track 5
    st = fw_state([_aa(hex_="2C9")])
    st.fw.track = {}
    fly(st, "A-10A-1", "slow", "medium", "2B1", "S", hexes=0)
    assert st.fw.track.get(0) == 99  # in LOS at the edge: tracked at once
    assert st.fw.pending


@pytest.mark.parametrize("alt, speed, expect", [("low", "slow", 10), ("medium", "fast", -10)])
def test_ma65_aa_modifiers(alt, speed, expect):
    # MA65: Low +10; Fast -10; the card AA modifier (0 on the ZSU-23-4); no Overwatch GP modifiers
    st = fly(fw_state([_aa()], dice=[10], grades={"us": "veteran", "sov": "seasoned"}), "A-10A-1", speed, alt,
             "2B1", "S", hexes=0)
    act(st, "ow Z at A-10A-1 guns:HEI")
    (e,) = events(st, "Z AA fire")
    net = int(e.split("roll 10")[1].split(" =")[0])
    band = e.split("GP ")[1].split(")")[0].split(", ")[1]
    assert net == expect + st.game.ag.grade_gp["seasoned"][band]


def _aa_roll_for(st, result: str) -> int:
    """A roll (100) giving ``result`` against the A-10 for the pending ZSU shot (computed from the CRT)."""
    g = st.game
    s, row = st.fw.pending[0]
    band, factor = st.gp_factor(row, distance(st.hex[s], st.fw.hex))
    n_eff, s_eff = g.ag.gp_crt[(factor, g.aircraft[0].gpd)]
    for roll in range(1, 101):
        m = g.air.aa_mod
        x = roll + g.ag.grade_gp[st.unit_grade(s)][band] + row.aa_mod + (m["low-altitude"] if st.fw.alt == "low" else 0)
        x += (m["fast-speed"] if st.fw.speed == "fast" else 0) + (m["high-altitude"] if st.fw.alt == "high" else 0)
        eff = "N" if x <= n_eff else "S" if x <= s_eff else "E"
        if result == "damaged" and eff == "E" and x % 10 in (0, 5):
            return roll
        if result == "down" and eff == "E" and x % 10 not in (0, 5):
            return roll
        if result == "suppressed" and eff == "S":
            return roll
    raise LookupError(result)


def test_ma67_damaged_aircraft_flies_slow_second_damage_eliminates():
    # MA67: Effective ending in 5 or 0 -> Damaged, Slow at once and for later turns; a second damage eliminates
    st = fly(fw_state([_aa()]), "A-10A-1", "fast", "medium", "2B1", "S", hexes=0)
    st.dice.force(_aa_roll_for(st, "damaged"))
    act(st, "ow Z at A-10A-1 guns:HEI")
    assert st.fw.dmg == [True] and st.fw.speed == "slow"
    assert events(st, "-> Damaged")
    st.fw.aa_fired = []
    st.fired[0] = False
    st.fw._land()
    st.turn += 1
    st.fw.done = [False, False]
    assert not any(a.startswith("sortie A-10A-1 fast") for a in legal(st))


def test_ma67_shot_down_crashes_ahead_and_attacks_the_crash_hex():
    # MA67: roll (10) hexes ahead, halved at Low (7 -> 3); GP 15 at every unit in the crash hex; the loss counts
    victim = unit("V", "t-80bv", "sov", "2B4", 0)
    st = fly(fw_state([_aa(hex_="2C2"), victim]), "A-10A-1", "slow", "low", "2B1", "S", hexes=0)
    st.dice.force(_aa_roll_for(st, "down"), 7, 50, 5)
    act(st, "ow Z at A-10A-1 guns:HEI")
    assert st.fw.dead == [True] and st.lost[0] == 1
    assert events(st, "A-10A-1 crash at 2B4")
    assert events(st, "A-10A-1 crash>V")
    assert st.fw.k == -1 and not st.fw_sorties(0)


def test_suppressed_aircraft_doubles_acquisition():
    st = fly(fw_state([_aa()]), "A-10A-1", "slow", "medium", "2B1", "S", hexes=0)
    st.dice.force(_aa_roll_for(st, "suppressed"))
    act(st, "ow Z at A-10A-1 guns:HEI")
    assert st.fw.sup == [True] and st.fw_requirement(0) == 20


def test_ma66_ecm_pod_spoofs_radar_tracked_guns():
    # MA66: an ECM Pod rolls (10) at or under the CM rating (radar guns: air-values, option table) -> No Effect
    aircraft = ({**A10, "loads": ["ecm-pod"]},)
    opts = {"aa-radar-state": "active"}
    st = fly(fw_state([_aa()], aircraft=aircraft, options=opts), "A-10A-1", "slow", "medium", "2B1", "S")
    st.dice.force(_aa_roll_for(st, "down"), 2)
    act(st, "ow Z at A-10A-1 guns:HEI")
    assert events(st, "spoofed (No Effect)") and st.fw.dead == [False]
    st = fly(fw_state([_aa()], aircraft=aircraft, options={**opts, "aa-radar-gun-spoofing": "card"}), "A-10A-1",
             "slow", "medium", "2B1", "S")
    st.dice.force(_aa_roll_for(st, "down"), 2, 5)
    act(st, "ow Z at A-10A-1 guns:HEI")
    assert not events(st, "spoof") and st.fw.dead == [True]


def test_observation_hides_the_enemy_load_out():
    # MBT 6.7.1: keep the load-out secret: the Soviet view does not show the A-10's attacks left
    st = fly(fw_state([T]), "A-10A-1", "slow", "low", "2B1", "S")
    assert st.observation(1).fw.ammo == [[-1] * 5]
    assert st.observation(0).fw.ammo == st.fw.ammo
    assert st.observation(1).fw.hex == st.fw.hex  # the flying aircraft is seen


def test_narration_only_when_recording():
    st = fly(fw_state([T]), "A-10A-1", "slow", "low", "2B1", "S")
    assert st.events
    quiet = fw_state([T])
    quiet.dice.record = False
    fly(quiet, "A-10A-1", "slow", "low", "2B1", "S")
    assert quiet.events == []


def test_clone_and_fingerprint_cover_the_flight():
    st = fly(fw_state([T]), "A-10A-1", "slow", "low", "2B1", "S")
    c = st.clone()
    assert c.fingerprint() == st.fingerprint()
    act(c, "wing A-10A-1 ahead")
    assert c.fingerprint() != st.fingerprint() and st.fw.hex != c.fw.hex


# ------------------------------------------------------------------ optional rules in the air chapter

@pytest.mark.parametrize("on", [True, False])
def test_7_26_2_bomb_scatters_after_aa_fire_within_5_hexes(on):
    # MBT 7.26.2 (opt_scatter.fw_scatter): an iron bomb dropped from Medium after AA fire (No Effect) within 5
    # hexes scatters on roll (10) + grade (Veteran +1) at or under 2: roll 1, direction 3 -> 1 hex; T is missed
    units = [_aa(hex_="2C2"), unit("T", "t-80bv", "sov", "2B4", 0)]
    st = fly(fw_state(units, optional=("scatter",) if on else ()), "A-10A-1", "slow", "medium", "2B1", "S")
    st.dice.force(1)  # AA roll 1: No Effect
    act(st, "ow Z at A-10A-1 guns:HEI")
    act(st, "wing A-10A-1 ahead")
    act(st, "wing A-10A-1 ahead")
    st.dice.force(1, 3, 1, 1, 1)
    act(st, "attack A-10A-1 bomb T")
    assert bool(events(st, "scatters (7.26.2)")) == on
    assert bool(events(st, "A-10A-1>T")) == (not on)


@pytest.mark.parametrize("on", [True, False])
def test_7_38_air_burst_bomb_into_woods(on):
    # MBT 7.38 (opt_air_bursts.air_burst): bombs at a target in woods +10 against S-types (a squad), spotted for
    # the aircraft by an FO on Overwatch (MBT 6.7.3.1.2)
    units = [unit("T", "sov-mr-squad", "sov", "2L10", 0), unit("F", "m981", "us", "2L7", 3, command="OW")]
    st = fly(fw_state(units, optional=("air-bursts",) if on else (), dice=[1] * 3, grades={"us": "seasoned",
                                                                                          "sov": "regulars"}),
             "A-10A-1", "slow", "medium", "2L1", "S", hexes=8)
    act(st, "attack A-10A-1 bomb T")
    assert _net(st) == 10 + (10 if on else 0)


def test_observation_hides_the_enemy_aa_tracks_from_the_pilot():
    # the AA tracks and shots offered come from Overwatch commands the aircraft's side may not see (MBT 4.2.1)
    st = fly(fw_state([_aa()]), "A-10A-1", "slow", "medium", "2B1", "S")
    assert st.fw.pending and st.fw.track
    assert st.observation(0).fw.pending == [] and st.observation(0).fw.track == {}
    assert st.observation(1).fw.pending == st.fw.pending


def test_heuristic_bots_fly_the_a10s_in_the_air_strike():
    # the bot flies its fixed-wing aircraft (High with bombs when the ZSU-23-4s cannot reach it) and attacks;
    # the narration names each flight and attack
    from mbt_adv_fixtures import adv_game

    g = adv_game(scenario=SCENARIO)
    said = []
    for seed in (1, 2, 3):
        st = g.new_initial_state(seed)
        st.dice.record = True
        bots = [g.make_bot("heuristic", p, seed) for p in (0, 1)]
        while not st.is_terminal():
            p = st.current_player()
            st.play(bots[p].choose(st.observation(p), st.legal_actions()))
            said += st.events
    assert any("A-10A-" in e and "flies at" in e for e in said)
    assert any(e.startswith("A-10A-") and " attacks " in e for e in said)


@pytest.mark.parametrize("mod, expect", [(0, 10), (-1, 10), (-3, 30)])
def test_limited_spotting_multiplies_the_acquisition(mod, expect):
    # MBT 6.7.3.1.4 example: Slow/Medium with Limited Spotting -3 -> 10 x 3 = 30 hexes; -1 has no effect
    import copy

    st = fly(fw_state([T]), "A-10A-1", "slow", "medium", "2B1", "S")
    g = copy.copy(st.game)
    g.turn_spot_mod = {t: mod for t in st.game.turn_spot_mod}
    st.game = g
    assert st.fw_requirement(0) == expect


def test_the_fo_spotting_for_aircraft_uses_its_overwatch():
    # MBT 6.7.3.1.2: a ground FO spotting for aircraft may do no other Overwatch action that turn; it may spot the
    # same target for other aircraft
    units = [unit("T", "sov-mr-squad", "sov", "2L10", 0), unit("F", "m981", "us", "2L7", 3, command="OW")]
    st = fly(fw_state(units, dice=[1] * 3), "A-10A-1", "slow", "medium", "2L1", "S", hexes=8)
    assert not st.fired[1]
    act(st, "attack A-10A-1 bomb T")
    assert st.fired[1] and st.fw.fo == {1: 0}
    assert st.fw_fo_spots(0, 0)  # still spots T (for another aircraft)
