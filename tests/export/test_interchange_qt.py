"""File > Export / Import in the window (studio.qt.interchange) on a real QtMainWindow: the menus, the check
before export (findings shown, export only when forced), the diff shown before an import writes anything."""
import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest

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
    shutil.copytree(DATA, root, ignore=shutil.ignore_patterns(".*"))
    return root


@pytest.fixture
def window(qtbot, tmp_path, project):
    from PySide6.QtCore import QSettings

    from studio.document.session import ProjectSession
    from studio.qt.interchange import install_interchange_menus
    from studio.qt.main_window import QtMainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = QtMainWindow(ProjectSession(project), settings, live_validation=False)
    w._autosave_timer.stop()
    w.ask_save = lambda name: "discard"
    qtbot.addWidget(w)
    file_menu = w.menuBar().actions()[0].menu()
    # the window installs the menus itself once main_window.py calls install_interchange_menus
    ctl = getattr(w, "interchange", None) or install_interchange_menus(w, file_menu)
    ctl.games = 2
    ctl.shown = []
    ctl.show_lines = lambda title, intro, lines: ctl.shown.append((title, intro, list(lines)))
    return w


def _menu(window, title):
    file_menu = window.menuBar().actions()[0].menu()
    sub = next(a.menu() for a in file_menu.actions() if a.menu() and a.text().replace("&", "") == title)
    return [a.text().replace("&", "") for a in sub.actions()]


def test_file_menu_has_export_and_import(window):
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()[0].menu().actions()]
    assert titles.count("Export") == 1 and titles.count("Import") == 1
    assert _menu(window, "Export") == ["VASSAL module…", "Scenario package…", "Unit spreadsheet…"]
    assert _menu(window, "Import") == ["Scenario package…", "Unit spreadsheet…"]
    assert window.interchange.actions["export_vassal"].text() == "&VASSAL module…"


def test_export_vassal_from_the_menu(window, tmp_path):
    ctl = window.interchange
    out = tmp_path / "m.vmod"
    ctl.ask_choice = lambda title, prompt, items: "waw-hill-fight"
    ctl.ask_save_file = lambda title, suggested, filters: str(out)
    ctl.actions["export_vassal"].trigger()
    with zipfile.ZipFile(out) as z:
        record = json.loads(z.read("studio-export.json"))
    check = record["checks"][0]
    assert check["test_play"]["games"] == 2 and check["validation"]["errors"] == 0 and not check["forced"]
    assert check["ruleset"]["id"] == "waw" and check["balance"]["games"] == 2


def test_a_failed_check_shows_the_findings_and_exports_only_when_forced(window, project, tmp_path):
    ctl = window.interchange
    scenario = project / "scenarios" / "waw" / "waw-hill-fight.yaml"
    text = scenario.read_text()
    toe = text.split("toe: ", 1)[1].split("\n", 1)[0]
    scenario.write_text(text.replace(f"toe: {toe}", "toe: no-such-toe", 1))
    window.session.refresh()
    out = tmp_path / "p.studio.zip"
    ctl.ask_choice = lambda title, prompt, items: "waw-hill-fight"
    ctl.ask_save_file = lambda title, suggested, filters: str(out)
    asked = []
    ctl.confirm = lambda title, intro, lines, ok: asked.append(list(lines)) or False
    assert ctl.export_package() is None
    assert not out.exists()
    assert any("waw-hill-fight.yaml" in line and "error" in line for line in asked[0])
    ctl.confirm = lambda title, intro, lines, ok: True
    assert ctl.export_package() == out
    with zipfile.ZipFile(out) as z:
        assert json.loads(z.read("manifest.json"))["record"]["forced"] is True


def _changed_package(project, tmp_path) -> Path:
    from studio.export.package import build_package
    from studio.model.project import load_project

    index = load_project(project)
    build = build_package(index, "waw-crossroads")
    path = next(d["path"] for d in build.manifest["documents"] if d["id"] == "us-m1-abrams")
    text = build.files[path].replace(b"\nname: ", b"\nname: Changed ", 1)
    build.files[path] = text
    for d in build.manifest["documents"]:
        if d["path"] == path:
            d["sha256"] = hashlib.sha256(text).hexdigest()
    build.files["manifest.json"] = json.dumps(build.manifest).encode()
    archive = tmp_path / "changed.studio.zip"
    archive.write_bytes(build.zip_bytes())
    return archive


def test_import_package_asks_about_collisions_and_shows_the_diff_first(window, project, tmp_path):
    ctl = window.interchange
    archive = _changed_package(project, tmp_path)
    ctl.ask_open_files = lambda title, filters: [str(archive)]
    ctl.ask_choice = lambda title, prompt, items: next(i for i in items if i.startswith("Replace"))
    seen = []
    ctl.confirm = lambda title, intro, lines, ok: seen.append(list(lines)) or False
    before = tree_hash(project)
    assert ctl.import_package() == []
    assert seen and any("replace: unit us-m1-abrams" in line for line in seen[0])
    assert tree_hash(project) == before
    ctl.confirm = lambda title, intro, lines, ok: True
    written = ctl.import_package()
    assert [p.name for p in written] == ["us-m1-abrams.yaml"]
    assert "name: Changed" in (project / "units" / "waw" / "us-m1-abrams.yaml").read_text()


def test_import_never_overwrites_unsaved_edits(window, project, tmp_path):
    ctl = window.interchange
    archive = _changed_package(project, tmp_path)
    editor = window.open_path(project / "units" / "waw" / "us-m1-abrams.yaml")
    editor.doc.mark_dirty()
    ctl.ask_open_files = lambda title, filters: [str(archive)]
    ctl.ask_choice = lambda title, prompt, items: next(i for i in items if i.startswith("Replace"))
    ctl.confirm = lambda *a: pytest.fail("must not ask to write")
    before = tree_hash(project)
    assert ctl.import_package() == []
    assert ctl.shown[-1][1].startswith("Save or close") and tree_hash(project) == before


def test_import_units_shows_the_diff_and_writes_on_confirm(window, project, tmp_path):
    from openpyxl import load_workbook

    ctl = window.interchange
    book = tmp_path / "waw.xlsx"
    ctl.ask_choice = lambda title, prompt, items: "ruleset:waw"
    ctl.ask_save_file = lambda title, suggested, filters: str(book)
    assert ctl.export_units() == [book]
    wb = load_workbook(book)
    ws = wb["waw vehicle"]
    keys = [c.value for c in ws[2]]
    row = 1 + [c.value for c in ws[chr(ord("A") + keys.index("id"))]].index("su-t72")
    ws.cell(row=row, column=keys.index("body/full/armor") + 1, value=5)
    wb.save(book)
    ctl.ask_open_files = lambda title, filters: [str(book)]
    seen = []
    ctl.confirm = lambda title, intro, lines, ok: seen.append(list(lines)) or True
    written = ctl.import_units()
    assert [p.name for p in written] == ["su-t72.yaml"]
    assert "    body/full/armor: 4 -> 5" in seen[0]
    assert "armor: 5" in (project / "units" / "waw" / "su-t72.yaml").read_text()


def test_import_of_a_bad_spreadsheet_shows_the_findings(window, project, tmp_path):
    ctl = window.interchange
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"PK not a workbook")
    ctl.ask_open_files = lambda title, filters: [str(bad)]
    before = tree_hash(project)
    assert ctl.import_units() == []
    assert ctl.shown[-1][0] == "Import refused" and tree_hash(project) == before
