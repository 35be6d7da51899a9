"""Validation across processes gives exactly the findings of one process (codes, files, lines, order)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.model import project, validate

REPO = Path(__file__).resolve().parents[2]


def _findings(root: Path, parallel: bool, monkeypatch) -> list[dict]:
    threshold = 1 if parallel else 10 ** 9
    monkeypatch.setattr(project, "idle_cores", lambda: 2.0)  # as on an idle machine, however loaded this one
    monkeypatch.setattr(project, "PARALLEL_MIN_FILES", threshold)
    monkeypatch.setattr(validate, "PARALLEL_MIN_CHECKS", threshold)
    result = validate.validate_paths([root])
    return [d.to_json() for d in result.diagnostics] + [{"files": result.files}]


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> Path:
    """The sample project with findings of every stage: syntax, schema, references and rule checks."""
    root = tmp_path_factory.mktemp("parallel") / "data"
    shutil.copytree(REPO / "data", root)
    card = root / "units/mbt/m1.yaml"
    card.write_text(card.read_text(encoding="utf-8") + "colour: green\n", encoding="utf-8")
    (root / "units/mbt/broken.yaml").write_text("kind: unit\nid: [unclosed\n", encoding="utf-8")
    for path in sorted((root / "toe").rglob("*.yaml"))[:3]:
        path.write_text(path.read_text(encoding="utf-8").replace("unit: ", "unit: missing-", 1), encoding="utf-8")
    for path in sorted((root / "scenarios").rglob("*.yaml"))[:2]:
        path.write_text(path.read_text(encoding="utf-8").replace("turns: ", "turns: -", 1), encoding="utf-8")
    return root


def test_parallel_findings_equal_single_process_findings(broken, monkeypatch):
    single = _findings(broken, False, monkeypatch)
    codes = {d["code"] for d in single[:-1]}
    assert {"syntax.yaml", "schema.unknown-field"} <= codes and len(codes) >= 4, codes
    assert _findings(broken, True, monkeypatch) == single


def test_no_workers_on_a_busy_machine(broken, monkeypatch):
    """With no core left idle by the other processes the files are parsed in this process (same findings)."""
    single = _findings(broken, False, monkeypatch)
    monkeypatch.setattr(project, "PARALLEL_MIN_FILES", 1)
    monkeypatch.setattr(project, "idle_cores", lambda: 0.2)
    monkeypatch.setattr(validate, "PARALLEL_MIN_CHECKS", 10 ** 9)

    def refused(workers):
        raise AssertionError("a pool was started on a busy machine")

    monkeypatch.setattr(project, "fork_pool", refused)
    monkeypatch.setattr(project, "fork_is_safe", lambda: True)  # whatever threads other tests left: never forks
    result = validate.validate_paths([broken])
    assert [d.to_json() for d in result.diagnostics] + [{"files": result.files}] == single
    monkeypatch.setattr(project, "idle_cores", lambda: 1.5)
    with pytest.raises(AssertionError, match="busy machine"):
        validate.validate_paths([broken])


def test_fork_is_refused_while_threads_run(monkeypatch):
    import threading

    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not project.fork_is_safe()


def test_the_cli_imports_only_the_command_it_runs():
    """``studio validate`` imports one command module, and neither numpy nor the process pool for a project
    without measured tables (their geometry checks need Shapely, which imports numpy)."""
    import subprocess
    import sys

    probe = ("import sys; from studio.cli.main import main; code = main(['validate', sys.argv[1]]); "
             "print(sorted(m for m in sys.modules if m.startswith('studio.cli.commands.')), "
             "'numpy' in sys.modules, 'multiprocessing' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe, str(REPO / "tests" / "fixtures" / "project")],
                         capture_output=True, text=True).stdout.strip().splitlines()[-1]
    assert out == "['studio.cli.commands.validate'] False False", out
