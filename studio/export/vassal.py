"""VASSAL 3.7 module (``.vmod``) export of one or more hex-board scenarios.

The module (a zip; entries written in a fixed order with a fixed timestamp, so the same input gives the same
bytes) holds:

* ``buildFile.xml`` (root ``VASSAL.build.GameModule``) and ``moduledata`` (module name, version, VASSAL version);
* one ``Map`` whose ``BoardPicker`` offers one ``Board`` per scenario: the scenario's assembled map drawn by the
  print renderer (:func:`studio.printing.mapsheet.draw_map`) as ``images/<scenario>-map.png`` at the chosen dpi;
* on each board a ``ZonedGrid`` with one ``Zone`` per studio board (its stepped outline around the board's hex
  columns), each with a ``HexGrid`` (``dy`` = the hex's flat-to-flat height in pixels, ``dx`` = dy * sqrt(3)/2,
  ``sideways`` for pointy-top boards, origin at a hex centre) and a ``HexGridNumbering`` whose parameters are
  searched (:mod:`studio.export.vassal_grid`) so VASSAL names every hex with the board's own label; the zone's
  ``locationFormat`` adds the board prefix (``2$gridLocation$`` names ``2Q9``);
* the scenario's set-up as ``SetupStack`` s owned by the scenario's board, one per set-up hex, at the hex centre
  in pixels: a ``setup.hexes`` list gives unit ``i`` hex ``i`` (or spreads the units over the hexes in order),
  a ``setup.zone`` spreads the force's units evenly over the zone's hexes in order (players may rearrange them
  within the zone); forces that enter later are not placed (they are in the palette);
* a ``PieceWindow`` palette: one list per scenario side with a ``PieceSlot`` per counter (designation and card
  name), each piece a ``BasicPiece`` under an ``Embellishment`` (``emb2``) layer trait holding the counter's
  front and back images (``images/<unit>-front.png``, ``-back.png``, drawn by the print renderer at the dpi);
  ``Flip`` (Ctrl+F) turns it over; markers a rule system declares in its plugin ``extras["markers"]``
  (``[{"id", "name"}]``) get a piece each;
* ``studio-export.html`` (a ``HelpFile`` under Help) and ``studio-export.json``: the validation summary, the
  ruleset version and the balance summary the module was exported with (from the pre-export check).

Choosing a board at "New game" is how a player picks the scenario: VASSAL shows the set-up stacks of the
chosen board only. VASSAL itself cannot run here; the tests check the structure and the grid arithmetic (a port
of VASSAL's own, :mod:`studio.export.vassal_grid`).
"""
from __future__ import annotations

import html
import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from studio.model.documents import Scenario
from studio.model.forces import expand_force
from studio.model.maps import AssembledMap, AssemblyError, assemble_scenario, board_labeler
from studio.model.project import ProjectIndex
from studio.model.registry import plugin as get_plugin
from studio.printing.primitives import Group

from .vassal_grid import (BoardHex, LabelStyle, VassalGrid, polygon_size, solve_board_grid, zone_polygon)

VASSAL_VERSION = "3.7.0"
ZIP_TIME = (2020, 1, 1, 0, 0, 0)
MM_PER_INCH = 25.4
FLIP_KEY = "70,130"            # Ctrl+F as VASSAL's NamedHotKeyConfigurer encodes it (key code, modifiers)


class VassalError(ValueError):
    """The scenario cannot be exported as a VASSAL module (the message says why)."""


# ------------------------------------------------------------------ VASSAL's SequenceEncoder

def seq(values: list[Any], delim: str) -> str:
    """``VASSAL.tools.SequenceEncoder``: values joined by ``delim``, a delimiter inside a value escaped with a
    backslash, a value starting with a backslash (or quoted) wrapped in quotes."""
    out = []
    for v in values:
        s = ("true" if v else "false") if isinstance(v, bool) else str(v)
        if s and (s[0] == "\\" or (s[0] == "'" and s[-1] == "'")):
            s = "'" + s.replace(delim, "\\" + delim) + "'"
        else:
            s = s.replace(delim, "\\" + delim)
        out.append(s)
    return delim.join(out)


