"""``studio format [PATH ...] [--check]``: rewrite valid documents in canonical form (never invalid ones)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli.paths import default_project


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("format", help="rewrite documents canonically",
                       description="Rewrite valid documents in canonical form (model key order, $schema header). "
                                   "Invalid files are never touched. With --check, only report files that would "
                                   "change (exit 1 if any).")
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--check", action="store_true", help="do not write; exit 1 when a file is not canonical")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from studio.model.project import load_document, project_files
    from studio.model.save import document_text
    from studio.model.yamlio import atomic_write

    paths = [Path(p) for p in args.paths] or [default_project()]
    files: list[Path] = []
    for p in paths:
        if not p.exists():
            print(f"studio format: no such file or folder: {p}", file=sys.stderr)
            return 2
        files.extend(project_files(p) if p.is_dir() else [p])
    changed = invalid = 0
    for path in files:
        doc = load_document(path)
        if doc.model is None:
            invalid += 1
            print(f"{doc.display}: not formatted (invalid; run studio validate)", file=sys.stderr)
            continue
        text = document_text(doc.model, path, doc.text)
        if text != doc.text:
            changed += 1
            if args.check:
                print(f"{doc.display}: not canonical")
            else:
                atomic_write(path, text)
                print(f"{doc.display}: formatted")
    print(f"{len(files)} file(s), {changed} {'to format' if args.check else 'formatted'}, {invalid} invalid")
    return 1 if (invalid or (args.check and changed)) else 0
