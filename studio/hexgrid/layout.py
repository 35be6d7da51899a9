"""Hex <-> millimetre layout for flat-top and pointy-top grids.

Coordinates are millimetres on the printed sheet with x to the right and **y downwards**
(screen/QPainter/PDF convention).  ``size_mm`` is the hex's flat-to-flat width (the
across-flats distance, i.e. the distance between adjacent hex centres).  The circumradius
(centre to corner) is ``size_mm / sqrt(3)``.

Corner ``i`` is the clockwise start of hexside ``i`` (directions as in ``coords``), so
hexside ``i`` runs from ``corners[i]`` to ``corners[(i + 1) % 6]``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from studio.hexgrid.coords import DIRECTIONS, Hex

SQRT3 = math.sqrt(3.0)

Point = tuple[float, float]


def cube_round(fq: float, fr: float) -> Hex:
    """Nearest hex to fractional axial coordinates (standard cube rounding).

    >>> cube_round(0.2, 0.1), cube_round(-0.2, 1.1)
    ((0, 0), (0, 1))
    """
    fs = -fq - fr
    q = round(fq)
    r = round(fr)
    s = round(fs)
    dq = abs(q - fq)
    dr = abs(r - fr)
    ds = abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (int(q), int(r))


@dataclass(frozen=True, slots=True)
class Layout:
    """Maps hexes to mm and back for one orientation.

    ``flat``: True for flat-top (columns; odd-q/even-q boards), False for pointy-top.
    ``size_mm``: flat-to-flat width in mm.  ``origin``: mm position of hex (0, 0)'s centre.

    >>> lay = Layout(flat=True, size_mm=16.0)
    >>> lay.to_mm((0, 1))
    (0.0, 16.0)
    >>> lay.from_mm(*lay.to_mm((3, -2)))
    (3, -2)
    """

    flat: bool
    size_mm: float
    origin: Point = (0.0, 0.0)

    def __post_init__(self) -> None:
        if not self.size_mm > 0:
            raise ValueError(f"size_mm must be > 0, got {self.size_mm!r}")

    @property
    def radius(self) -> float:
        """Circumradius in mm (centre to corner).

        >>> round(Layout(True, SQRT3).radius, 9)
        1.0
        """
        return self.size_mm / SQRT3

    def to_mm(self, h: Hex) -> Point:
        """Centre of hex ``h`` in mm.

        >>> Layout(flat=False, size_mm=10.0).to_mm((1, 0))
        (10.0, 0.0)
        """
        q, r = h
        w = self.size_mm
        if self.flat:
            x = 1.5 * self.radius * q
            y = w * (r + q / 2.0)
        else:
            x = w * (q + r / 2.0)
            y = 1.5 * self.radius * r
        return (self.origin[0] + x, self.origin[1] + y)

    def fractional(self, x: float, y: float) -> tuple[float, float]:
        """Fractional axial coordinates of point (x, y) mm (inverse of ``to_mm``).

        >>> Layout(flat=True, size_mm=10.0).fractional(0.0, 5.0)
        (0.0, 0.5)
        """
        x -= self.origin[0]
        y -= self.origin[1]
        if self.flat:
            q = x / (1.5 * self.radius)
            r = y / self.size_mm - q / 2.0
        else:
            r = y / (1.5 * self.radius)
            q = x / self.size_mm - r / 2.0
        return (q, r)

    def from_mm(self, x: float, y: float) -> Hex:
        """Hex containing point (x, y) mm (pixel picking; edge points go to either hex).

        >>> Layout(flat=True, size_mm=10.0).from_mm(0.0, 4.9)
        (0, 0)
        """
        fq, fr = self.fractional(x, y)
        return cube_round(fq, fr)

    def corner_offset(self, i: int) -> Point:
        """Vector from a hex centre to its corner ``i`` (0..5), in mm.

        >>> [round(v, 6) for v in Layout(True, SQRT3).corner_offset(0)]
        [-0.5, -0.866025]
        """
        base = -120.0 if self.flat else -150.0
        a = math.radians(base + 60.0 * (i % 6))
        return (self.radius * math.cos(a), self.radius * math.sin(a))

    def corners(self, h: Hex) -> list[Point]:
        """The 6 corners of ``h`` in mm; hexside i runs from corner i to corner i+1.

        >>> len(Layout(False, 10.0).corners((2, 3)))
        6
        """
        cx, cy = self.to_mm(h)
        out = []
        for i in range(6):
            ox, oy = self.corner_offset(i)
            out.append((cx + ox, cy + oy))
        return out

    def hexside_midpoint(self, h: Hex, direction: int) -> Point:
        """Midpoint of hexside ``direction`` of ``h`` (half-way to the neighbour's centre).

        >>> Layout(True, 10.0).hexside_midpoint((0, 0), 3)
        (0.0, 5.0)
        """
        cx, cy = self.to_mm(h)
        d = DIRECTIONS[direction % 6]
        nx, ny = self.to_mm((h[0] + d[0], h[1] + d[1]))
        return ((cx + nx) / 2.0, (cy + ny) / 2.0)

    def hex_extent(self) -> tuple[float, float]:
        """(width, height) of one hex's bounding box in mm.

        >>> [round(v, 6) for v in Layout(True, SQRT3).hex_extent()]
        [2.0, 1.732051]
        """
        if self.flat:
            return (2.0 * self.radius, self.size_mm)
        return (self.size_mm, 2.0 * self.radius)
