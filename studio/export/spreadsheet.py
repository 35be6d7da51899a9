"""Unit cards to and from spreadsheets (XLSX through openpyxl, or CSV): one sheet per rule system and card category,
one row per card, one column per field; lists of objects (MBT weapons, their ammunition) go to their own sheets,
one row per item keyed by card id and item number.

Sheet layout (XLSX sheets and CSV files alike):

* row 1: ``#studio``, rule system, category, and the list path for item sheets (``body/weapons``,
  ``body/weapons/*/ammo``; empty for the card sheet): what import maps the rows back to;
* row 2: the field keys (``body/full/ap_fp``; item sheets start with ``card`` and ``#``, the item number path,
  e.g. ``0/1`` = ammunition 1 of weapon 0);
* row 3: the field titles and descriptions (units) from the card model's JSON schema (for people; not read);
* row 4 on: one card (or item) per row, cards by id.

A cell holds a number, text or TRUE/FALSE; lists of plain values and empty objects are JSON text
(``["a", "b"]``, ``[]``, ``{}``); ``(null)`` is an explicit null and ``(empty)`` an empty text; an empty cell is a
field the card does not set. Columns follow the model's field order, so the same cards always give the same
columns. Enum columns carry an XLSX data-validation list of the schema's values. The workbook's timestamps and
the zip entries' dates are fixed, so the same cards give the same bytes.

Import (:func:`plan_units_import`) maps rows back to card documents, validates every card (model, then the
project with the changed cards in it), reports findings as ``file:sheet!cell: message`` and writes nothing
unless the whole import is valid. The plan lists the cards added, the fields changed and the project's cards of
the same sheets absent from the file ("removed": reported, never deleted). Export then import is a no-op.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import zipfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any, Iterable

from studio.model import yamlio
from studio.model.kinds import model_for
from studio.model.project import LoadedDocument, ProjectIndex, load_project, validate_model
from studio.model.safeio import read_regular, write_atomic
from studio.model.save import document_text
from studio.model.validate import validate_index

MARK = "#studio"
NULL, EMPTY = "(null)", "(empty)"
FIXED_TIME = datetime(2020, 1, 1)
ZIP_TIME = (2020, 1, 1, 0, 0, 0)
FIRST_DATA_ROW = 4
MAX_SHEET_FILE = 32 * 1024 * 1024
SKIP = ("kind",)


class SheetError(ValueError):
    """The file cannot be read as a studio unit sheet (the message says why)."""


# ------------------------------------------------------------------ schema lookups

def _resolve(node: dict, defs: dict) -> dict:
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 20:
        node = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
        seen += 1
    return node if isinstance(node, dict) else {}


def _options(node: dict, defs: dict) -> list[dict]:
    node = _resolve(node, defs)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in node:
            return [o for sub in node[key] for o in _options(sub, defs)]
    return [node]


def schema_at(schema: dict, parts: list[str]) -> list[dict]:
    """The schema alternatives of the field at ``parts`` (``*`` = a list item); empty when unknown."""
    defs = schema.get("$defs", {})
    nodes = [schema]
    for part in parts:
        nxt = []
        for n in nodes:
            for o in _options(n, defs):
                if part == "*" and "items" in o:
                    nxt.append(o["items"])
                elif part in o.get("properties", {}):
                    nxt.append(o["properties"][part])
                elif isinstance(o.get("additionalProperties"), dict):
                    nxt.append(o["additionalProperties"])
        nodes = nxt
    return [o for n in nodes for o in _options(n, defs)]


def _rank(schema: dict, parts: list[str]) -> tuple:
    """Field order of the model along ``parts`` (unknown parts after the known ones)."""
    defs = schema.get("$defs", {})
    nodes, out = [schema], []
    for part in parts:
        pos, nxt = 10_000, []
        for n in nodes:
            for o in _options(n, defs):
                props = o.get("properties", {})
                if part in props:
                    pos = min(pos, list(props).index(part))
                    nxt.append(props[part])
                elif part == "*" and "items" in o:
                    nxt.append(o["items"])
                elif isinstance(o.get("additionalProperties"), dict):
                    nxt.append(o["additionalProperties"])
        out.append(pos)
        nodes = nxt
    return tuple(out)


def enum_values(schema: dict, parts: list[str]) -> list[str]:
    values: list[str] = []
    for o in schema_at(schema, parts):
        for v in o.get("enum", []) + ([o["const"]] if "const" in o else []):
            if isinstance(v, str) and v not in values:
                values.append(v)
    return values


def title_of(schema: dict, parts: list[str]) -> str:
    opts = schema_at(schema, parts)
    defs = schema.get("$defs", {})
    raw = []
    for n in _field_nodes(schema, parts, defs):
        raw += [n.get("title", ""), n.get("description", "")]
    raw += [o.get("title", "") for o in opts] + [o.get("description", "") for o in opts]
    title = next((t for t in raw[0::2] if t), parts[-1].replace("_", " ").capitalize() if parts else "")
    desc = next((d for d in raw[1::2] if d), "")
    return f"{title}: {desc}" if desc else title


def _field_nodes(schema: dict, parts: list[str], defs: dict) -> list[dict]:
    """The property nodes themselves (before ``$ref`` resolution), where titles and descriptions live."""
    if not parts:
        return []
    parents = schema_at(schema, parts[:-1])
    return [p["properties"][parts[-1]] for p in parents if parts[-1] in p.get("properties", {})]


def _types(schema: dict, parts: list[str]) -> set[str]:
    out = set()
    for o in schema_at(schema, parts):
        t = o.get("type")
        out.update(t if isinstance(t, list) else [t] if t else [])
        for v in o.get("enum", []) + ([o["const"]] if "const" in o else []):
            out.add("boolean" if isinstance(v, bool) else "integer" if isinstance(v, int) else
                    "number" if isinstance(v, float) else "string" if isinstance(v, str) else "null")
    return out


# ------------------------------------------------------------------ flattening

@dataclass
class Table:
    """One sheet: rule system, category, list path (``""`` = the card sheet), columns, rows of cell values."""

    ruleset: str
    category: str
    path: str
    columns: list[str] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    enums: dict[str, list[str]] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.ruleset, self.category, self.path


def _cell(value: Any) -> Any:
    if value is None:
        return NULL
    if isinstance(value, str):
        return EMPTY if value == "" else value
    if isinstance(value, (bool, int, float)):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _template(path: str) -> str:
    return "/".join("*" if p.isdigit() else p for p in path.split("/"))


def flatten(data: dict, prefix: str, row: dict, children: dict, card: str, number: str, within: str = "") -> None:
    """Fill ``row`` with ``path -> cell`` and ``children[list template]`` with item rows (``within``: the
    template of the list holding ``data``, e.g. ``body/weapons/*/``)."""
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flatten(value, path + "/", row, children, card, number, within)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            template = within + _template(path)
            for i, item in enumerate(value):
                sub = {"card": card, "#": f"{number}/{i}" if number else str(i)}
                children.setdefault(template, []).append(sub)
                flatten(item, "", sub, children, card, sub["#"], template + "/*/")
        else:
            row[path] = _cell(value)


def tables_for(docs: list[LoadedDocument]) -> list[Table]:
    """The sheets of ``docs`` (valid unit cards), in (rule system, category, path) order."""
    groups: dict[tuple[str, str], list[LoadedDocument]] = {}
    for d in sorted(docs, key=lambda d: d.id or ""):
        groups.setdefault((d.ruleset or "", d.model.category), []).append(d)
    out = []
    for (ruleset, category), group in sorted(groups.items()):
        schema = model_for(group[0].data).model_json_schema()
        main = Table(ruleset, category, "")
        items: dict[str, Table] = {}
        for d in group:
            row, children = {}, {}
            flatten({k: v for k, v in d.data.items() if k not in SKIP}, "", row, children, d.id, "")
            main.rows.append(row)
            for template, rows in children.items():
                items.setdefault(template, Table(ruleset, category, template)).rows.extend(rows)
        for t in [main] + [items[k] for k in sorted(items)]:
            _columns(t, schema)
            out.append(t)
    return out


def _columns(t: Table, schema: dict) -> None:
    base = [p for p in t.path.split("/") if p] + (["*"] if t.path else [])
    seen: dict[str, int] = {}
    for row in t.rows:
        for k in row:
            seen.setdefault(k, len(seen))
    fixed = ["card", "#"] if t.path else []
    keys = [k for k in seen if k not in fixed]
    keys.sort(key=lambda k: (_rank(schema, base + k.split("/")), seen[k]))
    t.columns = fixed + keys
    t.titles = [("card id" if k == "card" else "item number" if k == "#" else title_of(schema, base + k.split("/")))
                for k in t.columns]
    t.enums = {k: v for k in keys if (v := enum_values(schema, base + k.split("/")))}


# ------------------------------------------------------------------ writing

def sheet_title(t: Table, taken: set[str]) -> str:
    """A unique Excel sheet name (31 characters, none of ``[]:*?/\\``)."""
    last = t.path.rsplit("/", 1)[-1] if t.path else ""
    base = re.sub(r"[\[\]:*?/\\]", "-", " ".join(p for p in (t.ruleset, t.category, last) if p))[:31]
    name, n = base, 2
    while name.lower() in taken:
        suffix = f" {n}"
        name, n = base[:31 - len(suffix)] + suffix, n + 1
    taken.add(name.lower())
    return name


def _grid(t: Table) -> list[list[Any]]:
    return ([[MARK, t.ruleset, t.category, t.path], list(t.columns), list(t.titles)]
            + [[row.get(k) for k in t.columns] for row in t.rows])


def xlsx_bytes(tables: list[Table]) -> bytes:
    """The workbook, byte-identical for the same tables."""
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation

    wb = Workbook()
    wb.remove(wb.active)
    lists = None
    taken: set[str] = set()
    for t in tables:
        ws = wb.create_sheet(sheet_title(t, taken))
        for r, values in enumerate(_grid(t), start=1):
            for c, value in enumerate(values, start=1):
                if value is None:
                    continue
                cell = ws.cell(row=r, column=c, value=value)
                if isinstance(value, str):
                    cell.data_type = "s"       # never a formula, whatever the text starts with
        ws.freeze_panes = "C4" if t.path else "B4"
        last = max(FIRST_DATA_ROW + len(t.rows) + 200, 500)
        for key, values in t.enums.items():
            col = get_column_letter(t.columns.index(key) + 1)
            inline = '"' + ",".join(values) + '"'
            if len(inline) > 250 or any("," in v or '"' in v for v in values):
                lists = lists or wb.create_sheet("_lists")
                lc = lists.max_column + 1 if lists.max_row > 1 or lists["A1"].value else 1
                for i, v in enumerate(values, start=1):
                    lists.cell(row=i, column=lc, value=v).data_type = "s"
                letter = get_column_letter(lc)
                formula = f"_lists!${letter}$1:${letter}${len(values)}"
            else:
                formula = inline
            dv = DataValidation(type="list", formula1=formula, allow_blank=True, showErrorMessage=True,
                                errorTitle="Not a value of this field", error=f"{key}: one of {', '.join(values)}")
            dv.add(f"{col}{FIRST_DATA_ROW}:{col}{last}")
            ws.add_data_validation(dv)
    if lists is not None:
        lists.sheet_state = "hidden"
    wb.properties.created = wb.properties.modified = FIXED_TIME
    wb.properties.creator = "studio"
    buf = io.BytesIO()
    wb.save(buf)
    return _fixed_zip(buf.getvalue())


def _fixed_zip(data: bytes) -> bytes:
    """The same zip with fixed entry dates and the core properties' modified time fixed."""
    out = io.BytesIO()
    stamp = FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)", rb"\g<1>" + stamp + rb"\2", body)
                body = re.sub(rb"(<dcterms:created[^>]*>)[^<]*(</dcterms:created>)", rb"\g<1>" + stamp + rb"\2", body)
            fixed = zipfile.ZipInfo(info.filename, ZIP_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = (0o100000 | 0o644) << 16
            dst.writestr(fixed, body)
    return out.getvalue()


def csv_files(tables: list[Table], out: Path) -> dict[Path, bytes]:
    """One CSV per sheet: ``out`` itself when there is one sheet, else ``<stem>.<sheet>.csv`` beside it."""
    result = {}
    taken: set[str] = set()
    for t in tables:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        for values in _grid(t):
            writer.writerow(["" if v is None else ("TRUE" if v is True else "FALSE" if v is False else v)
                             for v in values])
        name = out if len(tables) == 1 else out.with_name(f"{out.stem}.{sheet_title(t, taken).replace(' ', '-')}.csv")
        result[name] = buf.getvalue().encode("utf-8")
    return result


def select_cards(index: ProjectIndex, selection: str) -> list[LoadedDocument]:
    """``ruleset:ID[,ID]`` or ``all``: the valid unit cards selected (SheetError when none)."""
    if selection == "all":
        wanted = None
    elif selection.startswith("ruleset:"):
        wanted = {s.strip() for s in selection[len("ruleset:"):].split(",") if s.strip()}
    else:
        raise SheetError(f"unknown selection {selection!r}; use ruleset:ID (e.g. ruleset:waw) or all")
    docs = [d for d in index.of_kind("unit") if d.model is not None and (wanted is None or d.ruleset in wanted)]
    if not docs:
        known = ", ".join(sorted(index.ids("ruleset")))
        raise SheetError(f"{selection!r} selects no valid unit cards (rule systems: {known})")
    return docs


def export_units(index: ProjectIndex, selection: str, out: Path) -> list[Path]:
    """Write the spreadsheet(s); returns the files written (``out`` is a file the user named)."""
    tables = tables_for(select_cards(index, selection))
    suffix = out.suffix.lower()
    if suffix == ".xlsx":
        return [write_atomic(out, xlsx_bytes(tables))]
    if suffix == ".csv":
        return [write_atomic(p, data) for p, data in csv_files(tables, out).items()]
    raise SheetError(f"cannot tell the format of {out} from its suffix: use .xlsx or .csv")


# ------------------------------------------------------------------ reading

@dataclass
class Sheet:
    """One sheet read back: its header row values, keys and data rows (row number, values)."""

    title: str
    ruleset: str
    category: str
    path: str
    keys: list[str]
    rows: list[tuple[int, list[Any]]]


def _sheet(title: str, grid: list[list[Any]]) -> Sheet | None:
    if not grid or not grid[0] or grid[0][0] != MARK:
        return None
    head = [("" if v is None else str(v)) for v in grid[0]] + ["", "", ""]
    keys = [("" if v is None else str(v).strip()) for v in (grid[1] if len(grid) > 1 else [])]
    rows = [(r, list(values)) for r, values in enumerate(grid[FIRST_DATA_ROW - 1:], start=FIRST_DATA_ROW)
            if any(v not in (None, "") for v in values)]
    return Sheet(title, head[1], head[2], head[3], keys, rows)


def read_sheets(path: Path) -> list[Sheet]:
    """The studio sheets of an XLSX workbook or a CSV file (SheetError for an unreadable file)."""
    try:
        data = read_regular(path, MAX_SHEET_FILE)
    except OSError as exc:
        raise SheetError(f"cannot read {path}: {getattr(exc, 'reason', None) or exc}") from None
    if path.suffix.lower() == ".csv":
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise SheetError(f"{path.name}: not UTF-8 text ({exc})") from None
        grid = [list(r) for r in csv.reader(io.StringIO(text))]
        found = _sheet(path.stem, [[v if v != "" else None for v in row] for row in grid])
        return [found] if found else []
    if path.suffix.lower() != ".xlsx":
        raise SheetError(f"cannot tell the format of {path} from its suffix: use .xlsx or .csv")
    return _xlsx_sheets(path, data)


def _xlsx_sheets(path: Path, data: bytes) -> list[Sheet]:
    from openpyxl import load_workbook

    from .package import Limits, PackageRefused, read_archive

    try:
        read_archive(data, Limits(entry=MAX_SHEET_FILE * 4, total=MAX_SHEET_FILE * 8, entries=10_000))
        wb = load_workbook(io.BytesIO(data), data_only=True, read_only=True)
    except PackageRefused as exc:
        raise SheetError(f"{path.name}: refused: {'; '.join(exc.findings)}") from None
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many kinds on a broken file
        raise SheetError(f"{path.name}: not a readable XLSX workbook ({type(exc).__name__}: {exc})") from None
    out = []
    try:
        for ws in wb.worksheets:
            grid = [list(r) for r in ws.iter_rows(values_only=True)]
            found = _sheet(ws.title, grid)
            if found:
                out.append(found)
    finally:
        wb.close()
    return out


# ------------------------------------------------------------------ rows back to cards

@dataclass
class Finding:
    file: str
    sheet: str
    cell: str
    message: str

    def text(self) -> str:
        return f"{self.file}:{self.sheet}!{self.cell}: {self.message}"


def _ref(col: int, row: int) -> str:
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(col + 1)}{row}"


