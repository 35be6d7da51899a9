"""`studio validate` and `studio schema` contracts: output formats, exit codes, line numbers, suggestions."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

from studio.cli.main import main

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "project"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_project_exits_0(capsys):
    code, out, _ = run(capsys, "validate", str(FIXTURE))
    assert code == 0
    assert out.strip().splitlines()[-1] == "9 file(s): 0 error(s), 0 warning(s), 2 info(s)"


def test_wrong_type_reported_at_its_line(tmp_path, capsys):
    project = tmp_path / "p"
    shutil.copytree(FIXTURE, project)
    toe = project / "toe" / "tank-platoon.yaml"
    lines = toe.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if "count: 3" in line)
    lines[n] = lines[n].replace("count: 3", "count: lots")
    toe.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "validate", str(toe))
    assert code == 1
    first = out.splitlines()[0]
    assert f"tank-platoon.yaml:{n + 1}:" in first and "error schema.type" in first


def test_dangling_reference_names_missing_id_and_suggests(tmp_path, capsys):
    project = tmp_path / "p"
    shutil.copytree(FIXTURE, project)
    scenario = project / "scenarios" / "clash.yaml"
    scenario.write_text(scenario.read_text().replace("toe: tank-platoon\n        setup", "toe: tank-platoom\n        setup"))
    code, out, _ = run(capsys, "validate", str(project), "--format", "json")
    assert code == 1
    payload = json.loads(out)
    (d,) = [d for d in payload["diagnostics"] if d["code"] == "ref.dangling"]
    assert "'tank-platoom'" in d["message"] and "did you mean 'tank-platoon'" in d["message"]
    assert d["pointer"] == "/sides/0/forces/0/toe" and d["line"] == 17
    assert set(d) == {"severity", "code", "message", "file", "line", "column", "pointer", "rule"}
    assert payload["summary"] == {"files": 9, "errors": 1, "warnings": 0, "infos": 2}


def test_missing_path_exits_2(capsys):
    code, _, err = run(capsys, "validate", "/nonexistent/where")
    assert code == 2 and "no such file" in err


def test_usage_error_exits_2():
    proc = subprocess.run([sys.executable, "-m", "studio", "validate", "--format", "xml"], capture_output=True,
                          text=True)
    assert proc.returncode == 2 and "invalid choice" in proc.stderr


def test_every_command_has_help():
    for argv in (["--help"], ["validate", "--help"], ["schema", "--help"], ["schema", "check", "--help"],
                 ["format", "--help"]):
        proc = subprocess.run([sys.executable, "-m", "studio", *argv], capture_output=True, text=True)
        assert proc.returncode == 0 and "usage:" in proc.stdout, argv


def test_schema_check_reports_stale_with_regeneration_command(tmp_path, capsys):
    assert run(capsys, "schema", "export", "--out", str(tmp_path))[0] == 0
    assert run(capsys, "schema", "check", "--dir", str(tmp_path))[0] == 0
    victim = tmp_path / "unit.schema.json"
    victim.write_text(victim.read_text().replace('"title": "UnitCard"', '"title": "Old"'))
    code, _, err = run(capsys, "schema", "check", "--dir", str(tmp_path))
    assert code == 1 and "stale unit.schema.json" in err and "studio schema export" in err


def test_format_check_finds_non_canonical_and_never_touches_invalid(tmp_path, capsys):
    project = tmp_path / "p"
    shutil.copytree(FIXTURE, project)
    unit = project / "units" / "tank.yaml"
    unit.write_text(unit.read_text().replace("name: Tank\n", "name:    Tank\n"))  # same data, other text
    broken = project / "units" / "truck.yaml"
    broken.write_text(broken.read_text() + "oops: [\n")
    before = broken.read_bytes()
    code, out, _ = run(capsys, "format", "--check", str(project))
    assert code == 1 and "tank.yaml: not canonical" in out
    code, out, _ = run(capsys, "format", str(project))
    assert "tank.yaml: formatted" in out and broken.read_bytes() == before
    assert unit.read_text() == (FIXTURE / "units" / "tank.yaml").read_text()


def test_subfolder_is_validated_in_its_project_context(capsys):
    code, out, _ = run(capsys, "validate", str(FIXTURE / "toe"))
    assert code == 0, out
    assert out.strip().splitlines()[-1] == "1 file(s): 0 error(s), 0 warning(s), 0 info(s)"