def emb2_type(front: str, back: str) -> str:
    """An ``Embellishment`` (layer) trait type: two always-active levels, Flip = Ctrl+F, loops."""
    fields = ["", 130, "", "Flip", 130, "F", "", 130, "", "", "", "1", False, 0, 0,
              seq([front, back], ","), seq(["", ""], ","), True, "Side", "", "", False, "", 1, 1, True, "",
              FLIP_KEY, "", "Counter front and back", 1.0, "", "true"]
    return "emb2;" + seq(fields, ";")


def piece_definition(name: str, front: str, back: str | None, gpid: int) -> str:
    """The ``AddPiece`` command text of a PieceSlot: ``+/null/<type>/<state>`` (BasicCommandEncoder)."""
    basic = "piece;" + seq(["", "", "" if back else front, name], ";")
    basic_state = seq(["null", 0, 0, gpid, 0], ";")
    if back is None:
        return "+/" + seq(["null", basic, basic_state], "/")
    kind = seq([emb2_type(front, back), basic], "\t")
    state = seq(["1", basic_state], "\t")
    return "+/" + seq(["null", kind, state], "/")


# ------------------------------------------------------------------ module model

@dataclass
class Piece:
    """One counter: display name, card id, image entries, and where it starts (hex label or None)."""

    name: str
    unit: str
    side: str
    front: str
    back: str | None
    hex: str | None = None
    gpid: int = 0


@dataclass
class ZoneSpec:
    name: str
    prefix: str
    polygon: list[tuple[int, int]]
    grid: VassalGrid
    mismatched: list[str]


@dataclass
class BoardSpec:
    """One VASSAL board = one scenario: image, pixel scale, zones, hex centres and pieces."""

    name: str
    scenario: str
    image: str
    width: int
    height: int
    px_per_mm: float
    zones: list[ZoneSpec]
    centres: dict[str, tuple[float, float]]     # label -> pixel centre where the studio draws it
    pieces: list[Piece]
    sides: list[tuple[str, str]]                # (side id, name)
    notes: list[str] = field(default_factory=list)
    offset_px: tuple[float, float] = (0.0, 0.0)   # shift of the studio's map drawing in the image


@dataclass
class ModuleBuild:
    """Everything the .vmod holds: ``files`` (entry name -> bytes, in order) and what was built."""

    name: str
    boards: list[BoardSpec]
    files: dict[str, bytes]
    warnings: list[str]

    def zip_bytes(self) -> bytes:
        return zip_bytes(self.files)


