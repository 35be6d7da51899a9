"""The measured-table editor driven by real mouse and key events on its view; assertions on the document
data, the undo history and the saved file (story 5: lay out the table, place units, measure LOS)."""
from __future__ import annotations

import yaml
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from studio.document.session import ProjectSession
from studio.qt.editors.table_editor import open_table_editor


@pytest.fixture
def editor(qtbot, project):
    session = ProjectSession(project)
    doc = session.open_document(project / "maps" / "bfops-mill-valley.yaml")
    ed = open_table_editor(session, doc)
    qtbot.addWidget(ed)
    ed.resize(1400, 900)
    ed.show()
    qtbot.waitExposed(ed)
    ed.view.fit()
    return ed


def _pt(editor, x, y) -> QPoint:
    return editor.view.from_table(x, y)


def click(editor, x, y, button=Qt.MouseButton.LeftButton, mods=Qt.KeyboardModifier.NoModifier):
    QTest.mouseClick(editor.view.viewport(), button, mods, _pt(editor, x, y))


def drag(editor, a, b, button=Qt.MouseButton.LeftButton, mods=Qt.KeyboardModifier.NoModifier):
    vp = editor.view.viewport()
    QTest.mousePress(vp, button, mods, _pt(editor, *a))
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    QTest.mouseMove(vp, _pt(editor, *mid))
    QTest.mouseMove(vp, _pt(editor, *b))
    QTest.mouseRelease(vp, button, mods, _pt(editor, *b))


def choose(box, text):
    box.setCurrentIndex(box.findText(text))
    assert box.currentText() == text


def test_draw_woods_polygon_snapped_one_undo_step(editor):
    n = len(editor.features())
    editor.set_tool("draw")
    choose(editor.stamp_box, "Woods")
    for x, y in ((2.02, 44.02), (6.98, 43.99), (6.02, 47.23)):
        click(editor, x, y)
    QTest.keyClick(editor.view, Qt.Key.Key_Return)
    f = editor.features()[-1]
    assert len(editor.features()) == n + 1 and f["terrain"] == "woods" and f["shape"] == "polygon"
    assert f["points"] == [[2.0, 44.0], [7.0, 44.0], [6.0, 47.25]]        # on the 1/4" grid
    assert len(editor.doc.history) == 1
    editor.doc.undo()
    assert len(editor.features()) == n
    editor.doc.redo()
    assert editor.features()[-1]["points"] == f["points"]


def test_stamp_gives_fixed_width_and_snap_eighth(editor):
    editor.set_tool("draw")
    choose(editor.stamp_box, 'Trench 1/4"')
    choose(editor.snap_box, '1/8"')
    click(editor, 2.02, 2.02)
    click(editor, 8.02, 2.02)
    QTest.keyClick(editor.view, Qt.Key.Key_Return)
    f = editor.features()[-1]
    assert f["terrain"] == "trench" and f["width_in"] == 0.25 and f["shape"] == "polyline"
    assert f["points"] == [[2.0, 2.0], [8.0, 2.0]]
    choose(editor.stamp_box, 'Minefield strip 1"')
    choose(editor.snap_box, "free")
    click(editor, 3.3, 5.3)
    click(editor, 9.3, 5.3)
    QTest.keyClick(editor.view, Qt.Key.Key_Return)
    mf = editor.features()[-1]
    assert mf["width_in"] == 1.0 and mf["points"][0] != [3.25, 5.25]      # free: not on a grid
    assert abs(mf["points"][0][0] - 3.3) < 0.1


def test_drag_vertex_handle(editor):
    i = next(k for k, f in enumerate(editor.features()) if f["id"] == "church")
    editor.set_tool("select")
    click(editor, 43.2, 37.2)                                              # inside the church: selects it
    assert editor.selected == i and editor.handles
    drag(editor, (42.0, 36.0), (41.6, 35.4))
    assert editor.features()[i]["points"][0] == [41.5, 35.5]
    assert len(editor.doc.history) == 1                                   # the whole drag is one step


def test_place_move_and_turn_units(editor):
    editor.set_tool("unit")
    choose(editor.card_box, "nato-m60a1")
    click(editor, 30.02, 30.02)
    units = editor.units()
    assert len(units) == 1 and (units[0]["x"], units[0]["y"]) == (30.0, 30.0) and units[0]["facing"] == 0.0
    drag(editor, (30.0, 30.0), (32.02, 31.02))
    assert (editor.units()[0]["x"], editor.units()[0]["y"]) == (32.0, 31.0)
    drag(editor, (32.0, 31.0), (40.0, 31.0), Qt.MouseButton.RightButton)  # turn to face east
    assert editor.units()[0]["facing"] == 90.0
    assert len(editor.units_doc.history) == 3
    editor.units_doc.undo()
    assert editor.units()[0]["facing"] == 0.0


