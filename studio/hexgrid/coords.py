"""Axial hex coordinates, offset conversions, neighbours, distance, rings, board rotation.

Representation (decision): a hex is a plain ``tuple[int, int]`` ``(q, r)`` in *axial*
coordinates.  Tuples are hashable, compare and sort deterministically, and cost nothing to
build, which matters in engine hot loops.  The implied third cube coordinate is
``s = -q - r``.

Direction indices are shared by both orientations and run clockwise on screen/print
(y grows downwards)::

    index  axial     flat-top name  pointy-top name
    0      (0, -1)   N              NW
    1      (+1, -1)  NE             NE
    2      (+1, 0)   SE             E
    3      (0, +1)   S              SE
    4      (-1, +1)  SW             SW
    5      (-1, 0)   NW             W

Offset conventions (col, row), 0-based:

* ``"odd-q"`` / ``"even-q"``: flat-top hexes in vertical columns; odd (even) columns are
  shoved down half a hex.
* ``"odd-r"`` / ``"even-r"``: pointy-top hexes in horizontal rows; odd (even) rows are
  shoved right half a hex.

Range in all supported rule systems is this hex distance: count the target hex, not the
firer's hex (MBT 3.5.1, WaW 6.1, Assault R11.A.1; adjacent = 1).
"""

from __future__ import annotations

from typing import Iterator

Hex = tuple[int, int]
Cube = tuple[int, int, int]

DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
FLAT_DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
POINTY_DIRECTION_NAMES: tuple[str, ...] = ("NW", "NE", "E", "SE", "SW", "W")
OFFSET_KINDS: tuple[str, ...] = ("odd-q", "even-q", "odd-r", "even-r")


def to_cube(h: Hex) -> Cube:
    """Axial -> cube ``(q, r, s)`` with ``q + r + s == 0``.

    >>> to_cube((2, -3))
    (2, -3, 1)
    """
    return (h[0], h[1], -h[0] - h[1])


def from_cube(c: Cube) -> Hex:
    """Cube -> axial (drops ``s``; raises ValueError if the coordinates do not sum to 0).

    >>> from_cube((2, -3, 1))
    (2, -3)
    """
    if c[0] + c[1] + c[2] != 0:
        raise ValueError(f"cube coordinates {c!r} do not sum to 0")
    return (c[0], c[1])


def add(a: Hex, b: Hex) -> Hex:
    """Component-wise sum.

    >>> add((1, 2), (0, -1))
    (1, 1)
    """
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    """Component-wise difference ``a - b``.

    >>> sub((1, 2), (0, -1))
    (1, 3)
    """
    return (a[0] - b[0], a[1] - b[1])


def neighbour(h: Hex, direction: int) -> Hex:
    """The adjacent hex across hexside ``direction`` (taken modulo 6).

    >>> neighbour((0, 0), 0), neighbour((0, 0), 8)
    ((0, -1), (1, 0))
    """
    d = DIRECTIONS[direction % 6]
    return (h[0] + d[0], h[1] + d[1])


def neighbours(h: Hex) -> list[Hex]:
    """The 6 adjacent hexes in direction order 0..5.

    >>> neighbours((0, 0))
    [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
    """
    q, r = h
    return [(q, r - 1), (q + 1, r - 1), (q + 1, r), (q, r + 1), (q - 1, r + 1), (q - 1, r)]


def distance(a: Hex, b: Hex) -> int:
    """Hex distance (range): steps between ``a`` and ``b``; 0 for the same hex.

    >>> distance((0, 0), (1, 0)), distance((0, 0), (3, -1)), distance((2, 2), (2, 2))
    (1, 3, 0)
    """
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    ds = dq + dr
    if dq < 0:
        dq = -dq
    if dr < 0:
        dr = -dr
    if ds < 0:
        ds = -ds
    return dq if dq >= dr and dq >= ds else (dr if dr >= ds else ds)


def adjacent(a: Hex, b: Hex) -> bool:
    """True if ``a`` and ``b`` share a hexside.

    >>> adjacent((0, 0), (1, -1)), adjacent((0, 0), (1, 1))
    (True, False)
    """
    return distance(a, b) == 1


