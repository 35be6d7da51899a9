"""The MBT plugin's LOS hook (used by `studio map los` and the map editor) gives the engine's answers."""
import random

import pytest

from studio.model.los import LosService
from studio.rules.load import load_game

DATA = __import__("pathlib").Path(__file__).resolve().parents[3] / "data"


@pytest.mark.parametrize("scenario_id", ["meeting-engagement", "delaying-action"])
def test_hook_agrees_with_the_engine(scenario_id):
    loaded = load_game(scenario_id, DATA)
    game = loaded.game
    service = LosService.for_scenario(loaded.scenario, loaded.index)
    rng = random.Random(7)
    hexes = sorted(game.map.label_of)
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(300)]
    blocked = 0
    for a, b in pairs:
        sight = service.check(a, b)
        assert sight.clear == game.los.clear(a, b), (game.map.label_of[a], game.map.label_of[b], sight.text())
        assert sight.rule.startswith("MBT 4.1.4")
        blocked += not sight.clear
    assert 0 < blocked < len(pairs)
