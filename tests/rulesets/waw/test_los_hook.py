"""The World at War plugin's LOS hook (used by `studio map los` and the map editor) gives the engine's answers."""
import random
from pathlib import Path

import pytest

from studio.model.los import LosService
from studio.rules.load import load_game

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.mark.parametrize("scenario_id", ["waw-crossroads", "waw-hill-fight"])
def test_hook_agrees_with_the_engine(scenario_id):
    loaded = load_game(scenario_id, DATA)
    game = loaded.game
    service = LosService.for_scenario(loaded.scenario, loaded.index)
    rng = random.Random(11)
    hexes = sorted(game.map.label_of)
    blocked = 0
    for _ in range(300):
        a, b = rng.choice(hexes), rng.choice(hexes)
        sight = service.check(a, b)
        assert sight.clear == game.los.clear(a, b), sight.text()
        assert sight.rule.startswith("WaW 7.")
        blocked += not sight.clear
    assert 0 < blocked < 300
