"""MBT optional rule 7.39 Dismounted FOs (example MA114: -10 on GP fire, close assault and hand-to-hand): the crew
FO section aboard its vehicle, dismounting, observing, remounting, its fate with the vehicle; through positions."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_arty_fixtures import FAR, TARGET, act, arty_game, arty_state, calls, unit  # noqa: E402

from studio.rulesets.mbt.engine.codes import CARRIED, DEAD, ON  # noqa: E402

RULE = ("dismounted-fos",)


def _fist(phase="move-first", fo_status=None, optional=RULE, **kw):
    units = [unit("F", "m981", "us", FAR, 2, command="MOVE"),
             unit("F-FO", "us-fo-section", "us", FAR, 2, **(fo_status or {"carried_by": "F"})),
             unit("T", "t-80bv", "sov", TARGET, 5)]
    return arty_state(units, phase=phase, optional=optional, **kw)


def test_the_scenario_fist_carries_its_crew_fo_only_with_the_rule():
    # MBT 7.39: the M981's integrated crew FO is a US FO section aboard it from the start
    on = arty_game(RULE)
    fo = on.uindex["M981-1-FO"]
    st = on.new_initial_state(1)
    assert st.st[fo] == CARRIED and st.carrier[fo] == on.uindex["M981-1"]
    assert "M981-1-FO" not in arty_game().uindex


def test_dismounts_normally_and_observes_as_an_fo():
    # MBT 7.39: the FO dismounts normally (6.6.7) and functions as a leg FO unit
    st = _fist()
    act(st, "move F")
    assert "dismount F F-FO" in calls(st)
    act(st, "dismount F F-FO")
    fo = st.game.uindex["F-FO"]
    assert st.st[fo] == ON and st.observer_kind(fo) == "fo"


def test_dismounted_fo_minus_ten_on_gp_close_assault_and_hth():
    # MA114, MBT 7.39: -10 on GP fire, close assault and hand-to-hand for the dismounted FO; none aboard or off
    st = _fist(fo_status={"command": "FIRE"})
    fo, t = st.game.uindex["F-FO"], st.game.uindex["T"]
    assert st.dismounted_fo_modifier(fo) == -10
    row = st.game.units[fo].type.ap[0]
    off = _fist(fo_status={"command": "FIRE"}, optional=())
    assert st.gp_modifiers(fo, t, row, "P", False) == off.gp_modifiers(fo, t, row, "P", False) - 10
    assert st._hth_mod(fo, True, t) == off._hth_mod(fo, True, t) - 10
    aboard = _fist()
    assert aboard.dismounted_fo_modifier(aboard.game.uindex["F-FO"]) == 0


def test_remounts_its_parent_without_capacity():
    # MBT 7.39: the section may remount its parent (the M981 has no leg capacity)
    st = _fist(fo_status={"command": "MOVE"})
    act(st, "move F-FO")
    assert "mount F-FO F" in calls(st)
    act(st, "mount F-FO F")
    fo = st.game.uindex["F-FO"]
    assert st.st[fo] == CARRIED and st.carrier[fo] == st.game.uindex["F"]
    off = _fist(fo_status={"command": "MOVE"}, optional=())
    act(off, "move F-FO")
    assert "mount F-FO F" not in calls(off)


def test_aboard_it_is_crew_dies_with_the_vehicle_and_never_bails_out():
    # MBT 7.39: it may not bail out from the parent vehicle as an independent leg unit
    st = _fist(dice=[99] * 5)
    f, fo = st.game.uindex["F"], st.game.uindex["F-FO"]
    st.passengers_bail(f, "ND")
    assert st.st[fo] == CARRIED
    st.crew_bailed(f)
    assert st.st[fo] == DEAD
    st = _fist(dice=[99] * 5)
    st.passengers_bail(f, "KO")
    assert st.st[fo] == DEAD  # a passenger would survive a KO on 99
    off = _fist(dice=[99] * 5, optional=())
    off.passengers_bail(f, "KO")
    assert off.st[fo] == ON
