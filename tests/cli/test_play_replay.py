"""``studio play`` and ``studio replay``: JSON contract, jobs independence, refusal, replay verification."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from studio.cli.main import main

DATA = Path(__file__).resolve().parents[2] / "data"
KEYS = ["scenario", "ruleset", "ruleset_version", "games", "seed", "bots", "wins", "draws", "win_rate", "turns",
        "vp", "losses", "placeholder_tables", "environment_rules", "bots_by_side", "games_requested", "cancelled",
        "engine_errors", "interval", "decided_turn", "end_turn", "vp_distribution", "losses_by_type",
        "losses_by_range", "range_bands_hexes", "range_unit", "kills_by_weapon", "casualty_source", "elapsed_s", "steps",
        "steps_per_s", "executor", "restarts"]
TIMING = ("elapsed_s", "steps_per_s", "executor", "restarts")


def _play(capsys, *args):
    code = main(["play", *args, "--project", str(DATA), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_play_json_same_for_any_jobs(capsys, tmp_path):
    code1, a = _play(capsys, "meeting-engagement", "--games", "4", "--seed", "9", "--jobs", "1")
    code2, b = _play(capsys, "meeting-engagement", "--games", "4", "--seed", "9", "--jobs", "2",
                     "--save-replays", str(tmp_path))
    assert code1 == code2 == 0
    assert list(a) == KEYS
    for d in (a, b):
        for key in TIMING:
            d.pop(key)
    assert a == b and a["games"] == 4 and "ap-hit" in a["placeholder_tables"]
    files = sorted(tmp_path.glob("*.replay.json"))
    assert len(files) == 4
    assert main(["replay", str(files[0]), "--project", str(DATA)]) == 0


def test_play_unknown_bot_is_usage_error(capsys):
    assert main(["play", "meeting-engagement", "--bots", "nobody,random", "--project", str(DATA)]) == 2


def test_play_refuses_invalid_scenario(capsys, tmp_path):
    project = tmp_path / "p"
    shutil.copytree(DATA, project)
    sc = project / "scenarios" / "mbt" / "meeting-engagement.yaml"
    sc.write_text(sc.read_text().replace("map: board-4", "map: board-9"))
    assert main(["play", str(sc), "--project", str(project), "--games", "1"]) == 1
    assert "board-9" in capsys.readouterr().out


def test_replay_unreadable_file(tmp_path):
    bad = tmp_path / "x.replay.json"
    bad.write_text("{not json")
    assert main(["replay", str(bad)]) == 2


def test_write_balance_next_to_scenario(capsys, tmp_path):
    project = tmp_path / "p"
    shutil.copytree(DATA, project)
    sc = project / "scenarios" / "mbt" / "delaying-action.yaml"
    assert main(["play", str(sc), "--project", str(project), "--games", "2", "--write-balance",
                 "--format", "json"]) == 0
    written = json.loads((sc.parent / "delaying-action.balance.json").read_text())
    assert written["games"] == 2 and written["scenario"] == "delaying-action"
