"""tools/mutate.py: a killable mutant is killed, an unkillable one survives, the repository is never written.

The normal-suite tests run the tool on a toy repository in a temporary directory (one tiny module, one tiny
test file) so they take a few seconds. ``test_engine_mutation_score`` (marker ``mutation``) runs it over both
engines and prints the scores: ``python -m pytest -m mutation -s tests/tools/test_mutate.py``.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "mutate.py"

TOY_MODULE = '''\
"""A toy rule module."""


def stack_ok(count, limit=2):
    """True when ``count`` units fit the stacking limit."""
    return count <= limit


def bonus(level):
    if level > 3:
        return 1
    return 0


def __repr__():
    return "skipped: never mutated"
'''

# The tests check the stacking boundary exactly, but call bonus() only with a level where > and >= agree and
# check only that it returns something: `level > 3 -> level >= 3` cannot be killed by them.
# The tests reach the rules through a module that imports them dynamically: the tool's warm-up (which imports
# non-target project modules once in the parent) must notice and leave it to the children, or no mutant would
# ever be seen by the tests.
TOY_API = '''\
import importlib

import toy.util

_rules = importlib.import_module("toy.rules")
stack_ok = _rules.stack_ok
bonus = _rules.bonus
'''

TOY_TESTS = '''\
from toy.api import bonus, stack_ok


def test_stacking_boundary():
    assert stack_ok(2)
    assert not stack_ok(3)


def test_bonus_runs():
    assert bonus(10) is not None
'''


def make_toy(root: Path) -> Path:
    (root / "toy").mkdir(parents=True)
    (root / "toy" / "__init__.py").write_text("")
    (root / "toy" / "rules.py").write_text(TOY_MODULE)
    (root / "toy" / "api.py").write_text(TOY_API)
    (root / "toy" / "util.py").write_text("HELPER = 1\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_toy.py").write_text(TOY_TESTS)
    (root / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "--doctest-modules"\n')
    return root


def tree_state(root: Path) -> dict:
    """Every file and directory under root with its content hash and modification time."""
    state = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_dir():
            state[rel] = "dir"
        else:
            state[rel] = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
    return state


def run_tool(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="")
    env.pop("PYTHONDONTWRITEBYTECODE")
    return subprocess.run([sys.executable, str(TOOL), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=240, env=env)


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("mutate")
    toy = make_toy(base / "repo")
    before = tree_state(toy)
    report = base / "report.json"
    cache = base / "cache.json"
    result = run_tool("--repo", str(toy), "--target", "toy/rules.py", "--tests", "tests", "--cache", str(cache),
                      "--report", str(report), cwd=toy)
    assert result.returncode == 0, result.stderr
    return {"toy": toy, "before": before, "result": result, "report": json.loads(report.read_text()),
            "cache": cache, "base": base}


def by_change(report: dict, original: str, mutated: str) -> dict:
    found = [m for m in report["mutants"] if m["original"] == original and m["mutated"] == mutated]
    assert len(found) == 1, [(m["original"], m["mutated"]) for m in report["mutants"]]
    return found[0]


def test_killable_mutant_is_killed(toy_run):
    mutant = by_change(toy_run["report"], "count <= limit", "count < limit")
    assert mutant["status"] == "killed"
    assert mutant["killer"] == "tests/test_toy.py::test_stacking_boundary"
    # toy.util was imported once in the parent; toy.api (which imports the target dynamically) was not
    assert "warm-up imported" in toy_run["result"].stderr and "(2 of the project)" in toy_run["result"].stderr


def test_module_imports_and_dependents(tmp_path):
    sys.path.insert(0, str(TOOL.parent))
    try:
        import mutate
    finally:
        sys.path.remove(str(TOOL.parent))
    source = "import a.b\nfrom . import c\nfrom ..d import e\ntry:\n    import f\nexcept ImportError:\n    pass\n" \
             "def g():\n    import h\n"
    assert mutate.module_imports(source, "p.q.m", False) == {"a", "a.b", "p.q", "p.q.c", "p", "p.d", "p.d.e", "f"}
    for name, text in {"p/__init__.py": "", "p/t.py": "", "p/u.py": "from .t import x\n", "p/v.py": "import p.u\n",
                       "p/w.py": "import os\n"}.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    modules = {"p": "p/__init__.py", "p.t": "p/t.py", "p.u": "p/u.py", "p.v": "p/v.py", "p.w": "p/w.py"}
    assert mutate.dependents(tmp_path, modules, {"p.t"}) == {"p.t", "p.u", "p.v"}


def test_unkillable_mutant_survives_and_is_listed(toy_run):
    report = toy_run["report"]
    mutant = by_change(report, "level > 3", "level >= 3")
    assert mutant["status"] == "survived"
    assert mutant["function"] == "bonus"
    assert "toy/rules.py:10: comparison: level > 3 -> level >= 3 (in bonus)" in toy_run["result"].stdout
    assert report["total"]["survived"] >= 1 and report["total"]["killed"] >= 1
    total = report["total"]
    caught = total["killed"] + total["timeout"]
    assert total["score"] == round(caught / (caught + total["survived"] + total["no-coverage"]), 4)


def test_operators_and_skips(toy_run):
    report = toy_run["report"]
    operators = {m["operator"] for m in report["mutants"]}
    assert {"comparison", "number", "return-value"} <= operators
    assert not [m for m in report["mutants"] if m["function"] == "__repr__"]
    assert not [m for m in report["mutants"] if "toy rule" in m["original"]]      # docstrings untouched


def test_repository_is_never_modified(toy_run):
    assert tree_state(toy_run["toy"]) == toy_run["before"]          # no file written, not even __pycache__
    assert not Path(toy_run["report"]["workdir"]).exists()          # the copy is removed afterwards
    assert not toy_run["report"]["workdir"].startswith(str(toy_run["toy"]))


def test_cache_reruns_only_survivors_after_new_tests(toy_run):
    toy, cache = toy_run["toy"], toy_run["cache"]
    # Same tests: everything comes from the cache.
    again = run_tool("--repo", str(toy), "--target", "toy/rules.py", "--tests", "tests", "--cache", str(cache),
                     cwd=toy)
    assert "0 to run" in again.stderr, again.stderr
    # A new test kills the >= survivor; with --survivors-only only survivors re-run, and the new test kills it.
    copy = toy_run["base"] / "repo2"
    make_toy(copy)
    (copy / "tests" / "test_more.py").write_text(
        "from toy.rules import bonus\n\n\ndef test_bonus_threshold():\n    assert bonus(3) == 0\n"
        "    assert bonus(4) == 1\n")
    report = toy_run["base"] / "report2.json"
    survivors = len(toy_run["report"]["survivors"])
    result = run_tool("--repo", str(copy), "--target", "toy/rules.py", "--tests", "tests", "--cache", str(cache),
                      "--survivors-only", "--report", str(report), cwd=copy)
    assert result.returncode == 0, result.stderr
    assert f"{survivors} to run" in result.stderr, result.stderr
    second = json.loads(report.read_text())
    assert by_change(second, "level > 3", "level >= 3")["status"] == "killed"


def test_equivalent_mutants_leave_the_score(tmp_path):
    toy = make_toy(tmp_path / "repo")
    eq = tmp_path / "equivalent.txt"
    eq.write_text("# file:line:operator:description  # why\n"
                  "toy/rules.py:10:comparison:level > 3 -> level >= 3  # the tests cannot tell 3 from 4\n"
                  "toy/rules.py:99:comparison:a -> b  # stale\n")
    report = tmp_path / "r.json"
    result = run_tool("--repo", str(toy), "--target", "toy/rules.py", "--tests", "tests", "--cache",
                      str(tmp_path / "c.json"), "--equivalent", str(eq), "--report", str(report), cwd=toy)
    assert result.returncode == 0, result.stderr
    data = json.loads(report.read_text())
    assert [(m["line"], m["why"]) for m in data["equivalent"]] == [(10, "the tests cannot tell 3 from 4")]
    assert data["total"]["equivalent"] == 1
    assert "toy/rules.py:99:comparison:a -> b" in data["stale_equivalents"]
    assert all(m["original"] != "level > 3" or m["mutated"] != "level >= 3" for m in data["survivors"])


@pytest.mark.mutation
def test_engine_mutation_score(tmp_path):
    """Both engines' mutation scores (slow: tens of minutes; ``pytest -m mutation -s``)."""
    scores = {}
    for engine in ("waw", "mbt"):
        report = tmp_path / f"{engine}.json"
        result = subprocess.run(
            [sys.executable, str(TOOL), "--target", f"studio/rulesets/{engine}/engine", "--tests",
             f"tests/rulesets/{engine}", "--report", str(report)],
            cwd=REPO, capture_output=True, text=True)
        print(result.stdout)
        assert result.returncode == 0, result.stderr
        scores[engine] = json.loads(report.read_text())["total"]["score"]
    print("mutation scores:", scores)
    assert all(score is not None for score in scores.values())