def zip_bytes(files: dict[str, bytes]) -> bytes:
    """A deterministic zip (fixed timestamps and attributes, entries in the given order)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o100000 | 0o644) << 16  # a regular file, rw-r--r--
            z.writestr(info, data)
    return buf.getvalue()


# ------------------------------------------------------------------ geometry of one scenario

def _style(spec) -> LabelStyle:
    if spec.labels == "alphanumeric":
        return LabelStyle(alpha=True)
    return LabelStyle(alpha=False, digits=2 if max(spec.columns, spec.rows) < 100 else 3)


def _zones(index: ProjectIndex, sc: Scenario, amap: AssembledMap, centres: dict[str, tuple[float, float]],
           dy: float) -> list[ZoneSpec]:
    zones = []
    for placement in sc.boards:
        m = index.model("map", placement.map)
        spec = m.hex
        labeler = board_labeler(spec)
        hexes = []
        for h, label in amap.label_of.items():
            if amap.board_of[h] != m.id:
                continue
            _, col, row = labeler.parse(label)
            x, y = centres[label]
            hexes.append(BoardHex(x, y, col, row, label))
        sideways = spec.orientation != "flat"
        poly = zone_polygon(hexes, dy * (0.8660254037844386), dy, sideways)
        size = polygon_size(poly)
        grid, bad = solve_board_grid(hexes, dy, sideways, bool(placement.rotate), _style(spec), spec.board, size)
        zones.append(ZoneSpec(f"Board {spec.board or m.id}", spec.board, poly, grid, bad))
    return zones


def _spread(labels: list[str], n: int) -> list[str]:
    """Unit i of n -> its hex: one each when the counts match, else spread evenly in order."""
    if not labels:
        return []
    return [labels[i] if len(labels) == n else labels[i * len(labels) // n] for i in range(n)]


def _pieces(index: ProjectIndex, sc: Scenario) -> list[Piece]:
    out = []
    for side in sc.sides:
        for force in side.forces:
            units = expand_force(force, index)
            setup = force.setup
            hexes = _spread(list(setup.hexes or setup.zone), len(units)) if setup else []
            for i, fu in enumerate(units):
                card = index.model("unit", fu.unit)
                name = f"{fu.designation} {card.name}".strip() if card else fu.unit
                out.append(Piece(name, fu.unit, side.id, f"{fu.unit}-front.png", f"{fu.unit}-back.png",
                                 hexes[i] if hexes else None))
    return out


def pixel_scale(hex_mm: float, dpi: float) -> float:
    """Pixels per mm near ``dpi`` making a hex an even number of pixels high (VASSAL truncates ``dy / 2``)."""
    return max(2, round(hex_mm * dpi / MM_PER_INCH / 2) * 2) / hex_mm


def scenario_board(index: ProjectIndex, scenario_id: str, dpi: float, warnings: list[str]) -> tuple[BoardSpec, Any]:
    """The board of one scenario and its map drawing (for the image)."""
    from studio.printing.mapsheet import draw_map, side_colours, terrain_colours

    sc = index.model("scenario", scenario_id)
    if sc is None:
        raise VassalError(f"no valid scenario with id {scenario_id!r}")
    try:
        amap = assemble_scenario(sc, index)
    except AssemblyError as exc:
        raise VassalError(f"scenario {scenario_id!r}: {exc} (a VASSAL module is exported from hex boards)") from None
    drawing = draw_map(amap, terrain_colours(index, sc.ruleset), side_colours(index, sc.ruleset))
    k, (ox, oy) = pixel_scale(amap.hex_mm, dpi), (0.0, 0.0)
    if drawing.centres:  # shift the drawing so one hex centre falls on a whole pixel (VASSAL's origin is an int)
        x, y = next(iter(drawing.centres.values()))
        ox, oy = (round(x * k) - x * k) / k, (round(y * k) - y * k) / k
        drawing.items = [Group(drawing.items, dx=ox, dy=oy)]
    centres = {amap.label_of[h]: ((x + ox) * k, (y + oy) * k) for h, (x, y) in drawing.centres.items()}
    zones = _zones(index, sc, amap, centres, amap.hex_mm * k)
    for z in zones:
        if z.mismatched:
            warnings.append(f"{scenario_id}: VASSAL numbers {len(z.mismatched)} hex(es) of {z.name} differently "
                            f"from the studio (e.g. {z.mismatched[0]})")
    pieces = _pieces(index, sc)
    notes = [f"{f.name or f.id}: enters on turn {f.entry.turn}" + (f" ({f.entry.edge} edge)" if f.entry.edge else "")
             for s in sc.sides for f in s.forces if f.entry is not None and (f.setup is None or not
                                                                               (f.setup.hexes or f.setup.zone))]
    board = BoardSpec(sc.name or sc.id, sc.id, f"{sc.id}-map.png", max(1, round(drawing.width * k)),
                      max(1, round(drawing.height * k)), k, zones, centres, pieces,
                      [(s.id, s.name) for s in sc.sides], notes, (ox * k, oy * k))
    return board, drawing


# ------------------------------------------------------------------ images

def _png(page, dpi: float) -> bytes:
    from studio.printing.output import png_bytes
    from studio.printing.render import page_image

    return png_bytes(page_image(page, dpi))


def counter_images(index: ProjectIndex, unit_ids: list[str], size_mm: float, dpi: float) -> dict[str, bytes]:
    """``<unit>-front.png`` / ``-back.png`` of each unit, drawn by the print renderer."""
    from studio.printing.counter_images import counter_side_page
    from studio.printing.faces import choose_layout

    out = {}
    for uid in unit_ids:
        unit = index.model("unit", uid)
        layout = choose_layout(index, unit, "counter")
        for side in ("front", "back"):
            out[f"{uid}-{side}.png"] = _png(counter_side_page(layout, unit, side, size_mm, index.root), dpi)
    return out


def marker_specs(rulesets: list[str]) -> list[dict[str, str]]:
    """Markers the rule systems declare (plugin ``extras["markers"]``: ``[{"id": ..., "name": ...}]``)."""
    out = []
    for rid in rulesets:
        plug = get_plugin(rid)
        for m in (plug.extras.get("markers", []) if plug else []):
            if isinstance(m, dict) and m.get("id"):
                out.append({"id": str(m["id"]), "name": str(m.get("name", m["id"])), "ruleset": rid})
    return out


def _marker_png(name: str, size_mm: float, dpi: float) -> bytes:
    from studio.printing.geometry import Rect
    from studio.printing.primitives import Box, Page, Text

    page = Page(size_mm, size_mm, [Box(Rect(0, 0, size_mm, size_mm), "#f4e04d", "#202020", 0.3),
                                   Text(Rect(0.5, 0.5, size_mm - 1, size_mm - 1), name, 7, True, shrink=True)])
    return _png(page, dpi)


# ------------------------------------------------------------------ buildFile.xml

def _el(tag: str, attrs: dict[str, Any], children: list[str] | None = None, text: str | None = None,
        indent: int = 0) -> str:
    pad = "    " * indent
    a = "".join(f" {k}={quoteattr(_attr(v))}" for k, v in attrs.items())
    if text is not None:
        return f"{pad}<{tag}{a}>{html.escape(text, quote=False)}</{tag}>"
    if not children:
        return f"{pad}<{tag}{a}/>"
    return f"{pad}<{tag}{a}>\n" + "\n".join(children) + f"\n{pad}</{tag}>"


def _attr(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(round(v, 6))
    return str(v)


P = "VASSAL.build.module."
BP = P + "map.boardPicker."


def _grid_xml(g: VassalGrid, indent: int) -> str:
    numbering = _el(BP + "board.mapgrid.HexGridNumbering", {
        "color": "0,0,0", "first": g.first, "fontSize": 9, "hDescend": g.h_descend, "hDrawOff": 0,
        "hLeading": g.h_leading, "hOff": g.h_off, "hType": g.h_type, "locationFormat": "$gridLocation$",
        "rotateText": 0, "sep": g.sep, "stagger": g.stagger, "vDescend": g.v_descend, "vDrawOff": 0,
        "vLeading": g.v_leading, "vOff": g.v_off, "vType": g.v_type, "visible": False}, indent=indent + 1)
    return _el(BP + "board.HexGrid", {
        "color": "0,0,0", "cornersLegal": False, "dotsVisible": False, "dx": g.dx, "dy": g.dy,
        "edgesLegal": False, "sideways": g.sideways, "snapTo": True, "visible": False, "x0": g.x0, "y0": g.y0},
        [numbering], indent=indent)


def _board_xml(b: BoardSpec, indent: int) -> str:
    zones = []
    for z in b.zones:
        path = ";".join(f"{x},{y}" for x, y in z.polygon)
        zones.append(_el(BP + "board.mapgrid.Zone", {
            "highlightProperty": "", "locationFormat": f"{z.prefix}$gridLocation$", "name": z.name, "path": path,
            "useHighlight": False, "useParentGrid": False}, [_grid_xml(z.grid, indent + 3)], indent=indent + 2))
    zoned = _el(BP + "board.ZonedGrid", {}, zones, indent=indent + 1)
    return _el(BP + "Board", {"image": b.image, "name": b.name, "reversible": False, "width": b.width,
                              "height": b.height}, [zoned], indent=indent)


def _slot(p: Piece, indent: int, px: int) -> str:
    return _el("VASSAL.build.widget.PieceSlot", {"entryName": p.name, "gpid": p.gpid, "height": px, "width": px},
               text=piece_definition(p.name, p.front, p.back, p.gpid), indent=indent)


def _stacks_xml(b: BoardSpec, indent: int, px: int) -> list[str]:
    by_hex: dict[str, list[Piece]] = {}
    for p in b.pieces:
        if p.hex is not None:
            by_hex.setdefault(p.hex, []).append(p)
    out = []
    for label, pieces in by_hex.items():
        x, y = b.centres[label]
        out.append(_el(P + "map.SetupStack", {"location": label, "name": f"{b.scenario} {label}",
                                              "owningBoard": b.name, "useGridLocation": False,
                                              "x": round(x), "y": round(y)},
                       [_slot(p, indent + 1, px) for p in pieces], indent=indent))
    return out


MAP_PARTS = ("StackMetrics", "ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
             "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver", "CounterDetailViewer", "Zoomer")


def build_xml(name: str, version: str, description: str, boards: list[BoardSpec], palette: list[tuple[str,
              list[Piece]]], next_gpid: int, slot_px: int = 64) -> str:
    """The module's ``buildFile.xml`` text (``slot_px``: a counter's size in pixels, the palette slots' size)."""
    picker = _el(BP + "BoardPicker", {"addColumnText": "Add column", "addRowText": "Add row",
                                     "boardPrompt": "Select the scenario", "slotHeight": 125, "slotScale": 0.2,
                                     "slotWidth": 350, "title": "Choose the scenario"},
                 [_board_xml(b, 3) for b in boards], indent=2)
    parts = [_el(P + "map." + part, {}, indent=2) for part in MAP_PARTS]
    stacks = [s for b in boards for s in _stacks_xml(b, 2, slot_px)]
    the_map = _el(P + "Map", {"allowMultiple": False, "backgroundcolor": "255,255,255", "buttonName": "",
                              "icon": "", "launch": False, "mapName": "Main Map", "markMoved": "Always",
                              "mark": "", "thickness": 3}, [picker] + parts + stacks, indent=1)
    lists = [_el("VASSAL.build.widget.ListWidget", {"entryName": title, "divider": 150, "height": 0, "scale": 1.0,
                                                    "width": 0}, [_slot(p, 4, slot_px) for p in pieces], indent=3)
             for title, pieces in palette]
    window = _el(P + "PieceWindow", {"allowHidePieces": False, "hidden": False, "hotkey": "", "icon": "",
                                     "name": "Counters", "scale": 1.0, "text": "Counters", "tooltip": "Counters"},
                 [_el("VASSAL.build.widget.TabWidget", {"entryName": "Counters"}, lists, indent=2)], indent=1)
    sides = sorted({s for b in boards for _, s in b.sides})
    roster = _el(P + "PlayerRoster", {"buttonKeyStroke": "", "buttonText": "Retire", "buttonToolTip":
                                      "Switch sides, become observer, or release faction"},
                 [_el("entry", {}, text=s, indent=2) for s in sides], indent=1)
    help_file = _el(P + "Documentation", {}, [_el(P + "documentation.HelpFile", {
        "fileName": "studio-export.html", "fileType": "archive", "title": "Studio export report"}, indent=2)],
        indent=1)
    body = [_el(P + "BasicCommandEncoder", {}, indent=1), help_file, _el(P + "Chatter", {}, indent=1),
            _el(P + "GlobalOptions", {"autoReport": "Always", "centerOnMove": "Use Preferences Setting",
                                      "nonOwnerUnmaskable": "Always", "playerIdFormat": "$PlayerName$"}, indent=1),
            roster, window, the_map]
    root = _el("VASSAL.build.GameModule", {"ModuleOther1": "", "ModuleOther2": "", "VassalVersion": VASSAL_VERSION,
                                           "description": description, "name": name,
                                           "nextPieceSlotId": next_gpid, "version": version}, body)
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + root + "\n"


