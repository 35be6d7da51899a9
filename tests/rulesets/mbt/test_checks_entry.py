"""Entry hexes that no vehicle of the force may enter are an error (V52 applied to entry zones, MBT 4.5.1.1.2)."""
from __future__ import annotations

import shutil
from pathlib import Path

from studio.model.project import load_project
from studio.model.validate import validate_index

DATA = Path(__file__).resolve().parents[3] / "data"
SCENARIO = "scenarios/mbt/hasty-defense.yaml"
WOODS = "2T1"  # a woods hex off the roads on board 2


def _entry_findings(tmp_path, force: str, woods_tracked: str) -> tuple[list, list[str]]:
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    rs = root / "rulesets/mbt/ruleset.yaml"
    text = rs.read_text()
    woods = text.index("    code: W\n")
    cost = text.index("      t: 3.0\n", woods)
    rs.write_text(text[:cost] + f"      t: {woods_tracked}\n" + text[cost + len("      t: 3.0\n"):])
    path = root / SCENARIO
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {force}")
    edge = next(i for i in range(at, len(lines)) if lines[i].strip().startswith("edge:"))
    lines[edge] = lines[edge].replace(lines[edge].strip(), f"hexes: [{WOODS}]")
    path.write_text("\n".join(lines) + "\n")
    result = validate_index(load_project(root))
    return [d for d in result.diagnostics if d.code == "mbt.entry-prohibited"], lines


def test_an_entry_hex_no_vehicle_may_enter_is_an_error_at_its_line(tmp_path):
    found, lines = _entry_findings(tmp_path, "tanks-1", "null")
    assert len(found) == 1 and found[0].severity.value == "error"
    assert WOODS in found[0].message and "tanks-1" in found[0].message
    assert lines[found[0].line - 1].strip() == f"hexes: [{WOODS}]"


def test_an_entry_hex_some_vehicle_may_enter_is_accepted(tmp_path):
    found, _ = _entry_findings(tmp_path, "recon", "3.0")  # wheeled BRDMs may not, tracked ones may
    assert found == []
    found, _ = _entry_findings(tmp_path / "b", "tanks-1", "3.0")
    assert found == []
