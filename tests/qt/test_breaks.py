"""The three breaks of issue 16, driven through the window's widgets.

1. A new scenario gets victory conditions, special rules and substitutions from the window: "Add row" creates
   an absent list, gives the row a fresh id and the reference columns (side, unit, slot) are drop-downs.
2. Delete and rename see references inside a scenario's rule-system block (see also
   tests/document/test_plugin_references.py for the model layer).
3. Ctrl+D and Edit > Delete act on the item selected in the project tree.
"""
import yaml
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox

from .helpers import click, drop_toe


def _new_scenario(window, project, new_id="probe-at-rasdorf"):
    window.ask_item = lambda title, prompt, items: "mbt" if "Rule" in prompt else items[0]
    window.ask_text = lambda *a, **k: new_id
    from studio.qt import doc_actions
    path = doc_actions.new_document(window, "scenario")
    return path, window.current_editor()


def _errors_of(window, path):
    window.validate_now()
    return [d for d in window.problems.diagnostics if d.file.endswith(path.name) and d.severity.value == "error"]


def test_a_new_scenario_gets_victory_conditions_from_the_window(window, project):
    path, editor = _new_scenario(window, project)
    assert "victory" not in editor.doc.data
    table = editor.victory_form.tables["/victory"]
    QTest.mouseClick(_button(table, "Add row"), Qt.MouseButton.LeftButton)
    QTest.mouseClick(_button(table, "Add row"), Qt.MouseButton.LeftButton)
    rows = editor.doc.data["victory"]
    assert [r["id"] for r in rows] == ["victory-1", "victory-2"]
    assert all(r["side"] == "blue" for r in rows), "a new row starts with the first side, not an empty id"
    side_column = [p for p, _, _ in table.columns].index("side")
    delegate = table.table.itemDelegateForColumn(side_column)
    box = delegate.createEditor(table.table, None, table.table.model().index(0, side_column))
    assert isinstance(box, QComboBox) and [box.itemText(i) for i in range(box.count())] == ["blue", "red"]
    table.set_cell(1, "side", "red")
    assert editor.doc.get("/victory/1/side") == "red"
    editor.doc.undo()
    assert editor.doc.get("/victory/1/side") == "blue"
    editor.set_tool("victory")
    editor.victory_box.setCurrentIndex(0)
    click(editor.view, editor.geometry.key_of_label("2E9"))
    table.set_cell(1, "type", "exit_units")
    table.set_cell(1, "edge", "west")
    window.act_save.trigger()
    saved = yaml.safe_load(path.read_text())["victory"]
    assert saved[0]["id"] == "victory-1" and saved[0]["hexes"] == ["2E9"]
    assert saved[1] == {"id": "victory-2", "type": "exit_units", "side": "blue", "edge": "west"} | \
        {k: v for k, v in saved[1].items() if k not in ("id", "type", "side", "edge")}
    assert not [d for d in _errors_of(window, path) if d.pointer.startswith("/victory")]


def test_special_rules_and_substitutions_from_the_window(window, project):
    path, editor = _new_scenario(window, project)
    rules = editor.rules_form.tables["/special_rules"]
    QTest.mouseClick(_button(rules, "Add row"), Qt.MouseButton.LeftButton)
    rules.set_cell(0, "title", "Night")
    rules.set_cell(0, "text", "Turns 1-2 are night turns.")
    assert editor.doc.data["special_rules"] == [{"id": "special-rule-1", "title": "Night",
                                                 "text": "Turns 1-2 are night turns."}]
    drop_toe(editor, "us-cav-platoon" if editor.source_item("us-cav-platoon") else "us-tank-platoon",
             editor.geometry.key_of_label("2C5"))
    forces = editor.sides_form.tables["/sides"]
    forces.table.selectRow(0)
    force_table = forces.detail.tables["/sides/0/forces"]
    force_table.table.selectRow(0)
    subs = force_table.detail.tables["/sides/0/forces/0/substitutions"]
    QTest.mouseClick(_button(subs, "Add row"), Qt.MouseButton.LeftButton)
    sub = editor.doc.get("/sides/0/forces/0/substitutions/0")
    slots = editor.choices("/sides/0/forces/0/substitutions/0/slot")
    units = editor.choices("/sides/0/forces/0/substitutions/0/unit")
    assert slots and sub["slot"] == slots[0] and sub["unit"] == units[0]
    assert all(not u.startswith("waw") for u in units) and "m1" in " ".join(units)
    window.act_save.trigger()
    assert not [d for d in _errors_of(window, path) if "/substitutions" in d.pointer or "/special_rules" in d.pointer]


