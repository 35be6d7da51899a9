"""Movement costs read from table terrain-effects (Assault 7.B-7.E) over many hexes of the Meeting's board, and
the minimum move of one hex (7.B), found weakly tested by a mutation run of the engine (COVERAGE.md,
Measurements). Each expected value comes from the ruleset table, by terrain, mobility and formation."""
from pathlib import Path

import pytest

from studio.hexgrid import coords
from studio.model.maps import edge_key
from studio.model.position import Position
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]
PAID = {"c31-offboard-ops-visibility": "visible"}
STARTS = ["B0303", "B0507", "B0810", "B1012", "B1214", "B1505", "B1709", "B1816", "B2011", "B0418", "B1302",
          "B0915", "B1620", "B0611", "B1918"]


@pytest.fixture(scope="module")
def index(sample_index):
    return sample_index.index                   # the sample project, validated once per session (conftest)


@pytest.fixture(scope="module")
def game(index):
    rs = index.model("ruleset", "assault")
    return create_game(index.model("scenario", "assault-meeting"), index, {o.id: o.default for o in rs.options} | PAID)


def state_at(game, card, start, formation, **status):
    units = [{"id": "x", "card": card, "side": "soviet", "hex": start,
              "status": {"formation": formation, **status}},
             {"id": "far", "card": "us-m1-platoon", "side": "us", "hex": "B0101" if start != "B0101" else "B2220"}]
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-meeting",
                                   "phase": "soviet-move-1", "units": units,
                                   "extension": {"ops": {"soviet": {"default": 20}}}})
    return game.state_from_position(pos)


def expected_cost(game, card, start, h, formation):
    """The terrain-effects cell for entering ``h`` (the road row in march formation along a road, 7.C)."""
    body = game.card(card).body
    row = game.effects[game.terrain_of[h]]
    if formation == "march" and edge_key(start, h) in game.map.roads:
        row = game.effects["road"]
    cell = row[f"{body.mobility.lower()}_{formation}"]
    if cell == "P" and body.amphibious and row.get("amphibious") is True:
        return None
    return cell


@pytest.mark.parametrize("card", ["su-t80-platoon", "su-btr70-platoon"])
@pytest.mark.parametrize("formation", ["march", "combat"])
def test_vehicles_pay_the_terrain_effects_cell_of_the_hex_they_enter(game, card, formation):
    """7.B, 7.C: a vehicle entering a hex spends the cell of its terrain for its mobility class and formation
    (the road row along a road in march); 'P' is prohibited; it faces the hexside it moved through (7.F)."""
    seen = set()
    for start in STARTS:
        state = state_at(game, card, start, formation)
        x = state.counters[0]
        legal = set(state.legal_actions())
        for h in game.neighbours[x.hex]:
            if game.steep and (h in game.steep or x.hex in game.steep):
                continue
            cost = expected_cost(game, card, x.hex, h, formation)
            action = f"move x {game.map.label_of[h]}"
            assert (action in legal) is isinstance(cost, int), (start, action, cost)
            if not isinstance(cost, int):
                continue
            seen.add((game.terrain_of[h], cost))
            after = state.clone()
            after.play(action)
            y = next(c for c in after.counters if c.id == "x")
            assert (y.hex, y.mp_used, y.moved, y.moved_first) == (h, cost, True, True)
            assert y.facing == coords.direction_between(x.hex, h)
    assert len({t for t, _ in seen}) >= 2                              # more than one terrain was entered


def test_the_first_hex_is_always_allowed_and_later_ones_within_the_allowance(game):
    """7.B: a unit may always move one hex; after that only while its MPs cover the next cell."""
    card = "su-t80-platoon"
    ma = game.card(card).body.movement_allowance
    for start in STARTS[:6]:
        for used, moved in ((ma, False), (ma - 1, True), (0, True)):
            state = state_at(game, card, start, "march", mp_used=used)
            x = state.counters[0]
            x.moved = moved
            legal = set(state.legal_actions())
            for h in game.neighbours[x.hex]:
                cost = expected_cost(game, card, x.hex, h, "march")
                if not isinstance(cost, int) or h in game.steep or x.hex in game.steep:
                    continue
                allowed = not moved or used + cost <= ma
                assert (f"move x {game.map.label_of[h]}" in legal) is allowed, (start, used, moved, cost)


def test_leg_units_roll_the_leg_cell_to_enter(game):
    """7.D-7.E: a leg unit enters one hex a phase on a roll of the leg cell or less (1.E); 'P' hexes never."""
    card = "su-motor-rifle-platoon"
    for start in STARTS[:8]:
        state = state_at(game, card, start, "combat")
        x = state.counters[0]
        legal = set(state.legal_actions())
        for h in game.neighbours[x.hex]:
            if h in game.steep or x.hex in game.steep:
                continue
            cell = game.effects[game.terrain_of[h]]["leg_roll"]
            action = f"move x {game.map.label_of[h]}"
            assert (action in legal) is isinstance(cell, int), (start, action, cell)
            if not isinstance(cell, int) or not 1 <= cell <= 10:
                continue
            for roll, enters in ((cell, True), (cell + 1, False)):
                if roll > 10:
                    continue
                after = state.clone()
                after.dice.force(roll)
                after.play(action)
                y = next(c for c in after.counters if c.id == "x")
                assert (y.hex == h) is enters and y.moved


def test_facing_after_the_last_hex_needs_one_mp_left(game):
    """7.F: the change of facing after the last hex costs 1 MP (constant facing-change-mp): allowed with exactly
    that left, not with none; never for a unit in cover or one that has not moved."""
    card = "su-t80-platoon"
    ma = game.card(card).body.movement_allowance
    assert game.data.constant("facing-change-mp") == 1
    for used, allowed in ((ma - 1, True), (ma, False)):
        state = state_at(game, card, "B1012", "march", mp_used=used)
        x = state.counters[0]
        x.moved = True
        assert bool([a for a in state.legal_actions() if a.startswith("face x ")]) is allowed
        x.moved = False
        assert not [a for a in state.legal_actions() if a.startswith("face x ")]
    state = state_at(game, card, "B1012", "combat", mp_used=0, cover=True)
    state.counters[0].moved = True
    assert not [a for a in state.legal_actions() if a.startswith("face x ")]
