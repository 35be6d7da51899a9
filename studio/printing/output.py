"""Writing pages to PDF (QPdfWriter) and PNG files, both through :func:`studio.printing.render.render_page`.

Both are rendered in memory and written through the studio's one atomic writer, so a killed ``studio print -o``
leaves the previous file or the new one, never an empty or truncated one.

PDF page sizes are exact: Qt stores page sizes in whole points (A4 becomes 595 x 842), so after writing, each
page's ``/MediaBox`` is rewritten in place (same byte length, so the cross-reference table stays valid) to the
exact size, anchored at the top edge, which is where the renderer's millimetre frame starts.
"""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QSizeF
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter

from studio.model.safeio import WriteRefused, write_atomic

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


def pdf_bytes(pages: list[Page], title: str = "Studio print") -> bytes:
    """The PDF of ``pages`` (at least one), with exact page sizes, rendered in memory."""
    if not pages:
        raise ValueError("nothing to print")
    ensure_app()
    buffer = QBuffer()
    buffer.open(QIODevice.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle(title)
    writer.setCreator("Studio")
    writer.setResolution(PDF_DPI)
    writer.setPageLayout(_page_layout(pages[0]))
    painter = QPainter()
    if not painter.begin(writer):
        raise OutputError("cannot render the PDF")
    k = PDF_DPI / MM_PER_INCH
    for i, page in enumerate(pages):
        if i:
            writer.setPageLayout(_page_layout(page))
            writer.newPage()
        render_page(painter, page, k)
    painter.end()
    del writer  # flushes the trailer into the buffer
    data = bytes(buffer.data())
    buffer.close()
    return exact_media_box_bytes(data, [(p.width, p.height) for p in pages])


def write_pdf(pages: list[Page], path: Path, title: str = "Studio print") -> None:
    """Write ``pages`` (at least one) to a PDF at ``path`` atomically (:func:`studio.model.safeio.write_atomic`:
    a kill leaves the old file or the new one; never through a symlink); raises OutputError (an OSError)."""
    data = pdf_bytes(pages, title)
    _write(path, data)


def _write(path: Path, data: bytes) -> None:
    try:
        write_atomic(path, data)
    except WriteRefused as exc:
        raise OutputError(str(exc)) from None
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None


def exact_media_box_bytes(pdf: bytes, sizes_mm: list[tuple[float, float]]) -> bytes:
    """Rewrite the i-th ``/MediaBox`` to the exact size of page i (top-anchored, same byte length)."""
    data = bytearray(pdf)
    boxes = list(_MEDIABOX.finditer(data))
    if len(boxes) != len(sizes_mm):
        return pdf  # not the layout we know; leave Qt's whole-point sizes
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
    return bytes(data)


def png_bytes(image: QImage) -> bytes:
    """``image`` encoded as PNG in memory."""
    buffer = QBuffer()
    buffer.open(QIODevice.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OutputError("cannot encode the PNG image")
    data = bytes(buffer.data())
    buffer.close()
    return data


def write_png(image: QImage, target: Path) -> Path:
    """Write ``image`` as a PNG file atomically; raises OutputError."""
    _write(Path(target), png_bytes(image))
    return Path(target)


def write_pngs(pages: list[Page], folder: Path, stem: str, dpi: float = 150.0) -> list[Path]:
    """One PNG per page, ``<stem>-<n>.png`` (n from 1), at ``dpi``; returns the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return [write_png(page_image(page, dpi), folder / f"{stem}-{i:02d}.png") for i, page in enumerate(pages, 1)]
