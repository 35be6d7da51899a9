"""The TO&E editor: drag and drop in the tree (real drop events), slots, card look-up, totals; saved files."""
import yaml
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDropEvent


def load(path):
    return yaml.safe_load(path.read_text())


def drop(tree, source_item, target_item, where="on"):
    """Deliver a real QDropEvent for dragging ``source_item`` onto ``target_item``."""
    tree.setCurrentItem(source_item)
    mime = tree.model().mimeData([tree.indexFromItem(source_item)])
    rect = tree.visualItemRect(target_item)
    y = {"on": rect.center().y(), "above": rect.top() + 1, "below": rect.bottom() - 1}[where]
    event = QDropEvent(QPointF(rect.center().x(), y), Qt.DropAction.MoveAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    tree.dropEvent(event)


def test_drag_a_slot_into_another_echelon_and_undo(window, project):
    path = project / "toe" / "mbt" / "us-cav-troop.yaml"
    original = load(path)
    editor = window.open_path(path)
    tree = editor.tree
    drop(tree, editor.item_of("/root/slots/1"), editor.item_of("/root/children/2"))
    assert len(editor.doc.history) == 1
    window.act_save.trigger()
    saved = load(path)
    assert [s["id"] for s in saved["root"]["slots"]] == ["cdr"]
    assert [s["id"] for s in saved["root"]["children"][2]["slots"]] == ["itv", "xo"]
    window.act_undo.trigger()
    window.act_save.trigger()
    assert load(path) == original


def test_reorder_echelons_by_dropping_above(window, project):
    path = project / "toe" / "mbt" / "us-cav-troop.yaml"
    editor = window.open_path(path)
    drop(editor.tree, editor.item_of("/root/children/2"), editor.item_of("/root/children/0"), "above")
    window.act_save.trigger()
    assert [c["id"] for c in load(path)["root"]["children"]] == ["itv", "scouts", "tanks"]


def test_add_slot_with_card_lookup_and_totals(window, project):
    path = project / "toe" / "mbt" / "us-cav-troop.yaml"
    editor = window.open_path(path)
    before = sum(int(n) for n in editor.org.topLevelItem(0).text(2).split()[0:1])
    editor.select("/root/children/2")
    editor.add_slot()
    assert editor.selected_pointer() == "/root/children/2/slots/1"
    index = editor.unit_box.findData("m113")
    editor.unit_box.setCurrentIndex(index)
    editor.unit_box.activated.emit(index)
    assert editor.card_label.text().startswith("M113")
    editor.form.fields["/root/children/2/slots/1/count"].set_text("3")
    after = int(editor.org.topLevelItem(0).text(2).split()[0])
    assert after == before + 3
    assert len(editor.doc.history) == 3
    window.act_save.trigger()
    slot = load(path)["root"]["children"][2]["slots"][1]
    assert slot["unit"] == "m113" and slot["count"] == 3


def test_designations_follow_the_grammar(window, project):
    editor = window.open_path(project / "toe" / "mbt" / "us-cav-troop.yaml")
    labels = [editor.org.topLevelItem(0).child(i).text(0) for i in range(editor.org.topLevelItem(0).childCount())]
    assert labels[0].startswith("1/1 Trp") and labels[1].startswith("2/1 Trp")


def test_refused_moves_change_nothing(window, project):
    editor = window.open_path(project / "toe" / "mbt" / "us-cav-troop.yaml")
    drop(editor.tree, editor.item_of("/root/children/2"), editor.item_of("/root/children/2/slots/0"))  # into itself
    drop(editor.tree, editor.item_of("/root/slots/0"), editor.item_of("/root/children/0"), "above")
    assert not editor.doc.dirty


def test_toe_header_fields_name_nation_years_notes(window, project):
    path = project / "toe" / "mbt" / "us-tank-platoon.yaml"
    editor = window.open_path(path)
    form = editor.header_form
    assert {"/name", "/nation", "/notes", "/years/start"} <= set(form.fields)
    form.fields["/name"].set_text("US tank platoon (M1IP)")
    form.fields["/nation"].set_text("USA")
    form.fields["/years/start"].set_text("1984")
    form.fields["/notes"].set_text("M1IP from 1984.")
    window.act_save.trigger()
    saved = load(path)
    assert (saved["name"], saved["nation"], saved["years"]["start"], saved["notes"]) == \
        ("US tank platoon (M1IP)", "USA", 1984, "M1IP from 1984.")


def test_drag_a_card_from_the_project_tree_onto_an_echelon(window, project):
    path = project / "toe" / "mbt" / "us-cav-troop.yaml"
    editor = window.open_path(path)
    window.tree.select_path(project / "units" / "mbt" / "m113.yaml")
    item = window.tree.tree.currentItem()
    mime = window.tree.tree.mimeData([item])
    target = editor.item_of("/root/children/2")
    rect = editor.tree.visualItemRect(target)
    event = QDropEvent(QPointF(rect.center()), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    editor.tree.dropEvent(event)
    slots = editor.doc.get("/root/children/2/slots")
    assert slots[-1]["unit"] == "m113" and slots[-1]["count"] == 1
    editor.tree.dropEvent(QDropEvent(QPointF(rect.center()), Qt.DropAction.CopyAction, mime,
                                     Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    assert editor.doc.get("/root/children/2/slots")[-1]["count"] == 2, "a second drop adds one more"
    window.act_undo.trigger()
    assert editor.doc.get("/root/children/2/slots")[-1]["count"] == 1
    window.tree.select_path(project / "units" / "waw" / "su-t64.yaml")
    foreign = window.tree.tree.mimeData([window.tree.tree.currentItem()])
    editor.tree.dropEvent(QDropEvent(QPointF(rect.center()), Qt.DropAction.CopyAction, foreign,
                                     Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    assert all(s["unit"] != "su-t64" for s in editor.doc.get("/root/children/2/slots")), "other rule system refused"


def test_f2_in_a_table_cell_edits_the_cell_and_does_not_rename(window, project):
    from PySide6.QtTest import QTest
    editor = window.open_path(project / "units" / "mbt" / "m1.yaml")
    asked = []
    window.ask_text = lambda *a, **k: asked.append(a) or None
    table = editor.form.tables["/body/weapons"].table
    table.setFocus()
    table.setCurrentCell(0, 0)
    QTest.keyClick(table, Qt.Key.Key_F2)
    assert not asked and table.state() == table.State.EditingState
