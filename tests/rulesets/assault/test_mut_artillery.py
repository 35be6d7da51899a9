"""Artillery details a mutation run of the engine found untested (COVERAGE.md, Measurements): which firers still
fire when their mission arrives (19.E, 8.C), the entrenched defence against indirect fire (18, option c28), the
CLGP designator's reach (22.C) and the Soviet command levels of on-board firers (19.B.3), through positions
and play."""
from dataclasses import replace
from pathlib import Path

import pytest

from studio.hexgrid import coords
from studio.model.position import Position
from studio.rulesets.assault.engine.artillery import downwind
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index(sample_index):
    return sample_index.index                   # the sample project, validated once per session (conftest)


def state_of(index, units, phase="artillery", dice=(), scenario="assault-probe", to_act="us", turn=3,
             extension=None, **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options} | options)
    doc = {"kind": "position", "schema_version": 1, "scenario": scenario, "phase": phase, "units": units,
           "turn": turn, "to_act": to_act, "extension": extension or {}}
    state = game.state_from_position(Position.model_validate(doc))
    state.dice.force(*dice)
    return state


def u(uid, card, side, hexlabel, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "status": status}


def by_id(state) -> dict:
    return {c.id: c for c in state.counters}


def finish_plotting(state) -> None:
    while state.phase_id() == "artillery" and state.art_step == "plot":
        state.play("end")


def attacked(state, uid) -> bool:
    return any(f"indirect fire {uid}" in str(r) for r in state.dice.history)


# ------------------------------------------------------------------ the firer when the mission arrives (19.C, 19.E)
# The Probe's M-109 battery on board (HE 6 per step, 2 steps: fire value 12) observing for itself (delay 0: the
# mission arrives at the end of this plotting step) on a Soviet motor-rifle platoon in the clear at A1012.
MORTAR_UNITS = [u("m", "us-m109-battery", "us", "A1014", deployed=True),
                u("su", "su-motor-rifle-platoon", "soviet", "A1012", spotted=True)]


def test_a_deployed_on_board_firer_fires_its_mission(index):
    """19.C: the mission arrives and attacks each unit in the hex with one CRT roll."""
    state = state_of(index, MORTAR_UNITS, dice=[1])
    state.play("plot m A1012 HE")
    finish_plotting(state)
    assert attacked(state, "su")
    su = by_id(state).get("su")
    assert su is None or su.steps < 2 or su.suppressed


@pytest.mark.parametrize("change", ["undeployed", "carried", "no steps"])
def test_a_firer_that_can_no_longer_fire_drops_its_mission(index, change):
    """19.E, 8.C: a unit out of deployment, carried or without steps when its mission arrives fires nothing."""
    state = state_of(index, MORTAR_UNITS, dice=[1])
    state.play("plot m A1012 HE")
    m = by_id(state)["m"]
    if change == "undeployed":
        m.deployed = False
    elif change == "carried":
        m.carrier = "su"
    else:
        m.steps = 0
    finish_plotting(state)
    assert not attacked(state, "su") and by_id(state)["su"].steps == 2 and not by_id(state)["su"].suppressed


def test_an_off_board_battery_mission_arrives(index):
    """19.F: an off-board battery is always able to fire its mission (no deployment, never carried)."""
    state = state_of(index, [u("obs", "us-m1-platoon", "us", "A1010"),
                             u("su", "su-motor-rifle-platoon", "soviet", "A1011", spotted=True)], dice=[1] * 3)
    state.play("plot m109-div/1 A1011 HE")
    (mission,) = [m for m in state.missions if m.firer == "m109-div/1"]
    state.turn = mission.arrival
    state.art_step, state.actor = "plot", 1
    finish_plotting(state)
    assert attacked(state, "su")


