"""MBT Advanced Game leg units on building levels (MBT 4.1.4.1.3, 6.1.4.3.1, 6.6.4.1, 6.6.4.3, 5.1.3): moving up
and down in a multi-story building, spotting from the top floor, weapons barred from upper floors; through
positions on the sample scenario with the scenario extension ``building_stories`` (2I9 is a brick building)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import act, legal, opt_game, opt_state, unit  # noqa: E402

from studio.rules.position import PositionError  # noqa: E402
from studio.rulesets.mbt.engine.codes import MMOVE  # noqa: E402

TOWN, FAR = "2I9", "4T13"


def _game(stories=3, options=None):
    return opt_game(options=options, building_stories={TOWN: stories} if stories else {})


def _mover(stories=3, options=None, **status):
    st = opt_state(_game(stories, options), [unit("L", "us-mech-squad", "us", TOWN, 0, command="MOVE", **status),
                                             unit("E", "t-80bv", "sov", FAR, 5)])
    act(st, "move L")
    return st


def test_a_leg_unit_moves_up_for_one_movement_factor():
    # MBT 6.6.4.1: up or down in a building for 1 Movement Factor (squad 2L: 2 -> 1 left); it is moving
    st = _mover()
    left = st.mv_left
    assert "climb L up" in legal(st)
    act(st, "climb L up")
    assert st.is_up(0) and st.mv_left == left - 1 and st.mk[0] == MMOVE
    assert "climb L down" in legal(st)
    assert any("top floor of 2I9" in str(e) for e in st.events)
    act(st, "climb L down")
    assert not st.is_up(0) and st.mv_left == left - 2


def test_no_levels_in_a_one_story_building():
    # MBT 4.1.4.1.3: buildings are 1 story unless the scenario says otherwise; 6.1.4.3.1: Height 2 or more
    assert not any(a.startswith("climb") for a in legal(_mover(stories=None)))
    assert not any(a.startswith("climb") for a in legal(_mover(stories=1)))
    assert "climb L up" in legal(_mover(stories=2))


def test_no_climb_without_the_allowance():
    # the level cost (1) must fit in the allowance left (a Suppressed squad with Short Halt has 1/4 of 2 -> 1)
    st = _mover()
    act(st, "climb L up")
    act(st, "climb L down")
    assert st.mv_left == 0 and not any(a.startswith("climb") for a in legal(st))


def test_down_first_a_unit_on_the_top_floor_does_not_leave_the_hex():
    # option upper-floor-exit: down-first (default): no step out of the hex from the top floor
    st = _mover(upper_floor=True)
    assert st.is_up(0)
    assert not any(a.split()[0] in ("fwd", "rev", "exit") for a in legal(st))
    act(st, "climb L down")
    assert "fwd L" in legal(st)


def test_free_exit_the_step_out_brings_it_down():
    st = _mover(options={"upper-floor-exit": "free"}, upper_floor=True)
    assert "fwd L" in legal(st)
    act(st, "fwd L")
    assert st.hex[0] != st.game.map.hex(TOWN) and not st.is_up(0)


def test_crawling_never_changes_level():
    # MBT 6.6.4.3: crawling units may not move up or down in a building
    up = _mover(full_cover=True, upper_floor=True)
    assert not any(a.startswith("crawl") for a in legal(up))
    ground = _mover(full_cover=True)
    crawl = next(a for a in legal(ground) if a.startswith("crawl"))
    act(ground, crawl)
    assert not any(a.startswith("climb") for a in legal(ground))


def test_spotting_height_is_one_less_than_the_building():
    # MBT 6.1.4.3.1 example: a squad up in a 3-story building spots at Height 2
    st = opt_state(_game(3), [unit("L", "us-mech-squad", "us", TOWN, 0, upper_floor=True),
                              unit("E", "t-80bv", "sov", FAR, 5)], phase="spotting")
    assert st.spot_lift(0) == 2
    two = opt_state(_game(2), [unit("L", "us-mech-squad", "us", TOWN, 0, upper_floor=True),
                               unit("E", "t-80bv", "sov", FAR, 5)], phase="spotting")
    assert two.spot_lift(0) == 1


def _hidden_from_the_ground(g):
    """A Clear hex 3-6 hexes from 2I9 whose line of sight from the ground is blocked but clear from Height 2."""
    from studio.hexgrid.coords import distance

    a = g.map.hex(TOWN)
    for b in sorted(g.map.label_of, key=lambda h: (distance(a, h), h)):
        if 3 <= distance(a, b) <= 6 and g.map.terrain.get(b) == "C" and not g.los.clear(a, b) and \
                g.los.clear_lifted(a, b, 2, 0):
            return g.label(b)
    raise AssertionError("no such hex on the sample boards")


def test_the_top_floor_spots_over_what_blocks_the_ground_floor():
    # MBT 6.1.4.3.1: the squad on the top floor spots from its Height, the ground floor does not (the tank does not
    # spot the squad in either: a leg unit in a building is in cover, spotted at a shorter range)
    g = _game(3)
    target = _hidden_from_the_ground(g)
    units = [unit("L", "us-mech-squad", "us", TOWN, 0), unit("E", "t-80bv", "sov", target, 5)]
    ground = opt_state(g, units, phase="spotting")
    up = opt_state(g, [dict(units[0], status={"upper_floor": True}), units[1]], phase="spotting")
    assert 1 not in ground.spots[0]
    assert 1 in up.spots[0]


def _fire_rows(status):
    g = _game(3)
    st = opt_state(g, [unit("L", "us-mech-squad", "us", TOWN, 0, command="FIRE", **status),
                       unit("E", "t-80bv", "sov", "2G10", 3)], phase="direct-fire-first")
    return {a.split()[-1] for a in legal(st) if a.startswith("fire L")}


def test_weapons_barred_from_upper_floors_do_not_fire_from_the_top_floor():
    # MBT 5.1.3.3, 5.1.3.5: the Dragon and the LAW cards say no fire from upper floors
    ground, up = _fire_rows({}), _fire_rows({"upper_floor": True})
    assert ground == {"rifles:GP", "dragon:Dragon", "law:HEAT"}
    assert up == {"rifles:GP"}


def test_position_refuses_upper_floor_outside_a_multi_story_building():
    g = _game(1)
    with pytest.raises(PositionError, match="upper_floor"):
        opt_state(g, [unit("L", "us-mech-squad", "us", TOWN, 0, upper_floor=True), unit("E", "t-80bv", "sov", FAR, 5)])
    with pytest.raises(PositionError, match="upper_floor"):
        opt_state(_game(3), [unit("V", "m113", "us", TOWN, 0, upper_floor=True), unit("E", "t-80bv", "sov", FAR, 5)])


def test_the_level_is_in_the_fingerprint():
    g = _game(3)
    units = [unit("L", "us-mech-squad", "us", TOWN, 0), unit("E", "t-80bv", "sov", FAR, 5)]
    up = opt_state(g, [dict(units[0], status={"upper_floor": True}), units[1]])
    assert opt_state(g, units).fingerprint() != up.fingerprint()
    assert up.clone().is_up(0)


def test_vehicles_and_towed_units_never_climb():
    # MBT 6.1.4.3.1: leg units (squads, half-squads, sections) move up; vehicles are in the alleys
    st = opt_state(_game(3), [unit("V", "m113", "us", TOWN, 0, command="MOVE"), unit("E", "t-80bv", "sov", FAR, 5)])
    act(st, "move V")
    assert not any(a.startswith("climb") for a in legal(st))


def test_a_climb_spends_the_move_no_free_hex_after_it():
    # the one-hex move (MBT 6.6.4.1: 'may always move one hex') is for a unit that has spent nothing
    st = _mover()
    act(st, "climb L up")
    act(st, "climb L down")
    assert st.mv_left == 0 and "fwd L" not in legal(st)


def test_free_exit_still_no_crawl_from_the_top_floor():
    # MBT 6.6.4.3 under option upper-floor-exit 'free'
    st = _mover(options={"upper-floor-exit": "free"}, full_cover=True, upper_floor=True)
    assert "fwd L" in legal(st) and not any(a.startswith("crawl") for a in legal(st))


def test_a_spot_counter_stays_when_only_the_top_floor_spots_its_unit():
    # MBT 4.1.5: a Spot counter of a unit no enemy spots is removed; the squad up spots the tank over the
    # obstacle, so the tank's Spot/Fire stays; a friend in range is never among the spotted
    g = _game(3)
    target = _hidden_from_the_ground(g)
    friend = unit("F", "us-mech-squad", "us", "2I10", 0)
    tank = unit("E", "t-80bv", "sov", target, 5, mark="spot-fire")
    ground = opt_state(g, [unit("L", "us-mech-squad", "us", TOWN, 0), friend, tank], phase="spotting")
    up = opt_state(g, [unit("L", "us-mech-squad", "us", TOWN, 0, upper_floor=True), friend, tank], phase="spotting")
    assert ground.mk[2] == 0 and up.mk[2] != 0
    assert up.spots[0] == (2,)


def test_the_top_floor_unit_is_spotted_over_the_obstacle():
    # MBT 6.1.4.3.1: spotted from its Height too (the squad's Spot/Fire counter lets the tank spot it that far)
    g = _game(3)
    target = _hidden_from_the_ground(g)
    tank = unit("E", "t-80bv", "sov", target, 5)
    ground = opt_state(g, [unit("L", "us-mech-squad", "us", TOWN, 0, mark="spot-fire"), tank], phase="spotting")
    up = opt_state(g, [unit("L", "us-mech-squad", "us", TOWN, 0, upper_floor=True, mark="spot-fire"), tank],
                   phase="spotting")
    assert 0 not in ground.spots[1]
    assert 0 in up.spots[1]