def test_first_player_is_a_choice_of_the_sides(window, project):
    _path, editor = _new_scenario(window, project)
    field = editor.general.fields["/first_player"]
    assert isinstance(field.editor, QComboBox)
    assert [field.editor.itemText(i) for i in range(field.editor.count())] == ["blue", "red", "initiative"]
    assert field.set_text("red") is True and editor.doc.get("/first_player") == "red"


def _button(widget, text):
    from PySide6.QtWidgets import QPushButton
    return next(b for b in widget.findChildren(QPushButton) if b.text() == text)


def _dragon_users(project):
    return sorted(p.name for p in (project / "scenarios").rglob("*.yaml")
                  if "us-dragon-sw" in yaml.safe_dump(yaml.safe_load(p.read_text()).get("extension") or {}))


def test_deleting_a_card_used_only_in_scenario_blocks_is_refused_listing_them(window, project):
    card = window.session.find("us-dragon-sw", "unit")
    told = []
    window.tell = lambda title, text: told.append(text)
    window.ask_yes_no = lambda title, text: True
    window.tree.select_path(card)
    window.tree.tree.setFocus()
    window.act_delete.trigger()
    assert card.exists()
    users = _dragon_users(project)
    assert len(users) >= 2 and told and all(name in told[0] for name in users)


def test_renaming_a_card_updates_the_scenario_blocks(window, project):
    card = window.session.find("us-dragon-sw", "unit")
    window.ask_text = lambda *a, **k: "us-dragon-m47"
    window.ask_yes_no = lambda title, text: True  # and the file follows the id
    window.tree.select_path(card)
    window.tree.tree.setFocus()
    window.act_rename.trigger()
    window.act_save_all.trigger()
    assert _dragon_users(project) == []
    for p in (project / "scenarios" / "waw").glob("*.yaml"):
        assert "us-dragon-sw" not in p.read_text()
    assert "us-dragon-m47" in (project / "scenarios" / "waw" / "waw-lab.yaml").read_text()
    assert (project / "units" / "waw" / "us-dragon-m47.yaml").is_file() and not card.exists()


def test_edit_actions_follow_the_tree_selection_not_the_open_tab(window, project):
    opened = project / "maps" / "board-4.yaml"
    window.open_path(opened)
    window.tabs.currentWidget().setFocus()
    chosen = window.session.find("us-dragon-sw", "unit")
    window.tree.select_path(chosen)
    QTest.mouseClick(window.tree.tree.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     window.tree.tree.visualItemRect(window.tree.tree.currentItem()).center())
    asked = []
    window.ask_text = lambda title, prompt, current="": asked.append(current) or None
    QTest.keyClick(window.tree.tree, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert asked and "us-dragon-sw" in asked[0], asked
    told = []
    window.tell = lambda title, text: told.append(text)
    window.ask_yes_no = lambda title, text: True
    window.act_delete.trigger()  # Edit > Delete
    assert chosen.exists() and told and "waw" in told[0]
    assert opened.exists()
    # back in the tab, the actions act on the tab's document again
    window.tabs.currentWidget().setFocus()
    asked.clear()
    window.act_duplicate.trigger()
    assert asked and "board-4" in asked[0]
