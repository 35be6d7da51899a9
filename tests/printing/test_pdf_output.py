"""What the printed PDF really contains: exact page sizes, counter pitch, backs behind fronts (measured from the PDF)."""
from __future__ import annotations

import pytest

from studio.cli.main import main
from studio.printing.units import length_mm

from .pdfparse import read_pdf

SIZES_PT = {"letter": (612.0, 792.0), "a4": (595.28, 841.89)}


def _print(project, tmp_path, *args) -> list:
    out = tmp_path / "out.pdf"
    assert main(["print", *args, "-o", str(out), "--project", str(project)]) == 0
    return read_pdf(out)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_page_sizes_are_exact(project, tmp_path, paper):
    pages = _print(project, tmp_path, "counters", "us-troop", "--paper", paper)
    assert len(pages) == 2
    for page in pages:
        w, h = page.size_pt
        assert w == pytest.approx(SIZES_PT[paper][0], abs=0.01)
        assert h == pytest.approx(SIZES_PT[paper][1], abs=0.01)


def _centres(page, cell: float):
    return [r.center for r in page.fills(cell, cell)]


def _pitches(values: list[float]) -> list[float]:
    distinct = sorted({round(v, 3) for v in values})
    return [b - a for a, b in zip(distinct, distinct[1:])]


@pytest.mark.parametrize("size,paper", [("5/8in", "letter"), ("1/2in", "a4"), ("1in", "letter"), ("9/16in", "a4")])
def test_butted_counter_pitch_equals_size(project, tmp_path, size, paper):
    mm = length_mm(size)
    pages = _print(project, tmp_path, "counters", "unit:m1*80", "--size", size, "--paper", paper, "--gutter", "0")
    centres = _centres(pages[0], mm)        # interior counters: butted on all sides, trim-sized backgrounds
    assert len(centres) >= 20
    for axis in (0, 1):
        pitches = _pitches([c[axis] for c in centres])
        assert pitches, "need at least two columns and rows"
        for p in pitches:
            assert abs(p - mm) < 0.05


def test_gutter_pitch_is_size_plus_gutter(project, tmp_path):
    pages = _print(project, tmp_path, "counters", "unit:m1*30", "--size", "3/4in", "--bleed", "1.5mm",
                   "--gutter", "4mm")
    fill = 19.05 + 2 * 1.5
    centres = _centres(pages[0], fill)
    assert len(centres) == 30
    for p in _pitches([c[0] for c in centres]):
        assert abs(p - (19.05 + 4.0)) < 0.05


@pytest.mark.parametrize("duplex,offset", [("long", (0.0, 0.0)), ("long", (1.5, -0.5)), ("short", (0.0, 0.0)),
                                           ("short", (-1.0, 2.0))])
def test_every_back_lands_behind_its_front(project, tmp_path, duplex, offset):
    pages = _print(project, tmp_path, "counters", "probe", "--duplex", duplex, f"--back-offset={offset[0]},{offset[1]}",
                   "--gutter", "6.35mm")       # every counter gets its full bleed: one background size
    cell = 15.875 + 2 * 3.175
    assert len(pages) == 2
    front, back = (_centres(p, cell) for p in pages)
    assert len(front) == len(back) == 22        # 2 + 6 + 4 + 10 counters, in the same order
    w_mm, h_mm = (v * 25.4 / 72 for v in pages[1].size_pt)
    for (fx, fy), (bx, by) in zip(front, back):
        # turn the back page over: long edge mirrors x, short edge mirrors y
        tx, ty = (w_mm - bx, by) if duplex == "long" else (bx, h_mm - by)
        assert tx == pytest.approx(fx + offset[0], abs=0.05)
        assert ty == pytest.approx(fy + offset[1], abs=0.05)


def test_duplex_none_prints_fronts_only(project, tmp_path):
    assert len(_print(project, tmp_path, "counters", "unit:m1*3", "--duplex", "none")) == 1


def test_map_and_scenario_and_calibration_pdfs(project, tmp_path):
    assert len(_print(project, tmp_path, "map", "probe", "--paper", "a4")) >= 3
    assert len(_print(project, tmp_path, "scenario", "probe", "--force")) >= 1
    cal = _print(project, tmp_path, "calibration", "--duplex", "short")
    assert len(cal) == 2


@pytest.mark.parametrize("gutter", ["0", "6.35mm", None])
def test_crop_marks_in_the_pdf_stay_outside_the_bleed(project, tmp_path, gutter):
    """The bleed box is measured from the painted counter backgrounds; the marks from the stroked lines."""
    extra = ["--gutter", gutter] if gutter is not None else []
    # 88 counters: whole rows (crop marks go only as far as the counters, so a part-filled page has fewer)
    page = _print(project, tmp_path, "counters", "unit:m1*88", "--marks", "crop", *extra)[0]
    painted = [r for r in page.rects if r.op in ("f", "f*")]
    x0, y0 = min(r.x for r in painted), min(r.y for r in painted)
    x1, y1 = max(r.x + r.w for r in painted), max(r.y + r.h for r in painted)
    outside = [s for s in page.segments if min(s.x1, s.x2) >= x1 or max(s.x1, s.x2) <= x0 or
               min(s.y1, s.y2) >= y1 or max(s.y1, s.y2) <= y0]
    marks = [s for s in outside if abs(s.x1 - s.x2) < 1e-6 or abs(s.y1 - s.y2) < 1e-6]
    assert len(marks) >= 2 * (8 + 12)               # every cut line is marked at both ends
    for s in marks:                                 # ... and no mark comes within 0.9 mm of the bleed
        gap = max(x0 - max(s.x1, s.x2), min(s.x1, s.x2) - x1, y0 - max(s.y1, s.y2), min(s.y1, s.y2) - y1)
        assert gap >= 0.9
    # each mark above or below the sheet continues a vertical cut line (a counter's trim edge)
    bleed = 3.175 if gutter == "6.35mm" else 0.0       # default: butted
    cell = 15.875 + 2 * bleed
    pitch = 15.875 + 2 * bleed
    left = min(r.x for r in page.fills(cell, cell)) + bleed      # a trim edge, from a full-bleed counter
    verticals = [s for s in marks if abs(s.x1 - s.x2) < 1e-6 and (max(s.y1, s.y2) < y0 or min(s.y1, s.y2) > y1)]

    def on_a_cut(x: float) -> bool:   # cut lines: left + k * pitch (left edges) and + 15.875 (right edges)
        return any(abs((x - e) / pitch - round((x - e) / pitch)) * pitch < 0.05 for e in (left, left + 15.875))

    assert verticals and all(on_a_cut(s.x1) for s in verticals)
