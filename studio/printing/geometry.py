"""Sheet geometry in millimetres (Qt-free): counter/card grids with gutters and bleed, crop and registration
marks outside the bleed, duplex back-page mirroring with a calibrated offset, and map tiling with overlap.

Coordinates: millimetres from the page's top-left corner, x right, y down (the renderer's convention).

Contracts:

* A grid cell's ``trim`` is where the counter is cut; its ``fill`` is the trim grown by the *inner bleed*
  ``min(bleed, gutter / 2)`` (butted cells have no inner bleed). :meth:`GridLayout.fills` grows each used cell
  by the full ``bleed`` on every side without a used neighbour (the block's edges, and the open edges of a
  partly filled sheet), so background and art run past every cut.
* Crop marks are segments on the extension of every cut line, starting ``mark_gap`` mm outside the bleed box
  (the block grown by ``bleed``) and ``mark_len`` mm long: no mark ever touches the bleed.
* Backs: counter k's back is drawn at ``back.rect(front trim of k)``. For long-edge duplex (portrait page turned
  over its long side) x is mirrored, for short-edge y is. The back offset (X, Y) is the correction in
  *front-view* coordinates (X > 0 moves the backs right, Y > 0 down, as seen from the front).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from .units import paper_mm

Duplex = Literal["long", "short", "none"]
Marks = Literal["crop", "registration", "both", "none"]


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle in mm."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def grow(self, left: float, top: float | None = None, right: float | None = None,
             bottom: float | None = None) -> "Rect":
        """The rectangle grown outward (CSS order; one argument grows all sides).

        >>> Rect(10, 10, 5, 5).grow(1)
        Rect(x=9, y=9, w=7, h=7)
        """
        top = left if top is None else top
        right = left if right is None else right
        bottom = top if bottom is None else bottom
        return Rect(self.x - left, self.y - top, self.w + left + right, self.h + top + bottom)

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


@dataclass(frozen=True, slots=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True, slots=True)
class BackMapping:
    """Where a front-page rectangle lands on the back page after the sheet is turned over.

    >>> m = BackMapping(200.0, 300.0, "long", (0.0, 0.0))
    >>> m.rect(Rect(10, 20, 16, 16))
    Rect(x=174.0, y=20.0, w=16, h=16)
    >>> BackMapping(200.0, 300.0, "short", (1.0, 2.0)).rect(Rect(10, 20, 16, 16))
    Rect(x=11.0, y=262.0, w=16, h=16)
    """

    page_w: float
    page_h: float
    duplex: Duplex
    offset: tuple[float, float] = (0.0, 0.0)

    def point(self, x: float, y: float) -> tuple[float, float]:
        """Back-page position of the point that lies behind front-view point (x, y) (offset applied)."""
        ox, oy = self.offset
        x, y = x + ox, y + oy          # correction in front-view coordinates
        if self.duplex == "long":
            return (self.page_w - x, y)
        if self.duplex == "short":
            return (x, self.page_h - y)
        return (x, y)

    def rect(self, r: Rect) -> Rect:
        x1, y1 = self.point(r.x, r.y)
        x2, y2 = self.point(r.right, r.bottom)
        return Rect(min(x1, x2), min(y1, y2), r.w, r.h)

    @property
    def mirrors_x(self) -> bool:
        return self.duplex == "long"

    @property
    def mirrors_y(self) -> bool:
        return self.duplex == "short"


@dataclass(frozen=True)
class SheetSpec:
    """What a grid sheet (counters or cards) is made of. All lengths in mm."""

    cell_w: float
    cell_h: float
    paper: str = "letter"
    bleed: float = 3.175
    gutter: float | None = None        # None: 2 x bleed, so every cell has its full bleed
    margin: float = 6.0                # the printer's unprintable border
    marks: Marks = "crop"
    mark_gap: float = 1.0
    mark_len: float = 4.0
    duplex: Duplex = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    landscape: bool = False

    @property
    def page_size(self) -> tuple[float, float]:
        w, h = paper_mm(self.paper)
        return (h, w) if self.landscape else (w, h)

    @property
    def effective_gutter(self) -> float:
        return 2 * self.bleed if self.gutter is None else self.gutter

    @property
    def inner_bleed(self) -> float:
        return min(self.bleed, self.effective_gutter / 2)

    @property
    def mark_zone(self) -> float:
        """Room needed outside the bleed box for marks."""
        if self.marks == "none":
            return 0.0
        reg = 2 * REG_RADIUS + self.mark_gap if self.marks in ("registration", "both") else 0.0
        crop = self.mark_gap + self.mark_len if self.marks in ("crop", "both") else 0.0
        return max(reg, crop)

    def back_mapping(self) -> BackMapping:
        w, h = self.page_size
        return BackMapping(w, h, self.duplex, self.back_offset)


REG_RADIUS = 2.5


@dataclass(frozen=True, slots=True)
class Cell:
    index: int
    row: int
    col: int
    trim: Rect
    fill: Rect


@dataclass
class GridLayout:
    """One page's worth of cells (every page of a sheet uses the same grid)."""

    spec: SheetSpec
    rows: int
    cols: int
    cells: list[Cell]
    block: Rect                      # union of the trims
    bleed_box: Rect                  # block grown by the bleed
    crop_marks: list[Segment] = field(default_factory=list)
    registration: list[tuple[float, float]] = field(default_factory=list)  # centres of registration marks

    @property
    def per_page(self) -> int:
        return len(self.cells)

    def fills(self, used: int) -> list[Rect]:
        """The bleed area of each of the first ``used`` cells (a page filled in order): the trim grown by the
        full bleed on every side that has no used neighbour (the block's edges and the edges of a partly
        filled last row or column), by the inner bleed towards used neighbours (0 when butted).

        >>> g = grid_layout(SheetSpec(10, 10, "letter", bleed=2, gutter=0, marks="none"))
        >>> g.fills(2)[1] == g.cells[1].trim.grow(0, 2, 2, 2)     # cell 1: neighbour on the left only
        True
        """
        b, inner = self.spec.bleed, self.spec.inner_bleed
        out = []
        for cell in self.cells[:used]:
            def side(dr: int, dc: int) -> float:
                r, c = cell.row + dr, cell.col + dc
                taken = 0 <= r < self.rows and 0 <= c < self.cols and r * self.cols + c < used
                return inner if taken else b
            out.append(cell.trim.grow(side(0, -1), side(-1, 0), side(0, 1), side(1, 0)))
        return out


