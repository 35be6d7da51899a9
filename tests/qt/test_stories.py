"""User stories 1-3 (USER-STORIES.md), one test per step, performed through the window's widgets.

Each test replays the earlier steps it needs with the same gestures (menu actions, drops on hexes, strokes,
table cells, dialogs' buttons) and asserts the step's outcome on what the user gets: the saved file, the model
the engines read, what the window draws, the files written. Steps 1.7 and 1.8 (test-play, replays) drive the
Test-play panel owned by the balance work; the replay viewer is ``studio.qt.replay_viewer``.
"""
import json
import shutil
import subprocess

import pytest
import yaml
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from studio.model.forces import expand_force
from studio.model.project import load_project

from .helpers import click, drop_toe, stroke

SCENARIO = "probe-at-rasdorf"


def load(path):
    return yaml.safe_load(path.read_text())


def double_click(view, item):
    """A real double-click on ``item`` of a tree view (press and release, then the double-click)."""
    view.scrollToItem(item)
    centre = view.visualItemRect(item).center()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, centre)
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, centre)


def button(widget, text):
    return next(b for b in widget.findChildren(QPushButton) if b.text() == text)


def menu_action(window, text):
    """The QAction of a menu entry, searched through every menu of the menu bar (as a user would find it)."""
    from PySide6.QtWidgets import QMenu
    for menu in window.menuBar().findChildren(QMenu):
        for action in menu.actions():
            if action.text().replace("&", "") == text:
                return action
    raise AssertionError(f"no menu entry {text!r}")


# ------------------------------------------------------------------ story 1: the scenario designer (MBT)

def step1_new_scenario(window):
    window.ask_item = lambda title, prompt, items: "mbt" if "Rule" in prompt else items[0]
    window.ask_text = lambda *a, **k: SCENARIO
    menu_action(window, "Scenario…").trigger()
    return window.current_editor()


def step2_boards(editor):
    editor.tabs.setCurrentIndex(1)
    first = editor.doc.data["boards"][0]["map"]
    if first != "board-2":
        editor.doc.apply("board 2", [__import__("studio.document.ops", fromlist=["Set"]).Set("/boards/0/map",
                                                                                             "board-2")])
    editor.map_box.setCurrentIndex(editor.map_box.findData("board-4"))
    QTest.mouseClick(button(editor, "Add board"), Qt.MouseButton.LeftButton)
    editor.select_board(1)
    QTest.mouseClick(button(editor, "Rotate 180°"), Qt.MouseButton.LeftButton)


def east_edge(editor, n):
    """The ``n`` most northerly hexes of the assembled map's east edge column, north to south."""
    keys = list(editor.geometry.keys())
    right = max(editor.geometry.centre(k)[0] for k in keys)
    column = sorted((k for k in keys if abs(editor.geometry.centre(k)[0] - right) < 1e-6),
                    key=lambda k: editor.geometry.centre(k)[1])
    return column[:n]


def force_pointer(editor, toe_id):
    for si, side in enumerate(editor.doc.data["sides"]):
        for fi, force in enumerate(side.get("forces") or []):
            if force["toe"] == toe_id:
                return f"/sides/{si}/forces/{fi}"
    raise AssertionError(toe_id)


def step3_forces(editor):
    at = editor.geometry.key_of_label
    for toe_id, hex_label in (("us-scout-platoon", "2C5"), ("us-tank-platoon", "2C9"), ("us-itv-section", "2B12"),
                              ("sov-recon-platoon", "4F5"), ("sov-tank-platoon", "4F9")):
        drop_toe(editor, toe_id, at(hex_label))
    scouts = force_pointer(editor, "us-scout-platoon")
    si, fi = int(scouts.split("/")[2]), int(scouts.split("/")[4])
    sides = editor.sides_form.tables["/sides"]
    sides.table.selectRow(si)
    forces = sides.detail.tables[f"/sides/{si}/forces"]
    forces.table.selectRow(fi)
    subs = forces.detail.tables[f"{scouts}/substitutions"]
    QTest.mouseClick(button(subs, "Add row"), Qt.MouseButton.LeftButton)
    m3_slot = next(p for p in editor.choices(f"{scouts}/substitutions/0/slot") if p.endswith("cfv"))
    subs.set_cell(0, "slot", m3_slot)
    subs.set_cell(0, "unit", "m2")
    subs.set_cell(0, "count", "1")
    return scouts


