"""One image per counter side (e.g. 300 dpi PNGs for a VASSAL module), drawn by the same renderer as the sheets.

Files: ``<unit id>-front.png`` and ``<unit id>-back.png`` per distinct unit, the trim size plus ``bleed`` on every
side (default none: exactly the trim; no marks), at ``dpi`` (independent of the sheets' preview resolution).
Designations are left off: a VASSAL module labels its pieces itself.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from studio.model.documents import UnitCard
from studio.model.layout import Layout

from .faces import card_data, cell_group
from .geometry import Rect
from .output import write_png
from .primitives import Page
from .render import page_image


def counter_side_page(layout: Layout, unit: UnitCard, side: str, size_mm: float, base: Path | None = None,
                      bleed: float = 0.0) -> Page:
    """A page one counter (plus ``bleed`` all round) big holding one side of ``unit``."""
    trim = Rect(bleed, bleed, size_mm, size_mm)
    side_mm = size_mm + 2 * bleed
    return Page(side_mm, side_mm, [cell_group(layout, unit, side, trim, trim.grow(bleed), f"counter:{unit.id}:{side}",
                                              base, card_data(unit))], label=f"{unit.id} {side}")


def write_counter_images(counters: list, layout_for: Callable[[UnitCard], Layout], size_mm: float,
                         folder: Path, dpi: float = 300.0, base: Path | None = None, bleed: float = 0.0) -> list[Path]:
    """Write front and back images of every distinct unit of ``counters`` (unit cards, or objects with a
    ``unit``); returns the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    seen: set[str] = set()
    for unit in (getattr(c, "unit", c) for c in counters):
        if unit.id in seen:
            continue
        seen.add(unit.id)
        layout = layout_for(unit)
        for side in ("front", "back"):
            target = folder / f"{unit.id}-{side}.png"
            page = counter_side_page(layout, unit, side, size_mm, base, bleed)
            written.append(write_png(page_image(page, dpi), target))
    return written
