"""Drawing primitives in millimetres (Qt-free): everything a page is made of.

Page builders (counters, cards, maps, scenario sheets, calibration) produce :class:`Page` objects holding trees
of these primitives; the one QPainter renderer (:mod:`studio.printing.render`) draws them on screen, into PDFs
and into PNGs. Colours are ``#rrggbb`` strings; ``None`` means "no fill" / "no stroke".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

from .geometry import Rect

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Box:
    rect: Rect
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.2


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    width: float = 0.2
    dash: bool = False


@dataclass(frozen=True, slots=True)
class Ellipse:
    rect: Rect
    fill: str | None = None
    stroke: str | None = "#000000"
    width: float = 0.2


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = "#000000"
    width: float = 0.2
    closed: bool = True


@dataclass(frozen=True, slots=True)
class Text:
    """Text in ``rect``. ``shrink`` lowers the size until one line fits the width; ``wrap`` wraps words.

    When ``text`` does not fit at ``font_pt``, the first of ``alternatives`` (shorter texts) that fits is used;
    else the shortest is shrunk, never below ``min_pt`` (the renderer reports text that would need less,
    naming ``label``)."""

    rect: Rect
    text: str
    font_pt: float = 6.0
    bold: bool = False
    italic: bool = False
    colour: str = "#000000"
    align: Literal["left", "center", "right"] = "center"
    valign: Literal["top", "middle", "bottom"] = "middle"
    wrap: bool = False
    shrink: bool = False
    min_pt: float = 0.0
    alternatives: tuple[str, ...] = ()
    label: str = ""


@dataclass(frozen=True, slots=True)
class Image:
    rect: Rect
    path: str


@dataclass(frozen=True)
class Group:
    """Children drawn in a coordinate system translated by (dx, dy) and then scaled by (sx, sy), clipped to
    ``clip`` (in the group's own coordinates). ``sx=-1, dx=page_width`` mirrors a whole page left-right (the
    calibration back page, whose scale must read correctly through the paper). ``tag`` names the group for
    tests and the preview (e.g. ``counter:3:front``)."""

    items: list["Item"]
    dx: float = 0.0
    dy: float = 0.0
    sx: float = 1.0
    sy: float = 1.0
    clip: Rect | None = None
    tag: str = ""


Item = Union[Box, Line, Ellipse, Polygon, Text, Image, Group]


@dataclass
class Page:
    """One sheet of paper: its size in mm and what is printed on it. ``label`` names it (e.g. 'counters 1 front')."""

    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    label: str = ""