def step4_placement(editor):
    """US platoons are on western hexes (step 3's drops); the Soviet recon gets an east-edge entry zone painted
    in one stroke; the T-80 platoon arrives on turn 3."""
    recon = force_pointer(editor, "sov-recon-platoon")
    editor.force_box.setCurrentIndex(editor.force_box.findData(recon))
    editor.tool_box.setCurrentIndex(editor.tool_box.findData("entry"))
    zone = east_edge(editor, 5)
    stroke(editor.view, zone)
    tanks = force_pointer(editor, "sov-tank-platoon")
    editor.force_box.setCurrentIndex(editor.force_box.findData(tanks))
    stroke(editor.view, east_edge(editor, 8)[5:])
    editor.tool_box.setCurrentIndex(editor.tool_box.findData("select"))
    si, fi = int(tanks.split("/")[2]), int(tanks.split("/")[4])
    sides = editor.sides_form.tables["/sides"]
    sides.table.selectRow(si)
    forces = sides.detail.tables[f"/sides/{si}/forces"]
    forces.table.selectRow(fi)
    assert forces.detail.field(f"{tanks}/entry/turn").set_text("3")
    return recon, tanks, [editor.geometry.label(k) for k in zone]


def step5_conditions(editor):
    editor.general.fields["/turns"].set_text("12")
    editor.general.fields["/environment/night_turns"].set_text("[1, 2]")
    victory = editor.victory_form.tables["/victory"]
    QTest.mouseClick(button(victory, "Add row"), Qt.MouseButton.LeftButton)
    QTest.mouseClick(button(victory, "Add row"), Qt.MouseButton.LeftButton)
    victory.set_cell(0, "side", "red")
    victory.set_cell(0, "points", "10")
    editor.tool_box.setCurrentIndex(editor.tool_box.findData("victory"))
    editor.victory_box.setCurrentIndex(0)
    towns = ["2J7", "4J5"]
    for label in towns:
        click(editor.view, editor.geometry.key_of_label(label))
    victory.set_cell(1, "type", "exit_units")
    victory.set_cell(1, "side", "red")
    victory.set_cell(1, "edge", "west")
    victory.set_cell(1, "points", "2")
    rules = editor.rules_form.tables["/special_rules"]
    QTest.mouseClick(button(rules, "Add row"), Qt.MouseButton.LeftButton)
    rules.set_cell(0, "title", "Screen")
    rules.set_cell(0, "text", "US units may not set up east of hex row 10.")
    editor.tool_box.setCurrentIndex(editor.tool_box.findData("select"))
    return towns


def build_story1(window, upto):
    editor = step1_new_scenario(window)
    if upto >= 2:
        step2_boards(editor)
    if upto >= 3:
        step3_forces(editor)
    if upto >= 4:
        step4_placement(editor)
    if upto >= 5:
        step5_conditions(editor)
    return editor


def test_story1_step1_open_the_studio_and_create_a_scenario(window, project):
    assert window.tree.visible_paths(), "the sample project is listed"
    editor = step1_new_scenario(window)
    path = project / "scenarios" / "mbt" / f"{SCENARIO}.yaml"
    assert editor.doc.path == path.resolve() and path.is_file()
    assert load(path)["ruleset"] == "mbt" and type(editor).__name__ == "QtScenarioEditor"
    assert path.resolve() in [p.resolve() for p in window.tree.visible_paths()]
    assert SCENARIO in window.tabs.tabText(window.tabs.currentIndex())


def test_story1_step2_two_boards_one_turned_with_printed_hex_ids(window, project):
    editor = build_story1(window, 2)
    window.act_save.trigger()
    saved = load(editor.doc.path)
    assert saved["boards"] == [{"map": "board-2"}, {"map": "board-4", "at": [20, 0], "rotate": 180}]
    at = editor.geometry.key_of_label
    assert at("2E9") is not None and at("4K3") is not None and not editor.assembly_error
    assert editor.geometry.centre(at("4K3"))[0] > editor.geometry.centre(at("2E9"))[0], "board 4 is east"
    # turned 180 degrees: board 4's first column is now its east edge
    assert editor.geometry.centre(at("4A1"))[0] > editor.geometry.centre(at("4T1"))[0]
    assert editor.geometry.centre(at("4A1"))[1] > editor.geometry.centre(at("4A14"))[1]


