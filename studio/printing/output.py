"""Writing pages to PDF (QPdfWriter) and PNG files, both through :func:`studio.printing.render.render_page`.

Both are rendered in memory and written through the studio's one atomic writer, so a killed ``studio print -o``
leaves the previous file or the new one, never an empty or truncated one.

PDF page sizes are exact: Qt stores page sizes in whole points (A4 becomes 595 x 842), so after writing, each
page's ``/MediaBox`` is rewritten in place (same byte length, so the cross-reference table stays valid) to the
exact size, anchored at the top edge, which is where the renderer's millimetre frame starts; the ``/TrimBox``
gets the same box, so it lies inside the MediaBox. Then an incremental update adds ``/ViewerPreferences`` to the
catalog (``/PrintScaling /None``, so "fit to page" is not the default, and the ``/Duplex`` mode of the job).

The format of ``studio print -o`` follows the suffix (:func:`output_format`): PDF, SVG (Qt's SVG generator, one
file per page) or PNG (one file per page at the given dpi); anything else is refused.
"""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QRectF, QSize, QSizeF
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgGenerator

from studio.model.safeio import WriteRefused, write_atomic

from .primitives import Page
from .render import ensure_app, page_image, render_page
from .units import MM_PER_INCH, MM_PER_PT

PDF_DPI = 1200
_BOXES = {name: re.compile(rb"/" + name + rb"\s*\[([^\]]*)\]") for name in (b"MediaBox", b"TrimBox")}
_MEDIABOX = _BOXES[b"MediaBox"]
FORMATS = {".pdf": "pdf", ".svg": "svg", ".png": "png"}
SVG_DPI = 96.0          # Inkscape's and the browsers' px: the SVG then has its true size
DUPLEX_NAMES = {"long": b"/DuplexFlipLongEdge", "short": b"/DuplexFlipShortEdge", "none": b"/Simplex"}


class OutputError(OSError):
    """A file could not be written."""


def _page_layout(page: Page) -> QPageLayout:
    size = QPageSize(QSizeF(page.width, page.height), QPageSize.Millimeter, "", QPageSize.ExactMatch)
    return QPageLayout(size, QPageLayout.Portrait, QMarginsF(0, 0, 0, 0))


def output_format(path: Path) -> str:
    """'pdf', 'svg' or 'png' from the suffix of ``path``; ValueError names the accepted suffixes.

    >>> output_format(Path("sheet.SVG")), output_format(Path("a.pdf"))
    ('svg', 'pdf')
    """
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise ValueError(f"cannot tell the format of {path} from its suffix: use .pdf, .svg or .png")
    return fmt


def pdf_bytes(pages: list[Page], title: str = "Studio print", duplex: str | None = None) -> bytes:
    """The PDF of ``pages`` (at least one), with exact page sizes and viewer preferences (no print scaling;
    ``duplex`` 'long', 'short' or 'none' adds that duplex mode), rendered in memory."""
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
    data = exact_media_box_bytes(data, [(p.width, p.height) for p in pages])
    return viewer_preferences(data, duplex)


def write_pdf(pages: list[Page], path: Path, title: str = "Studio print", duplex: str | None = None) -> None:
    """Write ``pages`` (at least one) to a PDF at ``path`` atomically (:func:`studio.model.safeio.write_atomic`:
    a kill leaves the old file or the new one; never through a symlink); raises OutputError (an OSError)."""
    data = pdf_bytes(pages, title, duplex)
    _write(path, data)


_CATALOG = re.compile(rb"(\d+) 0 obj\s*<<(\s*/Type\s*/Catalog\b.*?)>>\s*endobj", re.S)
_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_TRAILER = re.compile(rb"trailer\s*<<(.*?)>>\s*startxref", re.S)


