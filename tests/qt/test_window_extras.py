"""Window conveniences and small fixes of issue 16: text editor undo, map findings go to their hex, layout
at 1366x768, Ctrl+Tab, tree counts."""
import yaml
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.document.ops import Set


def test_ctrl_z_in_the_text_editor_undoes_an_applied_change(window, project):
    path = project / "project.yaml"
    editor = window.open_path(path)
    before = editor.doc.data["name"]
    lines = editor.text.toPlainText().splitlines()
    lines = [("name: Renamed project" if line.startswith("name:") else line) for line in lines]
    editor.text.setPlainText("\n".join(lines) + "\n")
    assert editor.apply_text() and editor.doc.dirty
    editor.text.setFocus()
    QTest.keyClick(editor.text, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not editor.doc.dirty and editor.doc.data["name"] == before
    QTest.keyClick(editor.text, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert editor.doc.dirty, "Ctrl+Shift+Z redoes it"
    editor.text.moveCursor(editor.text.textCursor().MoveOperation.End)
    QTest.keyClicks(editor.text, "# typing")
    QTest.keyClick(editor.text, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert editor.doc.dirty, "while there is unapplied typing, Ctrl+Z undoes the typing"
    assert "# typing" not in editor.text.toPlainText()


def test_a_terrain_finding_goes_to_and_marks_its_hex(window, project):
    editor = window.open_path(project / "maps" / "board-2.yaml")
    row = editor.doc.get("/terrain/5").split()
    row[7] = "ZZ"
    editor.doc.apply("typo", [Set("/terrain/5", " ".join(row))])
    window.validate_now()
    finding = next(d for d in window.problems.diagnostics if d.code == "map.unknown-terrain"
                   and d.file.endswith("board-2.yaml"))
    window.go_to(finding)
    marked = editor.scene.layer("focus")
    assert len(marked) == 1
    centre = marked[0].pos()
    assert (centre.x(), centre.y()) == editor.geometry.centre((7, 5))
    visible = editor.view.visible_scene_rect()
    assert visible.contains(centre), "the view went there"


def test_ctrl_tab_cycles_through_the_tabs(window, project):
    first = window.open_path(project / "maps" / "board-2.yaml")
    second = window.open_path(project / "maps" / "board-4.yaml")
    assert window.tabs.currentWidget() is second
    QTest.keyClick(window, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is first


def test_the_tree_header_counts_what_the_filter_shows(window, project):
    window.tree.filter.setText("waw soviet afv")
    group = next(window.tree.tree.topLevelItem(i) for i in range(window.tree.tree.topLevelItemCount())
                 if window.tree.tree.topLevelItem(i).text(0).startswith("Units"))
    total = len(list((project / "units").rglob("*.yaml")))
    shown = len([p for p in window.tree.visible_paths() if "units" in p.parts])
    assert group.text(0) == f"Units ({shown} of {total})"
    window.tree.filter.setText("")
    assert group.text(0) == f"Units ({total})"


def test_the_title_marks_the_project_not_another_tabs_name(window, project):
    edited = window.open_path(project / "maps" / "board-2.yaml")
    edited.doc.apply("rename", [Set("/name", "Board Two")])
    other = window.open_path(project / "maps" / "board-4.yaml")
    assert window.tabs.currentWidget() is other
    title = window.windowTitle()
    assert title.startswith("maps/board-4.yaml — ") and "board-4.yaml *" not in title
    assert window.isWindowModified() and "[*]" in title
