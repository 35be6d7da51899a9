"""Line of sight between two hexes of a map, with where and why it is blocked (the LOS tool's model).

Uses ``studio.hexgrid.los.check_los`` (height profile along the hex line). Heights come from the map's elevation
rows and the ruleset's terrain catalogue: a terrain adds ``los.height`` levels above its hex's ground, and a
terrain or hexside feature with ``los.blocks`` but no height counts as one level. The active ruleset's plugin may
supply its LOS choices as ``extras["los_rules"]`` (a ``studio.hexgrid.los.LosRules``); the default is generic.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.hexgrid.los import LosRules, check_los

from .board import Board, Cell
from .catalogue import Catalogue
from .maprows import Grid


@dataclass
class LosResult:
    cells: list[Cell]
    clear: bool = True
    blocked_at: list[Cell] = field(default_factory=list)
    reason: str = ""
    rule: str = ""
    hindrance: int = 0


def _level(elevation: Grid, cell: Cell) -> int:
    try:
        return int(elevation.get(cell))
    except ValueError:
        return 0


def _height(los_height: int, blocks: bool) -> int:
    return los_height if los_height else (1 if blocks else 0)


def line_of_sight(board: Board, terrain: Grid, elevation: Grid, catalogue: Catalogue, a: Cell, b: Cell,
                  hexsides: Any = None, rules: LosRules | None = None) -> LosResult:
    """LOS from ``a`` to ``b``; ``hexsides`` is the map's raw ``hexsides`` list (features by hex and side)."""
    sides: dict[frozenset, int] = {}
    for entry in hexsides if isinstance(hexsides, list) else []:
        if not isinstance(entry, dict):
            continue
        cell, d = board.parse(entry.get("hex")), board.side_index(entry.get("side", ""))
        feature = catalogue.hexside_features.get(entry.get("feature"))
        if cell is None or d is None or feature is None:
            continue
        height = _height(feature.los_height, feature.los_blocks)
        if height:
            key = frozenset((board.axial(cell), board.axial(board.neighbour(cell, d))))
            sides[key] = max(sides.get(key, 0), height)

    def terrain_fn(h):
        cell = board.cell_of_axial(h)
        t = catalogue.terrain.get(terrain.get(cell))
        return (_level(elevation, cell), _height(t.los_height, t.los_blocks) if t else 0)

    def hexside_fn(h1, h2):
        height = sides.get(frozenset((h1, h2)))
        if height is None:
            return None
        return max(_level(elevation, board.cell_of_axial(h1)), _level(elevation, board.cell_of_axial(h2))) + height

    found = check_los(board.axial(a), board.axial(b), terrain_fn, hexside_fn, rules=rules or LosRules())
    cells = board.line(a, b)
    result = LosResult(cells, found.clear, rule=found.rule)
    blocker = found.blocker
    if found.kind == "hex":
        result.blocked_at = [board.cell_of_axial(blocker)]
    elif found.kind in ("hexside", "spine"):
        result.blocked_at = [board.cell_of_axial(h) for h in blocker]
    result.hindrance = sum(catalogue.terrain[c].hindrance for c in (terrain.get(x) for x in cells[1:-1])
                           if c in catalogue.terrain)
    result.reason = _describe(board, terrain, catalogue, found, result)
    return result


def _describe(board: Board, terrain: Grid, catalogue: Catalogue, found, result: LosResult) -> str:
    if found.clear:
        text = f"clear ({found.reason})"
        return text + (f"; hindrance {result.hindrance}" if result.hindrance else "")
    where = " | ".join(board.label(c) for c in result.blocked_at)
    if found.kind == "hex":
        what = catalogue.name_of(terrain.get(result.blocked_at[0]))
        return f"blocked at {where} by {what}: " + found.reason.split(": ", 1)[-1]
    return f"blocked at {where} ({found.kind}): " + found.reason.split(": ", 1)[-1]