_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")


def coerce(value: Any, types: set[str]) -> Any:
    """A cell value as the field's type: the markers, JSON text for lists and objects, numbers and booleans
    from CSV text, numbers typed into a text field back to text."""
    if value == NULL:
        return None
    if value == EMPTY:
        return ""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, str):
        return _from_text(value, types)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return _from_number(value, types)


def _from_text(value: str, types: set[str]) -> Any:
    text = value.strip()
    if text[:1] in "[{" and (types & {"array", "object"} or not types):
        return json.loads(text)
    if "string" in types:
        return value
    if types & {"integer", "number"} and _INT.match(text):
        return int(text)
    if "number" in types and _FLOAT.match(text):
        return float(text)
    if "boolean" in types and text.upper() in ("TRUE", "FALSE"):
        return text.upper() == "TRUE"
    return value


def _from_number(value: int | float, types: set[str]) -> Any:
    if "string" in types and not types & {"integer", "number"}:
        return str(int(value)) if float(value).is_integer() else str(value)
    if isinstance(value, float) and value.is_integer() and "integer" in types and "number" not in types:
        return int(value)
    return value


def _set(data: dict, parts: list[str], value: Any) -> None:
    node = data
    for p in parts[:-1]:
        node = node.setdefault(p, {})
        if not isinstance(node, dict):
            raise ValueError(f"'{p}' holds a value and a field below it")
    node[parts[-1]] = value


