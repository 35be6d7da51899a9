"""MBT Optional Rule 7.2 Hidden Units (and 7.24 Camouflage): nothing of a hidden unit's true state in the opponent's
observation or in its scrambled look-ahead states; adding HIDDEN UNIT counters in play (7.2.3); fakes that move
(7.2.2.2)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import act, legal, pos_state, unit  # noqa: E402

from studio.rulesets.mbt.engine.hidden import HIDDEN  # noqa: E402

RULES = ("hidden-units", "camouflage", "morale")
HOME, FAR = "2A1", "4T13"


def _hidden_pair(rules=RULES, **kw):
    units = [unit("I", "us-mech-squad", "us", HOME, 0), unit("V", "m113", "us", HOME, 0, command="FIRE"),
             unit("T", "t-80bv", "sov", FAR, 3, command="FIRE")]
    return pos_state(units, rules, phase="direct-fire-first", to_act="sov",
                     hidden_units=[{"id": "H1", "side": "us", "hex": HOME, "units": ["I", "V"]}], **kw)


def test_the_opponents_view_holds_nothing_of_a_hidden_units_state():
    # MBT 7.2: the hidden M113's facing, command, morale, Suppression and damage and the squad's hex do not change
    # the Soviet view
    st = _hidden_pair()
    other = st.clone()
    other.fac[1], other.cmd[1], other.mor[1], other.sup[1], other.dmg[1] = 4, 3, 2, 1, True
    other.hex[0] = st.game.map.hex("2A2")  # the squad, not the M113 at the counter's hex (its vehicle)
    assert st.hid[:2] == [0, 0]
    assert st.observe(1).fingerprint() == other.observe(1).fingerprint()
    assert st.observe(0).fingerprint() != other.observe(0).fingerprint()  # its own side sees it all
    view = other.observe(1)
    assert view.st[1] == HIDDEN and view.fac[1] == st.game.new_initial_state(0).fac[1]
    assert other.scramble_hidden(1, 3).fac[1] == view.fac[1]  # the look-ahead does not get the true facing either


def test_passengers_of_a_hidden_vehicle_are_hidden_with_it():
    units = [unit("V", "m113", "us", HOME, 0), unit("L", "us-mech-squad", "us", HOME, 0, carried_by="V"),
             unit("T", "t-80bv", "sov", FAR, 3)]
    st = pos_state(units, ("hidden-units",), phase="direct-fire-first", to_act="sov",
                   hidden_units=[{"id": "H1", "side": "us", "hex": HOME, "units": ["V"]}])
    view = st.observe(1)
    assert st.carrier[1] == 0 and view.st[1] == HIDDEN and view.hex[1] is None
    assert st.observe(0).hex[1] == st.hex[1]


def test_camouflage_is_not_in_the_opponents_view_until_announced():
    # MBT 7.24: the Formation Summary lists camouflaged units; the owner announces one when a spot is attempted
    units = [unit("V", "m113", "us", HOME, 0), unit("T", "t-80bv", "sov", FAR, 3, command="FIRE")]
    st = pos_state(units, ("camouflage",), phase="direct-fire-first", to_act="sov", camouflaged=["V"])
    assert st.camo[0] and not st.camk[0]
    assert not st.observe(1).camo[0] and st.observe(0).camo[0]
    st.camk[0] = True
    assert st.observe(1).camo[0]


def test_a_spotting_attempt_announces_the_camouflage():
    # MBT 7.24: a Soviet tank within the normal spotting range rolls to spot camouflaged V: the Soviet player now
    # knows V is camouflaged (spotted or not)
    from opt_command_fixtures import clear_pair

    a, b, d = clear_pair(12)
    units = [unit("V", "m113", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    st = pos_state(units, ("camouflage",), phase="spotting", dice=[10], camouflaged=["V"])
    assert st.camo[0] and st.camk[0]
    assert st.observe(1).camo[0]
    far = pos_state([unit("V", "m113", "us", HOME, 0), unit("T", "t-80bv", "sov", FAR, 3)], ("camouflage",),
                    phase="spotting", camouflaged=["V"])
    assert far.camo[0] and not far.camk[0]  # no opposing unit within the normal spotting range: no announcement


# ---------------------------------------------------------------- aircraft and hidden units (MBT 7.2, 6.7)
def _air_state(units, hidden, loads=("arm",), options=None, dice=()):
    from test_adv_air_fw import EXTRA_LOADS, US, _CardIndex

    from studio.rules.position import position_state
    from studio.rulesets.mbt.cards import AircraftAssignment
    from studio.rulesets.mbt.engine import game as G
    from mbt_adv_fixtures import index

    idx = _CardIndex(index(), EXTRA_LOADS)
    sc = idx.model("scenario", "mbt-adv-air-strike")
    ext = sc.extension.model_copy(update={"aircraft": [AircraftAssignment(side="us", aircraft="a-10",
                                                                          loads=list(loads))]})
    g = G.create_game(sc.model_copy(update={"extension": ext, "optional_rules": ["hidden-units"]}), idx, options)
    st = position_state(g, {"scenario": "mbt-adv-air-strike", "phase": "air-1", "turn": 3, "dice": list(dice),
                            "units": list(units) + [US], "to_act": "us", "extension": {"hidden_units": hidden}})
    st.dice.record = True
    return st


def test_an_anti_radiation_missile_does_not_name_a_hidden_aa_unit():
    # MBT 6.7.3.5 / 7.2: the ZSU under a HIDDEN UNIT counter is not an ARM target: the action would name it
    from test_adv_air_fw import fly

    units = [unit("Z", "zsu-23-4", "sov", "2T14", 0)]
    counter = [{"id": "H1", "side": "sov", "hex": "2T14", "units": ["Z"]}]
    st = fly(_air_state(units, counter, options={"aa-radar-state": "active"}), "A-10A-1", "fast", "high", "2B1", "S")
    assert st.hid[0] == 0 and not [a for a in legal(st) if a.startswith("attack")]
    shown = fly(_air_state(units, [], options={"aa-radar-state": "active"}), "A-10A-1", "fast", "high", "2B1", "S")
    assert "attack A-10A-1 arm Z" in legal(shown)


def test_aa_fire_at_an_aircraft_reveals_the_hidden_aa_unit():
    # MBT 7.2.2.3: AA fire is combat: the ZSU's counter is revealed
    from test_adv_air_fw import fly

    units = [unit("Z", "zsu-23-4", "sov", "2C6", 0, command="OW")]
    counter = [{"id": "H1", "side": "sov", "hex": "2C6", "units": ["Z"]}]
    st = fly(_air_state(units, counter, loads=("bomb",), dice=[10]), "A-10A-1", "slow", "medium", "2B1", "S")
    assert st.hid[0] == 0 and "ow Z at A-10A-1 guns:HEI" in legal(st)
    act(st, "ow Z at A-10A-1 guns:HEI")
    assert st.hid[0] == -1 and st.hcs == [1]


# ---------------------------------------------------------------- the replay viewer (issue 13 item 3)
def test_the_replay_viewer_neither_draws_nor_rings_a_hidden_unit(qapp, tmp_path):
    # MBT 7.2: while the M901s of counter H2 are hidden the viewer draws the counter, not them, and a step that
    # moves one of them rings no hex (the ring would show where it is)
    from studio.qt.replay_viewer import QtReplayView
    from studio.rules.load import load_game
    from studio.rules.replay import record, write_replay

    data = Path(__file__).resolve().parents[3] / "data"
    loaded = load_game("opt-everything", data, optional_rules=["hidden-units"])
    bots = [loaded.game.make_bot("heuristic", side, 5) for side in (0, 1)]
    state, actions = loaded.game.new_initial_state(5), []
    while len(actions) < 130:  # the first turn, with the hidden M901s' moves
        player = state.current_player()
        action = bots[player].choose(state.observation(player), state.legal_actions())
        actions.append(str(action))
        state.play(action)
    path = write_replay(tmp_path / "hidden.replay.json", record(loaded, 5, actions, state, ["heuristic"] * 2))
    viewer = QtReplayView()
    assert viewer.open(path, data) == ""
    names, counters = viewer.hidden[1]
    assert {"M901-1", "M901-2"} <= names and "H2" in {c[0] for c in counters}
    step = next(s for s in viewer.walk.steps[1:] if s.index < len(viewer.hidden) and s.named and
                set(s.named) <= viewer.hidden[s.index][0] and not s.action.startswith("command"))
    viewer.goto(step.index)
    assert not viewer.scene.layer("named")
    visible = next(s for s in viewer.walk.steps[1:] if s.named and not set(s.named) & viewer.hidden[s.index][0]
                   and s.action.split()[0] == "fwd")
    viewer.goto(visible.index)
    assert viewer.scene.layer("named")  # a visible unit's move is ringed
    viewer.deleteLater()


# ---------------------------------------------------------------- adding counters in play (MBT 7.2.3)
def _commanding(rules=("hidden-units",), enemy=FAR, **kw):
    units = [unit("A", "m1", "us", "2L10", 0), unit("B", "m1", "us", "2L11", 0), unit("T", "t-80bv", "sov", enemy, 3)]
    return pos_state(units, rules, phase="command", to_act="us", **kw)


def test_a_unit_no_enemy_spots_hides_under_a_new_counter_then_a_second_joins_it():
    # MBT 7.2.3: A (not spotted) hides under a new counter in the Command Phase and still takes its command; B of
    # the same formation within Command Range joins A's counter; the Soviet view has neither on the map
    st = _commanding(hidden_limit={"us": 1})
    assert {"hide A", "hide A fake"} <= set(legal(st))
    act(st, "hide A")
    assert st.hid[0] == 0 and st.hsp[0].units == (0,) and st.game.label(st.hsp[0].hex) == "2L10"
    assert all(a.startswith("command A") for a in legal(st))  # hidden: its command next
    act(st, "command A NC")
    assert "hide B us-H1" in legal(st) and "hide B" not in legal(st)  # the limit of 1 counter: join only
    act(st, "hide B us-H1")
    assert st.hid[:2] == [0, 0] and st.hsp[0].units == (0, 1)
    view = st.observe(1)
    assert view.st[:2] == [HIDDEN, HIDDEN] and view.hsp[0].units == () and st.hidden_counters() == [("us-H1", "2L10")]


def test_a_fake_counter_added_at_the_units_hex():
    st = _commanding()
    act(st, "hide A fake")
    assert st.hsp[0].units == () and st.hid[0] == -1 and st.hidden_counters() == [("us-H1", "2L10")]
    assert "hide A fake" not in legal(st)  # one fake per hex


def test_a_spotted_unit_may_not_hide_nor_anyone_without_the_rule():
    # MBT 7.2.3: only units that are not currently spotted; the T-80BV 3 hexes away in Clear spots them
    from opt_command_fixtures import clear_pair

    a, b, d = clear_pair(3)
    units = [unit("A", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    st = pos_state(units, ("hidden-units",), phase="command", to_act="us")
    assert 0 in st.spots[1] and not [x for x in legal(st) if x.startswith("hide")]
    assert not [x for x in legal(_commanding(())) if x.startswith("hide")]


# ---------------------------------------------------------------- fakes move (MBT 7.2.2.2)
def _fake(enemy="4E12", start="2D1"):
    units = [unit("A", "m1", "us", "2A10", 0), unit("I", "us-mech-squad", "us", "2A11", 0),
             unit("T", "t-80bv", "sov", enemy, 3)]
    return pos_state(units, ("hidden-units",), phase="close-combat", to_act="us",
                     hidden_units=[{"id": "F1", "side": "us", "hex": start, "units": []}])


def test_a_fake_moves_like_a_leg_unit_then_like_a_vehicle_and_is_revealed_at_the_vehicle_range():
    # MBT 7.2.2.2: the US force's greatest leg factor is 2 (the squad), its greatest vehicle factor 9 (the M1): two
    # Clear hexes keep the fake a leg unit for spotting; the third makes it a vehicle for good. At 2D4 the T-80BV 21
    # hexes away sees it: beyond a moving leg unit's range (20), within a moving vehicle's (40): revealed as a fake
    st = _fake()
    assert "fake F1 2D2" in legal(st) and legal(st)[-1] == "pass"
    act(st, "fake F1 2D2")
    act(st, "fake F1 2D3")
    assert st.hkd == [0] and st.hcs == [0] and st.hmv == [2]
    act(st, "fake F1 2D4")
    assert st.hkd == [1] and st.hcs == [1]


def test_the_opponent_cannot_tell_a_moving_fake_from_a_real_counter():
    st = _fake(enemy="4T13")
    act(st, "fake F1 2D2")
    view = st.observe(1)
    assert view.hsp[0].units == () and view.hmv == [0] and view.hkd == [0]
    assert st.game.label(view.hsp[0].hex) == "2D2"  # the counter itself is on the map where it moved


def test_a_fake_that_passes_stays():
    # the side's Close Assault / Hand-to-Hand step ends with 'pass': its fakes move no further this turn
    st = _fake()
    act(st, "pass")
    assert not [a for a in legal(st) if a.startswith("fake")] and st.game.label(st.hsp[0].hex) == "2D1"


# ---------------------------------------------------------------- a counter's units stay together (MBT 7.2.2.1)
def _pair_moving(**ext):
    units = [unit("A", "m1", "us", "2A1", 3), unit("B", "m1", "us", "2A2", 3, command="MOVE"),
             unit("T", "t-80bv", "sov", FAR, 3)]
    st = pos_state(units, ("hidden-units",), phase="move-first", to_act="us",
                   hidden_units=[{"id": "H1", "side": "us", "hex": "2A1", "units": ["A", "B"]}], **ext)
    act(st, "move B")
    return st


def test_a_unit_moving_beyond_command_range_of_its_counter_takes_a_counter_of_its_own():
    # MBT 7.2.2.1: the units of a counter are within Command Range of its hex (1 here): B two hexes from A splits
    st = _pair_moving()
    assert st.command_range(st.game.formation_of[1]) == 1
    act(st, "fwd B")
    assert st.hid[1] == 1 and st.hsp[0].units == (0,) and st.hsp[1].units == (1,) and st.hcs == [0, 0]


def test_with_no_counter_left_under_the_limit_the_unit_is_revealed():
    st = _pair_moving(hidden_limit={"us": 1})
    act(st, "fwd B")
    assert st.hid[:2] == [0, -1] and st.hsp[0].units == (0,) and st.observe(1).st[1] == 1


def test_with_helicopters_a_fake_may_move_at_a_helicopters_pace():
    # MBT 7.2.2.2: a fake moves as any unit type: with a Cobra in the force, past the M1's 9 up to the Cobra's NOE
    # factor, one per hex whatever the terrain (a vehicle for spotting)
    units = [unit("A", "m1", "us", "2A10", 0), unit("H", "ah-1s", "us", "2A12", 0), unit("T", "t-80bv", "sov", FAR, 3)]
    st = pos_state(units, ("hidden-units",), phase="close-combat", to_act="us",
                   hidden_units=[{"id": "F1", "side": "us", "hex": "2D1", "units": []}])
    legs, cars, helis = st._fake_budgets(0)
    assert (legs, cars) == (0, 9) and helis == st.game.units[1].type.cc > cars
    st.hmv[0], st.hkd[0] = cars, 1
    assert [a for a in legal(st) if a.startswith("fake")]  # beyond the M1's factor: the Cobra's pace
    st.hmv[0] = helis
    assert not [a for a in legal(st) if a.startswith("fake")]


def test_the_counter_stands_with_its_vehicle():
    # MBT 7.2.2.1: a unit of the type that gives the greatest spotting range (the vehicle) is at the counter's hex
    units = [unit("I", "us-mech-squad", "us", "2A2", 0), unit("V", "m113", "us", "2A1", 0),
             unit("T", "t-80bv", "sov", FAR, 3)]
    st = pos_state(units, ("hidden-units",), phase="command", to_act="us",
                   hidden_units=[{"id": "H1", "side": "us", "hex": "2A2", "units": ["I", "V"]}])
    assert st.hidden_counters() == [("H1", "2A1")]


def test_a_counter_of_leg_units_stands_with_its_first_one_and_a_vehicle_hides_with_its_passengers():
    units = [unit("I", "us-mech-squad", "us", "2A2", 0), unit("J", "us-mech-squad", "us", "2A1", 0),
             unit("T", "t-80bv", "sov", FAR, 3)]
    st = pos_state(units, ("hidden-units",), phase="command", to_act="us",
                   hidden_units=[{"id": "H1", "side": "us", "hex": "2A2", "units": ["I", "J"]}])
    assert st.hidden_counters() == [("H1", "2A2")]
    # MBT 7.2.3: the M113 hides: its squad aboard (same formation) is under the counter too
    carried = [unit("V", "m113", "us", "2L10", 0), unit("L", "us-mech-squad", "us", "2L10", 0, carried_by="V"),
               unit("T", "t-80bv", "sov", FAR, 3)]
    st = pos_state(carried, ("hidden-units",), phase="command", to_act="us")
    act(st, "hide V")
    assert st.hid[:2] == [0, 0] and st.hsp[0].units == (0, 1) and st.observe(1).st[1] == HIDDEN
