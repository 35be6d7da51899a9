"""Measured tables on paper (Qt-free): the 1:1 table layout guide tiled over Letter/A4 with overlap marks, the
feature templates (trench, oil-slick and minefield strips, wire, blast and illumination circles, arcs, a
ruler), and duplex unit-card sheets (fronts, then backs placed behind them).

Table coordinates are inches from the near-left corner (y away from the player); the drawing frame is mm from
the top-left, so the near edge prints at the bottom of the guide: ``X = x * 25.4``, ``Y = (depth - y) * 25.4``.
"""
from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from studio.model.documents import Map, UnitCard
from studio.model.project import ProjectIndex
from studio.model.table import MeasuredTable, feature_geometry

from .geometry import Rect, fit_scale, tile_map
from .mapsheet import TileCaption, tile_pages
from .primitives import Box, Ellipse, Group, Item, Line, Page, Polygon, Text
from .sheets import SheetJob, grid_pages
from .units import paper_mm

MM = 25.4
GRID_INK = "#9a9a9a"
OPEN = "#ece8c8"


class TableGuideError(ValueError):
    """A guide that cannot be built (not a measured table, unknown map); the message is for the user."""


# ------------------------------------------------------------------ drawing

def _pt(table: MeasuredTable, x: float, y: float) -> tuple[float, float]:
    return x * MM, (table.depth_in - y) * MM


def _ring(table: MeasuredTable, coords) -> tuple[tuple[float, float], ...]:
    return tuple(_pt(table, x, y) for x, y in coords)


def _grid(table: MeasuredTable) -> list[Item]:
    """An inch grid, heavier every 6", with inch numbers along the near and left edges."""
    w, h = table.width_in * MM, table.depth_in * MM
    out: list[Item] = []
    for i in range(int(table.width_in) + 1):
        out.append(Line(i * MM, 0, i * MM, h, GRID_INK, 0.25 if i % 6 == 0 else 0.08))
        if i % 6 == 0:
            out.append(Text(Rect(i * MM + 0.5, h - 4.5, 12, 4), f'{i}"', 6, colour="#606060", align="left"))
    for j in range(int(table.depth_in) + 1):
        y = h - j * MM
        out.append(Line(0, y, w, y, GRID_INK, 0.25 if j % 6 == 0 else 0.08))
        if j % 6 == 0 and j:
            out.append(Text(Rect(0.5, y + 0.3, 12, 4), f'{j}"', 6, colour="#606060", align="left"))
    return out


def _feature_items(table: MeasuredTable, f, colour: str, side: str | None) -> list[Item]:
    geom = feature_geometry(f)
    if geom is None or geom.is_empty:
        return []
    hidden = bool(f.hidden_from)
    stroke = "#c00000" if hidden else "#303030"
    out: list[Item] = []
    for part in getattr(geom, "geoms", [geom]):
        out.append(Polygon(_ring(table, part.exterior.coords), colour, stroke, 0.25))
    for ford in f.fords:
        cx, cy = _pt(table, *ford.at)
        r = ford.width_in * MM / 2
        out.append(Ellipse(Rect(cx - r, cy - r, 2 * r, 2 * r), "#c8ddf0", "#1f4f8f", 0.3))
        out.append(Text(Rect(cx - 15, cy + r, 30, 4), f'ford {ford.depth_in:g}" deep', 5.5, colour="#1f4f8f"))
    p = geom.representative_point()
    x, y = _pt(table, p.x, p.y)
    details = [f.name or f.id]
    if f.height_in is not None:
        details.append(f'{f.height_in:g}" high')
    if f.cover is not None:
        details.append(f"cover {f.cover}")
    if f.depth_in is not None and not f.fords:
        details.append(f'{f.depth_in:g}" deep')
    if hidden:
        details.append("hidden from " + ", ".join(f.hidden_from))
    out.append(Text(Rect(x - 30, y - 2.5, 60, 5), ", ".join(details), 6, colour="#202020", shrink=True))
    return out


def _elevation_items(table: MeasuredTable) -> list[Item]:
    out: list[Item] = []
    for h in sorted(table.elevations, key=lambda e: e.level_in):
        shade = max(0, 200 - int(40 * h.level_in))
        out.append(Polygon(_ring(table, h.points), f"#{shade + 30:02x}{shade + 20:02x}{shade:02x}", "#6a4a20", 0.35))
        x, y = _pt(table, *h.points[0])
        out.append(Text(Rect(x + 1, y + 1, 40, 4), f'{h.name or h.id}: level {h.level_in:g}"', 6, colour="#6a4a20",
                        align="left"))
    return out