# ------------------------------------------------------------------ entrenchments under indirect fire (18, c28)
@pytest.mark.parametrize("choice", [None, "conventional", "indirect"])
def test_c28_entrenched_infantry_defends_on_the_chosen_row(index, choice):
    """18, option c28 (default 'conventional'): an entrenched platoon in the open uses the entrenchment row of
    the conventional defence table (personnel, open: 14) or of the indirect defence chart (personnel: 12).
    Fire 12 against 14 is the 1:2 column, against 12 the 1:1 column: roll 1 suppresses or hits (the CRT)."""
    options = {} if choice is None else {"c28-entrenched-indirect": choice}
    units = [u("m", "us-m109-battery", "us", "A1112", deployed=True),
             u("su", "su-motor-rifle-platoon", "soviet", "A1111", spotted=True, entrenched=True)]
    state = state_of(index, units, dice=[1], **options)
    game = state.game
    row = "conventional-defence" if choice in (None, "conventional") else "indirect-defence"
    defence = game.data.defence["entrenchment"]["personnel_open"] if row == "conventional-defence" \
        else game.indirect_defence["entrenchment"]["personnel"]
    assert (row, defence) in (("conventional-defence", 14), ("indirect-defence", 12))
    state.play("plot m A1111 HE")
    finish_plotting(state)
    su = by_id(state)["su"]
    assert (su.steps, su.suppressed) == ((2, True) if defence == 14 else (1, True))


# ------------------------------------------------------------------ CLGP (22.C)
@pytest.mark.parametrize("target, directed", [("A1015", True), ("A1016", False)])
def test_clgp_designator_reaches_an_afv_exactly_four_hexes_from_the_target_hex(index, target, directed):
    """22.C: an AFV within 4 hexes of the target hex (A1011) is directed at: 4 hexes away (A1015) yes, 5 (A1016)
    no (then the round is an HE attack on A1011, where nobody is)."""
    units = [u("m", "us-m109-battery", "us", "A0914", deployed=True),
             u("d", "us-m1-platoon", "us", "A1012", designation="1C1"),
             u("su", "su-t80-platoon", "soviet", target, spotted=True)]
    state = state_of(index, units, dice=[6, 10, 10, 10], clgp="on")
    state.play("plot m A1011 CLGP")
    finish_plotting(state)
    assert ("su" not in by_id(state)) is directed                 # roll 6 <= 8 - 2: two hits, both steps


# ------------------------------------------------------------------ Soviet command levels (19.B.3)
@pytest.mark.parametrize("designation, delay", [("AR3", 2), ("AR91", 3), ("", 3)])
def test_an_on_board_firer_without_a_card_level_takes_its_designations(index, designation, delay):
    """19.B.3: a Soviet firer whose card names no command level is at its designation's level (battalion for
    AR3, regiment for AR91), else a battery. Observed by the 3rd battalion's HQ (hq delay 2) it waits 2 + the
    levels between them: 0 for a battalion firer, 1 for a regimental one or a battery."""
    units = [u("g", "su-2s1-battery", "soviet", "B1018", deployed=True, designation=designation),
             u("hq", "su-hq", "soviet", "B1010", designation="HQ3"),
             u("us", "us-m1-platoon", "us", "B1012", spotted=True)]
    state = state_of(index, units, scenario="assault-meeting", to_act="soviet", turn=1)
    fire = state.game.card("su-2s1-battery").body.indirect_fire
    kept = fire.command_level
    object.__setattr__(fire, "command_level", None)
    try:
        assert state.game.delay["hq"]["soviet"] == 2
        state.play("plot g B1012 HE")
        assert [m.arrival for m in state.missions if m.firer == "g"] == [1 + delay]
    finally:
        object.__setattr__(fire, "command_level", kept)


# ------------------------------------------------------------------ range (19.F)
def plotted_hexes(state, firer) -> set:
    return {a.split()[2] for a in state.legal_actions() if a.startswith(f"plot {firer} ")}


def test_an_on_board_firer_reaches_exactly_its_printed_range(index):
    """19.F: the M-125 (range 18) at A0110 reaches A1910 (18 hexes) but not A2010 (19); an observer stands by."""
    units = [u("m", "us-m125-mortar", "us", "A0110", deployed=True), u("obs", "us-m1-platoon", "us", "A1911"),
             u("su", "su-t80-platoon", "soviet", "B2220")]
    state = state_of(index, units)
    game = state.game
    assert game.card("us-m125-mortar").body.indirect_fire.range_hexes == 18
    hexes = plotted_hexes(state, "m")
    for label in hexes:
        assert coords.distance(game.map.hex("A0110"), game.map.hex(label)) <= 18
    assert "A1910" in hexes and "A2010" not in hexes


