"""``studio print counters|cards|map|scenario SOURCE -o OUT.pdf`` and ``studio print calibration -o OUT.pdf``.

SOURCE (counters, cards): a TO&E id, a scenario id (all its forces), ``unit:ID[*N],ID[*N]`` (explicit cards and
counts), ``nation:NAME`` or ``ruleset:ID`` (every card of a nation / rule system). Map: a map id (one board) or a
scenario id (its assembled boards). Scenario: a scenario id. Defaults come from the project's ``print`` block.
Exit codes: 0 written, 1 the job cannot be built (unknown source, size does not fit ...), 2 usage or I/O.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

SOURCE_HELP = {
    "counters": "TO&E id, scenario id, unit:ID[*N],..., nation:NAME or ruleset:ID",
    "cards": "TO&E id, scenario id, unit:ID[*N],..., nation:NAME or ruleset:ID",
    "map": "map id (one board) or scenario id (its assembled boards)",
    "scenario": "scenario id",
}
DESCRIPTIONS = {
    "counters": "Counter sheets: fronts and (with duplex) mirrored backs, crop marks outside the bleed.",
    "cards": "Data-card sheets, several cards per page, using each rule system's card layout.",
    "map": "The map at true scale (the board's hex_mm), tiled over pages with overlap marks, plus an overview.",
    "scenario": "The scenario sheet: map diagram, forces, setup and entry, victory, special rules, balance. "
                "A file <scenario stem>.balance.json beside the scenario adds the latest balance estimate.",
    "calibration": "Duplex calibration page: print double-sided, read the back offset against the light.",
}


def _common(p: argparse.ArgumentParser, kind: str) -> None:
    p.add_argument("-o", "--output", metavar="OUT.pdf", required=True, help="PDF file to write")
    p.add_argument("--paper", choices=("letter", "a4"), type=str.lower, help="paper size (default: project)")
    p.add_argument("--duplex", choices=("long", "short", "none"),
                   help="back pages mirrored for long- or short-edge duplex; none = fronts only (default: project)")
    p.add_argument("--back-offset", metavar="X,Y",
                   help="back-page correction in mm as seen from the front (X right, Y down), e.g. 1.5,-0.5; "
                        "write --back-offset=-1,0 when X is negative (default: project)")
    p.add_argument("--png", metavar="DIR", help="also write a PNG preview of every page into DIR")
    p.add_argument("--dpi", type=float, default=150.0, help="PNG resolution (default 150; 300 for VASSAL art)")
    p.add_argument("--project", metavar="DIR", help="project folder (default: the sample project)")
    if kind in ("counters", "cards"):
        p.add_argument("--size", metavar="LEN", help="counter size: 1/2in, 9/16in, 5/8in, 3/4in, 1in or any "
                                                     "length (default: project)")
        p.add_argument("--bleed", metavar="LEN", help="bleed around each counter, e.g. 0.125in or 3mm "
                                                      "(default: project; cards: 0)")
        p.add_argument("--gutter", metavar="LEN", help="space between counters (default: 2 x bleed; 0 = butted; "
                                                       "cards: 0)")
        p.add_argument("--marks", choices=("crop", "registration", "both", "none"), default="crop",
                       help="cut marks outside the bleed (default crop)")
        p.add_argument("--margin", metavar="LEN", default="6mm", help="printer's unprintable margin (default 6mm)")
        p.add_argument("--layout", metavar="ID", help="layout id from data/layouts (default: per rule system)")
    if kind == "counters":
        p.add_argument("--counter-png", metavar="DIR", help="also write every counter side as its own PNG "
                                                            "(<unit>-front.png, <unit>-back.png) at --dpi, e.g. "
                                                            "for a VASSAL module")
    if kind == "map":
        p.add_argument("--overlap", metavar="LEN", default="10mm", help="map shared by neighbouring pages")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("print", help="print counters, cards, maps and scenario sheets to PDF",
                       description="Print-ready PDFs (and PNG previews) of counter sheets, data cards, true-scale "
                                   "maps, scenario sheets and the duplex calibration page.")
    kinds = p.add_subparsers(dest="print_kind", metavar="KIND", required=True)
    for kind in ("counters", "cards", "map", "scenario", "calibration"):
        k = kinds.add_parser(kind, help=DESCRIPTIONS[kind].split(":")[0].split(",")[0], description=DESCRIPTIONS[kind])
        if kind != "calibration":
            k.add_argument("source", metavar="SOURCE", help=SOURCE_HELP[kind])
        _common(k, kind)
        k.set_defaults(func=run)


def _fail(message: str, code: int) -> int:
    print(f"studio print: {message}", file=sys.stderr)
    return code


def _counter_images(index, opts, args, root: Path) -> list[Path]:
    from studio.printing.counter_images import write_counter_images
    from studio.printing.faces import choose_layout
    from studio.printing.sheets import expand_counts
    from studio.printing.sources import units_for
    from studio.printing.units import length_mm

    units = expand_counts(units_for(index, opts.source))
    return write_counter_images(units, lambda u: choose_layout(index, u, "counter", opts.layout),
                                length_mm(opts.size), Path(args.counter_png), args.dpi, root)


def run(args: argparse.Namespace) -> int:
    from studio.cli.paths import default_project
    from studio.model.project import load_project
    from studio.printing.jobs import PrintError, build_pages, project_defaults
    from studio.printing.units import LengthError, offset_mm

    root = Path(args.project) if args.project else default_project()
    if not (root / "project.yaml").is_file():
        return _fail(f"{root} is not a project folder (no project.yaml)", 2)
    out = Path(args.output)
    if not out.parent.is_dir():
        return _fail(f"cannot write {out}: folder {out.parent} does not exist", 2)
    index = load_project(root)
    opts = replace(project_defaults(index, args.print_kind), source=getattr(args, "source", ""))
    try:
        for name in ("paper", "size", "bleed", "gutter", "duplex", "marks", "margin", "layout", "overlap"):
            value = getattr(args, name, None)
            if value is not None:
                opts = replace(opts, **{name: value})
        if args.back_offset is not None:
            opts = replace(opts, back_offset=offset_mm(args.back_offset))
        opts = opts.validated()
    except (LengthError, PrintError) as exc:
        return _fail(str(exc), 2)
    try:
        from studio.printing.output import write_pdf, write_pngs
        from studio.printing.render import ensure_app, text_height_mm

        ensure_app()
        pages = build_pages(index, opts, text_height_mm)
    except PrintError as exc:
        return _fail(str(exc), 1)
    try:
        write_pdf(pages, out, f"{args.print_kind} {opts.source}".strip())
        pngs = write_pngs(pages, Path(args.png), out.stem, args.dpi) if args.png else []
        sides = _counter_images(index, opts, args, root) if getattr(args, "counter_png", None) else []
    except OSError as exc:
        return _fail(f"cannot write output: {exc}", 2)
    extra = f" and {len(pngs)} PNG(s) in {args.png}" if pngs else ""
    extra += f", {len(sides)} counter image(s) in {args.counter_png}" if sides else ""
    print(f"wrote {out} ({len(pages)} page(s)){extra}")
    return 0