@dataclass
class CardRows:
    """A card rebuilt from its rows, and where each field came from (JSON pointer -> sheet, cell)."""

    id: str
    ruleset: str
    category: str
    data: dict
    cells: dict[str, tuple[str, str, str]] = field(default_factory=dict)    # pointer -> (file, sheet, cell)
    row_cell: tuple[str, str, str] = ("", "", "A1")


def _schema(ruleset: str, category: str) -> dict:
    return model_for({"kind": "unit", "ruleset": ruleset, "category": category}).model_json_schema()


def cards_from_sheets(sheets: list[Sheet], file: str, cards: dict[str, CardRows]) -> list[Finding]:
    """Rebuild cards from the sheets into ``cards`` (card sheets first, then item sheets by depth)."""
    findings: list[Finding] = []
    for s in sorted(sheets, key=lambda s: (s.path != "", s.path.count("*"), s.path)):
        schema = _schema(s.ruleset, s.category)
        if not s.path:
            _card_sheet(s, schema, cards, findings, file)
        else:
            _item_sheet(s, schema, cards, findings, file)
    return findings


def _values(s: Sheet, row: int, values: list[Any], base: list[str], schema: dict, skip: set[str],
            findings: list[Finding], file: str) -> Iterable[tuple[str, int, Any]]:
    for c, key in enumerate(s.keys):
        if not key or key in skip or c >= len(values) or values[c] in (None, ""):
            continue
        try:
            yield key, c, coerce(values[c], _types(schema, base + key.split("/")))
        except ValueError as exc:
            findings.append(Finding(file, s.title, _ref(c, row), f"{key}: not valid JSON ({exc})"))


