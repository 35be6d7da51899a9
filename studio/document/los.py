"""Line of sight between two hexes of a board, with where and why it is blocked (generic height model).

Model (rule-system neutral; a ruleset plugin may provide its own as ``extras["los"]`` with the same signature):
the sight line runs from ``ground(a) + eye`` to ``ground(b) + eye`` where ``ground`` is the elevation level;
an intermediate hex blocks when its terrain has ``los.blocks`` and its top (ground + terrain height) reaches the
line there, or when its top rises above the line (a crest). Hindrance points of the hexes crossed are summed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .board import Board, Cell
from .catalogue import Catalogue
from .maprows import Grid

EYE = 0.5  # levels above the ground a viewer stands


@dataclass
class LosResult:
    cells: list[Cell]
    blocked_at: Cell | None = None
    reason: str = ""
    hindrance: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def clear(self) -> bool:
        return self.blocked_at is None


def _level(elevation: Grid, cell: Cell) -> int:
    try:
        return int(elevation.get(cell))
    except ValueError:
        return 0


def line_of_sight(board: Board, terrain: Grid, elevation: Grid, catalogue: Catalogue, a: Cell, b: Cell) -> LosResult:
    cells = board.line(a, b)
    result = LosResult(cells)
    n = len(cells) - 1
    if n < 1:
        result.reason = "same hex"
        return result
    ha, hb = _level(elevation, a) + EYE, _level(elevation, b) + EYE
    for i, cell in enumerate(cells[1:-1], start=1):
        sight = ha + (hb - ha) * i / n
        ground = _level(elevation, cell)
        code = terrain.get(cell)
        t = catalogue.terrain.get(code)
        top = ground + (t.los_height if t else 0)
        label = board.label(cell)
        if t and t.los_blocks and top + (1 if t.los_height == 0 else 0) >= sight:
            result.blocked_at, result.reason = cell, (f"{t.name} in {label} blocks line of sight "
                                                      f"(top level {top}, line at {sight:.1f})")
            break
        if ground > sight:
            result.blocked_at, result.reason = cell, (f"ground in {label} (level {ground}) rises above the line "
                                                      f"of sight ({sight:.1f})")
            break
        if t and t.hindrance:
            result.hindrance += t.hindrance
            result.notes.append(f"{t.name} in {label}: hindrance {t.hindrance}")
    if result.clear:
        result.reason = f"clear over {n} hexes" + (f", hindrance {result.hindrance}" if result.hindrance else "")
    return result
