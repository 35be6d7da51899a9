"""Bind a layout template to a unit card: the primitives of one counter side or one data card. Qt-free.

Contract: :func:`face_items` returns primitives in the cell's own millimetre frame (0, 0 = trim top-left), scaled
from the layout's design size to the printed size; any field the card lacks prints as the element's ``missing``
text, so a layout never fails on a card of another shape.
"""
from __future__ import annotations

import re
from typing import Any

from studio.model.documents import UnitCard
from studio.model.layout import Layout, LayoutElement
from studio.model.pointers import resolve
from studio.model.project import ProjectIndex

from .geometry import Rect
from .primitives import Box, Group, Image, Item, Line, Text
from .symbols import symbol_items

_MISSING = object()
_PLACEHOLDER = re.compile(r"\{(/[^{}]*)\}")
DEFAULT_BACKGROUND = "#e8e4d8"


def card_data(unit: UnitCard) -> dict[str, Any]:
    """Plain JSON-like data of a card (body included), for pointer lookups."""
    return unit.model_dump(mode="json")


def lookup(data: Any, pointer: str) -> Any:
    """Value at ``pointer`` or the ``_MISSING`` sentinel (never raises on absent or malformed paths).

    ``a|b`` tries pointer ``a``, then ``b`` (first present, non-null value wins).

    >>> lookup({"gp": {"P": 4}}, "/pen/P|/gp/P"), lookup({}, "/x") is _MISSING
    (4, True)
    """
    for alternative in pointer.split("|"):
        try:
            value = resolve(data, alternative.strip())
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        if value is not None:
            return value
    return _MISSING


