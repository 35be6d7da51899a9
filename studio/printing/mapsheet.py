"""Maps at true scale: an assembled hex map drawn in map millimetres, tiled 1:1 over pages, plus an overview.

The map is drawn with :class:`studio.hexgrid.layout.Layout` at the board's ``hex_mm`` (flat-to-flat), so hex
centres one hex apart are exactly ``hex_mm`` apart on paper. Tiles come from
:func:`studio.printing.geometry.tile_map`: neighbouring pages share ``overlap`` mm of map; a dashed line marks
where a tile's overlap band starts ("glue here") and cross marks on the shared band line the pages up.
"""
from __future__ import annotations

from dataclasses import dataclass

from studio.hexgrid.layout import Layout as HexLayout
from studio.model.maps import AssembledMap
from studio.model.project import ProjectIndex

from .geometry import Rect, Tile, Tiling, fit_scale, tile_map
from .primitives import Box, Group, Item, Line, Page, Polygon, Text
from .units import MM_PER_PT, paper_mm

UNKNOWN_TERRAIN = "#d0d0d0"
GRID_INK = "#505050"
BORDER = 3.0   # mm of white around the hexes


@dataclass
class MapDrawing:
    """The whole map in its own mm frame (0, 0 = top-left of the bounding box incl. a small border)."""

    items: list[Item]
    width: float
    height: float
    hex_mm: float
    centres: dict[tuple[int, int], tuple[float, float]]   # hex -> centre in the drawing frame


def terrain_colours(index: ProjectIndex | None, ruleset: str | None) -> dict[str, str]:
    """Terrain code -> colour from the ruleset's terrain catalogue (empty when there is none)."""
    rs = index.model("ruleset", ruleset) if index is not None and ruleset else None
    return {t.code: t.colour for t in rs.terrain} if rs is not None else {}


def side_colours(index: ProjectIndex | None, ruleset: str | None) -> dict[str, str]:
    rs = index.model("ruleset", ruleset) if index is not None and ruleset else None
    out = {f.id: f.colour for f in rs.hexside_features} if rs is not None else {}
    out.update({r.id: r.colour for r in rs.road_types} if rs is not None else {})
    return out


@dataclass(frozen=True)
class KeyEntry:
    """One line of a map's terrain key: a terrain fill, a hexside line or a road line, with its name."""

    kind: str          # 'terrain', 'hexside' or 'road'
    name: str
    colour: str
    rule: str = ""


def map_key(index: ProjectIndex | None, ruleset: str | None, amap: AssembledMap) -> list[KeyEntry]:
    """The key of what ``amap`` uses, named from the ruleset's catalogue (terrain in catalogue order, then
    hexside features, then roads); codes the catalogue lacks are listed under their code."""
    rs = index.model("ruleset", ruleset) if index is not None and ruleset else None
    used_t, used_s, used_r = set(amap.terrain.values()), set(amap.hexsides.values()), set(amap.roads.values())
    out: list[KeyEntry] = []
    terrain = list(rs.terrain) if rs is not None else []
    out += [KeyEntry("terrain", t.name, t.colour, t.rule) for t in terrain if t.code in used_t]
    out += [KeyEntry("terrain", code, UNKNOWN_TERRAIN) for code in sorted(used_t - {t.code for t in terrain})]
    sides = list(rs.hexside_features) if rs is not None else []
    out += [KeyEntry("hexside", f.name, f.colour, f.rule) for f in sides if f.id in used_s]
    out += [KeyEntry("hexside", f, "#3060c0") for f in sorted(used_s - {f.id for f in sides})]
    roads = list(rs.road_types) if rs is not None else []
    out += [KeyEntry("road", r.name, r.colour, r.rule) for r in roads if r.id in used_r]
    out += [KeyEntry("road", r, "#805020") for r in sorted(used_r - {r.id for r in roads})]
    return out


KEY_ROW = 4.2      # mm per key line
KEY_COL = 52.0     # mm per key column


