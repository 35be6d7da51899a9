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


def test_copy_and_paste_table_rows_with_fresh_ids_and_multi_select_remove(window, project):
    editor = window.open_path(project / "units" / "mbt" / "m1.yaml")
    weapons = editor.form.tables["/body/weapons"]
    n = weapons.table.rowCount()
    weapons.table.selectRow(0)
    assert weapons.copy_rows() == 1
    assert weapons.paste_rows() == 1
    rows = editor.doc.get("/body/weapons")
    assert len(rows) == n + 1 and rows[-1] == rows[0] | {k: rows[-1][k] for k in ("id",) if k in rows[-1]}
    if "id" in rows[0]:
        assert rows[-1]["id"] != rows[0]["id"], "a pasted row gets a fresh id"
    window.act_undo.trigger()
    assert len(editor.doc.get("/body/weapons")) == n, "one paste is one undo step"
    QApplication = __import__("PySide6.QtWidgets", fromlist=["QApplication"]).QApplication
    QApplication.clipboard().setText("not: [rows")
    assert weapons.paste_rows() == 0 and len(editor.doc.get("/body/weapons")) == n


def test_copy_a_hex_and_paste_it_on_another(window, project):
    editor = window.open_path(project / "maps" / "board-2.yaml")
    woods = next(k for k in editor.geometry.keys() if editor.geometry.terrain(k) == "W")
    clear = next(k for k in editor.geometry.keys() if editor.geometry.terrain(k) == "C"
                 and editor.geometry.elevation(k) != editor.geometry.elevation(woods)) if any(
        editor.geometry.terrain(k) == "C" and editor.geometry.elevation(k) != editor.geometry.elevation(woods)
        for k in editor.geometry.keys()) else next(k for k in editor.geometry.keys()
                                                  if editor.geometry.terrain(k) == "C")
    assert editor.copy_hex(woods) == {"terrain": "W", "elevation": editor.geometry.elevation(woods)}
    assert editor.paste_hex(clear)
    assert editor.geometry.terrain(clear) == "W" and editor.geometry.elevation(clear) == editor.geometry.elevation(woods)
    window.act_undo.trigger()
    assert editor.geometry.terrain(clear) == "C", "one paste is one undo step"


def test_copy_a_force_and_paste_it_onto_another_hex(window, project):
    editor = window.open_path(project / "scenarios" / "mbt" / "delaying-action.yaml")
    editor.force_box.setCurrentIndex(0)
    copied = editor.copy_force()
    before = sum(len(s.get("forces") or []) for s in editor.doc.data["sides"])
    target = editor.geometry.key_of_label("2D10")
    assert editor.paste_force(target)
    forces = [f for s in editor.doc.data["sides"] for f in s.get("forces") or []]
    assert len(forces) == before + 1
    new = next(f for f in forces if f["id"] not in {copied["id"]} and f["toe"] == copied["toe"]
               and "2D10" in (f.get("setup") or {}).get("hexes", []))
    assert new["name"] == copied["name"] and new["id"] != copied["id"]
    window.act_undo.trigger()
    assert sum(len(s.get("forces") or []) for s in editor.doc.data["sides"]) == before


def test_recent_documents_are_listed_in_the_file_menu(window, project):
    window.open_path(project / "maps" / "board-2.yaml")
    window.open_path(project / "units" / "mbt" / "m1.yaml")
    assert window.recent_documents()[:2] == ["units/mbt/m1.yaml", "maps/board-2.yaml"]
    titles = [a.text() for a in window.recent_docs_menu.actions()]
    assert titles[:2] == ["units/mbt/m1.yaml", "maps/board-2.yaml"]
    window.close_tab(window.tabs.currentIndex())
    window.recent_docs_menu.actions()[0].trigger()
    assert window.current_editor().doc.path == (project / "units" / "mbt" / "m1.yaml").resolve()


def test_delete_acts_on_every_document_selected_in_the_tree(window, project):
    listed = {str(p) for p in window.tree.visible_paths()}
    unused = [p for p in sorted((project / "units" / "mbt").glob("*.yaml")) if str(p) in listed
              and not window.session.users_of("unit", yaml.safe_load(p.read_text())["id"])]
    spare = unused[:2]  # two cards no TO&E or scenario uses (the sample data grows: found, not named)
    assert len(spare) == 2
    used = project / "units" / "waw" / "us-dragon-sw.yaml"
    told = []
    window.tell = lambda title, text: told.append(text)
    window.ask_yes_no = lambda title, text: True
    window.tree.tree.clearSelection()
    tree = window.tree.tree
    for n, path in enumerate(spare + [used]):  # a click, then Ctrl+clicks, as a user multi-selects
        item = next(i for i in window.tree._all_items() if i.data(0, Qt.ItemDataRole.UserRole) == str(path))
        tree.scrollToItem(item)  # expands its group and brings it into view
        QTest.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.ControlModifier if n else Qt.KeyboardModifier.NoModifier,
                         tree.visualItemRect(item).center())
    assert sorted(window.tree.selected_paths()) == sorted(spare + [used])
    window.tree.tree.setFocus()
    window.act_delete.trigger()
    assert not any(p.exists() for p in spare), "both unused cards are deleted"
    assert used.exists() and told and "waw-lab.yaml" in told[-1], "the used card is refused, its users listed"
