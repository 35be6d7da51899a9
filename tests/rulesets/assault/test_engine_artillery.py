"""Artillery and indirect fire (Assault 19), the Soviet fire timetable (21), CLGP (22) and ammunition supply (23)
through positions and play (examples A106-A119, A126, A127, A129; the options are exposed by the probes)."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def game_of(index, scenario="assault-meeting", **options):
    rs = index.model("ruleset", "assault")
    return create_game(index.model("scenario", scenario), index, {o.id: o.default for o in rs.options} | options)


def state_of(index, units, phase="artillery", dice=(), scenario="assault-meeting", to_act="us", turn=1,
             extension=None, **options):
    game = game_of(index, scenario, **options)
    doc = {"kind": "position", "schema_version": 1, "scenario": scenario, "phase": phase, "units": units,
           "turn": turn, "to_act": to_act if phase == "artillery" or phase.endswith("fire") else None}
    if extension:
        doc["extension"] = extension
    state = game.state_from_position(Position.model_validate(doc))
    state.dice.force(*dice)
    return state


def unit(uid, card, side, hexlabel, facing=None, passengers=(), **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status,
            "passengers": list(passengers)}


def by_id(state) -> dict:
    return {c.id: c for c in state.counters}


def plots(state, firer) -> list[str]:
    return [a for a in state.legal_actions() if a.startswith(f"plot {firer} ")]


def finish_plotting(state) -> None:
    """End the plotting step for the side(s) still to act: the missions due are then resolved (19.C)."""
    while state.phase_id() == "artillery" and state.art_step == "plot":
        state.play("end")


FAR = unit("far", "su-t80-platoon", "soviet", "B2121")


def test_A106_fire_order_names_hex_firer_and_ammunition(index):
    """Assault 19.B.1 (A106): a mission is written as target hex, firing unit, ammunition; it is recorded on the
    line of its arrival turn, hidden from the enemy (19.B)."""
    state = state_of(index, [unit("m", "us-m109-battery", "us", "B1010", deployed=True), FAR])
    assert "plot m B1012 HE" in state.legal_actions()
    state.play("plot m B1012 HE")
    (m,) = state.missions
    assert (state.game.map.label_of[m.hex], m.firer, m.ammo, m.arrival) == ("B1012", "m", "HE", 1)
    assert state.observation(0).missions == [] and state.observation(1).missions == [m]


def test_A107_observers_and_A110_recording_line(index):
    """Assault 19.B.2-3 (A107, A110): every U.S. unit observes (delay 'other' 1 on the placeholder chart, written
    on the arrival line); a suppressed observer cannot; an undeployed unit cannot fire (19.E)."""
    spotter = unit("obs", "us-m1-platoon", "us", "A1010")
    state = state_of(index, [spotter, FAR], scenario="assault-probe", turn=3)
    assert "plot m109-div/1 A1011 HE" in state.legal_actions()
    state.play("plot m109-div/1 A1011 HE")
    assert [m.arrival for m in state.missions if m.firer == "m109-div/1"] == [4]     # turn 3 + delay 1
    dazed = state_of(index, [unit("obs", "us-m1-platoon", "us", "A1010", suppressed=True), FAR],
                     scenario="assault-probe")
    assert not plots(dazed, "m109-div/1")
    idle = state_of(index, [unit("m", "us-m109-battery", "us", "B1010"), FAR])
    assert not plots(idle, "m") and "deploy m" not in idle.legal_actions()


def test_A107_soviet_observers_are_hqs_and_ops(index):
    """Assault 19.B.2 (A107): of Soviet units only HQs and OPs call fire; a platoon alone observes nothing."""
    line = state_of(index, [unit("p", "su-t80-platoon", "soviet", "A1010"), unit("us", "us-m1-platoon", "us", "B0101")],
                    scenario="assault-probe", to_act="soviet", turn=5)
    hq = state_of(index, [unit("p", "su-hq", "soviet", "A1010", designation="HQ91"),
                          unit("us", "us-m1-platoon", "us", "B0101")], scenario="assault-probe", to_act="soviet")
    assert not plots(line, "d30-army/1")
    assert "plot d30-army/1 A1011 HE" in hq.legal_actions()


def test_A109_soviet_delay_adds_command_levels(index):
    """Assault 19.B.3 (A109): army artillery observed by a regimental HQ: HQ delay 2 + (army - regiment) 2 = 4,
    arriving on turn 5 (the timetable's 'on call' line); a battalion HQ (2 + 3 = 5, turn 6) has no line open while
    the timetable runs (21)."""
    reg = state_of(index, [unit("hq", "su-hq", "soviet", "A1010", designation="HQ91"),
                           unit("us", "us-m1-platoon", "us", "B0101")], scenario="assault-probe", to_act="soviet")
    reg.play("plot d30-army/1 A1011 HE")
    assert [m.arrival for m in reg.missions if not m.timetable] == [5]
    bn = state_of(index, [unit("hq", "su-hq", "soviet", "A1010", designation="HQ3"),
                          unit("us", "us-m1-platoon", "us", "B0101")], scenario="assault-probe", to_act="soviet")
    assert not plots(bn, "d30-army/1")


def test_A126_timetable_needs_no_observer_and_can_be_aborted(index):
    """Assault 21 (A126): the timetable's lines arrive without any observer; aborting it strikes them and no
    mission may be written in that phase."""
    units = [unit("hq", "su-hq", "soviet", "A1010", designation="HQ91"), unit("us", "us-m1-platoon", "us", "A1111")]
    state = state_of(index, units, scenario="assault-probe", to_act="soviet", dice=[1] * 4)
    lines = sorted((m.firer, state.game.map.label_of[m.hex], m.arrival) for m in state.missions)
    assert lines == [("d30-army/1", "A0910", 2), ("d30-army/1", "A1111", 1), ("d30-army/2", "A0910", 2),
                     ("d30-army/2", "A1111", 1)]
    finish_plotting(state)
    assert by_id(state)["us"].suppressed or by_id(state)["us"].steps < 2    # hit with no observer at all
    aborted = state_of(index, units, scenario="assault-probe", to_act="soviet")
    aborted.play("abort-timetable")
    assert aborted.missions == [] and aborted.legal_actions() == ["end"]


def test_A113_fire_on_a_hex_is_added_and_attacks_every_unit(index):
    """Assault 19.C, 19.C.4 (A113): two missions on one hex are one fire value against each unit in it, friend
    and foe, each with its own defence and roll."""
    units = [unit("m1", "us-m125-mortar", "us", "B1010", deployed=True),
             unit("m2", "us-m125-mortar", "us", "B1012", deployed=True),
             unit("su", "su-motor-rifle-platoon", "soviet", "B1011"),
             unit("own", "us-mech-infantry-platoon", "us", "B1011")]
    state = state_of(index, units, dice=[1, 10, 10, 10])
    state.play("plot m1 B1011 HE")
    state.play("plot m2 B1011 HE")
    state.dice.record = True
    finish_plotting(state)
    assert [mk.value for mk in state.markers] == [6]                    # 3 + 3 (one step each)
    assert sum("indirect fire 6 on" in e for e in state.events) == 2
    labels = [label for label, _ in state.dice.history if label.startswith("indirect fire")]
    assert sorted(labels) == ["indirect fire own", "indirect fire su"]


def test_A114_max_rof_once_per_scenario(index):
    """Assault 19.D.1 (A114): a D-30 (HE 4 per step, max ROF x6) off board: 48 for a full battery at max ROF,
    once per scenario."""
    units = [unit("hq", "su-hq", "soviet", "A1010", designation="HQ91"), unit("us", "us-m1-platoon", "us", "B0101")]
    state = state_of(index, units, scenario="assault-probe", to_act="soviet")
    state.play("plot d30-army/1 A1011 HE max")
    assert "d30-army/1" in state.max_rof_used
    mission = next(m for m in state.missions if m.max_rof)
    assert state._mission_value(state._firer("d30-army/1"), mission) == 48
    assert not [a for a in state.legal_actions() if a.startswith("plot d30-army/1 ") and a.endswith(" max")]


def test_A115_icm_us_only_not_in_towns_or_woods(index):
    """Assault 19.D.2 (A115): ICM for U.S. weapons with a multiplier, never on town, urban strip, woods, full
    lake or swamp; with max ROF both multipliers."""
    state = state_of(index, [unit("m", "us-m109-battery", "us", "B1010", deployed=True), FAR])
    icm = {a.split()[2] for a in plots(state, "m") if a.split()[3] == "ICM"}
    he = {a.split()[2] for a in plots(state, "m") if a.split()[3] == "HE"}
    banned = {label for h, label in state.game.map.label_of.items()
              if state.game.terrain_of[h] in ("town", "urban-strip", "woods", "full-lake", "swamp")}
    assert icm and not icm & banned and he & banned
    state.play("plot m B1011 ICM max")
    mission = state.missions[0]
    assert state._mission_value(by_id(state)["m"], mission) == 6 * 2 * 3 * 2      # HE x steps x max ROF x ICM


def test_A117_incendiary_screens_attack_ten_each(index):
    """Assault 19.D.3 (A117): an M-109 plots up to 3 screens per step (6); incendiary smoke attacks the units of
    its hex with 10 per screen; chemical smoke does not attack."""
    state = state_of(index, [unit("m", "us-m125-mortar", "us", "B1010", deployed=True),
                             unit("su", "su-motor-rifle-platoon", "soviet", "B1011")], dice=[10, 10])
    state.play("plot m B1011 smoke-incendiary")
    state.dice.record = True
    finish_plotting(state)
    assert state.markers == []                                         # smoke does not pass through (c35)
    assert [s.kind for s in state.smoke] == ["incendiary"]
    assert any(e.startswith("indirect fire 10 on su") for e in state.events)          # 10 per screen
    chem = state_of(index, [unit("m", "us-m109-battery", "us", "B1010", deployed=True),
                            unit("su", "su-motor-rifle-platoon", "soviet", "B1011")])
    for h in ("B1011", "B1012", "B1013", "B0909", "B1009", "B1110"):   # (B0911: a spine past B1011, c21)
        chem.play(f"plot m {h} smoke-chemical")
    assert not plots(chem, "m")                                            # six screens: 3 per step x 2
    finish_plotting(chem)
    assert chem.markers == [] and len(chem.smoke) == 6
    assert not any("indirect fire" in str(r) or "morale" in str(r) for r in chem.dice.history)   # no attack


def test_A118_pass_through_fire_as_in_clear(index):
    """Assault 19.D.4 (A118): a unit entering a marked hex is attacked by the mission, defending as in clear."""
    units = [unit("us", "us-mech-infantry-platoon", "us", "B0406"), FAR]
    state = state_of(index, units, phase="us-move-1", dice=[1, 1], extension={"markers": [{"hex": "B0506",
                                                                                            "value": 12}]},
                     **{"c31-offboard-ops-visibility": "visible"})
    assert state.game.terrain_of[state.game.map.hex("B0506")] == "woods"
    state.dice.record = True
    state.play("move us B0506")
    assert any("defence 4" in e for e in state.events)                  # clear personnel, not woods
    assert "us" not in by_id(state)                                     # 12 : 4 reads 3:1, roll 1: E


def test_A119_deployment(index):
    """Assault 19.E (A119): deploy after resolution; deployed units do not move; leaving costs the whole MA, a
    towed unit only in the second phase, never in a turn it fired a mission; no direct fire after a mission."""
    state = state_of(index, [unit("m", "us-m125-mortar", "us", "B1010"), FAR], dice=[10] * 4)
    finish_plotting(state)
    assert state.art_step == "deploy" and state.legal_actions() == ["end"]      # the Soviet player first
    state.play("end")
    assert "deploy m" in state.legal_actions()
    state.play("deploy m")
    assert by_id(state)["m"].deployed
    moving = state_of(index, [unit("m", "us-m125-mortar", "us", "B1010", deployed=True), FAR], phase="us-move-1")
    assert not [a for a in moving.legal_actions() if a.startswith("move m ")]
    moving.play("undeploy m")
    assert not by_id(moving)["m"].deployed and by_id(moving)["m"].mp_used == 11
    fired = state_of(index, [unit("m", "us-m125-mortar", "us", "B1010", deployed=True),
                             unit("su", "su-motor-rifle-platoon", "soviet", "B1011")], dice=[10] * 4)
    fired.play("plot m B1011 HE")
    finish_plotting(fired)
    assert by_id(fired)["m"].fired_mission
    while fired.phase_id() != "us-move-1":
        fired.play("end")
    assert "undeploy m" not in fired.legal_actions()
    towed = state_of(index, [unit("d", "su-d30-battery", "soviet", "B1010", deployed=True),
                             unit("us", "us-m1-platoon", "us", "B0101")], phase="soviet-move-1")
    assert "undeploy d" not in towed.legal_actions()
    towed2 = state_of(index, [unit("d", "su-d30-battery", "soviet", "B1010", deployed=True),
                              unit("us", "us-m1-platoon", "us", "B0101")], phase="soviet-move-2")
    assert "undeploy d" in towed2.legal_actions()


def test_A111_cancellation_at_a_later_phase(index):
    """Assault 19.B.4 (A111): a mission written earlier is cancelled at the start of an artillery phase; the new
    order counts its delay from then; a mission just written cannot be cancelled."""
    spotter = unit("obs", "us-m1-platoon", "us", "A1010")
    state = state_of(index, [spotter, FAR], scenario="assault-probe")
    state.play("plot m109-div/1 A1011 HE")
    assert "cancel m109-div/1" not in state.legal_actions()
    while not (state.turn == 2 and state.phase_id() == "artillery" and state.actor == 1):
        state.play("end")
    assert [m.arrival for m in state.missions if m.firer == "m109-div/1"] == [2]
    state.play("cancel m109-div/1")
    assert not [m for m in state.missions if m.firer == "m109-div/1"]
    state.play("plot m109-div/1 A1011 HE")
    assert [m.arrival for m in state.missions if m.firer == "m109-div/1"] == [3]


def test_A127_clgp_directed_and_undirected(index):
    """Assault 22 (A127): a designator with a clear LOS to an AFV within 4 hexes of the target hex directs the
    round: one anti-armour shot at base 8, hits penetrate without confirmation, no HE attack; without one, a
    normal HE attack on the target hex."""
    units = [unit("m", "us-m109-battery", "us", "A1014", deployed=True),
             unit("d", "us-m1-platoon", "us", "A1012", designation="1C1"),
             unit("su", "su-t80-platoon", "soviet", "A1010", spotted=True)]
    state = state_of(index, units, scenario="assault-probe", dice=[6, 10, 10, 10], clgp="on")
    state.play("plot m A1011 CLGP")
    state.dice.record = True
    finish_plotting(state)
    assert any("CLGP directed by d at su" in e and ": E" in e for e in state.events)
    assert "su" not in by_id(state)                                          # roll 6 <= 8 - 2: two hits
    assert not any(mk.hex == state.game.map.hex("A1011") for mk in state.markers)
    off = state_of(index, units, scenario="assault-probe")
    assert not [a for a in plots(off, "m") if a.endswith(" CLGP")]
    lone = state_of(index, [units[0], units[2]], scenario="assault-probe", dice=[10] * 4, clgp="on")
    lone.play("plot m A1011 CLGP")
    finish_plotting(lone)
    assert any(mk.hex == lone.game.map.hex("A1011") and mk.value == 12 for mk in lone.markers)


def test_A129_ammunition_tiers(index):
    """Assault 23 (A129): 'limited' tracks loads of 3 or fewer (the Dragon's 3 missiles), 'all' every load (the
    M-1's 12 TP/HE, one pool, 12.C.2.a); an exhausted type is not fired again."""
    units = [unit("inf", "us-mech-infantry-platoon", "us", "B1010"), unit("m1", "us-m1-platoon", "us", "B1010"),
             unit("su", "su-t80-platoon", "soviet", "B1013", spotted=True)]
    used = {"ammo": {"inf": {"Msl": 3}, "m1": {"m1-tp-he": 12}}}

    def shots(mode):
        state = state_of(index, units, phase="us-fire", extension=used, **{"ammo-supply": mode})
        return {(a.split()[1], a.split()[2]) for a in state.legal_actions() if a.startswith("fire ")}
    assert {("inf", "Msl"), ("m1", "TP"), ("m1", "HE")} <= shots("off")
    assert ("inf", "Msl") not in shots("limited") and {("m1", "TP"), ("m1", "HE")} <= shots("limited")
    assert not {("inf", "Msl"), ("m1", "TP"), ("m1", "HE")} & shots("all") and ("m1", "KP") in shots("all")
    state = state_of(index, units, phase="us-fire", **{"ammo-supply": "all"})
    state.play("fire m1 TP su")
    assert state.ammo_used == {("m1", "m1-tp-he"): 1}


def test_artillery_tables_are_read(index):
    """Tables the whole-table check cannot perturb (declarations.UNEXPOSABLE_TABLES): each cell read."""
    rs = index.model("ruleset", "assault")
    game = game_of(index)
    assert game.command_levels == {r[0]: r[1] for r in rs.table("soviet-command-levels").rows}
    assert game.wind_direction[1] == "N" and game.wind_velocity[0] == (5, "light")
    probe = game_of(index, "assault-probe")
    rolled = {probe.new_initial_state(seed).wind_speed for seed in range(40)}
    assert rolled == {"light", "moderate", "strong"}                       # Assault 20.A.2: one roll each


def test_missions_stay_hidden_and_positions_accept_unused_ammunition(index):
    """Assault 19.B: a side's own missions survive scramble_hidden unchanged, the enemy's are moved; 23: a
    position may record 0 units of ammunition used."""
    state = state_of(index, [unit("m", "us-m109-battery", "us", "B1010", deployed=True), FAR])
    state.play("plot m B1012 HE")
    assert state.scramble_hidden(1, 3).missions == state.missions
    moved = {state.scramble_hidden(0, seed).missions[0].hex for seed in range(6)}
    assert moved != {state.missions[0].hex}
    zero = state_of(index, [unit("m1", "us-m1-platoon", "us", "B1010"), FAR], phase="us-fire",
                    extension={"ammo": {"m1": {"m1-tp-he": 0}}})
    assert zero.ammo_used == {("m1", "m1-tp-he"): 0}


def test_A127_one_clgp_hit_is_a_step_loss(index):
    """Assault 22.B: a roll of 7 against 8 (not within the double-hit margin) is one hit: a step lost."""
    units = [unit("m", "us-m109-battery", "us", "A1014", deployed=True),
             unit("d", "us-m1-platoon", "us", "A1012", designation="1C1"),
             unit("su", "su-t80-platoon", "soviet", "A1010", spotted=True)]
    state = state_of(index, units, scenario="assault-probe", dice=[7, 10, 10, 10], clgp="on")
    state.play("plot m A1011 CLGP")
    finish_plotting(state)
    assert by_id(state)["su"].steps == 1


def test_c35_each_entry_into_a_marked_hex_is_attacked(index):
    """Assault 19.D.4, option c35 'each-entry' (the default): in, out and in again is two attacks;
    'once-per-phase' one."""
    units = [unit("m1", "us-m1-platoon", "us", "B0406", formation="march"), FAR]
    for choice, attacks in (("each-entry", 2), ("once-per-phase", 1)):
        state = state_of(index, units, phase="us-move-1", dice=[10] * 6,
                         extension={"markers": [{"hex": "B0506", "value": 1}]}, **{"c35-pass-through": choice})
        for h in ("B0506", "B0406", "B0506"):
            state.play(f"move m1 {h}")
            while state.opp_target:
                state.play("end")
        assert len([r for r in state.dice.history if "indirect fire m1" in str(r)]) == attacks
