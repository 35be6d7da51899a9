"""`studio validate` checks a ruleset variant's marked cells against its base ruleset (house rules honest)."""
from __future__ import annotations

import shutil
from pathlib import Path

from studio.model.project import load_project
from studio.model.validate import validate_index

DATA = Path(__file__).resolve().parents[2] / "data"
VARIANT = "variants/mbt-house-moving-targets.yaml"


def _findings(root: Path) -> list:
    result = validate_index(load_project(root))
    return [d for d in result.diagnostics if d.code.startswith("variant.")]


def test_sample_variants_are_clean(sample_index):
    assert not [d for d in sample_index.diagnostics if d.code.startswith("variant.")]


def test_an_unmarked_change_is_reported_at_its_line(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    path = root / VARIANT
    text = path.read_text()
    changed = text.replace("[short-halt-sb1, -1, MBT 4.4.3.2.2]", "[short-halt-sb1, -5, MBT 4.4.3.2.2]")
    assert changed != text
    path.write_text(changed)
    found = _findings(root)
    assert [d.code for d in found] == ["variant.unmarked-change"]
    line = next(i for i, row in enumerate(changed.splitlines(), 1) if "short-halt-sb1" in row)
    assert found[0].line == line and found[0].file.endswith("mbt-house-moving-targets.yaml")
