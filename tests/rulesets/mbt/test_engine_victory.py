"""Victory (MBT 4.6.2, 3.6) and the position set-up of each phase, through ``Game.state_from_position`` and the
public API."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.model.documents import VictoryCondition
from studio.model.position import Position
from studio.model.project import load_project
from studio.rulesets.mbt.engine.game import create_game

DATA = Path(__file__).resolve().parents[3] / "data"
INDEX = load_project(DATA)


def unit(uid, card, side, hex_, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hex_, "facing": facing, "status": status}


def game_with(victory=(), scenario="meeting-engagement"):
    base = INDEX.model("scenario", scenario)
    if victory:
        base = base.model_copy(update={"victory": [VictoryCondition(**v) for v in victory]})
    return create_game(base, INDEX)


def state(game, phase, units, to_act=None, turn=1, **extension):
    return game.state_from_position(Position(scenario=game.scenario_id, phase=phase, to_act=to_act, turn=turn,
                                             units=units, extension=extension))


def end(game, units, turn=None, **extension):
    """The state after the last turn's Adjustment Phase."""
    return state(game, "adjustment", units, turn=turn or game.max_turns, **extension)


US = [unit("A", "m1", "us", "2A1", 2), unit("B", "m1", "us", "2A3", 2)]
SOV = [unit("T", "t-72a", "sov", "4T10", 5)]


def test_survive_counts_vehicles_on_the_map():
    g = game_with([{"id": "s", "type": "survive", "side": "us", "points": 3}])
    out = end(g, US + SOV).outcome()
    assert out.victory_points == [6.0, 0.0] and out.winner == 0


def test_destroy_units_and_percent():
    g = game_with([{"id": "k", "type": "destroy_units", "side": "sov", "points": 2},
                   {"id": "p", "type": "destroy_percent", "side": "sov", "points": 5, "percent": 50}])
    s = state(g, "direct-fire-first", US + [unit("T", "t-72a", "sov", "2A5", 0, command="FIRE")], "sov")
    s.dice.force(1)
    s.play(g.parse_action("fire T at A main:APFSDS"))
    out = s.outcome()
    assert s.lost == [1, 0] and out.victory_points[1] == 2.0 + 5.0          # 1 of 2 lost = 50 %
    g2 = game_with([{"id": "p", "type": "destroy_percent", "side": "sov", "points": 5, "percent": 51}])
    s2 = state(g2, "direct-fire-first", US + [unit("T", "t-72a", "sov", "2A5", 0, command="FIRE")], "sov")
    s2.dice.force(1)
    s2.play(g2.parse_action("fire T at A main:APFSDS"))
    assert s2.outcome().victory_points[1] == 0.0


def test_destroy_percent_without_a_percent_needs_every_vehicle():
    """MBT 4.6.2 victory (scenario data): destroy_percent without a percent means all of them (100 %)."""
    g = game_with([{"id": "p", "type": "destroy_percent", "side": "sov", "points": 5}])
    one = [unit("A", "m1", "us", "2A1", 2)]
    s = state(g, "direct-fire-first", one + [unit("T", "t-72a", "sov", "2A5", 0, command="FIRE")], "sov")
    assert s.outcome().victory_points[1] == 0.0
    s.dice.force(1)
    s.play(g.parse_action("fire T at A main:APFSDS"))
    assert s.lost == [1, 0] and s.outcome().victory_points[1] == 5.0


def test_hold_hexes_needs_every_hex_and_a_tie_is_a_draw():
    g = game_with([{"id": "h", "type": "hold_hexes", "side": "us", "points": 4, "hexes": ["2A1", "2A3"]},
                   {"id": "k", "type": "survive", "side": "sov", "points": 4}])
    away = [unit("A", "m1", "us", "2A5", 2), unit("B", "m1", "us", "2A7", 2)]
    both = end(g, away + SOV, control={"2A1": "us", "2A3": "us"}).outcome()
    one = end(g, away + SOV, control={"2A1": "us"}).outcome()
    assert both.victory_points == [4.0, 4.0] and both.winner is None
    assert one.victory_points == [0.0, 4.0] and one.winner == 1


def test_exit_units_count_by_edge():
    g = game_with([{"id": "x", "type": "exit_units", "side": "us", "points": 2, "edge": "west"},
                   {"id": "y", "type": "exit_units", "side": "us", "points": 1}])
    s = state(g, "move-first", [unit("A", "m1", "us", "2A5", 5, command="MOVE")] + SOV, "us")
    s.play(g.parse_action("move A"))
    exits = [a for a in s.legal_actions() if a[0] == "exit"]
    assert exits
    s.play(exits[0])
    assert s.st[s.game.uindex["A"]] == 2 and s.exits
    edge = s.exits[0][1]
    assert s.outcome().victory_points[0] == (2.0 if edge == "west" else 0.0) + 1.0


