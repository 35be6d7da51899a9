"""Benchmarks: validation (issue 19 item 3), each figure beside its anchor measured in the same run.

* a generated project of 5,000 unit cards, 200 TO&Es and 50 scenarios, beside a single-process CSafeLoader parse
  of the same files (target: validation <= 1.0x that parse);
* the same project with a finding in every card (positions from the first parse, no re-parse per finding);
* ``studio validate data`` as a whole process (target < 0.3 s), from the result cache and validating, beside
  ``python -c pass``.
"""
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from anchor import anchor, report

from studio.model.documents import Scenario, Toe, UnitCard
from studio.model.save import save_document
from studio.model.validate import validate_paths

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "project"


def generate(root: Path, cards: int = 5000, toes: int = 200, scenarios: int = 50) -> None:
    shutil.copytree(FIXTURE, root)
    body = {"move": 6, "armor": {"front": 12, "rear": 4},
            "weapons": [{"name": f"gun-{k}", "range": [1, 6, 12, 18, 24], "penetration": [30, 25, 20, 15, 10]}
                        for k in range(3)]}
    for i in range(cards):
        save_document(UnitCard.model_validate({"kind": "unit", "schema_version": 1, "id": f"u{i:05d}",
                                               "ruleset": "alpha", "name": f"Unit {i}", "nation": "US",
                                               "years": {"start": 1980, "end": 1990}, "body": body}),
                      root / "units" / "gen" / f"u{i:05d}.yaml")
    for t in range(toes):
        slots = [{"id": f"s{k}", "unit": f"u{(t * 7 + k) % cards:05d}", "count": 3} for k in range(4)]
        children = [{"id": f"plt{k}", "echelon": "platoon", "slots": slots} for k in range(3)]
        save_document(Toe.model_validate({"kind": "toe", "schema_version": 1, "id": f"toe{t:03d}", "ruleset": "alpha",
                                          "name": f"Company {t}", "nation": "US",
                                          "root": {"id": "coy", "echelon": "company", "slots": slots[:1],
                                                   "children": children}}),
                      root / "toe" / "gen" / f"toe{t:03d}.yaml")
    for s in range(scenarios):
        sides = [{"id": side, "name": side, "nation": "US",
                  "forces": [{"id": f"f{k}", "toe": f"toe{(s + k) % toes:03d}", "setup": {"hexes": ["0101", "0202"]}}
                             for k in range(3)]} for side in ("blue", "red")]
        save_document(Scenario.model_validate({"kind": "scenario", "schema_version": 1, "id": f"sc{s:02d}",
                                               "ruleset": "alpha", "name": f"Scenario {s}",
                                               "boards": [{"map": "board-x"}], "turns": 10, "first_player": "blue",
                                               "sides": sides,
                                               "victory": [{"id": "v", "type": "hold_hexes", "side": "red",
                                                            "points": 5, "hexes": ["0303"]}]}),
                      root / "scenarios" / "gen" / f"sc{s:02d}.yaml")


def parse_anchor(root: Path) -> tuple[float, int]:
    """The anchor: read and parse every YAML file of ``root`` with PyYAML's CSafeLoader in this one process."""
    files = sorted(p for p in root.rglob("*.yaml"))
    start = time.perf_counter()
    for path in files:
        yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return time.perf_counter() - start, len(files)


def _cpu() -> float:
    """CPU seconds of this process and its finished children (worker processes) so far."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _best(fn, repeat: int = 3):
    """(best wall seconds, CPU seconds of that run, value)."""
    best, cpu, value = float("inf"), 0.0, None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), _cpu()
        value = fn()
        wall = time.perf_counter() - start
        if wall < best:
            best, cpu = wall, _cpu() - start_cpu
    return best, cpu, value


@pytest.mark.bench
def test_bench_validate_generated_project(tmp_path):
    chess = anchor()
    root = tmp_path / "big"
    generate(root)
    validate_paths([root])  # warm-up: imports, plugin registry, model compilation
    parse_s, parse_cpu, _ = _best(lambda: parse_anchor(root))
    elapsed, cpu, result = _best(lambda: validate_paths([root]))
    print(f"\nvalidate: {result.files} files (5,000 cards, 200 TO&Es, 50 scenarios) in {elapsed:.2f} s "
          f"({result.files / elapsed:,.0f} files/s) vs single-process CSafeLoader parse {parse_s:.2f} s = "
          f"{elapsed / parse_s:.2f}x the parse (target <= 1.0x; {os.cpu_count()} CPUs, load "
          f"{os.getloadavg()[0]:.1f}); CPU {cpu:.2f} s vs the parse's {parse_cpu:.2f} s")
    report("  validation", result.files / elapsed, chess, "files/s")
    assert result.files == 5000 + 200 + 50 + 9
    assert not result.errors, result.errors[:3]


@pytest.mark.bench
def test_bench_validate_with_findings(tmp_path):
    """Every card has an unknown field: 5,000 findings, each placed at its line from the first parse."""
    chess = anchor()
    root = tmp_path / "bad"
    generate(root, cards=5000, toes=20, scenarios=5)
    for path in sorted((root / "units" / "gen").glob("*.yaml")):
        path.write_text(path.read_text(encoding="utf-8") + "colour: green\n", encoding="utf-8")
    validate_paths([root])
    parse_s, parse_cpu, _ = _best(lambda: parse_anchor(root))
    elapsed, cpu, result = _best(lambda: validate_paths([root]))
    unknown = [d for d in result.diagnostics if d.code == "schema.unknown-field"]
    print(f"\nvalidate with findings: {len(result.diagnostics):,} findings in {result.files} files in "
          f"{elapsed:.2f} s vs parse {parse_s:.2f} s = {elapsed / parse_s:.2f}x the parse; CPU {cpu:.2f} s vs "
          f"{parse_cpu:.2f} s")
    report("  validation with findings", result.files / elapsed, chess, "files/s")
    assert len(unknown) == 5000 and all(d.line > 1 for d in unknown)


def _process_cpu() -> float:
    """CPU seconds of the finished child processes of this one so far (each ``studio validate`` run and its
    forked reader)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


