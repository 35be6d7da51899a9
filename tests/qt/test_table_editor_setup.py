"""Story 5 in the table editor: units placed on the table are saved as a position document of a scenario
played on that table, atomically, and the editor says whether it sets up (studio.rules.position)."""
from __future__ import annotations

import yaml
import pytest

from studio.document.session import ProjectSession
from studio.qt.editors.table_editor import open_table_editor
from studio.rules.position import load_position

from .test_table_editor import choose, click


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


def test_scenarios_of_the_table_are_offered(editor):
    items = [editor.scenario_box.itemText(i) for i in range(editor.scenario_box.count())]
    assert items == ["bfops-meeting-at-the-ford", "bfops-village-defence"]


def test_save_setup_writes_a_position_that_sets_up(editor, project):
    editor.set_tool("unit")
    choose(editor.card_box, "nato-m60a1")
    choose(editor.side_box, "nato")
    click(editor, 30.02, 10.01)
    choose(editor.card_box, "wp-t62")
    choose(editor.side_box, "warpac")
    click(editor, 30.0, 30.0)
    choose(editor.scenario_box, "bfops-meeting-at-the-ford")
    written = editor.save_setup()
    assert written is not None and written.is_file() and written.parent == project / "positions"
    data = yaml.load(written.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    assert data["kind"] == "position" and data["scenario"] == "bfops-meeting-at-the-ford"
    assert data["turn"] == 1 and data["phase"] == "command"
    assert [(u["card"], u["side"], u["x"], u["y"]) for u in data["units"]] == [
        ("nato-m60a1", "nato", 30.0, 10.0), ("wp-t62", "warpac", 30.0, 30.0)]
    assert "sets up in scenario 'bfops-meeting-at-the-ford'" in editor.status.text()
    state = load_position(written, project).state
    assert sorted((u.card, u.x, u.y) for u in state.units) == [("nato-m60a1", 30.0, 10.0), ("wp-t62", 30.0, 30.0)]
    assert not editor.units_doc.dirty


def test_save_setup_reports_a_unit_the_scenario_cannot_place(editor, project):
    editor.units_doc.apply("Place unit", [__import__("studio.qt.table.logic", fromlist=["x"]).place_unit_op(
        [], "nato-m60a1", "red-army", 10.0, 10.0, 0.0)])
    written = editor.save_setup(project / "positions" / "odd-setup.yaml")
    assert written is not None and written.is_file()                      # the user's set-up is kept
    assert "does not set up yet" in editor.status.text()


def test_save_setup_io_error_is_a_message(editor, project):
    (project / "blocked").write_text("a file, not a folder", encoding="utf-8")
    assert editor.save_setup(project / "blocked" / "setup.yaml") is None
    assert editor.status.text().startswith("Set-up not saved:")
