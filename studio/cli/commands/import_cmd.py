"""``studio import package FILE.studio.zip [--into PROJECT]``: import a scenario package.

The whole package is checked before anything is written (safe paths, no links, size limits, manifest and hashes,
every document valid, the project still valid with them); a refusal names each entry and reason and writes
nothing. Documents the project already has with the same text are skipped, so importing the same package twice is
a no-op. Documents that collide with the project's (same kind and id, different text) need ``--on-collision``:
``keep`` the project's, ``replace`` them, or ``prefix`` (import as ``<prefix>-<id>``; ``--prefix``, default
``pkg``). ``--dry-run`` prints what would be written. See docs/INTERCHANGE.md.

Exit codes: 0 imported (or nothing to do), 1 refused, 2 usage or I/O.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import", help="import a scenario package",
                       description="Import a scenario package (.studio.zip) into a project, checked first.")
    kinds = p.add_subparsers(dest="import_kind", metavar="KIND", required=True)
    k = kinds.add_parser("package", help="scenario package (.studio.zip)", description=__doc__.split("\n\n")[1])
    k.add_argument("file", metavar="FILE", help="the .studio.zip to import")
    k.add_argument("--into", metavar="PROJECT", help="project folder (default: the sample project)")
    k.add_argument("--on-collision", choices=("keep", "replace", "prefix"),
                   help="what to do with documents that differ from the project's of the same id")
    k.add_argument("--prefix", default="pkg", help="id prefix for --on-collision prefix (default pkg)")
    k.add_argument("--dry-run", action="store_true", help="print what would be written; write nothing")
    k.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from studio.cli.paths import default_project
    from studio.export.package import PackageRefused, apply_import, plan_import

    project = Path(args.into) if args.into else default_project()
    if not (project / "project.yaml").is_file():
        print(f"studio import: {project} is not a project folder (no project.yaml)", file=sys.stderr)
        return 2
    if not Path(args.file).is_file():
        print(f"studio import: no such file: {args.file}", file=sys.stderr)
        return 2
    try:
        plan = plan_import(Path(args.file), project, args.on_collision, args.prefix)
    except PackageRefused as exc:
        for finding in exc.findings:
            print(f"studio import: {finding}", file=sys.stderr)
        print(f"studio import: refused, nothing written: {exc}", file=sys.stderr)
        return 1
    for line in plan.summary():
        print(line)
    if not plan.actions:
        print("nothing to import: the project already holds the package's documents")
        return 0
    if args.dry_run:
        print(f"dry run: {len(plan.actions)} file(s) would be written")
        return 0
    try:
        written = apply_import(plan)
    except OSError as exc:
        print(f"studio import: cannot write: {exc}", file=sys.stderr)
        return 2
    print(f"imported {len(written)} file(s) into {project}")
    return 0
