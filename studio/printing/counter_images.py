"""One image per counter side (e.g. 300 dpi PNGs for a VASSAL module), drawn by the same renderer as the sheets.

Files: ``<unit id>-front.png`` and ``<unit id>-back.png`` per distinct unit, exactly the trim size (no bleed, no
marks) at ``dpi``.
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


def counter_side_page(layout: Layout, unit: UnitCard, side: str, size_mm: float, base: Path | None = None) -> Page:
    """A page exactly one counter big holding one side of ``unit``."""
    trim = Rect(0.0, 0.0, size_mm, size_mm)
    return Page(size_mm, size_mm, [cell_group(layout, unit, side, trim, trim, f"counter:{unit.id}:{side}", base,
                                              card_data(unit))], label=f"{unit.id} {side}")


def write_counter_images(units: list[UnitCard], layout_for: Callable[[UnitCard], Layout], size_mm: float,
                         folder: Path, dpi: float = 300.0, base: Path | None = None) -> list[Path]:
    """Write front and back images of every distinct unit in ``units``; returns the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    seen: set[str] = set()
    for unit in units:
        if unit.id in seen:
            continue
        seen.add(unit.id)
        layout = layout_for(unit)
        for side in ("front", "back"):
            target = folder / f"{unit.id}-{side}.png"
            written.append(write_png(page_image(counter_side_page(layout, unit, side, size_mm, base), dpi), target))
    return written
