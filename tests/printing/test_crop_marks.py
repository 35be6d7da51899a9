"""Crop marks go only as far as the counters do: a page filled in part (the last page of a sheet, or a small job)
is marked on the cut lines of its counters, just outside their bleed, not down the whole page (issue 16)."""
from __future__ import annotations

import pytest

from studio.cli.main import main
from studio.printing.geometry import grid_layout
from studio.printing.jobs import PrintOptions, build_pages
from studio.printing.primitives import Line
from studio.printing.sheets import MARK_WIDTH

from .pdfparse import read_pdf

GAP, LENGTH, BLEED = 1.0, 4.0, 3.175     # the print defaults: 1 mm from the bleed, 4 mm long, 1/8 in bleed


def _options(count: int, **kw) -> PrintOptions:
    return PrintOptions("counters", f"unit:m1*{count}", **kw)


def _grid(opts: PrintOptions):
    return grid_layout(opts.validated().sheet_spec(15.875, 15.875))


def _marks(page) -> list[Line]:
    return [i for i in page.items if isinstance(i, Line) and i.width == MARK_WIDTH]


def _extent(grid, used: int) -> tuple[float, float, float, float]:
    """Left, top, right, bottom of the first ``used`` counters' trims."""
    trims = [c.trim for c in grid.cells[:used]]
    return (min(t.x for t in trims), min(t.y for t in trims), max(t.right for t in trims),
            max(t.bottom for t in trims))


def _check_page(marks: list[Line], grid, used: int) -> None:
    left, top, right, bottom = _extent(grid, used)
    trims = [c.trim for c in grid.cells[:used]]
    cut_x = sorted({round(v, 6) for t in trims for v in (t.x, t.right)})
    cut_y = sorted({round(v, 6) for t in trims for v in (t.y, t.bottom)})
    vertical = [m for m in marks if m.x1 == m.x2]
    horizontal = [m for m in marks if m.y1 == m.y2]
    assert len(vertical) + len(horizontal) == len(marks) == 2 * (len(cut_x) + len(cut_y))
    # across the top and the bottom of the counters: one mark above and one below on every vertical cut
    assert sorted(round(m.x1, 6) for m in vertical) == sorted(cut_x * 2)
    below = [m for m in vertical if m.y1 > bottom]
    assert len(below) == len(cut_x)
    for m in below:
        assert min(m.y1, m.y2) == pytest.approx(bottom + BLEED + GAP)
        assert max(m.y1, m.y2) == pytest.approx(bottom + BLEED + GAP + LENGTH)
    # beside the counters: marks only on the rows that hold counters
    assert sorted(round(m.y1, 6) for m in horizontal) == sorted(cut_y * 2)
    assert all(min(m.x1, m.x2) >= left - BLEED - GAP - LENGTH - 1e-6 and
               max(m.x1, m.x2) <= right + BLEED + GAP + LENGTH + 1e-6 for m in marks)
    assert max(max(m.y1, m.y2) for m in marks) == pytest.approx(bottom + BLEED + GAP + LENGTH)
    assert min(min(m.y1, m.y2) for m in marks) == pytest.approx(top - BLEED - GAP - LENGTH)


def test_a_part_filled_page_is_marked_only_as_far_as_its_counters(index):
    opts = _options(15, duplex="none")
    grid = _grid(opts)
    assert grid.cols < 15 < grid.per_page          # two rows, the second one partly filled
    (page,) = build_pages(index, opts)
    _check_page(_marks(page), grid, 15)
    assert len({round(m.y1, 6) for m in _marks(page) if m.y1 == m.y2}) == 3   # 2 rows: 3 horizontal cuts


def test_a_full_page_is_marked_on_every_cut_line_of_the_grid(index):
    opts = _options(0, duplex="none")
    grid = _grid(opts)
    (page,) = build_pages(index, _options(grid.per_page, duplex="none"))
    _check_page(_marks(page), grid, grid.per_page)
    assert len(_marks(page)) == len(grid.crop_marks) == 2 * ((grid.cols + 1) + (grid.rows + 1))


def test_the_last_page_and_its_back_are_marked_only_as_far_as_their_counters(index):
    opts = _options(0, duplex="long", back_marks=True)
    grid = _grid(opts)
    pages = build_pages(index, _options(grid.per_page + 5, duplex="long", back_marks=True))
    assert len(pages) == 4                          # front, back, front, back
    _check_page(_marks(pages[0]), grid, grid.per_page)
    _check_page(_marks(pages[2]), grid, 5)
    back = _marks(pages[3])                         # long-edge duplex mirrors x only: same rows marked
    front = _marks(pages[2])
    width = pages[3].width
    assert sorted((round(width - m.x1, 6), round(m.y1, 6)) for m in back) == \
        sorted((round(m.x1, 6), round(m.y1, 6)) for m in front)


def test_no_crop_marks_when_marks_are_off(index):
    (page,) = build_pages(index, _options(15, duplex="none", marks="none"))
    assert _marks(page) == []


def test_the_pdf_of_a_small_job_has_no_marks_below_its_counters(project, tmp_path):
    out = tmp_path / "few.pdf"
    assert main(["print", "counters", "unit:m1*15", "--duplex", "none", "-o", str(out),
                 "--project", str(project)]) == 0
    (page,) = read_pdf(out)
    painted = [r for r in page.rects if r.op in ("f", "f*")]
    bottom = max(r.y + r.h for r in painted)        # the counters' bleed
    lowest = max(max(s.y1, s.y2) for s in page.segments)
    assert lowest == pytest.approx(bottom + GAP + LENGTH, abs=0.05), "marks end 5 mm below the last row"
    beside = {round(s.y1, 2) for s in page.segments if abs(s.y1 - s.y2) < 1e-6 and
              (max(s.x1, s.x2) < min(r.x for r in painted) or min(s.x1, s.x2) > max(r.x + r.w for r in painted))}
    assert len(beside) == 3, f"horizontal cuts marked beside the sheet: {sorted(beside)}"
