"""The MBT Game: refusals of unplayable scenarios and the data fingerprint (issue 10: tables are real)."""
from __future__ import annotations

import pytest

from studio.rules.load import ScenarioRefused
from studio.rulesets.mbt.engine.game import create_game

from .engine_fixtures import index, new_game


def test_a_scenario_without_its_ruleset_is_refused_with_a_diagnostic():
    idx = index()
    scenario = idx.model("scenario", "meeting-engagement").model_copy(update={"ruleset": "no-such-ruleset"})
    with pytest.raises(ScenarioRefused) as exc:
        create_game(scenario, idx)
    assert "no-such-ruleset" in str(exc.value) and [d.code for d in exc.value.diagnostics] == ["mbt.engine-data"]


def test_data_fingerprint_covers_hexside_features():
    """A hexside feature's movement cost is engine data: editing it changes the data fingerprint."""
    g = new_game()
    before = g.data_fingerprint()
    key, feat = next((k, f) for k, f in sorted(g.features.items()) if f is not None)
    g.features[key] = feat.model_copy(update={"move_cost": {**feat.move_cost, "t": 7.0}})
    assert g.data_fingerprint() != before
    g.features[key] = feat
    assert g.data_fingerprint() == before


def test_positions_at_the_end_of_movement_are_the_states_play_reaches():
    """Positions as documents (issue 10 item 8): the 'adjustment' position is the state reached by playing the
    rest of the Movement Phase when nobody moves: same fingerprint, same legal actions."""
    from pathlib import Path

    from studio.rules.position import load_position

    data = Path(__file__).resolve().parents[3] / "data"
    units = [{"id": "A", "card": "m1", "side": "us", "hex": "2C5", "facing": 2},
             {"id": "T", "card": "t-72a", "side": "sov", "hex": "4R5", "facing": 5}]
    states = [load_position({"scenario": "meeting-engagement", "phase": phase, "to_act": "us", "units": units},
                            data).state for phase in ("move-first", "adjustment")]
    played, placed = states
    assert played.turn == placed.turn == 2 and played.phase_id() == placed.phase_id() == "command"
    assert played.fingerprint() == placed.fingerprint()
    assert [str(a) for a in played.legal_actions()] == [str(a) for a in placed.legal_actions()]


def test_illegal_actions_name_the_rule_or_the_missing_unit():
    """An illegal action is refused with the rule it breaks; one naming a unit that does not exist says so."""
    from studio.rules.api import RulesError
    from studio.rulesets.mbt.engine.actions import Action

    g = new_game()
    s = g.new_initial_state(0)
    with pytest.raises(RulesError, match="no unit 'ghost'"):
        s.play(Action(("move", "ghost")))
    with pytest.raises(RulesError, match="not legal in this phase"):
        s.play(Action(("nonsense",)))
    name = g.units[0].name
    with pytest.raises(RulesError) as exc:
        s.play(Action(("fire", name, name, "main:APFSDS")))
    assert "MBT 4.4.1" in str(exc.value) or exc.value.rule == "MBT 4.4.1"


def test_building_stories_from_the_scenario_raise_the_buildings():
    """4.1.4.1.7: a building hex is 1 height per story; the scenario extension building_stories gives the
    stories of named hexes (others count one), and hexes off the boards are ignored."""
    idx = index()
    base = idx.model("scenario", "meeting-engagement")
    g0 = create_game(base, idx)
    town = next(h for h in sorted(g0.hexes) if g0.map.terrain.get(h) == "T")
    one = g0.los.terrain_top[town]
    ext = dict(g0.extension, building_stories={g0.label(town): 3, "9Z99": 2})
    g = create_game(base.model_copy(update={"extension": ext}), idx)
    assert one > 0 and g.los.terrain_top[town] == 3 * one
    other = next(h for h in sorted(g.hexes) if g.map.terrain.get(h) == "T" and h != town)
    assert g.los.terrain_top[other] == one


def test_the_initiative_winner_may_choose_to_be_second_player():
    """4.3.1, 4.3.2: the winner of the initiative chooses; choosing Second makes the other side First Player."""
    from pathlib import Path

    from studio.rules.position import load_position

    data = Path(__file__).resolve().parents[3] / "data"
    units = [{"id": "A", "card": "m1", "side": "us", "hex": "2C5", "facing": 2},
             {"id": "T", "card": "t-72a", "side": "sov", "hex": "4R5", "facing": 5}]
    for winner, choice, first in (("us", "second", 1), ("sov", "second", 0), ("sov", "first", 1)):
        s = load_position({"scenario": "meeting-engagement", "phase": "initiative", "to_act": winner,
                           "units": units}, data).state
        s.play(s.game.parse_action(f"initiative {choice}"))
        assert s.first == first, (winner, choice)


def test_an_observations_dice_clone_continues_the_same_rolls():
    """Observations (issue 10 item 4) have their own dice; a clone of a view whose dice have rolled continues
    with the same rolls as the view."""
    g = new_game()
    view = g.new_initial_state(5).observation(0).materialize()
    view.dice.roll(100)
    twin = view.clone()
    assert [twin.dice.roll(100) for _ in range(5)] == [view.dice.roll(100) for _ in range(5)]