@pytest.mark.parametrize("off_board", [12, 52])
def test_an_off_board_battery_loses_the_hexes_it_stands_off_board(index, off_board):
    """19.F: an off-board battery's reach is its printed range (the M-109's 72) less the hexes it stands off the
    side's map edge, counted from that edge (the U.S. west edge, 24.A): a hex n hexes in from the edge needs
    n + 1 <= range - off board."""
    units = [u("obs", "us-m1-platoon", "us", "A2010"), u("su", "su-t80-platoon", "soviet", "B2220")]
    state = state_of(index, units)
    game = state.game
    game.batteries = [replace(b, hexes_off_board=off_board) if b.id == "m109-div/1" else b for b in game.batteries]
    reach = game.card("us-m109-battery").body.indirect_fire.range_hexes - off_board
    edge = game.edge_distance("west")
    hexes = plotted_hexes(state, "m109-div/1")
    assert hexes and all(edge[game.map.hex(h)] + 1 <= reach for h in hexes)
    seen = {game.map.label_of[h] for h in game.visible(game.map.hex("A2010"))}
    assert {h for h in seen if edge[game.map.hex(h)] + 1 <= reach} == hexes
    if off_board == 52:
        assert any(edge[game.map.hex(h)] + 1 == reach for h in hexes)
        assert any(edge[game.map.hex(h)] + 1 == reach + 1 for h in seen)


# ------------------------------------------------------------------ wind (20.A.1)
@pytest.mark.parametrize("direction, bearing, hexside", [("N", 0, 3), ("NE", 45, 4), ("E", 90, 4), ("SE", 135, 5),
                                                         ("S", 180, 0), ("SW", 225, 1), ("W", 270, 1),
                                                         ("NW", 315, 2)])
def test_compass_directions_and_the_hexside_downwind(index, direction, bearing, hexside):
    """20.A.1: the wind comes from a compass direction (degrees); it blows toward the opposite bearing, whose
    nearest hexside (flat-top hexside k faces 60k degrees, ties to the lower) is where smoke drifts (20.A.4)."""
    state = state_of(index, [u("su", "su-t80-platoon", "soviet", "B2220"), u("m1", "us-m1-platoon", "us", "B0101")],
                     phase="us-move-1", scenario="assault-meeting",
                     extension={"wind": {"direction": direction, "strength": "light"}})
    assert state.wind_bearing == bearing and downwind(bearing) == hexside


# ------------------------------------------------------------------ ICM (19.D.2), c34, delays (19.B.3)
def test_no_icm_without_an_icm_multiplier(index):
    """19.D.2: ICM is fired by U.S. weapons that have an ICM multiplier: the M-109 has, the M-125 has not."""
    units = [u("m", "us-m125-mortar", "us", "A1014", deployed=True), u("b", "us-m109-battery", "us", "A1013",
                                                                        deployed=True),
             u("su", "su-motor-rifle-platoon", "soviet", "A1012", spotted=True)]
    state = state_of(index, units)
    ammo = lambda f: {a.split()[3] for a in state.legal_actions() if a.startswith(f"plot {f} ")}  # noqa: E731
    assert "ICM" in ammo("b") and "ICM" not in ammo("m") and "HE" in ammo("m")


@pytest.mark.parametrize("choice, suppressed", [(None, False), ("no-effect", False), ("suppress", True)])
def test_c34_indirect_no_effect(index, choice, suppressed):
    """19.C.5, option c34 (default 'no-effect'): a 'no effect' result of indirect fire stands or suppresses.
    Fire 12 against the motor rifles' 4 in the clear (3:1), roll 10: NE on the CRT."""
    options = {} if choice is None else {"c34-indirect-no-effect": choice}
    state = state_of(index, MORTAR_UNITS, dice=[10, 10, 10], **options)
    assert state.game.crt[10][4] == "NE" and state.game.crt_columns[3] == (4, 3.0)
    assert state.game.indirect_defence["clear"]["personnel"] == 4
    state.play("plot m A1012 HE")
    finish_plotting(state)
    su = by_id(state)["su"]
    assert su.steps == 2 and su.suppressed is suppressed