def test_vehicles_that_exit_are_not_destroyed():
    """4.5.1.1.9: a vehicle leaving the map is out of the scenario but not eliminated: destroy_percent of the
    enemy does not count it, survive no longer does."""
    g = game_with([{"id": "p", "type": "destroy_percent", "side": "sov", "points": 5, "percent": 50},
                   {"id": "s", "type": "survive", "side": "us", "points": 1}])
    s = state(g, "move-first", [unit("A", "m1", "us", "2A5", 5, command="MOVE"),
                                unit("B", "m1", "us", "2C5", 2)] + SOV, "us")
    assert s.outcome().victory_points == [2.0, 0.0]
    s.play(g.parse_action("move A"))
    s.play(next(a for a in s.legal_actions() if a[0] == "exit"))
    assert s.lost == [0, 0] and s.outcome().victory_points == [1.0, 0.0]


def test_the_game_ends_when_a_side_has_no_vehicles():
    g = game_with()
    s = state(g, "direct-fire-first", [unit("A", "m1", "us", "2B4", 3), unit("T", "t-72a", "sov", "2A1", 0,
                                                                             command="FIRE")], "sov")
    s.dice.force(1)
    s.play(g.parse_action("fire T at A main:APFSDS"))
    out = s.outcome()
    assert s.is_terminal() and out.reason == "a side has no vehicles left" and out.turn == 1 and out.losses == [1, 0]


def test_a_side_eliminated_on_the_last_turn_loses_on_points_at_the_game_end():
    """4.6.2: the last turn's end is the game's end whatever happened in it; the game ends early only when a side
    loses its last vehicle before the last turn."""
    g = game_with()
    units = [unit("A", "m1", "us", "2B4", 3), unit("T", "t-72a", "sov", "2A1", 0, command="FIRE")]
    s = state(g, "direct-fire-first", units, "sov", turn=g.max_turns)
    s.dice.force(1)
    s.play(g.parse_action("fire T at A main:APFSDS"))
    out = s.outcome()
    assert s.is_terminal() and out.reason == "victory points" and out.turn == g.max_turns and out.losses == [1, 0]


def test_destroyed_vehicles_get_no_command_next_turn():
    """4.2.1: only vehicles on the map (or due to enter) are given commands; a vehicle knocked out is not."""
    g = game_with()
    units = [unit("A", "m1", "us", "2B4", 3), unit("B", "m1", "us", "2B5", 3),
             unit("T", "t-72a", "sov", "2A1", 0, command="FIRE")]
    s = state(g, "direct-fire-first", units, "sov")
    s.dice.force(1)
    s.play(g.parse_action("fire T at A main:APFSDS"))
    while s.phase_id() != "command":
        s.play(next((a for a in s.legal_actions() if a[0] in ("pass", "done")), s.legal_actions()[0]))
    named = set()
    while s.phase_id() == "command":
        a = s.legal_actions()[0]
        named.add(a[1])
        s.play(a)
    assert s.turn == 2 and named == {"B", "T"}


def test_initiative_tie_goes_to_the_previous_first_player_under_that_option():
    """4.3.1 (option initiative-ties: previous-first): after turn 1 a tied roll gives the initiative to the side
    that was First Player, not a reroll."""
    for first, to_act in ((0, "us"), (1, "sov")):
        g = game_with()
        g.options["initiative-ties"] = "previous-first"
        units = [unit("A", "m1", "us", "2B4", 3, command="NC"), unit("T", "t-72a", "sov", "4T10", 5)]
        s = state(g, "command", units, turn=2)
        s.first = first
        s.dice.force(40, 40)
        s.play(g.parse_action("command T NC"))
        assert s.phase_id() == "initiative" and s.current_player() == first, to_act


# ---------------------------------------------------------------- positions: who acts in each phase
@pytest.mark.parametrize("phase,to_act,first,actor", [
    ("direct-fire-first", "us", 0, 0), ("direct-fire-first", "sov", 1, 1),
    ("direct-fire-second", "us", 1, 0), ("direct-fire-second", "sov", 0, 1),
    ("move-first", "sov", 1, 1), ("move-second", "sov", 0, 1), ("move-second", "us", 1, 0),
])
def test_phase_and_side_to_act(phase, to_act, first, actor):
    g = game_with()
    command = "FIRE" if phase.startswith("direct") else "MOVE"
    units = [unit("A", "m1", "us", "2A1", 2, command=command), unit("T", "t-72a", "sov", "2E2", 5, command=command)]
    s = state(g, phase, units, to_act)
    assert s.first == first and s.current_player() == actor and s.phase_id() == phase


@pytest.mark.parametrize("phase,first,actor", [("direct-fire-first", 0, 0), ("direct-fire-second", 0, 1),
                                               ("move-first", 0, 0), ("move-second", 0, 1), ("overwatch", 0, 0)])
def test_default_side_to_act(phase, first, actor):
    """Without to_act the First Player is the first side (MBT 4.3.2): it acts in the First Player steps."""
    g = game_with()
    command = "FIRE" if phase.startswith("direct") else ("OW" if phase == "overwatch" else "MOVE")
    fired = {"fired": True, "revealed": True, "mark": "spot-fire"} if phase == "overwatch" else {}
    units = [unit("A", "m1", "us", "2A1", 2, command=command), unit("T", "t-72a", "sov", "2E2", 5,
                                                                   command="FIRE" if fired else command, **fired)]
    s = state(g, phase, units)
    assert s.first == first and s.current_player() == actor