def format_value(value: Any, missing: str = "") -> str:
    """Printable text of a card value: numbers without '.0', lists joined by '/' (a mapping in a list by its
    values), mappings as 'k v' pairs.

    >>> format_value(12.0), format_value([3, 6, 9]), format_value({"front": 5, "side": 2}), format_value(None, "-")
    ('12', '3/6/9', 'front 5, side 2', '-')
    >>> format_value([{"prefix": "A", "value": 9}, {"prefix": "G", "value": 9}]), format_value("under_armor")
    ('A 9/G 9', 'under armor')
    """
    if value is _MISSING or value is None:
        return missing
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return "/".join(" ".join(format_value(x, missing) for x in v.values()) if isinstance(v, dict)
                        else format_value(v, missing) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{_words(k)} {format_value(v, missing)}" for k, v in value.items())
    return _words(str(value))


_ENUM = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def _words(text: str) -> str:
    """An enum-like value in words ('on_map_artillery' -> 'on map artillery'); other text unchanged."""
    return text.replace("_", " ") if _ENUM.fullmatch(text) else text


def expand(text: str, data: Any, missing: str = "") -> str:
    """Replace ``{/pointer}`` placeholders by card values.

    >>> expand("{/a}-{/b/0}{/zz}", {"a": 4, "b": [7]}, "?")
    '4-7?'
    """
    return _PLACEHOLDER.sub(lambda m: format_value(lookup(data, m.group(1)), missing), text)


def element_text(el: LayoutElement, data: Any) -> str:
    if el.field is not None:
        return format_value(lookup(data, el.field), el.missing)
    return expand(el.text or "", data, el.missing)


def _rows(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return [{"@key": k, "@value": v} for k, v in value.items()]
    return []


def table_rows(data: Any, pointer: str) -> list[Any]:
    """Rows of a table element. A ``*`` segment flattens a nested list; each row of the inner list then also
    carries its parent item as ``@parent`` (e.g. ``/body/weapons/*/ammo`` gives every ammo row of every weapon,
    with the weapon at ``/@parent``).

    >>> table_rows({"w": [{"n": "gun", "a": [{"t": "AP"}, {"t": "HE"}]}]}, "/w/*/a")[1]["@parent"]["n"]
    'gun'
    """
    if "/*" not in pointer:
        return _rows(lookup(data, pointer))
    head, _, tail = pointer.partition("/*")
    out = []
    for parent in _rows(lookup(data, head)):
        if not tail:
            out.append(parent)
            continue
        for row in table_rows(parent, tail):
            out.append({**row, "@parent": parent} if isinstance(row, dict) else row)
    return out


def expand_some(text: str, data: Any, missing: str = "") -> str:
    """Like :func:`expand`, but ``missing`` when every placeholder is absent (a literal-only text stays).

    >>> expand_some("{/a}-{/b}", {"a": 1}), expand_some("{/a}-{/b}", {}, "-")
    ('1-', '-')
    """
    values = [lookup(data, m.group(1)) for m in _PLACEHOLDER.finditer(text)]
    if values and all(v is _MISSING for v in values):
        return missing
    return expand(text, data, "")


def _cell(column, row: Any, missing: str) -> str:
    """A table cell: the column's ``text`` template or ``field`` value, relative to the row item."""
    if column.text is not None:
        return expand_some(column.text, row, missing)
    return format_value(lookup(row, column.field), missing)


def _table(el: LayoutElement, data: Any, s: float) -> list[Item]:
    x0, y0, rh = el.x_mm * s, el.y_mm * s, el.row_h_mm * s
    width = sum(c.w_mm for c in el.columns) * s
    rows = table_rows(data, el.field)
    limit = int((el.h_mm or 0) / el.row_h_mm) - 1
    if el.max_rows:
        limit = min(limit, el.max_rows)
    rows = rows[:max(limit, 0)]
    out: list[Item] = [Box(Rect(x0, y0, width, rh), el.fill, None)] if el.fill else []
    lines = [[c.header for c in el.columns]]
    for row in rows:
        lines.append([_cell(c, row, el.missing) for c in el.columns])
    for r, cells in enumerate(lines):
        x = x0
        y = y0 + r * rh
        for col, value in zip(el.columns, cells):
            out.append(Text(Rect(x + 0.4 * s, y, col.w_mm * s - 0.8 * s, rh), value, el.font_pt * s, bold=(r == 0),
                            colour=el.colour, align=col.align, shrink=True))
            x += col.w_mm * s
        if r > 0 and el.stroke_mm:
            out.append(Line(x0, y, x0 + width, y, "#909090", el.stroke_mm * s * 0.5))
    return out


def present(data: Any, pointers: str | None) -> bool:
    """True when ``pointers`` ('a|b') is unset or the card has a value at one of them (an element's ``when``):
    anything but absent, null, false or empty (0 is a value).

    >>> present({"a": 0, "b": False}, "/a"), present({"a": 0, "b": False}, "/b"), present({}, "/x|/a")
    (True, False, False)
    """
    if pointers is None:
        return True
    for alternative in pointers.split("|"):
        value = lookup(data, alternative)
        if value is not _MISSING and value is not False and value not in ("", [], {}):
            return True
    return False


def _shorter(el: LayoutElement, data: Any) -> tuple[str, ...]:
    """The element's ``short`` alternatives that the card fills in completely."""
    out = []
    for pattern in el.short:
        text = expand(pattern, data, "\0")
        if text and "\0" not in text:
            out.append(text)
    return tuple(out)


def _text(el: LayoutElement, rect: Rect, text: str, data: Any, s: float, min_pt: float, label: str) -> Item:
    if el.w_mm is None:   # anchored at (x, y): a generous box around the anchor
        span = 200.0 * s
        x = {"left": rect.x, "center": rect.x - span / 2, "right": rect.x - span}[el.align]
        rect = Rect(x, rect.y - 20 * s, span, 40 * s)
        return Text(rect, text, el.font_pt * s, el.bold, el.italic, el.colour, el.align, "middle")
    return Text(rect, text, el.font_pt * s, el.bold, el.italic, el.colour, el.align, el.valign, el.wrap, el.shrink,
                min_pt=min_pt, alternatives=_shorter(el, data), label=label)


def _element(el: LayoutElement, unit: UnitCard, data: Any, s: float, base: Any, min_pt: float = 0.0,
             label: str = "") -> list[Item]:
    if not present(data, el.when) or (el.unless is not None and present(data, el.unless)):
        return []
    rect = Rect(el.x_mm * s, el.y_mm * s, (el.w_mm or 0) * s, (el.h_mm or 0) * s)
    if el.type == "symbol":
        hint = lookup(data, el.field) if el.field else None     # the card's mobility word, if the layout binds it
        return symbol_items(unit.symbol, rect, unit.category, None if hint is _MISSING else hint)
    if el.type == "box":
        return [Box(rect, el.fill, el.colour if el.stroke_mm else None, el.stroke_mm * s)]
    if el.type == "line":
        return [Line(rect.x, rect.y, rect.right, rect.bottom, el.colour, el.stroke_mm * s)]
    if el.type == "table":
        return _table(el, data, s)
    if el.type == "image":
        if not unit.image or base is None:
            return []
        return [Image(rect, str(base / unit.image))]
    text = element_text(el, data)
    return [_text(el, rect, text, data, s, min_pt, label)] if text else []


def scale_for(layout: Layout, w: float) -> float:
    """Counters scale their design to the printed size; cards print at their own size."""
    return w / layout.design_mm if layout.target == "counter" else w / (layout.width_mm or w)


def face_items(layout: Layout, unit: UnitCard, side: str, w: float, h: float, base=None,
               data: Any | None = None) -> list[Item]:
    """Primitives of ``side`` ('front' or 'back') of ``unit`` in a ``w`` x ``h`` mm cell (trim frame)."""
    data = card_data(unit) if data is None else data
    s = scale_for(layout, w)
    out: list[Item] = []
    for el in layout.elements:
        if el.side == "both" or el.side == side:
            out.extend(_element(el, unit, data, s, base, layout.min_font_pt, f"{unit.id} {side} {el.id}"))
    if layout.border:
        inset = 0.25
        out.append(Box(Rect(inset, inset, w - 2 * inset, h - 2 * inset), None, layout.border, 0.15))
    return out


def background(layout: Layout, nation: str, side: str) -> str:
    """Fill colour of a side for a nation: the back table first for backs, then the front table, then '*'."""
    tables = [layout.back_background, layout.background] if side == "back" else [layout.background]
    for table in tables:
        for key in (nation, nation.lower(), nation.upper(), "*"):
            if key in table:
                return table[key]
    return DEFAULT_BACKGROUND


def cell_group(layout: Layout, unit: UnitCard, side: str, trim: Rect, fill: Rect, tag: str, base=None,
               data: Any | None = None) -> Group:
    """A cell as drawn on the sheet: the background over ``fill`` (trim plus bleed), then the face clipped to
    ``fill``, so template parts outside the trim run into the bleed (as Inkscape Countersheets does)."""
    area = Rect(fill.x - trim.x, fill.y - trim.y, fill.w, fill.h)
    bg = Box(area, background(layout, unit.nation, side))
    face = Group(face_items(layout, unit, side, trim.w, trim.h, base, data), clip=area)
    return Group([bg, face], dx=trim.x, dy=trim.y, tag=tag)


# ------------------------------------------------------------------ choosing a layout

class LayoutError(ValueError):
    """The requested layout does not exist or does not fit the sheet kind."""


def project_layouts(index: ProjectIndex) -> list[Layout]:
    return [d.model for d in index.of_kind("layout") if d.model is not None]


def choose_layout(index: ProjectIndex, unit: UnitCard, target: str, layout_id: str | None = None) -> Layout:
    """The layout for ``unit`` on a ``target`` ('counter'/'card') sheet.

    An explicit ``layout_id`` wins. Otherwise: layouts of the unit's ruleset, then ruleset-less ones; among them
    those listing the unit's category, then those with no categories; ``default: true`` first, then by id.
    Falls back to the built-in generic layout.
    """
    from .builtin import builtin_layout

    if layout_id:
        doc = index.get("layout", layout_id)
        if doc is None or doc.model is None:
            raise LayoutError(f"no valid layout with id {layout_id!r}; known: {', '.join(sorted(index.ids('layout')))}")
        if doc.model.target != target:
            raise LayoutError(f"layout {layout_id!r} is a {doc.model.target} layout, not a {target} layout")
        return doc.model

    def rank(lay: Layout):
        return (0 if lay.ruleset == unit.ruleset else 1,
                0 if unit.category in lay.categories else 1,
                0 if lay.default else 1, lay.id)

    candidates = [lay for lay in project_layouts(index)
                  if lay.target == target and lay.ruleset in (unit.ruleset, None)
                  and (not lay.categories or unit.category in lay.categories)]
    return min(candidates, key=rank) if candidates else builtin_layout(target)
