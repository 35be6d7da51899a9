"""MBT Optional Rule 7.41 Vehicle Assault Cover, through positions, legal actions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import clear_pair  # noqa: E402
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.rulesets.mbt.engine.opt_move_data import move_opt  # noqa: E402

A, B, D = clear_pair(4)
ENEMY = "4T13"


def _group(rules=("vehicle-assault-cover",), legs=("us-mech-squad",), leg_command="MOVE"):
    g = opt_game(rules)
    units = [unit("V", "m113", "us", A, D, command="MOVE")]
    units += [unit(f"L{k}", card, "us", A, D, command=leg_command) for k, card in enumerate(legs)]
    units.append(unit("E", "t-80bv", "sov", ENEMY, 5))
    return opt_state(g, units)


def test_slots_from_the_text():
    assert move_opt(opt_game()).cover_slots == {"vehicle": 2, "squad": 2, "half": 1, "section": 1}


def test_covered_legs_move_with_the_vehicle():
    # MBT 7.41: the covered legs share the vehicle's Move command, move together and stay in its hex
    st = _group()
    assert legal(st) == ["move V"]  # the squad does not move on its own
    act(st, "move V")
    act(st, "fwd V")
    assert st.hex[1] == st.hex[0] != st.game.map.hex(A)
    act(st, "done V")
    assert st.hex[1] == st.hex[0] and "move L0" not in legal(st)
    off = _group(rules=())
    assert "move L0" in legal(off)


def test_light_cover_and_no_moving_penalty():
    # MBT 7.41: covered legs get Light Cover and ignore the -2 GPD moving modifier
    st = _group()
    ag = st.game.units[1].type.ag
    st.rev[1] = True
    assert st.leg_gp_defense(1) == ag.gpd_cover["light"]
    off = _group(rules=())
    off.rev[1] = True
    assert off.leg_gp_defense(1) == max(1, ag.gpd_cover["none"] - 2)


def test_two_slots_a_vehicle_and_the_same_command():
    # a squad fills both slots: a second leg unit moves on its own; a leg with another command is not covered
    st = _group(legs=("us-mech-squad", "us-mech-half-squad"))
    assert st.covered_by(0) == [1] and "move L1" in legal(st)
    halves = _group(legs=("us-mech-half-squad", "us-mech-half-squad"))
    assert halves.covered_by(0) == [1, 2]
    other = _group(leg_command="SH")
    assert other.covered_by(0) == []
