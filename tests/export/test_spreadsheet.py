"""Unit spreadsheets (studio.export.spreadsheet): XLSX/CSV round trips of every sample card (export -> import is
a no-op; import into a project without the cards, then re-export, gives the same bytes), enum validation lists,
findings as file:sheet!cell, the diff, and nothing written unless the whole import is valid."""
import hashlib
import io
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from studio.export.spreadsheet import (ImportRefused, apply_units_import, csv_files, export_units,
                                       plan_units_import, select_cards, tables_for, xlsx_bytes)
from studio.model.project import load_project

DATA = Path(__file__).resolve().parents[2] / "data"
RULESETS = sorted(p.name for p in (DATA / "units").iterdir() if p.is_dir())   # every rule system of the sample
#: CSV round trips of MBT and Assault run with -m slow (the XLSX ones of every rule system run always)
CSV = [pytest.param("mbt", marks=pytest.mark.slow), "waw", pytest.param("assault", marks=pytest.mark.slow)]


def tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        h.update(str(p.relative_to(root)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def index():
    return load_project(DATA)


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "p"
    shutil.copytree(DATA, root)
    return root


def _xlsx(index, rs: str) -> bytes:
    return xlsx_bytes(tables_for(select_cards(index, f"ruleset:{rs}")))


@pytest.mark.parametrize("rs", RULESETS)
def test_xlsx_round_trip_of_every_card_is_byte_identical(rs, index, project, tmp_path):
    first = _xlsx(index, rs)
    book = tmp_path / f"{rs}.xlsx"
    book.write_bytes(first)
    plan = plan_units_import(book, project)
    assert plan.changes == [] and plan.removed == [] and plan.unchanged == len(list(select_cards(index, f"ruleset:{rs}")))
    shutil.rmtree(project / "units" / rs)             # import into a project without these cards
    plan = plan_units_import(book, project)
    assert {c.what for c in plan.changes} == {"add"} and plan.unchanged == 0
    apply_units_import(plan)
    again = load_project(project)
    for d in again.of_kind("unit"):
        if d.ruleset == rs:
            assert d.data == index.get("unit", d.id).data, d.id
    assert _xlsx(again, rs) == first


@pytest.mark.parametrize("rs", CSV)
def test_csv_round_trip_is_a_no_op(rs, index, project, tmp_path):
    files = csv_files(tables_for(select_cards(index, f"ruleset:{rs}")), tmp_path / f"{rs}.csv")
    for path, data in files.items():
        path.write_bytes(data)
    plan = plan_units_import(list(files), project)
    assert plan.changes == [] and plan.removed == []


def test_sheets_headers_and_enum_validation(index, tmp_path):
    wb = load_workbook(io.BytesIO(_xlsx(index, "mbt")))
    names = wb.sheetnames
    # one main sheet per card category, in category order, each followed by its item sheets
    assert "mbt vehicle" in names and "mbt vehicle weapons" in names and "mbt vehicle ammo" in names
    assert names.index("mbt vehicle") < names.index("mbt vehicle weapons") < names.index("mbt vehicle ammo")
    mains = [n for n in names if n.count(" ") == 1]
    assert mains == sorted(mains) and len(mains) >= 2
    ws = wb["mbt vehicle"]
    assert [c.value for c in ws[1]][:3] == ["#studio", "mbt", "vehicle"]
    keys = [c.value for c in ws[2]]
    assert "id" in keys and "body/general/movement/traction" in keys
    assert ws.cell(row=3, column=keys.index("name") + 1).value
    ammo = wb["mbt vehicle ammo"]
    assert [c.value for c in ammo[2]][:2] == ["card", "#"]
    assert ammo.cell(row=1, column=4).value == "body/weapons/*/ammo"
    col = keys.index("body/general/movement/traction") + 1
    from openpyxl.utils import get_column_letter
    letter = get_column_letter(col)
    lists = [dv for dv in ws.data_validations.dataValidation if any(str(r).startswith(letter + "4")
                                                                       for r in dv.sqref.ranges)]
    assert lists and lists[0].type == "list" and "T" in lists[0].formula1


def _edit(book: Path, sheet: str, key: str, card: str, value) -> Path:
    wb = load_workbook(book)
    ws = wb[sheet]
    keys = [c.value for c in ws[2]]
    ids = [c.value for c in ws["A" if keys[0] == "card" else chr(ord("A") + keys.index("id"))]]
    row = ids.index(card) + 1
    ws.cell(row=row, column=keys.index(key) + 1, value=value)
    out = book.with_name("edited.xlsx")
    wb.save(out)
    return out


def test_a_change_is_a_diff_and_written_only_on_apply(index, project, tmp_path):
    book = tmp_path / "waw.xlsx"
    book.write_bytes(_xlsx(index, "waw"))
    edited = _edit(book, "waw vehicle", "body/full/armor", "su-t72", 5)
    before = tree_hash(project)
    plan = plan_units_import(edited, project)
    assert [(c.what, c.id) for c in plan.changes] == [("change", "su-t72")]
    assert plan.changes[0].fields == ["body/full/armor: 4 -> 5"]
    assert tree_hash(project) == before                 # planning (the dry run) writes nothing
    apply_units_import(plan)
    assert load_project(project).model("unit", "su-t72").body.full.armor == 5


def test_bad_cells_are_reported_at_their_cell_and_nothing_is_written(index, project, tmp_path):
    book = tmp_path / "waw.xlsx"
    book.write_bytes(_xlsx(index, "waw"))
    edited = _edit(book, "waw vehicle", "body/full/armor", "su-t72", "lots")
    before = tree_hash(project)
    with pytest.raises(ImportRefused) as err:
        plan_units_import(edited, project)
    wb = load_workbook(edited)
    keys = [c.value for c in wb["waw vehicle"][2]]
    from openpyxl.utils import get_column_letter
    letter = get_column_letter(keys.index("body/full/armor") + 1)
    assert any(f.startswith(f"edited.xlsx:waw vehicle!{letter}") and "armor" in f for f in err.value.findings), \
        err.value.findings
    assert tree_hash(project) == before


def test_added_and_removed_cards(index, project, tmp_path):
    book = tmp_path / "waw.xlsx"
    book.write_bytes(_xlsx(index, "waw"))
    wb = load_workbook(book)
    ws = wb["waw vehicle"]
    keys = [c.value for c in ws[2]]
    rows = list(ws.iter_rows(min_row=4, values_only=True))
    t72 = next(r for r in rows if r[keys.index("id")] == "su-t72")
    new = list(t72)
    new[keys.index("id")] = "su-t72a-1983"
    new[keys.index("name")] = "T-72A platoon"
    ws.append(new)
    gone = next(r for r in rows if r[keys.index("id")] == "su-t55")
    ws.delete_rows(4 + rows.index(gone))
    out = tmp_path / "changed.xlsx"
    wb.save(out)
    plan = plan_units_import(out, project)
    assert [(c.what, c.id) for c in plan.changes] == [("add", "su-t72a-1983")]
    assert plan.removed == ["su-t55"]
    assert any(line.startswith("removed") for line in plan.diff_lines())
    apply_units_import(plan)
    after = load_project(project)
    assert after.model("unit", "su-t72a-1983").name == "T-72A platoon"
    assert after.model("unit", "su-t55") is not None      # removal is reported, never done


def test_text_that_looks_like_a_formula_stays_text(index, tmp_path):
    tables = tables_for(select_cards(index, "ruleset:waw"))
    tables[0].rows[0]["name"] = "=HYPERLINK(\"x\")"
    wb = load_workbook(io.BytesIO(xlsx_bytes(tables)))
    ws = wb[wb.sheetnames[0]]
    keys = [c.value for c in ws[2]]
    cell = ws.cell(row=4, column=keys.index("name") + 1)
    assert cell.data_type == "s" and cell.value.startswith("=")


def test_export_units_writes_xlsx_and_refuses_unknown_formats(index, tmp_path):
    out = tmp_path / "a.xlsx"
    assert export_units(index, "ruleset:assault", out) == [out]
    assert out.read_bytes() == _xlsx(index, "assault")
    from studio.export.spreadsheet import SheetError
    with pytest.raises(SheetError):
        export_units(index, "ruleset:assault", tmp_path / "a.ods")
    with pytest.raises(SheetError):
        export_units(index, "ruleset:nope", out)


def test_not_a_workbook_is_refused(project, tmp_path):
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ImportRefused) as err:
        plan_units_import(bad, project)
    assert "bad.xlsx" in str(err.value)


def test_a_workbook_with_a_symlink_entry_is_refused(project, tmp_path, index):
    import stat
    import zipfile

    good = zipfile.ZipFile(io.BytesIO(_xlsx(index, "assault")))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for info in good.infolist():
            z.writestr(info, good.read(info.filename))
        link = zipfile.ZipInfo("xl/link.xml")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        z.writestr(link, "/etc/passwd")
    bad = tmp_path / "link.xlsx"
    bad.write_bytes(out.getvalue())
    with pytest.raises(ImportRefused) as err:
        plan_units_import(bad, project)
    assert "symbolic link" in str(err.value)
