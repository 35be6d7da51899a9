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
    p.add_argument("--no-cache", dest="cache", action="store_false",
                   help="validate even when the files and the studio are unchanged since a run whose findings are "
                        "cached (an unchanged project is otherwise reported from the cache; see "
                        "studio/cli/validate_cache.py)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    paths = [Path(p) for p in args.paths] or [default_project()]
    missing = [p for p in paths if not p.exists()]
    if missing:
        for p in missing:
            print(f"studio validate: no such file or folder: {p}", file=sys.stderr)
        return 2
    files, diagnostics, notes = _findings(paths, args)
    shown = diagnostics
    if args.no_info and args.format == "text":
        shown = [d for d in shown if d.severity.value != "info"]
    print_diagnostics(shown, files, args.format, notes=notes)
    return 1 if any(d.severity.value == "error" for d in diagnostics) else 0


def _findings(paths: list[Path], args: argparse.Namespace) -> tuple[int, list, list]:
    """``(files, diagnostics, notes)`` of validating ``paths``: from the result cache when the process was
    started from the command line, the cache is not refused (``--no-cache``) and nothing changed since the
    cached run; otherwise validated (and cached when the files did not change meanwhile)."""
    key = None
    if args.cache and getattr(args, "command_line", False):
        from studio.cli import validate_cache

        try:
            key = validate_cache.run_key(paths, [str(p) for p in paths])
        except validate_cache.Uncacheable:
            key = None
        found = validate_cache.load(key) if key else None
        if found is not None:
            return found
    pending = _prefetch(paths) if getattr(args, "command_line", False) else None
    from studio.model.validate import validate_paths  # the models: imported while the files are read

    result = validate_paths(paths, pending=pending)
    if key is not None and _unchanged(key, paths):
        validate_cache.store(key, result.files, result.diagnostics, result.notes)
    return result.files, result.diagnostics, result.notes


def _prefetch(paths: list[Path]):
    """A forked reader of every input file (``studio.model.prefetch``), started before the models are imported
    (a process of its own only: in-process callers have them imported already); None when it does not pay."""
    from studio.cli import validate_cache
    from studio.model import prefetch

    return prefetch.start(validate_cache.input_files(paths))


def _unchanged(key: str, paths: list[Path]) -> bool:
    """Whether the run's key is still ``key`` (no file changed while it was validated)."""
    from studio.cli import validate_cache

    try:
        return validate_cache.run_key(paths, [str(p) for p in paths]) == key
    except validate_cache.Uncacheable:
        return False
