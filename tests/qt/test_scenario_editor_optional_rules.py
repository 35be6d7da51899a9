"""The scenario editor's optional rules checklist (issue 13 item 5): one checkable row per optional rule with its
rule number and title, a tooltip with the description and what it needs; a tick writes ``optional_rules`` (one
undo step, saved atomically by the session); rules a rule requires come with it, rules that need it go with it."""
import yaml
from PySide6.QtCore import Qt

from studio.document.ops import Set


def load(path):
    return yaml.safe_load(path.read_text())


def open_scenario(window, project, name="adv-combined-arms"):
    return window.open_path(project / "scenarios" / "mbt" / f"{name}.yaml")


def tick(editor, rule_id, on=True):
    editor.optional_items[rule_id].setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)


def test_checklist_lists_every_optional_rule_with_number_and_title(window, project):
    editor = open_scenario(window, project)
    ruleset = load(project / "rulesets" / "mbt" / "ruleset.yaml")
    assert editor.optional_list.count() == len(ruleset["optional_rules"]) == 50
    mines = editor.optional_items["mines"]
    rule = next(r for r in ruleset["optional_rules"] if r["id"] == "mines")
    assert mines.text().split() == ["7.31", *rule["title"].split()]
    assert mines.checkState() == Qt.CheckState.Unchecked
    tip = mines.toolTip()
    assert tip.startswith(f"MBT 7.31 {rule['title']} (id mines)") and rule["description"] in tip
    assert "0 of 50" in editor.optional_title.text()


def test_tooltip_names_needs_and_requires(window, project):
    editor = open_scenario(window, project)
    editor.doc.apply("needs", [])  # nothing: the tooltip is built from the ruleset data
    rule = {"id": "x", "rule": "MBT 7.99", "title": "X", "description": "d",
            "needs": {"scenario": ["minefields"], "card_fields": ["weight_tons"]}, "requires": ["mines"]}
    tip = editor._optional_tooltip(rule)
    assert "Needs scenario data: minefields" in tip and "Needs card fields: weight_tons" in tip
    assert "Requires optional rule(s): mines" in tip


def test_tick_writes_optional_rules_with_undo_and_save(window, project):
    path = project / "scenarios" / "mbt" / "adv-combined-arms.yaml"
    original = load(path)
    editor = open_scenario(window, project)
    tick(editor, "mines")
    tick(editor, "morale")
    assert editor.doc.data["optional_rules"] == ["morale", "mines"]  # the ruleset's order
    assert len(editor.doc.history) == 2
    assert editor.optional_items["mines"].checkState() == Qt.CheckState.Checked
    assert "2 of 50" in editor.optional_title.text()
    window.act_save.trigger()
    assert load(path)["optional_rules"] == ["morale", "mines"]
    tick(editor, "mines", False)
    tick(editor, "morale", False)
    assert "optional_rules" not in editor.doc.data  # empty: the key goes
    window.act_undo.trigger()
    assert editor.doc.data["optional_rules"] == ["morale"]
    assert editor.optional_items["morale"].checkState() == Qt.CheckState.Checked
    window.act_undo.trigger()
    window.act_undo.trigger()
    window.act_undo.trigger()
    window.act_save.trigger()
    assert load(path) == original


def test_requires_come_and_go_together(window, project):
    editor = open_scenario(window, project)
    rules = editor._ruleset_optional_rules()
    rules[1]["requires"] = [rules[0]["id"]]  # the session's ruleset data: rule 2 needs rule 1
    first, second = rules[0]["id"], rules[1]["id"]
    editor.refresh_panels()
    tick(editor, second)
    assert editor.doc.data["optional_rules"] == [first, second] and len(editor.doc.history) == 1
    tick(editor, first, False)
    assert "optional_rules" not in editor.doc.data
    assert editor.optional_items[second].checkState() == Qt.CheckState.Unchecked


def test_unknown_id_is_shown_and_findings_jump_to_it(window, project):
    editor = open_scenario(window, project)
    editor.doc.apply("bad", [Set("/optional_rules", ["mines", "minez"])])
    assert editor.optional_items["minez"].text().split()[0] == "?"
    assert editor.optional_items["minez"].checkState() == Qt.CheckState.Checked
    window.validate_now()
    assert any("minez" in editor.diag_list.item(i).text() for i in range(editor.diag_list.count()))
    editor.focus_pointer("/optional_rules/1")
    assert editor.tabs.currentIndex() == editor.tabs.indexOf(editor.rules_page)
    assert editor.optional_list.currentItem() is editor.optional_items["minez"]
    tick(editor, "minez", False)
    assert editor.doc.data["optional_rules"] == ["mines"]


def test_screenshot_of_the_rules_page(window, project, tmp_path):
    """The Rules page scrolls: the option rows keep their height, nothing is wider than the panel."""
    from PySide6.QtWidgets import QApplication
    editor = open_scenario(window, project)
    tick(editor, "hidden-units")
    editor.tabs.setCurrentIndex(editor.tabs.indexOf(editor.rules_page))
    editor.rules_page.ensureWidgetVisible(editor.optional_list)
    QApplication.processEvents()
    rows = [editor.options_layout.itemAt(i).widget() for i in range(editor.options_layout.count())]
    assert rows and all(r.height() >= r.minimumSizeHint().height() for r in rows), "option rows squeezed"
    assert editor.rules_page.widget().width() <= editor.rules_page.viewport().width()
    assert editor.optional_list.height() >= 200
    shot = tmp_path / "optional-rules.png"
    assert window.grab().save(str(shot)) and shot.stat().st_size > 0


def test_rows_with_findings_are_coloured_with_the_finding_in_the_tooltip(window, project):
    editor = open_scenario(window, project, "meeting-engagement")  # a Basic Game scenario
    tick(editor, "spot-removal")
    window.validate_now()
    item = editor.optional_items["spot-removal"]
    assert item.foreground().color().name() == "#b00020"
    assert "error: optional rules (spot-removal) are played with the Advanced Game only" in item.toolTip()
    assert editor.optional_items["morale"].foreground().color().name() != "#b00020"