def moduledata_xml(name: str, version: str, description: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            f"  <version>{html.escape(version)}</version>\n  <extra1/>\n  <extra2/>\n"
            f"  <VassalVersion>{VASSAL_VERSION}</VassalVersion>\n  <dateSaved>1577836800000</dateSaved>\n"
            f"  <description>{html.escape(description)}</description>\n  <name>{html.escape(name)}</name>\n"
            "</data>\n")


def report_html(name: str, record: dict[str, Any], boards: list[BoardSpec]) -> str:
    """The Help > Studio export report page: what was checked, the ruleset versions, balance, notes."""
    rows = [f"<h1>{html.escape(name)}</h1>", "<p>Exported by the studio; checked before export:</p>",
            f"<pre>{html.escape(json.dumps(record, indent=2, sort_keys=True))}</pre>"]
    for b in boards:
        rows.append(f"<h2>{html.escape(b.name)}</h2><ul>")
        rows += [f"<li>{html.escape(n)}</li>" for n in b.notes] or ["<li>every force starts on the map</li>"]
        rows.append("</ul>")
    return "<html><body>\n" + "\n".join(rows) + "\n</body></html>\n"


# ------------------------------------------------------------------ the whole module

def build_module(index: ProjectIndex, scenario_ids: list[str], *, dpi: float = 150.0, counter_mm: float | None = None,
                 name: str | None = None, version: str = "1.0", record: dict[str, Any] | None = None) -> ModuleBuild:
    """Build the module in memory (nothing written). ``counter_mm`` defaults to the project's counter size;
    ``record`` (validation, ruleset versions, balance) goes into the export report."""
    from studio.printing.jobs import project_defaults
    from studio.printing.units import length_mm

    if not scenario_ids:
        raise VassalError("no scenario to export")
    if not 30 <= dpi <= 600:
        raise VassalError(f"dpi {dpi:g} is out of range (30-600)")
    size = counter_mm if counter_mm is not None else length_mm(project_defaults(index, "counters").size)
    warnings: list[str] = []
    built = [scenario_board(index, sid, dpi, warnings) for sid in scenario_ids]
    boards = [b for b, _ in built]
    _check_board_names(boards)
    gpid = 1
    for b in boards:
        for p in b.pieces:
            p.gpid, gpid = gpid, gpid + 1
    from studio.printing.primitives import Page

    images = {b.image: _png(Page(d.width, d.height, d.items), b.px_per_mm * MM_PER_INCH) for b, d in built}
    dpi = boards[0].px_per_mm * MM_PER_INCH   # counters at the maps' scale
    units = sorted({p.unit for b in boards for p in b.pieces})
    images.update(counter_images(index, units, size, dpi))
    palette, gpid = _palette(index, boards, size, dpi, images, gpid)
    title = name or (boards[0].name if len(boards) == 1 else "Studio scenarios")
    description = f"Exported by the studio: {', '.join(scenario_ids)}"
    record = dict(record or {})
    record.setdefault("scenarios", scenario_ids)
    record["boards"] = {b.scenario: {"board": b.name, "px_per_mm": round(b.px_per_mm, 9),
                                     "offset_px": [round(v, 6) for v in b.offset_px], "notes": b.notes}
                        for b in boards}
    slot_px = round(size * boards[0].px_per_mm)
    files = {"buildFile.xml": build_xml(title, version, description, boards, palette, gpid, slot_px).encode("utf-8"),
             "moduledata": moduledata_xml(title, version, description).encode("utf-8"),
             "studio-export.json": (json.dumps(record, indent=2, sort_keys=True) + "\n").encode("utf-8"),
             "studio-export.html": report_html(title, record, boards).encode("utf-8")}
    files.update({f"images/{k}": v for k, v in sorted(images.items())})
    return ModuleBuild(title, boards, files, warnings)


