"""``studio map info|los|export|import``: look at hex maps, trace line of sight, move maps to and from Tiled.

MAP is a map id or file, or a scenario id or file (its boards assembled into one map). Ids are looked up in the
project ('--project DIR', default: the sample project); a file is read with the project it sits in.
Exit codes: 0 done, 1 the documents cannot be used (invalid map, boards that do not assemble, unreadable Tiled
file), 2 usage errors (unknown id, bad hex label, missing file, refusing to overwrite).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any


class CommandError(Exception):
    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("map", help="inspect maps, line of sight, Tiled import/export",
                       description=__doc__.split("\n\n", 1)[1].strip(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = p.add_subparsers(dest="map_action", metavar="ACTION", required=True)

    def common(q: argparse.ArgumentParser, ruleset_help: str) -> None:
        q.add_argument("--project", dest="map_project", metavar="DIR",
                       help="project folder for ids (default: the sample project)")
        q.add_argument("--ruleset", metavar="ID", help=ruleset_help)

    i = actions.add_parser("info", help="size, terrain histogram, elevation range",
                           description="Show a map's (or a scenario's assembled map's) size, hex labels, terrain "
                                       "histogram, elevation range, hexsides and roads.")
    i.add_argument("map", metavar="MAP", help="map or scenario: id or file")
    common(i, "terrain catalogue to name the codes (default: the map's ruleset)")
    i.add_argument("--format", choices=["text", "json"], default="text")
    i.set_defaults(func=run_info)

    los = actions.add_parser("los", help="line of sight between two hexes",
                             description="Trace line of sight from hex FROM to hex TO (printed labels, e.g. 2E9 or "
                                         "0405) and print clear or blocked, the blocking hex or hexside and the "
                                         "rule. Heights, obstacles and line rules come from the ruleset's terrain "
                                         "catalogue and its 'los' block. Exit 0 whether clear or blocked.")
    los.add_argument("map", metavar="MAP", help="map or scenario: id or file")
    los.add_argument("source", metavar="FROM", help="observer hex label")
    los.add_argument("target", metavar="TO", help="target hex label")
    common(los, "ruleset whose LOS rules apply (default: the map's or scenario's ruleset)")
    los.add_argument("--observer-height", type=float, metavar="H", help="observer eye height in levels "
                                                                         "(default: the ruleset's)")
    los.add_argument("--target-height", type=float, metavar="H", help="target height in levels")
    los.add_argument("--format", choices=["text", "json"], default="text")
    los.set_defaults(func=run_los)

    e = actions.add_parser("export", help="write a map as a Tiled JSON map",
                           description="Export a hex-board map to Tiled JSON (.tmj): terrain and elevation tile "
                                       "layers with generated tilesets (PNG files beside OUT), hexsides, roads and "
                                       "labels as object layers.")
    e.add_argument("map", metavar="MAP", help="map id or file")
    e.add_argument("--to", choices=["tiled"], required=True, help="output format")
    e.add_argument("out", metavar="OUT", help="output file, e.g. board.tmj")
    common(e, "terrain catalogue for tile colours (default: the map's ruleset)")
    e.add_argument("--force", action="store_true", help="overwrite existing files")
    e.set_defaults(func=run_export)

    m = actions.add_parser("import", help="read a Tiled JSON map into a map document",
                           description="Import a Tiled JSON map (.tmj) written by 'studio map export' (or painted "
                                       "with its tilesets) into a map document, saved canonically.")
    m.add_argument("source", metavar="IN.tmj", help="Tiled JSON map")
    m.add_argument("--ruleset", required=True, metavar="ID", help="ruleset whose terrain codes the map uses")
    m.add_argument("out", metavar="OUT.yaml", help="map document to write")
    m.add_argument("--id", dest="map_id", metavar="ID", help="map id (default: the one stored in the file)")
    m.add_argument("--project", dest="map_project", metavar="DIR", help="project folder to check the ruleset in")
    m.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    m.set_defaults(func=run_import)


# ------------------------------------------------------------------ shared

def _fail(name: str, exc: CommandError) -> int:
    print(f"studio map {name}: {exc}", file=sys.stderr)
    return exc.code


def _project_dir(args: argparse.Namespace) -> Path:
    from studio.cli.paths import default_project

    chosen = getattr(args, "map_project", None) or getattr(args, "project", None)
    return Path(chosen) if chosen else default_project()


def _load_index(root: Path):
    from studio.model.project import load_project

    if not root.is_dir():
        raise CommandError(f"no such project folder: {root}")
    return load_project(root)


def _invalid(doc) -> CommandError:
    lines = [d.format_text() for d in doc.diagnostics if d.severity.value == "error"]
    return CommandError(f"{doc.display} is not a valid document:\n  " + "\n  ".join(lines[:10]), 1)


def _resolve(ref: str, args: argparse.Namespace, kinds=("map", "scenario")):
    """(kind, model, index) for a map/scenario id or file."""
    from studio.model.project import find_project_root, load_document
    from studio.model.references import suggest

    path = Path(ref)
    if path.suffix.lower() in (".yaml", ".yml") or path.is_file():
        if not path.is_file():
            raise CommandError(f"no such file: {ref}")
        doc = load_document(path)
        if doc.model is None:
            raise _invalid(doc)
        if doc.kind not in kinds:
            raise CommandError(f"{ref} is a {doc.kind}, not a {' or '.join(kinds)}")
        root = find_project_root(path)
        index = _load_index(root if root else _project_dir(args))
        return doc.kind, doc.model, index
    index = _load_index(_project_dir(args))
    for kind in kinds:
        doc = index.get(kind, ref)
        if doc is not None:
            if doc.model is None:
                raise _invalid(doc)
            return kind, doc.model, index
    for kind in ("map", "scenario"):
        if kind not in kinds and index.get(kind, ref) is not None:
            raise CommandError(f"'{ref}' is a {kind}; this command takes a {' or '.join(kinds)}")
    known = sorted(i for kind in kinds for i in index.ids(kind))
    raise CommandError(f"no {' or '.join(kinds)} '{ref}' in project {index.root}{suggest(ref, known)}")


def _ruleset(index, ruleset_id: str):
    from studio.model.project import load_document
    from studio.model.references import suggest

    path = Path(ruleset_id)
    if path.suffix.lower() in (".yaml", ".yml") and path.is_file():
        doc = load_document(path)
        if doc.model is None or doc.kind != "ruleset":
            raise CommandError(f"{ruleset_id} is not a valid ruleset document", 1)
        return doc.model
    doc = index.get("ruleset", ruleset_id)
    if doc is None:
        raise CommandError(f"no ruleset '{ruleset_id}' in project {index.root}"
                           f"{suggest(ruleset_id, sorted(index.ids('ruleset')))}")
    if doc.model is None:
        raise _invalid(doc)
    return doc.model


def _assembled(kind: str, model, index):
    from studio.model.maps import AssemblyError, assemble_scenario, assemble_single

    try:
        if kind == "scenario":
            return assemble_scenario(model, index)
        if model.hex is None:
            raise CommandError(f"map '{model.id}' is a measured table, not a hex board", 1)
        return assemble_single(model)
    except AssemblyError as exc:
        raise CommandError(f"the boards of '{model.id}' do not assemble: {exc} [{exc.code}]", 1) from None


def _check_out(path: Path, force: bool) -> None:
    """Refuse an output path that exists (unless ``force``), is a symbolic link (even a dangling one: writing
    would follow it) or is not a plain file, or whose folder is missing."""
    if path.is_symlink():
        raise CommandError(f"{path} is a symbolic link; refusing to write through it (give a plain file path)")
    if path.exists() and not force:
        raise CommandError(f"{path} exists; use --force to overwrite it")
    if path.exists() and not path.is_file():
        raise CommandError(f"{path} is not a regular file; refusing to replace it")
    if not path.parent.is_dir():
        raise CommandError(f"no such folder: {path.parent}")


def _write_error(path: Path, exc: OSError) -> CommandError:
    return CommandError(f"cannot write {path}: {exc.strerror or exc}")


# ------------------------------------------------------------------ info

def info_data(kind: str, model, amap, ruleset) -> dict[str, Any]:
    names = {t.code: t.name for t in (ruleset.terrain if ruleset else [])}
    codes = Counter(amap.terrain.values())
    levels = Counter(amap.elevation.values())
    total = len(amap.label_of)
    corner = [amap.label_of[h] for h in sorted(amap.label_of, key=lambda h: amap.offset(h)[::-1])]
    data = {
        "id": model.id, "kind": kind, "name": model.name, "ruleset": model.ruleset,
        "orientation": amap.orientation, "columns": amap.columns, "rows": amap.rows, "hexes": total,
        "first_hex": corner[0] if corner else None, "last_hex": corner[-1] if corner else None,
        "hex_m": amap.hex_m, "hex_mm": amap.hex_mm,
        "terrain": [{"code": c, "name": names.get(c, "(not in the ruleset)" if ruleset else ""), "hexes": n,
                     "percent": round(100 * n / total, 1)} for c, n in codes.most_common()],
        "elevation": {"min": min(levels) if levels else 0, "max": max(levels) if levels else 0,
                      "hexes": {str(k): levels[k] for k in sorted(levels)}},
        "hexsides": dict(Counter(amap.hexsides.values()).most_common()),
        "roads": dict(Counter(amap.roads.values()).most_common()),
        "labels": len(amap.texts),
    }
    if kind == "scenario":
        data["boards"] = [{"map": b.map, "at": list(b.at), "rotate": b.rotate} for b in model.boards]
    else:
        data["offset"] = model.hex.offset
        data["label_convention"] = model.hex.labels
    return data


def run_info(args: argparse.Namespace) -> int:
    try:
        kind, model, index = _resolve(args.map, args)
        ruleset = _ruleset(index, args.ruleset or model.ruleset) if (args.ruleset or
                                                                     index.get("ruleset", model.ruleset)) else None
        amap = _assembled(kind, model, index)
    except CommandError as exc:
        return _fail("info", exc)
    data = info_data(kind, model, amap, ruleset)
    if args.format == "json":
        print(json.dumps(data, indent=2))
        return 0
    print(f"{data['id']}: {data['name']} ({kind}, ruleset {data['ruleset']})")
    if kind == "scenario":
        boards = ", ".join(f"{b['map']} at {b['at']}{' turned 180' if b['rotate'] else ''}" for b in data["boards"])
        print(f"  boards:    {boards}")
    conv = f", offset {data['offset']}, {data['label_convention']} labels" if kind == "map" else ""
    print(f"  grid:      {data['columns']} x {data['rows']} {data['orientation']}-top, {data['hexes']} hexes{conv}, "
          f"{data['first_hex']} .. {data['last_hex']}")
    print(f"  hex size:  {data['hex_m']:g} m on the ground, {data['hex_mm']:g} mm printed")
    ev = data["elevation"]
    print(f"  elevation: {ev['min']} .. {ev['max']}   ("
          + ", ".join(f"level {k}: {n}" for k, n in ev["hexes"].items()) + ")")
    print("  terrain:")
    width = max((len(t["name"]) for t in data["terrain"]), default=0)
    for t in data["terrain"]:
        bar = "#" * max(1, round(t["percent"] / 2.5))
        print(f"    {t['code']:<3} {t['name']:<{width}} {t['hexes']:>5} {t['percent']:>5.1f}%  {bar}")
    sides = ", ".join(f"{k} {n}" for k, n in data["hexsides"].items()) or "none"
    roads = ", ".join(f"{k} {n}" for k, n in data["roads"].items()) or "none"
    print(f"  hexsides:  {sides}")
    print(f"  roads:     {roads} (hexside crossings)")
    print(f"  labels:    {data['labels']}")
    return 0


# ------------------------------------------------------------------ los

def run_los(args: argparse.Namespace) -> int:
    from studio.hexgrid.lines import line_steps
    from studio.model.los import LabelError, LosService

    try:
        kind, model, index = _resolve(args.map, args)
        ruleset = _ruleset(index, args.ruleset or model.ruleset)
        amap = _assembled(kind, model, index)
        options = dict(model.options) if kind == "scenario" else {}
        service = LosService(amap, ruleset, options)
        try:
            a, b = service.hex(args.source), service.hex(args.target)
        except LabelError as exc:
            raise CommandError(f"{exc} (map '{model.id}', labels {_label_span(amap)})") from None
    except CommandError as exc:
        return _fail("los", exc)
    sight = service.check(a, b, args.observer_height, args.target_height)
    # split steps (the line runs along or exactly across a hexside) show both hexes: 2E3|2E4
    line = ["|".join(service.label(h) for h in step) for step in line_steps(a, b)]
    if args.format == "json":
        payload = {**sight.to_json(), "map": model.id, "ruleset": ruleset.id, "line": line,
                   "observer_level": amap.elevation.get(a, 0), "target_level": amap.elevation.get(b, 0),
                   "notes": service.notes}
        print(json.dumps(payload, indent=2))
        return 0
    print(sight.text())
    print(f"  line: {' '.join(line)}")
    print(f"  levels: observer {amap.elevation.get(a, 0)}, target {amap.elevation.get(b, 0)}"
          + (f"; hindrance {sight.hindrance}" if sight.hindrance else ""))
    for note in service.notes:
        print(f"  note: {note}")
    return 0


def _label_span(amap) -> str:
    ordered = sorted(amap.label_of, key=lambda h: amap.offset(h)[::-1])
    return f"{amap.label_of[ordered[0]]} .. {amap.label_of[ordered[-1]]}" if ordered else "none"


# ------------------------------------------------------------------ export / import

def run_export(args: argparse.Namespace) -> int:
    from studio.export.tiled import TiledError, export_tiled

    out = Path(args.out)
    try:
        kind, model, index = _resolve(args.map, args, kinds=("map",))
        rs_id = args.ruleset or model.ruleset
        ruleset = _ruleset(index, rs_id) if (args.ruleset or index.get("ruleset", rs_id)) else None
        _check_out(out, args.force)
        for name in (f"{out.stem}.terrain.png", f"{out.stem}.elevation.png"):
            _check_out(out.with_name(name), args.force)
        files = export_tiled(model, ruleset, out)
    except CommandError as exc:
        return _fail("export", exc)
    except TiledError as exc:
        return _fail("export", CommandError(str(exc), 1))
    except OSError as exc:
        return _fail("export", _write_error(out, exc))
    print(f"wrote {', '.join(str(f) for f in files)}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Exit 2: missing input, unknown ruleset, output refused; 1: the input is not a usable Tiled hex map."""
    from studio.export.tiled import TiledError, import_tiled
    from studio.model.safeio import write_atomic
    from studio.model.save import document_text

    source, out = Path(args.source), Path(args.out)
    try:
        if not source.exists():
            raise CommandError(f"no such file: {source}")
        _check_out(out, args.force)
        index = _load_index(_project_dir(args))
        ruleset = _ruleset(index, args.ruleset)
        try:
            model = import_tiled(source, ruleset.id, args.map_id)
        except TiledError as exc:
            raise CommandError(str(exc), 1) from None
        try:
            write_atomic(out, document_text(model, out))
        except OSError as exc:
            raise _write_error(out, exc) from None
    except CommandError as exc:
        return _fail("import", exc)
    codes = {t.code for t in ruleset.terrain}
    unknown = sorted({c for row in model.terrain for c in row.split()} - codes)
    print(f"wrote {out}: map '{model.id}', {model.hex.columns} x {model.hex.rows} hexes, "
          f"{len(model.hexsides)} hexsides, {len(model.roads)} roads, {len(model.labels)} labels")
    if unknown:
        print(f"warning: terrain codes {unknown} are not in ruleset '{ruleset.id}'; 'studio validate' will report "
              "them", file=sys.stderr)
    return 0
