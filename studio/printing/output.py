"""Writing pages to PDF (QPdfWriter) and PNG files, both through :func:`studio.printing.render.render_page`.

PDF page sizes are exact: Qt stores page sizes in whole points (A4 becomes 595 x 842), so after writing, each
page's ``/MediaBox`` is rewritten in place (same byte length, so the cross-reference table stays valid) to the
exact size, anchored at the top edge, which is where the renderer's millimetre frame starts.
"""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QMarginsF, QSizeF
from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

from .primitives import Page
from .render import ensure_app, page_image, render_page
from .units import MM_PER_INCH, MM_PER_PT

PDF_DPI = 1200
_MEDIABOX = re.compile(rb"/MediaBox\s*\[([^\]]*)\]")


class OutputError(OSError):
    """A file could not be written."""


def _page_layout(page: Page) -> QPageLayout:
    size = QPageSize(QSizeF(page.width, page.height), QPageSize.Millimeter, "", QPageSize.ExactMatch)
    return QPageLayout(size, QPageLayout.Portrait, QMarginsF(0, 0, 0, 0))


def write_pdf(pages: list[Page], path: Path, title: str = "Studio print") -> None:
    """Write ``pages`` (at least one) to a PDF at ``path``; raises OutputError when it cannot be written."""
    if not pages:
        raise ValueError("nothing to print")
    ensure_app()
    path = Path(path)
    writer = QPdfWriter(str(path))
    writer.setTitle(title)
    writer.setCreator("Studio")
    writer.setResolution(PDF_DPI)
    writer.setPageLayout(_page_layout(pages[0]))
    painter = QPainter()
    if not painter.begin(writer):
        raise OutputError(f"cannot write {path}")
    k = PDF_DPI / MM_PER_INCH
    for i, page in enumerate(pages):
        if i:
            writer.setPageLayout(_page_layout(page))
            writer.newPage()
        render_page(painter, page, k)
    painter.end()
    exact_media_boxes(path, [(p.width, p.height) for p in pages])


def exact_media_boxes(path: Path, sizes_mm: list[tuple[float, float]]) -> None:
    """Rewrite the i-th ``/MediaBox`` to the exact size of page i (top-anchored, same byte length)."""
    data = bytearray(Path(path).read_bytes())
    boxes = list(_MEDIABOX.finditer(data))
    if len(boxes) != len(sizes_mm):
        return  # not the layout we know; leave Qt's whole-point sizes
    for m, (w_mm, h_mm) in reversed(list(zip(boxes, sizes_mm))):
        nums = [float(v) for v in m.group(1).split()]
        if len(nums) != 4:
            continue
        w, h = w_mm / MM_PER_PT, h_mm / MM_PER_PT
        top = nums[3]
        exact = f"0 {top - h:.4f} {w:.4f} {top:g}".encode()
        width = len(m.group(1))
        if len(exact) > width:
            continue
        data[m.start(1):m.end(1)] = exact.ljust(width)
    Path(path).write_bytes(bytes(data))


def write_pngs(pages: list[Page], folder: Path, stem: str, dpi: float = 150.0) -> list[Path]:
    """One PNG per page, ``<stem>-<n>.png`` (n from 1), at ``dpi``; returns the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, page in enumerate(pages, 1):
        target = folder / f"{stem}-{i:02d}.png"
        if not page_image(page, dpi).save(str(target)):
            raise OutputError(f"cannot write {target}")
        out.append(target)
    return out
