"""Print layout templates (``data/layouts/*.yaml``): bind card fields to positions, fonts and colours.

Geometry is in millimetres relative to the counter's or card's top-left corner. A ``field`` is a JSON pointer
into the unit card (e.g. ``/body/armor/front``) or ``/name``; ``text`` is a literal. The printing package
renders these; this module only defines and validates them.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from .base import Document, Id, Ref, StrictModel

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]


class LayoutElement(StrictModel):
    id: Id
    type: Literal["text", "symbol", "box", "image"] = "text"
    field: str | None = Field(None, description="JSON pointer into the unit card, e.g. /body/armor/front")
    text: str | None = Field(None, description="literal text; may contain {placeholders} for fields")
    x_mm: float
    y_mm: float
    w_mm: float | None = None
    h_mm: float | None = None
    font_pt: float = Field(6.0, gt=0, le=72)
    bold: bool = False
    colour: Colour = "#000000"
    align: Literal["left", "center", "right"] = "center"
    side: Literal["front", "back", "both"] = "front"

    @model_validator(mode="after")
    def _content(self):
        if self.type == "text" and self.field is None and self.text is None:
            raise ValueError("a text element needs a 'field' or a 'text'")
        return self


class Layout(Document):
    kind: Literal["layout"] = "layout"
    name: str
    ruleset: Ref | None = None
    target: Literal["counter", "card"] = "counter"
    width_mm: float | None = Field(None, gt=0, description="cards: card width; counters: taken from the size")
    height_mm: float | None = Field(None, gt=0)
    background: dict[str, Colour] = Field(default_factory=dict, description="fill colour per nation")
    elements: list[LayoutElement] = Field(default_factory=list)

    def references(self):
        return [("/ruleset", "ruleset", self.ruleset)] if self.ruleset else []
