"""MBT Advanced Game: passengers observe for indirect fire from a carrier whose command is not Move (MBT 6.6.7.2,
6.5.1); through positions in the Indirect Fire Step of the sample scenario and legal actions."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.rulesets.mbt.engine.codes import CARRIED, CMD_CODES  # noqa: E402

MORTAR, CARRIER_HEX, TARGET = "2A1", "4B1", "4E1"


def _state(carrier_cmd="NC", observer="us-fo-section", carrier="m113"):
    units = [unit("M", "m106", "us", MORTAR, 2, command="FIRE"), unit("C", carrier, "us", CARRIER_HEX, 2,
                                                                       command=carrier_cmd),
             unit("O", observer, "us", CARRIER_HEX, 2, carried_by="C"), unit("T", "t-80bv", "sov", TARGET, 5)]
    return opt_state(opt_game(), units, phase="indirect-fire", to_act="us")


def test_a_passenger_fo_calls_fire_from_a_carrier_not_moving():
    # MBT 6.6.7.2: a passenger may observe for indirect fire if its carrier has any command except Move
    for cmd in ("NC", "FIRE", "OW"):
        st = _state(cmd)
        assert st.st[2] == CARRIED and 3 in st.spots[2]  # carried, spotting the T-80BV from the carrier's hex
        assert f"call M by O at {TARGET}" in legal(st), cmd


def test_no_calls_while_the_carrier_moves():
    st = _state("MOVE")
    assert not any(a.startswith("call M by O") for a in legal(st))


def test_a_passenger_without_an_observer_row_calls_nothing():
    # MBT 6.5.1.1: observers are FO, Command or Recon units
    st = _state(observer="us-mech-squad")
    assert not any(" by O " in a for a in legal(st))


def test_the_mission_of_a_passenger_observer_checks_when_the_carrier_moves():
    # MBT 6.5.1.9: an observer that may no longer observe checks its mission; the next turn its carrier moves
    st = _state("NC")
    act(st, f"call M by O at {TARGET}")
    assert st.mission_of(2) is not None
    st.cmd[1] = CMD_CODES["MOVE"]  # the carrier as if commanded to Move in the next Command Phase (MBT 6.2)
    assert st.observer_lost(2) == "observer's carrier moves or flies"
    st.cmd[1] = CMD_CODES["NC"]
    assert st.observer_lost(2) == ""


def test_a_dismounted_observer_still_needs_an_overwatch_command():
    # MBT 6.5.1: on the map an observer calls fire only with an Overwatch command
    def calls(cmd):
        units = [unit("M", "m106", "us", MORTAR, 2, command="FIRE"),
                 unit("O", "us-fo-section", "us", CARRIER_HEX, 2, command=cmd), unit("T", "t-80bv", "sov", TARGET, 5)]
        return [a for a in legal(opt_state(opt_game(), units, phase="indirect-fire", to_act="us"))
                if a.startswith("call M by O")]
    assert calls("OW") and not calls("NC")
