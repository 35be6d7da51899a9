"""The 1:1 table layout guide, the feature templates and duplex Battlefield Ops! unit cards (studio.printing
.table_guide): sizes in mm are checked against inches x 25.4."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.model.project import load_project
from studio.printing.geometry import SheetSpec, tile_map
from studio.printing.primitives import Box, Ellipse, Group, Line, Polygon, Text
from studio.printing.sheets import SheetJob
from studio.printing.table_guide import (MM, TableGuideError, duplex_card_pages, table_guide_pages,
                                         template_pages)

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def index():
    return load_project(DATA)


def _flat(items):
    for it in items:
        if isinstance(it, Group):
            yield from _flat(it.items)
        else:
            yield it


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_guide_tiles_the_table_at_true_scale(index, paper):
    pages = table_guide_pages(index, "bfops-mill-valley", paper)
    tiling = tile_map(72 * MM, 48 * MM, paper, 10.0, 10.0)
    assert len(pages) == 1 + len(tiling.tiles)
    assert pages[0].label == "table overview"
    tile = pages[1]
    group = next(it for it in tile.items if isinstance(it, Group))
    assert (group.sx, group.sy) == (1.0, 1.0)                       # 1:1
    assert group.clip == tiling.tiles[0].window
    # overlap marks: a dashed red glue line on every tile that has a right or lower neighbour
    assert any(isinstance(it, Line) and it.dash and it.stroke == "#c00000" for it in tile.items)
    assert any(isinstance(it, Text) and "100 mm" in it.text for it in tile.items)


def test_church_drawn_where_its_inches_say(index):
    pages = table_guide_pages(index, "bfops-mill-valley", "letter")
    over = next(it for it in pages[0].items if isinstance(it, Group) and it.tag == "table:overview")
    polys = [it for it in _flat(over.items) if isinstance(it, Polygon)]
    church = (42 * MM, (48 - 36) * MM)                              # corner (42, 36): y from the far edge
    assert any(any(abs(px - church[0]) < 1e-6 and abs(py - church[1]) < 1e-6 for px, py in p.points)
               for p in polys)
    texts = [it.text for it in _flat(over.items) if isinstance(it, Text)]
    assert any("Church" in t and '0.8" high' in t and "cover 4" in t for t in texts)
    assert any("ford 0.25\" deep" in t for t in texts)
    assert any("hidden from nato" in t for t in texts)             # the organiser's copy marks hidden features


def test_side_copy_leaves_out_hidden_features(index):
    pages = table_guide_pages(index, "bfops-mill-valley", "letter", side="nato")
    texts = [it.text for it in _flat(pages[0].items) if isinstance(it, Text)]
    assert not any("Minefield" in t for t in texts)
    assert "copy for side 'nato'" in pages[0].items[0].text
    warpac = table_guide_pages(index, "bfops-mill-valley", "letter", side="warpac")
    assert any("Minefield" in it.text for it in _flat(warpac[0].items) if isinstance(it, Text))


def test_hex_board_refused(index):
    with pytest.raises(TableGuideError, match="hex board"):
        table_guide_pages(index, "board-2")
    with pytest.raises(TableGuideError, match="no map"):
        table_guide_pages(index, "nowhere")


def test_templates_have_the_rule_widths():
    pages = template_pages("letter")
    assert len(pages) == 3
    boxes = [it for it in pages[0].items if isinstance(it, Box)]
    heights = sorted({round(b.rect.h, 3) for b in boxes})
    assert heights == [round(0.25 * MM, 3), round(0.5 * MM, 3), round(1.0 * MM, 3)]   # trench, slick, mines
    assert all(round(b.rect.w, 3) == round(6 * MM, 3) for b in boxes)
    diameters = sorted(round(e.rect.w / 2 / MM, 3) for p in pages for e in p.items if isinstance(e, Ellipse))
    assert diameters == [0.25, 0.5, 0.75, 1.0, 2.0, 3.0]
    for p in pages:
        for it in p.items:
            if isinstance(it, (Box, Ellipse)):
                assert 0 <= it.rect.x and it.rect.right <= p.width and 0 <= it.rect.y and it.rect.bottom <= p.height


def test_unit_cards_front_and_back(index):
    units = [index.model("unit", u) for u in ("nato-m60a1", "wp-t62", "wp-bmp1")]
    spec = SheetSpec(88.9, 63.5, "letter", duplex="long")
    pages = duplex_card_pages(index, units, SheetJob(spec, "BfOps cards"))
    assert [p.label for p in pages] == ["cards 1 front", "cards 1 back"]
    fronts = [it.tag for it in pages[0].items if isinstance(it, Group)]
    backs = [it.tag for it in pages[1].items if isinstance(it, Group)]
    assert fronts == [f"card:{k}:front" for k in range(3)] and backs == [f"card:{k}:back" for k in range(3)]
    back_text = " ".join(it.text for it in _flat(pages[1].items) if isinstance(it, Text))
    assert "105mm" in back_text and "115mm" in back_text and "AT-3 Sagger" in back_text
    front_text = " ".join(it.text for it in _flat(pages[0].items) if isinstance(it, Text))
    assert "Unit Rating 6" in front_text and "Front 14" in front_text
    assert "AT-3 Sagger" not in front_text


def test_guide_renders_to_pdf(index, tmp_path):
    from studio.printing.output import write_pdf

    pages = table_guide_pages(index, "bfops-mill-valley", "a4")[:2] + template_pages("a4")[:1]
    out = tmp_path / "guide.pdf"
    write_pdf(pages, out)
    assert out.read_bytes()[:5] == b"%PDF-" and out.stat().st_size > 2000


def test_bfops_layout_has_a_back_others_do_not(index):
    from studio.printing.faces import choose_layout
    from studio.printing.table_guide import layout_has_back

    assert layout_has_back(choose_layout(index, index.model("unit", "nato-m60a1"), "card"))
    mbt = next(u for u in index.ids("unit") if getattr(index.model("unit", u), "ruleset", "") == "mbt")
    assert not layout_has_back(choose_layout(index, index.model("unit", mbt), "card"))
