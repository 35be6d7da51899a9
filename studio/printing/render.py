"""The one QPainter renderer: draws :class:`~studio.printing.primitives.Page` objects on any paint device.

The same :func:`render_page` paints the on-screen preview (:mod:`studio.qt.print_preview`), PDF pages
(:func:`studio.printing.output.write_pdf`) and PNG images. The painter is set up so one unit is one millimetre;
text is drawn in a finer sub-frame so fonts keep fractional sizes at any resolution.
"""
from __future__ import annotations

import os
from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QGuiApplication, QImage, QPainter, QPen, QPolygonF

from .primitives import Box, Ellipse, Group, Image, Item, Line, Page, Polygon, Text
from .units import MM_PER_INCH, MM_PER_PT

FONT_FAMILY = "DejaVu Sans"
TEXT_UNITS_PER_MM = 40.0
MIN_SHRINK = 0.5


def ensure_app() -> QGuiApplication:
    """The Qt application (fonts need one); headless machines get the offscreen platform.

    A QApplication (not just a QGuiApplication) is created, so widgets such as the preview dialog can still be
    made later in the same process.
    """
    app = QGuiApplication.instance()
    if app is None:
        from PySide6.QtWidgets import QApplication

        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QApplication([])
    return app


@lru_cache(maxsize=64)
def _colour(value: str) -> QColor:
    return QColor(value)


def _pen(colour: str | None, width: float, dash: bool = False) -> QPen:
    if colour is None:
        return QPen(Qt.NoPen)
    pen = QPen(_colour(colour), max(width, 0.05))
    pen.setJoinStyle(Qt.MiterJoin)
    pen.setCapStyle(Qt.FlatCap)
    if dash:
        pen.setStyle(Qt.DashLine)
    return pen


def _brush(colour: str | None) -> QBrush:
    return QBrush(Qt.NoBrush) if colour is None else QBrush(_colour(colour))


def qt_rect(r) -> QRectF:
    return QRectF(r.x, r.y, r.w, r.h)


_ALIGN = {"left": Qt.AlignLeft, "center": Qt.AlignHCenter, "right": Qt.AlignRight}
_VALIGN = {"top": Qt.AlignTop, "middle": Qt.AlignVCenter, "bottom": Qt.AlignBottom}


def make_font(size_pt: float, bold: bool = False, italic: bool = False) -> QFont:
    """A font whose pixel size is in text units (1/40 mm) - see :func:`_draw_text`."""
    font = QFont(FONT_FAMILY)
    font.setPixelSize(max(1, round(size_pt * MM_PER_PT * TEXT_UNITS_PER_MM)))
    font.setBold(bold)
    font.setItalic(italic)
    font.setHintingPreference(QFont.PreferNoHinting)
    return font


def text_width_mm(text: str, size_pt: float, bold: bool = False) -> float:
    """Advance width of one line of text in mm."""
    return QFontMetricsF(make_font(size_pt, bold)).horizontalAdvance(text) / TEXT_UNITS_PER_MM


def text_height_mm(text: str, size_pt: float, width_mm: float, bold: bool = False, italic: bool = False) -> float:
    """Height in mm of ``text`` word-wrapped to ``width_mm`` (the scenario sheet's flow layout uses this)."""
    fm = QFontMetricsF(make_font(size_pt, bold, italic))
    k = TEXT_UNITS_PER_MM
    r = fm.boundingRect(QRectF(0, 0, width_mm * k, 1e6), int(Qt.TextWordWrap | Qt.AlignLeft), text)
    return r.height() / k


@lru_cache(maxsize=4096)
def _advance(text: str, size_pt: float, bold: bool, italic: bool) -> float:
    return QFontMetricsF(make_font(size_pt, bold, italic)).horizontalAdvance(text) / TEXT_UNITS_PER_MM


def fit_text(t: Text) -> tuple[str, float, float]:
    """``(text, size, needed)``: what a shrinking one-line text prints and at which size - the text itself
    when it fits, else the first alternative that fits, else the narrowest one shrunk to fit (never below
    ``t.min_pt`` nor half the size); ``needed`` is the size it would need to fit (>= size when it fits)."""
    size = t.font_pt
    if not t.shrink or t.wrap or t.rect.w <= 0:
        return t.text, size, size
    widths = [(_advance(c, size, t.bold, t.italic), c) for c in (t.text, *t.alternatives)]
    for advance, candidate in widths:
        if advance <= t.rect.w:
            return candidate, size, size
    advance, candidate = min(widths, key=lambda wc: wc[0])
    needed = size * t.rect.w / advance * 0.98
    return candidate, max(needed, size * MIN_SHRINK, t.min_pt), needed


def _texts(items, scale: float = 1.0):
    for item in items:
        if isinstance(item, Group):
            yield from _texts(item.items, scale * min(abs(item.sx), abs(item.sy)))
        elif isinstance(item, Text):
            yield item, scale


