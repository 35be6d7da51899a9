"""NATO unit symbols (APP-6 / MIL-STD-2525 style) as vector primitives in a given box. Qt-free.

Frame shape and fill by affiliation (friend: rectangle, hostile: diamond, neutral: square, unknown: quatrefoil),
branch icon inside the frame, echelon mark above it. Unknown branches print their name's first letters, so a
new branch never breaks a sheet.
"""
from __future__ import annotations

import math

from studio.model.documents import UnitSymbol

from .geometry import Rect
from .primitives import Ellipse, Item, Line, Polygon, Text

FILLS = {"friend": "#80e0ff", "hostile": "#ff8080", "neutral": "#aaffaa", "unknown": "#ffff80"}
INK = "#000000"


def _frame(aff: str, box: Rect, w: float) -> tuple[list[Item], Rect]:
    """The frame primitives and the rectangle the icon is drawn in."""
    fill = FILLS.get(aff, FILLS["unknown"])
    cx, cy = box.center
    if aff == "hostile":
        r = min(box.w, box.h) / 2
        pts = ((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy))
        return [Polygon(pts, fill, INK, w)], Rect(cx - r / 2, cy - r / 2, r, r)
    if aff == "neutral":
        s = min(box.w, box.h)
        rect = Rect(cx - s / 2, cy - s / 2, s, s)
        return [Polygon(_corners(rect), fill, INK, w)], rect
    if aff == "unknown":
        s = min(box.w, box.h)
        r = s / 4
        lobes = [Ellipse(Rect(cx + dx - r, cy + dy - r, 2 * r, 2 * r), fill, INK, w)
                 for dx, dy in ((0, -r), (r, 0), (0, r), (-r, 0))]
        inner = Rect(cx - r * 1.2, cy - r * 1.2, 2.4 * r, 2.4 * r)
        return lobes + [Ellipse(inner, fill, None, 0)], inner
    # friend: 3:2 rectangle
    fw = min(box.w, box.h * 1.5)
    fh = fw / 1.5
    rect = Rect(cx - fw / 2, cy - fh / 2, fw, fh)
    return [Polygon(_corners(rect), fill, INK, w)], rect


def _corners(r: Rect) -> tuple[tuple[float, float], ...]:
    return ((r.x, r.y), (r.right, r.y), (r.right, r.bottom), (r.x, r.bottom))


def _icon(branch: str, r: Rect, w: float) -> list[Item]:
    """The branch icon inside frame rectangle ``r``."""
    cx, cy = r.center
    out: list[Item] = []
    parts = set(branch.lower().replace("-", "_").split("_"))
    name = branch.lower()
    if name in ("infantry", "mech_infantry", "motor_infantry", "motorized_infantry", "airborne_infantry") \
            or "infantry" in parts:
        out += [Line(r.x, r.y, r.right, r.bottom, INK, w), Line(r.x, r.bottom, r.right, r.y, INK, w)]
    if "armor" in parts or "mech" in parts or "armored" in parts or name == "tank":
        out.append(Ellipse(Rect(r.x + r.w * 0.22, r.y + r.h * 0.3, r.w * 0.56, r.h * 0.4), None, INK, w))
    if "recon" in parts or "cavalry" in parts:
        out.append(Line(r.x, r.bottom, r.right, r.y, INK, w))
    if "motor" in parts or "motorized" in parts:
        out.append(Line(cx, r.y, cx, r.bottom, INK, w))
    if "anti" in parts or name in ("atgm", "antitank", "anti_tank"):
        out += [Line(r.x, r.bottom, cx, r.y, INK, w), Line(cx, r.y, r.right, r.bottom, INK, w)]
    if "artillery" in parts or "sp" in parts:
        d = min(r.w, r.h) * 0.25
        out.append(Ellipse(Rect(cx - d / 2, cy - d / 2, d, d), INK, INK, w))
    if "mortar" in parts:
        d = min(r.w, r.h) * 0.22
        out += [Ellipse(Rect(cx - d / 2, cy + r.h * 0.1, d, d), None, INK, w),
                Line(cx, cy + r.h * 0.1, cx, r.y + r.h * 0.15, INK, w),
                Polygon(((cx - d / 2, r.y + r.h * 0.3), (cx, r.y + r.h * 0.12), (cx + d / 2, r.y + r.h * 0.3)),
                        None, INK, w, closed=False)]
    if "air" in parts and "defense" in parts:
        pts = tuple((cx + r.w * 0.4 * _cos(a), r.bottom - r.h * 0.55 * _sin(a)) for a in range(0, 181, 15))
        out.append(Polygon(pts, None, INK, w, closed=False))
    if "engineer" in parts:
        y0, y1 = cy - r.h * 0.15, cy + r.h * 0.15
        x0, x1 = cx - r.w * 0.25, cx + r.w * 0.25
        out += [Line(x0, y0, x1, y0, INK, w), Line(x0, y0, x0, y1, INK, w), Line(cx, y0, cx, y1, INK, w),
                Line(x1, y0, x1, y1, INK, w)]
    if "helicopter" in parts or "aviation" in parts:
        out.append(Polygon(((r.x + r.w * 0.2, cy - r.h * 0.2), (r.right - r.w * 0.2, cy + r.h * 0.2),
                            (r.right - r.w * 0.2, cy - r.h * 0.2), (r.x + r.w * 0.2, cy + r.h * 0.2)), None, INK, w))
    if "supply" in parts or "logistics" in parts:
        out.append(Line(r.x, r.bottom - r.h * 0.3, r.right, r.bottom - r.h * 0.3, INK, w))
    if "hq" in parts or "headquarters" in parts:
        out.append(Text(r, "HQ", r.h * 0.45 / 0.3528, True))
    if not out:
        out.append(Text(r, branch[:3].upper(), r.h * 0.35 / 0.3528, True))
    return out