def test_story1_step3_forces_from_toes_with_an_m3_swapped_for_an_m2(window, project):
    build_story1(window, 3)
    window.act_save.trigger()
    index = load_project(project)
    scenario = index.model("scenario", SCENARIO)
    fielded = {f.toe: [u.unit for u in expand_force(f, index)] for s in scenario.sides for f in s.forces}
    assert fielded["us-scout-platoon"].count("m2") == 1 and "m3" in fielded["us-scout-platoon"]
    assert "t-80b" in fielded["sov-tank-platoon"] and "bmp-1" in fielded["sov-recon-platoon"]
    sides = {s.id: {f.toe for f in s.forces} for s in scenario.sides}
    assert sides == {"blue": {"us-scout-platoon", "us-tank-platoon", "us-itv-section"},
                     "red": {"sov-recon-platoon", "sov-tank-platoon"}}, "each TO&E's nation picks its side"
    designations = [u.designation for s in scenario.sides for f in s.forces for u in expand_force(f, index)]
    for force in (f for s in scenario.sides for f in s.forces):
        mine = [u.designation for u in expand_force(force, index)]
        assert len(mine) == len(set(mine)), f"{force.id}: {mine}"
    assert designations


def test_story1_step4_west_setup_east_entry_zone_and_a_turn_3_arrival(window, project):
    editor = build_story1(window, 3)
    steps_before = len(editor.doc.history)
    recon, tanks, zone = step4_placement(editor)
    assert len(editor.doc.history) - steps_before == 3, "one stroke = one step per zone, one for the turn"
    window.act_save.trigger()
    saved = load(editor.doc.path)
    si, fi = int(recon.split("/")[2]), int(recon.split("/")[4])
    force = saved["sides"][si]["forces"][fi]
    assert force["entry"]["hexes"] == zone and "setup" not in force, "a force that enters no longer sets up"
    tsi, tfi = int(tanks.split("/")[2]), int(tanks.split("/")[4])
    assert saved["sides"][tsi]["forces"][tfi]["entry"]["turn"] == 3
    us = [f for f in saved["sides"][0]["forces"]]
    west = editor.geometry.centre(editor.geometry.key_of_label("4A1"))[0] / 2
    for f in us:
        for label in f["setup"]["hexes"]:
            assert editor.geometry.centre(editor.geometry.key_of_label(label))[0] < west
    rows = [editor.reinforcements.topLevelItem(i).text(0) for i in range(editor.reinforcements.topLevelItemCount())]
    assert rows == ["1", "3"]
    assert editor.scene.layer("entry:1"), "the entry zone is drawn"


def test_story1_step4_spread_keeps_wheeled_units_out_of_woods(window, project):
    editor = build_story1(window, 2)
    woods = editor.geometry.key_of_label("2S1")  # next to the woods in board 2's north-east corner
    drop_toe(editor, "sov-recon-platoon", woods)
    hexes = editor.doc.data["sides"][1]["forces"][0]["setup"]["hexes"]
    codes = [editor.geometry.terrain(editor.geometry.key_of_label(h)) for h in hexes]
    assert hexes[0] == "2S1" and "W" not in codes[1:], codes


def test_story1_step5_turns_victory_points_special_rule_and_night(window, project):
    editor = build_story1(window, 4)
    towns = step5_conditions(editor)
    window.act_save.trigger()
    saved = load(editor.doc.path)
    assert saved["turns"] == 12 and saved["environment"]["night_turns"] == [1, 2]
    assert saved["victory"][0] == {"id": "victory-1", "type": "hold_hexes", "side": "red", "points": 10,
                                   "hexes": towns}
    assert saved["victory"][1]["type"] == "exit_units" and saved["victory"][1]["edge"] == "west"
    assert saved["special_rules"][0]["text"].startswith("US units")
    assert len(editor.scene.layer("victory")) == 2, "the victory hexes are marked on the map"
    window.validate_now()
    errors = [d for d in window.problems.diagnostics if d.file.endswith(f"{SCENARIO}.yaml")
              and d.severity.value == "error"]
    assert not errors, [d.format_text() for d in errors]


def _force_page(editor, force):
    """The Sides page with ``force``'s row selected: its sub-form (setup, entry, substitutions)."""
    si, fi = int(force.split("/")[2]), int(force.split("/")[4])
    editor.tabs.setCurrentIndex(2)
    sides = editor.sides_form.tables["/sides"]
    sides.table.selectRow(si)
    forces = sides.detail.tables[f"/sides/{si}/forces"]
    forces.table.selectRow(fi)
    return forces.detail


def _findings(window, code):
    return [d for d in window.problems.shown() if d.code == code and d.file.endswith(f"{SCENARIO}.yaml")]


