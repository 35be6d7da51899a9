"""The generic built-in layouts used when a project has no layout for a card's rule system."""
from __future__ import annotations

from functools import lru_cache

from studio.model.layout import Layout, LayoutElement


@lru_cache(maxsize=None)
def builtin_layout(target: str) -> Layout:
    """A counter (name, symbol) or card (name, symbol, nation, notes) layout that works for any card."""
    if target == "counter":
        return Layout(id="builtin-counter", name="Generic counter", target="counter", design_mm=15.875, elements=[
            LayoutElement(id="name", field="/name", x_mm=0.8, y_mm=0.6, w_mm=14.3, h_mm=3.0, font_pt=5.5, bold=True),
            LayoutElement(id="symbol", type="symbol", x_mm=3.4, y_mm=4.0, w_mm=9.0, h_mm=7.5),
            LayoutElement(id="nation", field="/nation", x_mm=0.8, y_mm=12.0, w_mm=14.3, h_mm=3.0, font_pt=5),
            LayoutElement(id="back-name", field="/name", x_mm=0.8, y_mm=6.0, w_mm=14.3, h_mm=3.5, font_pt=5.5,
                          bold=True, side="back"),
        ])
    return Layout(id="builtin-card", name="Generic card", target="card", width_mm=88.9, height_mm=63.5, elements=[
        LayoutElement(id="name", field="/name", x_mm=3, y_mm=2, w_mm=60, h_mm=6, font_pt=11, bold=True,
                      align="left"),
        LayoutElement(id="nation", field="/nation", x_mm=63, y_mm=2, w_mm=23, h_mm=6, font_pt=8, align="right"),
        LayoutElement(id="symbol", type="symbol", x_mm=3, y_mm=10, w_mm=18, h_mm=14),
        LayoutElement(id="notes", field="/notes", x_mm=24, y_mm=10, w_mm=62, h_mm=50, font_pt=7, align="left",
                      valign="top", wrap=True, shrink=False),
    ])