def table_items(table: MeasuredTable, colours: dict[str, str], side: str | None = None) -> list[Item]:
    """Every primitive of the table in its drawing frame: ground, elevations, features (areas first, then
    lines and points), inch grid. With ``side``, features hidden from that side are left out (a player's copy);
    without, they are drawn with a red outline and marked."""
    w, h = table.width_in * MM, table.depth_in * MM
    items: list[Item] = [Box(Rect(0, 0, w, h), OPEN, None)]
    items += _elevation_items(table)
    order = {"polygon": 0, "polyline": 1, "circle": 2, "point": 3}
    for f in sorted(table.features, key=lambda f: order[f.shape]):
        if side is not None and side in f.hidden_from:
            continue
        items += _feature_items(table, f, colours.get(f.terrain, "#d0d0d0"), side)
    items += _grid(table)
    items.append(Box(Rect(0, 0, w, h), None, "#000000", 0.5))
    return items


# ------------------------------------------------------------------ pages

def table_guide_pages(index: ProjectIndex, map_id: str, paper: str = "letter", margin: float = 10.0,
                      overlap: float = 10.0, side: str | None = None) -> list[Page]:
    """The layout guide of measured table ``map_id``: an overview page, then the 1:1 tiles (row letter, column
    number) with glue lines where each overlap band starts and a 100 mm scale bar to check 100% printing."""
    m: Map | None = index.model("map", map_id)
    if m is None:
        raise TableGuideError(f"no map '{map_id}' in the project")
    if m.table is None:
        raise TableGuideError(f"map '{map_id}' is a hex board, not a measured table (print it with 'studio print map')")
    rs = index.model("ruleset", m.ruleset)
    colours = {t.id: t.colour for t in rs.terrain} if rs is not None else {}
    return guide_pages(m.table, m.name, colours, paper, margin, overlap, side)


def guide_pages(table: MeasuredTable, title: str, colours: dict[str, str], paper: str = "letter",
                margin: float = 10.0, overlap: float = 10.0, side: str | None = None) -> list[Page]:
    items = table_items(table, colours, side)
    w, h = table.width_in * MM, table.depth_in * MM
    tiling = tile_map(w, h, paper, margin, overlap)
    pw, ph = paper_mm(paper)
    if w > h:
        pw, ph = ph, pw
    box = Rect(margin, margin + 10, pw - 2 * margin, ph - 2 * margin - 22)
    s = min(fit_scale(w, h, box), 1.0)
    dx = box.x + (box.w - w * s) / 2
    who = f" - copy for side '{side}'" if side else ""
    over = Page(pw, ph, label="table overview")
    over.items.append(Text(Rect(margin, margin, pw - 2 * margin, 8), f"{title}{who}", 12, True, align="left"))
    over.items.append(Group(items, dx=dx, dy=box.y, sx=s, sy=s, tag="table:overview"))
    for t in tiling.tiles:
        r = Rect(dx + t.window.x * s, box.y + t.window.y * s, t.window.w * s, t.window.h * s)
        over.items.append(Box(r, None, "#c00000", 0.3))
        over.items.append(Text(Rect(r.x + 1, r.y + 1, 12, 6), t.name, 9, True, colour="#c00000", align="left",
                               valign="top"))
    over.items.append(Text(Rect(margin, ph - margin - 10, pw - 2 * margin, 5),
                           f'Table {table.width_in:g}" x {table.depth_in:g}" ({w:.0f} x {h:.0f} mm). Printed at '
                           f"100%: {tiling.rows} x {tiling.cols} pages, {overlap:g} mm overlap; near edge at the "
                           "bottom.", 7, align="left"))
    caption = TileCaption("table", f"{title}{who}", "true scale, 1 inch grid", tag="table")
    return [over] + tile_pages(items, tiling, overlap, margin, caption, bar_mm=100.0)


# ------------------------------------------------------------------ templates

STRIPS = (("Trench 1/4\"", 0.25, "#705030"), ("Trench 1/2\"", 0.5, "#705030"), ("Oil slick 1/2\"", 0.5, "#303030"),
          ("Minefield strip 1\" (low density)", 1.0, "#e0a0a0"), ("Minefield strip 1\" (high density)", 1.0, "#d05050"))
CIRCLES = (0.25, 0.5, 0.75, 1.0, 2.0, 3.0)


