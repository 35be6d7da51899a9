"""``studio compare SCENARIO --variants base,house-smoke``: play the same seeds under each ruleset variant
(``base`` = the ruleset as published; others are ``kind: variant`` documents) and print win rates, turns, VP and
losses side by side, with the differences from the first variant paired by seed (:mod:`studio.sim.compare`).

Exit 0 on success, 1 when a scenario or variant is refused, 2 on usage or I/O errors.
"""
from __future__ import annotations

import argparse
import json
import sys

from ..output import run_on_scenario


def register(sub: argparse._SubParsersAction) -> None:
    from .play import add_run_arguments

    p = sub.add_parser("compare", help="play a scenario under several ruleset variants with the same seeds",
                       description="Play the same seeded games under each variant and compare win rates, turns, "
                                   "VP and losses (paired differences with 95% intervals).")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file or scenario id")
    p.add_argument("--variants", required=True, metavar="A,B", help="variant ids, 'base' for the published "
                                                                    "ruleset (e.g. base,house-smoke)")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games per variant (default 100)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="master seed (the same for every variant)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    p.add_argument("--bots", default="random,random", metavar="A,B", help="bot per side, in side order")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--report", metavar="HTML", help="write the comparison as a self-contained HTML page, and "
                                                    "each variant's own report beside it (id before the suffix)")
    add_run_arguments(p)
    p.add_argument("--project", dest="play_project", metavar="DIR", help="project folder (default: sample project)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    names = [v.strip() for v in args.variants.split(",") if v.strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        print("studio compare: --variants needs two or more different ids (e.g. base,house-smoke)", file=sys.stderr)
        return 2
    if args.games < 1 or args.jobs < 1:
        print("studio compare: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    return run_on_scenario("compare", args, lambda loaded: _compare(args, loaded, names))


def _compare(args: argparse.Namespace, loaded, names: list[str]) -> int:
    from pathlib import Path

    from studio.sim.compare import compare_reports, format_comparison
    from studio.sim.runner import run_games
    from studio.sim.variants import variant_bundle

    from .play import scheduler_of

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    bundles = {name: variant_bundle(loaded, name) for name in names}   # every variant checked before playing
    runs = {}
    for name, bundle in bundles.items():
        if args.format == "text":
            print(f"  playing {args.games} games under {name} ...", file=sys.stderr)
        report = run_games(bundle.load(), args.games, args.seed, bots, jobs=args.jobs, recipe=bundle,
                           scheduler=scheduler_of(args, loaded.project))
        report.changes = list(bundle.changes)
        runs[name] = report
    data = compare_reports(runs)
    if args.report:
        from studio.sim.html import comparison_html, report_html, write_html

        out = Path(args.report)
        write_html(out, comparison_html(data))
        for name, report in runs.items():
            write_html(out.with_name(f"{out.stem}-{name}{out.suffix or '.html'}"),
                       report_html(report.to_json(), f"Balance report: {report.scenario} under {name}"))
    if args.format == "json":
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(format_comparison(data))
    return 1 if any(r.errors for r in runs.values()) else 0
