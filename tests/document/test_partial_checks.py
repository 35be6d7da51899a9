"""Rule checks keep running on the parts of a file that validate while another part has schema errors (issue 16).

The session validates unsaved edits as the Problems panel shows them: a rejected victory row must not hide the
MBT checks of the forces; their findings point at the real file's lines, even when an earlier list item was left
out; the note says what was left out, or why nothing could be checked.
"""
from studio.document.ops import Insert, Set
from studio.document.session import ProjectSession
from studio.model.validate import original_pointer, without

HASTY = "scenarios/mbt/hasty-defense.yaml"


def _open(project):
    session = ProjectSession(project)
    return session, session.open_document(project / HASTY)


def _line_of(doc, needle: str) -> int:
    return next(i for i, line in enumerate(doc.text().splitlines(), 1) if needle in line)


def test_plugin_checks_run_beside_a_schema_error_with_a_note(project):
    session, doc = _open(project)
    doc.apply("bad facing", [Set("/sides/0/forces/0/setup/facing", "QQ")])
    before = [d.code for d in session.validate().diagnostics if d.file.endswith("hasty-defense.yaml")]
    assert "mbt.facing" in before
    doc.apply("bad victory", [Set("/victory/1/id", "")])
    result = session.validate()
    mine = [d for d in result.diagnostics if d.file.endswith("hasty-defense.yaml")]
    assert {"schema.pattern", "mbt.facing"} <= {d.code for d in mine}
    facing = next(d for d in mine if d.code == "mbt.facing")
    assert facing.line == _line_of(doc, "facing: QQ")
    notes = [n for n in result.notes if n.file.endswith("hasty-defense.yaml")]
    assert [n.code for n in notes] == ["checks.partial"]
    assert "/victory/1" in notes[0].message and notes[0].pointer == "/victory/1"
    assert not any(n.code == "checks.partial" for n in result.diagnostics), "notes are kept apart"


def test_findings_after_a_left_out_list_item_point_at_the_real_item(project):
    session, doc = _open(project)
    # the first US force is rejected (its id is a number: left out with it); the second one's facing is wrong
    doc.apply("junk", [Set("/sides/0/forces/0/id", 5), Set("/sides/0/forces/1/setup/facing", "QQ")])
    mine = [d for d in session.validate().diagnostics if d.file.endswith("hasty-defense.yaml")]
    facing = [d for d in mine if d.code == "mbt.facing"]
    assert facing and facing[0].pointer.startswith("/sides/0/forces/1/")
    assert facing[0].line == _line_of(doc, "facing: QQ")
    # the left-out force's own bad facing is not reported (it was not checked)
    doc.apply("second", [Set("/sides/0/forces/0/setup/facing", "QQ")])
    facing = [d for d in session.validate().diagnostics if d.code == "mbt.facing"
              and d.file.endswith("hasty-defense.yaml")]
    assert [d.pointer.split("/setup")[0] for d in facing] == ["/sides/0/forces/1"]


def test_withheld_when_nothing_short_of_the_file_validates(project):
    session, doc = _open(project)
    doc.apply("no id", [Set("/id", "Not An Id")])
    result = session.validate()
    notes = [n for n in result.notes if n.file.endswith("hasty-defense.yaml")]
    assert [n.code for n in notes] == ["checks.withheld"]
    assert "withheld" in notes[0].message
    assert not any(d.code.startswith("mbt.") for d in result.diagnostics if d.file.endswith("hasty-defense.yaml"))


def test_a_valid_project_has_no_notes(project):
    session = ProjectSession(project)
    assert session.validate().notes == []


def test_pruning_helpers_keep_pointers_honest():
    data = {"a": [{"x": 1}, {"x": 2}, {"x": 3}], "b": {"c": 1, "d": 2}}
    gone = {"/a/0", "/b/d"}
    pruned = without(data, gone)
    assert pruned == {"a": [{"x": 2}, {"x": 3}], "b": {"c": 1}}
    assert data["a"][0] == {"x": 1} and "d" in data["b"], "the original data is untouched"
    assert pruned["a"][0] is data["a"][1], "untouched parts are shared, not copied"
    assert original_pointer(data, tuple(gone), "/a/0/x") == "/a/1/x"
    assert original_pointer(data, tuple(gone), "/a/1") == "/a/2"
    assert original_pointer(data, tuple(gone), "/b/c") == "/b/c"


def test_inserting_a_row_without_id_keeps_the_entry_check(project):
    """Story 1.6: the entry-zone error stays visible while a half-made victory row has no id yet."""
    session, doc = _open(project)
    doc.apply("row", [Insert("/victory/-", {"type": "hold_hexes", "side": "us", "points": 1, "hexes": []})])
    result = session.validate()
    mine = [d for d in result.diagnostics if d.file.endswith("hasty-defense.yaml")]
    assert any(d.code == "schema.missing" for d in mine)
    assert any(n.code == "checks.partial" for n in result.notes)


def test_a_bad_value_in_a_list_leaves_out_the_whole_list_and_no_false_finding(project):
    """One bad hex label: at least the whole set-up list is left out (not the one hex, which would leave the force
    a hex short; here the force, which then has nowhere to be), and the checks say nothing about it until fixed."""
    session, doc = _open(project)
    doc.apply("typo", [Set("/sides/0/forces/0/setup/hexes/1", 7)])
    result = session.validate()
    mine = [d for d in result.diagnostics if d.file.endswith("hasty-defense.yaml")]
    assert [d.code for d in mine if d.severity.value == "error"] == ["schema.type"]
    assert not [d for d in mine if d.code.startswith("mbt.") and d.pointer.startswith("/sides/0/forces/0/setup")]
    note = next(n for n in result.notes if n.file.endswith("hasty-defense.yaml"))
    assert note.pointer in ("/sides/0/forces/0/setup/hexes", "/sides/0/forces/0/setup", "/sides/0/forces/0")