def test_ruler_inches_and_metric(editor):
    editor.set_tool("ruler")
    drag(editor, (10.0, 10.0), (22.0, 10.0))
    assert abs(editor.last_measure - 12.0) < 0.1
    assert editor.readout_rows[0][1].endswith('"')
    choose(editor.units_box, "metric")
    assert editor.readout_rows[0][1].endswith("cm") and editor.readout.item(0).text().startswith("Ruler: 30.")


def test_los_between_units_lists_obstacles_and_cover(editor):
    editor.set_tool("unit")
    choose(editor.card_box, "nato-m60a1")
    click(editor, 34.5, 38.25)
    choose(editor.side_box, "warpac")
    choose(editor.card_box, "wp-t62")
    click(editor, 50.0, 38.25)
    editor.set_tool("los")
    drag(editor, (34.5, 38.25), (50.0, 38.25))
    rows = dict(editor.readout_rows)
    assert "Church" in rows and "cover 4" in rows["Church"] and "2 face(s)" in rows["Church"]
    assert "BLOCKS" in rows["Church"] and rows["Verdict"] == "blocked"
    assert "Fire through" in rows and "AP only" in rows["Fire through"] and "-4" in rows["Fire through"]
    assert editor.last_los is not None and editor.last_los.length == pytest.approx(15.5)


def test_templates_and_save(editor, project):
    editor.set_tool("template")
    editor.radius_box.setValue(2.0)
    click(editor, 20.0, 20.0)
    choose(editor.template_box, "arc")
    click(editor, 25.0, 20.0)
    assert [t[0] for t in editor.templates] == ["circle", "arc"] and editor.templates[0][2] == 2.0
    editor.set_tool("draw")
    choose(editor.stamp_box, "Building (stone)")
    for x, y in ((2.0, 2.0), (3.0, 2.0), (3.0, 3.0), (2.0, 3.0)):
        click(editor, x, y)
    QTest.keyClick(editor.view, Qt.Key.Key_Return)
    editor.doc.save()
    data = yaml.safe_load((project / "maps" / "bfops-mill-valley.yaml").read_text())
    saved = data["table"]["features"][-1]
    assert saved["terrain"] == "building" and saved["cover"] == 4 and saved["construction"] == "stone"
    from studio.model.validate import validate_paths

    res = validate_paths([project / "maps" / "bfops-mill-valley.yaml"])
    assert not [d for d in res.diagnostics if d.severity.value == "error"]


def test_escape_cancels_an_unfinished_drawing(editor):
    n = len(editor.features())
    editor.set_tool("draw")
    choose(editor.stamp_box, "Woods")
    click(editor, 2.0, 2.0)
    click(editor, 5.0, 2.0)
    QTest.keyClick(editor.view, Qt.Key.Key_Escape)
    QTest.keyClick(editor.view, Qt.Key.Key_Return)
    assert len(editor.features()) == n and len(editor.doc.history) == 0


def test_properties_panel_sets_height_cover_depth(editor):
    i = next(k for k, f in enumerate(editor.features()) if f["id"] == "house-3")
    editor.set_tool("select")
    click(editor, 44.0, 41.5)
    assert editor.selected == i and editor.prop_boxes["height_in"].isEnabled()
    assert editor.prop_boxes["cover"].value() == 2.0
    editor.prop_boxes["height_in"].setValue(0.75)
    editor.prop_boxes["height_in"].editingFinished.emit()
    editor.prop_boxes["cover"].setValue(3)
    editor.prop_boxes["cover"].editingFinished.emit()
    f = editor.features()[i]
    assert f["height_in"] == 0.75 and f["cover"] == 3 and len(editor.doc.history) == 2


def test_ford_tool_puts_a_ford_on_the_stream(editor):
    i = next(k for k, f in enumerate(editor.features()) if f["id"] == "stream")
    before = len(editor.features()[i]["fords"])
    editor.set_tool("ford")
    editor.ford_depth.setValue(0.4)
    click(editor, 24.0, 22.1)
    fords = editor.features()[i]["fords"]
    assert len(fords) == before + 1 and fords[-1]["depth_in"] == 0.4
    assert abs(fords[-1]["at"][0] - 24.0) < 0.2 and abs(fords[-1]["at"][1] - 22.0) < 0.1
    editor.doc.undo()
    assert len(editor.features()[i]["fords"]) == before
