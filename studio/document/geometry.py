"""Hex geometry sources for map views: one editable board, or a scenario's assembled boards.

Both expose the same small protocol used by the Qt scene: ``keys()``, ``corners(key)``, ``corner_offsets()`` (the
hexagon around a centre, the same for every hex), ``centre(key)``,
``key_at(x, y)`` (None off the map), ``label(key)``, ``key_of_label(label)`` (None when unknown), ``terrain(key)``,
``elevation(key)``, ``hex_mm``. Keys are board cells ``(col, row)`` for a board and axial hexes for an assembly.
"""
from __future__ import annotations

from typing import Any, Iterable

from studio.hexgrid.layout import Layout
from studio.model.maps import AssembledMap

from .board import Board
from .maprows import Grid, split_row


class BoardGeometry:
    """A single board from raw map data (re-read with ``reload`` after edits)."""

    def __init__(self, data: Any):
        self.reload(data)

    def reload(self, data: Any) -> None:
        self.data = data if isinstance(data, dict) else {}
        self.board = Board.from_spec(self.data.get("hex"))
        self.terrain_grid = Grid(self.data.get("terrain"))
        self.elevation_grid = Grid(self.data.get("elevation"), "0")

    def reload_rows(self, rows: Iterable[int] | None = None) -> list | None:
        """Re-read the terrain and elevation rows (only ``rows`` when given and the row count is unchanged).

        Returns the cells whose terrain or elevation changed, or None when everything was re-read."""
        terrain, elevation = self.data.get("terrain"), self.data.get("elevation")
        if rows is None or not isinstance(terrain, list) or not isinstance(elevation, list) \
                or len(terrain) != len(self.terrain_grid.rows) or len(elevation) != len(self.elevation_grid.rows):
            self.terrain_grid = Grid(terrain)
            self.elevation_grid = Grid(elevation, "0")
            return None
        changed = []
        for r in rows:
            for grid, source in ((self.terrain_grid, terrain), (self.elevation_grid, elevation)):
                if 0 <= r < len(source):
                    old, new = grid.rows[r], split_row(source[r])
                    if old != new:
                        grid.rows[r] = new
                        changed += [(c, r) for c in range(max(len(old), len(new)))
                                    if c >= len(old) or c >= len(new) or old[c] != new[c]]
        return changed

    @property
    def hex_mm(self) -> float:
        return self.board.hex_mm

    def keys(self) -> Iterable:
        return self.board.cells()

    def corners(self, key):
        return self.board.corners(key)

    def corner_offsets(self):
        return [self.board.layout.corner_offset(i) for i in range(6)]

    def centre(self, key):
        return self.board.centre(key)

    def key_at(self, x: float, y: float):
        return self.board.cell_at(x, y)

    def label(self, key) -> str:
        return self.board.label(key)

    def key_of_label(self, label: Any):
        return self.board.parse(label)

    def terrain(self, key) -> str:
        return self.terrain_grid.get(key)

    def elevation(self, key) -> int:
        try:
            return int(self.elevation_grid.get(key))
        except ValueError:
            return 0


class AssembledGeometry:
    """Boards assembled by ``studio.model.maps.assemble`` (read-only terrain)."""

    def __init__(self, assembled: AssembledMap):
        self.map = assembled
        self.layout = Layout(flat=assembled.orientation != "pointy", size_mm=assembled.hex_mm)

    @property
    def hex_mm(self) -> float:
        return self.map.hex_mm

    def keys(self) -> Iterable:
        return self.map.label_of.keys()

    def corners(self, key):
        return self.layout.corners(key)

    def corner_offsets(self):
        return [self.layout.corner_offset(i) for i in range(6)]

    def centre(self, key):
        return self.layout.to_mm(key)

    def key_at(self, x: float, y: float):
        h = self.layout.from_mm(x, y)
        return h if h in self.map.label_of else None

    def label(self, key) -> str:
        return self.map.label_of.get(key, "?")

    def key_of_label(self, label: Any):
        return self.map.hex_of.get(label) if isinstance(label, str) else None

    def terrain(self, key) -> str:
        return self.map.terrain.get(key, "")

    def elevation(self, key) -> int:
        return self.map.elevation.get(key, 0)
