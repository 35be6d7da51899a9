"""The MBT Optional Rules checks (studio/rulesets/mbt/checks_optional.py, issue 13 item 4), each on a copy of the
sample project: optional rules in a Basic Game scenario, a rule on without the scenario data its ``needs.scenario``
names, a card field no card gives, data of rules that are off, and needs keys the MBT models do not have. The
ruleset copy gets its ``needs`` set here, so the tests do not depend on what the engine areas declare."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from studio.model.validate import validate_paths
from studio.rules.load import ScenarioRefused, load_game

DATA = Path(__file__).resolve().parents[3] / "data"
ADV = "scenarios/mbt/adv-combined-arms.yaml"
BASIC = "scenarios/mbt/meeting-engagement.yaml"


@pytest.fixture
def project(tmp_path):
    """A copy of the sample project without the everything-on scenario (it switches on every rule, so the needs
    these tests give the rules would report on it too)."""
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    (root / "scenarios/mbt/opt-everything.yaml").unlink()
    return root


def set_needs(root: Path, **needs_by_rule) -> Path:
    """Give optional rules of the ruleset copy their ``needs`` (rule id with '_' for '-')."""
    path = root / "rulesets/mbt/ruleset.yaml"
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    for rule in data["optional_rules"]:
        rule.pop("needs", None)
        if rule["id"].replace("-", "_") in needs_by_rule:
            rule["needs"] = needs_by_rule[rule["id"].replace("-", "_")]
    path.write_text(yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False), encoding="utf-8")
    return path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def switch_on(root: Path, rel: str, *rules: str) -> Path:
    path = root / rel
    edit(path, "\nenvironment:", f"\noptional_rules: [{', '.join(rules)}]\nenvironment:")
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def found(root: Path, prefix: str = "mbt.optional") -> list[tuple[str, str, str, int]]:
    return sorted((d.code, d.severity.value, Path(d.file).name, d.line) for d in validate_paths([root]).diagnostics
                  if d.code.startswith(prefix))


def messages(root: Path, code: str) -> list[str]:
    return [d.message for d in validate_paths([root]).diagnostics if d.code == code]


def test_sample_project_is_clean_of_optional_findings():
    assert found(DATA) == []


def test_optional_rules_in_a_basic_game_scenario_are_an_error(project):
    set_needs(project)
    path = switch_on(project, BASIC, "morale")
    assert found(project) == [("mbt.optional-basic-game", "error", path.name, line_of(path, "optional_rules:"))]
    assert "Advanced Game" in messages(project, "mbt.optional-basic-game")[0]
    with pytest.raises(ScenarioRefused):  # and the scenario cannot be played
        load_game("meeting-engagement", project)


def test_override_on_a_basic_scenario_is_refused(project):
    set_needs(project)
    with pytest.raises(ScenarioRefused) as err:
        load_game("meeting-engagement", project, optional_rules=["morale"])
    assert [d.code for d in err.value.diagnostics] == ["mbt.optional-basic-game"]


def test_rule_on_without_the_data_it_needs(project):
    set_needs(project, hidden_units={"scenario": ["hidden_units"]}, morale={"scenario": ["morale|platoons"]})
    path = switch_on(project, ADV, "hidden-units", "morale")
    line = line_of(path, "optional_rules:")
    assert found(project) == [("mbt.optional-needs-scenario", "error", path.name, line)] * 2
    text = messages(project, "mbt.optional-needs-scenario")
    assert any("'hidden-units' (MBT 7.2) is on but the scenario gives no extension.hidden_units (HIDDEN UNIT"
               in m for m in text)
    assert any("extension.morale" in m and " or extension.platoons" in m for m in text)
    with pytest.raises(ScenarioRefused):
        load_game("adv-combined-arms", project, optional_rules=["hidden-units"])
    # either alternative will do; the hidden counter fills the other
    edit(path, "extension:\n  game: advanced\n", "extension:\n  game: advanced\n  platoons: {M1-1: 1st}\n"
         "  hidden_units:\n    - {id: H1, side: us, hex: 2A1, units: []}\n")
    assert found(project, "mbt.optional-needs") == []


def test_card_field_no_card_gives_is_a_warning(project):
    set_needs(project, morale={"card_fields": ["laser_designator"]})
    for card in (project / "units/mbt").glob("*.yaml"):
        card.write_text(card.read_text(encoding="utf-8").replace("laser_designator: true", "laser_designator: false"),
                        encoding="utf-8")
    path = switch_on(project, ADV, "morale")
    assert found(project) == [("mbt.optional-card-field", "warning", path.name, line_of(path, "optional_rules:"))]
    assert "'laser_designator'" in messages(project, "mbt.optional-card-field")[0]
    m1 = project / "units/mbt/m1.yaml"
    edit(m1, "\nbody:\n", "\nbody:\n  laser_designator: true\n")
    assert found(project) == []


def test_data_of_a_rule_that_is_off_is_unused(project):
    set_needs(project, hidden_units={"scenario": ["hidden_units"]}, morale={"scenario": ["artillery"]})
    path = project / ADV
    edit(path, "extension:\n  game: advanced\n", "extension:\n  game: advanced\n"
         "  hidden_units:\n    - {id: H1, side: us, hex: 2A1, units: []}\n")
    # artillery is Advanced Game data (read without optional rules): never reported
    assert found(project) == [("mbt.optional-data-unused", "warning", path.name, line_of(path, "hidden_units:"))]
    assert "'hidden-units' (MBT 7.2)" in messages(project, "mbt.optional-data-unused")[0]
    switch_on(project, ADV, "hidden-units")
    assert found(project) == []


def test_needs_keys_must_be_fields_of_the_mbt_models(project):
    ruleset = set_needs(project, mines={"scenario": ["minefieldz"], "card_fields": ["weight_tonnes"]})
    assert [c[:3] for c in found(project)] == [("mbt.optional-needs-key", "warning", "ruleset.yaml")] * 2
    assert {d.line for d in validate_paths([project]).diagnostics if d.code == "mbt.optional-needs-key"} == {
        line_of(ruleset, "minefieldz"), line_of(ruleset, "weight_tonnes")}


def test_rule_about_map_features_the_boards_lack_is_a_warning(project):
    set_needs(project, morale={"map_features": ["Q", "hedgerow"]}, hidden_units={"map_features": ["C"]})
    path = switch_on(project, ADV, "morale", "hidden-units")
    assert found(project) == [("mbt.optional-map-feature", "warning", path.name, line_of(path, "optional_rules:"))]
    assert "about Q, hedgerow" in messages(project, "mbt.optional-map-feature")[0]
    board = project / "maps/board-2.yaml"
    edit(board, "hexsides:\n", "hexsides:\n  - {hex: 2A1, side: N, feature: hedgerow}\n")
    assert found(project) == []


def test_card_field_alternatives_and_the_scenario_instead_of_a_card(project):
    set_needs(project, morale={"card_fields": ["notes.no_such_field|extension.platoons"]},
              hidden_units={"card_fields": ["extension.platoonz"]})
    path = switch_on(project, ADV, "morale")
    assert [c[0] for c in found(project)] == ["mbt.optional-card-field", "mbt.optional-needs-key"]
    assert "'notes.no_such_field' or 'extension.platoons'" in messages(project, "mbt.optional-card-field")[0]
    edit(path, "extension:\n  game: advanced\n", "extension:\n  game: advanced\n  platoons: {M1-1: 1st}\n")
    assert [c[0] for c in found(project)] == ["mbt.optional-needs-key"]  # extension.platoonz: no such field
