"""The unit table (story 2's main view): many cards in a grid, sorted, filtered, edited with undo."""
import yaml
from PySide6.QtTest import QTest


def load(path):
    return yaml.safe_load(path.read_text())


def open_table(window, ruleset="waw"):
    table = window.open_unit_table(ruleset)
    assert window.tabs.currentWidget() is table and table.table.ruleset == ruleset
    return table


def test_every_card_of_the_rule_system_is_a_row_with_its_values(window, project):
    table = open_table(window)
    cards = sorted(p.stem for p in (project / "units" / "waw").glob("*.yaml"))
    assert sorted(table.visible_ids()) == cards
    armor = table.column_of("/body/full/armor")
    row = table.table.find_row("su-t64")
    assert table.table.text(row, armor) == str(load(project / "units" / "waw" / "su-t64.yaml")["body"]["full"]["armor"])


def test_filter_soviet_afvs_and_sort_by_armor(window, project):
    table = open_table(window)
    QTest.keyClicks(table.filter, "alliance afv")
    ids = table.visible_ids()
    assert "su-t64" in ids and "su-t72" in ids and not any(i.startswith("us-") for i in ids)
    assert table.count.text().startswith(f"{len(ids)} of ")
    table.sort_by("/body/full/armor", descending=True)
    armor = table.column_of("/body/full/armor")
    shown = [table.proxy.index(r, armor).data() for r in range(table.proxy.rowCount())]
    numbers = [int(x) for x in shown if x]
    assert numbers == sorted(numbers, reverse=True) and len(numbers) >= 3


def test_cell_edits_are_undoable_and_saved_with_save_all(window, project):
    path = project / "units" / "waw" / "su-t64.yaml"
    before = load(path)["body"]["full"]
    table = open_table(window)
    assert table.edit("su-t64", "/body/full/armor", "6")
    assert table.edit("su-t72", "/body/full/save", "5")
    assert window.isWindowModified() and window.act_undo.isEnabled()
    assert window.act_undo.iconText() == "Undo"
    window.act_undo.trigger()                       # the last edit (su-t72) goes first
    t72 = window.session.open_document(project / "units" / "waw" / "su-t72.yaml")
    assert t72.get("/body/full/save") == load(project / "units" / "waw" / "su-t72.yaml")["body"]["full"]["save"]
    assert table.table.text(table.table.find_row("su-t64"), table.column_of("/body/full/armor")) == "6"
    window.act_redo.trigger()
    window.act_save_all.trigger()
    assert load(path)["body"]["full"]["armor"] == 6 and load(path)["body"]["full"]["save"] == before["save"]
    assert load(project / "units" / "waw" / "su-t72.yaml")["body"]["full"]["save"] == 5


def test_a_refused_value_changes_nothing_and_says_why(window, project):
    table = open_table(window)
    messages = []
    table.status_message.connect(messages.append)
    assert not table.edit("su-t64", "/body/full/armor", "thick")
    assert messages and "whole number" in messages[0]
    assert not window.session.dirty
    assert not table.edit("su-t64", "/id", "t64-new"), "the id is renamed with Rename id, not typed over"
    assert "Rename id" in messages[-1]


def test_an_open_card_editor_and_the_table_show_the_same_edit(window, project):
    editor = window.open_path(project / "units" / "waw" / "su-t64.yaml")
    table = open_table(window)
    table.edit("su-t64", "/body/full/armor", "7")
    assert editor.form.fields["/body/full/armor"].editor.text() == "7"
    editor.form.fields["/body/full/armor"].set_text("3")
    table.refresh()
    assert table.table.text(table.table.find_row("su-t64"), table.column_of("/body/full/armor")) == "3"