def _check_board_names(boards: list[BoardSpec]) -> None:
    seen: dict[str, str] = {}
    for b in boards:
        if b.name in seen:
            b.name = f"{b.name} ({b.scenario})"
        seen[b.name] = b.scenario


def _palette(index, boards, size, dpi, images, gpid) -> tuple[list[tuple[str, list[Piece]]], int]:
    """One list per (scenario, side) with one piece per counter, plus the markers list."""
    out = []
    for b in boards:
        for side_id, side_name in b.sides:
            pieces = []
            for p in b.pieces:
                if p.side == side_id:
                    pieces.append(Piece(p.name, p.unit, p.side, p.front, p.back, None, gpid))
                    gpid += 1
            out.append((f"{b.name}: {side_name}", pieces))
    rulesets = sorted({index.model("scenario", b.scenario).ruleset for b in boards})
    markers = []
    for m in marker_specs(rulesets):
        image = f"marker-{m['ruleset']}-{m['id']}.png"
        images[image] = _marker_png(m["name"], size, dpi)
        markers.append(Piece(m["name"], m["id"], "", image, None, None, gpid))
        gpid += 1
    if markers:
        out.append(("Markers", markers))
    return out, gpid


def write_module(build: ModuleBuild, out: Path) -> Path:
    """Write the .vmod atomically (a file the user named: no project root)."""
    from studio.model.safeio import write_atomic

    return write_atomic(out, build.zip_bytes())


