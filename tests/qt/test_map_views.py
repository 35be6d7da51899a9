"""Map views look and behave like a wargame map: counters as printed, zoom about the cursor, fit key, seams,
hex ids, terrain legend, minimap (issue 16, "Map views" and "Scenario and replay maps")."""
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest

from studio.model.documents import Force
from studio.model.forces import expand_force
from studio.qt.counters import QtCounterStackItem
from studio.qt.map_view import QtHexLabelsItem


def _wheel(view, pos: QPoint, up: bool = True) -> None:
    event = QWheelEvent(QPointF(pos), QPointF(view.viewport().mapToGlobal(pos)), QPoint(0, 0),
                        QPoint(0, 120 if up else -120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    view.wheelEvent(event)


def test_setup_units_are_drawn_as_their_counters_with_designations_stacks_and_facing(window, project):
    editor = window.open_path(project / "scenarios" / "mbt" / "delaying-action.yaml")
    index = window.session.current_index()
    side = editor.doc.data["sides"][0]
    expected = []
    for force in side["forces"]:
        if (force.get("setup") or {}).get("hexes"):
            expected += [u.designation for u in expand_force(Force.model_validate(force), index)]
    stacks = [i for i in editor.scene.layer("count:0") if isinstance(i, QtCounterStackItem)]
    drawn = [c.designation for s in stacks for c in s.counters]
    assert sorted(drawn) == sorted(expected) and drawn
    printed = [c for s in stacks for c in s.counters]
    assert all(c.items for c in printed), "every counter has the print renderer's face (symbol, values)"
    texts = {getattr(i, "text", None) for c in printed for i in c.items}
    assert any(d in texts for d in expected), "the designation is printed on the counter"
    faced = [s for s in stacks if s.facing is not None]
    assert faced and faced[0].facing == 120.0, "setup facing SE is shown"


def test_a_stack_shows_its_count(window, project):
    editor = window.open_path(project / "scenarios" / "mbt" / "delaying-action.yaml")
    from studio.document.ops import Set
    editor.doc.apply("stack", [Set("/sides/0/forces/0/setup/hexes", ["2C5"])])
    stack = next(s for s in editor.scene.layer("count:0") if isinstance(s, QtCounterStackItem)
                 and s.pos() == QPointF(*editor.geometry.centre(editor.geometry.key_of_label("2C5"))))
    assert stack.count > 1 and len(stack.shown) == min(stack.count, 4)
    assert str(stack.count) in stack.toolTip() or stack.toolTip().count("\n") == stack.count - 1


def test_wheel_zoom_keeps_the_hex_under_the_cursor(window, project):
    editor = window.open_path(project / "maps" / "board-2.yaml")
    view = editor.view
    key = editor.geometry.key_of_label("2E4")
    pos = view.point_of(key)
    before = view.zoom_level()
    for _ in range(4):
        _wheel(view, pos)
    assert view.zoom_level() > before * 2
    assert view._key(pos)[0] == key, "the hex under the cursor is still under it"
    p = view.mapToScene(pos)
    cx, cy = editor.geometry.centre(key)
    assert abs(p.x() - cx) < 2 and abs(p.y() - cy) < 2


def test_zero_and_home_fit_the_board(window, project):
    editor = window.open_path(project / "maps" / "board-2.yaml")
    view = editor.view
    view.fit()
    fitted = view.zoom_level()
    for key in (Qt.Key.Key_0, Qt.Key.Key_Home):
        view.zoom(3.0)
        assert view.zoom_level() > fitted * 2
        QTest.keyClick(view, key)
        assert abs(view.zoom_level() - fitted) < 1e-6


def test_assembled_boards_show_their_seam_and_hex_ids_at_fit_zoom(window, project):
    editor = window.open_path(project / "scenarios" / "mbt" / "delaying-action.yaml")
    seams = editor.scene.layer("seams")
    assert seams, "the seam between board 2 and board 4 is drawn"
    path = seams[0].path()
    x = {round(path.elementAt(i).x) for i in range(path.elementCount())}
    board2_east = max(editor.geometry.centre(k)[0] for k in editor.geometry.keys()
                      if editor.geometry.label(k).startswith("2"))
    assert all(abs(v - board2_east) < editor.geometry.hex_mm for v in x), "the seam runs between the boards"
    editor.view.fit()
    assert editor.view.zoom_level() >= QtHexLabelsItem.MIN_LOD, "hex ids are drawn at the fitted zoom"


def test_terrain_legend_lists_the_terrain_used(window, project):
    editor = window.open_path(project / "maps" / "board-2.yaml")
    legend = editor.view.legend
    names = [name for _, name in editor.view.legend_entries]
    used = {editor.geometry.terrain(k) for k in editor.geometry.keys()}
    assert legend.isVisible() and len(names) == len(used)
    assert any(n.startswith("Woods") for n in names) and not any(n.startswith("Heavy woods") for n in names)
    assert "Clear" in legend.text()
    editor.doc.apply("paint", [__import__("studio.document.ops", fromlist=["Set"]).Set(
        "/terrain/0", " ".join(["HW"] * editor.geometry.board.columns))])
    assert any(n.startswith("Heavy woods") for _, n in editor.view.legend_entries), "the legend follows edits"


def test_minimap_shows_the_board_and_a_click_goes_there(window, project):
    editor = window.open_path(project / "scenarios" / "mbt" / "delaying-action.yaml")
    view = editor.view
    mini = view.minimap
    assert mini.isVisible() and mini.pixmap is not None and not mini.pixmap.isNull()
    view.zoom(6.0)
    target = editor.geometry.key_of_label("4C3")
    tx, ty = editor.geometry.centre(target)
    board = mini._board()
    k = mini._k()
    click = QPoint(int((tx - board.left()) * k), int((ty - board.top()) * k))
    QTest.mouseClick(mini, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, click)
    centre = view.visible_scene_rect().center()
    assert abs(centre.x() - tx) < editor.geometry.hex_mm and abs(centre.y() - ty) < editor.geometry.hex_mm
    assert mini.visible_rect().contains(QPointF(click)), "the minimap outlines the visible area"


def test_the_legend_folds_where_it_would_hide_the_board_and_on_a_click(window, project, qtbot):
    editor = window.open_path(project / "maps" / "board-2.yaml")
    legend = editor.view.legend
    legend.fold_for(False)
    assert not legend.folded and "Clear" in legend.text()
    legend.fold_for(True)  # it would cover the board: folded to its title, hiding no hexes
    assert legend.folded and "Clear" not in legend.text() and "Terrain" in legend.text()
    QTest.mouseClick(legend, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    assert not legend.folded and "Clear" in legend.text()
    legend.fold_for(True)  # once the user chose, the view no longer folds it
    assert not legend.folded
    QTest.mouseClick(legend, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    assert legend.folded and legend.width() < 120


def test_the_legend_is_folded_only_where_the_board_reaches_its_corner(window, project, qtbot):
    window.resize(1366, 768)
    editor = window.open_path(project / "maps" / "board-2.yaml")  # one board, room on its sides
    qtbot.wait(50)
    editor.view.fit_all()
    editor.view._place_overlays()
    assert not editor.view.legend.folded
    scenario = window.open_path(project / "scenarios" / "mbt" / "delaying-action.yaml")  # two boards, wide
    qtbot.wait(50)
    scenario.view.fit_all()
    scenario.view._place_overlays()
    assert scenario.view.legend.folded, "the fitted boards reach the corner: the legend folds off them"
