"""Generic requirements a plugin declares: engine tables (issue 18 item 2), scenario options, environment use.

A toy plugin for the fixture project's 'alpha' ruleset is registered for each test and removed afterwards, so
these tests depend on no real rule system."""
import shutil
import sys
from pathlib import Path

import pytest

from studio.model import registry
from studio.model.requirements import TableSpec
from studio.model.validate import validate_paths
from studio.rules.load import ScenarioRefused, load_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toygame import RaceGame  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "project"
HIT = TableSpec("hit", rule="X 2.1", columns=("range", "hit"), numeric=("hit",), integer=("range",),
                keys=("1", "2"))


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES, root)
    return root


@pytest.fixture
def alpha():
    registry.load_plugins()
    plug = registry.register(registry.RulesetPlugin(
        id="alpha", name="Toy alpha", engine_tables=(HIT,), environment_fields=frozenset({"light"}),
        game_factory=lambda scenario, index, options: _recording(options)))
    yield plug
    registry.unregister("alpha")


RECEIVED: list[dict] = []


def _recording(options):
    RECEIVED.append(dict(options))
    return RaceGame()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def diagnostics(project, code):
    return [d for d in validate_paths([project]).diagnostics if d.code == code]


def test_clean_ruleset_meets_its_engine_tables(project, alpha):
    assert diagnostics(project, "ruleset.engine-table") == []


@pytest.mark.parametrize("cell", [".nan", ".inf", "-.inf"])
def test_non_finite_cell_is_an_error_at_its_line(project, alpha, cell):
    """NaN/inf never reach an engine: the strict models or the engine-table check refuse them at the line."""
    ruleset = project / "rulesets" / "alpha" / "ruleset.yaml"
    edit(ruleset, "- [2, 7]", f"- [2, {cell}]")
    errors = [d for d in validate_paths([project]).errors if d.file.endswith("alpha/ruleset.yaml")]
    assert errors and all(d.line == line_of(ruleset, f"- [2, {cell}]") for d in errors), errors
    assert all(d.code.startswith("schema.") or d.code == "ruleset.engine-table" for d in errors), errors
    with pytest.raises(ScenarioRefused):
        load_game("clash", project)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_table_problems_catch_non_finite_numbers(value):
    from studio.model.documents import Ruleset, Table
    from studio.model.requirements import table_problems

    table = Table.model_construct(id="hit", title="Hit", rule="X 2.1", columns=["range", "hit"],
                                  rows=[[1, 8], [2, value]], placeholder=False, placeholder_rows=[], notes="")
    rs = Ruleset.model_construct(id="alpha", tables=[table])
    found = list(table_problems(rs, (HIT,)))
    assert [(p.code, p.pointer) for p in found] == [("ruleset.engine-table", "/tables/0/rows/1/1")]
    assert "not a finite number" in found[0].message


@pytest.mark.parametrize("cell, why", [("'7'", "is text"), ("true", "is a boolean"), ("null", "is empty"),
                                       ("7.5", None)])
def test_bad_numeric_cell_is_an_error_at_its_line(project, alpha, cell, why):
    ruleset = project / "rulesets" / "alpha" / "ruleset.yaml"
    edit(ruleset, "- [2, 7]", f"- [2, {cell}]")
    found = diagnostics(project, "ruleset.engine-table")
    if why is None:  # a float is a number: fine for a numeric column
        assert found == []
        return
    assert len(found) == 1, [d.format_text() for d in found]
    d = found[0]
    assert d.severity.value == "error" and why in d.message and "row 1 column 'hit'" in d.message
    assert d.file.endswith("ruleset.yaml") and d.line == line_of(ruleset, f"- [2, {cell}]")
    assert d.rule == "X 2.1"


def test_integer_column_refuses_fraction(project, alpha):
    ruleset = project / "rulesets" / "alpha" / "ruleset.yaml"
    edit(ruleset, "- [1, 8]", "- [1.5, 8]")
    found = diagnostics(project, "ruleset.engine-table")
    assert sorted((d.line, d.message.split(";")[0]) for d in found) == [
        (line_of(ruleset, "rows:"), "table 'hit' has no row '1'"),
        (line_of(ruleset, "[1.5, 8]"), "table 'hit' row 0 column 'range' is 1.5, not a whole number")]


def test_missing_table_column_and_key(project, alpha):
    ruleset = project / "rulesets" / "alpha" / "ruleset.yaml"
    edit(ruleset, "- id: hit", "- id: hits")
    found = diagnostics(project, "ruleset.engine-table")
    assert len(found) == 1 and "table 'hit' is missing" in found[0].message and "hits" in found[0].message
    assert found[0].line == line_of(ruleset, "tables:")
    edit(ruleset, "- id: hits", "- id: hit")
    edit(ruleset, "columns: [range, hit]", "columns: [range, to_hit]")
    found = diagnostics(project, "ruleset.engine-table")
    assert [d.message for d in found if "no column 'hit'" in d.message]
    assert all(d.line == line_of(ruleset, "columns: [range, to_hit]") for d in found)
    edit(ruleset, "columns: [range, to_hit]", "columns: [range, hit]")
    edit(ruleset, "- [2, 7]", "- [3, 7]")
    found = diagnostics(project, "ruleset.engine-table")
    assert [d.message for d in found] == ["table 'hit' has no row '2'; the rules engine reads it"]


def test_min_rows(project, alpha):
    alpha.engine_tables = (TableSpec("hit", min_rows=3),)
    found = diagnostics(project, "ruleset.engine-table")
    assert len(found) == 1 and "at least 3" in found[0].message