def test_us_observers_add_no_command_levels(index):
    """19.B.3: the command-level delay is Soviet only: a U.S. HQ observing for the off-board M-109 battery waits
    the chart's HQ delay alone."""
    units = [u("hq", "us-hq", "us", "A1010", designation="HQC1"), u("su", "su-t80-platoon", "soviet", "A1012",
                                                                     spotted=True)]
    state = state_of(index, units, turn=3)
    state.play("plot m109-div/1 A1012 HE")
    (m,) = [m for m in state.missions if m.firer == "m109-div/1"]
    assert m.arrival == 3 + state.game.delay["hq"]["us"]


def test_an_army_battery_observed_by_a_battalion_hq_waits_for_three_levels(index):
    """19.B.3 (A109): army artillery (level 4) called by a battalion HQ (level 1): HQ delay 2 + 3 levels = 5 turns
    (the fire timetable aborted, so the line may be written, 21)."""
    units = [u("hq", "su-hq", "soviet", "A1010", designation="HQ3"), u("us", "us-m1-platoon", "us", "B0101")]
    state = state_of(index, units, to_act="soviet", turn=2)
    state.timetable_aborted = True
    state.play("plot d30-army/1 A1011 HE")
    assert [m.arrival for m in state.missions if m.firer == "d30-army/1" and not m.timetable] == [2 + 5]


# ------------------------------------------------------------------ indirect ammunition (23.A)
def test_indirect_ammunition_is_one_unit_a_mission_and_the_multiplier_at_max_rof(index):
    """23.A: with ammunition tracked, a mission uses one unit, a max ROF mission its multiplier (the M-109's 3);
    an exhausted firer plots nothing more. (No sample card gives an indirect load: the M-109 gets 4 here.)"""
    fire = index.model("unit", "us-m109-battery").body.indirect_fire
    object.__setattr__(fire, "ammo_supply", 4)                   # before the game compiles its cards
    try:
        state = state_of(index, MORTAR_UNITS, dice=[10] * 6, **{"ammo-supply": "all"})
        state.play("plot m A1012 HE max")
        finish_plotting(state)
        assert state.ammo_used == {("m", "indirect"): 3}
        state.turn, state.art_step, state.actor = 4, "plot", 1
        state.play("plot m A1012 HE")
        finish_plotting(state)
        assert state.ammo_used == {("m", "indirect"): 4}
        state.turn, state.art_step, state.actor = 5, "plot", 1
        assert not [a for a in state.legal_actions() if a.startswith("plot m ")]
    finally:
        object.__setattr__(fire, "ammo_supply", None)


def test_a_soviet_firer_observing_for_itself_adds_no_command_levels(index):
    """19.B.3: the levels between firer and observer count only for an HQ or OP observer other than the firer:
    the 2S1 (a regimental battery) observing its own target waits the firing-unit delay alone (0)."""
    units = [u("g", "su-2s1-battery", "soviet", "B1016", deployed=True),
             u("us", "us-m1-platoon", "us", "B1015", spotted=True)]
    state = state_of(index, units, scenario="assault-meeting", to_act="soviet", turn=2)
    assert state.game.delay["firing-unit"]["soviet"] == 0
    state.play("plot g B1015 HE")
    assert [m.arrival for m in state.missions if m.firer == "g"] == [2]


