"""Qt-free geometry: grids, bleed, crop marks outside the bleed, duplex mapping, map tiling."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from studio.printing.geometry import BackMapping, GeometryError, Rect, SheetSpec, grid_layout, tile_map
from studio.printing.units import LengthError, length_mm, offset_mm

PRINTING = Path(__file__).resolve().parents[2] / "studio" / "printing"


def _overlaps(seg, r: Rect) -> bool:
    x1, x2 = sorted((seg.x1, seg.x2))
    y1, y2 = sorted((seg.y1, seg.y2))
    return x1 < r.right and x2 > r.x and y1 < r.bottom and y2 > r.y


@pytest.mark.parametrize("size", ["1/2in", "9/16in", "5/8in", "3/4in", "1in"])
@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("gutter", [None, 0.0, 2.0])
def test_grid_fits_page_and_marks_stay_outside_the_bleed(size, paper, gutter):
    mm = length_mm(size)
    spec = SheetSpec(mm, mm, paper, bleed=3.175, gutter=gutter, marks="both")
    g = grid_layout(spec)
    w, h = spec.page_size
    assert g.bleed_box.x >= spec.margin and g.bleed_box.right <= w - spec.margin
    assert g.bleed_box.y >= spec.margin and g.bleed_box.bottom <= h - spec.margin
    assert g.crop_marks
    for seg in g.crop_marks:
        assert not _overlaps(seg, g.bleed_box)
        assert spec.margin - 1e-6 <= min(seg.x1, seg.x2) and max(seg.x1, seg.x2) <= w - spec.margin + 1e-6
    for cx, cy in g.registration:
        assert not (g.bleed_box.x - 2.5 < cx < g.bleed_box.right + 2.5 and g.bleed_box.y - 2.5 < cy <
                    g.bleed_box.bottom + 2.5)
    # every bleed area (cell + its bleed, full or partly filled page) stays inside the bleed box
    for used in (len(g.cells), max(1, len(g.cells) // 2 + 1)):
        for fill in g.fills(used):
            assert fill.x >= g.bleed_box.x - 1e-9 and fill.right <= g.bleed_box.right + 1e-9
            assert fill.y >= g.bleed_box.y - 1e-9 and fill.bottom <= g.bleed_box.bottom + 1e-9


def test_butted_cells_have_no_inner_bleed_but_full_bleed_on_open_edges():
    g = grid_layout(SheetSpec(15.875, 15.875, bleed=3.175, gutter=0))
    assert all(c.fill == c.trim for c in g.cells)
    assert g.bleed_box == g.block.grow(3.175)
    used = g.cols + 2                       # one full row and two counters of the next
    fills = g.fills(used)
    b = 3.175
    assert fills[0] == g.cells[0].trim.grow(b, b, 0, 0)                  # top-left corner
    assert fills[g.cols - 1] == g.cells[g.cols - 1].trim.grow(0, b, b, b - b * 0)  # right end, nothing below
    assert fills[g.cols] == g.cells[g.cols].trim.grow(b, 0, 0, b)       # partly filled row: open bottom
    assert fills[g.cols + 1] == g.cells[g.cols + 1].trim.grow(0, 0, b, b)    # last counter: open right, bottom


def test_gutter_smaller_than_twice_the_bleed_limits_the_inner_bleed():
    spec = SheetSpec(15.875, 15.875, bleed=3.175, gutter=2.0)
    assert spec.inner_bleed == 1.0
    g = grid_layout(spec)
    assert g.cells[0].fill == g.cells[0].trim.grow(1.0)


def test_too_big_a_counter_is_refused():
    with pytest.raises(GeometryError):
        grid_layout(SheetSpec(250, 250, "letter"))


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_mapping_is_an_involution_without_offset(duplex):
    m = BackMapping(215.9, 279.4, duplex)
    r = Rect(12.3, 45.6, 15.875, 15.875)
    twice = m.rect(m.rect(r))
    assert (twice.x, twice.y, twice.w, twice.h) == pytest.approx((r.x, r.y, r.w, r.h))
    assert m.rect(r) != r


def test_offset_is_in_front_view_coordinates():
    m = BackMapping(200, 300, "long", (1.5, 2.0))
    bx, by = m.point(50, 60)
    # turning the sheet over (long edge) maps back x to 200 - x; the back then sits 1.5 right, 2 down
    assert (200 - bx, by) == pytest.approx((51.5, 62.0))


def test_map_tiles_overlap_exactly_and_cover_the_map():
    t = tile_map(500, 400, "a4", 10, 12)
    by_pos = {(tile.row, tile.col): tile for tile in t.tiles}
    for (r, c), tile in by_pos.items():
        if (r, c + 1) in by_pos:
            assert tile.window.right - by_pos[(r, c + 1)].window.x == pytest.approx(12)
        if (r + 1, c) in by_pos:
            assert tile.window.bottom - by_pos[(r + 1, c)].window.y == pytest.approx(12)
        assert tile.window.w == tile.place.w and tile.window.h == tile.place.h   # 1:1
    assert max(tl.window.right for tl in t.tiles) == pytest.approx(500)
    assert max(tl.window.bottom for tl in t.tiles) == pytest.approx(400)


@pytest.mark.parametrize("bad", ["", "abc", "5/0in", "-3mm", "3 furlongs"])
def test_bad_lengths(bad):
    with pytest.raises(LengthError):
        length_mm(bad)


def test_offsets():
    assert offset_mm("-1.5, 0.25") == (-1.5, 0.25)
    with pytest.raises(LengthError):
        offset_mm("1;2")


@pytest.mark.parametrize("module", ["geometry.py", "units.py", "sources.py", "faces.py", "symbols.py", "sheets.py",
                                    "primitives.py", "mapsheet.py", "scenario_sheet.py", "calibration.py", "jobs.py"])
def test_layout_modules_are_qt_free(module):
    tree = ast.parse((PRINTING / module).read_text())
    names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [n for n in names if n.startswith("PySide6")]
