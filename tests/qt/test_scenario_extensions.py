"""Each rule system's own scenario block (``extension:``) is edited with real widgets on the scenario editor's
*Rule system* page: key/value tables for mappings, check boxes and comma lists for lists of values, drop-downs for
sides, forces and cards (issue 16). Every sample scenario of every rule system opens without error."""
import pytest
import yaml
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QPushButton

from studio.qt.schema_form import QtListField, QtMapTable, QtObjectTable

#: one scenario per rule system in the normal suite (the richest block of each); the others under ``-m slow``
SCENARIOS = ["assault/assault-probe", "bfops/bfops-village-defence", "mbt/adv-combined-arms", "waw/waw-lab"] + [
    pytest.param(name, marks=pytest.mark.slow) for name in (
        "assault/assault-meeting", "bfops/bfops-meeting-at-the-ford", "mbt/adv-air-strike", "mbt/delaying-action",
        "mbt/hasty-defense", "mbt/meeting-engagement", "waw/waw-crossroads", "waw/waw-hill-fight")]


def _open(window, project, name):
    editor = window.open_path(project / "scenarios" / f"{name}.yaml")
    assert type(editor).__name__ == "QtScenarioEditor"
    editor.tabs.setCurrentIndex(editor.tabs.indexOf(editor.extension_page))
    return editor


def _saved(editor):
    editor.doc.save()
    return yaml.safe_load(editor.doc.path.read_text())


def _button(widget, text):
    return next(b for b in widget.findChildren(QPushButton) if b.text() == text)


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_scenario_opens_with_its_rule_system_page(window, project, name):
    editor = _open(window, project, name)
    assert editor.tabs.tabText(editor.tabs.currentIndex()) == "Rule system"
    form = editor.extension_form
    raw = [p for p, f in form.fields.items() if isinstance(f.editor, QLineEdit) and f.spec.kind == "any"]
    assert not raw, f"fields left as YAML text: {raw}"
    assert form.fields or form.tables or form.maps


def test_mbt_force_grades_are_a_side_keyed_table(window, project):
    editor = _open(window, project, "mbt/meeting-engagement")
    grades = editor.extension_form.maps["/extension/force_grades"]
    assert isinstance(grades, QtMapTable)
    assert grades.key_choices() == ["us", "sov"], "keys are the scenario's sides"
    QTest.mouseClick(_button(grades, "Add entry"), Qt.MouseButton.LeftButton)
    QTest.mouseClick(_button(grades, "Add entry"), Qt.MouseButton.LeftButton)
    assert grades.keys() == ["us", "sov"]
    grades.set_cell("sov", "value", "veteran")
    assert editor.doc.get("/extension/force_grades/sov") == "veteran"
    grades.set_cell("sov", "key", "us")  # taken: refused, nothing changes
    assert grades.keys() == ["us", "sov"]
    grades.set_cell("sov", "value", "heroic")  # not a Force Grade: refused on the cell
    assert editor.doc.get("/extension/force_grades/sov") == "veteran"
    data = _saved(editor)
    assert data["extension"]["force_grades"]["sov"] == "veteran"
    editor.doc.undo()
    assert editor.doc.get("/extension/force_grades/sov") != "veteran"


def test_mbt_formation_grades_are_a_table_per_side(window, project):
    """side -> force -> grade (MBT 5.8.2): the sides in a table, the selected side's forces in a table below it."""
    editor = _open(window, project, "mbt/adv-combined-arms")
    sides = editor.extension_form.maps["/extension/formation_grades"]
    assert isinstance(sides, QtMapTable) and "sov" in sides.keys()
    sides.table.selectRow(sides.keys().index("sov"))
    forces = sides.detail.maps["/extension/formation_grades/sov"]
    assert isinstance(forces, QtMapTable) and forces.keys() == list(editor.doc.get("/extension/formation_grades/sov"))
    forces.set_cell("tanks", "value", "veteran")
    assert editor.doc.get("/extension/formation_grades/sov/tanks") == "veteran"
    forces.set_cell("tanks", "value", "heroic")  # not a grade: refused on the cell
    assert editor.doc.get("/extension/formation_grades/sov/tanks") == "veteran"
    assert _saved(editor)["extension"]["formation_grades"]["sov"]["tanks"] == "veteran"
    editor.doc.undo()
    assert editor.doc.get("/extension/formation_grades/sov/tanks") == "seasoned"


