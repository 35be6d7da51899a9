"""Main window: tree filter, Problems double-click, title marker, autosave + recovery, recent projects,
rename/delete with reference check, screenshot mode, and the PySide6 6.12 void-setter regression."""
import yaml

from studio.document.ops import Set

from .helpers import drop_toe


def test_tree_filter_and_open(window, project):
    window.tree.filter.setText("board-4")
    visible = window.tree.visible_paths()
    assert visible and all("board-4" in p.name for p in visible)
    window.tree.filter.setText("")
    assert len(window.tree.visible_paths()) > len(visible)
    window.tree.filter.setText("waw soviet afv")
    soviet = window.tree.visible_paths()
    assert soviet and all("waw" in str(p) for p in soviet)
    editor = window.open_path(visible[0])
    assert window.tabs.currentWidget() is editor
    assert window.open_path(visible[0]) is editor, "opening twice reuses the tab"


def test_problems_panel_is_live_and_double_click_jumps_to_the_field(window, project):
    editor = window.open_path(project / "maps" / "board-4.yaml")
    window.validate_now()
    before = len(window.problems.diagnostics)
    editor.doc.apply("break", [Set("/terrain/2", "C C ZZ")])
    window.validate_now()
    mine = [d for d in window.problems.shown() if d.file == editor.doc.display and d.pointer == "/terrain/2"]
    assert mine and mine[0].line > 0
    assert len(window.problems.diagnostics) > before
    assert [d for d in editor.diagnostics if d.pointer == "/terrain/2"], "the editor gets its file's findings"
    window.tabs.setCurrentIndex(-1)
    row = window.problems.shown().index(mine[0])
    window.problems.activate_row(row)
    assert window.current_editor() is editor
    focus = editor.scene.layer("focus")
    assert len(focus) == editor.geometry.board.columns, "the whole faulty row is marked"
    window.act_undo.trigger()
    window.validate_now()
    assert not [d for d in window.problems.diagnostics if d.pointer == "/terrain/2" and d.file == editor.doc.display]


def test_title_marks_unsaved_changes(window, project):
    editor = window.open_path(project / "maps" / "board-2.yaml")
    assert "[*]" in window.windowTitle() and not window.isWindowModified()
    editor.doc.apply("rename", [Set("/name", "Board Two")])
    assert window.isWindowModified() and window.tabs.tabText(window.tabs.currentIndex()).endswith("*")
    assert window.act_undo.isEnabled() and "rename" in window.act_undo.text()
    window.act_save.trigger()
    assert not window.isWindowModified()
    assert yaml.safe_load((project / "maps" / "board-2.yaml").read_text())["name"] == "Board Two"


def test_autosave_then_crash_then_recovery(make_window, project):
    first = make_window(project)
    editor = first.open_path(project / "maps" / "board-2.yaml")
    editor.doc.apply("rename", [Set("/name", "Unsaved name")])
    assert first.autosave()
    original = (project / "maps" / "board-2.yaml").read_text()
    # crash: the first window disappears without saving; a new one starts on the project
    second = make_window(project)
    asked = []
    second.ask_yes_no = lambda title, text: asked.append(text) or True
    restored = second.offer_recovery()
    assert restored == [(project / "maps" / "board-2.yaml").resolve()]
    assert "board-2.yaml" in asked[0]
    doc = second.current_editor().doc
    assert doc.data["name"] == "Unsaved name" and doc.dirty and second.isWindowModified()
    assert (project / "maps" / "board-2.yaml").read_text() == original, "recovery does not write the file"
    second.act_save.trigger()
    assert yaml.safe_load((project / "maps" / "board-2.yaml").read_text())["name"] == "Unsaved name"
    assert second.session.recoverable() == []


def test_declined_recovery_discards_the_side_file(make_window, project):
    first = make_window(project)
    first.open_path(project / "maps" / "board-2.yaml").doc.apply("x", [Set("/name", "X")])
    first.autosave()
    second = make_window(project)
    second.ask_yes_no = lambda title, text: False
    assert second.offer_recovery() == []
    assert second.session.recoverable() == []


def test_recent_projects_are_remembered(window, project, settings):
    assert window.recent_projects()[0] == str(project.resolve())
    assert [a.text() for a in window.recent_menu.actions()][0] == str(project.resolve())


