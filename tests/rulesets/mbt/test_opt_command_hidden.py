"""MBT Optional Rule 7.2 Hidden Units through positions (example MA81)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_command_fixtures import act, clear_pair, legal, pos_state, unit  # noqa: E402

from studio.rulesets.mbt.engine.hidden import HIDDEN  # noqa: E402

HIDDEN_RULE = ("hidden-units",)


def _pair(rng: int):
    a, b, d = clear_pair(rng)
    return a, b, d


def _counter(units, hexlabel, cid="H1", side="us"):
    return {"id": cid, "side": side, "hex": hexlabel, "units": units}


def test_a_hidden_vehicle_is_revealed_when_its_counter_is_spotted():
    # MBT 7.2.2.1: the counter is spotted like the unit it hides (a vehicle in Clear at 12 hexes: range 20)
    a, b, d = _pair(12)
    units = [unit("H", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    st = pos_state(units, HIDDEN_RULE, phase="spotting", hidden_units=[_counter(["H"], a)])
    assert st.hid[0] == -1 and st.hcs == [1]
    assert 0 in st.spots[1]


def test_ma81_greatest_spotting_range_decides():
    # MA81: a counter of one leg unit is spotted at the leg range only (12 > the Clear S range); with a vehicle
    # in it the vehicle's range counts and every unit of the counter is revealed
    a, b, d = _pair(12)
    g_units = [unit("I", "us-mech-squad", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    st = pos_state(g_units, HIDDEN_RULE, phase="spotting", hidden_units=[_counter(["I"], a)])
    assert st.hid[0] == 0 and st.hcs == [0] and 0 not in st.spots[1]
    both = [unit("I", "us-mech-squad", "us", a, d), unit("V", "m113", "us", a, d),
            unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    st = pos_state(both, HIDDEN_RULE, phase="spotting", hidden_units=[_counter(["I", "V"], a)])
    assert st.hid[:2] == [-1, -1] and st.hcs == [1]


def test_hidden_units_are_not_in_the_opponents_view_nor_targets():
    # MBT 7.2: the Soviet view has the hidden M1 off the board; its own side sees it; it cannot be fired at
    far_a, far_b, fd = _pair(12)
    units = [unit("I", "us-mech-squad", "us", far_a, fd), unit("T", "t-80bv", "sov", far_b, (fd + 3) % 6,
                                                              command="FIRE")]
    st = pos_state(units, HIDDEN_RULE, phase="direct-fire-first", to_act="sov",
                   hidden_units=[_counter(["I"], far_a)])
    view = st.observation(1).materialize()
    assert view.st[0] == HIDDEN and view.hex[0] is None and view.hid[0] == -2
    own = st.observation(0).materialize()
    assert own.st[0] == 1 and own.hex[0] == st.hex[0]
    assert st.hidden_counters() == [("H1", far_a)]
    assert 0 not in st.spots[1] and not any(a.startswith("fire T I") for a in legal(st))
    scrambled = st.scramble_hidden(1, 7)
    assert scrambled.hex[0] == st.hex[0]  # placed at its (only) counter's hex


def test_without_the_rule_units_are_visible():
    a, b, d = _pair(12)
    units = [unit("I", "us-mech-squad", "us", a, d), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    st = pos_state(units, (), phase="spotting", hidden_units=[_counter(["I"], a)])
    assert st.hid == [-1, -1] and st.observation(1).materialize().st[0] == 1


def test_a_fake_is_revealed_at_the_leg_range():
    # MBT 7.2.2.1: a fake is shown once an opposing unit is within the range at which a leg unit would be spotted
    near_a, near_b, d = _pair(3)
    far_a, far_b, fd = _pair(12)
    for label, enemy, shown in ((near_a, near_b, True), (far_a, far_b, False)):
        units = [unit("M", "m1", "us", "2P13", 0), unit("T", "t-80bv", "sov", enemy, 0)]
        st = pos_state(units, HIDDEN_RULE, phase="spotting", hidden_units=[_counter([], label, "F1")])
        assert st.hcs == [1 if shown else 0]


def test_firing_reveals_the_hidden_unit():
    # MBT 7.2.2.3: a hidden unit that fires is revealed
    a, b, d = _pair(12)
    units = [unit("H", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    st = pos_state(units, HIDDEN_RULE, phase="direct-fire-first", to_act="us", dice=[99] * 6,
                   hidden_units=[_counter(["H"], a)])
    if st.hid[0] >= 0:
        act(st, next(x for x in legal(st) if x.startswith("fire H T")))
    assert st.hid[0] == -1 and st.hcs == [1]


def test_hidden_counters_of_one_formation_and_limit():
    # MBT 7.2.1-7.2.2: a counter holds units of one side's formation; the scenario limit is checked
    import pytest
    from studio.rules.position import PositionError

    a, b, d = _pair(12)
    units = [unit("H", "m1", "us", a, d), unit("T", "t-80bv", "sov", b, 0)]
    with pytest.raises(PositionError):
        pos_state(units, HIDDEN_RULE, phase="spotting", hidden_units=[_counter(["H", "T"], a)])
    with pytest.raises(PositionError):
        pos_state(units, HIDDEN_RULE, phase="spotting", hidden_units=[_counter(["H"], a), _counter([], b, "F")],
                  hidden_limit={"us": 1})


def test_replay_viewer_hides_units_until_spotted():
    # issue 13 / MBT 7.2: the replay viewer draws the HIDDEN UNIT counter, not the units, until they are revealed
    import random
    from types import SimpleNamespace

    import pytest

    pytest.importorskip("PySide6")
    from opt_command_fixtures import game_with

    from studio.qt.replay_viewer import hidden_steps

    g0 = game_with(())
    hexlabel = g0.label(g0.units[g0.uindex["US-1"]].setup_hex)
    g = game_with(HIDDEN_RULE, hidden_units=[{"id": "H1", "side": "us", "hex": hexlabel, "units": ["US-1", "US-2"]}])
    st, rng, actions = g.new_initial_state(2), random.Random(2), []
    while st.current_player() >= 0 and len(actions) < 400:
        a = rng.choice(st.legal_actions())
        actions.append(str(a))
        st.play(a)
    steps = hidden_steps(SimpleNamespace(game=g), {"seed": 2, "actions": actions}, len(actions) + 1)
    assert len(steps) == len(actions) + 1
    names, counters = steps[0]
    assert names == {"US-1", "US-2"} and counters[0][0] == "H1" and counters[0][2] == 0
    assert not hidden_steps(SimpleNamespace(game=game_with(())), {"seed": 2, "actions": actions}, 3)[0][0]


def test_aircraft_neither_spot_nor_acquire_hidden_units():
    # MBT 7.2.2.1: the counter (its tank in Woods 2L10, 10 hexes from the Mi-24) is not spotted, so the squad of
    # the counter 2 hexes from the helicopter is not a target
    units = [unit("V", "m1", "us", "2L10", 0), unit("I", "us-mech-squad", "us", "2A10", 0),
             unit("H", "mi-24", "sov", "2B12", 0)]
    hidden = [_counter(["V", "I"], "2L10")]
    st = pos_state(units, HIDDEN_RULE, phase="move-first", hidden_units=hidden)
    plain = pos_state(units, (), phase="move-first", hidden_units=hidden)
    assert st.hcs == [0] and 1 not in st._heli_spots(2) and 1 in plain._heli_spots(2)
