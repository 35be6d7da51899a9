"""The shortcuts that make ``studio validate`` fast never change a finding (issue 19, deliverable 3).

* the plain-Python screen of measured tables (``studio.model.table_screen``) answers "nothing to find" only where
  the exact Shapely checks find nothing, and it rules out only the placements Shapely would not place inside;
* the polyline length of the Battlefield Ops! allowance check is Shapely's;
* ``studio validate`` as a process prints the same findings validating, from the result cache and after a file
  changed, as an in-process run of the pipeline, for the sample project and the bad-fixture corpus.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.model.table import HeightPolygon, MeasuredTable, TableFeature, _exact_checks, feature_geometry
from studio.model.table_screen import certainly_plain, clearly_outside

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"

# small integer grids make touching, collinear, repeated and crossing points common
coord = st.integers(0, 12).map(float) | st.floats(-1, 13, allow_nan=False, allow_infinity=False)
point = st.tuples(coord, coord).map(list)


@st.composite
def features(draw, i: int):
    shape = draw(st.sampled_from(["polygon", "polyline", "point", "circle"]))
    n = {"polygon": draw(st.integers(1, 7)), "polyline": draw(st.integers(1, 5))}.get(shape, 1)
    role = draw(st.sampled_from(["open", "structure", "water"]))
    fords = []
    if role == "water" and draw(st.booleans()):
        fords = [{"at": draw(point), "depth_in": 0.5}]
    return TableFeature.model_validate({
        "id": f"f{i}", "terrain": "t", "shape": shape, "points": draw(st.lists(point, min_size=n, max_size=n)),
        "width_in": draw(st.none() | st.sampled_from([0.25, 1.0, 3.0])),
        "radius_in": draw(st.none() | st.sampled_from([0.5, 2.0])),
        "construction": "stone" if role == "structure" else "", "depth_in": 2.0 if role == "water" else None,
        "fords": fords})


@st.composite
def tables(draw):
    count = draw(st.integers(0, 5))
    feats = [draw(features(i)) for i in range(count)]
    elevations = [{"id": f"h{k}", "level_in": 1.0, "points": draw(st.lists(point, min_size=3, max_size=6))}
                  for k in range(draw(st.integers(0, 2)))]
    return MeasuredTable.model_construct(width_in=12.0, depth_in=12.0, snap_in=0.25, features=feats,
                                         elevations=[HeightPolygon.model_validate(e) for e in elevations])


class _Doc:
    """Just enough of a document for the table checks: a finding is its code and pointer."""

    def error(self, code, message, pointer="", *a, **k):
        return code, pointer

    warning = error


@settings(max_examples=400, deadline=None)
@given(tables())
def test_a_table_the_screen_passes_has_no_geometry_finding(table):
    if certainly_plain(table):
        assert list(_exact_checks(_Doc(), table, None)) == []


def test_the_screen_passes_plain_tables_and_stops_faulty_ones():
    """Both answers occur (the property above is not vacuous), and a clear fault is never passed."""
    ok = MeasuredTable.model_validate({"width_in": 48, "depth_in": 48, "features": [
        {"id": "house", "terrain": "t", "shape": "polygon", "points": [[10, 10], [14, 10], [14, 14], [10, 14]],
         "construction": "brick"},
        {"id": "wall", "terrain": "t", "shape": "polyline", "points": [[10, 16], [14, 16]], "width_in": 0.5,
         "construction": "stone"},
        {"id": "stream", "terrain": "t", "shape": "polyline", "points": [[0, 30], [48, 31]], "width_in": 2,
         "depth_in": 1.5, "fords": [{"at": [24, 30.5], "depth_in": 0.5}]}]})
    assert certainly_plain(ok) and list(_exact_checks(_Doc(), ok, None)) == []
    for change in ({"points": [[10, 10], [14, 14], [14, 10], [10, 14]]},   # a bow tie: not simple
                   {"points": [[10, 10], [14, 10], [14, 14], [50, 14]]},   # off the table
                   {"points": [[10, 15], [14, 15], [14, 17], [10, 17]]}):  # on the wall (structure on structure)
        bad = ok.model_copy(update={"features": [ok.features[0].model_copy(update=change), *ok.features[1:]]})
        assert list(_exact_checks(_Doc(), bad, None)) != []
        assert not certainly_plain(bad)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 10**6).flatmap(lambda i: features(i)), point)
def test_a_point_the_screen_rules_out_is_not_covered(feature, at):
    geom = feature_geometry(feature)
    if clearly_outside(at, feature) and geom is not None:
        assert not geom.covers(shapely.points(*at))


@settings(deadline=None)
@given(st.lists(point, min_size=2, max_size=6))
def test_the_allowance_length_is_shapelys(points):
    from studio.rulesets.bfops.checks import _line_length

    assert _line_length(points) == shapely.length(shapely.linestrings([tuple(p) for p in points]))


# ------------------------------------------------------------------ whole runs: cache on, off, after a change

def corpora(work: Path) -> list[str]:
    """Two projects under ``work``: the sample project with every bad fixture of the rule systems and maps
    beside its own files, and the fixture project with the core bad fixtures (folders relative to ``work``)."""
    shutil.copytree(ROOT / "data", work / "sample")
    for folder in ("mbt", "waw", "maps"):
        shutil.copytree(FIXTURES / "invalid" / folder, work / "sample" / "bad" / folder)
    shutil.copytree(FIXTURES / "project", work / "core")
    shutil.copytree(FIXTURES / "invalid" / "core", work / "core" / "bad")
    return ["sample", "core"]


def _cli(args: list[str], cache: Path, cwd: Path) -> str:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    run = subprocess.run([sys.executable, "-m", "studio", "validate", *args, "--format", "json"], cwd=cwd,
                         capture_output=True, text=True, env=env)
    assert run.returncode in (0, 1), run.stderr
    return run.stdout


def _in_process(args: list[str], cwd: Path, capsys, monkeypatch) -> str:
    from studio.cli.main import main

    monkeypatch.chdir(cwd)
    capsys.readouterr()
    main(["validate", *args, "--format", "json"])
    return capsys.readouterr().out


@pytest.mark.slow
def test_the_command_prints_the_same_findings_cached_uncached_and_after_a_change(tmp_path, capsys, monkeypatch):
    """Each corpus validated by the command from the command line without the cache, with it (stored, then
    answered) and after one file changed, against the pipeline run in-process (which never uses the cache)."""
    work = tmp_path / "work"
    cache = tmp_path / "cache"
    for target in corpora(work):
        expected = _in_process([target], work, capsys, monkeypatch)
        assert expected.count('"code"') > 20  # the corpus has findings to compare
        assert _cli([target, "--no-cache"], cache, work) == expected
        assert _cli([target], cache, work) == expected  # validates and stores
        assert _cli([target], cache, work) == expected  # from the cache
        card = sorted((work / target / "units").rglob("*.yaml"))[0]
        card.write_text(card.read_text(encoding="utf-8").replace("\nname: ", "\nname: Changed ", 1),
                        encoding="utf-8")
        changed = _in_process([target], work, capsys, monkeypatch)
        assert _cli([target], cache, work) == changed
        assert _cli([target], cache, work) == changed


# ------------------------------------------------------------------ the forked reader (studio.model.prefetch)

def _plain(result) -> list:
    return [(d.severity.value, d.code, d.file, d.line, d.column, d.pointer, d.message, d.rule, d.hint)
            for d in result.diagnostics + result.notes]


@pytest.fixture
def forking(monkeypatch):
    """The reader forks here however loaded the machine and whatever threads the test run keeps."""
    from studio.model import prefetch

    monkeypatch.setattr(prefetch, "idle_cores", lambda: 2.0)
    monkeypatch.setattr(prefetch.threading, "active_count", lambda: 1)
    return prefetch


@pytest.mark.parametrize("corpus, readers", [("sample", 1), ("sample", 2), ("core", 1)])
def test_files_read_by_the_forked_reader_give_the_same_findings(tmp_path, forking, monkeypatch, corpus, readers):
    from studio.cli.validate_cache import input_files
    from studio.model.validate import validate_paths

    root = tmp_path / corpus
    corpora(tmp_path)
    files = input_files([root])
    assert len(files) >= forking.MIN_FILES
    if readers > 1:  # a large project: one reader per core shares the files
        monkeypatch.setattr(forking, "MANY_FILES", len(files))
        monkeypatch.setattr(forking.os, "cpu_count", lambda: readers)
    pending = forking.start(files)
    assert pending is not None and len(pending.readers) == readers
    read = forking.take(pending)
    assert sorted(read) == files
    assert _plain(validate_paths([root], prefetched=read)) == _plain(validate_paths([root]))


def test_a_reader_that_dies_gives_nothing(tmp_path, forking):
    import signal

    from studio.cli.validate_cache import input_files

    corpora(tmp_path)
    root = tmp_path / "core"
    pending = forking.start(input_files([root]))
    os.kill(pending.readers[0][0], signal.SIGKILL)
    assert forking.take(pending) is None


def test_the_reader_forks_only_when_it_pays(monkeypatch):
    from studio.model import prefetch

    files = [str(p) for p in sorted((ROOT / "data").rglob("*.yaml"))]
    monkeypatch.setattr(prefetch, "idle_cores", lambda: 0.5)  # a busy machine: no second core to use
    assert prefetch.start(files) is None
    monkeypatch.setattr(prefetch, "idle_cores", lambda: 2.0)
    assert prefetch.start(files[:prefetch.MIN_FILES - 1]) is None


# ------------------------------------------------------------------ the parse cache (studio.cli.validate_cache)

def test_parses_from_the_cache_give_the_same_findings_and_a_bad_entry_is_not_used(tmp_path, monkeypatch):
    from studio.cli import validate_cache
    from studio.model.prefetch import read_raw
    from studio.model.validate import validate_paths

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    corpora(tmp_path)
    root = tmp_path / "core"  # its bad fixtures include files that do not parse
    inputs = validate_cache.run_inputs([root], [str(root)])
    assert validate_cache.load_parsed(inputs) == {}
    validate_cache.store_parsed(inputs, {f: read_raw(f) for f in inputs.files})
    cached = validate_cache.load_parsed(inputs)
    broken = [f for f in inputs.files if read_raw(f)[2] is not None]  # syntax errors are not kept
    assert broken and sorted(cached) == sorted(set(inputs.files) - set(broken))
    assert _plain(validate_paths([root], prefetched=cached)) == _plain(validate_paths([root]))
    first = inputs.files[0]
    (tmp_path / "cache" / "studio" / "validate" / "parsed" / f"{inputs.digests[first]}.json").write_text(
        '{"format": 1, "data": {}, "marks": "not base64!", "duplicates": []}', encoding="utf-8")
    assert first not in validate_cache.load_parsed(inputs)


def test_a_parse_of_other_bytes_than_the_key_read_is_not_kept(tmp_path, monkeypatch):
    from studio.cli import validate_cache
    from studio.model.prefetch import read_raw

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    corpora(tmp_path)
    root = tmp_path / "core"
    inputs = validate_cache.run_inputs([root], [str(root)])
    card = next(f for f in inputs.files if f.endswith(".yaml") and read_raw(f)[2] is None)
    Path(card).write_text(Path(card).read_text(encoding="utf-8") + "# changed meanwhile\n", encoding="utf-8")
    validate_cache.store_parsed(inputs, {card: read_raw(card)})
    assert validate_cache.load_parsed(inputs) == {}