def _cos(deg: float) -> float:
    return math.cos(math.radians(deg))


def _sin(deg: float) -> float:
    return math.sin(math.radians(deg))


#: echelon -> (kind, count): dots, bars or crosses above the frame
ECHELONS = {"team": ("team", 1), "crew": ("team", 1), "squad": ("dot", 1), "section": ("dot", 2),
            "platoon": ("dot", 3), "detachment": ("dot", 3), "company": ("bar", 1), "battery": ("bar", 1),
            "troop": ("bar", 1), "battalion": ("bar", 2), "squadron": ("bar", 2), "regiment": ("bar", 3),
            "group": ("bar", 3), "brigade": ("cross", 1), "division": ("cross", 2), "corps": ("cross", 3)}


def _echelon(echelon: str, frame: Rect, room: float, w: float) -> list[Item]:
    kind, n = ECHELONS.get(echelon.lower(), (None, 0))
    if kind is None:
        return []
    s = min(room * 0.8, frame.h * 0.28)
    cx = frame.center[0]
    y1 = frame.y - room * 0.15
    y0 = y1 - s
    out: list[Item] = []
    step = s * 1.2
    xs = [cx + (i - (n - 1) / 2) * step for i in range(n)]
    for x in xs:
        if kind == "dot":
            d = s * 0.7
            out.append(Ellipse(Rect(x - d / 2, y1 - d, d, d), INK, None, 0))
        elif kind == "bar":
            out.append(Line(x, y0, x, y1, INK, w * 1.2))
        elif kind == "cross":
            out += [Line(x - s / 2, y0, x + s / 2, y1, INK, w * 1.2), Line(x - s / 2, y1, x + s / 2, y0, INK, w * 1.2)]
        else:  # team: a circle with a slash
            out += [Ellipse(Rect(x - s / 2, y0, s, s), None, INK, w), Line(x - s * 0.6, y1, x + s * 0.6, y0, INK, w)]
    return out


def symbol_items(symbol: UnitSymbol, box: Rect) -> list[Item]:
    """Primitives of ``symbol`` fitted in ``box`` (the top quarter is kept for the echelon mark).

    >>> from studio.model.documents import UnitSymbol
    >>> items = symbol_items(UnitSymbol(affiliation="friend", branch="armor", echelon="platoon"), Rect(0, 0, 12, 10))
    >>> [type(i).__name__ for i in items]
    ['Polygon', 'Ellipse', 'Ellipse', 'Ellipse', 'Ellipse']
    """
    room = box.h * 0.25 if symbol.echelon else 0.0
    frame_box = Rect(box.x, box.y + room, box.w, box.h - room)
    w = max(0.12, min(box.w, box.h) * 0.03)
    frame, inner = _frame(symbol.affiliation, frame_box, w)
    items = frame + _icon(symbol.branch, inner, w)
    if symbol.echelon:
        top = min(p[1] for p in frame[0].points) if isinstance(frame[0], Polygon) else frame_box.y
        items += _echelon(symbol.echelon, Rect(inner.x, top, inner.w, inner.h), room, w)
    return items