def _card_sheet(s: Sheet, schema: dict, cards: dict, findings: list[Finding], file: str) -> None:
    if "id" not in s.keys:
        findings.append(Finding(file, s.title, "A2", "no 'id' column"))
        return
    id_col = s.keys.index("id")
    for row, values in s.rows:
        card_id = str(values[id_col]) if id_col < len(values) and values[id_col] is not None else ""
        if not card_id:
            findings.append(Finding(file, s.title, _ref(id_col, row), "card without an id"))
            continue
        if card_id in cards:
            findings.append(Finding(file, s.title, _ref(id_col, row), f"card {card_id!r} appears twice"))
            continue
        card = CardRows(card_id, s.ruleset, s.category, {"kind": "unit"}, row_cell=(file, s.title, _ref(0, row)))
        for key, c, value in _values(s, row, values, [], schema, set(), findings, file):
            try:
                _set(card.data, key.split("/"), value)
            except ValueError as exc:
                findings.append(Finding(file, s.title, _ref(c, row), f"{key}: {exc}"))
            card.cells["/" + key] = (file, s.title, _ref(c, row))
        for key, want in (("ruleset", s.ruleset), ("category", s.category)):
            if card.data.get(key) != want:
                findings.append(Finding(file, s.title, _ref(s.keys.index(key) if key in s.keys else 0, row),
                                        f"{key} {card.data.get(key)!r} differs from the sheet's {want!r}"))
        cards[card_id] = card


