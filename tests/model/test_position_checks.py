"""Positions in a project are checked like scenarios where they can be: a position naming a scenario by id has its
``options`` and ``optional_rules`` checked against that scenario's ruleset, at their lines (issue 13)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.model.validate import validate_paths

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    (root / "positions").mkdir()
    return root


def write(root: Path, text: str) -> Path:
    path = root / "positions" / "p.yaml"
    path.write_text("kind: position\nid: p\nscenario: mbt-adv-combined-arms\n" + text, encoding="utf-8")
    return path


def found(root: Path) -> list[tuple[str, str, int]]:
    return sorted((d.code, d.severity.value, d.line) for d in validate_paths([root]).diagnostics
                  if d.file.endswith("p.yaml"))


def test_a_sound_position_is_clean(project):
    write(project, "optional_rules: [morale]\noptions: {penetration-zero: no-effect}\n")
    assert found(project) == []


def test_unknown_optional_rules_and_options_at_their_lines(project):
    write(project, "optional_rules: [morale, moral, morale]\noptions: {penetration-zero: ko, nope: 1}\n")
    assert found(project) == [("scenario.option-choice", "error", 5), ("scenario.option-unknown", "error", 5),
                              ("scenario.optional-rule-duplicate", "warning", 4),
                              ("scenario.optional-rule-unknown", "error", 4)]


def test_a_position_of_a_scenario_file_is_left_to_set_up(project):
    write(project, "optional_rules: [nope]\n").write_text(
        "kind: position\nid: p\nscenario: ../scenarios/mbt/adv-combined-arms.yaml\noptional_rules: [nope]\n",
        encoding="utf-8")
    assert found(project) == []  # no scenario id to look up: load_position reports it when it sets up