def _timed_runs(command: list[str], env: dict, repeat: int, before=None) -> tuple[float, float, bytes]:
    """(best wall seconds, CPU seconds of that run, its output) of ``repeat`` runs of ``command``; ``before``
    (if given) is called before each run, untimed."""
    best, cpu, out = float("inf"), 0.0, b""
    for k in range(repeat):
        if before is not None:
            before(k)
        start, start_cpu = time.perf_counter(), _process_cpu()
        done = subprocess.run(command, capture_output=True, env=env)
        wall = time.perf_counter() - start
        if wall < best:
            best, cpu, out = wall, _process_cpu() - start_cpu, done.stdout
    return best, cpu, out


@pytest.mark.bench
def test_bench_validate_command_process(tmp_path):
    """``studio validate data`` as a whole process (interpreter start, imports, validation, output), on a copy
    of the sample project, beside a single-process CSafeLoader parse of the same files and a bare interpreter:

    * validating (``--no-cache``), with the modules' bytecode cached (an installed studio has it) and without it
      (this checkout runs with ``PYTHONDONTWRITEBYTECODE``, so every run also compiles the modules it imports);
    * from the result cache (``studio.cli.validate_cache``: files and studio unchanged since the last run);
    * after one card changed (a comment line added: the cache misses, the run validates and stores).

    A forked reader parses the files while the process imports the models when a core is idle
    (``studio.model.prefetch``); the line says whether one was (the 1-minute load average)."""
    from studio.model.prefetch import idle_cores

    chess = anchor()
    data = tmp_path / "data"
    shutil.copytree(Path(__file__).resolve().parents[2] / "data", data)
    parse_s, _, _ = _best(lambda: parse_anchor(data), repeat=3)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(tmp_path / "cache"))
    compiled = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    compiled["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pyc")
    run = [sys.executable, "-m", "studio", "validate", str(data)]
    subprocess.run(run + ["--no-cache"], capture_output=True, env=compiled)  # writes the bytecode
    idle = idle_cores()
    uncached, uncached_cpu, expected = _timed_runs(run + ["--no-cache"], compiled, 3)
    raw, raw_cpu, _ = _timed_runs(run + ["--no-cache"], env, 3)
    subprocess.run(run, capture_output=True, env=compiled)  # stores the result
    cached, cached_cpu, out = _timed_runs(run, compiled, 5)
    assert out == expected
    card = sorted((data / "units").rglob("*.yaml"))[0]
    text = card.read_text(encoding="utf-8")

    def edit(k: int) -> None:
        card.write_text(text + f"# edit {k}\n", encoding="utf-8")

    changed, changed_cpu, out = _timed_runs(run, compiled, 3, before=edit)
    assert out == expected
    bare, bare_cpu, _ = _timed_runs([sys.executable, "-c", "pass"], env, 5)
    probe = ("import sys, studio.cli.main as m; m.build_parser(); a = 'numpy' in sys.modules; "
             "from studio.model.validate import validate_paths; validate_paths([sys.argv[1]]); "
             "print(a, 'numpy' in sys.modules, 'shapely' in sys.modules)")
    imports = subprocess.run([sys.executable, "-c", probe, str(data)], capture_output=True, text=True,
                             env=env).stdout.split()
    print(f"\nstudio validate data, whole process (target < 0.3 s; {os.cpu_count()} CPUs, load "
          f"{os.getloadavg()[0]:.1f}, idle cores {idle:.1f}: forked reader {'yes' if idle >= 1.0 else 'no'}); "
          f"anchor: CSafeLoader parse of the same files in one process {parse_s:.3f} s, bare interpreter "
          f"{bare:.3f} s")
    for label, wall, cpu in (("validating (--no-cache)", uncached, uncached_cpu),
                             ("validating, no bytecode cache", raw, raw_cpu),
                             ("from the result cache", cached, cached_cpu),
                             ("one card changed", changed, changed_cpu)):
        print(f"  {label}: {wall:.3f} s = {wall / parse_s:.2f}x the parse (CPU {cpu:.3f} s)")
    print(f"  imported by the CLI / by validating: numpy {imports[0]} / {imports[1]}, shapely {imports[2]}")
    report("  studio validate data (result cache)", 1 / cached, chess, "runs/s")
    report("  studio validate data --no-cache", 1 / uncached, chess, "runs/s")
    assert uncached > 0
