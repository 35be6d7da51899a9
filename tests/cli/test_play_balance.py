"""``studio play`` at scale: --precision (stopping rule, games taken, same stop for any --jobs), --report HTML,
--variant, where the games run (--scheduler, $STUDIO_SCHEDULER, the project setting)."""
from __future__ import annotations

import json
import shutil
from argparse import Namespace
from pathlib import Path

from studio.cli.commands.play import scheduler_of
from studio.cli.main import main

DATA = Path(__file__).resolve().parents[2] / "data"
TIMING = ("elapsed_s", "steps_per_s", "executor", "restarts")


def _play(capsys, *args):
    code = main(["play", *args, "--project", str(DATA), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_precision_stops_when_reached_and_says_how_many_games(capsys):
    code, a = _play(capsys, "meeting-engagement", "--precision", "0.2", "--games", "400", "--seed", "3")
    assert code == 0
    stop = a["stopping"]
    assert stop["reached"] and stop["games"] == a["games"] < 400 and stop["precision"] == 0.2
    assert a["interval"] == "confidence sequence" and "Robbins" in stop["rule"]
    for side in a["win_rate"].values():
        lo, hi = side["ci95"]
        assert (hi - lo) / 2 <= 0.2
    code, b = _play(capsys, "meeting-engagement", "--precision", "0.2", "--games", "400", "--seed", "3",
                    "--jobs", "2")
    for d in (a, b):
        for key in TIMING:
            d.pop(key)
    assert a == b, "the run stops at the same game whatever runs the games"


def test_precision_not_reached_within_max_games(capsys):
    code, d = _play(capsys, "meeting-engagement", "--precision", "0.01", "--max-games", "12")
    assert code == 0 and d["games"] == 12 and d["stopping"]["reached"] is False
    assert main(["play", "meeting-engagement", "--precision", "0.7", "--project", str(DATA)]) == 2


def test_html_report_and_variant(capsys, tmp_path):
    out = tmp_path / "r.html"
    code, d = _play(capsys, "hasty-defense", "--games", "2", "--variant", "mbt-house-moving-targets",
                    "--report", str(out))
    assert code == 0 and any("mbt-house-moving-targets" in c for c in d["changes"])
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "Changed for this run" in html
    assert main(["play", "hasty-defense", "--variant", "nope", "--project", str(DATA)]) == 2
    assert "no variant 'nope'" in capsys.readouterr().err


def test_a_variant_in_force_is_played_by_default(capsys, tmp_path):
    project = tmp_path / "p"
    shutil.copytree(DATA, project)
    path = project / "variants" / "mbt-house-moving-targets.yaml"
    path.write_text(path.read_text().replace("scenarios: []", "scenarios: [hasty-defense]"))
    code = main(["play", "hasty-defense", "--games", "1", "--project", str(project), "--format", "json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["changes"]
    code = main(["play", "hasty-defense", "--games", "1", "--project", str(project), "--format", "json",
                 "--variant", "base"])
    assert code == 0 and "changes" not in json.loads(capsys.readouterr().out)


def test_where_the_games_run(monkeypatch, tmp_path):
    monkeypatch.delenv("STUDIO_SCHEDULER", raising=False)
    assert scheduler_of(Namespace(scheduler=None), tmp_path) is None
    (tmp_path / ".studio").mkdir()
    (tmp_path / ".studio" / "cluster.json").write_text('{"scheduler": "tcp://farm:8786"}')
    assert scheduler_of(Namespace(scheduler=None), tmp_path) == "tcp://farm:8786"
    monkeypatch.setenv("STUDIO_SCHEDULER", "tcp://env:8786")
    assert scheduler_of(Namespace(scheduler=None), tmp_path) == "tcp://env:8786"
    assert scheduler_of(Namespace(scheduler="tcp://cli:8786"), tmp_path) == "tcp://cli:8786"
    assert scheduler_of(Namespace(scheduler="local"), tmp_path) is None
    (tmp_path / ".studio" / "cluster.json").write_text("not json")
    monkeypatch.delenv("STUDIO_SCHEDULER")
    assert scheduler_of(Namespace(scheduler=None), tmp_path) is None


def test_unreachable_scheduler_is_a_clear_error(capsys, monkeypatch):
    import studio.sim.executors as executors

    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", "1s")
    code = main(["play", "meeting-engagement", "--games", "1", "--scheduler", "tcp://127.0.0.1:9",
                 "--project", str(DATA)])
    assert code == 2 and "studio play:" in capsys.readouterr().err
