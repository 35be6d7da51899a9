"""MBT Optional Rule 7.35 Fires, through positions and play."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, opt_game, opt_state, unit  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402
from studio.rulesets.mbt.engine.codes import DEAD, ON  # noqa: E402
from studio.rulesets.mbt.engine.opt_move_data import move_opt  # noqa: E402

ENEMY = "4T13"


def _town() -> str:
    g = opt_game()
    return next(g.label(h) for h in sorted(g.building_hexes))


TOWN = _town()


def _burning_state(rules=("fires",), construction="brick"):
    g = opt_game(rules, building_construction={TOWN: construction})
    st = opt_state(g, [unit("L", "sov-mr-squad", "sov", TOWN, 0), unit("E", "m1", "us", ENEMY, 2)],
                   phase="move-first", to_act=None)
    return st


def test_brick_gp_8_starts_a_fire_on_01_10():
    # MBT 7.35.1 example: 8 GP Factors at a unit in a Brick building hex start a fire on 10 or less
    mo = move_opt(opt_game())
    assert ("brick", 8, 8, 10) in mo.fire_start
    st = _burning_state()
    h = st.game.map.hex(TOWN)
    st.note_fire_attack(h, 8)
    st.note_fire_attack(h, 5)  # only the largest GP Factor of the turn counts, one check per hex
    st.dice.force(10)
    st._fire_checks()
    assert st.burning == {h: st.turn} and any("fire check" in e and "on fire" in e for e in st.events)
    miss = _burning_state()
    miss.note_fire_attack(h, 8)
    miss.dice.force(11)
    miss._fire_checks()
    assert miss.burning == {}


def test_no_fire_check_without_the_rule_or_outside_buildings():
    st = _burning_state(rules=())
    st.note_fire_attack(st.game.map.hex(TOWN), 8)
    assert st.fire_gp == {}
    on = _burning_state()
    clear = next(h for h in on.game.hexes if on.game.map.terrain.get(h) == "C")
    on.note_fire_attack(clear, 15)
    assert on.fire_gp == {}


def test_units_still_in_the_fire_at_the_end_of_the_next_turn_are_eliminated():
    # MBT 7.35.2: ground units that have not left the fire hex by the end of the next turn are eliminated
    st = _burning_state()
    h = st.game.map.hex(TOWN)
    st.burning[h] = st.turn
    st._burn_units()
    assert st.st[0] == ON  # the turn the fire started
    st.turn += 1
    st._burn_units()
    assert st.st[0] == DEAD and h not in st.wreck


def test_direct_gp_fire_at_a_unit_in_a_building_is_noted():
    # MBT 7.35.1: non-small-arms GP direct fire at a unit in a building hex; small arms never start fires
    g = opt_game(("fires",))
    st = opt_state(g, [unit("L", "sov-mr-squad", "sov", TOWN, 0), unit("E", "m1", "us", ENEMY, 2)],
                   phase="move-first", to_act=None)
    he = next(r for r in g.units[1].type.ap if r.kind == "GP" and not r.small_arms)
    sa = next((r for r in g.units[1].type.ap if r.kind == "GP" and r.small_arms), None)
    st.hex[1] = next(x for x in g.hexes if 1 <= distance(x, g.map.hex(TOWN)) <= 2)
    st.dice.force(1)
    st.gp_fire(1, 0, he, False)
    assert st.fire_gp.get(g.map.hex(TOWN), 0) > 0
    if sa is not None:
        st.fire_gp = {}
        st.dice.force(1)
        st.gp_fire(1, 0, sa, False)
        assert st.fire_gp == {}


def test_fire_check_in_the_adjustment_phase_after_direct_gp_fire():
    # MBT 7.35.1 in play: HEAT-MP (GP 7) at a squad in the brick building 2H8; the Adjustment Phase (after the
    # Adjust Full Cover Step) checks the hex once: roll 1 starts the fire
    g = opt_game(("fires",))
    units = [unit("S", "m1", "us", "2G5", 0, command="FIRE"), unit("L", "sov-mr-squad", "sov", "2H8", 0)]
    st = opt_state(g, units, phase="direct-fire-first", to_act="us", dice=[50, 1])
    act(st, "fire S at L main:HEAT-MP")
    act(st, "cover L off")
    assert st.burning == {g.map.hex("2H8"): 1} and st.turn == 2
    assert any("fire check in 2H8" in e and "on fire" in e for e in st.events)
