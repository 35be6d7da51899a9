"""The data card editor: generated form, nested tables, inline validation, preview, new/duplicate/delete."""
import yaml

from studio.model.kinds import model_for
from studio.document.ops import DELETE


def load(path):
    return yaml.safe_load(path.read_text())


def open_card(window, project, card="m1"):
    return window.open_path(project / "units" / "mbt" / f"{card}.yaml")


def test_form_edits_are_undoable_steps_and_save(window, project):
    path = project / "units" / "mbt" / "m1.yaml"
    original = load(path)
    editor = open_card(window, project)
    form = editor.form
    assert form.fields["/name"].set_text("M1 Abrams (early)")
    assert form.fields["/symbol/affiliation"].set_text("hostile")  # an enum is a drop-down
    weapons = form.tables["/body/weapons"]
    assert weapons.table.rowCount() == len(original["body"]["weapons"])
    weapons.set_cell(0, "tt_factor", "3")
    weapons.table.selectRow(0)
    ammo = weapons.detail.tables["/body/weapons/0/ammo"]      # nested: weapon -> ammunition rows
    ammo.set_cell(0, "penetration/P", "90")
    assert len(editor.doc.history) == 4
    window.act_undo.trigger()
    assert editor.doc.get("/body/weapons/0/ammo/0/penetration/P") == original["body"]["weapons"][0]["ammo"][0][
        "penetration"]["P"]
    window.act_redo.trigger()
    window.act_save.trigger()
    saved = load(path)
    assert saved["name"] == "M1 Abrams (early)" and saved["symbol"]["affiliation"] == "hostile"
    assert saved["body"]["weapons"][0]["tt_factor"] == 3
    assert saved["body"]["weapons"][0]["ammo"][0]["penetration"]["P"] == 90
    saved["name"], saved["symbol"]["affiliation"] = original["name"], original["symbol"]["affiliation"]
    saved["body"]["weapons"][0]["tt_factor"] = original["body"]["weapons"][0]["tt_factor"]
    saved["body"]["weapons"][0]["ammo"][0]["penetration"]["P"] = 90
    original["body"]["weapons"][0]["ammo"][0]["penetration"]["P"] = 90
    assert saved == original, "nothing else changed"
    assert model_for(saved).model_validate(saved)


def test_bad_input_is_refused_inline_and_changes_nothing(window, project):
    editor = open_card(window, project)
    field = editor.form.fields["/years/start"]
    assert not field.set_text("nineteen eighty")
    assert field.problem and "whole number" in field.problem
    assert not field.set_text("1850")                      # schema range 1900..2100
    assert "at least" in field.problem
    assert editor.doc.get("/years/start") == 1980 and not editor.doc.dirty
    weapons = editor.form.tables["/body/weapons"]
    weapons.set_cell(0, "rof", "Z")                        # enum column: not a choice
    assert not editor.doc.dirty


def test_model_errors_are_marked_on_the_field(window, project):
    editor = open_card(window, project)
    editor.form.fields["/nation"].set_text("")             # required text may be empty: the model decides
    editor.doc.apply("break", [__import__("studio.document.ops", fromlist=["Set"]).Set("/id", "Bad Id")])
    editor.update_preview()
    assert editor.form.fields["/id"].problem
    assert editor.problems.count() >= 1
    assert "not valid" in editor.preview.message.text()


def test_table_rows_add_and_remove_are_single_steps(window, project):
    path = project / "units" / "mbt" / "m1.yaml"
    editor = open_card(window, project)
    weapons = editor.form.tables["/body/weapons"]
    n = weapons.table.rowCount()
    weapons.add_row()
    assert weapons.table.rowCount() == n + 1
    weapons.table.selectRow(n)
    weapons.remove_row()
    assert weapons.table.rowCount() == n
    window.act_undo.trigger()
    assert weapons.table.rowCount() == n + 1
    window.act_undo.trigger()
    assert weapons.table.rowCount() == n and not editor.doc.dirty
    window.act_save.trigger()
    assert load(path)["body"]["weapons"].__len__() == n


def test_preview_shows_the_printed_counter(window, project):
    editor = open_card(window, project)
    assert editor.preview.shown_for == "m1"
    assert editor.preview.counter.items and editor.preview.card.items
    texts = [getattr(i, "text", "") for i in editor.preview.counter.items]
    assert "M1 Abrams" in texts
    editor.form.fields["/name"].set_text("Abrams X")
    editor.update_preview()
    assert "Abrams X" in [getattr(i, "text", "") for i in editor.preview.counter.items]


