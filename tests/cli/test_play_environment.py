"""`studio play` plays the scenario environment and says which environment rules applied (issue 10, item 3)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from studio.cli.main import main

REPO = Path(__file__).resolve().parents[2]


def _project_with_day_twin(tmp_path: Path) -> Path:
    """A copy of the sample project plus 'delaying-action-day': the same scenario without night turns."""
    root = tmp_path / "data"
    shutil.copytree(REPO / "data", root)
    src = (root / "scenarios/mbt/delaying-action.yaml").read_text(encoding="utf-8")
    assert "  night_turns: [11, 12]\n" in src
    twin = src.replace("  night_turns: [11, 12]\n", "").replace("id: delaying-action\n", "id: delaying-action-day\n", 1)
    (root / "scenarios/mbt/delaying-action-day.yaml").write_text(twin, encoding="utf-8")
    return root


def _play(capsys, scenario: str, project: Path) -> dict:
    assert main(["play", scenario, "--project", str(project), "--games", "12", "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_night_turns_change_play_and_are_reported(tmp_path, capsys):
    project = _project_with_day_twin(tmp_path)
    night = _play(capsys, "delaying-action", project)
    day = _play(capsys, "delaying-action-day", project)
    assert any("night" in rule and "11" in rule for rule in night["environment_rules"])
    assert not any("night" in rule for rule in day["environment_rules"])
    played = ("vp", "losses", "steps", "wins", "turns")
    assert any(night[k] != day[k] for k in played), "night turns 11-12 changed nothing in 12 games"


def test_text_report_lists_environment_rules(tmp_path, capsys):
    project = _project_with_day_twin(tmp_path)
    assert main(["play", "delaying-action", "--project", str(project), "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "environment rules applied:" in out
    assert out.count("placeholder tables used:") == 1
    line = next(ln for ln in out.splitlines() if "placeholder tables used:" in ln)
    names = [n.strip() for n in line.split(":", 1)[1].split(",")]
    assert len(names) == len(set(names)), "a placeholder table is listed twice"