def test_assault_side_keyed_lists_open_below_their_row(window, project):
    editor = _open(window, project, "assault/assault-meeting")
    levels = editor.extension_form.maps["/extension/force_levels"]
    assert levels.keys() == ["soviet", "us"] and "item" in levels.table.item(0, 1).text()
    levels.table.selectRow(1)
    assert levels.detail is not None
    rows = levels.detail.tables["/extension/force_levels/us"]
    assert isinstance(rows, QtObjectTable) and rows.table.rowCount() == len(editor.doc.get("/extension/force_levels/us"))
    ops = editor.extension_form.maps["/extension/off_board_ops"]
    ops.table.selectRow(0)
    field = ops.detail.fields["/extension/off_board_ops/soviet"]
    assert isinstance(field, QtListField)
    assert field.set_text("1, 2, 0")
    assert editor.doc.get("/extension/off_board_ops/soviet") == [1, 2, 0]
    assert not field.set_text("1, x") and "'x'" in field.problem, "a bad value is named and refused"
    assert editor.doc.get("/extension/off_board_ops/soviet") == [1, 2, 0]


def test_bfops_tactics_are_check_boxes_and_the_table_note_opens_the_table(window, project):
    editor = _open(window, project, "bfops/bfops-village-defence")
    tactics = editor.extension_form.fields["/extension/prepared/tactics"]
    assert isinstance(tactics, QtListField) and "wire" in tactics.checks
    before = list(editor.doc.get("/extension/prepared/tactics") or [])
    box = tactics.checks["wire"]
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))  # on its indicator
    after = editor.doc.get("/extension/prepared/tactics")
    assert ("wire" in after) != ("wire" in before)
    assert _saved(editor)["extension"]["prepared"]["tactics"] == after
    # played on a measured table: no empty hex map, a note with a way to the table
    assert editor.table_note.isVisibleTo(editor) and not editor.view.isVisibleTo(editor)
    QTest.mouseClick(editor.table_button, Qt.MouseButton.LeftButton)
    assert window.current_editor().doc.id == "bfops-mill-valley"


def test_waw_hex_lists_and_side_keyed_areas(window, project):
    editor = _open(window, project, "waw/waw-lab")
    area = editor.extension_form.fields["/extension/playable_area"]
    assert isinstance(area, QtListField) and not area.checks
    assert area.set_text("2E9, 2F9")
    assert editor.doc.get("/extension/playable_area") == ["2E9", "2F9"]
    assert area.editor.text() == "2E9, 2F9"
    areas = editor.extension_form.maps["/extension/setup_areas"]
    assert areas.add_entry() and areas.keys() == ["us"]
    roles = editor.extension_form.tables["/extension/roles"]
    assert roles.column_choices("side", 0) == ["us", "soviet"]


def test_a_finding_in_the_block_opens_its_page(window, project):
    editor = window.open_path(project / "scenarios" / "mbt" / "hasty-defense.yaml")
    editor.focus_pointer("/extension/force_grades/us")
    assert editor.tabs.currentWidget() is editor.extension_page


def test_a_polyline_is_typed_as_points_and_attributes_as_a_table(window, project):
    editor = _open(window, project, "bfops/bfops-village-defence")
    features = editor.extension_form.tables["/extension/prepared/features"]
    features.table.selectRow(0)
    points = features.detail.fields["/extension/prepared/features/0/points"]
    assert isinstance(points, QtListField) and points.point is not None
    assert points.editor.text() == "30.0, 31.5; 34.0, 31.5"
    assert points.set_text("30, 31.5; 32 31; 34, 31.5")
    assert editor.doc.get("/extension/prepared/features/0/points") == [[30.0, 31.5], [32.0, 31.0], [34.0, 31.5]]
    assert not points.set_text("30, 31.5; 32") and "2 coordinates" in points.problem
    assert not points.set_text("30, x") and "'30, x'" in points.problem
    assert len(editor.doc.get("/extension/prepared/features/0/points")) == 3, "a refused text changes nothing"
    attributes = features.detail.maps["/extension/prepared/features/0/attributes"]
    assert isinstance(attributes, QtMapTable) and [p for p, _ in attributes.columns] == [""]
    assert attributes.add_entry()
    key = attributes.keys()[0]
    attributes.set_cell(key, "value", "3")
    assert editor.doc.get(f"/extension/prepared/features/0/attributes/{key}") == 3, "typed text keeps its type"