def test_rename_id_follows_references_and_delete_is_refused_while_used(window, project):
    scenario = next(p for p in (project / "scenarios").rglob("*.yaml"))
    data = yaml.safe_load(scenario.read_text())
    board_id = data["boards"][0]["map"]
    map_path = window.session.find(board_id, "map")
    told = []
    window.tell = lambda title, text: told.append(text)
    window.ask_yes_no = lambda title, text: True
    from studio.qt import doc_actions
    assert not doc_actions.delete(window, map_path)
    assert map_path.exists() and scenario.name in told[0]
    window.ask_text = lambda *a, **k: f"{board_id}-renamed"
    window.ask_yes_no = lambda title, text: title != "Rename the file too"
    changed = doc_actions.rename(window, map_path)
    assert {d.path.resolve() for d in changed} >= {map_path.resolve(), scenario.resolve()}
    window.act_save_all.trigger()
    assert yaml.safe_load(scenario.read_text())["boards"][0]["map"] == f"{board_id}-renamed"


def test_bad_document_does_not_crash_the_window(window, project):
    broken = project / "maps" / "broken.yaml"
    broken.write_text("kind: map\nid: [unclosed\n")
    window.session.refresh()
    window.refresh_tree()
    assert window.open_path(broken) is None
    assert "Cannot open" in window.statusBar().currentMessage()
    raw = window.tabs.currentWidget()
    assert raw.path == broken.resolve() and "unclosed" in raw.text.toPlainText()
    raw.text.setPlainText("kind: map\nid: [unclosed\n")
    assert not raw.save() and "still not readable" in raw.problem.text()
    window.validate_now()
    assert any(d.file.endswith("broken.yaml") for d in window.problems.diagnostics)
    odd = project / "maps" / "odd.yaml"
    odd.write_text("kind: map\nid: odd\nname: Odd\nruleset: mbt\nhex: {columns: -3, rows: many}\nterrain: 7\n")
    window.session.refresh()
    editor = window.open_path(odd)
    assert editor is not None, "an invalid map still opens"


def test_a_broken_file_is_repaired_as_text_and_reopened_as_a_document(window, project):
    path = project / "maps" / "board-4.yaml"
    good = path.read_text()
    path.write_text(good.replace("kind: map", "kind: map\n  oops: [", 1))
    window.session.refresh()
    assert window.open_path(path) is None
    raw = window.tabs.currentWidget()
    raw.text.setPlainText(good)
    assert raw.save()
    editor = window.current_editor()
    assert editor is not None and editor.doc.path == path.resolve() and hasattr(editor, "scene")
    assert path.read_text() == good


def test_live_validation_runs_in_the_background(make_window, project, qtbot):
    window = make_window(project)
    window.live_validation = True
    editor = window.open_path(project / "maps" / "board-4.yaml")
    editor.doc.apply("break", [Set("/terrain/2", "C C ZZ")])
    qtbot.waitUntil(lambda: any(d.pointer == "/terrain/2" for d in window.problems.diagnostics), timeout=30_000)
    window.act_undo.trigger()
    qtbot.waitUntil(lambda: not any(d.pointer == "/terrain/2" and d.file == editor.doc.display
                                    for d in window.problems.diagnostics), timeout=30_000)
    window.close()


def test_print_preview_without_the_module_says_so(window, monkeypatch):
    import sys
    told = []
    window.tell = lambda title, text: told.append(text)
    monkeypatch.setitem(sys.modules, "studio.qt.print_preview", None)
    window.open_path(window.session.find("m1", "unit"))
    window.act_print.trigger()
    assert told and "not available" in told[0]


def test_print_preview_opens_for_the_current_card(window, project, monkeypatch):
    from studio.qt import print_preview
    shown = []
    monkeypatch.setattr(print_preview.PrintPreviewDialog, "exec", lambda self: shown.append(self) or 0)
    told = []
    window.tell = lambda title, text: told.append(text)
    window.act_print.trigger()
    assert told and not shown, "nothing to print without a document"
    window.open_path(project / "units" / "mbt" / "m1.yaml")
    window.act_print.trigger()
    assert len(shown) == 1 and "m1" in shown[0].windowTitle()


def test_screenshot_mode_writes_a_png(project, tmp_path, qapp):
    from studio.qt.app import run
    out = tmp_path / "shot.png"
    assert run(str(project), screenshot=str(out), open_doc="board-2") == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert run(str(project), screenshot=str(tmp_path / "x.png"), open_doc="no-such-doc") == 2
    assert run(str(tmp_path / "nowhere"), screenshot=str(tmp_path / "y.png")) == 2