def test_story1_step6_problems_panel_findings_are_fixed_by_double_click(window, project):
    editor = build_story1(window, 5)
    scouts = force_pointer(editor, "us-scout-platoon")
    tanks = force_pointer(editor, "us-tank-platoon")
    recon = force_pointer(editor, "sov-recon-platoon")
    spread = {f: list(editor.doc.get(f"{f}/setup/hexes")) for f in (scouts, tanks)}  # as the drops left them
    # six US vehicles in one hex: typed into the two platoons' set-up hexes on the Sides page
    assert _force_page(editor, scouts).field(f"{scouts}/setup/hexes").set_text("2C5")
    assert _force_page(editor, tanks).field(f"{tanks}/setup/hexes").set_text("2C5")
    # the recon platoon's BMP swapped for a wheeled BRDM, and a woods hex painted into its entry zone
    subs = _force_page(editor, recon).tables[f"{recon}/substitutions"]
    QTest.mouseClick(button(subs, "Add row"), Qt.MouseButton.LeftButton)
    subs.set_cell(0, "slot", next(p for p in editor.choices(f"{recon}/substitutions/0/slot") if p.endswith("cdr")))
    subs.set_cell(0, "unit", "brdm-2-at5")
    woods = next(k for k in editor.geometry.keys() if editor.geometry.terrain(k) == "W"
                 and editor.geometry.label(k).startswith("4"))
    editor.force_box.setCurrentIndex(editor.force_box.findData(recon))
    editor.tool_box.setCurrentIndex(editor.tool_box.findData("entry"))
    click(editor.view, woods)
    assert editor.geometry.label(woods) in editor.doc.get(f"{recon}/entry/hexes")
    editor.tool_box.setCurrentIndex(editor.tool_box.findData("select"))
    window.validate_now()
    stacked = _findings(window, "mbt.overstacked")
    assert stacked and stacked[0].severity.value == "warning" and stacked[0].rule == "MBT 3.8"
    entry = _findings(window, "mbt.entry-prohibited")
    assert entry and entry[0].severity.value == "error" and editor.geometry.label(woods) in entry[0].message
    # each finding, double-clicked, opens the scenario at it; the designer fixes it there
    shown = window.problems.shown()
    window.open_path(project / "maps" / "board-2.yaml")  # another tab is in front
    double_click(window.problems.tree, window.problems.tree.topLevelItem(shown.index(stacked[0])))
    assert window.current_editor() is editor
    assert editor.scene.layer("focus"), (stacked[0].pointer, "the finding's hex is marked on the map")
    assert editor.tabs.tabText(editor.tabs.currentIndex()) == "Sides"
    force = tanks if stacked[0].pointer.startswith(tanks) else scouts
    assert _force_page(editor, force).field(f"{force}/setup/hexes").set_text(", ".join(spread[force]))
    window.validate_now()
    shown = window.problems.shown()
    entry = [d for d in shown if d.code == "mbt.entry-prohibited" and d.file.endswith(f"{SCENARIO}.yaml")]
    assert entry and not _findings(window, "mbt.overstacked")
    double_click(window.problems.tree, window.problems.tree.topLevelItem(shown.index(entry[0])))
    assert editor.scene.layer("focus")
    editor.tool_box.setCurrentIndex(editor.tool_box.findData("entry"))
    editor.force_box.setCurrentIndex(editor.force_box.findData(recon))
    click(editor.view, woods)  # the entry tool again: the woods hex leaves the zone
    window.validate_now()
    assert not [d for d in window.problems.shown() if d.file.endswith(f"{SCENARIO}.yaml")
                and d.severity.value in ("error", "warning")], "the panel empties"