def key_items(entries: list[KeyEntry], x: float, y: float, width: float) -> tuple[float, list[Item]]:
    """(height, primitives) of the key drawn in columns from (x, y) across ``width``."""
    if not entries:
        return 0.0, []
    cols = max(1, int(width // KEY_COL))
    rows = -(-len(entries) // cols)
    items: list[Item] = [Text(Rect(x, y, width, 4.5), "Key", 8, True, align="left")]
    top = y + 5.0
    for i, e in enumerate(entries):
        c, r = divmod(i, rows)
        ex, ey = x + c * KEY_COL, top + r * KEY_ROW
        if e.kind == "terrain":
            items.append(Polygon(_hex_swatch(ex + 3.0, ey + KEY_ROW / 2, 1.9), e.colour, GRID_INK, 0.12))
        else:
            items.append(Line(ex + 0.5, ey + KEY_ROW / 2, ex + 5.5, ey + KEY_ROW / 2, e.colour,
                              0.9 if e.kind == "hexside" else 0.7))
        label = e.name + (f" ({e.rule})" if e.rule else "")
        items.append(Text(Rect(ex + 7.0, ey, KEY_COL - 8.0, KEY_ROW), label, 6.5, align="left", shrink=True))
    return 5.0 + rows * KEY_ROW, items


def _hex_swatch(cx: float, cy: float, r: float) -> tuple[tuple[float, float], ...]:
    import math

    return tuple((cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in range(0, 360, 60))


def draw_map(amap: AssembledMap, colours: dict[str, str], feature_colours: dict[str, str] | None = None,
             labels: bool = True) -> MapDrawing:
    """Primitives of every hex (terrain fill, grid, label, elevation), hexside features and roads."""
    feature_colours = feature_colours or {}
    lay = HexLayout(flat=amap.orientation == "flat", size_mm=amap.hex_mm)
    corners = {h: lay.corners(h) for h in amap.label_of}
    xs = [x for cs in corners.values() for x, _ in cs]
    ys = [y for cs in corners.values() for _, y in cs]
    ox, oy = BORDER - min(xs), BORDER - min(ys)
    items: list[Item] = []
    hm = amap.hex_mm
    for h, cs in corners.items():
        pts = tuple((x + ox, y + oy) for x, y in cs)
        items.append(Polygon(pts, colours.get(amap.terrain.get(h, ""), UNKNOWN_TERRAIN), GRID_INK, 0.12))
    for (a, b), feature in amap.hexsides.items():
        ca, cb = set(corners.get(a, [])), set(corners.get(b, []))
        shared = [p for p in corners.get(a, []) if any(abs(p[0] - q[0]) + abs(p[1] - q[1]) < 1e-6 for q in cb)]
        if len(shared) == 2 and ca:
            (x1, y1), (x2, y2) = shared
            items.append(Line(x1 + ox, y1 + oy, x2 + ox, y2 + oy, feature_colours.get(feature, "#3060c0"), hm * 0.08))
    for (a, b), road in amap.roads.items():
        (x1, y1), (x2, y2) = lay.to_mm(a), lay.to_mm(b)
        items.append(Line(x1 + ox, y1 + oy, x2 + ox, y2 + oy, feature_colours.get(road, "#805020"), hm * 0.07))
    centres = {h: (lay.to_mm(h)[0] + ox, lay.to_mm(h)[1] + oy) for h in amap.label_of}
    if labels:
        for h, label in amap.label_of.items():
            cx, cy = centres[h]
            items.append(Text(Rect(cx - hm * 0.45, cy - hm * 0.48, hm * 0.9, hm * 0.24), label, hm * 0.28,
                              colour="#303030"))
            level = amap.elevation.get(h, 0)
            if level:
                items.append(Text(Rect(cx - hm * 0.45, cy + hm * 0.22, hm * 0.9, hm * 0.24), str(level), hm * 0.28,
                                  colour="#603000"))
    for h, text in amap.texts.items():      # town and feature names: on a white label, readable when scaled
        cx, cy = centres[h]
        pt = hm * 0.55
        w = min(3.2 * hm, len(text) * pt * MM_PER_PT * 0.62 + hm * 0.3)
        box = Rect(cx - w / 2, cy - hm * 0.22, w, hm * 0.44)
        items += [Box(box, "#ffffff", "#202020", hm * 0.02), Text(box, text, pt, True, shrink=True)]
    return MapDrawing(items, max(xs) + ox + BORDER, max(ys) + oy + BORDER, hm, centres)


def _bbox(item: Item) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a map primitive."""
    if isinstance(item, Polygon):
        xs, ys = [p[0] for p in item.points], [p[1] for p in item.points]
        return (min(xs), min(ys), max(xs), max(ys))
    if isinstance(item, Line):
        return (min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2))
    r = item.rect
    return (r.x, r.y, r.right, r.bottom)


def visible_items(items: list[Item], window: Rect) -> list[Item]:
    """The primitives that touch ``window`` (tiles draw only these; the clip does the rest)."""
    out = []
    for it in items:
        x0, y0, x1, y1 = _bbox(it)
        if x1 >= window.x and x0 <= window.right and y1 >= window.y and y0 <= window.bottom:
            out.append(it)
    return out


def _tile_marks(tile: Tile, rows: int, cols: int, overlap: float) -> list[Item]:
    """Marks in page coordinates: dashed glue lines where the overlap with a neighbour starts, crosses on them."""
    p, out = tile.place, []
    ink = "#c00000"
    if tile.col + 1 < cols:        # right neighbour covers our right band
        x = p.right - overlap
        out.append(Line(x, p.y, x, p.bottom, ink, 0.2, dash=True))
    if tile.row + 1 < rows:
        y = p.bottom - overlap
        out.append(Line(p.x, y, p.right, y, ink, 0.2, dash=True))
    if tile.col > 0:                # our left band is the left neighbour's right band
        out.append(Line(p.x + overlap, p.y, p.x + overlap, p.bottom, "#808080", 0.15, dash=True))
    if tile.row > 0:
        out.append(Line(p.x, p.y + overlap, p.right, p.y + overlap, "#808080", 0.15, dash=True))
    # alignment crosses at fixed map positions in the shared bands (same map point on both pages)
    for fx in (0.25, 0.75):
        for band_x in ([p.right - overlap / 2] if tile.col + 1 < cols else []) + \
                      ([p.x + overlap / 2] if tile.col > 0 else []):
            y = p.y + p.h * fx
            out += [Line(band_x - 3, y, band_x + 3, y, ink, 0.2), Line(band_x, y - 3, band_x, y + 3, ink, 0.2)]
        for band_y in ([p.bottom - overlap / 2] if tile.row + 1 < rows else []) + \
                      ([p.y + overlap / 2] if tile.row > 0 else []):
            x = p.x + p.w * fx
            out += [Line(x - 3, band_y, x + 3, band_y, ink, 0.2), Line(x, band_y - 3, x, band_y + 3, ink, 0.2)]
    return out


@dataclass(frozen=True)
class TileCaption:
    """What a tile page says of itself: ``kind`` labels the page (``'map'`` -> "map tile B2"), ``title`` and
    ``scale`` frame the tile's position in the heading; ``tag`` (optional) tags the tile's drawing group as
    ``'<tag>:tile:<name>'``."""
    kind: str
    title: str
    scale: str
    tag: str | None = None


def tile_pages(items: list[Item], tiling: Tiling, overlap: float, margin: float, caption: TileCaption,
               bar_mm: float) -> list[Page]:
    """One page per tile of ``tiling``: the drawing clipped to the tile's window, its frame and overlap marks, a
    heading naming the tile's row and column, and a scale bar of ``bar_mm`` to check printing at 100%."""
    pages = []
    for t in tiling.tiles:
        page = Page(tiling.page_w, tiling.page_h, label=f"{caption.kind} tile {t.name}")
        page.items.append(Group(visible_items(items, t.window), dx=t.place.x - t.window.x,
                                dy=t.place.y - t.window.y, clip=t.window,
                                tag=f"{caption.tag}:tile:{t.name}" if caption.tag else ""))
        page.items.append(Box(t.place, None, "#000000", 0.15))
        page.items += _tile_marks(t, tiling.rows, tiling.cols, overlap)
        page.items.append(Text(Rect(margin, 1.5, tiling.page_w - 2 * margin, 6),
                               f"{caption.title}  -  tile {t.name} (row {t.row + 1} of {tiling.rows}, column "
                               f"{t.col + 1} of {tiling.cols})  -  {caption.scale}", 7, align="left"))
        page.items += scale_bar(margin, tiling.page_h - margin / 2 + 1.5, bar_mm)
        pages.append(page)
    return pages


def scale_bar(x: float, y: float, length: float = 100.0) -> list[Item]:
    """A ruler of ``length`` mm with centimetre ticks, to check the printer did not scale the page."""
    out: list[Item] = [Line(x, y, x + length, y, "#000000", 0.2)]
    for i in range(int(length // 10) + 1):
        out.append(Line(x + 10 * i, y - (1.5 if i % 5 else 2.5), x + 10 * i, y, "#000000", 0.2))
    out.append(Text(Rect(x + length + 1, y - 3, 80, 4), f"{length:g} mm - measure to check 100% scale", 6,
                    align="left"))
    return out


def map_pages(drawing: MapDrawing, title: str, paper: str = "letter", margin: float = 10.0,
              overlap: float = 10.0, key: list[KeyEntry] | None = None) -> list[Page]:
    """An overview page (scaled to fit, tile grid drawn over it, the terrain ``key`` under it) followed by the
    1:1 tiles."""
    tiling = tile_map(drawing.width, drawing.height, paper, margin, overlap)
    pages: list[Page] = []
    pw, ph = paper_mm(paper)
    if drawing.width > drawing.height:
        pw, ph = ph, pw
    key_h, key_drawing = key_items(key or [], margin, 0.0, pw - 2 * margin)
    box = Rect(margin, margin + 10, pw - 2 * margin, ph - 2 * margin - 22 - key_h)
    s = min(fit_scale(drawing.width, drawing.height, box), 1.0)
    dx = box.x + (box.w - drawing.width * s) / 2
    over = Page(pw, ph, label="map overview")
    over.items.append(Text(Rect(margin, margin, pw - 2 * margin, 8), title, 12, True, align="left"))
    over.items.append(Group(drawing.items, dx=dx, dy=box.y, sx=s, sy=s))
    for t in tiling.tiles:
        r = Rect(dx + t.window.x * s, box.y + t.window.y * s, t.window.w * s, t.window.h * s)
        over.items.append(Box(r, None, "#c00000", 0.3))
        over.items.append(Text(Rect(r.x + 1, r.y + 1, 12, 6), t.name, 9, True, colour="#c00000", align="left",
                               valign="top"))
    over.items.append(Text(Rect(margin, ph - margin - 10, pw - 2 * margin, 5),
                           f"Scale 1:{1 / s:.2f} of print size. Printed at 100%: {tiling.rows} x {tiling.cols} "
                           f"pages, hex {drawing.hex_mm:g} mm across flats, {overlap:g} mm overlap.", 7,
                           align="left"))
    if key_drawing:
        over.items.append(Group(key_drawing, dy=ph - margin - 12 - key_h, tag="map:key"))
    pages.append(over)
    pages += tile_pages(drawing.items, tiling, overlap, margin, TileCaption("map", title,
                                                                        f"true scale, hex {drawing.hex_mm:g} mm"),
                        bar_mm=50.0)
    return pages
