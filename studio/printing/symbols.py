"""NATO unit symbols (APP-6 / MIL-STD-2525 style) as vector primitives in a given box. Qt-free.

Frame shape and fill by affiliation (friend: rectangle, hostile: diamond, neutral: square, unknown: quatrefoil),
branch icon inside the frame, echelon mark above it, the headquarters staff below its left edge and the towed
mobility mark under towed units. Unknown branches print their name's first letters, so a new branch never breaks a
sheet.

Icons follow APP-6 / MIL-STD-2525 land unit icons as rendered by the ``milsymbol`` reference implementation (MIT,
JavaScript, checked against SIDCs such as ``SFGPUCAA--`` anti-armour and ``SFGPUCFHE-`` self-propelled artillery):
armour is the stadium, anti-armour the inverted V (with the stadium only when armoured), self-propelled artillery
and air defence add the stadium to the dot and the arc. The hand-drawn vectors are kept instead of the package:
it needs a JavaScript runtime, these need nothing and print as vectors through the one renderer.

Armoured/self-propelled versus towed or motorised comes from ``UnitSymbol.modifier`` ('armored', 'tracked',
'self_propelled', 'motorized', 'wheeled', 'towed'), else from the card's category ('towed'; a 'vehicle' of a
support branch counts as self-propelled).
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


SUPPORT = ("anti", "artillery", "air")      # branches whose vehicles are drawn as self-propelled (armoured)
ARMOURED = ("armored", "tracked", "self_propelled", "sp")
MOTORISED = ("motorized", "motorised", "wheeled")


#: mobility words a card may hold (traction codes, movement types) -> the symbol's mobility
MOBILITY_WORDS = {"t": "armored", "tracked": "armored", "h": "armored", "halftrack": "armored",
                  "w": "motorized", "wheeled": "motorized", "towed": "towed", "foot": "", "leg": ""}


def mobility(symbol: UnitSymbol, category: str | None = None, hint: object = None) -> str:
    """'armored', 'motorized', 'towed' or '' for a unit's symbol: the symbol's ``modifier``, else ``hint`` (a
    mobility word from the card, bound by the layout's symbol element, e.g. 'tracked', 'W'), else the card's
    category (see the module docstring)."""
    modifier = (symbol.modifier or "").lower()
    if modifier in ARMOURED:
        return "armored"
    if modifier in MOTORISED:
        return "motorized"
    if modifier == "towed" or (category or "").lower() == "towed":
        return "towed"
    if isinstance(hint, str) and hint.lower() in MOBILITY_WORDS:
        return MOBILITY_WORDS[hint.lower()]
    parts = _parts(symbol.branch)
    if (category or "").lower() == "vehicle" and any(p in parts for p in SUPPORT):
        return "armored"
    return ""


def _parts(branch: str) -> set[str]:
    return set(branch.lower().replace("-", "_").split("_"))


def _stadium(r: Rect, k: float = 0.56, h: float = 0.4) -> tuple[tuple[float, float], ...]:
    """Points of the armour icon: a stadium (semicircular ends) centred in ``r``, ``k`` of its width and ``h``
    of its height."""
    cx, cy = r.center
    w2, h2 = r.w * k / 2, r.h * h / 2
    rad = min(h2, w2)
    xr, xl = cx + w2 - rad, cx - w2 + rad
    right = [(xr + rad * _cos(a), cy - rad * _sin(a)) for a in range(90, -91, -15)]     # top, right, bottom
    left = [(xl - rad * _cos(a), cy + rad * _sin(a)) for a in range(90, -91, -15)]      # bottom, left, top
    return tuple(right + left)


def _infantry(r: Rect, w: float) -> list[Item]:
    return [Line(r.x, r.y, r.right, r.bottom, INK, w), Line(r.x, r.bottom, r.right, r.y, INK, w)]


def _recon(r: Rect, w: float) -> list[Item]:
    return [Line(r.x, r.bottom, r.right, r.y, INK, w)]


def _motorised(r: Rect, w: float) -> list[Item]:
    return [Line(r.center[0], r.y, r.center[0], r.bottom, INK, w)]


def _anti_armour(r: Rect, w: float) -> list[Item]:
    cx = r.center[0]
    return [Line(r.x, r.bottom, cx, r.y, INK, w), Line(cx, r.y, r.right, r.bottom, INK, w)]


def _artillery(r: Rect, w: float) -> list[Item]:
    cx, cy = r.center
    d = min(r.w, r.h) * 0.25
    return [Ellipse(Rect(cx - d / 2, cy - d / 2, d, d), INK, INK, w)]


def _mortar(r: Rect, w: float) -> list[Item]:
    cx, cy = r.center
    d = min(r.w, r.h) * 0.2
    top, base = r.y + r.h * 0.14, cy + r.h * 0.18
    return [Ellipse(Rect(cx - d / 2, base, d, d), None, INK, w), Line(cx, base, cx, top, INK, w),
            Polygon(((cx - d * 0.6, top + d * 0.7), (cx, top), (cx + d * 0.6, top + d * 0.7)), None, INK, w,
                    closed=False)]


def _air_defence(r: Rect, w: float) -> list[Item]:
    cx = r.center[0]
    pts = tuple((cx + r.w * 0.5 * _cos(a), r.bottom - r.h * 0.38 * _sin(a)) for a in range(0, 181, 15))
    return [Polygon(pts, None, INK, w, closed=False)]


def _engineer(r: Rect, w: float) -> list[Item]:
    cx, cy = r.center
    y0, y1 = cy - r.h * 0.15, cy + r.h * 0.15
    x0, x1 = cx - r.w * 0.25, cx + r.w * 0.25
    return [Line(x0, y0, x1, y0, INK, w), Line(x0, y0, x0, y1, INK, w), Line(cx, y0, cx, y1, INK, w),
            Line(x1, y0, x1, y1, INK, w)]


def _maintenance(r: Rect, w: float) -> list[Item]:
    """APP-6 maintenance: a horizontal bar ending in a half-circle jaw at each side, opening outward."""
    cx, cy = r.center
    rad = r.h * 0.14
    x0, x1 = cx - r.w * 0.28, cx + r.w * 0.28
    left = tuple((x0 - rad + rad * _sin(a), cy - rad * _cos(a)) for a in range(0, 181, 15))
    right = tuple((x1 + rad - rad * _sin(a), cy - rad * _cos(a)) for a in range(0, 181, 15))
    return [Line(x0, cy, x1, cy, INK, w), Polygon(left, None, INK, w, closed=False),
            Polygon(right, None, INK, w, closed=False)]


def _rotary_wing(r: Rect, w: float) -> list[Item]:
    cy = r.center[1]
    return [Polygon(((r.x + r.w * 0.2, cy - r.h * 0.2), (r.right - r.w * 0.2, cy + r.h * 0.2),
                     (r.right - r.w * 0.2, cy - r.h * 0.2), (r.x + r.w * 0.2, cy + r.h * 0.2)), None, INK, w)]


def _supply(r: Rect, w: float) -> list[Item]:
    return [Line(r.x, r.bottom - r.h * 0.3, r.right, r.bottom - r.h * 0.3, INK, w)]


def _headquarters(r: Rect, w: float) -> list[Item]:
    return [Text(r, "HQ", r.h * 0.45 / 0.3528, True)]


def _has(*names: str):
    return lambda parts, move: any(n in parts for n in names)


def _is_anti(parts: set[str]) -> bool:
    return "anti" in parts or bool(parts & {"atgm", "antitank"})


def _support(parts: set[str]) -> bool:
    """Branches whose mobility shows in the icon (armoured stadium, motorised line): anti-armour, artillery, air
    defence, reconnaissance."""
    return _is_anti(parts) or bool(parts & {"artillery", "recon", "cavalry"}) or \
        ("air" in parts and bool(parts & {"defense", "defence"}))


def _is_armoured(parts: set[str], move: str) -> bool:
    return (bool(parts & {"armor", "armour"}) and not _is_anti(parts)) or bool(parts & {"mech", "armored", "tank"}) \
        or (move == "armored" and _support(parts) and not parts & {"recon", "cavalry"})


#: (does the branch (its '_'-separated parts) and mobility call for it?, icon part), drawn in this order
ICON_PARTS = (
    (_has("infantry"), _infantry),
    (_is_armoured, lambda r, w: [Polygon(_stadium(r), None, INK, w)]),
    (_has("recon", "cavalry"), _recon),
    (lambda parts, move: bool(parts & {"motor", "motorized"}) or (move == "motorized" and _support(parts) and
                                                                   not _is_armoured(parts, move)), _motorised),
    (lambda parts, move: _is_anti(parts), _anti_armour),
    (_has("artillery"), _artillery),
    (_has("mortar"), _mortar),
    (lambda parts, move: "air" in parts and bool(parts & {"defense", "defence"}), _air_defence),
    (_has("engineer"), _engineer),
    (_has("maintenance", "recovery", "repair"), _maintenance),
    (_has("helicopter", "aviation"), _rotary_wing),
    (_has("supply", "logistics"), _supply),
    (_has("hq", "headquarters"), _headquarters),
)


def _icon(branch: str, r: Rect, w: float, move: str = "") -> list[Item]:
    """The branch icon inside frame rectangle ``r``; ``move`` is the mobility ('armored', 'motorized', ...).
    A branch with no known part prints its first letters."""
    parts = _parts(branch)
    out = [item for wanted, draw in ICON_PARTS if wanted(parts, move) for item in draw(r, w)]
    return out or [Text(r, branch[:3].upper(), r.h * 0.35 / 0.3528, True)]


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


def symbol_items(symbol: UnitSymbol, box: Rect, category: str | None = None, hint: object = None) -> list[Item]:
    """Primitives of ``symbol`` fitted in ``box`` (the top quarter is kept for the echelon mark; headquarters
    and towed units keep a strip below the frame for the staff or the towed mark). ``category`` is the card's
    category (e.g. 'towed', 'vehicle') and ``hint`` a mobility word from the card (see :func:`mobility`).

    >>> from studio.model.documents import UnitSymbol
    >>> items = symbol_items(UnitSymbol(affiliation="friend", branch="armor", echelon="platoon"), Rect(0, 0, 12, 10))
    >>> [type(i).__name__ for i in items]
    ['Polygon', 'Polygon', 'Ellipse', 'Ellipse', 'Ellipse']
    """
    move = mobility(symbol, category, hint)
    parts = _parts(symbol.branch)
    hq = "hq" in parts or "headquarters" in parts
    room = box.h * 0.25 if symbol.echelon else 0.0
    below = box.h * 0.2 if hq or move == "towed" else 0.0
    frame_box = Rect(box.x, box.y + room, box.w, box.h - room - below)
    w = max(0.12, min(box.w, box.h) * 0.03)
    frame, inner = _frame(symbol.affiliation, frame_box, w)
    items = frame + _icon(symbol.branch, inner, w, move)
    bottom = max(p[1] for p in frame[0].points) if isinstance(frame[0], Polygon) else frame_box.bottom
    if hq:        # the headquarters staff: down from the frame's left-most point
        if isinstance(frame[0], Polygon):
            left = min(p[0] for p in frame[0].points)
            start = max(p[1] for p in frame[0].points if abs(p[0] - left) < 1e-9)
        else:     # the quatrefoil: from its left lobe
            left, start = min(e.rect.x for e in frame if isinstance(e, Ellipse)), frame_box.center[1]
        items.append(Line(left, start, left, box.bottom, INK, w))
    if move == "towed":
        items += _towed(frame_box.center[0], bottom, inner.w, box.bottom, w)
    if symbol.echelon:
        top = min(p[1] for p in frame[0].points) if isinstance(frame[0], Polygon) else frame_box.y
        items += _echelon(symbol.echelon, Rect(inner.x, top, inner.w, inner.h), room, w)
    return items


def _towed(cx: float, top: float, width: float, bottom: float, w: float) -> list[Item]:
    """The towed mobility mark under the frame: a bar with a wheel at each end."""
    y = top + (bottom - top) * 0.35
    d = max(0.3, (bottom - top) * 0.55)
    half = width * 0.35
    return [Line(cx - half, y, cx + half, y, INK, w),
            Ellipse(Rect(cx - half - d, y - d / 2 + d / 2, d, d), None, INK, w),
            Ellipse(Rect(cx + half, y - d / 2 + d / 2, d, d), None, INK, w)]
