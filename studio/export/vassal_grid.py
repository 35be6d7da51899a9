"""VASSAL 3.7 hex-grid arithmetic, ported from its sources, and the search for grid parameters that reproduce a
studio board's own hex labels.

Ported from ``VASSAL.build.module.map.boardPicker.board.HexGrid`` (``hexPointCenterFromRawIndex``,
``getRawColumn``, ``getRawRow``), ``mapgrid.HexGridNumbering`` (``getColumn``, ``getRow``, ``getMaxRows``,
``getMaxColumns``) and ``mapgrid.RegularGridNumbering`` (``getName``). VASSAL's grid has columns along x spaced
``dx`` apart and hexes ``dy`` high; odd raw columns (counted from the origin) sit ``dy/2`` lower. A ``sideways``
grid (pointy-top hexes) does the same arithmetic on the point with x and y swapped, origin included.

:func:`solve_board_grid` tries the few parameter sets that can number a board (origin column parity, stagger,
descending for a board turned 180 degrees) and keeps the first whose names equal the studio's labels at every
hex centre, so the module's location names are the board's own ("2Q9", "0405").
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

SQRT3_2 = math.sqrt(3) / 2
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class VassalGrid:
    """The attributes of one ``HexGrid`` plus its ``HexGridNumbering`` (names as in buildFile.xml)."""

    dx: float
    dy: float
    x0: int
    y0: int
    sideways: bool
    stagger: bool = False
    h_descend: bool = False
    v_descend: bool = False
    h_off: int = 0
    v_off: int = 0
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 0
    v_leading: int = 0
    first: str = "H"
    sep: str = ""


@dataclass(frozen=True)
class BoardHex:
    """One hex of a board: its centre in image pixels (as the studio draws it), its local offset cell and the
    label the studio prints there."""

    x: float
    y: float
    col: int
    row: int
    label: str


def _rot(x: float, y: float, sideways: bool) -> tuple[float, float]:
    return (y, x) if sideways else (x, y)


def _java_int(v: float) -> int:
    return int(v)  # Java (int) truncates toward zero, as Python's int()


def raw_centre(g: VassalGrid, nx: int, ny: int) -> tuple[int, int]:
    """``hexPointCenterFromRawIndex`` (in real, unrotated pixels)."""
    x = _java_int(g.dx * nx + g.x0)
    y = _java_int(g.dy * ny + g.y0) if nx % 2 == 0 else _java_int(g.dy * ny + _java_int(g.dy / 2) + g.y0)
    rx, ry = _rot(x, y, g.sideways)
    return int(rx), int(ry)


def raw_column(g: VassalGrid, px: int, py: int) -> int:
    x, _ = _rot(px, py, g.sideways)
    return math.floor((x - g.x0) / g.dx + 0.5)


def raw_row(g: VassalGrid, px: int, py: int) -> int:
    x, y = _rot(px, py, g.sideways)
    nx = _java_round((x - g.x0) / g.dx)
    if nx % 2 == 0:
        return _java_round((y - g.y0) / g.dy)
    return _java_round((y - g.y0 - g.dy / 2) / g.dy)


def _java_round(v: float) -> int:
    return math.floor(v + 0.5)  # Math.round


def max_rows(g: VassalGrid, size: tuple[int, int]) -> int:
    return math.floor(size[1] / g.dx + 0.5)      # sic: VASSAL divides the height by the hex width


def max_columns(g: VassalGrid, size: tuple[int, int]) -> int:
    return math.floor(size[0] / g.dy + 0.5)      # sic


def column(g: VassalGrid, px: int, py: int, size: tuple[int, int]) -> int:
    x = raw_column(g, px, py)
    if g.v_descend and g.sideways:
        x = max_rows(g, size) - x
    if g.h_descend and not g.sideways:
        x = max_columns(g, size) - x
    return x


def row(g: VassalGrid, px: int, py: int, size: tuple[int, int]) -> int:
    ny = raw_row(g, px, py)
    if g.v_descend and not g.sideways:
        ny = max_rows(g, size) - ny
    if g.h_descend and g.sideways:
        ny = max_columns(g, size) - ny
    if g.stagger and raw_column(g, px, py) % 2 != 0:
        descending = g.h_descend if g.sideways else g.v_descend
        ny += -1 if descending else 1
    return ny


def part_name(value: int, kind: str, leading: int) -> str:
    """``RegularGridNumbering.getName(int, char, int)``."""
    out = "-" if value < 0 else ""
    value = abs(value)
    if kind == "A":
        while True:
            out += ALPHABET[value % 26]
            value -= 26
            if value < 0:
                return out
    while leading > 0 and value < 10 ** leading:
        leading -= 1
        out += "0"
    return out + str(value)


def location_name(g: VassalGrid, px: int, py: int, size: tuple[int, int]) -> str:
    """The grid location VASSAL names at pixel (px, py) of a zone of bounds ``size``."""
    r, c = row(g, px, py, size), column(g, px, py, size)
    rname = part_name(r + g.v_off, g.v_type, g.v_leading)
    cname = part_name(c + g.h_off, g.h_type, g.h_leading)
    return cname + g.sep + rname if g.first == "H" else rname + g.sep + cname


def snap_hex(g: VassalGrid, px: float, py: float) -> tuple[int, int]:
    """The centre VASSAL snaps (px, py) to: the nearest raw hex centre (by distance; VASSAL tests hex shapes,
    which gives the same hex for points inside it)."""
    x, y = _rot(px, py, g.sideways)
    nx0 = math.floor((x - g.x0 + g.dx / 2) / g.dx)
    best = None
    for nx in (nx0 - 1, nx0, nx0 + 1):
        base = g.y0 + (g.dy / 2 if nx % 2 else 0)
        ny0 = math.floor((y - base) / g.dy + 0.5)
        for ny in (ny0 - 1, ny0, ny0 + 1):
            cx, cy = raw_centre(g, nx, ny)
            d = (cx - px) ** 2 + (cy - py) ** 2
            if best is None or d < best[0]:
                best = (d, (cx, cy))
    return best[1]


# ------------------------------------------------------------------ zones and the parameter search

def zone_polygon(hexes: Sequence[BoardHex], dx: float, dy: float, sideways: bool) -> list[tuple[int, int]]:
    """A stepped outline around the board's hex columns (each column the rectangle VASSAL's first snapping
    guess uses: ``dx`` wide, from half a hex above its top centre to half a hex below its bottom one), so
    neighbouring boards' zones touch without overlapping and every hex centre lies inside its own board's."""
    cols: dict[int, list[float]] = {}
    for h in hexes:
        x, y = _rot(h.x, h.y, sideways)
        cols.setdefault(round(x * 8), []).append(y)
    keys = sorted(cols)
    spans = [(k / 8, min(cols[k]) - dy / 2, max(cols[k]) + dy / 2) for k in keys]
    top = []
    for cx, y1, _ in spans:
        top += [(cx - dx / 2, y1), (cx + dx / 2, y1)]
    bottom = []
    for cx, _, y2 in reversed(spans):
        bottom += [(cx + dx / 2, y2), (cx - dx / 2, y2)]
    pts = [_rot(x, y, sideways) for x, y in top + bottom]
    out: list[tuple[int, int]] = []
    for x, y in pts:
        p = (_java_round(x), _java_round(y))
        if not out or out[-1] != p:
            out.append(p)
    return out


def polygon_size(poly: Sequence[tuple[int, int]]) -> tuple[int, int]:
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return max(xs) - min(xs), max(ys) - min(ys)


def inside(poly: Sequence[tuple[int, int]], x: float, y: float) -> bool:
    """Even-odd point-in-polygon test (as ``java.awt.Polygon.contains`` for interior points)."""
    hit = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


@dataclass(frozen=True)
class LabelStyle:
    """How the studio numbers the board: column letters or digits, row digits, the first number."""

    alpha: bool
    digits: int = 2
    first: int = 1


def _wanted(h: BoardHex, style: LabelStyle) -> tuple[int, int]:
    col = h.col if style.alpha else h.col + style.first
    return col, h.row + (1 if style.alpha else style.first)


def _candidates(hexes: Sequence[BoardHex], dy: float, sideways: bool, rotated: bool):
    dx = dy * SQRT3_2
    ref = min(hexes, key=lambda h: (h.col, h.row))
    rx, ry = _rot(ref.x, ref.y, sideways)
    origins = [(rx, ry), (rx - dx, ry - dy / 2), (rx - dx, ry + dy / 2)]
    for ox, oy in origins:
        for stagger in (False, True):
            yield VassalGrid(dx, dy, _java_round(ox), _java_round(oy), sideways, stagger, rotated, rotated)


def _with_numbering(g: VassalGrid, hexes: Sequence[BoardHex], style: LabelStyle, size) -> VassalGrid:
    ctype = "A" if style.alpha else "N"
    lead = 0 if style.alpha else style.digits - 1
    ref = hexes[0]
    want_c, want_r = _wanted(ref, style)
    px, py = snap_hex(g, ref.x, ref.y)
    vc, vr = column(g, px, py, size), row(g, px, py, size)
    if g.sideways:  # VASSAL's columns run along the real rows
        return replace(g, first="V", v_type=ctype, h_type="N", v_leading=lead, h_leading=0 if style.alpha else lead,
                       h_off=want_r - vc, v_off=want_c - vr)
    return replace(g, first="H", h_type=ctype, v_type="N", h_leading=lead, v_leading=0 if style.alpha else lead,
                   h_off=want_c - vc, v_off=want_r - vr)


def names_match(g: VassalGrid, hexes: Sequence[BoardHex], size, prefix: str = "") -> list[str]:
    """Labels whose VASSAL name (at the snapped centre) differs from the studio's; empty when all match."""
    bad = []
    for h in hexes:
        px, py = snap_hex(g, h.x, h.y)
        if prefix + location_name(g, px, py, size) != h.label:
            bad.append(h.label)
    return bad


def solve_board_grid(hexes: Sequence[BoardHex], dy: float, sideways: bool, rotated: bool, style: LabelStyle,
                     prefix: str, size: tuple[int, int]) -> tuple[VassalGrid, list[str]]:
    """Grid parameters naming every hex as the studio does; ``(grid, mismatched labels)`` (empty = exact)."""
    best: tuple[VassalGrid, list[str]] | None = None
    for g in _candidates(hexes, dy, sideways, rotated):
        g = _with_numbering(g, hexes, style, size)
        bad = names_match(g, hexes, size, prefix)
        if not bad:
            return g, []
        if best is None or len(bad) < len(best[1]):
            best = (g, bad)
    assert best is not None
    return best