def test_interrupted_run_leaves_no_child_and_no_copy(tmp_path):
    """SIGTERM (or Ctrl-C) kills the running mutant's tests and removes the copy: nothing outlives the tool."""
    toy = make_toy(tmp_path / "repo")
    marker, armed = tmp_path / "started", tmp_path / "armed"
    (toy / "tests" / "test_slow.py").write_text(
        "import os, time\nfrom toy.api import stack_ok\n\n\ndef test_slow():\n"
        f"    hang = os.path.exists({str(armed)!r})\n"
        f"    if stack_ok(2):\n        open({str(marker)!r}, 'a').write(f'{{os.getpid()}}\\n')\n"
        "        time.sleep(60 if hang else 0)\n    assert stack_ok(2)\n")
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = subprocess.Popen([sys.executable, str(TOOL), "--repo", str(toy), "--target", "toy/rules.py", "--tests",
                             "tests/test_slow.py", "--cache", str(tmp_path / "c.json"), "--timeout", "120"],
                            cwd=toy, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: len(_pids(marker)) >= 1)          # the coverage run went through the test
        armed.write_text("")                               # from now on the test hangs
        wait_for(lambda: len(_pids(marker)) >= 2)          # a mutant's test is hanging
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted" in err
    for pid in _pids(marker):
        assert not Path(f"/proc/{pid}").exists()
    assert not list(tmp_path.glob("mutate-work-*"))


def wait_for(condition, seconds=120):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def _pids(marker: Path) -> list[int]:
    return [int(x) for x in marker.read_text().split()] if marker.exists() else []


def test_a_broken_test_file_is_left_out_and_no_tests_is_an_error(tmp_path):
    toy = make_toy(tmp_path / "repo")
    (toy / "tests" / "test_broken.py").write_text("raise ImportError('half-edited')\n")
    report = tmp_path / "r.json"
    result = run_tool("--repo", str(toy), "--target", "toy/rules.py", "--tests", "tests", "--cache",
                      str(tmp_path / "c.json"), "--report", str(report), cwd=toy)
    assert result.returncode == 0, result.stderr
    assert "tests/test_broken.py does not import and is left out" in result.stderr
    assert by_change(json.loads(report.read_text()), "count <= limit", "count < limit")["status"] == "killed"
    (toy / "tests" / "test_toy.py").unlink()
    result = run_tool("--repo", str(toy), "--target", "toy/rules.py", "--tests", "tests", "--cache",
                      str(tmp_path / "c2.json"), cwd=toy)
    assert result.returncode != 0 and "no test passes without mutants" in result.stderr
