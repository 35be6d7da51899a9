"""``studio play SCENARIO`` (or ``studio play --from POSITION``): test-play with bots and print a balance report.

``--from`` starts every game from a position document (``kind: position``, see :mod:`studio.rules.position`)
instead of the scenario's set-up: same report, same determinism.

Where the games run: ``--jobs J`` local processes, or a Dask cluster with ``--scheduler tcp://HOST:8786`` (also
from the ``STUDIO_SCHEDULER`` environment variable or ``<project>/.studio/cluster.json`` ``{"scheduler": ...}``;
``--scheduler local`` forces local play). ``--precision 0.03`` plays until every side's anytime-valid 95% interval
is within +-3 points (at most ``--games``). ``--variant ID`` plays under a ruleset variant (``kind: variant``).
``--report out.html`` writes a self-contained HTML report with labelled charts. See docs/BALANCE.md.
``--optional-rule ID`` (repeatable) plays with those optional rules in force instead of the scenario's list;
``--all-optional-rules`` with every optional rule of the ruleset (``studio rules RULESET`` lists them).

Exit 0 when every game finished, 1 when the scenario is refused (validation errors, printed) or a game hit an
engine error, 2 on usage or I/O errors (unknown bot, missing file).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="test-play a scenario with bots and report balance",
                       description="Play N seeded games of a scenario with bots in J processes and print a balance "
                                   "report (wins with 95% intervals, turns, victory points, losses). The same seed "
                                   "gives the same report whatever --jobs is.")
    p.add_argument("scenario", metavar="SCENARIO", nargs="?", help="scenario file or scenario id")
    p.add_argument("--from", dest="from_position", metavar="POSITION",
                   help="start every game from this position file (kind: position) instead of the set-up")
    p.add_argument("--optional-rule", dest="optional_rules", action="append", metavar="ID",
                   help="play with this optional rule in force (repeatable; replaces the scenario's list)")
    p.add_argument("--all-optional-rules", action="store_true",
                   help="play with every optional rule of the scenario's ruleset in force")
    p.add_argument("--games", "--max-games", dest="games", type=int, default=None, metavar="N",
                   help="number of games (default 100; with --precision the most it plays, default 20000)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="master seed (default 1)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    p.add_argument("--bots", default="random,random", metavar="A,B", help="bot per side, in side order "
                                                                          "(default random,random)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--save-replays", metavar="DIR", help="write one replay file per game into DIR")
    p.add_argument("--write-balance", action="store_true",
                   help="write <scenario stem>.balance.json next to the scenario file")
    add_run_arguments(p)
    p.add_argument("--precision", type=float, metavar="P",
                   help="play until each side's 95%% interval is within +-P (e.g. 0.03), at most --games games")
    p.add_argument("--report", metavar="HTML", help="write a self-contained HTML report with charts")
    p.add_argument("--project", dest="play_project", metavar="DIR", help="project folder (default: sample project)")
    p.set_defaults(func=run)


class _Bar:
    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.last = -1

    def __call__(self, done: int, total: int) -> None:
        width = 30
        fill = int(width * done / total) if total else width
        pct = int(100 * done / total) if total else 100
        if pct == self.last and done != total:
            return
        self.last = pct
        self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total} games")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """Options shared by ``play``, ``tune`` and ``compare``: the Dask scheduler and the ruleset variant."""
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler (tcp://HOST:8786) to run the games on; 'local' = this machine "
                        "(default: $STUDIO_SCHEDULER, then <project>/.studio/cluster.json, then local)")
    if not any(a.dest == "variant" for a in p._actions):
        p.add_argument("--variant", metavar="ID", help="play under this ruleset variant (kind: variant)")


def scheduler_of(args: argparse.Namespace, project) -> str | None:
    """The scheduler address for a run (None = local): --scheduler, $STUDIO_SCHEDULER, the project's setting."""
    from studio.sim.bundle import environ_scheduler

    given = getattr(args, "scheduler", None) or environ_scheduler()
    if given is None and project is not None:
        setting = Path(project) / ".studio" / "cluster.json"
        try:
            given = json.loads(setting.read_text(encoding="utf-8")).get("scheduler") if setting.is_file() else None
        except (OSError, ValueError, AttributeError):
            given = None
    return None if given in (None, "", "local") else str(given)


def run(args: argparse.Namespace) -> int:
    from studio.rules.load import ScenarioRefused

    usage = _usage_error(args)
    if usage:
        print(f"studio play: {usage}", file=sys.stderr)
        return 2
    try:
        loaded = _load(args)
    except ScenarioRefused as exc:
        return _refused(args, exc)
    bots = _bots(args, loaded.game)
    if bots is None:
        return 2
    return _play(args, loaded, bots)