# ------------------------------------------------------------------ the fire timetable (21)
def test_the_timetable_writes_lines_for_the_on_board_firers_it_names(index):
    """21: a timetable line names its firing unit, an off-board group or an on-board counter (by designation or
    id, Soviet indirect fire units only); 'on call' lines are written later; a disabled timetable writes none."""
    base = index.model("scenario", "assault-probe")
    tt = base.extension.fire_timetable
    entry = type(tt.entries[0])
    entries = list(tt.entries) + [entry(turn=3, unit="AR3", hex="A0912", ammo="HE"),
                                  entry(turn=4, unit="m", hex="A0913", ammo="HE")]
    rs = index.model("ruleset", "assault")
    units = [u("g", "su-2s1-battery", "soviet", "B1010", deployed=True, designation="AR3"),
             u("m", "us-m125-mortar", "us", "A0110", deployed=True), u("t", "su-t80-platoon", "soviet", "B1020",
                                                                        designation="AR3")]
    for enabled in (True, False):
        scenario = base.model_copy(deep=True)
        scenario.extension.fire_timetable = tt.model_copy(update={"entries": entries, "enabled": enabled})
        game = create_game(scenario, index, {o.id: o.default for o in rs.options})
        pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                       "phase": "artillery", "units": units})
        state = game.state_from_position(pos)
        lines = sorted((m.firer, game.map.label_of[m.hex], m.arrival) for m in state.missions)
        if not enabled:
            assert lines == []
            continue
        assert ("g", "A0912", 3) in lines and not [x for x in lines if x[0] in ("m", "t")]
        assert {x[0] for x in lines} == {"g", "d30-army/1", "d30-army/2"} and not [x for x in lines if x[2] == 5]


# ------------------------------------------------------------------ what may be plotted (19.B.1, 19.D.2-3, c8, c12)
@pytest.mark.parametrize("choice, banned", [(None, False), ("distinct", False), ("same", True)])
def test_c8_icm_on_marsh(index, choice, banned):
    """19.D.2, option c8 (default 'distinct'): ICM is never fired on swamp; marsh is banned too when the two are
    one terrain ('same')."""
    options = {} if choice is None else {"c8-marsh-swamp": choice}
    units = [u("m", "us-m109-battery", "us", "B0520", deployed=True), u("su", "su-t80-platoon", "soviet", "B2220")]
    state = state_of(index, units, scenario="assault-meeting", **options)
    assert state.game.terrain_of[state.game.map.hex("B0420")] == "marsh"
    legal = state.legal_actions()
    assert "plot m B0420 HE" in legal and ("plot m B0420 ICM" not in legal) is banned


@pytest.mark.parametrize("choice, screens", [(None, 6), ("per-step", 6), ("per-unit", 3)])
def test_c12_smoke_screens_of_one_mission(index, choice, screens):
    """19.D.3, option c12 (default 'per-step'): the M-109's 3 screens per step make one smoke mission of 6
    screens (2 steps) or 3 ('per-unit'), on as many different hexes; once a smoke mission is written for a turn
    the firer plots nothing else for that turn, nor the same hex twice."""
    options = {} if choice is None else {"c12-smoke-screens": choice}
    units = [u("m", "us-m109-battery", "us", "B1010", deployed=True), u("su", "su-t80-platoon", "soviet", "B2220")]
    state = state_of(index, units, scenario="assault-meeting", **options)
    hexes = ["B1011", "B1012", "B1013", "B0909", "B1009", "B1110"]
    for n in range(screens):
        state.play(f"plot m {hexes[n]} smoke-chemical")
        plots = [a for a in state.legal_actions() if a.startswith("plot m ")]
        assert all(a.endswith(" smoke-chemical") for a in plots)
        assert f"plot m {hexes[n]} smoke-chemical" not in plots
    assert not [a for a in state.legal_actions() if a.startswith("plot m ")]


@pytest.mark.parametrize("choice, hit", [(None, True), ("base-only", True), ("modifiers", False)])
def test_c29_clgp_base_alone_or_with_the_hit_modifiers(index, choice, hit):
    """22.B, option c29 (default 'base-only'): the CLGP hit number is 8, or 8 with the 13.A modifiers: a T-80
    platoon in cover whose covered hexsides face the designator halves it to 4, so a roll of 5 hits (two hits,
    both steps) only under 'base-only'."""
    options = {"clgp": "on"} | ({} if choice is None else {"c29-clgp-modifiers": choice})
    units = [u("m", "us-m109-battery", "us", "A1014", deployed=True),
             u("d", "us-m1-platoon", "us", "A1012", designation="1C1"),
             {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "A1010", "facing": 2,
              "status": {"spotted": True, "cover": True}}]
    state = state_of(index, units, dice=[5, 10, 10, 10], **options)
    state.play("plot m A1011 CLGP")
    finish_plotting(state)
    assert ("su" not in by_id(state)) is hit
