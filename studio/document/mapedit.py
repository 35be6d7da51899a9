"""The edits of the map editor as pure functions: map data (+ board) in, ops out. Nothing here applies them.

Every function accepts possibly invalid map data and returns an empty list rather than raising when there is
nothing sensible to do. Hexes are board cells ``(col, row)``; the data stores hex labels (``2E9``/``0405``).
"""
from __future__ import annotations

from typing import Any

from .board import Board, Cell
from .maprows import Grid, set_cells
from .ops import Insert, Op, Remove, Set


def board_of(data: Any, rotate: int = 0) -> Board:
    return Board.from_spec(data.get("hex") if isinstance(data, dict) else None, rotate)


def terrain_grid(data: Any) -> Grid:
    return Grid(data.get("terrain") if isinstance(data, dict) else None, "")


def elevation_grid(data: Any) -> Grid:
    return Grid(data.get("elevation") if isinstance(data, dict) else None, "0")


def paint_terrain(data: dict, board: Board, cells: list[Cell], code: str, default: str) -> list[Op]:
    return set_cells("terrain", data.get("terrain"), cells, code, board.columns, default)


def paint_elevation(data: dict, board: Board, cells: list[Cell], level: int) -> list[Op]:
    return set_cells("elevation", data.get("elevation"), cells, str(int(level)), board.columns, "0")


def fill_region(data: dict, board: Board, start: Cell) -> list[Cell]:
    """Cells connected to ``start`` with the same terrain code (flood fill region)."""
    grid = terrain_grid(data)
    if not board.contains(start):
        return []
    code = grid.get(start)
    seen, todo = {start}, [start]
    while todo:
        cell = todo.pop()
        for n in board.neighbours(cell):
            if n not in seen and grid.get(n) == code:
                seen.add(n)
                todo.append(n)
    return sorted(seen)


def _entries(data: dict, key: str) -> list:
    value = data.get(key)
    return value if isinstance(value, list) else []


def _find_side(data: dict, board: Board, cell: Cell, direction: int) -> int | None:
    """Index of the hexsides entry for this side (stored on either of the two hexes sharing it)."""
    other = board.neighbour(cell, direction)
    wanted = {(board.label(cell), board.side_name(direction)),
              (board.label(other), board.side_name(direction + 3))}
    for i, entry in enumerate(_entries(data, "hexsides")):
        if isinstance(entry, dict) and (entry.get("hex"), entry.get("side")) in wanted:
            return i
    return None


def toggle_hexside(data: dict, board: Board, cell: Cell, direction: int, feature: str) -> list[Op]:
    """Put ``feature`` on the hexside, replace another feature there, or remove it when it is already there."""
    if not board.contains(cell):
        return []
    i = _find_side(data, board, cell, direction)
    if i is None:
        entry = {"hex": board.label(cell), "side": board.side_name(direction), "feature": feature}
        return [Insert("/hexsides/-", entry)] if "hexsides" in data else [Set("/hexsides", [entry])]
    if data["hexsides"][i].get("feature") == feature:
        return [Remove(f"/hexsides/{i}")]
    return [Set(f"/hexsides/{i}/feature", feature)]


def add_road(data: dict, board: Board, cells: list[Cell], road_type: str) -> list[Op]:
    """A new road through ``cells`` (consecutive duplicates dropped; needs two hexes)."""
    path: list[Cell] = []
    for cell in cells:
        if board.contains(cell) and (not path or path[-1] != cell):
            path.append(cell)
    if len(path) < 2:
        return []
    taken = {e.get("id") for e in _entries(data, "roads") if isinstance(e, dict)}
    n = len(taken) + 1
    while f"road-{n}" in taken:
        n += 1
    entry = {"id": f"road-{n}", "type": road_type, "hexes": [board.label(c) for c in path]}
    return [Insert("/roads/-", entry)] if "roads" in data else [Set("/roads", [entry])]


def set_label(data: dict, board: Board, cell: Cell, text: str) -> list[Op]:
    """Set, change or (empty text) remove the label of a hex."""
    if not board.contains(cell):
        return []
    hex_label = board.label(cell)
    for i, entry in enumerate(_entries(data, "labels")):
        if isinstance(entry, dict) and entry.get("hex") == hex_label:
            if not text:
                return [Remove(f"/labels/{i}")]
            return [] if entry.get("text") == text else [Set(f"/labels/{i}/text", text)]
    if not text:
        return []
    entry = {"hex": hex_label, "text": text}
    return [Insert("/labels/-", entry)] if "labels" in data else [Set("/labels", [entry])]
