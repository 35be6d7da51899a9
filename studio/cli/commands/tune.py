"""``studio tune SCENARIO --param POINTER --values 1..10``: play the scenario at each value of one parameter,
fit the win rate of a side with a logistic regression and report the value that gives 50% with its 95% interval
(:mod:`studio.sim.tune`), as text or JSON, with an optional plot (``--plot out.svg`` or ``.png``; PNG needs the
``plots`` extra). ``--check`` plays again at the 50% value and compares the measured win rate with the fit.

POINTER is a JSON pointer into the scenario (``/victory/0/points``, ``/forces/1/entry/turn``) or
``KIND:ID/pointer`` into another project document (``variant:house-smoke/tables/0/rows/1/2``).
Exit 0 on success, 1 when the scenario (or a changed copy) is refused, 2 on usage or I/O errors.
"""
from __future__ import annotations

import argparse
import json
import sys

from ..output import run_on_scenario


def register(sub: argparse._SubParsersAction) -> None:
    from .play import add_run_arguments

    p = sub.add_parser("tune", help="sweep one parameter and find the value that makes a scenario 50/50",
                       description="Play N games at each value of a parameter (JSON pointer), fit a side's win "
                                   "rate with a logistic regression and report the 50% value with its interval.")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file or scenario id")
    p.add_argument("--param", required=True, metavar="POINTER", help="/json/pointer in the scenario, or "
                                                                      "KIND:ID/pointer in another document")
    p.add_argument("--values", required=True, metavar="VALUES", help="1..10, 1..10:2, 0.5..2:0.5 or 1,2,5")
    p.add_argument("--side", metavar="SIDE", help="side whose win rate is fitted (default: the first side)")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games per value (default 100)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="master seed (the same for every value)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    p.add_argument("--bots", default="random,random", metavar="A,B", help="bot per side, in side order")
    p.add_argument("--check", action="store_true", help="play again at the 50%% value and compare with the fit")
    p.add_argument("--plot", metavar="FILE", help="write the plot (.svg, or .png with the plots extra)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    add_run_arguments(p)
    p.add_argument("--project", dest="play_project", metavar="DIR", help="project folder (default: sample project)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from studio.sim.tune import parse_values

    if args.games < 1 or args.jobs < 1:
        print("studio tune: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        values = parse_values(args.values)
    except ValueError as exc:
        print(f"studio tune: --values {exc}", file=sys.stderr)
        return 2
    return run_on_scenario("tune", args, lambda loaded: _tune(args, loaded, values))


def _tune(args: argparse.Namespace, loaded, values: list) -> int:
    from studio.sim.bundle import Bundle
    from studio.sim.runner import run_games
    from studio.sim.tune import sweep
    from studio.sim.variants import parameter_bundle, variant_bundle

    from .play import scheduler_of

    sides = list(loaded.game.sides)
    side = args.side or sides[0]
    if side not in sides:
        raise ValueError(f"--side must be one of {', '.join(sides)}")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    base = Bundle.from_loaded(loaded)
    scheduler = scheduler_of(args, loaded.project)
    parameter_bundle(loaded, args.param, values[0], base)     # a bad pointer fails before any game

    def play_value(value):
        bundle = parameter_bundle(loaded, args.param, value, base)
        played = bundle.load()
        if args.variant and args.variant != "base":
            bundle = variant_bundle(played, args.variant, bundle)
            played = bundle.load()
        if args.format == "text":
            print(f"  playing {args.param} = {value} ...", file=sys.stderr)
        return run_games(played, args.games, args.seed, bots, jobs=args.jobs, recipe=bundle,
                         scheduler=scheduler).statistics()

    result = sweep(loaded.game.scenario_id, args.param, side, values, play_value, seed=args.seed, bots=bots,
                   check=args.check)
    if args.plot:
        from studio.sim.charts import save_chart

        save_chart(result.chart(), args.plot)
    if args.format == "json":
        json.dump(result.to_json(), sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
    else:
        print(result.format_text())
    return 0
