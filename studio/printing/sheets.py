"""Counter and data-card sheets: unit cards with counts -> pages of placed cells. Qt-free.

Counter k (counts expanded in source order) goes to page ``k // per_page``, cell ``k % per_page``. With duplex
``long`` or ``short`` every front page is followed by its back page, on which counter k's back is drawn at
``spec.back_mapping().rect(front trim of k)``, so after turning the sheet over it lies exactly behind its front.
Each counter is a :class:`~studio.printing.primitives.Group` tagged ``counter:<k>:front|back``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from studio.model.documents import UnitCard
from studio.model.layout import Layout
from studio.model.project import ProjectIndex

from .faces import background, card_data, cell_group, choose_layout
from .geometry import REG_RADIUS, GeometryError, GridLayout, Rect, SheetSpec, grid_layout
from .primitives import Box, Ellipse, Item, Line, Page, Text
from .sources import UnitCount

MARK_INK = "#000000"
MARK_WIDTH = 0.15


def expand_counts(items: list[UnitCount]) -> list[UnitCard]:
    """One entry per physical counter, in order."""
    return [it.unit for it in items for _ in range(it.count)]


def _marks(grid: GridLayout, mapping=None) -> list[Item]:
    out: list[Item] = []
    for s in grid.crop_marks if mapping is None else []:
        out.append(Line(s.x1, s.y1, s.x2, s.y2, MARK_INK, MARK_WIDTH))
    for cx, cy in grid.registration:
        if mapping is not None:
            cx, cy = mapping.point(cx, cy)
        r = REG_RADIUS
        out += [Ellipse(_square(cx, cy, r * 0.6), None, MARK_INK, MARK_WIDTH),
                Line(cx - r, cy, cx + r, cy, MARK_INK, MARK_WIDTH), Line(cx, cy - r, cx, cy + r, MARK_INK, MARK_WIDTH)]
    return out


def _square(cx: float, cy: float, r: float) -> Rect:
    return Rect(cx - r, cy - r, 2 * r, 2 * r)


def _footer(grid: GridLayout, text: str, page_w: float, page_h: float) -> list[Item]:
    """A small caption under the marks, when the margin leaves room for it."""
    top = grid.bleed_box.bottom + grid.spec.mark_zone + 0.5
    bottom = page_h - grid.spec.margin
    if bottom - top < 2.5:
        return []
    return [Text(Rect(grid.spec.margin, top, page_w - 2 * grid.spec.margin, min(4.0, bottom - top)), text, 6.0,
                 colour="#606060")]


@dataclass
class SheetJob:
    """Everything a grid sheet needs besides the cards: the grid spec and a caption."""

    spec: SheetSpec
    caption: str = ""


def grid_pages(units: list[UnitCard], job: SheetJob, target: str, layout_for: Callable[[UnitCard], Layout],
               base: Path | None = None) -> list[Page]:
    """Pages of cells (fronts, and backs when ``job.spec.duplex`` is not 'none'); ``layout_for`` picks each
    unit's layout; ``base`` is the project folder (for card images)."""
    spec = job.spec
    grid = grid_layout(spec)
    page_w, page_h = spec.page_size
    mapping = spec.back_mapping()
    layouts: dict[str, Layout] = {}
    data_cache: dict[str, dict] = {}
    pages: list[Page] = []
    n_pages = max(1, -(-len(units) // grid.per_page))
    for p in range(n_pages):
        chunk = units[p * grid.per_page:(p + 1) * grid.per_page]
        front = Page(page_w, page_h, label=f"{target}s {p + 1} front")
        back = Page(page_w, page_h, label=f"{target}s {p + 1} back")
        for cell, unit in zip(grid.cells, chunk):
            k = p * grid.per_page + cell.index
            key = unit.id
            if key not in layouts:
                layouts[key] = layout_for(unit)
                data_cache[key] = card_data(unit)
            lay, data = layouts[key], data_cache[key]
            front.items.append(cell_group(lay, unit, "front", cell.trim, cell.fill, f"{target}:{k}:front", base, data))
            colour = background(lay, unit.nation, "front")
            back_colour = background(lay, unit.nation, "back")
            for idx, strip in grid.strips:
                if idx == cell.index:
                    front.items.append(Box(strip, colour))
                    back.items.append(Box(mapping.rect(strip), back_colour))
            back.items.append(cell_group(lay, unit, "back", mapping.rect(cell.trim), mapping.rect(cell.fill),
                                         f"{target}:{k}:back", base, data))
        front.items += _marks(grid)
        caption = f"{job.caption}  -  sheet {p + 1}/{n_pages}"
        front.items += _footer(grid, caption + " front", page_w, page_h)
        pages.append(front)
        if spec.duplex != "none":
            back.items += _marks(grid, mapping)
            pages.append(back)
    return pages


def card_pages(index: ProjectIndex, units: list[UnitCard], job: SheetJob, layout_id: str | None = None,
               base: Path | None = None) -> list[Page]:
    """Data-card sheets: cards grouped by layout (cards of one size share pages), one side only, on the page
    orientation that holds more cards."""
    groups: dict[str, tuple[Layout, list[UnitCard]]] = {}
    for unit in units:
        lay = choose_layout(index, unit, "card", layout_id)
        groups.setdefault(lay.id, (lay, []))[1].append(unit)
    pages: list[Page] = []
    for lay, members in groups.values():
        portrait = replace(job.spec, cell_w=lay.width_mm, cell_h=lay.height_mm, duplex="none", landscape=False)
        spec = max((portrait, replace(portrait, landscape=True)), key=_capacity)   # portrait on a tie
        pages += grid_pages(members, SheetJob(spec, f"{job.caption}  -  {lay.name}"), "card",
                            lambda _u, lay=lay: lay, base)
    return pages


def counter_pages(index: ProjectIndex, units: list[UnitCard], job: SheetJob, layout_id: str | None = None,
                  base: Path | None = None) -> list[Page]:
    """Counter sheets, front and (with duplex) back pages."""
    return grid_pages(units, job, "counter", lambda u: choose_layout(index, u, "counter", layout_id), base)


def _capacity(spec: SheetSpec) -> int:
    """Cells per page (0 when none fits)."""
    try:
        return grid_layout(spec).per_page
    except GeometryError:
        return 0
