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


# ---------------------------------------------------------------- the whole-map engine gives the same answers

def _every_pair_agrees(los, hexes):
    for a in hexes:
        seen = los.visibility(a)
        for b in hexes:
            c, r = los.grid.offset(b)
            assert seen[r, c] == los.clear(a, b), (a, b, los.explain(a, b))


@pytest.mark.parametrize("map_id", ["board-2", "board-4"])
def test_visibility_equals_the_pair_test_on_every_pair_of_the_sample_boards(map_id):
    from studio.model.maps import assemble_single
    from studio.model.project import load_project
    from studio.rulesets.mbt.engine.los import build_los

    index = load_project(DATA)
    rs = index.model("ruleset", "mbt")
    amap = assemble_single(index.model("map", map_id))
    los = build_los(amap, {t.code: t for t in rs.terrain}, {f.id: f for f in rs.hexside_features}, {}, {})
    _every_pair_agrees(los, sorted(amap.label_of))


def test_service_visibility_uses_the_plugin_engine():
    loaded = load_game("delaying-action", DATA)
    service = LosService.for_scenario(loaded.scenario, loaded.index)
    hexes = sorted(service.map.label_of)
    rng = random.Random(2)
    for a in rng.sample(hexes, 3):
        seen = service.visibility(a)
        assert service.batch is not None
        for b in hexes:
            c, r = service.map.offset(b)
            assert seen[r, c] == service.check(a, b).clear
        assert seen.sum() == len(service.visible_labels(a))


OPTION_SETS = [{}, {"blind-zone-n": "obstacle-minus-lower", "hexside-obstacle-distance": "farther-hex"},
               {"gully-two-up": "adjacent-only", "los-along-hexside": "strict"}, {"los-obstacles": "highest"}]


@pytest.mark.parametrize("kind", ["even-q", "odd-r"])
@pytest.mark.parametrize("opts", OPTION_SETS, ids=["defaults", "blind-zone", "gully-strict", "highest"])
def test_visibility_equals_the_pair_test_on_random_boards(kind, opts):
    """Hills, woods, towns with roads through them, gullies and crest hexsides at random, under each option."""
    from studio.hexgrid import coords
    from studio.model.maps import AssembledMap
    from studio.rulesets.mbt.engine.los import MbtLos

    rng = random.Random(hash((kind, tuple(opts.items()))) & 0xFFFF)
    cols, rows = 9, 7
    hexes = [coords.offset_to_axial(c, r, kind) for r in range(rows) for c in range(cols)]
    amap = AssembledMap("flat" if kind.endswith("q") else "pointy", kind, cols, rows, 250.0, 16.0,
                        label_of={h: f"{i:04d}" for i, h in enumerate(hexes)})
    elev = {h: rng.choice([0, 0, 0, 1, 1, 2, 3]) for h in hexes}
    top, blocking, gully = {}, set(), set()
    for h in hexes:
        pick = rng.random()
        if pick < 0.15:
            top[h] = 3
            blocking.add(h)
        elif pick < 0.25:
            top[h] = rng.choice([1, 2])
            blocking.add(h)
        elif pick < 0.35:
            top[h] = -1
            gully.add(h)
    edges = sorted({tuple(sorted((h, n))) for h in hexes for n in coords.neighbours(h)})
    roads = {e: "road" for e in rng.sample(edges, 40)}
    sides = {e: max(elev.get(e[0], 0), elev.get(e[1], 0)) + 1 for e in rng.sample(edges, 15)}
    los = MbtLos(elev, top, gully, blocking, roads, sides, opts, grid=amap)
    _every_pair_agrees(los, hexes)


def test_boards_too_big_for_the_fan_tables_are_judged_line_by_line(monkeypatch):
    from studio.hexgrid import fan
    from studio.model.maps import assemble_single
    from studio.model.project import load_project
    from studio.rulesets.mbt.engine.los import build_los

    index = load_project(DATA)
    rs = index.model("ruleset", "mbt")
    amap = assemble_single(index.model("map", "board-4"))
    los = build_los(amap, {t.code: t for t in rs.terrain}, {f.id: f for f in rs.hexside_features}, {}, {})
    monkeypatch.setattr(fan, "fan_table", lambda kind, cols, rows: None)  # as for a board of 100 x 100
    _every_pair_agrees(los, sorted(amap.label_of)[::7])
    assert los._arrays == {}


def test_visibility_equals_the_pair_test_on_a_board_without_hexsides():
    from studio.hexgrid import coords
    from studio.model.maps import AssembledMap
    from studio.rulesets.mbt.engine.los import MbtLos

    rng = random.Random(3)
    hexes = [coords.offset_to_axial(c, r, "even-q") for r in range(7) for c in range(9)]
    amap = AssembledMap("flat", "even-q", 9, 7, 250.0, 16.0, label_of={h: str(i) for i, h in enumerate(hexes)})
    elev = {h: rng.choice([0, 0, 1, 2]) for h in hexes}
    top = {h: rng.choice([0, 0, 3]) for h in hexes}
    los = MbtLos(elev, top, set(), {h for h in hexes if top[h] == 3}, {}, {}, {}, grid=amap)
    _every_pair_agrees(los, hexes)
