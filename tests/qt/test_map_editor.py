"""The map editor driven by real mouse gestures; assertions are on the saved files."""
import yaml

from studio.document.maprows import Grid

from .helpers import click, stroke


def cells(path, field="terrain"):
    data = yaml.safe_load(path.read_text())
    grid = Grid(data[field])
    return {(c, r): grid.get((c, r)) for r in range(len(grid.rows)) for c in range(len(grid.rows[r]))}


def open_map(window, project, name="board-2"):
    editor = window.open_path(project / "maps" / f"{name}.yaml")
    editor.view.fit()
    return editor


def choose(box, value):
    box.setCurrentIndex(box.findData(value))
    assert box.currentData() == value


def test_paint_ten_hexes_undo_redo_save(window, project, qtbot):
    path = project / "maps" / "board-2.yaml"
    before = cells(path)
    editor = open_map(window, project)
    choose(editor.terrain_box, "T")
    painted = [(c, 3) for c in range(10)]
    assert all(before[c] != "T" for c in painted)
    stroke(editor.view, painted)
    assert len(editor.doc.history) == 1, "one stroke is one undo step"
    assert window.isWindowModified() and "*" in window.tabs.tabText(0)
    window.act_undo.trigger()
    assert not editor.doc.dirty
    assert all(editor.geometry.terrain(c) == before[c] for c in painted)
    window.act_redo.trigger()
    assert all(editor.scene.fill_of(c) == editor.colour_of(c) for c in painted)
    window.act_save.trigger()
    after = cells(path)
    assert {c for c in before if before[c] != after[c]} == set(painted)
    assert all(after[c] == "T" for c in painted)
    assert not window.isWindowModified()


def test_brush_size_two_paints_a_disc_and_elevation_brush(window, project):
    path = project / "maps" / "board-2.yaml"
    editor = open_map(window, project)
    editor.brush_size.setCurrentText("2")
    choose(editor.terrain_box, "T")
    click(editor.view, (10, 12))
    editor.set_tool("elevation")
    editor.brush_size.setCurrentText("1")
    editor.level_box.setValue(3)
    stroke(editor.view, [(2, 12), (3, 12)])
    window.act_save.trigger()
    terrain = cells(path)
    assert {c for c, v in terrain.items() if v == "T" and c[1] >= 11 and 9 <= c[0] <= 11} == \
        set(editor.geometry.board.disc((10, 12), 2))
    elevation = cells(path, "elevation")
    assert elevation[(2, 12)] == "3" and elevation[(3, 12)] == "3"
    assert len(editor.doc.history) == 2


def test_fill_hexside_road_and_label_tools(window, project, monkeypatch):
    path = project / "maps" / "board-2.yaml"
    original = yaml.safe_load(path.read_text())
    editor = open_map(window, project)
    # fill: the clear region containing (0, 0) becomes brush (B)
    editor.set_tool("fill")
    choose(editor.terrain_box, "B")
    click(editor.view, (0, 0))
    # hexside: click near the south side of (5, 12)
    editor.set_tool("hexside")
    feature = editor.feature_box.currentData()
    click(editor.view, (5, 12), offset=(0, int(editor.view.transform().m11() * 19 * 0.42)))
    # road across four hexes
    editor.set_tool("road")
    stroke(editor.view, [(1, 12), (2, 12), (3, 12), (4, 12)])
    # label
    editor.set_tool("label")
    monkeypatch.setattr(editor, "ask_text", lambda *a: "Hill 112")
    click(editor.view, (6, 6))
    assert len(editor.doc.history) == 4
    window.act_save.trigger()
    saved = yaml.safe_load(path.read_text())
    assert cells(path)[(0, 0)] == "B"
    new_sides = [s for s in saved["hexsides"] if s not in original["hexsides"]]
    board = editor.geometry.board
    assert new_sides == [{"hex": board.label((5, 12)), "side": "S", "feature": feature}]
    assert saved["roads"][-1]["hexes"] == [board.label((c, 12)) for c in range(1, 5)]
    assert {"hex": board.label((6, 6)), "text": "Hill 112"} in saved["labels"]
    # undo everything: the file content comes back exactly
    for _ in range(4):
        window.act_undo.trigger()
    window.act_save.trigger()
    assert yaml.safe_load(path.read_text()) == original


def test_los_tool_marks_where_and_why(window, project):
    from studio.document import mapedit
    editor = open_map(window, project)
    board = editor.geometry.board
    blocker = next(code for code, t in editor.catalogue.terrain.items() if t.los_height > 0)
    clear = next(code for code, t in editor.catalogue.terrain.items() if t.los_height == 0 and not t.los_blocks)
    a, b = (2, 12), (6, 12)
    line = board.line(a, b)
    middle = line[len(line) // 2]
    with editor.doc.gesture("setup"):
        editor.doc.apply("flat", mapedit.paint_terrain(editor.doc.data, board, line, clear, clear))
        editor.doc.apply("flat", mapedit.paint_elevation(editor.doc.data, board, line, 0))
        editor.doc.apply("woods", mapedit.paint_terrain(editor.doc.data, board, [middle], blocker, clear))
    editor.set_tool("los")
    stroke(editor.view, [a, b])
    result = editor.last_los
    assert result.cells == line
    assert not result.clear and result.blocked_at == [middle]
    assert board.label(middle) in editor.los_label.text() and "blocked" in editor.los_label.text()
    assert editor.catalogue.name_of(blocker) in result.reason
    assert editor.scene.layer("los-block")
    editor.doc.apply("clear", mapedit.paint_terrain(editor.doc.data, board, [middle], clear, clear))
    stroke(editor.view, [a, b])
    assert editor.last_los.clear and not editor.scene.layer("los-block")
    assert len(editor.doc.history) == 2, "the LOS tool itself never edits"


def test_status_bar_shows_hex_and_terrain_under_cursor(window, project, qtbot):
    from PySide6.QtTest import QTest
    editor = open_map(window, project)
    p = editor.view.point_of((4, 8))
    QTest.mouseMove(editor.view.viewport(), p)
    text = window.statusBar().currentMessage()
    assert editor.geometry.label((4, 8)) in text and "Terrain" in text
    editor.set_tool("label")
    editor.ask_text = lambda *a: None  # the user cancels the label dialog
    click(editor.view, (4, 8))
    assert window.inspector.title.text() == f"Hex {editor.geometry.label((4, 8))}"
    assert dict(window.inspector.rows())["Terrain"].startswith(editor.catalogue.name_of(editor.geometry.terrain((4, 8))))
    assert not editor.doc.dirty


def test_assembly_preview_places_a_turned_board_beside_this_one(window, project):
    editor = open_map(window, project)
    editor.neighbour_turned.setChecked(True)
    editor.neighbour_box.setCurrentIndex(editor.neighbour_box.findData("board-4"))
    assert editor.show_assembly() == ""
    polygons = editor.scene.layer("assembly")
    assert len(polygons) == 20 * 14
    amap = editor.assembled
    # turned 180 degrees: board 4's first hex sits at the far (south-east) corner of the assembly
    h = amap.hex_of["4A1"]
    assert amap.offset(h) == (39, 13)
    assert not editor.doc.dirty, "the preview does not edit the map"
    editor.neighbour_box.setCurrentIndex(0)
    assert not editor.scene.layer("assembly")
