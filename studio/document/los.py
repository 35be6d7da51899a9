"""Line of sight between two hexes of the map being edited, with where and why it is blocked (the LOS tool).

A thin adapter over :class:`studio.model.los.LosService`, the one LOS implementation the CLI and the engines
use too: it applies the active ruleset's ``los`` block, terrain and hexside heights, and the plugin's own LOS
hook. The edited (possibly unsaved) map data is validated first; an invalid map or ruleset gives an answer that
says so instead of a guess.

The validated service is kept per document version (a few versions): queries on an unchanged document neither
re-validate nor rebuild it. A caller that knows its documents' versions passes ``version``; otherwise the
version is the content of the raw data itself (a ``marshal`` snapshot, a fraction of a millisecond).
"""
from __future__ import annotations

import marshal
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Hashable

from pydantic import ValidationError

from studio.model.documents import Map, Ruleset
from studio.model.los import LabelError, LosService
from studio.model.maps import AssemblyError, assemble_single

from .board import Board, Cell

#: LOS services (or the reason there is none) of the last few document versions
_SERVICES: OrderedDict[Hashable, "LosService | str"] = OrderedDict()
_KEEP = 4


@dataclass
class LosResult:
    cells: list[Cell]
    clear: bool = True
    blocked_at: list[Cell] = field(default_factory=list)
    reason: str = ""
    rule: str = ""
    hindrance: int = 0
    measured: bool = True  # False when the map or ruleset data could not be used


def _version_of(map_data: Any, ruleset_data: Any) -> Hashable | None:
    """The content of both documents as a hashable snapshot; None when the data is not plain YAML data."""
    try:
        return (marshal.dumps(map_data), marshal.dumps(ruleset_data))
    except ValueError:
        return None


def _build(map_data: Any, ruleset_data: Any) -> LosService | str:
    """The LOS service of the edited map, or the reason it cannot be measured."""
    try:
        ruleset = Ruleset.model_validate(ruleset_data)
    except ValidationError:
        return "the map's ruleset has errors; fix them to measure line of sight"
    try:
        return LosService(assemble_single(Map.model_validate(map_data)), ruleset)
    except (ValidationError, AssemblyError) as exc:
        first = str(exc).splitlines()[0]
        return f"the map has errors ({first}); fix them to measure line of sight"


def los_service(map_data: Any, ruleset_data: Any, version: Hashable | None = None) -> LosService | str:
    """The (cached) LOS service of this version of the map and ruleset data, or why there is none.

    ``version``: anything hashable that changes whenever either document changes (e.g. their edit-history
    serials); None: the data's content is the version."""
    key = ("v", version) if version is not None else _version_of(map_data, ruleset_data)
    if key is None:
        return _build(map_data, ruleset_data)
    found = _SERVICES.get(key)
    if found is None:
        found = _SERVICES[key] = _build(map_data, ruleset_data)
        while len(_SERVICES) > _KEEP:
            _SERVICES.popitem(last=False)
    else:
        _SERVICES.move_to_end(key)
    return found


def line_of_sight(board: Board, map_data: Any, ruleset_data: Any, a: Cell, b: Cell,
                  version: Hashable | None = None) -> LosResult:
    """LOS from ``a`` to ``b`` on the edited map (raw document data) under the ruleset (raw document data);
    ``version`` as :func:`los_service`."""
    cells = board.line(a, b)
    service = los_service(map_data, ruleset_data, version)
    if isinstance(service, str):
        return LosResult(cells, reason=service, measured=False)
    try:
        sight = service.check(board.label(a), board.label(b))
    except LabelError as exc:
        first = str(exc).splitlines()[0]
        return LosResult(cells, reason=f"the map has errors ({first}); fix them to measure line of sight",
                         measured=False)
    blocked = [board.parse(label) for label in (sight.blocker or "").split("|") if label]
    reason = ("clear" + (f"; hindrance {sight.hindrance}" if sight.hindrance else "") if sight.clear
              else f"blocked at {sight.blocker}: {sight.reason}")
    return LosResult(cells, sight.clear, [c for c in blocked if c is not None], reason, sight.rule, sight.hindrance)
