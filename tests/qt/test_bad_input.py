"""Bad input never crashes the window: every editor opens documents with wrong types and missing parts, and
survives edits that the data does not fit."""
import pytest

from studio.model import yamlio

BAD = {
    "units/mbt/bad-card.yaml": {"kind": "unit", "id": "bad-card", "ruleset": "mbt", "name": 5, "nation": None,
                                "body": {"weapons": 5, "general": "fast", "defensive": [1, 2]},
                                "symbol": "tank", "years": {"start": "old"}},
    "units/mbt/bad-card-2.yaml": {"kind": "unit", "id": "bad-card-2", "ruleset": "nope", "body": "x"},
    "toe/mbt/bad-toe.yaml": {"kind": "toe", "id": "bad-toe", "ruleset": "mbt", "root": {
        "id": "r", "slots": [1, {"unit": None, "count": "many"}], "children": "none", "template": 7}},
    "toe/mbt/bad-toe-2.yaml": {"kind": "toe", "id": "bad-toe-2", "root": [1, 2]},
    "maps/bad-map.yaml": {"kind": "map", "id": "bad-map", "ruleset": "mbt",
                          "hex": {"columns": 3, "rows": 2, "orientation": 5},
                          "terrain": ["C C", 7], "elevation": "flat", "hexsides": [{"hex": 5}, "x"],
                          "roads": [{"hexes": ["zz", None]}], "labels": [{"hex": []}]},
    "scenarios/mbt/bad-scenario.yaml": {"kind": "scenario", "id": "bad-scenario", "ruleset": "mbt",
                                        "boards": [{"map": 5, "at": "here"}, "x", {"map": "board-2", "rotate": 90}],
                                        "sides": "two", "victory": [{"hexes": "2A1"}], "options": [1]},
    "scenarios/mbt/bad-scenario-2.yaml": {"kind": "scenario", "id": "bad-scenario-2", "ruleset": "mbt",
                                          "sides": [{"forces": [{"setup": {"hexes": [5, "9Z9"]}, "toe": 3}]}, 7]},
}


@pytest.mark.parametrize("rel", sorted(BAD))
def test_editors_open_bad_documents(window, project, rel):
    path = project / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yamlio.dump(BAD[rel]))
    window.session.refresh()
    editor = window.open_path(path)
    assert editor is not None
    window.validate_now()
    assert any(d.file == editor.doc.display for d in window.problems.diagnostics)
    editor.focus_pointer("/sides/0/forces/0/setup/hexes/0")
    editor.focus_pointer("/body/weapons/0/ammo/0")
    editor.focus_pointer("/nothing/here")
    window.act_undo.trigger()
    window.act_save.trigger()
    assert path.exists()


def test_dedicated_editors_are_used_for_bad_documents(window, project):
    from studio.qt.editors.card_editor import QtCardEditor
    from studio.qt.editors.map_editor import QtMapEditor
    from studio.qt.editors.scenario_editor import QtScenarioEditor
    from studio.qt.editors.toe_editor import QtToeEditor
    expected = {"units/mbt/bad-card.yaml": QtCardEditor, "toe/mbt/bad-toe.yaml": QtToeEditor,
                "maps/bad-map.yaml": QtMapEditor, "scenarios/mbt/bad-scenario-2.yaml": QtScenarioEditor}
    for rel, cls in expected.items():
        path = project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yamlio.dump(BAD[rel]))
    window.session.refresh()
    for rel, cls in expected.items():
        assert type(window.open_path(project / rel)) is cls, rel
