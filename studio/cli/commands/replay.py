"""``studio replay FILE``: re-play a replay file and verify its final state hash.

Exit 0 when the replay reproduces the recorded end state, 1 on a mismatch (different ruleset version, changed
scenario data, an action the rules now refuse, a different end state), 2 when the file cannot be read.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="re-play a replay file and verify its final state",
                       description="Re-play a replay file (written by 'studio play --save-replays') with the rules "
                                   "checks on and compare the final state hash.")
    p.add_argument("file", metavar="FILE", help="replay file (.replay.json)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--project", dest="replay_project", metavar="DIR", help="project folder (default: the one the "
                                                                           "replay's scenario is found in)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from studio.rules.replay import verify

    path = Path(args.file)
    if not path.exists():
        print(f"studio replay: no such file: {path}", file=sys.stderr)
        return 2
    check = verify(path, args.replay_project or getattr(args, "project", None))
    if args.format == "json":
        json.dump(check.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"{path}: {check.status}: {check.message}")
    if check.status == "unreadable":
        return 2
    return 0 if check.ok else 1
