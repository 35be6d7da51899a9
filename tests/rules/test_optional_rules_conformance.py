"""Optional rules in positions and in the conformance suite (issue 13, generic side): a position's
``optional_rules`` replaces the scenario's list (checked at its own lines), and ``check_optional_rules_real``
passes an optional rule that changes play and FAILS one that is never read, unless declared unexposable.

Toy: tests/rules/toyalpha.py over the fixture project's 'alpha' ruleset, with two optional rules: ``morale``
(read: a step advances one more) and ``panic`` (needs ``morale``; read only when the toy is told to)."""
import shutil
import sys
from pathlib import Path

import pytest

from studio.model import registry
from studio.rules.conformance import (ConformanceError, Probe, check_optional_rules_real, optional_rule_variants,
                                      optional_rules_report, run_declared)
from studio.rules.load import load_game
from studio.rules.position import PositionError, load_position

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toyalpha import HIT_TABLE, AlphaGame, Flags  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "project"
OPTIONAL = """optional_rules:
  - id: morale
    rule: X 7.1
    title: Morale
    description: Units check morale after losses.
  - id: panic
    rule: X 7.2
    title: Panic
    description: Broken units may panic.
    requires: [morale]
tables:"""


def units():
    return [{"card": "tank", "side": "blue", "status": {"pos": 0, "order": 1}},
            {"card": "tank", "side": "red", "status": {"pos": 0, "order": 1}}]


STEP = Probe("step", {"scenario": "clash", "units": units()}, ("step",), optional_rules=("morale", "panic"))


class OptionalAlpha(AlphaGame):
    """The toy with optional rules: ``morale`` adds one to a step; ``panic`` one more when ``read_panic``."""

    read_panic = False

    def __init__(self, scenario, index, options):
        super().__init__(scenario, index, options, Flags())
        self.optional_rules = frozenset(scenario.optional_rules)
        self.step += int(self.optional_on("morale")) + int(self.read_panic and self.optional_on("panic"))


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES, root)
    path = root / "rulesets" / "alpha" / "ruleset.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("tables:", OPTIONAL, 1), encoding="utf-8")
    return root


@pytest.fixture
def toy():
    def make(read_panic=False, probes=(STEP,), **fields):
        game = type("Toy", (OptionalAlpha,), {"read_panic": read_panic})
        registry.load_plugins()
        registry.unregister("alpha")
        return registry.register(registry.RulesetPlugin(
            id="alpha", name="Toy alpha", engine_tables=(HIT_TABLE,),
            game_factory=lambda scenario, index, options: game(scenario, index, options),
            probes=lambda: list(probes), **fields))

    yield make
    registry.unregister("alpha")


def position_file(project: Path, text: str) -> Path:
    path = project / "positions" / "p.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text("kind: position\nscenario: clash\n" + text, encoding="utf-8")
    return path


def test_position_optional_rules_replace_the_scenarios(project, toy):
    toy(read_panic=True)
    setup = load_position(position_file(project, "optional_rules: [morale, panic]\n"), project)
    assert setup.loaded.game.optional_rules == {"morale", "panic"}
    assert setup.loaded.scenario.optional_rules == ["morale", "panic"]
    assert setup.loaded.game.step == 4  # 2 (edge-los default) + morale + panic
    assert setup.as_loaded().spec.load().game.optional_rules == {"morale", "panic"}  # worker processes
    assert load_position(position_file(project, "optional_rules: []\n"), project).loaded.game.optional_rules == set()
    plain = load_position(position_file(project, "turn: 1\n"), project)
    assert plain.loaded.game.optional_rules == set() and plain.position.optional_rules is None


def test_position_optional_rules_checked_at_their_line(project, toy):
    toy()
    path = position_file(project, "turn: 1\noptional_rules: [panic, morals]\n")
    with pytest.raises(PositionError) as err:
        load_position(path, project)
    found = sorted((d.code, d.line) for d in err.value.diagnostics)
    assert found == [("scenario.optional-rule-requires", 4), ("scenario.optional-rule-unknown", 4)]
    assert all(d.file.endswith("p.yaml") for d in err.value.diagnostics)


def test_variants_switch_what_a_rule_needs_and_what_needs_it(project, toy):
    toy()
    ruleset = load_game("clash", project).index.model("ruleset", "alpha")
    assert optional_rule_variants(ruleset, [], "panic") == (["panic", "morale"], ["morale"])
    assert optional_rule_variants(ruleset, ["panic", "morale"], "morale") == (["panic", "morale"], [])


def test_rule_that_changes_play_passes_one_never_read_fails(project, toy):
    toy(read_panic=True)
    check_optional_rules_real(registry.plugin("alpha"), project)
    toy(read_panic=False)
    with pytest.raises(ConformanceError, match=r"optional rule 'panic' \[X 7.2\]: probe 'step' plays the same"):
        check_optional_rules_real(registry.plugin("alpha"), project)
    report = optional_rules_report(registry.plugin("alpha"), project)
    assert report["morale"] == "" and "plays the same" in report["panic"]
    assert "optional_rules_real" in run_declared(load_game("clash", project).game, registry.plugin("alpha"), project)


def test_unlisted_rule_fails_unless_unexposable_or_listed_only(project, toy):
    toy(read_panic=True, probes=(Probe("step", STEP.position, ("step",), optional_rules=("morale",)),))
    with pytest.raises(ConformanceError, match=r"'panic' \[X 7.2\]: no probe lists it"):
        check_optional_rules_real(registry.plugin("alpha"), project)
    check_optional_rules_real(registry.plugin("alpha"), project, listed_only=True)
    assert "no probe lists it" in optional_rules_report(registry.plugin("alpha"), project)["panic"]
    toy(read_panic=True, probes=(Probe("step", STEP.position, ("step",), optional_rules=("morale",)),),
        unexposable_optional_rules={"panic": "only matters when a unit breaks"})
    check_optional_rules_real(registry.plugin("alpha"), project)
    assert optional_rules_report(registry.plugin("alpha"), project)["panic"].startswith("unexposable:")


def test_probe_naming_unknown_rule_fails(project, toy):
    toy(read_panic=True, probes=(STEP, Probe("bad", STEP.position, ("step",), optional_rules=("bogus",))),
        unexposable_optional_rules={"nothing": "x"})
    with pytest.raises(ConformanceError) as err:
        check_optional_rules_real(registry.plugin("alpha"), project)
    assert "lists optional rule 'bogus'" in str(err.value) and "names 'nothing'" in str(err.value)
