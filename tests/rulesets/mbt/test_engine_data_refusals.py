"""Issue 18 item 2: rulesets that validate must never crash play. The three audit inputs (a .NaN / .inf table
cell, a renamed engine table, a quoted number in the modifiers table) are refused with diagnostics (file, line),
through ``load_game``, ``create_game`` and ``studio play``: exit 1, no traceback."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.model.project import load_project
from studio.rules.load import ScenarioRefused, load_game
from studio.rulesets.mbt.engine.game import create_game

DATA = Path(__file__).resolve().parents[3] / "data"


def broken_copy(tmp_path, find_after: str, old: str, new: str) -> tuple[Path, int]:
    """A copy of the sample project with ``old`` replaced by ``new`` on the first line containing it after the
    line containing ``find_after``; returns (project, 1-based line changed)."""
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    path = root / "rulesets" / "mbt" / "ruleset.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if find_after in line)
    i = next(i for i in range(start, len(lines)) if old in lines[i])
    lines[i] = lines[i].replace(old, new, 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    return root, i + 1


AUDIT = [
    ("nan-cell", "id: ap-hit", "[0, 84, 70, 55, 40, 25]", "[0, 84, .NaN, 55, 40, 25]", True),
    ("inf-cell", "id: spotting-ranges", "[0, 20, 15, 10]", "[0, .inf, 15, 10]", True),
    ("renamed-table", "id: spotting-ranges", "id: spotting-ranges", "id: spotting-range", False),
    ("quoted-modifier", "id: ap-hit-modifiers", "[target-moving, -2,", "[target-moving, '-2',", True),
]


@pytest.mark.parametrize("name,after,old,new,at_line", AUDIT, ids=[a[0] for a in AUDIT])
def test_audit_ruleset_is_refused_by_load_game(tmp_path, name, after, old, new, at_line):
    root, line = broken_copy(tmp_path, after, old, new)
    with pytest.raises(ScenarioRefused) as err:
        load_game("meeting-engagement", root)
    diags = [d for d in err.value.diagnostics if d.file.endswith("ruleset.yaml") and d.severity.value == "error"]
    assert diags, [d.format_text() for d in err.value.diagnostics]
    if at_line:
        assert any(d.line == line for d in diags), (line, [d.format_text() for d in diags])


ENGINE_CASES = [
    ("nan-cell", "ap-hit", 5, 2, float("nan")),
    ("inf-cell", "spotting-ranges", 2, 1, float("inf")),
    ("quoted-modifier", "ap-hit-modifiers", 0, 1, "-2"),
    ("bool-cell", "cover-types", 1, 2, True),
    ("renamed-table", "spotting-ranges", None, None, "spotting-range"),
]


@pytest.mark.parametrize("name,tid,row,col,value", ENGINE_CASES, ids=[c[0] for c in ENGINE_CASES])
def test_engine_itself_refuses_with_a_located_diagnostic(name, tid, row, col, value):
    """Even without validation in front (``create_game`` on a model changed in memory), the engine refuses: no
    ValueError, KeyError, OverflowError or TypeError, and the diagnostic points into the ruleset file."""
    index = load_project(DATA)
    ruleset = index.model("ruleset", "mbt")
    ti = next(i for i, t in enumerate(ruleset.tables) if t.id == tid)
    if row is None:
        ruleset.tables[ti].id = value
    else:
        ruleset.tables[ti].rows[row][col] = value
    with pytest.raises(ScenarioRefused) as err:
        create_game(index.model("scenario", "meeting-engagement"), index)
    (diag,) = err.value.diagnostics
    assert diag.code == "mbt.engine-data" and diag.file.endswith("ruleset.yaml") and diag.line > 0
    if row is not None:
        assert diag.pointer == f"/tables/{ti}/rows/{row}/{col}", diag.format_text()


@pytest.mark.parametrize("name,after,old,new,at_line", AUDIT, ids=[a[0] for a in AUDIT])
def test_studio_play_refuses_without_traceback(tmp_path, capsys, name, after, old, new, at_line):
    root, _ = broken_copy(tmp_path, after, old, new)
    code = main(["play", "meeting-engagement", "--project", str(root), "--games", "1"])
    out = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in out.out + out.err
    assert "ruleset.yaml" in out.out


def test_negative_terrain_cost_is_refused():
    index = load_project(DATA)
    next(t for t in index.model("ruleset", "mbt").terrain if t.code == "R").move_cost["t"] = -1.0
    with pytest.raises(ScenarioRefused):
        create_game(index.model("scenario", "meeting-engagement"), index)


def test_terrain_cost_nan_is_refused():
    index = load_project(DATA)
    rough = next(t for t in index.model("ruleset", "mbt").terrain if t.code == "R")
    rough.move_cost["t"] = float("nan")
    with pytest.raises(ScenarioRefused) as err:
        create_game(index.model("scenario", "meeting-engagement"), index)
    assert err.value.diagnostics[0].pointer.endswith("/move_cost/t")


def test_terrain_without_turn_row_is_refused(tmp_path):
    root, _ = broken_copy(tmp_path, "id: terrain-effects", "- [R, 0, none, 4, 6, 2, null]", "- [RX, 0, none, 4, 6, 2, null]")
    index = load_project(root)
    with pytest.raises(ScenarioRefused) as err:
        create_game(index.model("scenario", "meeting-engagement"), index)
    assert "terrain-effects" in str(err.value)