def _item_sheet(s: Sheet, schema: dict, cards: dict, findings: list[Finding], file: str) -> None:
    if s.keys[:2] != ["card", "#"]:
        findings.append(Finding(file, s.title, "A2", "an item sheet starts with the columns 'card' and '#'"))
        return
    base = s.path.split("/")
    for row, values in s.rows:
        card = cards.get(str(values[0]) if values and values[0] is not None else "")
        if card is None:
            findings.append(Finding(file, s.title, _ref(0, row), f"no card {values[0]!r} on a card sheet"))
            continue
        numbers = str(values[1] if len(values) > 1 else "").split("/")
        if len(numbers) != s.path.count("*") + 1 or not all(n.isdigit() for n in numbers):
            findings.append(Finding(file, s.title, _ref(1, row), f"item number {values[1]!r} does not fit "
                                                                 f"{s.path!r}"))
            continue
        item: dict = {}
        pointer = _pointer(base, numbers)
        for key, c, value in _values(s, row, values, base + ["*"], schema, {"card", "#"}, findings, file):
            _set(item, key.split("/"), value)
            card.cells[f"{pointer}/{key}"] = (file, s.title, _ref(c, row))
        card.cells.setdefault(pointer, (file, s.title, _ref(0, row)))
        if not _place(card.data, base, numbers, item):
            findings.append(Finding(file, s.title, _ref(1, row), f"item {values[1]!r} has no parent item or "
                                                                 "is out of order"))