def test_screenshot_mode_at_1366x768_with_the_unit_table(project, tmp_path, qapp, monkeypatch):
    from PySide6.QtGui import QImage
    from studio.qt.app import run
    monkeypatch.setenv("STUDIO_WINDOW_SIZE", "1366x768")
    out = tmp_path / "units.png"
    assert run(str(project), screenshot=str(out), open_doc="units:waw") == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1366, 768), "nothing forces the window wider than the screen"
    assert run(str(project), screenshot=str(tmp_path / "r.png"), open_doc="replay:no-such-scenario") == 2


def test_void_setter_ten_thousand_times(qapp):
    """PySide6 6.12.0 corrupted None's refcount on void calls and aborted after a few thousand (DESIGN 10)."""
    import sys

    from PySide6.QtWidgets import QLabel
    label = QLabel()
    before = sys.getrefcount(None)
    for i in range(10_000):
        label.setText("x")
        label.setVisible(False)
    after = sys.getrefcount(None)
    assert label.text() == "x"
    assert abs(after - before) < 1000


def test_new_scenario_then_place_a_platoon_and_save(window, project):
    """User story 1, steps 1-4: a new MBT scenario, boards assembled, a platoon dragged onto the map."""
    window.ask_item = lambda title, prompt, items: "mbt" if "Rule" in prompt else items[0]
    window.ask_text = lambda *a, **k: "probe-at-rasdorf"
    from studio.qt import doc_actions
    path = doc_actions.new_document(window, "scenario")
    assert path == (project / "scenarios" / "mbt" / "probe-at-rasdorf.yaml").resolve()
    editor = window.current_editor()
    editor.map_box.setCurrentIndex(editor.map_box.findData("board-4"))
    editor.add_board()
    editor.select_board(1)
    editor.rotate_board()
    assert not editor.assembly_error and editor.geometry.key_of_label("4K3") is not None
    drop_toe(editor, "us-tank-platoon", editor.geometry.key_of_label("2C5"))
    window.act_save.trigger()
    window.validate_now()
    import yaml
    saved = yaml.safe_load(path.read_text())
    assert saved["boards"][1] == {"map": "board-4", "at": [20, 0], "rotate": 180}
    assert saved["sides"][0]["forces"][0]["setup"]["hexes"][0] == "2C5"
    assert not [d for d in window.problems.diagnostics if d.file.endswith("probe-at-rasdorf.yaml")
                and d.severity.value == "error"]


def test_closing_a_tab_with_discarded_edits_forgets_them(window, project):
    path = project / "maps" / "board-4.yaml"
    editor = window.open_path(path)
    editor.doc.apply("break", [Set("/terrain/2", "C C ZZ")])
    window.validate_now()
    assert any(d.pointer == "/terrain/2" for d in window.problems.diagnostics)
    window.ask_save = lambda name: "discard"
    assert window.close_tab(window.tabs.indexOf(editor))
    window.validate_now()
    assert not any(d.pointer == "/terrain/2" and d.file == editor.doc.display for d in window.problems.diagnostics)
    assert not window.isWindowModified()
    reopened = window.open_path(path)
    assert reopened.doc.get("/terrain/2") != "C C ZZ" and not reopened.doc.dirty


def test_save_as_writes_a_new_file_and_follows_it(window, project):
    import yaml as _yaml
    path = project / "maps" / "board-4.yaml"
    editor = window.open_path(path)
    editor.doc.apply("id", [Set("/id", "board-4-copy"), Set("/name", "Copy")])
    target = project / "maps" / "board-4-copy.yaml"
    window.ask_save_path = lambda current: str(target)
    window.act_save_as.trigger()
    assert _yaml.safe_load(target.read_text())["name"] == "Copy"
    assert _yaml.safe_load(path.read_text())["id"] == "board-4", "the original stays"
    editor.doc.apply("name", [Set("/name", "Copy 2")])
    window.validate_now()
    assert not [d for d in window.problems.diagnostics if d.code == "ref.duplicate-id"]
    window.act_save.trigger()
    assert _yaml.safe_load(target.read_text())["name"] == "Copy 2"
    assert "board-4-copy.yaml" in window.windowTitle()
