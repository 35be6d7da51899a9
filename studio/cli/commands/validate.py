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
    cached run; otherwise validated (and cached when the files did not change meanwhile), the files that did
    not change since an earlier run taken from the parse cache and the rest read by a forked reader while the
    models are imported, when that pays (``studio.model.prefetch``)."""
    command_line = getattr(args, "command_line", False)
    inputs = None
    if args.cache and command_line:
        from studio.cli import validate_cache

        try:
            inputs = validate_cache.run_inputs(paths, [str(p) for p in paths])
        except validate_cache.Uncacheable:
            inputs = None
        found = validate_cache.load(inputs.key) if inputs else None
        if found is not None:
            return found
    raws = _read_files(paths, inputs) if command_line else None
    from studio.model.validate import validate_paths

    result = validate_paths(paths, prefetched=raws)
    if inputs is not None and _unchanged(inputs.key, paths):
        validate_cache.store(inputs.key, result.files, result.diagnostics, result.notes)
    return result.files, result.diagnostics, result.notes


def _read_files(paths: list[Path], inputs) -> dict[str, tuple]:
    """Every input file's parse (``studio.model.prefetch.read_raw``), by path: from the parse cache (with
    ``inputs``), the rest by a forked reader while this process imports the models and loads the plugins, or
    here; the new parses are stored in the parse cache before anything validates their data."""
    from studio.cli import validate_cache
    from studio.model import prefetch

    raws = validate_cache.load_parsed(inputs) if inputs is not None else {}
    missing = [f for f in (inputs.files if inputs is not None else validate_cache.input_files(paths))
               if f not in raws]
    pending = prefetch.start(missing)
    from studio.model.registry import load_plugins  # the models and plugins: imported while the files are read

    load_plugins()
    fresh = prefetch.take(pending) or {}
    fresh.update((f, prefetch.read_raw(f)) for f in missing if f not in fresh)
    if inputs is not None:
        validate_cache.store_parsed(inputs, fresh)
    raws.update(fresh)
    return raws


def _unchanged(key: str, paths: list[Path]) -> bool:
    """Whether the run's key is still ``key`` (no file changed while it was validated)."""
    from studio.cli import validate_cache

    try:
        return validate_cache.run_key(paths, [str(p) for p in paths]) == key
    except validate_cache.Uncacheable:
        return False
