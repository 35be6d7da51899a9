"""A minimal reader for the PDFs QPdfWriter writes: page MediaBoxes and the rectangles each page paints.

Only what the tests need: objects are found by regex, Flate streams are inflated, and content streams are
interpreted for ``q``/``Q``/``cm`` (the transformation matrix), ``re`` and the painting operator that follows.
Rectangles are returned in millimetres from the page's top-left corner (y down), like the renderer's frame.
"""
from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from pathlib import Path

MM_PER_PT = 25.4 / 72
_OBJ = re.compile(rb"(\d+) 0 obj(.*?)endobj", re.S)
_NUM = re.compile(rb"^[-+]?(\d+\.?\d*|\.\d+)$")


@dataclass
class PdfRect:
    x: float
    y: float
    w: float
    h: float
    op: str

    @property
    def center(self):
        return (self.x + self.w / 2, self.y + self.h / 2)


@dataclass
class PdfSegment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass
class PdfPage:
    media_box: tuple[float, float, float, float]
    rects: list[PdfRect]
    segments: list[PdfSegment]

    @property
    def size_pt(self):
        x0, y0, x1, y1 = self.media_box
        return (x1 - x0, y1 - y0)

    def fills(self, w_mm: float, h_mm: float, tol: float = 0.05) -> list[PdfRect]:
        return [r for r in self.rects if r.op in ("f", "f*") and abs(r.w - w_mm) < tol and abs(r.h - h_mm) < tol]


def _stream(body: bytes) -> bytes:
    m = re.search(rb"stream\r?\n(.*?)\r?\nendstream", body, re.S)
    if not m:
        return b""
    raw = m.group(1)
    return zlib.decompress(raw) if b"FlateDecode" in body[:m.start()] else raw


def _mul(a, b):
    """Matrix product a x b for PDF [a b c d e f] matrices (row-vector convention)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _interpret(content: bytes, top: float, left: float) -> tuple[list[PdfRect], list[PdfSegment]]:
    """Rectangles (``re`` + painting operator) and stroked straight segments (``m`` ``l`` ... ``S``), in mm."""
    ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    stack, operands, pending, out = [], [], [], []
    path: list[tuple[float, float]] = []
    subpaths: list[list[tuple[float, float]]] = []
    segments: list[PdfSegment] = []

    def to_mm(x, y):
        px, py = _apply(ctm, x, y)
        return ((px - left) * MM_PER_PT, (top - py) * MM_PER_PT)

    for tok in content.split():
        if _NUM.match(tok):
            operands.append(float(tok))
            continue
        op = tok.decode("latin-1")
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop() if stack else ctm
        elif op == "cm" and len(operands) >= 6:
            ctm = _mul(tuple(operands[-6:]), ctm)
        elif op == "re" and len(operands) >= 4:
            x, y, w, h = operands[-4:]
            (ax, ay), (bx, by) = _apply(ctm, x, y), _apply(ctm, x + w, y + h)
            pending.append(((min(ax, bx) - left) * MM_PER_PT, (top - max(ay, by)) * MM_PER_PT,
                            abs(bx - ax) * MM_PER_PT, abs(by - ay) * MM_PER_PT))
        elif op == "m" and len(operands) >= 2:
            if len(path) > 1:
                subpaths.append(path)
            path = [to_mm(*operands[-2:])]
        elif op == "l" and len(operands) >= 2 and path:
            path.append(to_mm(*operands[-2:]))
        elif op in ("c", "v", "y", "h"):
            path = []          # curves and closed shapes are not marks
        elif op in ("f", "f*", "S", "B", "B*", "b", "n", "s"):
            out.extend(PdfRect(*r, op) for r in pending)
            pending = []
            if len(path) > 1:
                subpaths.append(path)
            if op == "S":
                for sp in subpaths:
                    segments.extend(PdfSegment(*a, *b) for a, b in zip(sp, sp[1:]))
            path, subpaths = [], []
        operands = []
    return out, segments


def read_pdf(path: Path) -> list[PdfPage]:
    data = Path(path).read_bytes()
    objects = {int(m.group(1)): m.group(2) for m in _OBJ.finditer(data)}
    pages_obj = next(b for b in objects.values() if re.search(rb"/Type\s*/Pages\b", b))
    kids = [int(k) for k in re.findall(rb"(\d+) 0 R", re.search(rb"/Kids\s*\[(.*?)\]", pages_obj, re.S).group(1))]
    out = []
    for kid in kids:
        body = objects[kid]
        box = tuple(float(v) for v in re.search(rb"/MediaBox\s*\[([^\]]*)\]", body).group(1).split())
        contents = [int(c) for c in re.findall(rb"/Contents\s*(\d+) 0 R", body)]
        content = b"".join(_stream(objects[c]) for c in contents)
        out.append(PdfPage(box, *_interpret(content, box[3], box[0])))
    return out
