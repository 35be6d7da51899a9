"""Line of sight between two hexes of the map being edited, with where and why it is blocked (the LOS tool).

A thin adapter over :class:`studio.model.los.LosService`, the one LOS implementation the CLI and the engines
use too: it applies the active ruleset's ``los`` block, terrain and hexside heights, and the plugin's own LOS
hook. The edited (possibly unsaved) map data is validated first; an invalid map or ruleset gives an answer that
says so instead of a guess.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from studio.model.documents import Map, Ruleset
from studio.model.los import LabelError, LosService
from studio.model.maps import AssemblyError, assemble_single

from .board import Board, Cell


@dataclass
class LosResult:
    cells: list[Cell]
    clear: bool = True
    blocked_at: list[Cell] = field(default_factory=list)
    reason: str = ""
    rule: str = ""
    hindrance: int = 0
    measured: bool = True  # False when the map or ruleset data could not be used


def line_of_sight(board: Board, map_data: Any, ruleset_data: Any, a: Cell, b: Cell) -> LosResult:
    """LOS from ``a`` to ``b`` on the edited map (raw document data) under the ruleset (raw document data)."""
    cells = board.line(a, b)
    try:
        ruleset = Ruleset.model_validate(ruleset_data)
    except ValidationError:
        return LosResult(cells, reason="the map's ruleset has errors; fix them to measure line of sight",
                         measured=False)
    try:
        service = LosService(assemble_single(Map.model_validate(map_data)), ruleset)
        sight = service.check(board.label(a), board.label(b))
    except (ValidationError, AssemblyError, LabelError) as exc:
        first = str(exc).splitlines()[0]
        return LosResult(cells, reason=f"the map has errors ({first}); fix them to measure line of sight",
                         measured=False)
    blocked = [board.parse(label) for label in (sight.blocker or "").split("|") if label]
    reason = ("clear" + (f"; hindrance {sight.hindrance}" if sight.hindrance else "") if sight.clear
              else f"blocked at {sight.blocker}: {sight.reason}")
    return LosResult(cells, sight.clear, [c for c in blocked if c is not None], reason, sight.rule, sight.hindrance)