class GeometryError(ValueError):
    """The requested sheet does not fit (e.g. a counter bigger than the page)."""


def grid_layout(spec: SheetSpec) -> GridLayout:
    """Lay out as many cells as fit on one page, centred, leaving room for bleed and marks.

    >>> g = grid_layout(SheetSpec(15.875, 15.875, "letter", bleed=0, gutter=0, marks="none"))
    >>> (g.cols, g.rows, round(g.cells[1].trim.x - g.cells[0].trim.x, 6))
    (12, 16, 15.875)
    """
    page_w, page_h = spec.page_size
    gutter = spec.effective_gutter
    outer = spec.bleed + spec.mark_zone
    avail_w = page_w - 2 * (spec.margin + outer)
    avail_h = page_h - 2 * (spec.margin + outer)
    cols = int(math.floor((avail_w + gutter + 1e-9) / (spec.cell_w + gutter)))
    rows = int(math.floor((avail_h + gutter + 1e-9) / (spec.cell_h + gutter)))
    if cols < 1 or rows < 1:
        raise GeometryError(f"a {spec.cell_w:g} x {spec.cell_h:g} mm cell with {spec.bleed:g} mm bleed does not "
                            f"fit on {spec.paper} paper")
    block_w = cols * spec.cell_w + (cols - 1) * gutter
    block_h = rows * spec.cell_h + (rows - 1) * gutter
    x0 = (page_w - block_w) / 2
    y0 = (page_h - block_h) / 2
    block = Rect(x0, y0, block_w, block_h)
    inner = spec.inner_bleed
    cells: list[Cell] = []
    b = spec.bleed
    for r in range(rows):
        for c in range(cols):
            trim = Rect(x0 + c * (spec.cell_w + gutter), y0 + r * (spec.cell_h + gutter), spec.cell_w, spec.cell_h)
            cells.append(Cell(len(cells), r, c, trim, trim.grow(inner)))
    bleed_box = block.grow(b)
    layout = GridLayout(spec, rows, cols, cells, block, bleed_box)
    if spec.marks in ("crop", "both"):
        layout.crop_marks = crop_marks(layout)
    if spec.marks in ("registration", "both"):
        d = spec.mark_gap + REG_RADIUS
        bb = bleed_box
        layout.registration = [(bb.center[0], bb.y - d), (bb.center[0], bb.bottom + d),
                               (bb.x - d, bb.center[1]), (bb.right + d, bb.center[1])]
    return layout


def check_backs(layout: GridLayout) -> None:
    """GeometryError when the back offset moves any back (trim plus bleed) off the page or into the printer's
    margin: those backs would be cut off or not printed at all."""
    spec = layout.spec
    if spec.duplex == "none" or spec.back_offset == (0.0, 0.0):
        return
    w, h = spec.page_size
    back = spec.back_mapping().rect(layout.bleed_box)
    m = spec.margin
    if back.x < m - 1e-9 or back.y < m - 1e-9 or back.right > w - m + 1e-9 or back.bottom > h - m + 1e-9:
        ox, oy = spec.back_offset
        raise GeometryError(f"back offset {ox:g},{oy:g} mm moves the backs off the printable page ({m:g} mm "
                            f"margin on {spec.paper}): the sheet's bleed box spans x {layout.bleed_box.x:.1f}-"
                            f"{layout.bleed_box.right:.1f}, y {layout.bleed_box.y:.1f}-"
                            f"{layout.bleed_box.bottom:.1f} mm; use a smaller offset (calibrate with "
                            f"'studio print calibration')")


