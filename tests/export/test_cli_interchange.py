"""The interchange commands: studio export vassal|package (with the pre-export check), studio import package,
studio units export|import, and studio print scenario's check."""
import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.export.preflight import preflight

DATA = Path(__file__).resolve().parents[2] / "data"


def tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        h.update(str(p.relative_to(root)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    return root


def _break(project: Path) -> None:
    """waw-hill-fight now names a TO&E the project lacks (a validation error)."""
    scenario = project / "scenarios" / "waw" / "waw-hill-fight.yaml"
    text = scenario.read_text()
    toe = text.split("toe: ", 1)[1].split("\n", 1)[0]
    scenario.write_text(text.replace(f"toe: {toe}", "toe: no-such-toe", 1))


def test_export_vassal_records_the_check(project, tmp_path, capsys):
    out = tmp_path / "m.vmod"
    assert main(["export", "vassal", "waw-hill-fight", "-o", str(out), "--games", "2", "--dpi", "40",
                 "--project", str(project)]) == 0
    err = capsys.readouterr().err
    assert "pre-export check passed" in err and "test-play 2 game(s)" in err
    with zipfile.ZipFile(out) as z:
        record = json.loads(z.read("studio-export.json"))
        assert "buildFile.xml" in z.namelist()
    check = record["checks"][0]
    assert check["ruleset"]["version"] and check["balance"]["games"] == 2 and check["validation"]["errors"] == 0


def test_a_failing_check_stops_the_export_unless_forced(project, tmp_path, capsys):
    _break(project)
    out = tmp_path / "m.vmod"
    assert main(["export", "vassal", "waw-hill-fight", "-o", str(out), "--games", "2", "--dpi", "40",
                 "--project", str(project)]) == 1
    err = capsys.readouterr().err
    assert "no-such-toe" in err and "not exported" in err and not out.exists()
    assert main(["export", "vassal", "waw-hill-fight", "-o", str(out), "--games", "2", "--dpi", "40", "--force",
                 "--project", str(project)]) == 0
    with zipfile.ZipFile(out) as z:
        check = json.loads(z.read("studio-export.json"))["checks"][0]
    assert check["forced"] is True and check["validation"]["errors"] >= 1
    assert check["test_play"]["games"] == 0            # no test-play on an invalid scenario


def test_an_engine_error_stops_the_export(project, tmp_path, capsys, monkeypatch):
    import studio.cli.commands.export as cmd

    monkeypatch.setattr(cmd, "play_games", lambda *a: {"statistics": None, "engine_errors": ["Traceback\nBoom"]})
    out = tmp_path / "p.studio.zip"
    assert main(["export", "package", "waw-hill-fight", "-o", str(out), "--project", str(project)]) == 1
    assert "engine error: Boom" in capsys.readouterr().err and not out.exists()


def test_preflight_runs_the_requested_games_seeded(project):
    calls = []

    def play(sid, root, games, seed, bots):
        calls.append((sid, games, seed, bots))
        return {"statistics": {"games": games, "win_rate": {"a": {"p": 0.5}}, "draws": 0}, "engine_errors": []}

    check = preflight(project, "waw-lab", play, games=7, seed=3)
    assert calls == [("waw-lab", 7, 3, None)] and check.ok
    assert check.record()["balance"]["games"] == 7 and check.record()["test_play"]["seed"] == 3
    assert preflight(project, "nope", play).errors


def test_package_export_and_import_round_trip(project, tmp_path, capsys):
    archive = tmp_path / "x.studio.zip"
    assert main(["export", "package", "waw-crossroads", "-o", str(archive), "--games", "0",
                 "--project", str(project)]) == 0
    target = tmp_path / "target"
    target.mkdir()
    (target / "project.yaml").write_text("kind: project\nschema_version: 1\nid: t\nname: T\nrulesets: [mbt, waw]\n")
    assert main(["import", "package", str(archive), "--into", str(target), "--dry-run"]) == 0
    assert "dry run" in capsys.readouterr().out and not (target / "scenarios").exists()
    assert main(["import", "package", str(archive), "--into", str(target)]) == 0
    before = tree_hash(target)
    assert main(["import", "package", str(archive), "--into", str(target)]) == 0
    assert "nothing to import" in capsys.readouterr().out and tree_hash(target) == before
    assert main(["validate", str(target)]) == 0


def test_import_refusal_exits_1_and_names_the_reason(project, tmp_path, capsys):
    bad = tmp_path / "bad.studio.zip"
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("../escape.yaml", "kind: unit\n")
    before = tree_hash(project)
    assert main(["import", "package", str(bad), "--into", str(project)]) == 1
    err = capsys.readouterr().err
    assert "path traversal" in err and "nothing written" in err and tree_hash(project) == before


def test_units_export_and_import_dry_run(project, tmp_path, capsys):
    book = tmp_path / "waw.xlsx"
    assert main(["units", "export", "ruleset:waw", "-o", str(book), "--project", str(project)]) == 0
    from openpyxl import load_workbook
    wb = load_workbook(book)
    ws = wb["waw vehicle"]
    keys = [c.value for c in ws[2]]
    row = 1 + [c.value for c in ws[chr(ord("A") + keys.index("id"))]].index("su-t72")
    ws.cell(row=row, column=keys.index("body/full/armor") + 1, value=5)
    wb.save(book)
    before = tree_hash(project)
    assert main(["units", "import", str(book), "--dry-run", "--project", str(project)]) == 0
    out = capsys.readouterr().out
    assert "changed: su-t72" in out and "body/full/armor: 4 -> 5" in out and tree_hash(project) == before
    assert main(["units", "import", str(book), "--project", str(project)]) == 0
    assert "armor: 5" in (project / "units" / "waw" / "su-t72.yaml").read_text()


def test_units_import_findings_are_file_sheet_cell(project, tmp_path, capsys):
    book = tmp_path / "waw.xlsx"
    assert main(["units", "export", "ruleset:waw", "-o", str(book), "--project", str(project)]) == 0
    from openpyxl import load_workbook
    wb = load_workbook(book)
    ws = wb["waw vehicle"]
    ws["A4"] = "not-a-number-column-but-schema_version"
    wb.save(book)
    before = tree_hash(project)
    assert main(["units", "import", str(book), "--project", str(project)]) == 1
    out = capsys.readouterr().out
    assert "waw.xlsx:waw vehicle!A4:" in out and tree_hash(project) == before


def test_print_scenario_runs_the_check(project, tmp_path, capsys):
    _break(project)
    out = tmp_path / "s.pdf"
    assert main(["print", "scenario", "waw-hill-fight", "-o", str(out), "--project", str(project)]) == 1
    assert "no-such-toe" in capsys.readouterr().err and not out.exists()
    assert main(["print", "scenario", "waw-lab", "-o", str(out), "--games", "1", "--project", str(project)]) == 0
    assert "pre-export check passed" in capsys.readouterr().err and out.exists()


def test_unknown_bots_are_named(project, tmp_path, capsys):
    out = tmp_path / "p.studio.zip"
    assert main(["export", "package", "waw-lab", "-o", str(out), "--games", "1", "--bots", "random,nobody",
                 "--project", str(project)]) == 1
    assert "--bots needs 2 names" in capsys.readouterr().err and not out.exists()
