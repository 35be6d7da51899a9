"""A hostile file with thousands of schema problems gives a bounded list of findings plus one summary (issue 18)."""
from __future__ import annotations

import shutil
from pathlib import Path

from studio.model.project import MAX_SCHEMA_FINDINGS
from studio.model.validate import validate_paths

REPO = Path(__file__).resolve().parents[2]


def test_findings_per_file_are_capped_with_a_summary(tmp_path):
    root = tmp_path / "data"
    shutil.copytree(REPO / "data", root)
    card = root / "units/mbt/m1.yaml"
    extra = MAX_SCHEMA_FINDINGS * 5
    card.write_text(card.read_text(encoding="utf-8") + "".join(f"junk{i}: 1\n" for i in range(extra)),
                    encoding="utf-8")
    found = [d for d in validate_paths([root]).diagnostics if d.file.endswith("units/mbt/m1.yaml")]
    unknown = [d for d in found if d.code == "schema.unknown-field"]
    summary = [d for d in found if d.code == "schema.too-many"]
    assert len(unknown) == MAX_SCHEMA_FINDINGS
    assert len(summary) == 1 and f"{extra - MAX_SCHEMA_FINDINGS:,} more" in summary[0].message
    assert all(d.line > 1 for d in unknown)
