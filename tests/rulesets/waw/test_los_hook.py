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


# ---------------------------------------------------------------- the whole-map engine gives the same answers

def _every_pair_agrees(los, hexes):
    for a in hexes:
        seen = los.visibility(a)
        for b in hexes:
            c, r = los.grid.offset(b)
            assert seen[r, c] == los.clear(a, b), (a, b)


@pytest.mark.parametrize("map_id", ["board-2", "board-4"])
def test_visibility_equals_the_pair_test_on_every_pair_of_the_sample_boards(map_id):
    from studio.model.maps import assemble_single
    from studio.model.project import load_project
    from studio.rulesets.waw.engine.los import los_for_map

    index = load_project(DATA)
    amap = assemble_single(index.model("map", map_id))
    los = los_for_map(amap, index.model("ruleset", "waw"))
    assert los.ridges  # the sample boards' crests are WaW ridge lines
    _every_pair_agrees(los, sorted(amap.label_of))


def test_service_visibility_uses_the_plugin_engine():
    loaded = load_game("waw-hill-fight", DATA)
    service = LosService.for_scenario(loaded.scenario, loaded.index)
    hexes = sorted(service.map.label_of)
    for a in random.Random(4).sample(hexes, 3):
        seen = service.visibility(a)
        assert service.batch is not None
        for b in hexes:
            c, r = service.map.offset(b)
            assert seen[r, c] == service.check(a, b).clear


@pytest.mark.parametrize("kind", ["odd-q", "even-r"])
@pytest.mark.parametrize("ridged", [False, True])
def test_visibility_equals_the_pair_test_on_random_boards(kind, ridged):
    """Hills, woods, cities and broken terrain at random (with and without ridge lines)."""
    from studio.hexgrid import coords
    from studio.model.maps import AssembledMap
    from studio.rulesets.waw.engine.los import Los

    rng = random.Random(hash((kind, ridged)) & 0xFFFF)
    cols, rows = 9, 8
    hexes = [coords.offset_to_axial(c, r, kind) for r in range(rows) for c in range(cols)]
    amap = AssembledMap("flat" if kind.endswith("q") else "pointy", kind, cols, rows, 250.0, 16.0,
                        label_of={h: f"{i:04d}" for i, h in enumerate(hexes)})
    terrain = {h: rng.choice("CCCCWTRR") for h in hexes}
    elevation = {h: rng.choice([0, 0, 1]) for h in hexes}
    edges = sorted({tuple(sorted((h, n))) for h in hexes for n in coords.neighbours(h) if n in amap.label_of})
    ridges = set(rng.sample(edges, 12)) if ridged else set()
    kinds = {"C": "none", "W": "blocks", "T": "city", "R": "two_or_more"}
    _every_pair_agrees(Los(terrain, elevation, kinds, ridges, grid=amap), hexes)


def test_boards_too_big_for_the_fan_tables_are_judged_line_by_line(monkeypatch):
    from studio.hexgrid import fan
    from studio.model.maps import assemble_single
    from studio.model.project import load_project
    from studio.rulesets.waw.engine.los import los_for_map

    index = load_project(DATA)
    amap = assemble_single(index.model("map", "board-4"))
    los = los_for_map(amap, index.model("ruleset", "waw"))
    monkeypatch.setattr(fan, "fan_table", lambda kind, cols, rows: None)  # as for a board of 100 x 100
    _every_pair_agrees(los, sorted(amap.label_of)[::7])
    assert los._arrays == {}
