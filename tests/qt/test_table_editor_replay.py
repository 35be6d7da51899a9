"""Measured tables drawn where they are shown, not edited: the replay viewer's table (terrain, prepared works,
zones, objectives, units as their bases per step, the shot) and the scenario editor's preview of a Battlefield
Ops! scenario's zones and objectives (``studio.qt.table.scene`` / ``replay_scene``)."""
from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data"
MEETING = DATA / "scenarios" / "bfops" / "bfops-meeting-at-the-ford.yaml"


@pytest.fixture(scope="module")
def played():
    from studio.rules.load import load_game
    from studio.rules.replay import record
    from studio.sim.runner import play_game

    loaded = load_game(MEETING, DATA)
    result, state = play_game(loaded.game, 3, ["heuristic", "random"], record=True)
    assert not result.error
    return loaded, record(loaded, 3, result.actions, state, ["heuristic", "random"])


def _items(scene, layer):
    return scene.layers.get(layer, [])


def test_replay_table_draws_every_feature_and_the_units_of_each_step(qapp, played):
    from studio.qt.table.replay_scene import TableReplayView
    from studio.rulesets.bfops.engine.state import Fire

    loaded, replay = played
    view = TableReplayView(loaded, replay)
    assert len(view.frames) == len(replay["actions"]) + 1
    tips = {i.toolTip() for i in view.scene.items()}
    for f in loaded.game.table.features:
        assert f"{f.id} ({f.terrain})" in tips                  # every feature, prepared works included
    assert {"objective village", "objective ford", "objective ridge", "deployment zone: nato"} <= tips
    view.show_step(None)
    assert len([i for i in _items(view.scene, "units") if i.toolTip()]) == len(loaded.game.setup_units)
    # a shot: the firer and target ringed, a line between them, at their positions before the shot
    from studio.document.replay_walk import ReplayWalk

    walk = ReplayWalk(loaded, replay)
    step = next(s for s in walk.steps if isinstance(loaded.game.parse_action(s.action or "pass"), Fire))
    view.show_step(step)
    assert len(_items(view.scene, "marks")) == 2 and len(_items(view.scene, "shot")) == 1
    firer = next(u for u in view.units_at(step.index - 1) if u.id == step.named[0])
    line = _items(view.scene, "shot")[0].line()
    assert abs(line.x1() / 20.0 - firer.x) < 1e-6
    # the last frame: losses drawn as wrecks
    last = walk.steps[-1]
    view.show_step(last)
    wrecks = [i for i in _items(view.scene, "units") if i.toolTip().endswith("disabled")]
    assert len(wrecks) == sum(1 for u in view.units_at(last.index) if u.disabled) > 0


def test_replay_table_positions_follow_the_engine(qapp, played):
    """The frames are the engine's states: a unit that moved in a Move Phase is drawn where the state has it."""
    from studio.qt.table.replay_scene import snapshots

    loaded, replay = played
    frames = snapshots(loaded.game, replay["seed"], replay["actions"])
    state = loaded.game.new_initial_state(replay["seed"])
    for k, text in enumerate(replay["actions"][:60], 1):
        state.apply(loaded.game.parse_action(text))
        assert [(u.id, u.x, u.y, u.facing, u.disabled) for u in frames[k]] == \
            [(u.id, u.x, u.y, u.facing, u.disabled) for u in state.units]
    assert any(a != b for a, b in zip(frames[0], frames[60]))


def test_offscreen_image_of_the_replay_table(qapp, played, tmp_path):
    from PySide6.QtGui import QColor, QImage, QPainter

    from studio.qt.table.replay_scene import TableReplayView

    loaded, replay = played
    view = TableReplayView(loaded, replay)
    image = QImage(720, 480, QImage.Format.Format_ARGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    view.scene.render(painter)
    painter.end()
    colours = {image.pixelColor(x, y).name() for x in range(0, 720, 9) for y in range(0, 480, 9)}
    assert len(colours) > 8                      # ground, woods, stream, road, zones, units ...


def test_scenario_preview_draws_zones_objectives_and_prepared_works(qapp):
    import yaml

    from studio.qt.table.scene import TableScene, terrain_colours
    from studio.rules.load import load_game

    path = DATA / "scenarios" / "bfops" / "bfops-village-defence.yaml"
    loaded = load_game(path, DATA)
    ext = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)["extension"]
    scene = TableScene(72, 48, terrain_colours(loaded.index, "bfops"))
    scene.draw_table(loaded.game.map.table.model_dump(mode="json"), ext["prepared"]["features"])
    scene.draw_scenario(ext, ["nato", "warpac"])
    tips = {i.toolTip() for i in scene.items()}
    assert {"south-wire (wire)", "west-slick (oil_slick)", "objective village", "objective ford",
            "deployment zone: nato", "deployment zone: warpac"} <= tips
    zone = next(i for i in scene.items() if i.toolTip() == "deployment zone: warpac")
    r = zone.rect()
    assert (r.left() / 20, 48 - r.bottom() / 20, r.right() / 20, 48 - r.top() / 20) == (6.0, 1.0, 66.0, 6.0)


def test_scenario_editor_previews_the_table_with_zones_and_objectives(window, project, tmp_path):
    """The scenario editor of a table scenario shows the table with its zones and objectives (no hex map), and
    redraws when an objective moves."""
    from PySide6.QtGui import QColor, QImage, QPainter

    from studio.document.ops import Set

    editor = window.open_path(project / "scenarios" / "bfops" / "bfops-meeting-at-the-ford.yaml")
    preview = editor.table_preview
    assert preview.isVisibleTo(editor) and not editor.view.isVisibleTo(editor)
    tips = {i.toolTip() for i in preview.scene.items()}
    assert {"objective village", "objective ford", "objective ridge", "deployment zone: warpac"} <= tips
    editor.doc.apply("move objective", [Set("/extension/objectives/0/at", [20.0, 20.0])])
    editor.rebuild_map()
    village = next(i for i in preview.scene.items() if i.toolTip() == "objective village")
    c = village.rect().center()
    assert (c.x() / 20, 48 - c.y() / 20) == (20.0, 20.0)
    image = QImage(preview.view.viewport().size(), QImage.Format.Format_ARGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    preview.view.render(painter)
    painter.end()
    image.save(str(tmp_path / "preview.png"))
    assert image.width() > 0
