"""Steep slopes (Assault 7.E.2, example A43; option c32), through positions on board A's knoll A1615-A1817.

The knoll stands at level 3 on a level-1 hill, so its outer hexes are steep slopes (reading steep-slope-map:
two levels above an adjacent hex, constant steep-slope-drop). A1614 (level 1) -> A1615 (level 3) climbs it;
A1715 -> A1615 (both level 3) enters it without climbing."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]
PAID = {"c31-offboard-ops-visibility": "visible"}
ENEMY = {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "B2220"}


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def state_of(index, units, phase, **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", "assault-probe"), index,
                       {o.id: o.default for o in rs.options} | PAID | options)
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": phase, "units": [*units, ENEMY]})
    return game.state_from_position(pos)


def unit(card, hexlabel, uid="u", **status):
    return {"id": uid, "card": card, "side": "us", "hex": hexlabel, "status": status}


def moves(state, uid="u"):
    return sorted(a.split()[2] for a in state.legal_actions() if a.startswith(f"move {uid} "))


def test_the_knoll_is_a_steep_slope_and_its_top_is_not(index):
    state = state_of(index, [unit("us-m1-platoon", "A1614")], "us-move-1")
    steep = sorted(state.game.map.label_of[h] for h in state.game.steep)
    assert steep == ["A1615", "A1616", "A1617", "A1715", "A1717", "A1815", "A1816", "A1817"]


def test_A43_a_vehicle_climbing_pays_the_steep_slope_cost_in_addition(index):
    """Clear t_combat 2 + steep-slope t_combat 2 (placeholders) = 4 MP when it climbs from A1614."""
    state = state_of(index, [unit("us-m1-platoon", "A1614")], "us-move-1")
    state.play("move u A1615")
    assert state.counters[0].mp_used == 4
    state.play("move u A1616")                      # another steep hex of the same level: no climb, 2
    assert state.counters[0].mp_used == 6


def test_A43_entering_a_steep_hex_without_climbing_costs_nothing_extra(index):
    state = state_of(index, [unit("us-m1-platoon", "A1715")], "us-move-1")
    state.play("move u A1615")                      # level 3 -> level 3: no climb
    assert state.counters[0].mp_used == 2


def test_A43_P_prohibits_the_climb(index):
    """The steep-slope row is 'P' for r-mobility; with every column 'P' a tracked unit may not climb either."""
    state = state_of(index, [unit("us-m1-platoon", "A1614")], "us-move-1")
    row = state.game.effects["steep-slope"]
    row["t_combat"] = "P"
    assert "A1615" not in moves(state)
    assert "A1613" in moves(state)
    row["t_combat"] = 2
    assert "A1615" in moves(state)


def test_A43_a_leg_unit_climbs_in_the_first_phase_only_and_becomes_fatigued(index):
    """Leg units: 'F' (7.E.2): they climb only in the first friendly movement phase and are fatigued, so they may
    not move in the next turn's first movement phase (7.D)."""
    second = state_of(index, [unit("us-mech-infantry-platoon", "A1614")], "us-move-2")
    assert "A1615" not in moves(second) and "A1613" in moves(second)
    first = state_of(index, [unit("us-mech-infantry-platoon", "A1614")], "us-move-1")
    first.play("move u A1615")
    assert first.counters[0].climbed and not first.counters[0].fatigued
    first.play("end")                               # end of movement: the climber is marked fatigued
    assert first.counters[0].fatigued
    walker = state_of(index, [unit("us-mech-infantry-platoon", "A1613")], "us-move-1")
    walker.play("move u A1614")                     # no climb (level 0 -> 1 is no steep slope)
    walker.play("end")
    assert not walker.counters[0].fatigued


@pytest.mark.parametrize("choice, may_move", [("may-move", True), ("no-move", False)])
def test_c32_a_unit_fatigued_by_a_first_phase_climb_in_the_second_phase(index, choice, may_move):
    state = state_of(index, [unit("us-mech-infantry-platoon", "A1615", fatigued=True)], "us-move-2",
                     **{"c32-slope-fatigue": choice})
    assert bool(moves(state)) == may_move
    rested = state_of(index, [unit("us-mech-infantry-platoon", "A1615")], "us-move-2",
                      **{"c32-slope-fatigue": choice})
    assert moves(rested)


def test_a_fatigued_climber_may_not_move_in_the_next_first_phase(index):
    state = state_of(index, [unit("us-mech-infantry-platoon", "A1615", fatigued=True)], "us-move-1")
    assert moves(state) == []
