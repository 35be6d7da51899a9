"""Geometry of one hex board as the editors need it, in offset cells ``(col, row)`` and millimetres.

A thin adapter over ``studio.hexgrid`` (the only module of this package that knows its API): offset convention
from the map's ``hex`` spec, hex centre/corners in mm, picking, labels both ways, hexside names, neighbours,
brush discs and hex lines. Cells outside the board are never returned by ``cell_at``/``disc``/``line``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from studio.hexgrid import coords
from studio.hexgrid.labels import AlphaNumericLabels, NumericLabels
from studio.hexgrid.layout import Layout
from studio.hexgrid.lines import hex_line

Cell = tuple[int, int]


@dataclass(frozen=True)
class Board:
    columns: int
    rows: int
    flat: bool = True
    offset: str = "even"
    labels: str = "four_digit"
    board_id: str = ""
    hex_mm: float = 19.0
    rotate: int = 0

    @classmethod
    def from_spec(cls, spec: dict[str, Any] | None, rotate: int = 0) -> "Board":
        """Board of a map's ``hex`` block (raw data; missing/bad values fall back to defaults)."""
        spec = spec if isinstance(spec, dict) else {}

        def num(key, default, lo, hi):
            value = spec.get(key, default)
            return value if isinstance(value, (int, float)) and not isinstance(value, bool) and lo <= value <= hi \
                else default
        return cls(columns=int(num("columns", 1, 1, 500)), rows=int(num("rows", 1, 1, 500)),
                   flat=spec.get("orientation", "flat") != "pointy",
                   offset="odd" if spec.get("offset") == "odd" else "even",
                   labels="alphanumeric" if spec.get("labels") in ("alphanumeric", "mbt") else "four_digit",
                   board_id=str(spec.get("board", "") or ""), hex_mm=float(num("hex_mm", 19.0, 0.1, 1000)),
                   rotate=180 if rotate == 180 else 0)

    # ---------------------------------------------------------------- conventions
    @property
    def kind(self) -> str:
        return f"{self.offset}-{'q' if self.flat else 'r'}"

    @cached_property
    def layout(self) -> Layout:
        return Layout(flat=self.flat, size_mm=self.hex_mm)

    @cached_property
    def _labeller(self):
        if self.labels == "alphanumeric":
            return AlphaNumericLabels(board_ids=(self.board_id,), cols=self.columns, rows=self.rows,
                                      partial_row=False)
        digits = 2 if max(self.columns, self.rows) < 100 else 3
        return NumericLabels(digits=digits, board_ids=(self.board_id,) if self.board_id else None,
                             cols=self.columns, rows=self.rows)

    @property
    def side_names(self) -> tuple[str, ...]:
        return coords.FLAT_DIRECTION_NAMES if self.flat else coords.POINTY_DIRECTION_NAMES

    # ---------------------------------------------------------------- cells
    def contains(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.columns and 0 <= cell[1] < self.rows

    def cells(self):
        return ((c, r) for r in range(self.rows) for c in range(self.columns))

    def _shown(self, cell: Cell) -> Cell:
        """Where a board cell sits on screen (a 180-degree turn mirrors it)."""
        if self.rotate == 180:
            return coords.rotate_offset_180(cell[0], cell[1], self.columns, self.rows)
        return cell

    def _shown_kind(self) -> str:
        return coords.rotated_offset_kind(self.kind, self.columns, self.rows) if self.rotate == 180 else self.kind

    def axial(self, cell: Cell) -> coords.Hex:
        c, r = self._shown(cell)
        return coords.offset_to_axial(c, r, self._shown_kind())

    def cell_of_axial(self, h: coords.Hex) -> Cell:
        shown = coords.axial_to_offset(h, self._shown_kind())
        return self._shown(shown)  # the turn is its own inverse

    def centre(self, cell: Cell) -> tuple[float, float]:
        return self.layout.to_mm(self.axial(cell))

    def corners(self, cell: Cell) -> list[tuple[float, float]]:
        return self.layout.corners(self.axial(cell))

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The board cell under point (x, y) mm, or None off the board."""
        cell = self.cell_of_axial(self.layout.from_mm(x, y))
        return cell if self.contains(cell) else None

    def nearest_side(self, cell: Cell, x: float, y: float) -> int:
        """Direction index (0..5) of the hexside of ``cell`` nearest to point (x, y)."""
        h = self.axial(cell)
        best, best_d = 0, float("inf")
        for d in range(6):
            mx, my = self.layout.hexside_midpoint(h, d)
            dist = (mx - x) ** 2 + (my - y) ** 2
            if dist < best_d:
                best, best_d = d, dist
        return self._board_direction(best)

    def _board_direction(self, shown_direction: int) -> int:
        return (shown_direction + 3) % 6 if self.rotate == 180 else shown_direction

    def side_segment(self, cell: Cell, direction: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """End points (mm) of hexside ``direction`` (board frame) of ``cell``."""
        shown = (direction + 3) % 6 if self.rotate == 180 else direction
        corners = self.corners(cell)
        return corners[shown], corners[(shown + 1) % 6]

    def neighbour(self, cell: Cell, direction: int) -> Cell:
        shown = (direction + 3) % 6 if self.rotate == 180 else direction
        return self.cell_of_axial(coords.neighbour(self.axial(cell), shown))

    def neighbours(self, cell: Cell) -> list[Cell]:
        return [n for n in (self.neighbour(cell, d) for d in range(6)) if self.contains(n)]

    def disc(self, cell: Cell, size: int) -> list[Cell]:
        """Brush footprint: the hexes within ``size - 1`` of ``cell`` (size 1 = the hex itself)."""
        out = [self.cell_of_axial(h) for h in coords.within(self.axial(cell), max(0, size - 1))]
        return [c for c in out if self.contains(c)]

    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """Hexes from ``a`` to ``b`` inclusive along the hex line."""
        return [self.cell_of_axial(h) for h in hex_line(self.axial(a), self.axial(b))]

    def distance(self, a: Cell, b: Cell) -> int:
        return coords.distance(self.axial(a), self.axial(b))

    # ---------------------------------------------------------------- labels
    def label(self, cell: Cell) -> str:
        try:
            return self._labeller.format(self.board_id, cell[0], cell[1])
        except ValueError:
            return f"{self.board_id}?{cell[0]},{cell[1]}"

    def parse(self, label: Any) -> Cell | None:
        """Cell of a hex label on this board, or None when the label is not one of its hexes."""
        if not isinstance(label, str):
            return None
        try:
            _, col, row = self._labeller.parse(label)
        except ValueError:
            return None
        return (col, row) if self.contains((col, row)) else None

    def side_name(self, direction: int) -> str:
        return self.side_names[direction % 6]

    def side_index(self, name: str) -> int | None:
        return self.side_names.index(name) if name in self.side_names else None

    def extent(self) -> tuple[float, float, float, float]:
        """Bounding box (x0, y0, x1, y1) in mm of all hexes."""
        xs, ys = [], []
        for cell in ((0, 0), (self.columns - 1, 0), (0, self.rows - 1), (self.columns - 1, self.rows - 1),
                     (1, 0), (self.columns - 2, self.rows - 1), (0, 1), (self.columns - 1, self.rows - 2)):
            if self.contains(cell):
                for x, y in self.corners(cell):
                    xs.append(x)
                    ys.append(y)
        return min(xs), min(ys), max(xs), max(ys)
