"""The scenario editor: forces dragged from the TO&E list onto the map, zones, victory hexes, boards, options."""
import yaml
from PySide6.QtCore import Qt

from .helpers import drop_toe, stroke


def load(path):
    return yaml.safe_load(path.read_text())


def open_scenario(window, project, name="delaying-action"):
    editor = window.open_path(project / "scenarios" / "mbt" / f"{name}.yaml")
    editor.view.fit()
    return editor


def test_drag_a_platoon_onto_the_map_adds_its_setup_hexes(window, project):
    path = project / "scenarios" / "mbt" / "delaying-action.yaml"
    original = load(path)
    editor = open_scenario(window, project)
    target = editor.geometry.key_of_label("2C5")
    event = drop_toe(editor, "us-tank-platoon", target)
    assert event.isAccepted()
    assert len(editor.doc.history) == 1
    window.act_save.trigger()
    saved = load(path)
    us = next(s for s in saved["sides"] if s["id"] == "us")
    before = next(s for s in original["sides"] if s["id"] == "us")
    assert len(us["forces"]) == len(before["forces"]) + 1
    force = us["forces"][-1]
    assert force["toe"] == "us-tank-platoon"
    hexes = force["setup"]["hexes"]
    assert hexes[0] == "2C5" and len(hexes) == 4 and len(set(hexes)) == 4      # one hex per tank
    keys = [editor.geometry.key_of_label(h) for h in hexes]
    assert all(k is not None for k in keys)
    assert max(editor.geometry.map.offset(k)[0] for k in keys) - min(editor.geometry.map.offset(k)[0]
                                                                        for k in keys) <= 2, "placed together"
    assert editor.scene.layer("setup:0"), "the new setup hexes are drawn"
    window.act_undo.trigger()
    window.act_save.trigger()
    assert load(path) == original


def test_soviet_toe_goes_to_the_soviet_side(window, project):
    editor = open_scenario(window, project)
    toe = next(i for i in range(editor.source.topLevelItemCount())
               if editor.source.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole).startswith("sov"))
    toe_id = editor.source.topLevelItem(toe).data(0, Qt.ItemDataRole.UserRole)
    drop_toe(editor, toe_id, editor.geometry.key_of_label("4C5"))
    sov = next(s for s in editor.doc.data["sides"] if s["id"] == "sov")
    assert sov["forces"][-1]["toe"] == toe_id


def test_paint_a_setup_zone_in_one_stroke_and_pick_victory_hexes(window, project):
    path = project / "scenarios" / "mbt" / "delaying-action.yaml"
    editor = open_scenario(window, project)
    force = editor.force_box.findData("/sides/1/forces/0")
    editor.force_box.setCurrentIndex(force)
    editor.set_tool("zone")
    labels = ["4A1", "4A2", "4A3", "4A4"]
    stroke(editor.view, [editor.geometry.key_of_label(x) for x in labels])
    assert len(editor.doc.history) == 1
    editor.set_tool("victory")
    editor.victory_box.setCurrentIndex(editor.victory_box.findData(1))
    stroke(editor.view, [editor.geometry.key_of_label("4I8")])
    stroke(editor.view, [editor.geometry.key_of_label("2I8")])  # toggles the existing one off
    window.act_save.trigger()
    saved = load(path)
    assert saved["sides"][1]["forces"][0]["setup"]["zone"] == labels
    assert saved["victory"][1]["hexes"] == ["4I8"]


def test_boards_add_rotate_remove(window, project):
    path = project / "scenarios" / "mbt" / "delaying-action.yaml"
    editor = open_scenario(window, project)
    before = len(editor.geometry.map.label_of)
    editor.select_board(1)
    editor.rotate_board()
    assert "rotate" not in editor.doc.data["boards"][1]
    assert len(editor.geometry.map.label_of) == before
    editor.rotate_board()
    editor.map_box.setCurrentIndex(editor.map_box.findData("board-2"))
    editor.add_board()
    assert "appears on two boards" in editor.status_label.text() or editor.assembly_error
    window.act_undo.trigger()
    assert not editor.assembly_error
    window.act_save.trigger()
    assert load(path)["boards"][1]["rotate"] == 180


def test_rule_option_and_general_fields(window, project):
    path = project / "scenarios" / "mbt" / "delaying-action.yaml"
    editor = open_scenario(window, project)
    assert editor.option_boxes, "the ruleset's options are offered"
    oid, box = next(iter(editor.option_boxes.items()))
    box.setCurrentIndex(box.count() - 1)
    box.activated.emit(box.count() - 1)
    editor.general.fields["/turns"].set_text("10")
    window.act_save.trigger()
    saved = load(path)
    assert saved["turns"] == 10 and oid in saved["options"]


def test_diagnostics_side_panel_and_jump_to_hex(window, project):
    editor = open_scenario(window, project)
    from studio.document.ops import Set
    editor.doc.apply("bad", [Set("/sides/0/forces/0/setup/hexes/0", "9Z99")])
    window.validate_now()
    assert editor.diag_list.count() >= 1
    assert any("9Z99" in editor.diag_list.item(i).text() for i in range(editor.diag_list.count()))
    editor.focus_pointer("/victory/1/hexes/0")
    assert editor.scene.layer("focus")


def test_reinforcement_entry_hexes_and_schedule(window, project):
    path = project / "scenarios" / "mbt" / "delaying-action.yaml"
    editor = open_scenario(window, project)
    editor.force_box.setCurrentIndex(editor.force_box.findData("/sides/0/forces/0"))   # set up on the map
    editor.set_tool("entry")
    stroke(editor.view, [editor.geometry.key_of_label("2A5")])
    stroke(editor.view, [editor.geometry.key_of_label("2A6")])
    editor.sides_form.tables["/sides"].table.selectRow(0)
    forces = editor.sides_form.tables["/sides"].detail.tables["/sides/0/forces"]
    forces.table.selectRow(0)
    forces.detail.fields["/sides/0/forces/0/entry/turn"].set_text("3")
    rows = [editor.reinforcements.topLevelItem(i).text(0) for i in range(editor.reinforcements.topLevelItemCount())]
    assert "3" in rows
    window.act_save.trigger()
    entry = load(path)["sides"][0]["forces"][0]["entry"]
    assert entry == {"turn": 3, "hexes": ["2A5", "2A6"]}