def template_pages(paper: str = "letter", margin: float = 10.0, strip_in: float = 6.0) -> list[Page]:
    """Feature templates at 1:1: 6" strips of the fixed widths (trench 1/4" and 1/2", oil slick 1/2", minefield
    1" per the rules' dimensions, BfOps p.9-10), a wire line, blast and illumination circles (radii 1/4", 1/2",
    3/4", 1", 2", 3": splash p.14-15, AP mines p.11, illumination p.13), 90-degree arcs of 6" (and 12" where the
    paper holds it), and a ruler in quarter inches: three pages."""
    pw, ph = paper_mm(paper)
    page = Page(pw, ph, label="templates 1")
    page.items.append(Text(Rect(margin, margin - 6, pw - 2 * margin, 6), "Battlefield table templates (1:1)", 11,
                           True, align="left"))
    y = margin + 4
    for name, width, colour in STRIPS:
        page.items.append(Box(Rect(margin, y, strip_in * MM, width * MM), colour, "#000000", 0.2))
        for k in range(1, int(strip_in)):
            page.items.append(Line(margin + k * MM, y, margin + k * MM, y + width * MM, "#ffffff", 0.2))
        page.items.append(Text(Rect(margin + strip_in * MM + 3, y, 60, max(4, width * MM)), name, 7, align="left"))
        y += width * MM + 5
    page.items.append(Line(margin, y + 2, margin + strip_in * MM, y + 2, "#404040", 0.6, dash=True))
    page.items.append(Text(Rect(margin + strip_in * MM + 3, y, 60, 4), 'Wire 6"', 7, align="left"))
    y += 8
    page.items += _circles(CIRCLES[:4], margin, y, pw - margin)
    big = Page(pw, ph, label="templates 2")
    big.items += _circles(CIRCLES[5:], margin, margin, pw - margin)
    big.items += _ruler(margin, ph - margin - 8, min(12.0, (pw - 2 * margin) / MM))
    arcs = Page(pw, ph, label="templates 3")
    arcs.items += _circles(CIRCLES[4:5], margin, margin, pw - margin)
    cx, cy = margin, ph - margin
    for radius in (6.0, 12.0):
        if radius * MM > min(pw - 2 * margin, ph - 2 * margin - 2 * CIRCLES[4] * MM - 10):
            continue
        pts = [(cx, cy)] + [(cx + radius * MM * math.sin(math.radians(a)), cy - radius * MM * math.cos(math.radians(a)))
                            for a in range(0, 91, 5)]
        arcs.items.append(Polygon(tuple(pts), None, "#1f4f8f", 0.3))
        arcs.items.append(Text(Rect(cx + 2, cy - radius * MM + 2, 40, 4), f'90 degree arc, {radius:g}"', 6,
                               align="left"))
    return [page, big, arcs]


def _circles(radii, x0: float, y: float, right: float) -> list[Item]:
    """Circles of the radii (inches) in a row from (x0, y) with their centre crosses and labels."""
    out: list[Item] = []
    x = x0
    for r in radii:
        rr = r * MM
        out.append(Ellipse(Rect(x, y, 2 * rr, 2 * rr), None, "#c00000", 0.3))
        out.append(Line(x + rr - 1, y + rr, x + rr + 1, y + rr, "#c00000", 0.2))
        out.append(Line(x + rr, y + rr - 1, x + rr, y + rr + 1, "#c00000", 0.2))
        out.append(Text(Rect(x, y + 2 * rr + 0.5, max(2 * rr, 14), 4), f'r {r:g}"', 6, align="left"))
        x += 2 * rr + 6
    return out


def _ruler(x: float, y: float, length: float) -> list[Item]:
    """A ruler of ``length`` inches with quarter-inch ticks."""
    out: list[Item] = [Line(x, y, x + length * MM, y, "#000000", 0.3)]
    for q in range(int(length * 4) + 1):
        tick = 4.0 if q % 4 == 0 else (2.5 if q % 2 == 0 else 1.5)
        out.append(Line(x + q * MM / 4, y, x + q * MM / 4, y - tick, "#000000", 0.2))
        if q % 4 == 0:
            out.append(Text(Rect(x + q * MM / 4 - 3, y + 0.5, 6, 4), f"{q // 4}", 6))
    out.append(Text(Rect(x, y + 4, 120, 4), f'{length:g}" ruler in quarter inches', 6, align="left"))
    return out


# ------------------------------------------------------------------ unit cards, front and back

def duplex_card_pages(index: ProjectIndex, units: list[UnitCard], job: SheetJob, layout_id: str | None = None,
                      base: Path | None = None, extras: list[dict] | None = None) -> list[Page]:
    """Card sheets with fronts and, behind each (the job's duplex: long or short edge), its back: for layouts
    with back-side elements such as the Battlefield Ops! Unit Card. ``job.spec.duplex == 'none'`` gives fronts."""
    from .faces import choose_layout

    if not units:
        return []
    lay = choose_layout(index, units[0], "card", layout_id)
    spec = replace(job.spec, cell_w=lay.width_mm, cell_h=lay.height_mm)
    return grid_pages(units, SheetJob(spec, f"{job.caption}  -  {lay.name}", job.back_marks), "card",
                      lambda u: choose_layout(index, u, "card", layout_id), base, extras)


def layout_has_back(layout) -> bool:
    """True when a card layout prints something on the back (``side: back``), so its cards go out duplex."""
    return any(el.side == "back" for el in layout.elements)