def test_vehicles_without_a_command_have_nc_after_the_command_phase():
    g = game_with()
    s = state(g, "direct-fire-first", [unit("A", "m1", "us", "2A1", 2, command="FIRE"),
                                       unit("B", "m1", "us", "2A3", 2), unit("T", "t-72a", "sov", "2E2", 5)], "us")
    assert s.cmd[s.game.uindex["B"]] == 1 and s.cmd[s.game.uindex["T"]] == 1     # N/C


def test_second_player_moves_first_every_turn():
    """4.5: in each turn's Movement Phase the Second Player moves first (turn 2 too)."""
    g = game_with()
    s = state(g, "spotting", [unit("A", "m1", "us", "2A1", 2), unit("T", "t-72a", "sov", "4T10", 5)])
    seen = []
    for _ in range(200):
        if s.is_terminal() or s.turn > 2:
            break
        acts = s.legal_actions()
        if acts[0][0] == "command":
            s.play(next(a for a in acts if a[2] == "MOVE"))
        elif acts[0][0] == "initiative":
            s.play(next(a for a in acts if a[1] == "first"))
        elif acts[0][0] == "move":
            seen.append((s.turn, s.phase_id(), s.current_player() == s.first))
            s.play(acts[0])
        else:
            s.play(next((a for a in acts if a[0] in ("done", "pass")), acts[0]))
    firsts = [x for x in seen if x[0] == 2]
    assert firsts and firsts[0][1] == "move-second" and not firsts[0][2]


def test_initiative_position_gives_the_choice_to_the_winner():
    g = game_with()
    s = state(g, "initiative", [unit("A", "m1", "us", "2A1", 2), unit("T", "t-72a", "sov", "4T10", 5)], "sov")
    assert s.current_player() == 1 and {str(a) for a in s.legal_actions()} == {"initiative first",
                                                                                   "initiative second"}
    s.play(g.parse_action("initiative second"))
    assert s.first == 0


def test_command_position_skips_vehicles_already_commanded():
    g = game_with()
    s = state(g, "command", [unit("A", "m1", "us", "2A1", 2, command="OW"), unit("B", "m1", "us", "2A3", 2),
                             unit("T", "t-72a", "sov", "4T10", 5)])
    assert {a[1] for a in s.legal_actions()} == {"B"} and s.cmd[s.game.uindex["A"]] == 5


def test_spotting_position_removes_extraneous_spot_counters():
    g = game_with()
    far = state(g, "spotting", [unit("A", "m1", "us", "2A1", 2, mark="spot-move"), unit("T", "t-72a", "sov", "4T10", 5)])
    seen = state(g, "command", [unit("A", "m1", "us", "2A1", 2, mark="spot-move"), unit("T", "t-72a", "sov", "4T10", 5)])
    assert far.mk[0] == 0 and seen.mk[0] == 2


def test_position_unit_names_and_default_facing():
    g = game_with()
    s = state(g, "command", [{"card": "m1", "side": "us", "hex": "2A1"}, {"card": "m1", "side": "us", "hex": "2A3"},
                             {"card": "t-72a", "side": "sov", "hex": "4T10"}])
    names = [u.name for u in s.game.units]
    prefixes = [u.type.name.split()[0] for u in s.game.units]
    assert names == [f"{prefixes[0]}-1", f"{prefixes[1]}-2", f"{prefixes[2]}-1"]
    assert s.fac[0] == 2 and s.fac[2] == 5                 # facing toward the centre of the map
    assert s.game is not g and g.units != s.game.units     # the scenario's game keeps its own units


def test_objective_turns_from_the_scenario_extension():
    """3.6 (scenario extension objective_turns): with 2, a hex held for one turn is not yet controlled."""
    base = INDEX.model("scenario", "meeting-engagement")
    ext = dict(base.extension) if isinstance(base.extension, dict) else base.extension.model_dump()
    ext["objective_turns"] = 2
    g = create_game(base.model_copy(update={"extension": ext}), INDEX)
    hexes = [g.label(h) for h in g.objectives]
    units = [unit("A", "m1", "us", hexes[0], 2), unit("T", "t-72a", "sov", "4T10", 5)]
    one = state(g, "adjustment", units)
    assert one.control == {} and one.held[g.objectives[0]] == (0, 1) and one.turn == 2
    while one.turn == 2:                    # a second turn, every vehicle idle
        acts = one.legal_actions()
        one.play(next((a for a in acts if a[0] in ("pass", "done") or (a[0] == "command" and a[2] == "NC")),
                      acts[0]))
    assert one.control == {g.objectives[0]: 0}
    g1 = game_with()                        # objective_turns 1: one turn is enough
    assert state(g1, "adjustment", units).control == {g1.objectives[0]: 0}