def direction_between(a: Hex, b: Hex) -> int:
    """Direction index from ``a`` to the *adjacent* hex ``b`` (ValueError if not adjacent).

    >>> direction_between((0, 0), (1, 0))
    2
    """
    try:
        return DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))
    except ValueError:
        raise ValueError(f"{b!r} is not adjacent to {a!r}") from None


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly ``radius`` from ``center``, clockwise starting in direction 4 * radius.

    Radius 0 gives ``[center]``; a ring of radius n >= 1 has 6n hexes.

    >>> len(ring((0, 0), 3)), ring((5, 5), 0)
    (18, [(5, 5)])
    """
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    d4 = DIRECTIONS[4]
    q, r = center[0] + d4[0] * radius, center[1] + d4[1] * radius
    out: list[Hex] = []
    for i in range(6):
        dq, dr = DIRECTIONS[i]
        for _ in range(radius):
            out.append((q, r))
            q += dq
            r += dr
    return out


def spiral(center: Hex, radius: int) -> Iterator[Hex]:
    """All hexes within ``radius``, centre first, then ring by ring.

    >>> list(spiral((0, 0), 1))[:3]
    [(0, 0), (-1, 1), (-1, 0)]
    """
    for k in range(radius + 1):
        yield from ring(center, k)


def within(center: Hex, radius: int) -> list[Hex]:
    """All hexes at distance <= ``radius`` (sorted by q then r): 3n(n+1)+1 hexes.

    >>> len(within((0, 0), 2)), within((0, 0), 0)
    (19, [(0, 0)])
    """
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    cq, cr = center
    out: list[Hex] = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append((cq + dq, cr + dr))
    return out


# --- offset coordinates -------------------------------------------------------------------


def _check_kind(kind: str) -> None:
    if kind not in OFFSET_KINDS:
        raise ValueError(f"unknown offset kind {kind!r}; expected one of {', '.join(OFFSET_KINDS)}")


def offset_to_axial(col: int, row: int, kind: str) -> Hex:
    """Offset ``(col, row)`` in convention ``kind`` -> axial.

    >>> offset_to_axial(1, 0, "odd-q"), offset_to_axial(1, 0, "even-q")
    ((1, 0), (1, -1))
    >>> offset_to_axial(0, 1, "odd-r"), offset_to_axial(0, 1, "even-r")
    ((0, 1), (-1, 1))
    """
    if kind == "odd-q":
        return (col, row - ((col - (col & 1)) >> 1))
    if kind == "even-q":
        return (col, row - ((col + (col & 1)) >> 1))
    if kind == "odd-r":
        return (col - ((row - (row & 1)) >> 1), row)
    if kind == "even-r":
        return (col - ((row + (row & 1)) >> 1), row)
    _check_kind(kind)
    raise AssertionError  # pragma: no cover


def axial_to_offset(h: Hex, kind: str) -> tuple[int, int]:
    """Axial -> offset ``(col, row)`` in convention ``kind`` (inverse of offset_to_axial).

    >>> axial_to_offset((1, -1), "even-q"), axial_to_offset((-1, 1), "even-r")
    ((1, 0), (0, 1))
    """
    q, r = h
    if kind == "odd-q":
        return (q, r + ((q - (q & 1)) >> 1))
    if kind == "even-q":
        return (q, r + ((q + (q & 1)) >> 1))
    if kind == "odd-r":
        return (q + ((r - (r & 1)) >> 1), r)
    if kind == "even-r":
        return (q + ((r + (r & 1)) >> 1), r)
    _check_kind(kind)
    raise AssertionError  # pragma: no cover


def is_flat(kind: str) -> bool:
    """True for the flat-top (column) conventions ``odd-q``/``even-q``.

    >>> is_flat("odd-q"), is_flat("even-r")
    (True, False)
    """
    _check_kind(kind)
    return kind.endswith("q")


# --- board rotation (geomorphic assembly) -------------------------------------------------


def rotated_offset_kind(kind: str, cols: int, rows: int) -> str:
    """Offset convention of a ``cols`` x ``rows`` board after a 180-degree turn.

    Turning swaps which columns (rows) are shoved, unless the count along the shoved axis
    is even: an odd-q board with an odd number of columns becomes even-q.

    >>> rotated_offset_kind("odd-q", 10, 7), rotated_offset_kind("odd-q", 11, 7)
    ('odd-q', 'even-q')
    """
    _check_kind(kind)
    n = cols if kind.endswith("q") else rows
    if n % 2 == 0:
        return kind
    return ("even" if kind.startswith("odd") else "odd") + kind[kind.index("-"):]


def rotate_offset_180(col: int, row: int, cols: int, rows: int) -> tuple[int, int]:
    """Offset cell of a board turned 180 degrees: ``(cols-1-col, rows-1-row)``.

    The turned board uses ``rotated_offset_kind(kind, cols, rows)``.

    >>> rotate_offset_180(0, 0, 10, 7)
    (9, 6)
    """
    return (cols - 1 - col, rows - 1 - row)


def rotate_180(h: Hex, cols: int, rows: int, kind: str) -> Hex:
    """Axial hex of a board (offset ``kind``, origin cell (0, 0)) turned 180 degrees in place.

    The result is the axial position the hex occupies after the turn, in the frame of the
    *turned* board, whose convention is ``rotated_offset_kind(kind, cols, rows)``.  When the
    shoved dimension is even this is a point reflection mapping the board onto itself.
    Turning again (with the turned convention) returns the original hex.

    >>> rotate_180((0, 0), 10, 7, "odd-q")
    (9, 2)
    >>> rotate_180(rotate_180((3, 1), 11, 7, "odd-q"), 11, 7, "even-q")
    (3, 1)
    """
    col, row = axial_to_offset(h, kind)
    c2, r2 = rotate_offset_180(col, row, cols, rows)
    return offset_to_axial(c2, r2, rotated_offset_kind(kind, cols, rows))


def rotate_axial_180(h: Hex, center: Hex) -> Hex:
    """Point reflection of ``h`` through hex ``center`` (a 180-degree turn of the grid).

    >>> rotate_axial_180((2, 1), (0, 0))
    (-2, -1)
    """
    return (2 * center[0] - h[0], 2 * center[1] - h[1])