def cut_lines(layout: GridLayout, used: int | None = None) -> tuple[list[float], list[float]]:
    """Sorted distinct x positions of vertical cuts and y positions of horizontal cuts (of the first ``used``
    cells; all when None)."""
    cells = layout.cells if used is None else layout.cells[:used]
    xs = sorted({round(v, 6) for c in cells for v in (c.trim.x, c.trim.right)})
    ys = sorted({round(v, 6) for c in cells for v in (c.trim.y, c.trim.bottom)})
    return xs, ys


def used_bleed_box(layout: GridLayout, used: int | None = None) -> Rect:
    """The bleed box of the first ``used`` cells of a page filled in order (the whole grid's when None or
    full): how far the printed counters reach."""
    if used is None or used >= layout.per_page:
        return layout.bleed_box
    fills = layout.fills(used)
    x, y = min(f.x for f in fills), min(f.y for f in fills)
    return Rect(x, y, max(f.right for f in fills) - x, max(f.bottom for f in fills) - y)


def crop_marks(layout: GridLayout, used: int | None = None) -> list[Segment]:
    """Marks on every cut line of the first ``used`` cells (all when None), outside their bleed box on all four
    sides: a page filled in part is marked only as far as its counters go (none for an empty page)."""
    if used is not None and used <= 0:
        return []
    spec, bb = layout.spec, used_bleed_box(layout, used)
    g, n = spec.mark_gap, spec.mark_len
    xs, ys = cut_lines(layout, used)
    marks = []
    for x in xs:
        marks.append(Segment(x, bb.y - g - n, x, bb.y - g))
        marks.append(Segment(x, bb.bottom + g, x, bb.bottom + g + n))
    for y in ys:
        marks.append(Segment(bb.x - g - n, y, bb.x - g, y))
        marks.append(Segment(bb.right + g, y, bb.right + g + n, y))
    return marks


# ------------------------------------------------------------------ map tiling

@dataclass(frozen=True, slots=True)
class Tile:
    """One page of a tiled map: the map window (map mm) printed at ``place`` (page mm), 1:1."""

    row: int
    col: int
    window: Rect
    place: Rect

    @property
    def name(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


@dataclass(frozen=True)
class Tiling:
    page_w: float
    page_h: float
    rows: int
    cols: int
    overlap: float
    tiles: list[Tile]


def tile_map(map_w: float, map_h: float, paper: str = "letter", margin: float = 10.0,
             overlap: float = 10.0) -> Tiling:
    """Tile a ``map_w`` x ``map_h`` mm map over pages at 1:1 with ``overlap`` mm shared between neighbours.

    Portrait or landscape, whichever needs fewer pages (portrait on a tie). Neighbouring windows overlap by
    exactly ``overlap``; the last row/column is shortened to end at the map edge.

    >>> t = tile_map(380, 250, "letter", 10, 10)
    >>> (t.rows, t.cols, t.tiles[1].window.x)
    (1, 2, 185.9)
    """
    best = None
    for landscape in (False, True):
        w, h = paper_mm(paper)
        if landscape:
            w, h = h, w
        pw, ph = w - 2 * margin, h - 2 * margin
        if pw <= overlap or ph <= overlap:
            raise GeometryError(f"margin {margin:g} mm and overlap {overlap:g} mm leave no room on {paper}")
        cols = max(1, math.ceil((map_w - overlap) / (pw - overlap) - 1e-9))
        rows = max(1, math.ceil((map_h - overlap) / (ph - overlap) - 1e-9))
        if best is None or rows * cols < best[0]:
            best = (rows * cols, w, h, pw, ph, rows, cols)
    _, w, h, pw, ph, rows, cols = best
    tiles = []
    for r in range(rows):
        for c in range(cols):
            mx, my = c * (pw - overlap), r * (ph - overlap)
            ww, wh = min(pw, map_w - mx), min(ph, map_h - my)
            tiles.append(Tile(r, c, Rect(mx, my, ww, wh), Rect(margin, margin, ww, wh)))
    return Tiling(w, h, rows, cols, overlap, tiles)


def fit_scale(content_w: float, content_h: float, box: Rect) -> float:
    """Largest scale (<= 1 is not enforced) at which content fits in ``box``."""
    return min(box.w / content_w, box.h / content_h)