def test_new_card_from_template_and_duplicate_and_guarded_delete(window, project):
    from studio.qt import doc_actions
    window.ask_item = lambda title, prompt, items: "mbt" if "Rule" in prompt else items[0]
    window.ask_text = lambda *a, **k: "t-64b-1983"
    path = doc_actions.new_card(window)
    assert path == (project / "units" / "mbt" / "t-64b-1983.yaml").resolve()
    data = load(path)
    assert data["kind"] == "unit" and data["ruleset"] == "mbt" and data["id"] == "t-64b-1983"
    assert window.current_editor().doc.path == path
    window.ask_text = lambda *a, **k: "m1-copy"
    copy = doc_actions.duplicate(window, project / "units" / "mbt" / "m1.yaml")
    assert load(copy)["body"] == load(project / "units" / "mbt" / "m1.yaml")["body"]
    assert load(copy)["id"] == "m1-copy"
    told = []
    window.tell = lambda title, text: told.append(text)
    window.ask_yes_no = lambda *a: True
    assert not doc_actions.delete(window, project / "units" / "mbt" / "m1.yaml")
    assert "us-tank-platoon" in told[0] or "toe" in told[0]
    assert (project / "units" / "mbt" / "m1.yaml").exists()
    assert doc_actions.delete(window, copy)
    assert not copy.exists()


def test_optional_group_toggle_adds_and_removes(window, project):
    editor = open_card(window, project)
    box = next(b for p, b, s in editor.form.groups if p == "/years")
    box.setChecked(False)
    assert editor.doc.get("/years", DELETE) is DELETE
    box.setChecked(True)
    assert editor.doc.get("/years") == {"start": 1900}
    window.act_undo.trigger()
    window.act_undo.trigger()
    assert editor.doc.get("/years") == {"start": 1980}


def test_enum_columns_are_edited_with_a_drop_down(window, project):
    from PySide6.QtWidgets import QComboBox
    editor = open_card(window, project)
    weapons = editor.form.tables["/body/weapons"]
    column = [p for p, _, _ in weapons.columns].index("rof")
    index = weapons.table.model().index(1, column)
    weapons.table.setCurrentIndex(index)
    weapons.table.edit(index)
    box = weapons.table.findChild(QComboBox)
    assert box is not None and box.count() > 2
    choice = next(box.itemText(i) for i in range(1, box.count()) if box.itemText(i) != weapons.table.item(1, column).text())
    box.setCurrentText(choice)
    weapons.table.commitData(box)
    assert editor.doc.get("/body/weapons/1/rof") == choice


def test_typing_into_the_form_with_the_keyboard(window, project, qtbot):
    from PySide6.QtCore import Qt
    path = project / "units" / "mbt" / "m1.yaml"
    editor = open_card(window, project)
    line = editor.form.fields["/name"].editor
    line.setFocus()
    line.selectAll()
    qtbot.keyClicks(line, "M1 Abrams (1982)")
    qtbot.keyClick(line, Qt.Key.Key_Return)
    combo = editor.form.fields["/symbol/affiliation"].editor
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)          # a drop-down changes on the keyboard too
    assert len(editor.doc.history) == 2
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert editor.doc.get("/symbol/affiliation") == "friend"
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert load(path)["name"] == "M1 Abrams (1982)"


def test_typing_a_new_id_offers_a_rename_that_follows_references_and_the_file(window, project):
    path = project / "units" / "waw" / "su-t72.yaml"
    editor = window.open_path(path)
    asked = []
    window.ask_yes_no = lambda title, text: asked.append((title, text)) or True
    assert editor.form.fields["/id"].set_text("su-t72-1983")
    assert asked[0][0] == "Rename id" and "reference" in asked[0][1], "the users are counted before renaming"
    assert asked[1][0] == "Rename the file too"
    moved = project / "units" / "waw" / "su-t72-1983.yaml"
    assert moved.is_file() and not path.exists(), "the file follows the id"
    assert load(moved)["id"] == "su-t72-1983"
    window.act_save_all.trigger()
    toe = (project / "toe" / "waw" / "su-tank-battalion.yaml").read_text()
    assert "su-t72-1983" in toe and "unit: su-t72\n" not in toe
    assert window.current_editor().doc.path == moved.resolve()
    window.validate_now()
    assert not [d for d in window.problems.diagnostics if d.code.startswith("ref.")]


def test_declining_the_rename_keeps_the_id_and_the_references(window, project):
    editor = window.open_path(project / "units" / "waw" / "su-t72.yaml")
    window.ask_yes_no = lambda title, text: False
    editor.form.fields["/id"].set_text("su-t72-x")
    assert editor.doc.id == "su-t72" and not editor.doc.dirty
    assert editor.form.fields["/id"].editor.text() == "su-t72"


