"""``studio export vassal SCENARIO... -o NAME.vmod`` and ``studio export package SCENARIO -o NAME.studio.zip``.

Both first run the pre-export check (:mod:`studio.export.preflight`): the validation pipeline over the scenario
and everything it uses, then ``--games`` (default 20) seeded bot games (``--seed``, ``--bots``). Validation
errors or engine errors stop the export with the findings unless ``--force``; the module or package records the
validation summary, the ruleset version and the balance summary. See docs/INTERCHANGE.md.

Exit codes: 0 written, 1 refused (check failed, unknown scenario, cannot build), 2 usage or I/O.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="export a VASSAL module or a scenario package",
                       description="Export scenarios as a VASSAL 3.7 module (.vmod) or as a scenario package "
                                   "(.studio.zip), after the validation and test-play check.")
    kinds = p.add_subparsers(dest="export_kind", metavar="KIND", required=True)
    v = kinds.add_parser("vassal", help="VASSAL 3.7 module (.vmod)",
                         description="A .vmod with the assembled map (hex grid numbered like the boards), every "
                                     "counter as a piece (front/back layers), and each scenario's set-up as a board "
                                     "of its own (choose it at New game).")
    v.add_argument("scenarios", metavar="SCENARIO", nargs="+", help="scenario ids or files")
    v.add_argument("-o", "--output", metavar="OUT.vmod", required=True)
    v.add_argument("--dpi", type=float, default=150.0, help="resolution of the map and counter images (default "
                                                           "150; rounded so a hex is a whole number of pixels)")
    v.add_argument("--counter-size", metavar="LEN", help="counter size, e.g. 5/8in (default: the project's)")
    v.add_argument("--name", help="module name (default: the scenario's name)")
    v.add_argument("--module-version", default="1.0", help="module version (default 1.0)")
    v.add_argument("--preview", metavar="OUT.png", help="also write the first scenario's map with every set-up "
                                                        "piece drawn at its SetupStack, read from the module itself")
    check_arguments(v)
    v.set_defaults(func=run_vassal)
    k = kinds.add_parser("package", help="scenario package (.studio.zip)",
                         description="A zip with a manifest (ids, kinds, rule system and version, SHA-256 of every "
                                     "file) and every document the scenario references.")
    k.add_argument("scenario", metavar="SCENARIO", help="scenario id or file")
    k.add_argument("-o", "--output", metavar="OUT.studio.zip", required=True)
    check_arguments(k)
    k.set_defaults(func=run_package)


def check_arguments(p: argparse.ArgumentParser) -> None:
    """The pre-export check's options (also used by ``studio print scenario``)."""
    p.add_argument("--games", type=int, default=20, metavar="N",
                   help="test-play games before exporting (default 20; 0 = validation only)")
    p.add_argument("--seed", type=int, default=1, help="master seed of the test-play (default 1)")
    p.add_argument("--bots", metavar="A,B", help="bot per side (default random for every side)")
    p.add_argument("--force", action="store_true", help="export even when the check finds errors")
    if not any(a.dest == "project" for a in p._actions):
        p.add_argument("--project", metavar="DIR", help="project folder (default: the scenario file's project, "
                                                        "else the sample project)")


def _fail(message: str, code: int, prog: str = "export") -> int:
    print(f"studio {prog}: {message}", file=sys.stderr)
    return code


# ------------------------------------------------------------------ the check

def play_games(scenario_id: str, project: Path, games: int, seed: int, bots: list[str] | None) -> dict:
    """Test-play for :func:`studio.export.preflight.preflight` (seeded; engine problems become errors)."""
    from studio.rules.load import ScenarioRefused, load_game
    from studio.sim.runner import run_games

    try:
        loaded = load_game(scenario_id, project)
    except ScenarioRefused as exc:
        if "has no rules engine" in str(exc):
            return {"statistics": None, "engine_errors": [], "note": str(exc)}
        return {"statistics": None, "engine_errors": [f"cannot build the game: {exc}"]}
    except Exception as exc:  # noqa: BLE001 - an engine that cannot start is a finding
        return {"statistics": None, "engine_errors": [f"cannot build the game: {type(exc).__name__}: {exc}"]}
    from studio.sim.bots import bot_names

    names = bots or ["random"] * len(loaded.game.sides)
    known = bot_names(loaded.game)
    if len(names) != len(loaded.game.sides) or any(n not in known for n in names):
        raise ValueError(f"--bots needs {len(loaded.game.sides)} names (sides {', '.join(loaded.game.sides)}) "
                         f"from: {', '.join(known)}")
    try:
        report = run_games(loaded, games, seed, names)
    except Exception as exc:  # noqa: BLE001
        return {"statistics": None, "engine_errors": [f"{type(exc).__name__}: {exc}"]}
    return {"statistics": report.statistics(), "engine_errors": [r.error for r in report.errors]}