def test_story1_step9_scenario_sheet_and_counters_double_sided_on_letter(window, project, monkeypatch, tmp_path):
    build_story1(window, 5)
    window.act_save.trigger()
    from studio.qt import print_preview
    shown = []
    monkeypatch.setattr(print_preview.PrintPreviewDialog, "exec", lambda self: shown.append(self) or 0)
    window.act_print.trigger()
    dialog = shown[0]
    assert dialog.kind.currentText() == "scenario" and dialog.pages
    assert dialog.default_name() == f"{SCENARIO}-scenario.pdf"
    sheet = tmp_path / "sheet.pdf"
    dialog.save_pdf(sheet)
    assert sheet.read_bytes().startswith(b"%PDF")
    dialog.kind.setCurrentText("calibration")
    assert dialog.refresh() and len(dialog.pages) == 2, "a calibration front and its back"
    dialog.off_x.setValue(1.5)
    QTest.mouseClick(dialog.remember_button, Qt.MouseButton.LeftButton)
    assert load(project / "project.yaml")["print"]["back_offset_mm"] == [1.5, 0.0]
    dialog.kind.setCurrentText("counters")
    dialog.paper.setCurrentText("letter")
    dialog.duplex.setCurrentText("long")
    assert dialog.refresh() and len(dialog.pages) % 2 == 0, "fronts and backs"
    assert dialog.options().back_offset == (1.5, 0.0)
    counters = tmp_path / "counters.pdf"
    dialog.save_pdf(counters)
    assert counters.stat().st_size > 1000
    from PySide6.QtPrintSupport import QPrinter
    printer = QPrinter()
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    assert dialog.print_to(printer) == len(dialog.pages)
    assert (tmp_path / "printed.pdf").read_bytes().startswith(b"%PDF")
    again = print_preview.PrintPreviewDialog(project, SCENARIO)
    assert again.off_x.value() == 1.5, "the offset is remembered in the project"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_story1_step10_git_diff_shows_only_what_changed(window, project):
    editor = build_story1(window, 5)
    window.act_save.trigger()
    git = ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "scenario"], check=True)
    editor.general.fields["/turns"].set_text("11")
    window.act_save.trigger()
    diff = subprocess.run(git + ["diff", "--numstat"], check=True, capture_output=True, text=True).stdout.split()
    assert diff[:2] == ["1", "1"] and diff[2].endswith(f"{SCENARIO}.yaml") and len(diff) == 3
    patch = subprocess.run(git + ["diff", "-U0"], check=True, capture_output=True, text=True).stdout
    assert "-turns: 12" in patch and "+turns: 11" in patch


# ------------------------------------------------------------------ story 2: the unit-database maintainer (WaW)

def open_from_tree(window, path):
    window.tree.select_path(path)
    double_click(window.tree.tree, window.tree.tree.currentItem())
    return window.current_editor()


def face_texts(face):
    from studio.printing.primitives import Group, Text
    out, stack = [], list(face.items)
    while stack:
        it = stack.pop()
        if isinstance(it, Group):
            stack.extend(it.items)
        elif isinstance(it, Text):
            out.append(it.text)
    return out


def test_story2_step1_filter_soviet_afvs_edit_armor_and_save_preview_follows(window, project, qtbot):
    window.tree.filter.setText("waw soviet afv")
    visible = window.tree.visible_paths()
    t64 = (project / "units" / "waw" / "su-t64.yaml").resolve()
    assert t64 in [p.resolve() for p in visible] and all("waw" in str(p) for p in visible)
    assert "of" in window.tree.tree.topLevelItem(0).text(0), "the group header counts what the filter shows"
    editor = open_from_tree(window, t64)
    before = face_texts(editor.preview.counter)
    editor.form.fields["/body/full/armor"].set_text("6")
    editor.form.fields["/body/full/save"].set_text("5")
    qtbot.waitUntil(lambda: face_texts(editor.preview.counter) != before, timeout=3000)
    window.act_save.trigger()
    saved = load(t64)
    assert saved["body"]["full"]["armor"] == 6 and saved["body"]["full"]["save"] == 5