def _pointer(base: list[str], numbers: list[str]) -> str:
    out, n = [], iter(numbers)
    for p in base:
        out.append(next(n) if p == "*" else p)
    return "/" + "/".join(out + [next(n)])


def _place(data: dict, base: list[str], numbers: list[str], item: dict) -> bool:
    """Append ``item`` to the list at ``base`` (with ``*`` taken from ``numbers``); False if it does not fit."""
    node: Any = data
    n = iter(numbers)
    for i, p in enumerate(base):
        if p == "*":
            k = int(next(n))
            if not isinstance(node, list) or k >= len(node):
                return False
            node = node[k]
        else:
            last = i == len(base) - 1
            if not isinstance(node, dict):
                return False
            node = node.setdefault(p, [] if last else {})
    k = int(next(n))
    if not isinstance(node, list) or k != len(node):
        return False
    node.append(item)
    return True


# ------------------------------------------------------------------ the import plan

@dataclass
class CardChange:
    id: str
    what: str                      # 'add' or 'change'
    path: str                      # file relative to the project
    text: str
    fields: list[str] = field(default_factory=list)   # 'path: old -> new'


@dataclass
class UnitsPlan:
    root: Path
    changes: list[CardChange] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0

    def diff_lines(self) -> list[str]:
        out = []
        for c in self.changes:
            out.append(f"{'added' if c.what == 'add' else 'changed'}: {c.id} ({c.path})")
            out += [f"    {f}" for f in c.fields]
        out += [f"removed (not in the file; the card is kept): {r}" for r in self.removed]
        out.append(f"{len([c for c in self.changes if c.what == 'add'])} added, "
                   f"{len([c for c in self.changes if c.what == 'change'])} changed, {len(self.removed)} removed, "
                   f"{self.unchanged} unchanged")
        return out


class ImportRefused(ValueError):
    def __init__(self, message: str, findings: list[str]):
        super().__init__(message)
        self.findings = findings


def _flat(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict) and data:
        out = {}
        for k, v in data.items():
            out.update(_flat(v, f"{prefix}/{k}"))
        return out
    if isinstance(data, list) and data and all(isinstance(v, dict) for v in data):
        out = {}
        for i, v in enumerate(data):
            out.update(_flat(v, f"{prefix}/{i}"))
        return out
    return {prefix: data}


def field_changes(old: dict, new: dict) -> list[str]:
    a, b = _flat({k: v for k, v in old.items() if k not in SKIP}), _flat({k: v for k, v in new.items() if k not in SKIP})
    out = []
    for k in list(a) + [k for k in b if k not in a]:
        if a.get(k, "<unset>") != b.get(k, "<unset>") or (k in a) != (k in b):
            out.append(f"{k[1:]}: {json.dumps(a.get(k)) if k in a else '(unset)'} -> "
                       f"{json.dumps(b.get(k)) if k in b else '(unset)'}")
    return out


def _locate(card: CardRows, pointer: str) -> tuple[str, str, str]:
    p = pointer
    while p:
        if p in card.cells:
            return card.cells[p]
        p = p.rsplit("/", 1)[0]
    return card.row_cell


