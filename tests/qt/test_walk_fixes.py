"""What walking the stories in the window (offscreen, looked at as PNGs) found clumsy, each fix driven through the
widgets: facings as a drop-down, substitutions that only offer fitting cards, a refused field scrolled into view
on a scenario page, the Test-play dock tall enough for its results."""
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QPushButton

from studio.document import values
from studio.document.schema import FieldSpec

from .helpers import drop_toe


def _new_scenario(window):
    window.ask_item = lambda title, prompt, items: "mbt" if "Rule" in prompt else items[0]
    window.ask_text = lambda *a, **k: "walk"
    from studio.qt import doc_actions
    doc_actions.new_document(window, "scenario")
    return window.current_editor()


def _force_form(editor, si=0, fi=0):
    editor.tabs.setCurrentIndex(2)
    sides = editor.sides_form.tables["/sides"]
    sides.table.selectRow(si)
    forces = sides.detail.tables[f"/sides/{si}/forces"]
    forces.table.selectRow(fi)
    return forces.detail


def test_a_force_faces_a_hexside_chosen_from_the_boards_directions(window, project):
    editor = _new_scenario(window)
    drop_toe(editor, "us-tank-platoon", editor.geometry.key_of_label("2C5"))
    field = _force_form(editor).field("/sides/0/forces/0/setup/facing")
    assert isinstance(field.editor, QComboBox)
    shown = [field.editor.itemText(i) for i in range(field.editor.count())]
    assert shown[1:] == ["N", "NE", "SE", "S", "SW", "NW"], "flat-top boards: their six hexside names"
    assert field.set_text("SE") and editor.doc.get("/sides/0/forces/0/setup/facing") == "SE"


def test_a_substitution_offers_cards_of_its_slots_kind_and_a_new_row_is_valid(window, project):
    editor = _new_scenario(window)
    drop_toe(editor, "us-tank-platoon", editor.geometry.key_of_label("2C5"))
    subs = _force_form(editor).tables["/sides/0/forces/0/substitutions"]
    QTest.mouseClick(next(b for b in subs.findChildren(QPushButton) if b.text() == "Add row"),
                     Qt.MouseButton.LeftButton)
    units = editor.choices("/sides/0/forces/0/substitutions/0/unit")
    categories = {editor.session.data_of("unit", u).get("category", "vehicle") for u in units}
    assert categories == {"vehicle"}, "a tank slot is not offered batteries, aircraft or infantry"
    every = editor._ids_of("unit")
    assert len(units) < len(every)
    row = editor.doc.get("/sides/0/forces/0/substitutions/0")
    assert row["unit"] in units, "the new row's card fits its slot"
    editor.doc.undo()
    assert not editor.doc.get("/sides/0/forces/0/substitutions"), "adding the row and settling it: one step"


def test_a_refused_field_on_a_long_page_is_scrolled_into_view(window, project, qtbot):
    editor = window.open_path(project / "scenarios" / "mbt" / "adv-combined-arms.yaml")
    editor.tabs.setCurrentIndex(editor.tabs.indexOf(editor.extension_page))
    area = editor.extension_page
    qtbot.wait(20)
    field = editor.extension_form.fields["/extension/objective_turns"]

    def in_view() -> bool:
        top = field.editor.mapTo(area.viewport(), QPoint(0, 0)).y()
        return 0 <= top and top + field.editor.height() <= area.viewport().height()

    area.verticalScrollBar().setValue(area.verticalScrollBar().maximum())
    assert not in_view(), "scrolled away from the field"
    assert not field.set_text("99"), "beyond the rules' range: refused"
    assert field.problem and in_view(), "the refused field is scrolled into view"


def test_f8_raises_the_test_play_dock_tall_enough_for_results(window, project, qtbot):
    window.resize(1366, 768)
    qtbot.wait(50)
    window.open_path(project / "scenarios" / "mbt" / "hasty-defense.yaml")
    low = window.testplay_dock.height()
    window.show_testplay()
    qtbot.wait(50)
    assert window.testplay_dock.height() >= min(int(window.height() * 0.45), low + 150)
    assert window.testplay.scenario_box.currentData() == "hasty-defense"


def test_range_hints_read_as_words():
    assert values.hint(FieldSpec("integer", {}, minimum=0)) == "at least 0"
    assert values.hint(FieldSpec("integer", {}, maximum=6)) == "at most 6"
    assert values.hint(FieldSpec("integer", {}, minimum=1, maximum=20)) == "1..20"