def test_story2_step2_duplicate_the_t72_and_a_to_hit_of_7_is_flagged_before_saving(window, project):
    t72 = (project / "units" / "waw" / "su-t72.yaml").resolve()
    window.ask_text = lambda title, prompt, current="": "su-t72m"
    window.tree.select_path(t72)
    window.tree.tree.setFocus()
    QTest.keyClick(window.tree.tree, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    copy = project / "units" / "waw" / "su-t72m.yaml"
    editor = window.current_editor()
    assert copy.is_file() and editor.doc.path == copy.resolve()
    editor.form.fields["/name"].set_text("T-72M platoon")
    editor.form.fields["/body/full/to_hit/ap"].set_text("7")
    assert editor.doc.dirty
    window.validate_now()
    flagged = [d for d in window.problems.diagnostics if d.file.endswith("su-t72m.yaml")
               and d.pointer == "/body/full/to_hit/ap"]
    assert flagged and flagged[0].severity.value == "error" and "d6" in flagged[0].message
    assert load(copy)["body"]["full"]["to_hit"]["ap"] != 7, "not saved yet"
    assert any("to_hit/ap" in editor.problems.item(i).text() for i in range(editor.problems.count()))


def test_story2_step3_rename_an_id_and_every_user_follows(window, project):
    users = [p for p in project.rglob("*.yaml") if p.name != "su-t72.yaml"
             and any(line.strip().endswith(": su-t72") or line.strip() == "- su-t72"
                     for line in p.read_text().splitlines())]
    assert users
    window.ask_text = lambda *a, **k: "su-t72-1983"
    window.tree.select_path(project / "units" / "waw" / "su-t72.yaml")
    window.tree.tree.setFocus()
    QTest.keyClick(window.tree.tree, Qt.Key.Key_F2)
    window.act_save_all.trigger()
    for p in users:
        text = p.read_text()
        assert "su-t72-1983" in text and not any(line.strip().endswith(": su-t72") for line in text.splitlines())
    window.validate_now()
    assert not [d for d in window.problems.diagnostics if d.code.startswith("ref.")]


def test_story2_step4_deleting_a_used_counter_is_refused_listing_the_scenarios(window, project):
    card = project / "units" / "waw" / "us-dragon-sw.yaml"
    told = []
    window.tell = lambda title, text: told.append(text)
    window.ask_yes_no = lambda title, text: True
    window.tree.select_path(card)
    window.tree.tree.setFocus()
    QTest.keyClick(window.tree.tree, Qt.Key.Key_Delete)
    assert card.exists() and told
    assert "waw-crossroads.yaml" in told[0] and "waw-hill-fight.yaml" in told[0]


def test_story2_step5_validate_from_the_command_line_as_json(project, capsys):
    from studio.cli.main import main
    (project / "units" / "waw" / "us-dragon-sw.yaml").unlink()  # a dangling reference for CI to catch
    code = main(["validate", "--format", "json", str(project)])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["summary"]["errors"] >= 2
    dangling = [d for d in report["diagnostics"] if d["code"] == "ref.dangling"]
    assert {d["file"].rsplit("/", 1)[-1] for d in dangling} >= {"waw-crossroads.yaml", "waw-hill-fight.yaml"}
    assert all(d["line"] > 0 for d in dangling)


def test_story2_step6_reference_cards_of_all_soviet_counters_several_per_page(window, project, monkeypatch):
    from studio.qt import print_preview
    shown = []
    monkeypatch.setattr(print_preview.PrintPreviewDialog, "exec", lambda self: shown.append(self) or 0)
    window.open_path(project / "units" / "waw" / "su-t64.yaml")
    window.act_print.trigger()
    dialog = shown[0]
    dialog.kind.setCurrentText("cards")
    dialog.source.setText("nation:Soviet Union")
    assert dialog.refresh()
    index = load_project(project)
    soviet = [d for d in index.of_kind("unit") if d.model is not None and d.model.nation == "Soviet Union"]
    cards = sum(1 for page in dialog.pages for it in page.items if getattr(it, "tag", "").startswith("card:"))
    assert cards >= len(soviet) and len(dialog.pages) < len(soviet), "several cards per page"


# ------------------------------------------------------------------ story 3: the counter-sheet printer

def counters_dialog(project, monkeypatch, window):
    from studio.qt import print_preview
    shown = []
    monkeypatch.setattr(print_preview.PrintPreviewDialog, "exec", lambda self: shown.append(self) or 0)
    window.open_path(project / "scenarios" / "mbt" / "delaying-action.yaml")
    window.act_print.trigger()
    dialog = shown[0]
    dialog.kind.setCurrentText("counters")
    return dialog


def test_story3_step1_five_eighths_counters_on_a4_with_bleed_and_crop_marks(window, project, monkeypatch):
    dialog = counters_dialog(project, monkeypatch, window)
    dialog.size.setCurrentText("5/8in")
    dialog.paper.setCurrentText("a4")
    dialog.bleed.setText("1/8in")
    dialog.gutter.setText("")
    dialog.marks.setCurrentText("crop")
    assert dialog.refresh(), dialog.message.text()
    page = dialog.pages[0]
    assert (round(page.width), round(page.height)) == (210, 297)
    cells = [it for it in page.items if getattr(it, "tag", "").startswith("counter:")]
    assert cells and all(c.clip is None or round(c.clip.width, 2) >= 15.87 for c in cells)
    QTest.mouseClick(dialog.remember_button, Qt.MouseButton.LeftButton)
    saved = load(project / "project.yaml")["print"]
    assert saved["paper"] == "a4" and saved["counter_size"] == "5/8in" and saved["bleed"] == "1/8in"


def test_story3_step2_calibration_page_double_sided_and_the_measured_offset(window, project, monkeypatch):
    dialog = counters_dialog(project, monkeypatch, window)
    dialog.kind.setCurrentText("calibration")
    assert dialog.refresh() and [p.label for p in dialog.pages][0]
    assert len(dialog.pages) == 2
    dialog.off_x.setValue(0.8)
    dialog.off_y.setValue(-0.4)
    QTest.mouseClick(dialog.remember_button, Qt.MouseButton.LeftButton)
    assert load(project / "project.yaml")["print"]["back_offset_mm"] == [0.8, -0.4]


def test_story3_step3_each_back_moves_by_the_entered_offset(window, project, monkeypatch):
    dialog = counters_dialog(project, monkeypatch, window)

    def backs(offset):
        dialog.off_x.setValue(offset[0])
        dialog.off_y.setValue(offset[1])
        assert dialog.refresh()
        return {it.tag: (it.dx, it.dy) for page in dialog.pages for it in page.items
                if getattr(it, "tag", "").endswith(":back")}

    plain, shifted = backs((0.0, 0.0)), backs((1.5, -0.5))
    assert plain and plain.keys() == shifted.keys()
    for tag, (x, y) in plain.items():
        dx, dy = shifted[tag][0] - x, shifted[tag][1] - y
        assert abs(abs(dx) - 1.5) < 0.5 and abs(abs(dy) - 0.5) < 0.5, (tag, dx, dy)


def test_story3_step4_counters_as_300_dpi_pngs_for_vassal(window, project, monkeypatch, tmp_path):
    dialog = counters_dialog(project, monkeypatch, window)
    dialog.size.setCurrentText("5/8in")
    written = dialog.export_pngs(tmp_path / "vassal")
    names = sorted(p.name for p in written)
    assert names and all(n.endswith(("-front.png", "-back.png")) for n in names)
    assert len([n for n in names if n.endswith("-front.png")]) == len([n for n in names if n.endswith("-back.png")])
    image = QImage(str(written[0]))
    assert abs(image.width() - 5 / 8 * 300) <= 1 and abs(image.height() - 5 / 8 * 300) <= 1


# ------------------------------------------------------------------ story 1, steps 7 and 8: test-play and a replay

def _run(window, qtbot, games):
    """F8 with the scenario open, then the panel's own widgets: games, seed, bots, the Run button."""
    panel = window.testplay
    menu_action(window, "Test-play current scenario").trigger()
    assert panel.scenario_box.currentData() == SCENARIO, "F8 picks the open scenario"
    panel.games.setValue(games)
    panel.seed.setValue(3)
    panel.bots.setCurrentText("heuristic")  # bots that close and fight
    earlier = panel.report
    QTest.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    assert not panel.run_button.isEnabled(), "the run is under way"
    qtbot.waitUntil(lambda: panel.thread is None and panel.report not in (None, earlier), timeout=240_000)
    return panel.report


def _rate_cells(panel, row):
    """(win rate, low, high) in percent from the results table's row."""
    head = [panel.table.horizontalHeaderItem(c).text() for c in range(panel.table.columnCount())]
    rate = float(panel.table.item(row, head.index("Win rate")).text().rstrip("%"))
    low, high = (float(x) for x in panel.table.item(row, head.index("95% CI")).text().rstrip("%").split("–"))
    return rate, low, high


def _set_arrival(editor, force, turn):
    """The Sides page: select the side and the force, type the entry turn (as a user does)."""
    si, fi = int(force.split("/")[2]), int(force.split("/")[4])
    editor.tabs.setCurrentIndex(2)
    sides = editor.sides_form.tables["/sides"]
    sides.table.selectRow(si)
    forces = sides.detail.tables[f"/sides/{si}/forces"]
    forces.table.selectRow(fi)
    assert forces.detail.field(f"{force}/entry/turn").set_text(str(turn))


def test_story1_step7_test_games_report_and_a_rerun_compared(window, project, qtbot):
    editor = build_story1(window, 5)
    window.act_save.trigger()
    report = _run(window, qtbot, 4)
    panel = window.testplay
    stats = report.statistics()
    # win rate per side with its 95% interval, as the table shows them
    assert panel.table.rowCount() == len(report.sides) == 2
    for row, side in enumerate(report.sides):
        rate, low, high = _rate_cells(panel, row)
        assert low <= rate <= high and abs(rate - 100 * stats["win_rate"][side]["p"]) < 0.06
    # when games are decided: a labelled bar per turn, the counts add up to the games
    assert panel.turn_chart is not None and panel.turn_chart.labels() == list(stats["decided_turn"])
    assert sum(stats["decided_turn"].values()) == report.games
    # losses by unit type and by range band (the Losses tab)
    types = {(panel.losses_table.item(r, 0).text(), panel.losses_table.item(r, 1).text())
             for r in range(panel.losses_table.rowCount())}
    assert types == {(side, kind) for side, kinds in stats["losses_by_type"].items() for kind in kinds}
    bands = [panel.range_table.horizontalHeaderItem(c).text() for c in range(1, panel.range_table.columnCount())]
    assert bands == list(next(iter(stats["losses_by_range"].values()), {}))
    # the scenario sheet's balance file is written beside the scenario
    assert panel.balance_file is not None and panel.balance_file.is_file()
    assert panel.balance_file.parent == editor.doc.path.parent and "Balance estimate" in panel.summary.text()
    # the T-80s arrive on turn 5 instead of 3 (the Sides page), saved, rerun: the two runs side by side
    tanks = force_pointer(editor, "sov-tank-platoon")
    _set_arrival(editor, tanks, 5)
    window.act_save.trigger()
    assert load(editor.doc.path)["sides"][1]["forces"][1]["entry"]["turn"] == 5
    again = _run(window, qtbot, 4)
    assert again is not report and panel.previous is report
    rows = {panel.compare_table.item(r, 0).text(): r for r in range(panel.compare_table.rowCount())}
    side = report.sides[1]
    r = rows[f"{side} wins"]
    before = f"{100 * stats['win_rate'][side]['p']:.1f}%"
    after = f"{100 * again.statistics()['win_rate'][side]['p']:.1f}%"
    assert panel.compare_table.item(r, 1).text().startswith(before)
    assert panel.compare_table.item(r, 2).text().startswith(after)
    assert "paired by seed" in panel.compare_label.text(), "same seeds: the difference is paired game by game"


def test_story1_step8_a_saved_replay_stepped_to_the_loss_that_killed_a_unit(window, project, qtbot):
    build_story1(window, 5)
    window.act_save.trigger()
    _run(window, qtbot, 4)
    panel = window.testplay
    # the run's replays are listed; activating one opens it in a viewer tab
    assert panel.replay_list.count() == 4
    viewers = []
    for row in range(panel.replay_list.count()):
        panel.replay_list.itemActivated.emit(panel.replay_list.item(row))
        viewers.append(window.tabs.currentWidget())
    assert all(type(v).__name__ == "QtReplayView" for v in viewers)
    viewer = next((v for v in viewers if v.walk.losses()), None)
    assert viewer is not None, "some test game lost a unit"
    window.tabs.setCurrentWidget(viewer)
    loss = viewer.walk.losses()[0]
    # through the turn of the loss phase by phase, by the buttons
    viewer.turn_box.setValue(loss.turn)
    QTest.mouseClick(button(viewer, "Go to turn"), Qt.MouseButton.LeftButton)
    assert viewer.current.turn == loss.turn and viewer.header.text().startswith(f"Turn {loss.turn} — ")
    assert viewer.current.phase_name in viewer.walk.phase_names.values(), "the phase's name, not a number"
    while viewer.position < loss.step - 1:
        before = viewer.position
        QTest.mouseClick(button(viewer, "Phase ▶▶"), Qt.MouseButton.LeftButton)
        assert viewer.position > before
        if viewer.position >= loss.step:
            viewer.goto(loss.step - 1)
    assert loss.unit in {c.designation for s in viewer.scene.layer("units") for c in s.counters}
    QTest.mouseClick(button(viewer, "Step ▶"), Qt.MouseButton.LeftButton)
    assert viewer.position == loss.step
    # the step pane says who fired at whom, at what range, and that the unit was destroyed
    text = viewer.detail_text()
    step = viewer.current
    assert loss.unit in text and "destroyed" in text and step.action in text
    if step.range is not None:
        assert f"range {step.range}" in text
    if loss.by:
        assert loss.by in step.action
    told = [m for m in step.moments if m.text]
    if told:  # the engine narrates: each result with the labelled rolls that decided it
        assert "What happened" in text and all(m.text.strip() in text for m in told)
        assert all(f"{label}: {value}" in text for m in told for label, value in m.rolls)
    else:  # it does not (yet): the pane says so instead of staying silent, and the rolls are named
        assert "narrated nothing" in text or "gives no narration" in text
        assert all(f"{label}: {value}" in text for label, value in step.rolls)
    assert viewer.scene.layer("named"), "the units the action names are marked"
    assert loss.unit not in {c.designation for s in viewer.scene.layer("units") for c in s.counters}, \
        "the killed unit leaves the map"
    # the Losses tab jumps to the same step
    viewer.goto(0)
    viewer.losses.itemClicked.emit(viewer.losses.item(0))
    assert viewer.position == loss.step