def viewer_preferences(pdf: bytes, duplex: str | None) -> bytes:
    """``pdf`` with an incremental update that gives its catalog ``/ViewerPreferences`` (PDF 1.7, 12.2):
    ``/PrintScaling /None`` and, unless ``duplex`` is None, ``/Duplex`` for it; the header says PDF 1.7. A PDF
    of another shape is returned unchanged."""
    cat, start = _CATALOG.search(pdf), _STARTXREF.search(pdf)
    trailers = list(_TRAILER.finditer(pdf))
    if cat is None or start is None or not trailers or b"/ViewerPreferences" in cat.group(2):
        return pdf
    trailer = trailers[-1].group(1)
    size = re.search(rb"/Size\s+(\d+)", trailer)
    if size is None:
        return pdf
    num = cat.group(1)
    mode = b"" if duplex is None else b" /Duplex " + DUPLEX_NAMES.get(duplex, b"/Simplex")
    prefs = b"/ViewerPreferences << /PrintScaling /None" + mode + b" >>"
    body = b"\n" + num + b" 0 obj\n<<" + cat.group(2).rstrip() + b"\n" + prefs + b"\n>>\nendobj\n"
    offset = len(pdf) + 1
    xref_at = len(pdf) + len(body)
    keep = re.sub(rb"/Prev\s+\d+", b"", trailer).strip()
    tail = (b"xref\n" + num + b" 1\n" + f"{offset:010d} 00000 n \n".encode() + b"trailer\n<< " + keep +
            b" /Prev " + start.group(1) + b" >>\nstartxref\n" + str(xref_at).encode() + b"\n%%EOF\n")
    if re.match(rb"%PDF-1\.[0-6]\b", pdf):      # /Duplex is PDF 1.7: say so (same length, offsets stay)
        pdf = b"%PDF-1.7" + pdf[8:]
    return pdf + body + tail


def _write(path: Path, data: bytes) -> None:
    try:
        write_atomic(path, data)
    except WriteRefused as exc:
        raise OutputError(str(exc)) from None
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None


def exact_media_box_bytes(pdf: bytes, sizes_mm: list[tuple[float, float]]) -> bytes:
    """Rewrite the i-th ``/MediaBox`` and ``/TrimBox`` to the exact size of page i (top-anchored, same byte
    length), so the trim box is the media box."""
    top = _media_tops(pdf)
    for pattern in _BOXES.values():
        pdf = _exact_boxes(pdf, pattern, sizes_mm, top)
    return pdf


def _media_tops(pdf: bytes) -> list[float | None]:
    tops: list[float | None] = []
    for m in _MEDIABOX.finditer(pdf):
        nums = m.group(1).split()
        tops.append(float(nums[3]) if len(nums) == 4 else None)
    return tops


def _exact_boxes(pdf: bytes, pattern, sizes_mm: list[tuple[float, float]], tops: list[float | None]) -> bytes:
    data = bytearray(pdf)
    boxes = list(pattern.finditer(data))
    if len(boxes) != len(sizes_mm) or len(tops) != len(sizes_mm):
        return pdf  # not the layout we know; leave Qt's whole-point sizes
    for m, (w_mm, h_mm), top in reversed(list(zip(boxes, sizes_mm, tops))):
        if top is None:
            continue
        w, h = w_mm / MM_PER_PT, h_mm / MM_PER_PT
        exact = f"0 {top - h:.4f} {w:.4f} {top:g}".encode()
        width = len(m.group(1))
        if len(exact) > width:
            exact = f"0 {top - h:.2f} {w:.2f} {top:g}".encode()
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


def svg_bytes(page: Page, title: str = "Studio print") -> bytes:
    """One page as an SVG document of its true size (Qt's SVG generator at 96 px per inch)."""
    ensure_app()
    k = SVG_DPI / MM_PER_INCH
    buffer = QBuffer()
    buffer.open(QIODevice.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buffer)
    gen.setTitle(title)
    gen.setResolution(round(SVG_DPI))
    gen.setSize(QSize(round(page.width * k), round(page.height * k)))
    gen.setViewBox(QRectF(0, 0, page.width * k, page.height * k))
    painter = QPainter()
    if not painter.begin(gen):
        raise OutputError("cannot render the SVG")
    render_page(painter, page, k)
    painter.end()
    data = bytes(buffer.data())
    buffer.close()
    return data


def page_paths(path: Path, n: int) -> list[Path]:
    """Where the ``n`` pages of a one-page-per-file format go: ``path`` itself for one page, else
    ``<stem>-01<suffix>``, ``<stem>-02<suffix>`` ...

    >>> [p.name for p in page_paths(Path("s.svg"), 2)], page_paths(Path("s.svg"), 1)[0].name
    (['s-01.svg', 's-02.svg'], 's.svg')
    """
    path = Path(path)
    if n == 1:
        return [path]
    return [path.with_name(f"{path.stem}-{i:02d}{path.suffix}") for i in range(1, n + 1)]


def write_output(pages: list[Page], path: Path, title: str = "Studio print", duplex: str | None = None,
                 dpi: float = 150.0) -> list[Path]:
    """Write ``pages`` in the format of ``path``'s suffix (:func:`output_format`); returns the files written."""
    fmt = output_format(path)
    if fmt == "pdf":
        write_pdf(pages, path, title, duplex)
        return [Path(path)]
    targets = page_paths(path, len(pages))
    for page, target in zip(pages, targets):
        if fmt == "svg":
            _write(target, svg_bytes(page, title))
        else:
            write_png(page_image(page, dpi), target)
    return targets
