"""``studio validate [PATH ...] [--format text|json]``: run the validation pipeline."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli.output import print_diagnostics
from studio.cli.paths import default_project


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="validate a project folder or files",
                       description="Validate project folders or single files: YAML syntax, schema, references "
                                   "and rule checks. Exit 0 without errors, 1 with errors, 2 on usage/I-O errors.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="project folder or files (default: the sample project)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--no-info", action="store_true", help="hide info findings (placeholders ...) in text output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from studio.model.validate import validate_paths

    paths = [Path(p) for p in args.paths] or [default_project()]
    missing = [p for p in paths if not p.exists()]
    if missing:
        for p in missing:
            print(f"studio validate: no such file or folder: {p}", file=sys.stderr)
        return 2
    result = validate_paths(paths)
    shown = result.diagnostics
    if args.no_info and args.format == "text":
        shown = [d for d in shown if d.severity.value != "info"]
    print_diagnostics(shown, result.files, args.format, notes=result.notes)
    return 1 if result.errors else 0
