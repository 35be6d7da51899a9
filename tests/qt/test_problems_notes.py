"""The Problems panel while a file has schema errors: the rule checks of the rest still show, and a bar says what
was left out (issue 16: "rule checks do not run while the same file has schema errors anywhere")."""
from studio.document.ops import Set


def test_rule_findings_stay_beside_a_schema_error_and_the_bar_explains(window, project):
    editor = window.open_path(project / "scenarios" / "mbt" / "hasty-defense.yaml")
    editor.doc.apply("bad facing", [Set("/sides/0/forces/0/setup/facing", "QQ")])
    window.validate_now()
    assert window.problems.notice_text() == "", "no bar while every file validates"
    editor.doc.apply("half-made row", [Set("/victory/1/id", "")])
    window.validate_now()
    codes = {d.code for d in window.problems.shown() if d.file == editor.doc.display}
    assert {"schema.pattern", "mbt.facing"} <= codes, "the MBT check still reports the facing"
    bar = window.problems.notice_text()
    assert editor.doc.display in bar and "/victory/1" in bar and "rest of the file" in bar
    # the scenario's own Findings list starts with the note
    first = editor.diag_list.item(0).text()
    assert "rest of the file" in first and editor.diag_list.count() == len(editor.diagnostics) + 1
    # the link in the bar goes to the part that was left out
    window.tabs.setCurrentIndex(-1)
    window.problems.notice.linkActivated.emit("0")
    assert window.current_editor() is editor
    assert editor.tabs.tabText(editor.tabs.currentIndex()) == "Victory"
    # fixing the row removes the bar
    editor.doc.apply("id", [Set("/victory/1/id", "sov-town")])
    window.validate_now()
    assert window.problems.notice_text() == "" and editor.diag_list.count() == len(editor.diagnostics)


def test_withheld_checks_are_said_in_the_bar(window, project):
    editor = window.open_path(project / "scenarios" / "mbt" / "hasty-defense.yaml")
    editor.doc.apply("bad id", [Set("/id", "Not An Id")])
    window.validate_now()
    assert "withheld" in window.problems.notice_text()


def test_background_validation_carries_the_notes(make_window, project, qtbot):
    window = make_window(project)
    editor = window.open_path(project / "scenarios" / "mbt" / "hasty-defense.yaml")
    editor.doc.apply("half-made row", [Set("/victory/1/id", "")])
    window.validate_in_background()
    qtbot.waitUntil(lambda: window._validation_thread is None and bool(window.notes), timeout=20_000)
    assert "/victory/1" in window.problems.notice_text()
