"""Counter and data-card sheets: unit cards with counts -> pages of placed cells. Qt-free.

Counter k (counts expanded in source order) goes to page ``k // per_page``, cell ``k % per_page``. With duplex
``long`` or ``short`` every front page is followed by its back page, on which counter k's back is drawn at
``spec.back_mapping().rect(front trim of k)``, so after turning the sheet over it lies exactly behind its front.
Each counter is a :class:`~studio.printing.primitives.Group` tagged ``counter:<k>:front|back``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from studio.model.documents import UnitCard
from studio.model.layout import Layout
from studio.model.project import ProjectIndex

from .faces import card_data, cell_group, choose_layout
from .geometry import REG_RADIUS, GeometryError, GridLayout, Rect, SheetSpec, check_backs, crop_marks, grid_layout
from .primitives import Ellipse, Item, Line, Page, Text
from .sources import UnitCount

MARK_INK = "#000000"
MARK_WIDTH = 0.15


def expand_counts(items: list[UnitCount]) -> list[UnitCard]:
    """One entry per physical counter, in order."""
    return [it.unit for it in items for _ in range(it.count)]


def _marks(grid: GridLayout, used: int, mapping=None, crop_on_back: bool = False) -> list[Item]:
    """Crop and registration marks of the front (``mapping`` None) or, mirrored, of the back (registration
    always, crop marks when ``crop_on_back``); crop marks only as far as the page's ``used`` cells go."""
    out: list[Item] = []
    crop = crop_marks(grid, used) if grid.crop_marks and (mapping is None or crop_on_back) else []
    for s in crop:
        (x1, y1), (x2, y2) = ((s.x1, s.y1), (s.x2, s.y2)) if mapping is None else \
            (mapping.point(s.x1, s.y1), mapping.point(s.x2, s.y2))
        out.append(Line(x1, y1, x2, y2, MARK_INK, MARK_WIDTH))
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
    """Everything a grid sheet needs besides the cards: the grid spec, a caption (printed with "sheet N of M"
    under the fronts and the backs) and whether the backs get crop marks too."""

    spec: SheetSpec
    caption: str = ""
    back_marks: bool = False


@dataclass
class _Faces:
    """Each unit's layout and card data, looked up once per unit id (extra fields such as a designation are
    per counter, so the data of a counter is the unit's data plus its extras)."""

    layout_for: Callable[[UnitCard], Layout]
    layouts: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)

    def get(self, unit: UnitCard, extra: dict | None) -> tuple[Layout, dict]:
        if unit.id not in self.layouts:
            self.layouts[unit.id] = self.layout_for(unit)
            self.data[unit.id] = card_data(unit)
        data = self.data[unit.id]
        return self.layouts[unit.id], ({**data, **extra} if extra else data)


def grid_pages(units: list[UnitCard], job: SheetJob, target: str, layout_for: Callable[[UnitCard], Layout],
               base: Path | None = None, extras: list[dict] | None = None) -> list[Page]:
    """Pages of cells (fronts, and backs when ``job.spec.duplex`` is not 'none'); ``layout_for`` picks each
    unit's layout; ``base`` is the project folder (for card images); ``extras[k]`` are fields added to counter
    k's card data (e.g. ``designation``)."""
    spec = job.spec
    grid = grid_layout(spec)
    if spec.duplex != "none":
        check_backs(grid)
    page_w, page_h = spec.page_size
    mapping = spec.back_mapping()
    faces = _Faces(layout_for)
    pages: list[Page] = []
    n_pages = max(1, -(-len(units) // grid.per_page))
    for p in range(n_pages):
        chunk = units[p * grid.per_page:(p + 1) * grid.per_page]
        front = Page(page_w, page_h, label=f"{target}s {p + 1} front")
        back = Page(page_w, page_h, label=f"{target}s {p + 1} back")
        for cell, fill, unit in zip(grid.cells, grid.fills(len(chunk)), chunk):
            k = p * grid.per_page + cell.index
            lay, data = faces.get(unit, extras[k] if extras and k < len(extras) else None)
            front.items.append(cell_group(lay, unit, "front", cell.trim, fill, f"{target}:{k}:front", base, data))
            back.items.append(cell_group(lay, unit, "back", mapping.rect(cell.trim), mapping.rect(fill),
                                         f"{target}:{k}:back", base, data))
        caption = f"{job.caption}  -  sheet {p + 1} of {n_pages}"
        front.items += _marks(grid, len(chunk)) + _footer(grid, caption + ", front", page_w, page_h)
        pages.append(front)
        if spec.duplex != "none":
            back.items += _marks(grid, len(chunk), mapping, job.back_marks)
            back.items += _footer(grid, caption + ", back", page_w, page_h)
            pages.append(back)
    return pages


def card_types(items: list[UnitCount]) -> list[UnitCount]:
    """One entry per unit type (counts added up over groups), in first-seen order: a card sheet prints each
    type's card once, with how many counters it stands for."""
    merged: dict[str, UnitCount] = {}
    for it in items:
        prev = merged.get(it.unit.id)
        merged[it.unit.id] = UnitCount(it.unit, it.count + (prev.count if prev else 0), prev.group if prev else it.group)
    return list(merged.values())


def card_pages(index: ProjectIndex, units: list[UnitCard], job: SheetJob, layout_id: str | None = None,
               base: Path | None = None, extras: list[dict] | None = None) -> list[Page]:
    """Data-card sheets: cards grouped by layout (cards of one size share pages), one side only, on the page
    orientation that holds more cards; ``extras[i]`` are fields added to card i's data (``@count``)."""
    groups: dict[str, tuple[Layout, list[UnitCard], list[dict]]] = {}
    for i, unit in enumerate(units):
        lay = choose_layout(index, unit, "card", layout_id)
        group = groups.setdefault(lay.id, (lay, [], []))
        group[1].append(unit)
        group[2].append(extras[i] if extras and i < len(extras) else {})
    pages: list[Page] = []
    for lay, members, more in groups.values():
        portrait = replace(job.spec, cell_w=lay.width_mm, cell_h=lay.height_mm, duplex="none", landscape=False)
        spec = max((portrait, replace(portrait, landscape=True)), key=_capacity)   # portrait on a tie
        pages += grid_pages(members, SheetJob(spec, f"{job.caption}  -  {lay.name}"), "card",
                            lambda _u, lay=lay: lay, base, more)
    return pages


def counter_pages(index: ProjectIndex, units: list[UnitCard], job: SheetJob, layout_id: str | None = None,
                  base: Path | None = None, extras: list[dict] | None = None) -> list[Page]:
    """Counter sheets, front and (with duplex) back pages; ``extras[k]`` are per-counter fields (designation)."""
    return grid_pages(units, job, "counter", lambda u: choose_layout(index, u, "counter", layout_id), base, extras)


def _capacity(spec: SheetSpec) -> int:
    """Cells per page (0 when none fits)."""
    try:
        return grid_layout(spec).per_page
    except GeometryError:
        return 0
