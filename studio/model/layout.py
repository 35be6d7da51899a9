"""Print layout templates (``data/layouts/*.yaml``): bind card fields to positions, fonts and colours.

Geometry is in millimetres relative to the counter's or card's top-left corner (trim edge). Content:

* ``field`` is a JSON pointer into the unit card (e.g. ``/body/armor/front`` or ``/name``);
* ``text`` is a literal that may contain ``{/json/pointer}`` placeholders, e.g. ``"{/body/attack}-{/body/range}"``;
* a field or placeholder that the card does not have prints as the element's ``missing`` text (default blank),
  so a layout degrades gracefully on cards of another shape.

Element types: ``text``; ``symbol`` (the card's NATO symbol, drawn as vectors in the element's box); ``box``
(rectangle, optional fill); ``line`` (from (x, y) to (x + w, y + h)); ``table`` (one row per item of the list or
mapping at ``field``, with ``columns`` whose ``field`` is a pointer relative to the row item; for a mapping the
pseudo-pointers ``/@key`` and ``/@value`` give each key and value); ``image`` (the card's ``image`` file, if any).

Conditions and fitting: ``when`` draws an element only when the card has a value at a pointer (not null, false
or empty), ``unless`` only when it has none (e.g. a reduced-side bar only for units with a reduced side);
``short`` lists shorter texts tried when a text does not fit; the layout's ``min_font_pt`` is the smallest size
text may shrink to (the printer warns about text that would need less). Besides the card's own fields the
printer binds ``/@designation`` (the counter's TO&E designation) and ``/@count`` (how many counters a card
stands for). A table column may give a ``text`` template instead of a ``field``.

A layout applies to cards of its ``ruleset`` (or any ruleset when unset) and ``target``; among several candidates
the printer picks one whose ``categories`` contain the card's category, preferring ``default: true``. The
printing package renders layouts; this module only defines and validates them.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from .base import Document, Id, Ref, StrictModel

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
Align = Literal["left", "center", "right"]


class LayoutColumn(StrictModel):
    """A column of a ``table`` element."""

    header: str = ""
    field: str = Field("", description="JSON pointer relative to the row item; '/@key' or '/@value' for mappings")
    text: str | None = Field(None, description="instead of 'field': text with {/pointer} placeholders relative to "
                                               "the row item, e.g. '{/gp_effectiveness/min}-{/gp_effectiveness/max}'")
    w_mm: float = Field(gt=0)
    align: Align = "center"

    @model_validator(mode="after")
    def _content(self):
        if not self.field and self.text is None:
            raise ValueError("a table column needs a 'field' or a 'text'")
        return self


class LayoutElement(StrictModel):
    id: Id
    type: Literal["text", "symbol", "box", "line", "table", "image"] = "text"
    field: str | None = Field(None, description="JSON pointer into the unit card, e.g. /body/armor/front")
    text: str | None = Field(None, description="literal text; may contain {/json/pointer} placeholders")
    missing: str = Field("", description="what to print when the field or a placeholder is absent")
    x_mm: float
    y_mm: float
    w_mm: float | None = None
    h_mm: float | None = None
    font_pt: float = Field(6.0, gt=0, le=72)
    bold: bool = False
    italic: bool = False
    colour: Colour = "#000000"
    fill: Colour | None = Field(None, description="box/table header fill")
    stroke_mm: float = Field(0.2, ge=0, le=5)
    align: Align = "center"
    valign: Literal["top", "middle", "bottom"] = "middle"
    wrap: bool = Field(False, description="text: wrap words inside the w x h box")
    shrink: bool = Field(True, description="text: reduce the font until the text fits the width")
    side: Literal["front", "back", "both"] = "front"
    columns: list[LayoutColumn] = Field(default_factory=list, description="table columns")
    row_h_mm: float = Field(3.0, gt=0, description="table row height")
    max_rows: int | None = Field(None, ge=1, description="table: print at most this many rows")
    when: str | None = Field(None, description="JSON pointer(s), 'a|b': draw the element only when the card has "
                                               "a value there (e.g. a reduced-side band only for units with one)")
    unless: str | None = Field(None, description="JSON pointer(s), 'a|b': draw the element only when the card has "
                                                 "no value at any of them")
    short: list[str] = Field(default_factory=list,
                             description="text: shorter texts ({/pointer} placeholders allowed, e.g. "
                                         "'{/short_name}'), tried in order when the text does not fit")

    @model_validator(mode="after")
    def _content(self):
        if self.type == "text" and self.field is None and self.text is None:
            raise ValueError("a text element needs a 'field' or a 'text'")
        if self.type in ("symbol", "box", "table", "image") and (self.w_mm is None or self.h_mm is None):
            raise ValueError(f"a {self.type} element needs 'w_mm' and 'h_mm'")
        if self.type == "table" and (self.field is None or not self.columns):
            raise ValueError("a table element needs a 'field' (the list or mapping) and 'columns'")
        return self


class Layout(Document):
    kind: Literal["layout"] = "layout"
    name: str
    ruleset: Ref | None = None
    target: Literal["counter", "card"] = "counter"
    categories: list[str] = Field(default_factory=list, description="card categories this layout is for; "
                                                                    "empty = any")
    default: bool = Field(False, description="preferred layout for its ruleset and target")
    width_mm: float | None = Field(None, gt=0, description="cards: card width; counters: taken from the size")
    height_mm: float | None = Field(None, gt=0)
    design_mm: float = Field(15.875, gt=0, description="counters: the counter size the element geometry is "
                                                       "drawn for; other sizes scale it")
    background: dict[str, Colour] = Field(default_factory=dict,
                                          description="fill colour per nation; key '*' for any other nation")
    back_background: dict[str, Colour] = Field(default_factory=dict,
                                               description="back-side fill per nation (default: background)")
    border: Colour | None = Field(None, description="thin frame drawn just inside the trim")
    min_font_pt: float = Field(0.0, ge=0, le=72, description="smallest size text may shrink to; text that would "
                                                             "need less is reported with a warning")
    elements: list[LayoutElement] = Field(default_factory=list)

    @model_validator(mode="after")
    def _card_size(self):
        if self.target == "card" and (self.width_mm is None or self.height_mm is None):
            raise ValueError("a card layout needs 'width_mm' and 'height_mm'")
        return self

    def references(self):
        return [("/ruleset", "ruleset", self.ruleset)] if self.ruleset else []
