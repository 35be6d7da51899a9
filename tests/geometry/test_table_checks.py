"""Static checks of measured tables (studio.model.table.check_table): each fault reported at its file and line,
never a traceback, the input never written."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.model.validate import validate_paths

REPO = Path(__file__).resolve().parents[2]

BAD = """\
kind: map
schema_version: 1
id: bad-table
name: Faults
ruleset: bfops
table:
  width_in: 24
  depth_in: 24
  features:
    - {id: bowtie, terrain: woods, shape: polygon, height_in: 0.5, points: [[1, 1], [5, 5], [5, 1], [1, 5]]}
    - {id: far, terrain: open, shape: polygon, points: [[20, 20], [30, 20], [30, 22]]}
    - {id: ditch, terrain: trench, shape: polyline, points: [[1, 10], [5, 10]]}
    - {id: hut, terrain: building, shape: polygon, construction: stone, height_in: 0.5, points: [[10, 10], [12, 10], [12, 12], [10, 12]]}
    - {id: pond, terrain: stream, shape: polygon, depth_in: 1, points: [[11, 11], [14, 11], [14, 14], [11, 14]]}
    - {id: copse, terrain: woods, shape: polygon, points: [[15, 1], [18, 1], [18, 4]]}
    - {id: swamp, terrain: marsh, shape: polygon, points: [[1, 15], [3, 15], [3, 17]]}
    - {id: brook, terrain: stream, shape: polyline, width_in: 0.5, depth_in: 1, points: [[0, 18], [10, 18]], fords: [{at: [5, 20], depth_in: 0.2}]}
    - {id: dot, terrain: foxhole, shape: point, points: [[2, 2]]}
    - {id: line, terrain: wall, shape: polyline, width_in: 0.2, height_in: 0.2, points: [[7, 7]]}
  elevations:
    - {id: hill, level_in: 1, points: [[20, 1], [26, 1], [26, 5], [20, 5]]}
"""

EXPECTED = {  # code -> line
    ("table.shape", 10),          # self-intersecting polygon
    ("table.off-table", 11),      # point off the table
    ("table.shape", 12),          # polyline without width
    ("table.overlap", 14),        # structure in water
    ("table.height-missing", 15),  # woods with no height
    ("table.unknown-terrain", 16),
    ("table.ford-off-line", 17),
    ("table.shape", 19),          # one point for a polyline
    ("table.off-table", 21),      # height polygon off the table
}


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    root = tmp_path_factory.mktemp("tables") / "data"
    shutil.copytree(REPO / "data", root)
    target = root / "maps" / "bad-table.yaml"
    target.write_text(BAD, encoding="utf-8")
    res = validate_paths([target])
    assert target.read_text(encoding="utf-8") == BAD
    return [d for d in res.diagnostics if Path(d.file).name == "bad-table.yaml"]


def test_every_fault_reported_at_its_line(result):
    got = {(d.code, d.line) for d in result}
    assert EXPECTED <= got, sorted(got)


def test_nothing_else_and_no_false_alarm(result):
    got = {(d.code, d.line) for d in result}
    assert got - EXPECTED == set(), sorted(got - EXPECTED)   # the point feature 'dot' and the hill are fine


def test_messages_name_the_feature(result):
    overlap = next(d for d in result if d.code == "table.overlap")
    assert "hut" in overlap.message and "pond" in overlap.message
    bowtie = next(d for d in result if d.code == "table.shape" and d.line == 10)
    assert "bowtie" in bowtie.message and "cross" in bowtie.message


def test_sample_table_is_clean():
    res = validate_paths([REPO / "data" / "maps" / "bfops-mill-valley.yaml"])
    assert [d.format_text() for d in res.diagnostics if d.severity.value != "info"] == []


def test_duplicate_feature_ids_are_a_schema_error(tmp_path):
    root = tmp_path / "data"
    shutil.copytree(REPO / "data", root)
    target = root / "maps" / "dup.yaml"
    target.write_text(BAD.replace("id: bad-table", "id: dup").replace("id: far,", "id: bowtie,"), encoding="utf-8")
    res = validate_paths([target])
    mine = [d for d in res.diagnostics if Path(d.file).name == "dup.yaml" and d.severity.value == "error"]
    assert any("used twice" in d.message for d in mine), [d.format_text() for d in mine]
