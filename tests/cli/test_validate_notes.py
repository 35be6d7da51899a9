"""`studio validate` reports the notes of files whose rule checks ran on part of them (``checks.partial``) or not
at all (``checks.withheld``): a "notes" list in JSON, info lines in text, never counted as findings."""
import json
import shutil
from pathlib import Path

from studio.cli.main import main

FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "project"


def _project(tmp_path) -> Path:
    """The fixture with one victory row rejected (checks partial) and one TO&E whose id is invalid (withheld)."""
    root = tmp_path / "p"
    shutil.copytree(FIXTURE, root)
    scenario = root / "scenarios" / "clash.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("points: 10", "points: lots"), encoding="utf-8")
    toe = root / "toe" / "tank-platoon.yaml"
    toe.write_text(toe.read_text(encoding="utf-8").replace("id: tank-platoon", "id: Tank Platoon", 1),
                   encoding="utf-8")
    return root


def _run(capsys, *argv):
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_json_output_has_the_notes_apart_from_the_findings(tmp_path, capsys):
    code, out = _run(capsys, "validate", str(_project(tmp_path)), "--format", "json")
    payload = json.loads(out)
    assert code == 1
    notes = {Path(n["file"]).name: n for n in payload["notes"]}
    assert set(notes) == {"clash.yaml", "tank-platoon.yaml"}
    assert notes["clash.yaml"]["code"] == "checks.partial" and notes["clash.yaml"]["pointer"] == "/victory/0/points"
    assert notes["tank-platoon.yaml"]["code"] == "checks.withheld"
    assert all(n["severity"] == "info" for n in notes.values())
    codes = [d["code"] for d in payload["diagnostics"]]
    assert not any(c.startswith("checks.") for c in codes), "notes are not findings"
    assert payload["summary"]["infos"] == sum(d["severity"] == "info" for d in payload["diagnostics"])
    assert payload["summary"]["errors"] == sum(d["severity"] == "error" for d in payload["diagnostics"])


def test_text_output_prints_the_notes_as_info_lines_not_counted(tmp_path, capsys):
    root = _project(tmp_path)
    _, out = _run(capsys, "validate", str(root), "--format", "json")
    infos = json.loads(out)["summary"]["infos"]
    code, out = _run(capsys, "validate", str(root))
    lines = out.strip().splitlines()
    assert code == 1
    partial = [line for line in lines if "info checks.partial:" in line]
    withheld = [line for line in lines if "info checks.withheld:" in line]
    assert len(partial) == 1 and "clash.yaml:" in partial[0] and "/victory/0/points" in partial[0]
    assert len(withheld) == 1 and "tank-platoon.yaml:" in withheld[0]
    assert f"{infos} info(s)" in lines[-1], "the notes are not counted as infos"
    assert lines[-1].endswith("rule checks partial or withheld in 2 file(s)")
    # --no-info hides info findings, not the notes (they say why findings may be missing)
    _, quiet = _run(capsys, "validate", str(root), "--no-info")
    assert sum("info checks." in line for line in quiet.splitlines()) == 2


def test_a_clean_project_has_an_empty_notes_list(capsys):
    code, out = _run(capsys, "validate", str(FIXTURE), "--format", "json")
    assert code == 0 and json.loads(out)["notes"] == []
