"""``studio units export SELECTION -o FILE.xlsx|.csv`` and ``studio units import FILE... [--dry-run]``.

SELECTION is ``ruleset:ID[,ID]`` or ``all``. XLSX: one sheet per rule system and card category, lists of
objects (MBT weapons, ammunition) on their own sheets keyed by card id, enum columns with drop-down lists. CSV:
one file per sheet (``OUT.csv`` when there is one, else ``OUT.<sheet>.csv``); import them together.
Import validates every cell, prints findings as ``file:sheet!cell: message`` and writes nothing unless the whole
import is valid; it prints the diff (cards added, fields changed, cards removed: reported, never deleted) and
writes only without ``--dry-run``. See docs/INTERCHANGE.md.

Exit codes: 0 done, 1 findings (nothing written), 2 usage or I/O.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("units", help="unit cards to and from spreadsheets (XLSX, CSV)",
                       description="Export unit cards to XLSX/CSV and import them back, validated.")
    kinds = p.add_subparsers(dest="units_action", metavar="ACTION", required=True)
    e = kinds.add_parser("export", help="write cards to a spreadsheet")
    e.add_argument("selection", metavar="SELECTION", help="ruleset:ID[,ID] or all")
    e.add_argument("-o", "--output", metavar="OUT.xlsx", required=True, help=".xlsx or .csv")
    e.add_argument("--project", metavar="DIR", help="project folder (default: the sample project)")
    e.set_defaults(func=run_export)
    i = kinds.add_parser("import", help="read cards back from a spreadsheet")
    i.add_argument("files", metavar="FILE", nargs="+", help="one .xlsx, or the .csv files of one export")
    i.add_argument("--project", metavar="DIR", help="project folder (default: the sample project)")
    i.add_argument("--dry-run", action="store_true", help="print the diff; write nothing")
    i.set_defaults(func=run_import)


def _project(args: argparse.Namespace) -> Path | None:
    from studio.cli.paths import default_project

    root = Path(args.project) if args.project else default_project()
    if not (root / "project.yaml").is_file():
        print(f"studio units: {root} is not a project folder (no project.yaml)", file=sys.stderr)
        return None
    return root


def run_export(args: argparse.Namespace) -> int:
    from studio.export.spreadsheet import SheetError, export_units
    from studio.model.project import load_project

    root = _project(args)
    if root is None:
        return 2
    out = Path(args.output)
    if not out.parent.is_dir():
        print(f"studio units: cannot write {out}: folder {out.parent} does not exist", file=sys.stderr)
        return 2
    try:
        written = export_units(load_project(root), args.selection, out)
    except SheetError as exc:
        print(f"studio units: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"studio units: cannot write {out}: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {', '.join(str(p) for p in written)}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    from studio.export.spreadsheet import ImportRefused, apply_units_import, plan_units_import

    root = _project(args)
    if root is None:
        return 2
    missing = [f for f in args.files if not Path(f).is_file()]
    if missing:
        print(f"studio units: no such file: {missing[0]}", file=sys.stderr)
        return 2
    try:
        plan = plan_units_import([Path(f) for f in args.files], root)
    except ImportRefused as exc:
        for finding in exc.findings:
            print(finding)
        print(f"studio units: {exc}", file=sys.stderr)
        return 1
    for line in plan.diff_lines():
        print(line)
    if args.dry_run or not plan.changes:
        return 0
    try:
        written = apply_units_import(plan)
    except OSError as exc:
        print(f"studio units: cannot write: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {len(written)} card file(s)")
    return 0
