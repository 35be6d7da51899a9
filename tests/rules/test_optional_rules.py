"""Optional rules as scenario switches (issue 13 item 1, generic side): the ruleset lists them, a scenario names
the ones in force, validation checks the names, and ``load_game`` / ``rebuild_game`` can switch them.

The fixture project's 'alpha' ruleset and a toy plugin (no real rule system)."""
import shutil
import sys
from pathlib import Path

import pytest

from studio.model import registry
from studio.model.validate import validate_paths
from studio.rules.load import ScenarioRefused, load_game, rebuild_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toygame import RaceGame  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "project"
OPTIONAL = """optional_rules:
  - id: morale
    rule: X 7.1
    title: Morale
    description: Units check morale after losses.
    tables: [hit]
  - id: panic
    rule: X 7.2
    title: Panic
    description: Broken units may panic.
    requires: [morale]
tables:"""


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES, root)
    edit(root / "rulesets" / "alpha" / "ruleset.yaml", "tables:", OPTIONAL)
    return root


class _Toy(RaceGame):
    def __init__(self, scenario):
        super().__init__()
        self.optional_rules = frozenset(scenario.optional_rules)


@pytest.fixture
def alpha():
    registry.load_plugins()
    plug = registry.register(registry.RulesetPlugin(
        id="alpha", name="Toy alpha", game_factory=lambda scenario, index, options: _Toy(scenario)))
    yield plug
    registry.unregister("alpha")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def codes(project, prefix):
    return sorted((d.code, d.severity.value, d.line) for d in validate_paths([project]).diagnostics
                  if d.code.startswith(prefix))


def test_scenario_names_optional_rules(project, alpha):
    scenario = project / "scenarios" / "clash.yaml"
    edit(scenario, "victory:", "optional_rules: [morale, moral, morale]\nvictory:")
    line = line_of(scenario, "optional_rules:")
    found = codes(project, "scenario.optional-rule")
    assert found == [("scenario.optional-rule-duplicate", "warning", line),
                     ("scenario.optional-rule-unknown", "error", line)]
    unknown = [d for d in validate_paths([project]).diagnostics if d.code == "scenario.optional-rule-unknown"]
    assert "'moral'" in unknown[0].message and "morale" in unknown[0].message  # the suggestion


def test_rule_switched_on_without_the_rule_it_requires(project, alpha):
    edit(project / "scenarios" / "clash.yaml", "victory:", "optional_rules: [panic]\nvictory:")
    assert [c[0] for c in codes(project, "scenario.optional-rule")] == ["scenario.optional-rule-requires"]
    edit(project / "scenarios" / "clash.yaml", "optional_rules: [panic]", "optional_rules: [panic, morale]")
    assert codes(project, "scenario.optional-rule") == []


def test_ruleset_optional_rule_names_missing_table(project, alpha):
    ruleset = project / "rulesets" / "alpha" / "ruleset.yaml"
    edit(ruleset, "tables: [hit]", "tables: [hits]")
    edit(ruleset, "requires: [morale]", "requires: [morals]")
    found = codes(project, "ruleset.optional-rule")
    assert found == [("ruleset.optional-rule-requires", "error", line_of(ruleset, "requires: [morals]")),
                     ("ruleset.optional-rule-table", "error", line_of(ruleset, "tables: [hits]"))]


def test_load_game_switches_optional_rules(project, alpha):
    assert load_game("clash", project).game.optional_rules == frozenset()
    loaded = load_game("clash", project, optional_rules=["morale", "panic"])
    assert loaded.game.optional_rules == {"morale", "panic"}
    assert loaded.game.optional_on("panic") and not load_game("clash", project).game.optional_on("panic")
    assert loaded.spec.load().game.optional_rules == {"morale", "panic"}  # worker processes rebuild the same
    assert rebuild_game(loaded, optional_rules=["morale"]).optional_rules == {"morale"}
    assert rebuild_game(loaded).optional_rules == {"morale", "panic"}


def test_load_game_refuses_unknown_optional_rules(project, alpha):
    with pytest.raises(ScenarioRefused) as err:
        load_game("clash", project, optional_rules=["morale", "bogus"])
    assert [d.code for d in err.value.diagnostics] == ["scenario.optional-rule-unknown"]
    with pytest.raises(ScenarioRefused):
        load_game("clash", project, optional_rules=["panic"])
