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

    paths = [Path(p) for p in args.paths] or [default_project()]
    files: list[Path] = []
    for p in paths:
        if not p.exists():
            print(f"studio format: no such file or folder: {p}", file=sys.stderr)
            return 2
        files.extend(project_files(p) if p.is_dir() else [p])
    counts = {"changed": 0, "invalid": 0, "refused": 0}
    for path in files:
        doc = load_document(path)
        if doc.model is None:
            counts["invalid"] += 1
            print(f"{doc.display}: not formatted (invalid; run studio validate)", file=sys.stderr)
            continue
        _format_one(doc, args.check, counts)
    changed, invalid, refused = counts["changed"], counts["invalid"], counts["refused"]
    tail = f", {refused} refused" if refused else ""
    print(f"{len(files)} file(s), {changed} {'to format' if args.check else 'formatted'}, {invalid} invalid{tail}")
    return 1 if (invalid or refused or (args.check and changed)) else 0


def _format_one(doc, check: bool, counts: dict[str, int]) -> None:
    """Format (or, with ``check``, report) one valid document. A symlinked file is never replaced: writing
    through the link or replacing it by a plain file would both change what the user set up."""
    from studio.model.project import write_root
    from studio.model.safeio import write_atomic
    from studio.model.save import document_text

    text = document_text(doc.model, doc.path, doc.text)
    if text == doc.text:
        return
    if check:
        counts["changed"] += 1
        print(f"{doc.display}: not canonical")
        return
    if doc.path.is_symlink():
        counts["refused"] += 1
        print(f"{doc.display}: not formatted (a symbolic link; format the file it points to)", file=sys.stderr)
        return
    try:
        write_atomic(doc.path, text, root=write_root(doc.path))
    except OSError as exc:
        counts["refused"] += 1
        print(f"{doc.display}: not formatted: {exc}", file=sys.stderr)
        return
    counts["changed"] += 1
    print(f"{doc.display}: formatted")