def small_text_warnings(pages: list[Page]) -> list[str]:
    """One line per distinct text that would need a size below its minimum (``Text.min_pt``) to fit."""
    out: dict[tuple[str, str], str] = {}
    for page in pages:
        for t, scale in _texts(page.items):
            if t.min_pt <= 0:
                continue
            text, size, needed = fit_text(t)
            if needed < t.min_pt - 1e-6:
                key = (t.label.split(" ")[0] + " " + t.label.split(" ")[-1], text)
                out.setdefault(key, f"{t.label}: '{text}' needs {needed * scale:.1f} pt to fit "
                                    f"{t.rect.w * scale:.1f} mm, below the layout's minimum "
                                    f"{t.min_pt * scale:.1f} pt; it overflows (give the card a shorter name)")
    return list(out.values())


def _draw_text(p: QPainter, t: Text) -> None:
    text, size, _ = fit_text(t)
    font = make_font(size, t.bold, t.italic)
    k = TEXT_UNITS_PER_MM
    p.save()
    p.scale(1 / k, 1 / k)
    p.setFont(font)
    p.setPen(_colour(t.colour))
    flags = _ALIGN[t.align] | _VALIGN[t.valign]
    if t.wrap:
        flags |= Qt.TextWordWrap
    p.drawText(QRectF(t.rect.x * k, t.rect.y * k, t.rect.w * k, t.rect.h * k), int(flags), text)
    p.restore()


def draw_item(p: QPainter, item: Item) -> None:
    """Draw one primitive (recursively for groups) in the painter's current millimetre frame."""
    if isinstance(item, Group):
        p.save()
        if item.dx or item.dy:
            p.translate(item.dx, item.dy)
        if item.sx != 1.0 or item.sy != 1.0:
            p.scale(item.sx, item.sy)
        if item.clip is not None:
            p.setClipRect(qt_rect(item.clip), Qt.IntersectClip)
        for child in item.items:
            draw_item(p, child)
        p.restore()
    elif isinstance(item, Box):
        if item.fill is not None and item.stroke is None:
            # plain fills are not antialiased, so butted backgrounds meet without hairline seams in PNGs
            p.setRenderHint(QPainter.Antialiasing, False)
            p.fillRect(qt_rect(item.rect), _colour(item.fill))
            p.setRenderHint(QPainter.Antialiasing, True)
        else:
            p.setPen(_pen(item.stroke, item.width))
            p.setBrush(_brush(item.fill))
            p.drawRect(qt_rect(item.rect))
    elif isinstance(item, Line):
        p.setPen(_pen(item.stroke, item.width, item.dash))
        p.drawLine(QPointF(item.x1, item.y1), QPointF(item.x2, item.y2))
    elif isinstance(item, Text):
        _draw_text(p, item)
    elif isinstance(item, Polygon):
        p.setPen(_pen(item.stroke, item.width))
        p.setBrush(_brush(item.fill))
        poly = QPolygonF([QPointF(x, y) for x, y in item.points])
        if item.closed:
            p.drawPolygon(poly)
        else:
            p.drawPolyline(poly)
    elif isinstance(item, Ellipse):
        p.setPen(_pen(item.stroke, item.width))
        p.setBrush(_brush(item.fill))
        p.drawEllipse(qt_rect(item.rect))
    elif isinstance(item, Image):
        img = _load_image(item.path)
        if img is not None:
            p.drawImage(qt_rect(item.rect), img)
    else:  # pragma: no cover - a new primitive without a drawing rule is a programming error
        raise TypeError(f"cannot draw {type(item).__name__}")


#: largest picture file a card may embed (a FIFO, a device or a huge file is skipped, never read)
MAX_IMAGE_BYTES = 32 * 1024 * 1024


def _load_image(path: str) -> QImage | None:
    """The picture at ``path``, read only when it is a regular file under the size limit; None otherwise."""
    from studio.model.safeio import read_regular  # noqa: PLC0415

    try:
        img = QImage.fromData(read_regular(path, MAX_IMAGE_BYTES))
    except (OSError, ValueError):
        return None
    return None if img.isNull() else img


def render_page(p: QPainter, page: Page, units_per_mm: float) -> None:
    """Paint ``page`` with the painter's origin at the page's top-left and ``units_per_mm`` device units per mm."""
    p.save()
    p.setRenderHint(QPainter.Antialiasing, True)
    p.setRenderHint(QPainter.TextAntialiasing, True)
    p.scale(units_per_mm, units_per_mm)
    for item in page.items:
        draw_item(p, item)
    p.restore()


def page_image(page: Page, dpi: float = 150.0) -> QImage:
    """The page rendered to a white RGB image at ``dpi``."""
    ensure_app()
    k = dpi / MM_PER_INCH
    img = QImage(max(1, round(page.width * k)), max(1, round(page.height * k)), QImage.Format_RGB32)
    img.setDotsPerMeterX(round(dpi / 0.0254))
    img.setDotsPerMeterY(round(dpi / 0.0254))
    img.fill(QColor("#ffffff"))
    painter = QPainter(img)
    render_page(painter, page, k)
    painter.end()
    return img
