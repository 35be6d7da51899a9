"""WaW 13.0: the rulebook gives no night, visibility, weather or wind rules, so the plugin uses no scenario
``environment`` field, and a designer who sets one is warned that it changes nothing (issue 10, point 3)."""
import shutil
from pathlib import Path

from studio.model.validate import validate_paths
from studio.rules.load import load_game
from studio.rulesets.waw import PLUGIN
from studio.sim.runner import play_game

DATA = Path(__file__).resolve().parents[3] / "data"


def test_no_environment_field_is_used():
    assert PLUGIN.environment_fields == frozenset()


def test_night_turns_are_reported_as_unused_and_change_nothing(tmp_path):
    project = tmp_path / "data"
    shutil.copytree(DATA, project)
    path = project / "scenarios" / "waw" / "waw-crossroads.yaml"
    text = path.read_text()
    assert "  light: day\n" in text
    path.write_text(text.replace("  light: day\n", "  light: day\n  night_turns: [2, 3]\n"))
    found = [d for d in validate_paths([project]).diagnostics if d.code == "scenario.environment-unused"]
    assert found and found[0].file.endswith("waw-crossroads.yaml") and "night_turns" in found[0].message
    night = load_game(path, project).game
    day = load_game(DATA / "scenarios" / "waw" / "waw-crossroads.yaml", DATA).game
    for seed in (1, 2):
        a, sa = play_game(night, seed, ["heuristic", "random"])
        b, sb = play_game(day, seed, ["heuristic", "random"])
        assert sa.state_hash() == sb.state_hash()
