"""``studio schema export|check``: write the JSON Schemas, or check that the committed ones are current."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("schema", help="export or check the JSON Schemas",
                       description="Generate JSON Schemas (draft 2020-12) from the document models.")
    actions = p.add_subparsers(dest="schema_action", metavar="ACTION", required=True)
    e = actions.add_parser("export", help="write schemas/ from the models")
    e.add_argument("--out", metavar="DIR", help="output folder (default: the repository's schemas/)")
    e.set_defaults(func=run_export)
    c = actions.add_parser("check", help="exit 1 when schemas/ is stale")
    c.add_argument("--dir", metavar="DIR", help="folder to check (default: the repository's schemas/)")
    c.set_defaults(func=run_check)


def run_export(args: argparse.Namespace) -> int:
    from studio.model.schema_export import export

    changed = export(Path(args.out) if args.out else None)
    print(f"{len(changed)} schema file(s) written or removed" if changed else "schemas are up to date")
    return 0


def run_check(args: argparse.Namespace) -> int:
    from studio.model.schema_export import REGENERATE, stale

    problems = stale(Path(args.dir) if args.dir else None)
    if problems:
        for p in problems:
            print(f"schema {p}", file=sys.stderr)
        print(f"schemas are out of date; regenerate them with: {REGENERATE}", file=sys.stderr)
        return 1
    print("schemas are up to date")
    return 0
