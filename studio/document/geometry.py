"""Hex geometry sources for map views: one editable board, or a scenario's assembled boards.

Both expose the same small protocol used by the Qt scene: ``keys()``, ``corners(key)``, ``centre(key)``,
``key_at(x, y)`` (None off the map), ``label(key)``, ``key_of_label(label)`` (None when unknown), ``terrain(key)``,
``elevation(key)``, ``hex_mm``. Keys are board cells ``(col, row)`` for a board and axial hexes for an assembly.
"""
from __future__ import annotations

from typing import Any, Iterable

from studio.hexgrid.layout import Layout
from studio.model.maps import AssembledMap

from .board import Board
from .maprows import Grid


class BoardGeometry:
    """A single board from raw map data (re-read with ``reload`` after edits)."""

    def __init__(self, data: Any):
        self.reload(data)

    def reload(self, data: Any) -> None:
        self.data = data if isinstance(data, dict) else {}
        self.board = Board.from_spec(self.data.get("hex"))
        self.terrain_grid = Grid(self.data.get("terrain"))
        self.elevation_grid = Grid(self.data.get("elevation"), "0")

    def reload_rows(self) -> None:
        self.terrain_grid = Grid(self.data.get("terrain"))
        self.elevation_grid = Grid(self.data.get("elevation"), "0")

    @property
    def hex_mm(self) -> float:
        return self.board.hex_mm

    def keys(self) -> Iterable:
        return self.board.cells()

    def corners(self, key):
        return self.board.corners(key)

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
