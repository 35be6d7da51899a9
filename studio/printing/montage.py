"""A montage page: front and back of one counter per unit (and optionally cards), captioned, for the docs and
for looking at a whole project's counters at once. Qt-free.

Each unit gets a pair of cells (front, back) drawn by :func:`~studio.printing.faces.cell_group` at the printed
counter size, with ``bleed`` shown around each side, and its id under the pair.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from studio.model.documents import UnitCard
from studio.model.layout import Layout

from .faces import card_data, cell_group
from .geometry import Rect
from .primitives import Box, Group, Item, Page, Text

GAP = 3.0        # mm between pairs
CAPTION = 3.2    # mm under each pair


def montage_page(units: list[UnitCard], layout_for: Callable[[UnitCard], Layout], size_mm: float, per_row: int = 6,
                 base: Path | None = None, extras: dict[str, dict] | None = None, title: str = "") -> Page:
    """One page holding front and back of every unit in ``units`` at ``size_mm``, ``per_row`` pairs a row;
    ``extras[unit id]`` adds fields such as ``@designation``."""
    pair_w = 2 * size_mm + 1.0
    cols = max(1, min(per_row, len(units)))
    rows = -(-len(units) // cols)
    top = 8.0 if title else GAP
    width = cols * pair_w + (cols + 1) * GAP
    height = top + rows * (size_mm + CAPTION + GAP) + GAP
    items: list[Item] = [Box(Rect(0, 0, width, height), "#ffffff")]
    if title:
        items.append(Text(Rect(GAP, 1.5, width - 2 * GAP, 5), title, 8, True, align="left"))
    for i, unit in enumerate(units):
        r, c = divmod(i, cols)
        x = GAP + c * (pair_w + GAP)
        y = top + r * (size_mm + CAPTION + GAP)
        lay = layout_for(unit)
        data = {**card_data(unit), **((extras or {}).get(unit.id, {}))}
        for k, side in enumerate(("front", "back")):
            trim = Rect(x + k * (size_mm + 1.0), y, size_mm, size_mm)
            items.append(cell_group(lay, unit, side, trim, trim, f"montage:{unit.id}:{side}", base, data))
        items.append(Text(Rect(x - GAP / 2, y + size_mm + 0.2, pair_w + GAP, CAPTION - 0.2), unit.id, 5.0,
                          colour="#404040", shrink=True))
    return Page(width, height, items, label="montage")


AFFILIATIONS = ("friend", "hostile", "neutral", "unknown")


def symbol_matrix_page(rows: list[tuple[str, str, str | None]], cell_mm: float = 14.0) -> Page:
    """A matrix of NATO symbols: one row per ``(label, branch, category)``, one column per affiliation."""
    from studio.model.documents import UnitSymbol

    from .symbols import symbol_items

    label_w = 34.0
    width = label_w + len(AFFILIATIONS) * (cell_mm + 2) + 2
    height = 7.0 + len(rows) * (cell_mm + 1) + 2
    items: list[Item] = [Box(Rect(0, 0, width, height), "#ffffff")]
    for c, aff in enumerate(AFFILIATIONS):
        items.append(Text(Rect(label_w + c * (cell_mm + 2), 1.5, cell_mm, 4), aff, 6, True))
    for r, (label, branch, category) in enumerate(rows):
        y = 7.0 + r * (cell_mm + 1)
        items.append(Text(Rect(1.5, y, label_w - 2, cell_mm), label, 5.5, align="left", wrap=True))
        for c, aff in enumerate(AFFILIATIONS):
            box = Rect(label_w + c * (cell_mm + 2), y + 0.5, cell_mm, cell_mm - 1)
            symbol = UnitSymbol(affiliation=aff, branch=branch, echelon="platoon")
            items.append(Group(symbol_items(symbol, box, category), tag=f"symbol:{branch}:{category}:{aff}"))
    return Page(width, height, items, label="symbols")
