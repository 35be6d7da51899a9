"""Fire through occupied hexes (Assault 12.B.5, example A73), through positions."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def game():
    index = validate_paths([REPO / "data"]).index
    rs = index.model("ruleset", "assault")
    return create_game(index.model("scenario", "assault-meeting"), index, {o.id: o.default for o in rs.options})


def fires(game, firer_hex, target_hex, between):
    """The U.S. M-1 platoon's fire actions at a spotted T-80 platoon, with ``between`` units in the hex the
    sight line crosses (flat clear ground unless the hexes say otherwise)."""
    a, b = game.map.hex(firer_hex), game.map.hex(target_hex)
    state = game.new_initial_state(0)
    middle = [h for _, h in state._line(a, b)]
    units = [{"id": "us", "card": "us-m1-platoon", "side": "us", "hex": firer_hex},
             {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": target_hex, "status": {"spotted": True}}]
    units += [{"id": f"x{n}", "card": card, "side": side, "hex": game.map.label_of[middle[0]]}
              for n, (card, side) in enumerate(between)]
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-meeting",
                                   "phase": "us-fire", "units": units})
    return sorted(a.split()[2] for a in game.state_from_position(pos).legal_actions() if a.startswith("fire us "))


def test_A73_friendly_units_block_all_fire(game):
    assert fires(game, "B1418", "B1618", []) == ["HE", "IS", "KP", "SA", "TP"]
    assert fires(game, "B1418", "B1618", [("us-m1-platoon", "us")]) == []


def test_A73_enemy_units_block_conventional_fire_and_afvs_anti_armour_fire(game):
    assert fires(game, "B1418", "B1618", [("su-motor-rifle-platoon", "soviet")]) == ["KP", "TP"]
    assert fires(game, "B1418", "B1618", [("su-t72-platoon", "soviet")]) == []


def test_A73_a_higher_firer_fires_over(game):
    """From the hilltop B1407 (level 4) over a friendly platoon in B1307 (level 3) at B1107 (level 2, range 3):
    the sight line is at 3 1/3 above B1307's ground (3), so the fire is allowed; at range 2 (B1207, over B1306)
    the line is exactly at the ground (3) and the friendly platoon blocks; at the same level (row 18) too."""
    assert fires(game, "B1407", "B1107", [("us-m1-platoon", "us")])
    assert fires(game, "B1407", "B1207", [("us-m1-platoon", "us")]) == []
