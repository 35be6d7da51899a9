"""NATO symbols (APP-6 style, checked against milsymbol's renderings): every branch the sample data uses, in every
affiliation, draws its icon (Deliver 8)."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.model.documents import UnitSymbol
from studio.model.project import load_project
from studio.printing.geometry import Rect
from studio.printing.montage import AFFILIATIONS, symbol_matrix_page
from studio.printing.primitives import Ellipse, Group, Line, Polygon, Text
from studio.printing.symbols import mobility, symbol_items

REPO = Path(__file__).resolve().parents[2]
BOX = Rect(0, 0, 12, 10)


def _used():
    index = load_project(REPO / "data")
    out = {}
    for d in index.of_kind("unit"):
        if d.model is not None:
            u = d.model
            out.setdefault((u.symbol.branch, u.category), u)
    return out


USED = _used()


def _kinds(items):
    return [type(i).__name__ for i in items]


def _stadiums(items):   # the armour icon: a closed polygon with many points (rounded ends)
    return [i for i in items if isinstance(i, Polygon) and len(i.points) > 12 and i.closed and i.fill is None]


@pytest.mark.parametrize("aff", AFFILIATIONS)
@pytest.mark.parametrize("branch,category", sorted(USED))
def test_every_used_branch_draws_its_icon_in_every_affiliation(branch, category, aff):
    items = symbol_items(UnitSymbol(affiliation=aff, branch=branch, echelon="platoon"), BOX, category)
    texts = [i.text for i in items if isinstance(i, Text)]
    assert not [t for t in texts if t != "HQ"], f"{branch}: falls back to letters {texts}"
    for i in items:                               # everything inside the symbol's box
        pts = i.points if isinstance(i, Polygon) else [(i.x1, i.y1), (i.x2, i.y2)] if isinstance(i, Line) else \
            [(i.rect.x, i.rect.y), (i.rect.right, i.rect.bottom)]
        assert all(-1e-6 <= x <= BOX.w + 1e-6 and -1e-6 <= y <= BOX.h + 1e-6 for x, y in pts)


def test_icons_follow_app6():
    def items(branch, category=None, aff="friend", modifier=None):
        return symbol_items(UnitSymbol(affiliation=aff, branch=branch, modifier=modifier), BOX, category)

    assert len(_stadiums(items("armor"))) == 1
    assert not _stadiums(items("anti_armor", "leg"))                      # Dragon team: the inverted V only
    assert len(_stadiums(items("anti_armor", "vehicle"))) == 1            # ITV, BRDM AT: armoured anti-armour
    assert not _stadiums(items("anti_armor", "vehicle", modifier="motorized"))   # TOW jeep with a modifier
    sp, towed = items("artillery", "vehicle"), items("artillery", "towed")
    assert len(_stadiums(sp)) == 1 and any(isinstance(i, Ellipse) and i.fill for i in sp)
    assert not _stadiums(towed) and sum(isinstance(i, Ellipse) and i.fill is None for i in towed) == 2   # wheels
    assert not _stadiums(items("mortar", "vehicle"))
    hq = items("hq")
    staff = [i for i in hq if isinstance(i, Line) and abs(i.x1 - i.x2) < 1e-9 and abs(i.y2 - BOX.h) < 1e-9]
    assert staff, "the headquarters staff runs down from the frame"
    assert mobility(UnitSymbol(branch="artillery", modifier="towed"), "vehicle") == "towed"


def test_the_matrix_page_shows_every_branch_and_affiliation():
    rows = [(f"{b} {c}", b, c) for b, c in sorted(USED)]
    page = symbol_matrix_page(rows)
    groups = [i for i in page.items if isinstance(i, Group) and i.tag.startswith("symbol:")]
    assert len(groups) == len(rows) * len(AFFILIATIONS)
    signatures = {tuple(_kinds(g.items)) for g in groups if g.tag.endswith(":friend")}
    assert len(signatures) >= 10                  # the icons differ from branch to branch


@pytest.mark.parametrize("unit_id,armoured,motorised", [
    ("us-tow-jeep", False, True), ("us-m901-itv", True, False), ("us-dragon-sw", False, False),
    ("su-sagger-sw", False, False), ("su-brdm-at", False, True), ("m901", True, False), ("brdm-2-at5", False, True),
    ("su-d30", False, False), ("su-2s1", True, False)])
def test_the_layouts_bind_the_cards_mobility_to_the_symbol(unit_id, armoured, motorised):
    """Issue 15: anti-armour units got the armour ellipse. Wheeled ones now get the motorised line instead."""
    from studio.printing.faces import choose_layout, face_items

    index = load_project(REPO / "data")
    unit = index.model("unit", unit_id)
    for target in ("counter", "card"):
        lay = choose_layout(index, unit, target)
        el = next(e for e in lay.elements if e.type == "symbol")
        w, h = (15.875, 15.875) if target == "counter" else (lay.width_mm, lay.height_mm)
        scale = w / lay.design_mm if target == "counter" else 1.0
        box = Rect(el.x_mm * scale, el.y_mm * scale, el.w_mm * scale, el.h_mm * scale)
        inside = [i for i in face_items(lay, unit, "front", w, h) if isinstance(i, (Line, Polygon, Ellipse)) and
                  _within(i, box)]
        assert bool(_stadiums(inside)) == armoured, f"{unit_id} {target}"
        cx = box.x + box.w / 2
        verticals = [i for i in inside if isinstance(i, Line) and abs(i.x1 - i.x2) < 1e-6 and abs(i.x1 - cx) < 0.05
                     and abs(i.y2 - i.y1) > box.h * 0.3]          # not the echelon bar above the frame
        assert bool(verticals) == motorised, f"{unit_id} {target}"


def _within(item, box: Rect) -> bool:
    pts = item.points if isinstance(item, Polygon) else [(item.x1, item.y1), (item.x2, item.y2)] \
        if isinstance(item, Line) else [(item.rect.x, item.rect.y), (item.rect.right, item.rect.bottom)]
    return all(box.x - 1e-6 <= x <= box.right + 1e-6 and box.y - 1e-6 <= y <= box.bottom + 1e-6 for x, y in pts)