def resolve(args: argparse.Namespace, scenario: str) -> tuple[Path, str]:
    """(project folder, scenario id) of a scenario id or file (ValueError with a message)."""
    from studio.cli.paths import default_project
    from studio.model.project import find_project_root, load_document

    path = Path(scenario)
    if path.suffix.lower() in (".yaml", ".yml") or path.is_file():
        if not path.is_file():
            raise ValueError(f"no such file: {scenario}")
        doc = load_document(path)
        if doc.kind != "scenario" or not doc.id:
            raise ValueError(f"{scenario} is not a scenario document")
        root = Path(args.project) if args.project else find_project_root(path)
        if root is None:
            raise ValueError(f"{scenario} is not inside a project folder (no project.yaml above it)")
        return root, doc.id
    root = Path(args.project) if args.project else default_project()
    if not (root / "project.yaml").is_file():
        raise ValueError(f"{root} is not a project folder (no project.yaml)")
    return root, scenario


def run_check(args: argparse.Namespace, project: Path, scenario_id: str, prog: str = "export"):
    """The pre-export check, its findings printed; returns the Preflight, or None when it stops the command."""
    from studio.export.preflight import preflight

    if args.games < 0:
        raise ValueError("--games must be 0 or more")
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else None
    check = preflight(project, scenario_id, play_games, args.games, args.seed, bots)
    check.forced = bool(args.force) and not check.ok
    for line in check.lines():
        print(f"studio {prog}: {line}", file=sys.stderr)
    if not check.ok and not args.force:
        print(f"studio {prog}: not exported: fix the findings above or use --force", file=sys.stderr)
        return None
    return check


# ------------------------------------------------------------------ commands

def run_vassal(args: argparse.Namespace) -> int:
    from studio.export.vassal import VassalError, build_module, write_module
    from studio.printing.units import LengthError, length_mm

    out = Path(args.output)
    if out.suffix.lower() != ".vmod":
        return _fail(f"{out}: a VASSAL module's name ends in .vmod", 2)
    if not out.parent.is_dir():
        return _fail(f"cannot write {out}: folder {out.parent} does not exist", 2)
    try:
        size = length_mm(args.counter_size) if args.counter_size else None
        targets = [resolve(args, s) for s in args.scenarios]
        if len({root.resolve() for root, _ in targets}) > 1:
            return _fail("all scenarios of one module must come from the same project", 2)
        project = targets[0][0]
        records = []
        for _, sid in targets:
            check = run_check(args, project, sid)
            if check is None:
                return 1
            records.append(check.record())
        index = check.index
        build = build_module(index, [sid for _, sid in targets], dpi=args.dpi, counter_mm=size, name=args.name,
                             version=args.module_version, record={"checks": records})
    except (ValueError, LengthError, VassalError) as exc:
        return _fail(str(exc), 1)
    for w in build.warnings:
        print(f"studio export: warning: {w}", file=sys.stderr)
    try:
        write_module(build, out)
    except OSError as exc:
        return _fail(f"cannot write {out}: {exc}", 2)
    if args.preview:
        from studio.export.vassal import preview_png, read_module
        from studio.model.safeio import write_atomic

        try:
            write_atomic(Path(args.preview), preview_png(read_module(build.zip_bytes())))
        except OSError as exc:
            return _fail(f"cannot write {args.preview}: {exc}", 2)
    pieces = sum(len(b.pieces) for b in build.boards)
    print(f"wrote {out} ({len(build.boards)} scenario board(s), {pieces} counter(s) set up, "
          f"{len(build.files)} file(s))")
    return 0


def run_package(args: argparse.Namespace) -> int:
    from studio.export.package import PackageRefused, build_package, write_package

    out = Path(args.output)
    if not out.name.lower().endswith(".zip"):
        return _fail(f"{out}: a scenario package's name ends in .studio.zip", 2)
    if not out.parent.is_dir():
        return _fail(f"cannot write {out}: folder {out.parent} does not exist", 2)
    try:
        project, sid = resolve(args, args.scenario)
        check = run_check(args, project, sid)
        if check is None:
            return 1
        build = build_package(check.index, sid, check.record())
    except (ValueError, PackageRefused) as exc:
        return _fail(str(exc), 1)
    try:
        write_package(build, out)
    except OSError as exc:
        return _fail(f"cannot write {out}: {exc}", 2)
    print(f"wrote {out} ({len(build.manifest['documents'])} document(s))")
    return 0