def test_a_refused_field_is_scrolled_into_view(window, project, qtbot):
    editor = window.open_path(project / "units" / "mbt" / "m1.yaml")
    editor.resize(900, 400)
    field = editor.form.fields["/years/start"]
    editor.scroll.verticalScrollBar().setValue(editor.scroll.verticalScrollBar().maximum())
    assert not field.set_text("nineteen")
    qtbot.waitUntil(lambda: editor.scroll.viewport().rect().contains(
        field.editor.mapTo(editor.scroll.viewport(), field.editor.rect().center())), timeout=2000)


# ------------------------------------------------------------------ MBT Advanced Game card classes (issue 12)

MBT_CLASSES = {"leg": ("sov-mr-squad", "/body/weapons", "/body/gp_defense/medium"),
               "crew_served": ("dragon", "/body/weapon/ammo", "/body/weapon/name"),
               "towed": ("spg-9", "/body/weapons", "/body/movement/cross_country"),
               "fixed_wing": ("a-10", "/body/loads", "/body/base_points"),
               "helicopter": ("mi-24", "/body/configs", "/body/movement/noe"),
               "battery": ("2s1-battery", "/body/weapon/ammo", "/body/tubes")}


def test_every_mbt_card_class_opens_with_its_tables_and_preview(window, project, tmp_path):
    """Deliver 6: the card editor handles every MBT card class: its form (nested tables), a field edit that is one
    undoable step and saves, and the printed preview with the class's own layouts."""
    for category, (card_id, table, field) in MBT_CLASSES.items():
        path = project / "units" / "mbt" / f"{card_id}.yaml"
        editor = window.open_path(path)
        assert editor.form.tables[table].table.rowCount() >= 1, (category, table)
        assert editor.preview.shown_for == card_id, (category, editor.preview.message.text())
        assert editor.preview.card.items and editor.preview.counter.items
        old = editor.doc.get(field)
        new = old + 1 if isinstance(old, int) else f"{old} (late)"
        assert editor.form.fields[field].set_text(str(new)), (category, field)
        assert editor.doc.get(field) == new and len(editor.doc.history) == 1
        editor.update_preview()
        assert editor.preview.shown_for == card_id and not editor.preview.message.text()
        window.act_save.trigger()
        assert _at(load(path), field) == new
        editor.preview.card.grab().save(str(tmp_path / f"{category}.png"))
        editor.grab().save(str(tmp_path / f"{category}-editor.png"))
        assert (tmp_path / f"{category}.png").stat().st_size > 1000


def _at(data, pointer):
    for part in pointer.strip("/").split("/"):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def test_changing_the_category_rebuilds_the_form_for_the_new_class(window, project):
    """A vehicle card switched to 'leg' gets the leg body's form (the schema follows the category); the category
    is a drop-down of the MBT card classes, a WaW card (one body for every category) keeps a free text."""
    from PySide6.QtWidgets import QComboBox
    editor = open_card(window, project)
    assert "/body/weapons" in editor.form.tables and "/body/general/stabilization" in editor.form.fields
    combo = editor.form.fields["/category"].editor
    assert isinstance(combo, QComboBox)
    assert {combo.itemText(i) for i in range(combo.count())} >= {"vehicle", "leg", "towed", "crew_served",
                                                                  "fixed_wing", "helicopter", "battery"}
    editor.form.fields["/category"].set_text("leg")
    assert "/body/general/stabilization" not in editor.form.fields
    assert "/body/gp_defense/none" in editor.form.fields or any(p == "/body/gp_defense" for p, _b, _s in
                                                                 editor.form.groups)
    waw = window.open_path(project / "units" / "waw" / "su-t72.yaml")
    assert not isinstance(waw.form.fields["/category"].editor, QComboBox)


def test_new_cards_of_every_mbt_class_start_from_their_schema():
    """A new card of each MBT class has every required field of its body (templates from the card schema)."""
    from studio.document.templates import card_categories, new_card
    from studio.model.kinds import unit_model

    assert set(card_categories("mbt")) == set(MBT_CLASSES) | {"vehicle"}
    for category in card_categories("mbt"):
        data = new_card("mbt", category, f"new-{category.replace('_', '-')}")
        assert data["category"] == category
        required = unit_model("mbt", category).model_json_schema()["$defs"]
        body_required = [k for k, v in data["body"].items()]
        assert body_required, category
        assert required