def test_a_finding_on_the_scenario_map_is_shown_close_enough_to_read(window, project, qtbot):
    editor = window.open_path(project / "scenarios" / "mbt" / "delaying-action.yaml")
    qtbot.wait(20)
    editor.view.fit_all()
    assert editor.view.zoom_level() < editor.view.READABLE_ZOOM, "two boards fitted: too small to read ids"
    label = editor.doc.get("/sides/0/forces/0/setup/hexes/0")
    editor.focus_pointer("/sides/0/forces/0/setup/hexes/0")
    assert editor.view.zoom_level() >= editor.view.READABLE_ZOOM
    centre = editor.view.mapFromScene(*editor.geometry.centre(editor.geometry.key_of_label(label)))
    assert editor.view.viewport().rect().contains(centre), "the marked hex is in view"
    assert editor.scene.layer("focus")


def test_boards_are_one_table_and_rotate_acts_on_the_selected_row(window, project):
    editor = _new_scenario(window)
    editor.tabs.setCurrentIndex(1)
    editor.map_box.setCurrentIndex(editor.map_box.findData("board-4"))
    QTest.mouseClick(next(b for b in editor.findChildren(QPushButton) if b.text() == "Add board"),
                     Qt.MouseButton.LeftButton)
    table = editor.boards_table
    assert table.table.rowCount() == 2 and not hasattr(editor, "board_list"), "no second list of the same boards"
    hidden = [b for b in table.findChildren(QPushButton) if b.text() in ("Add row", "Remove row")]
    assert hidden and not any(b.isVisibleTo(editor) for b in hidden), "boards are added by Add board only"
    editor.select_board(0)
    QTest.mouseClick(next(b for b in editor.findChildren(QPushButton) if b.text() == "Rotate 180°"),
                     Qt.MouseButton.LeftButton)
    assert editor.doc.get("/boards/0/rotate") == 180 and editor.doc.get("/boards/1/rotate") in (None, 0)
    assert table.current_row() == 0, "the selection stays on the turned board"


def test_the_selected_slots_form_shows_whole_in_the_toe_editor(window, project, qtbot):
    window.resize(1366, 768)
    editor = window.open_path(project / "toe" / "mbt" / "us-cav-troop.yaml")
    qtbot.wait(20)
    form, area = editor.form, editor.form_area
    assert form is not None
    assert area.viewport().height() >= form.sizeHint().height(), "every field of the slot, not three lines"
    assert not area.verticalScrollBar().isVisible()


def test_a_slots_unit_is_chosen_from_the_rule_systems_cards(window, project):
    editor = window.open_path(project / "toe" / "mbt" / "us-cav-troop.yaml")
    field = editor.form.fields[f"{editor.form.pointer}/unit"]
    assert isinstance(field.editor, QComboBox)
    shown = [field.editor.itemText(i) for i in range(field.editor.count())]
    mbt = {e.id for e in window.session.entries() if e.kind == "unit" and e.ruleset == "mbt"}
    assert "m2" in shown and set(shown) - {""} <= mbt, "the MBT cards only"
    assert field.set_text("m2") and editor.doc.get(f"{editor.form.pointer}/unit") == "m2"


def test_a_description_is_edited_as_wrapped_lines(window, project, qtbot):
    from PySide6.QtWidgets import QPlainTextEdit
    editor = window.open_path(project / "scenarios" / "mbt" / "delaying-action.yaml")
    field = editor.general.fields["/description"]
    assert isinstance(field.editor, QPlainTextEdit), "a long text is not one cut-off line"
    assert field.editor.toPlainText() == editor.doc.get("/description")
    field.editor.setFocus()
    field.editor.setPlainText("Two platoons delay\\nthe Soviet advance.")
    editor.general.fields["/turns"].editor.setFocus()  # leaving the field commits it
    qtbot.waitUntil(lambda: editor.doc.get("/description") == "Two platoons delay\\nthe Soviet advance.",
                    timeout=2000)
    editor.doc.undo()
    assert editor.doc.get("/description") != "Two platoons delay\\nthe Soviet advance."
    assert field.editor.toPlainText() == editor.doc.get("/description"), "undo shows the old text"
