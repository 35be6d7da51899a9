"""The duplex calibration sheet: measure the per-printer back-page offset. Qt-free.

Front: a crosshair at the page centre, instructions and a 100 mm scale bar. Back: millimetre scales centred
behind the crosshair, drawn mirrored so that they read correctly when the sheet is held against the light from
the front. Reading: the value on each scale under the front crosshair is the correction to *add* to the current
back offset (X positive = move backs right, Y positive = move backs down, as seen from the front). The sheet
is printed with the current offset applied, so a calibrated printer reads 0, 0.
"""
from __future__ import annotations

from .geometry import BackMapping, GeometryError, Rect
from .mapsheet import scale_bar
from .primitives import Group, Item, Line, Page, Text
from .units import paper_mm

SPAN = 10       # +/- mm of scale
INK = "#000000"


def _scales(cx: float, cy: float) -> list[Item]:
    """Scales in front-view coordinates centred at (cx, cy); tick t is labelled t (mm)."""
    out: list[Item] = []
    for i in range(-2 * SPAN, 2 * SPAN + 1):
        t = i / 2
        major = i % 2 == 0
        ln = 4.0 if t == 0 else (2.5 if major else 1.5)
        out.append(Line(cx + t, cy + 6, cx + t, cy + 6 + ln, INK, 0.1))   # x scale below the centre
        out.append(Line(cx + 6, cy + t, cx + 6 + ln, cy + t, INK, 0.1))   # y scale right of the centre
        if i % 10 == 0:   # a label every 5 mm: at 5 pt, "-10" is under 4 mm wide, so labels never touch
            out.append(Text(Rect(cx + t - 2.25, cy + 10.5, 4.5, 3), f"{t:g}", 5))
            out.append(Text(Rect(cx + 10.5, cy + t - 1.5, 6, 3), f"{t:g}", 5, align="left"))
    out += [Line(cx - SPAN, cy + 6, cx + SPAN, cy + 6, INK, 0.1), Line(cx + 6, cy - SPAN, cx + 6, cy + SPAN, INK, 0.1)]
    # long guide lines so the front crosshair's lines can be followed onto the scales
    out += [Line(cx, cy - 40, cx, cy - 14, INK, 0.1), Line(cx - 40, cy, cx - 14, cy, INK, 0.1)]
    out.append(Text(Rect(cx - 40, cy + 15, 80, 4), "X (mm): read under the front's vertical line", 6))
    out.append(Text(Rect(cx + 17, cy - 2, 60, 4), "Y (mm): read under the front's horizontal line", 6, align="left"))
    return out


def calibration_pages(paper: str, duplex: str, offset: tuple[float, float]) -> list[Page]:
    """Front and back calibration pages for ``duplex`` ('long' or 'short'; 'none' gives the front only)."""
    w, h = paper_mm(paper)
    cx, cy = w / 2, h / 2
    front = Page(w, h, label="calibration front")
    front.items += [Line(cx - 60, cy, cx + 60, cy, INK, 0.1), Line(cx, cy - 60, cx, cy + 60, INK, 0.1)]
    lines = [
        "Studio duplex calibration",
        f"Paper {paper}, {duplex}-edge duplex, current back offset X {offset[0]:g} mm, Y {offset[1]:g} mm.",
        "1. Print this file double-sided at 100% (no 'fit to page'); check the 100 mm bar below.",
        "2. Hold the sheet against a light with this side towards you.",
        "3. Where the long cross lines meet the scales on the back, read X and Y (mm).",
        "4. New offset = current offset + reading; use --back-offset X,Y or set print.back_offset_mm "
        "in project.yaml, then print again: both readings should be 0.",
    ]
    y = 15.0
    for i, text in enumerate(lines):
        front.items.append(Text(Rect(15, y, w - 30, 10), text, 12 if i == 0 else 8, bold=i == 0, align="left",
                                valign="top", wrap=True))
        y += 8 if i == 0 else (9.5 if len(text) > 100 else 5.5)
    front.items += scale_bar(15, h - 20, 100.0)
    pages = [front]
    if duplex in ("long", "short"):
        reach = 45.0   # the scales and guide lines span about 40 mm round the centre, their captions more
        if abs(offset[0]) > w / 2 - reach or abs(offset[1]) > h / 2 - reach:
            raise GeometryError(f"back offset {offset[0]:g},{offset[1]:g} mm moves the calibration scales off the "
                                f"page (at most {w / 2 - reach:g} mm across, {h / 2 - reach:g} mm down)")
        mapping = BackMapping(w, h, duplex, offset)
        # back-page point = mirror(front point + offset): translate by the offset inside the mirror
        mx, my = (w, 0.0) if duplex == "long" else (0.0, h)
        sx, sy = (-1.0, 1.0) if duplex == "long" else (1.0, -1.0)
        inner = Group(_scales(cx, cy), dx=offset[0], dy=offset[1])
        back = Page(w, h, [Group([inner], dx=mx, dy=my, sx=sx, sy=sy, tag="calibration:back")],
                    label="calibration back")
        bx, by = mapping.point(cx, cy)
        assert abs(bx - (mx + sx * (cx + offset[0]))) < 1e-9 and abs(by - (my + sy * (cy + offset[1]))) < 1e-9
        pages.append(back)
    return pages