def test_no_plugin_no_engine_table_check(project):
    registry.load_plugins()
    assert registry.plugin("alpha") is None
    edit(project / "rulesets" / "alpha" / "ruleset.yaml", "- [2, 7]", "- [2, .nan]")
    assert diagnostics(project, "ruleset.engine-table") == []


def test_play_refuses_a_ruleset_failing_engine_tables(project, alpha):
    edit(project / "rulesets" / "alpha" / "ruleset.yaml", "- [2, 7]", "- [2, '7']")
    with pytest.raises(ScenarioRefused) as err:
        load_game("clash", project)
    assert [d.code for d in err.value.diagnostics if d.severity.value == "error"] == ["ruleset.engine-table"]


def test_scenario_option_unknown_and_choice_at_key_line(project, alpha):
    scenario = project / "scenarios" / "clash.yaml"
    edit(scenario, "victory:", "options:\n  edge-loss: block-if-both\n  edge-los: sometimes\nvictory:")
    unknown = diagnostics(project, "scenario.option-unknown")
    choice = diagnostics(project, "scenario.option-choice")
    assert [(d.line, "edge-los" in d.message) for d in unknown] == [(line_of(scenario, "edge-loss:"), True)]
    assert [d.line for d in choice] == [line_of(scenario, "edge-los: sometimes")]
    assert "block-if-either" in choice[0].message


def test_option_choice_keeps_booleans_apart(project, alpha):
    ruleset = project / "rulesets" / "alpha" / "ruleset.yaml"
    edit(ruleset, "choices: [block-if-either, block-if-both]\n    default: block-if-both",
         "choices: [1, 2]\n    default: 1")
    scenario = project / "scenarios" / "clash.yaml"
    edit(scenario, "victory:", "options:\n  edge-los: true\nvictory:")
    assert len(diagnostics(project, "scenario.option-choice")) == 1


def test_load_game_refuses_bad_api_options(project, alpha):
    with pytest.raises(ScenarioRefused) as err:
        load_game("clash", project, options={"not-an-option": 1, "edge-los": "bogus"})
    codes = sorted(d.code for d in err.value.diagnostics)
    assert codes == ["scenario.option-choice", "scenario.option-unknown"]
    assert all(d.pointer in ("/not-an-option", "/edge-los") for d in err.value.diagnostics)


def test_factory_receives_defaults_then_scenario_then_api(project, alpha):
    RECEIVED.clear()
    edit(project / "rulesets" / "alpha" / "ruleset.yaml", "default: block-if-both\n",
         "default: block-if-both\n  - id: other\n    title: Other\n    rule: X 1.2\n    description: d\n"
         "    choices: [a, b, c]\n    default: a\n")
    edit(project / "scenarios" / "clash.yaml", "victory:", "options:\n  other: b\n  edge-los: block-if-either\n"
                                                         "victory:")
    loaded = load_game("clash", project)
    assert RECEIVED[-1] == {"edge-los": "block-if-either", "other": "b"}
    loaded = load_game("clash", project, options={"other": "c"})
    assert RECEIVED[-1] == {"edge-los": "block-if-either", "other": "c"}
    assert loaded.options == RECEIVED[-1] and loaded.overrides == {"other": "c"}
    assert loaded.spec.options == (("other", "c"),)
    loaded.spec.load()
    assert RECEIVED[-1]["other"] == "c"


def test_environment_field_unused_by_the_rules_is_a_warning(project, alpha):
    scenario = project / "scenarios" / "clash.yaml"
    edit(scenario, "victory:", "environment:\n  weather: rain\n  light: night\n  night_turns: [7]\n"
                               "  wind:\n    direction: E\nvictory:")
    found = diagnostics(project, "scenario.environment-unused")
    assert all(d.severity.value == "warning" for d in found)
    assert sorted((d.line, d.message.split("'")[1]) for d in found) == [
        (line_of(scenario, "weather: rain"), "weather"), (line_of(scenario, "night_turns"), "night_turns"),
        (line_of(scenario, "wind:"), "wind")]
    alpha.environment_fields = frozenset({"weather", "light", "night_turns", "wind"})
    assert diagnostics(project, "scenario.environment-unused") == []


def test_default_environment_gives_no_warning(project, alpha):
    scenario = project / "scenarios" / "clash.yaml"
    edit(scenario, "victory:", "environment:\n  weather: clear\n  light: day\nvictory:")
    assert diagnostics(project, "scenario.environment-unused") == []


@pytest.mark.parametrize("cell", ["'7'", "true"])
def test_studio_play_refuses_with_diagnostics_not_a_traceback(project, alpha, cell, capsys):
    """Issue 18 item 2: a ruleset cell the engine reads as a number, quoted or boolean: play exits 1 and
    prints the diagnostic (file, line, code), the engine is never built."""
    from studio.cli.main import main

    RECEIVED.clear()
    ruleset = project / "rulesets" / "alpha" / "ruleset.yaml"
    edit(ruleset, "- [2, 7]", f"- [2, {cell}]")
    code = main(["play", "clash", "--project", str(project), "--games", "1"])
    out = capsys.readouterr()
    assert code == 1 and RECEIVED == []
    assert f"ruleset.yaml:{line_of(ruleset, f'- [2, {cell}]')}:" in out.out
    assert "error ruleset.engine-table" in out.out and "Traceback" not in out.out + out.err
