"""Row-encoded hex grids (``terrain``/``elevation``: one text row per hex row, space-separated codes).

``Grid`` is a read view over the rows of a map; ``set_cells`` returns the ops that change cells, each
touched row rewritten in its own column alignment (codes left-justified to a common width when the row pads
them, single spaces otherwise), so an edit changes only the cells edited and a save diffs only those rows.
Only the touched rows are examined, so the cost of an edit does not grow with the map.
"""
from __future__ import annotations

from typing import Iterable

from .ops import Insert, Op, Set

Cell = tuple[int, int]


def split_row(row: object) -> list[str]:
    return row.split() if isinstance(row, str) else []


def detect_width(rows: list) -> int:
    """Column width the rows are written with: the widest code if the rows are padded to it, else 0."""
    cells = [split_row(r) for r in rows]
    widest = max((len(c) for row in cells for c in row), default=1)
    if widest > 1 and any(format_row(row, widest) == text for row, text in zip(cells, rows) if row):
        return widest
    return 0


def row_width(text: object, widest_hint: int = 1) -> int:
    """Column width one row is written with (codes left-justified to it), or 0 for single spaces."""
    codes = split_row(text)
    if not codes:
        return 0
    for width in range(max(2, max(len(c) for c in codes)), 5):
        if format_row(codes, width) == text:
            return width
    return 0


def format_row(codes: list[str], width: int) -> str:
    if width <= 1:
        return " ".join(codes)
    return " ".join(c.ljust(width) for c in codes).rstrip()


class Grid:
    """Cells of one row-encoded field. Missing rows/cells read as ``default``."""

    def __init__(self, rows: object, default: str = ""):
        self.rows = [split_row(r) for r in rows] if isinstance(rows, list) else []
        self.default = default

    def get(self, cell: Cell) -> str:
        col, row = cell
        if 0 <= row < len(self.rows) and 0 <= col < len(self.rows[row]):
            return self.rows[row][col]
        return self.default


def set_cells(field: str, rows: object, cells: Iterable[Cell], value: str, columns: int,
              default: str) -> list[Op]:
    """Ops setting ``cells`` of ``/field`` to ``value``; short or missing rows are padded with ``default``.

    Only rows whose cells change get an op; the whole field is set when it is missing or not a list.
    """
    present = isinstance(rows, list)
    rows = rows if present else []
    by_row: dict[int, list[int]] = {}
    for col, row in cells:
        if 0 <= col < columns and row >= 0:
            by_row.setdefault(row, []).append(col)
    missing = max(by_row, default=-1) + 1 - len(rows)
    new_rows = list(rows) + ([format_row([default] * columns, detect_width(rows))] * missing if missing > 0 else [])
    changed: set[int] = set()
    for row, cols in by_row.items():
        old = split_row(new_rows[row])
        codes = old + [default] * (columns - len(old))
        for col in cols:
            codes[col] = value
        if codes != old:
            changed.add(row)
            width = row_width(new_rows[row])
            new_rows[row] = format_row(codes, max(width, len(value)) if width else 0)
    if not present:
        return [Set(f"/{field}", new_rows)]
    ops: list[Op] = [Set(f"/{field}/{r}", new_rows[r]) for r in sorted(changed) if r < len(rows)]
    ops += [Insert(f"/{field}/{r}", new_rows[r]) for r in range(len(rows), len(new_rows))]
    return ops
