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
    # MBT 7.2: the hidden M113's facing, hex, command, morale, Suppression and damage do not change the Soviet view
    st = _hidden_pair()
    other = st.clone()
    other.fac[1], other.cmd[1], other.mor[1], other.sup[1], other.dmg[1] = 4, 3, 2, 1, True
    other.hex[1] = st.game.map.hex("2A2")
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
