"""The generic built-in layouts used when a project has no layout for a card's rule system.

The card prints every value of the card body as text (``key value`` pairs, nested), so a rule system without
layouts still gets complete reference cards; the counter prints name, symbol, designation and nation.
"""
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
            LayoutElement(id="designation", field="/@designation", x_mm=0.8, y_mm=11.5, w_mm=14.3, h_mm=1.2,
                          font_pt=3.5, bold=True, side="both"),
            LayoutElement(id="back-name", field="/name", x_mm=0.8, y_mm=6.0, w_mm=14.3, h_mm=3.5, font_pt=5.5,
                          bold=True, side="back"),
        ])
    return Layout(id="builtin-card", name="Generic card", target="card", width_mm=88.9, height_mm=63.5,
                  border="#404040", elements=[
        LayoutElement(id="name", field="/name", x_mm=3, y_mm=2, w_mm=52, h_mm=6, font_pt=11, bold=True,
                      align="left"),
        LayoutElement(id="count", text="x {/@count}", when="/@count", x_mm=55, y_mm=2, w_mm=10, h_mm=6, font_pt=8,
                      bold=True, align="left"),
        LayoutElement(id="nation", field="/nation", x_mm=65, y_mm=2, w_mm=21, h_mm=6, font_pt=8, align="right"),
        LayoutElement(id="symbol", type="symbol", x_mm=3, y_mm=10, w_mm=18, h_mm=14),
        LayoutElement(id="notes", field="/notes", x_mm=24, y_mm=10, w_mm=62, h_mm=14, font_pt=6.5, align="left",
                      valign="top", wrap=True, shrink=False),
        LayoutElement(id="body", field="/body", x_mm=3, y_mm=25, w_mm=83, h_mm=36, font_pt=5.5, align="left",
                      valign="top", wrap=True, shrink=False),
    ])