def _usage_error(args: argparse.Namespace) -> str:
    if args.games is None:
        args.games = 20_000 if args.precision else 100
    if args.games < 1 or args.jobs < 1:
        return "--games and --jobs must be at least 1"
    if args.precision is not None and not 0 < args.precision < 0.5:
        return "--precision must be between 0 and 0.5 (e.g. 0.03 for +-3 points)"
    if bool(args.scenario) == bool(args.from_position):
        return "give a SCENARIO or --from POSITION (exactly one)"
    if args.from_position and (args.optional_rules or args.all_optional_rules):
        return "--optional-rule/--all-optional-rules need a SCENARIO (a position lists its own optional_rules)"
    if args.optional_rules and args.all_optional_rules:
        return "give --optional-rule or --all-optional-rules, not both"
    project = _project(args)
    if project and not Path(project).is_dir():
        return f"no such project folder: {project}"
    return ""


def _project(args: argparse.Namespace):
    return args.play_project or getattr(args, "project", None)


def _load(args: argparse.Namespace):
    """The game to play: the scenario's, or one that starts from the position (raises ScenarioRefused)."""
    from studio.rules.load import load_game
    from studio.rules.position import load_position

    if args.from_position:
        return load_position(args.from_position, _project(args)).as_loaded()
    if getattr(args, "all_optional_rules", False):
        return _with_every_optional_rule(args, load_game(args.scenario, _project(args)))
    return load_game(args.scenario, _project(args), optional_rules=getattr(args, "optional_rules", None))


def _with_every_optional_rule(args: argparse.Namespace, loaded):
    """The scenario loaded again with every optional rule of its ruleset in force (checked like the scenario's
    own list: a rule the scenario cannot play with is refused)."""
    from studio.rules.load import load_game

    ruleset = loaded.index.model("ruleset", loaded.scenario.ruleset)
    every = [o.id for o in ruleset.optional_rules] if ruleset is not None else []
    return load_game(args.scenario, _project(args), optional_rules=every)


def _refused(args: argparse.Namespace, exc) -> int:
    if args.format == "json":
        json.dump({"error": str(exc), "diagnostics": [d.to_json() for d in exc.diagnostics]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for d in exc.diagnostics:
            print(d.format_text())
        print(f"studio play: {exc}", file=sys.stderr)
    return 1 if exc.diagnostics else 2


def _bots(args: argparse.Namespace, game) -> list[str] | None:
    from studio.sim.bots import bot_names

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    known = bot_names(game)
    if len(bots) != len(game.sides) or any(b not in known for b in bots):
        print(f"studio play: --bots needs {len(game.sides)} names (sides {', '.join(game.sides)}) "
              f"from: {', '.join(known)}", file=sys.stderr)
        return None
    return bots


def prepare(args: argparse.Namespace, loaded):
    """``(loaded, recipe, changes)`` for a run under ``--variant`` (the bundle's game), or the original.
    Without ``--variant`` the house rules in force for the scenario (a variant listing it) are played; ``--variant
    base`` plays the ruleset as published."""
    from studio.sim.variants import default_variant, variant_bundle

    variant = getattr(args, "variant", None) or default_variant(loaded)
    if not variant or variant == "base":
        return loaded, None, []

    bundle = variant_bundle(loaded, variant)
    return bundle.load(), bundle, list(bundle.changes)


def _play(args: argparse.Namespace, loaded, bots: list[str]) -> int:
    from studio.rules.load import ScenarioRefused
    from studio.sim.bundle import BundleError
    from studio.sim.runner import run_games

    progress = _Bar() if args.format == "text" and sys.stderr is not None else None
    try:
        played, recipe, changes = prepare(args, loaded)
        report = run_games(played, args.games, args.seed, bots, jobs=args.jobs, progress=progress,
                           replay_dir=args.save_replays, scheduler=scheduler_of(args, loaded.project),
                           recipe=recipe, precision=args.precision)
    except ScenarioRefused as exc:
        return _refused(args, exc)
    except (BundleError, RuntimeError, OSError) as exc:
        print(f"studio play: {exc}", file=sys.stderr)
        return 2
    report.changes = changes
    data = report.to_json()
    if args.format == "json":
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(report.format_text())
    if args.report:
        from studio.sim.html import report_html, write_html

        try:
            write_html(args.report, report_html(data))
        except OSError as exc:
            print(f"studio play: cannot write {args.report}: {exc}", file=sys.stderr)
            return 2
    if args.write_balance:
        try:
            write_balance(loaded.path, data)
        except OSError as exc:
            print(f"studio play: cannot write {balance_path(loaded.path)}: {exc}", file=sys.stderr)
            return 2
    if report.errors:
        for r in report.errors[:3]:
            print(f"studio play: engine error in game {r.index} (seed {r.seed}):\n{r.error}", file=sys.stderr)
        return 1
    return 0


def balance_path(scenario: Path) -> Path:
    """``<scenario stem>.balance.json`` beside the scenario file (:mod:`studio.sim.files`)."""
    from studio.sim.files import balance_path as path

    return path(scenario)


def write_balance(scenario: Path, report: dict) -> Path:
    """Write the balance report beside ``scenario`` atomically (:func:`studio.sim.files.write_balance`)."""
    from studio.sim.files import write_balance as write

    return write(scenario, report)