def plan_units_import(paths: Path | list[Path], project: Path) -> UnitsPlan:
    """Read, validate and diff the sheets of one workbook (or several CSV files: a card sheet and its item
    sheets) against the project; raises ImportRefused (nothing written)."""
    paths = [Path(p) for p in (paths if isinstance(paths, (list, tuple)) else [paths])]
    file = ", ".join(p.name for p in paths)
    sheets, findings = [], []
    for path in paths:
        try:
            found = read_sheets(path)
        except SheetError as exc:
            raise ImportRefused(str(exc), [str(exc)]) from None
        if not found:
            raise ImportRefused(f"{path.name}: no studio unit sheet (row 1 must start with {MARK})", [])
        sheets += [(path.name, s) for s in found]
    cards: dict[str, CardRows] = {}
    for name, s in sorted(sheets, key=lambda x: (x[1].path != "", x[1].path.count("*"), x[1].path)):
        findings += cards_from_sheets([s], name, cards)
    index = load_project(project)
    plan = UnitsPlan(Path(project))
    docs = {}
    for card in cards.values():
        doc = LoadedDocument(Path(project) / "units" / card.ruleset / f"{card.id}.yaml", f"{MARK}:{card.id}",
                             data=card.data)
        validate_model(doc)
        for d in doc.diagnostics:
            if d.severity.value == "error":
                findings.append(_finding(card, d.pointer, d.message))
        docs[card.id] = doc
    if findings:
        raise ImportRefused(f"{file}: {len(findings)} problem(s); nothing written", [f.text() for f in findings])
    _diff(plan, index, cards, docs)
    _validate_changes(plan, index, cards, file)
    return plan


def _finding(card: CardRows, pointer: str, message: str) -> Finding:
    file, sheet, cell = _locate(card, pointer)
    return Finding(file, sheet, cell, message)


def _rel(index: ProjectIndex, doc: LoadedDocument) -> str:
    return PurePosixPath(*Path(doc.path).resolve().relative_to(Path(index.root).resolve()).parts).as_posix()


def _diff(plan: UnitsPlan, index: ProjectIndex, cards: dict[str, CardRows], docs: dict) -> None:
    sheets = {(c.ruleset, c.category) for c in cards.values()}
    for card_id, card in sorted(cards.items()):
        mine = index.get("unit", card_id)
        if mine is not None and mine.data == card.data:
            plan.unchanged += 1
            continue
        if mine is not None:
            rel = _rel(index, mine)
            text = document_text(card.data, Path(mine.path), mine.text)
            plan.changes.append(CardChange(card_id, "change", rel, text, field_changes(mine.data, card.data)))
        else:
            rel = f"units/{card.ruleset}/{card_id}.yaml"
            if (Path(index.root) / rel).exists():
                raise ImportRefused(f"{rel}: the file exists but holds another document", [rel])
            plan.changes.append(CardChange(card_id, "add", rel, document_text(card.data, Path(index.root) / rel)))
    for d in index.of_kind("unit"):
        if d.model is not None and (d.ruleset, d.model.category) in sheets and d.id not in cards:
            plan.removed.append(d.id)
    plan.removed.sort()


def _validate_changes(plan: UnitsPlan, index: ProjectIndex, cards: dict[str, CardRows], file: str) -> None:
    if not plan.changes:
        return
    changed = {c.path: c for c in plan.changes}
    merged = ProjectIndex(index.root)
    for d in index.documents:
        if _rel(index, d) not in changed:
            merged.add(d)
    for c in plan.changes:
        doc = LoadedDocument(Path(index.root) / c.path, f"{MARK}:{c.id}", text=c.text, data=yamlio.parse(c.text))
        validate_model(doc)
        merged.add(doc)
    result = validate_index(merged, only={os.path.abspath(Path(index.root) / c.path) for c in plan.changes})
    findings = []
    for d in result.diagnostics:
        if d.severity.value != "error" or not d.file.startswith(f"{MARK}:"):
            continue
        findings.append(_finding(cards[d.file.split(":", 1)[1]], d.pointer, d.message).text())
    if findings:
        raise ImportRefused(f"{file}: {len(findings)} problem(s) in the project; nothing written", findings)


def apply_units_import(plan: UnitsPlan) -> list[Path]:
    return [write_atomic(plan.root / c.path, c.text, root=plan.root) for c in plan.changes]