# ------------------------------------------------------------------ reading a module back (tests, preview)

def read_module(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def preview_page(files: dict[str, bytes], board_name: str, folder: Path):
    """A page showing ``board_name``'s map with every set-up piece's front image at its SetupStack x, y, all
    read from the module's own files (``buildFile.xml`` and images, extracted into ``folder``)."""
    import xml.etree.ElementTree as ET

    from studio.printing.geometry import Rect
    from studio.printing.primitives import Image, Page

    root = ET.fromstring(files["buildFile.xml"])
    board = next(b for b in root.iter(BP + "Board") if b.get("name") == board_name)
    w, h = int(board.get("width")), int(board.get("height"))
    for name, data in files.items():
        if name.startswith("images/"):
            target = folder / name.split("/", 1)[1]
            target.write_bytes(data)
    items = [Image(Rect(0, 0, w, h), str(folder / board.get("image")))]
    for stack in root.iter(P + "map.SetupStack"):
        if stack.get("owningBoard") != board_name:
            continue
        x, y = int(stack.get("x")), int(stack.get("y"))
        for k, slot in enumerate(stack.iter("VASSAL.build.widget.PieceSlot")):
            front = piece_images(slot.text or "")[0]
            side = 0.42 * float(next(iter(board.iter(BP + "board.HexGrid"))).get("dy"))
            off = k * side * 0.12
            items.append(Image(Rect(x - side + off, y - side + off, 2 * side, 2 * side), str(folder / front)))
    return Page(w, h, items, label=board_name)


def preview_png(files: dict[str, bytes], board_name: str | None = None) -> bytes:
    """PNG of :func:`preview_page` (one image pixel per module pixel); the first board when none is named."""
    import tempfile
    import xml.etree.ElementTree as ET

    if board_name is None:
        board_name = next(ET.fromstring(files["buildFile.xml"]).iter(BP + "Board")).get("name")
    with tempfile.TemporaryDirectory(prefix="studio-vmod-") as folder:
        return _png(preview_page(files, board_name, Path(folder)), MM_PER_INCH)


def piece_images(definition: str) -> list[str]:
    """Image entries a PieceSlot definition names (layer images first, then the basic piece's)."""
    out = []
    for part in definition.split("\t"):
        fields = _split(part.split("/", 2)[-1] if part.startswith("+/") else part, ";")
        if fields and fields[0] == "emb2":
            out += [s for s in _split(fields[16], ",") if s]
        elif fields and fields[0] == "piece" and len(fields) > 3 and fields[3]:
            out.append(fields[3])
    return out


def _split(text: str, delim: str) -> list[str]:
    """Undo :func:`seq` for one level (backslash-escaped delimiters)."""
    out, cur, i = [], "", 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] == delim:
            cur += delim
            i += 2
            continue
        if c == delim:
            out.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    out.append(cur)
    return out
