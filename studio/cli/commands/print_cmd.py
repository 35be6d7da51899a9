"""``studio print counters|cards|map|scenario SOURCE -o OUT`` and ``studio print calibration -o OUT``.

SOURCE (counters, cards): a TO&E, a scenario (all its forces) or a unit card, each as an id or a file path,
``unit:ID[*N],ID[*N]`` (explicit cards and counts), ``nation:NAME`` or ``ruleset:ID`` (every card of a nation /
rule system). Map: a map or a scenario (its assembled boards). Scenario: a scenario. A file source's project is
the folder above it holding ``project.yaml`` (``--project`` overrides). Defaults come from the project's
``print`` block. The suffix of ``-o`` picks the format: ``.pdf``, ``.svg`` or ``.png`` (one file per page for
SVG and PNG: ``OUT-01.svg`` ... when there are several). Options a sheet kind does not use are refused.
``print scenario`` first runs the pre-export check (validation and ``--games`` seeded bot games, default 20;
``--force`` prints despite findings; see ``studio export``).
Exit codes: 0 written, 1 the job cannot be built (unknown source, size does not fit, backs off the page ...),
2 usage or I/O.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

SOURCE_HELP = {
    "counters": "TO&E, scenario or unit (id or file), unit:ID[*N],..., nation:NAME or ruleset:ID",
    "cards": "TO&E, scenario or unit (id or file), unit:ID[*N],..., nation:NAME or ruleset:ID",
    "map": "map (one board) or scenario (its assembled boards), id or file",
    "scenario": "scenario id or file",
}
DESCRIPTIONS = {
    "counters": "Counter sheets: fronts and (with duplex) mirrored backs, butted by default, bleed on every open "
                "edge, crop marks outside the bleed, each counter's TO&E designation.",
    "cards": "Data-card sheets, one card per unit type (with the count), using each rule system's card layout.",
    "map": "The map at true scale (the board's hex_mm), tiled over pages with overlap marks, plus an overview "
           "with a terrain key.",
    "scenario": "The scenario sheet: map diagram, forces, setup and entry, victory, special rules, balance. "
                "A file <scenario stem>.balance.json beside the scenario (studio play --write-balance) adds the "
                "latest balance estimate.",
    "calibration": "Duplex calibration page: print double-sided, read the back offset against the light.",
}

#: which options each sheet kind uses; any other given option is refused
USES = {
    "counters": {"duplex", "back_offset", "size", "bleed", "gutter", "marks", "margin", "layout", "counter_png",
                 "mark_length", "mark_distance", "back_marks", "counter_bleed"},
    "cards": {"bleed", "gutter", "marks", "margin", "layout", "mark_length", "mark_distance"},
    "map": {"overlap", "margin"},
    "scenario": set(),
    "calibration": {"duplex", "back_offset"},
}
FLAGS = {"duplex": "--duplex", "back_offset": "--back-offset", "size": "--size", "bleed": "--bleed",
         "gutter": "--gutter", "marks": "--marks", "margin": "--margin", "layout": "--layout",
         "counter_png": "--counter-png", "overlap": "--overlap", "mark_length": "--mark-length",
         "mark_distance": "--mark-distance", "back_marks": "--back-marks", "counter_bleed": "--counter-bleed"}
WHY = {"cards": "cards print one side at their layout's size", "map": "maps print one side, tiled at true scale",
       "scenario": "the scenario sheet is a flowed document", "calibration": "the calibration page has no counters"}


def _options(p: argparse.ArgumentParser) -> None:
    """Every option of every kind (default None = not given); :func:`_refuse_unused` checks them per kind."""
    p.add_argument("-o", "--output", metavar="OUT.pdf", required=True,
                   help="file to write: .pdf, .svg or .png (one file per page for SVG and PNG)")
    p.add_argument("--paper", choices=("letter", "a4"), type=str.lower, help="paper size (default: project)")
    p.add_argument("--png", metavar="DIR", help="also write a PNG preview of every page into DIR")
    p.add_argument("--dpi", type=float, default=150.0, help="PNG resolution (default 150)")
    p.add_argument("--project", metavar="DIR", help="project folder (default: the source file's project, else "
                                                    "the sample project)")
    p.add_argument("--duplex", choices=("long", "short", "none"),
                   help="counters, calibration: back pages mirrored for long- or short-edge duplex; none = fronts "
                        "only (default: project)")
    p.add_argument("--back-offset", metavar="X,Y",
                   help="counters, calibration: back-page correction in mm as seen from the front (X right, Y "
                        "down), e.g. 1.5,-0.5; write --back-offset=-1,0 when X is negative (default: project)")
    p.add_argument("--size", metavar="LEN", help="counters: counter size: 1/2in, 9/16in, 5/8in, 3/4in, 1in or "
                                                 "any length (default: project)")
    p.add_argument("--bleed", metavar="LEN", help="bleed around each counter, e.g. 0.125in or 3mm "
                                                  "(default: project; cards: 0)")
    p.add_argument("--gutter", metavar="LEN", help="space between counters (default 0 = butted, bleed on the "
                                                   "sheet's open edges; a gutter >= 2 x bleed bleeds every edge)")
    p.add_argument("--marks", choices=("crop", "registration", "both", "none"),
                   help="cut marks outside the bleed (default crop)")
    p.add_argument("--mark-length", metavar="LEN", help="length of the crop marks (default 4mm)")
    p.add_argument("--mark-distance", metavar="LEN", help="gap between the bleed and the marks (default 1mm)")
    p.add_argument("--back-marks", action="store_true", default=None,
                   help="counters: crop marks on the back pages too")
    p.add_argument("--margin", metavar="LEN", help="printer's unprintable margin (default 6mm)")
    p.add_argument("--layout", metavar="ID", help="layout id from data/layouts (default: per rule system)")
    p.add_argument("--counter-png", metavar="DIR", help="counters: also write every counter side as its own PNG "
                                                        "(<unit>-front.png, <unit>-back.png), e.g. for VASSAL")
    p.add_argument("--counter-dpi", type=float, default=300.0,
                   help="resolution of --counter-png images (default 300; independent of --dpi)")
    p.add_argument("--counter-bleed", metavar="LEN", help="counters: bleed around each --counter-png image "
                                                          "(default 0: exactly the trim)")
    p.add_argument("--overlap", metavar="LEN", help="map: map shared by neighbouring pages (default 10mm)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("print", help="print counters, cards, maps and scenario sheets to PDF, SVG or PNG",
                       description="Print-ready PDFs (or SVG/PNG) of counter sheets, data cards, true-scale "
                                   "maps, scenario sheets and the duplex calibration page.")
    kinds = p.add_subparsers(dest="print_kind", metavar="KIND", required=True)
    for kind in ("counters", "cards", "map", "scenario", "calibration"):
        k = kinds.add_parser(kind, help=DESCRIPTIONS[kind].split(":")[0].split(",")[0], description=DESCRIPTIONS[kind])
        if kind != "calibration":
            k.add_argument("source", metavar="SOURCE", help=SOURCE_HELP[kind])
        _options(k)
        if kind == "scenario":  # a scenario sheet is printed after the pre-export check (docs/INTERCHANGE.md)
            from .export import check_arguments

            check_arguments(k)
        k.set_defaults(func=run)


def _fail(message: str, code: int) -> int:
    print(f"studio print: {message}", file=sys.stderr)
    return code


def _refuse_unused(args: argparse.Namespace) -> str | None:
    """A message naming the first given option the sheet kind does not use, or None."""
    kind = args.print_kind
    for name, flag in FLAGS.items():
        if getattr(args, name, None) is not None and name not in USES[kind]:
            users = [k for k, used in USES.items() if name in used]
            why = f" ({WHY[kind]})" if kind in WHY else ""
            return f"{flag} is not used by '{kind}' sheets{why}; it applies to {', '.join(users)}"
    return None


def _root(args: argparse.Namespace) -> Path:
    from studio.cli.paths import default_project
    from studio.model.project import find_project_root
    from studio.printing.sources import is_file_source

    if args.project:
        return Path(args.project)
    source = getattr(args, "source", "")
    if source and is_file_source(source):
        found = find_project_root(Path(source))
        if found is not None:
            return found
    return default_project()


def _counter_images(index, opts, args, root: Path) -> list[Path]:
    from studio.printing.counter_images import write_counter_images
    from studio.printing.faces import choose_layout
    from studio.printing.sources import counters_for
    from studio.printing.units import length_mm

    bleed = length_mm(args.counter_bleed) if args.counter_bleed else 0.0
    return write_counter_images(counters_for(index, opts.source),
                                lambda u: choose_layout(index, u, "counter", opts.layout),
                                length_mm(opts.size), Path(args.counter_png), args.counter_dpi, root, bleed)


def _opts(args: argparse.Namespace, index):
    from studio.printing.jobs import project_defaults
    from studio.printing.units import offset_mm

    opts = replace(project_defaults(index, args.print_kind), source=getattr(args, "source", ""))
    for name in ("paper", "size", "bleed", "gutter", "duplex", "marks", "margin", "layout", "overlap",
                 "mark_length", "mark_distance", "back_marks"):
        value = getattr(args, name, None)
        if value is not None:
            opts = replace(opts, **{name: value})
    if args.back_offset is not None:
        opts = replace(opts, back_offset=offset_mm(args.back_offset))
    return opts.validated()


def run(args: argparse.Namespace) -> int:
    from studio.model.project import load_project
    from studio.printing.jobs import PrintError
    from studio.printing.units import LengthError, length_mm

    refused = _refuse_unused(args)
    if refused:
        return _fail(refused, 2)
    out = Path(args.output)
    if out.suffix.lower() not in (".pdf", ".svg", ".png"):
        return _fail(f"cannot tell the format of {out} from its suffix: use .pdf, .svg or .png", 2)
    if not out.parent.is_dir():
        return _fail(f"cannot write {out}: folder {out.parent} does not exist", 2)
    root = _root(args)
    if not (root / "project.yaml").is_file():
        return _fail(f"{root} is not a project folder (no project.yaml)", 2)
    if args.print_kind == "scenario" and not _checked(args, root):
        return 1
    index = load_project(root)
    try:
        opts = _opts(args, index)
        if args.counter_bleed:
            length_mm(args.counter_bleed)
    except (LengthError, PrintError) as exc:
        return _fail(str(exc), 2)
    return _build_and_write(index, opts, args, out, root)


def _checked(args: argparse.Namespace, root: Path) -> bool:
    """Run the pre-export check on the scenario to print; False when it stops the print (findings printed)."""
    from studio.model.project import load_document
    from studio.printing.sources import is_file_source

    from .export import run_check

    scenario = args.source
    if is_file_source(scenario):
        doc = load_document(Path(scenario)) if Path(scenario).is_file() else None
        if doc is None or doc.kind != "scenario" or not doc.id:
            return True  # not a scenario file: the print job reports it
        scenario = doc.id
    try:
        return run_check(args, root, scenario, prog="print") is not None
    except ValueError as exc:
        print(f"studio print: {exc}", file=sys.stderr)
        return False


def _build_and_write(index, opts, args: argparse.Namespace, out: Path, root: Path) -> int:
    from studio.printing.jobs import PrintError, build_pages

    try:
        from studio.printing.output import write_output, write_pngs
        from studio.printing.render import ensure_app, small_text_warnings, text_height_mm

        ensure_app()
        pages = build_pages(index, opts, text_height_mm)
    except PrintError as exc:
        return _fail(str(exc), 1)
    for warning in small_text_warnings(pages):
        print(f"studio print: warning: {warning}", file=sys.stderr)
    try:
        duplex = opts.duplex if opts.kind in ("counters", "calibration") else "none"
        written = write_output(pages, out, f"{args.print_kind} {opts.source}".strip(), duplex, args.dpi)
        pngs = write_pngs(pages, Path(args.png), out.stem, args.dpi) if args.png else []
        sides = _counter_images(index, opts, args, root) if args.counter_png else []
    except OSError as exc:
        return _fail(f"cannot write output: {exc}", 2)
    extra = f" and {len(pngs)} PNG(s) in {args.png}" if pngs else ""
    extra += f", {len(sides)} counter image(s) in {args.counter_png}" if sides else ""
    files = str(written[0]) if len(written) == 1 else f"{written[0]} ... {written[-1].name}"
    print(f"wrote {files} ({len(pages)} page(s)){extra}")
    return 0
