"""Bleed on every edge of every counter, also on a partly filled butted sheet (Deliver 4, Must show).

The sheet is rendered to pixels and measured: a layout whose art (a cross) runs past the trim on all four sides
must show its art and background in the bleed band of every edge of every counter (open edges of the block and of
the partly filled last row, and butted edges where the neighbour's bleed-free edge meets), and nothing beyond the
bleed on open edges.
"""
from __future__ import annotations

import pytest

from studio.cli.main import main

ART = "#ff00ff"
LAYOUT = """kind: layout
id: bleed-cross
name: bleed test cross
target: counter
background: {'*': '#00c0c0'}
elements:
  - {id: h, type: box, x_mm: -5, y_mm: 6, w_mm: 25.875, h_mm: 3.875, fill: '#ff00ff', stroke_mm: 0, side: both}
  - {id: v, type: box, x_mm: 6, y_mm: -5, w_mm: 3.875, h_mm: 25.875, fill: '#ff00ff', stroke_mm: 0, side: both}
"""


def _rgb(img, x_mm: float, y_mm: float, k: float) -> tuple[int, int, int]:
    c = img.pixelColor(int(x_mm * k), int(y_mm * k))
    return (c.red(), c.green(), c.blue())


@pytest.mark.parametrize("gutter,extra", [("0", 3), ("0", 7), ("2mm", 5)])
def test_bleed_is_measured_on_every_edge_of_every_counter(project, gutter, extra):
    from studio.model.project import load_project
    from studio.printing.geometry import grid_layout
    from studio.printing.jobs import PrintOptions, build_pages
    from studio.printing.render import page_image

    (project / "layouts").mkdir(exist_ok=True)
    (project / "layouts" / "bleed-cross.yaml").write_text(LAYOUT)
    try:
        index = load_project(project)
        opts = PrintOptions("counters", "", size="5/8in", bleed="3mm", gutter=gutter, layout="bleed-cross")
        cols = grid_layout(opts.sheet_spec(15.875, 15.875)).cols
        opts = PrintOptions("counters", f"unit:m1*{cols + extra}", size="5/8in", bleed="3mm", gutter=gutter,
                            layout="bleed-cross")
        pages = build_pages(index, opts)
    finally:
        (project / "layouts" / "bleed-cross.yaml").unlink()
    dpi = 150
    k = dpi / 25.4
    for page in pages:                           # the front and its mirrored back
        img = page_image(page, dpi)
        cells = [it for it in page.items if getattr(it, "tag", "").startswith("counter:")]
        assert len(cells) == cols + extra
        for cell in cells:
            x, y, s = cell.dx, cell.dy, 15.875
            mid = s / 2
            # (outside point at the cross arm, outside point near a corner of the edge) for each edge, 2 mm out
            edges = {"left": ((x - 2, y + mid), (x - 2, y + 2)), "right": ((x + s + 2, y + mid), (x + s + 2, y + 2)),
                     "top": ((x + mid, y - 2), (x + 2, y - 2)), "bottom": ((x + mid, y + s + 2), (x + 2, y + s + 2))}
            for edge, (arm, corner) in edges.items():
                assert _rgb(img, *arm, k) == (255, 0, 255), f"{cell.tag} {edge}: art does not run into the bleed"
                assert _rgb(img, *corner, k) != (255, 255, 255), f"{cell.tag} {edge}: no background in the bleed"
        # open edges stop at the bleed: 0.6 mm beyond it the paper is white (below the last, partly filled row)
        last = max(cells, key=lambda c: (c.dy, c.dx))
        assert _rgb(img, last.dx + 7.9, last.dy + 15.875 + 3.6, k) == (255, 255, 255)
        assert _rgb(img, last.dx + 15.875 + 3.6, last.dy + 7.9, k) == (255, 255, 255)


def test_calibration_scale_labels_do_not_touch():
    """The back page's scale labels ('-10', '-5', ...) are set far enough apart to read ('-10-8' read '-108')."""
    from studio.printing.calibration import calibration_pages
    from studio.printing.primitives import Group, Text
    from studio.printing.render import ensure_app, text_width_mm

    ensure_app()
    back = calibration_pages("letter", "long", (0.0, 0.0))[1]

    def texts(items):
        for it in items:
            if isinstance(it, Group):
                yield from texts(it.items)
            elif isinstance(it, Text):
                yield it
    labels = [t for t in texts(back.items) if t.text.lstrip("-").isdigit()]
    row = sorted((t for t in labels if t.align == "center"), key=lambda t: t.rect.x)
    assert [t.text for t in row] == ["-10", "-5", "0", "5", "10"]
    for a, b in zip(row, row[1:]):           # printed extents (centred in their boxes) leave a gap
        right = a.rect.x + a.rect.w / 2 + text_width_mm(a.text, a.font_pt) / 2
        left = b.rect.x + b.rect.w / 2 - text_width_mm(b.text, b.font_pt) / 2
        assert left - right > 1.0


def test_mark_length_distance_back_marks_and_captions(project):
    from studio.model.project import load_project
    from studio.printing.geometry import grid_layout
    from studio.printing.jobs import PrintOptions, build_pages
    from studio.printing.primitives import Line, Text

    index = load_project(project)
    opts = PrintOptions("counters", "unit:m1*20", mark_length="6mm", mark_distance="2mm", back_marks=True)
    front, back = build_pages(index, opts)
    grid = grid_layout(opts.sheet_spec(15.875, 15.875))
    bb = grid.bleed_box
    marks = [i for i in front.items if isinstance(i, Line)]
    assert marks and all(abs(abs(m.x2 - m.x1) + abs(m.y2 - m.y1) - 6.0) < 1e-9 for m in marks)
    tops = [m for m in marks if m.y2 < bb.y]
    assert tops and all(abs(bb.y - m.y2 - 2.0) < 1e-9 for m in tops)
    back_marks = [i for i in back.items if isinstance(i, Line)]
    assert len(back_marks) == len(marks)                                 # mirrored onto the back
    assert sorted(round(front.width - m.x1, 6) for m in back_marks) == sorted(round(m.x1, 6) for m in marks)
    captions = [t.text for p in (front, back) for t in p.items if isinstance(t, Text)]
    assert any(c.endswith("sheet 1 of 1, front") for c in captions)
    assert any(c.endswith("sheet 1 of 1, back") for c in captions)
    plain = build_pages(index, PrintOptions("counters", "unit:m1*20"))[1]
    assert not [i for i in plain.items if isinstance(i, Line)]          # no back marks unless asked for
