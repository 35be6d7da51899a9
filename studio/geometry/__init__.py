"""Continuous (measured-table) geometry in inches, on Shapely 2: the counterpart of ``studio.hexgrid``.

Conventions: a table is a rectangle ``0 <= x <= width``, ``0 <= y <= depth`` in inches, x to the right, y away
from the near (south) edge. Facings are degrees clockwise from north (+y). Nothing here names a rule system: the
callers give each :class:`Area` its kind, height and cover, and read back what a line of sight, a path or a
footprint meets.
"""
from __future__ import annotations

from .shapes import bearing, footprint, relative_bearing, segment
from .table import Area, Crossing, HeightArea, LosResult, TableGeometry

__all__ = ["Area", "Crossing", "HeightArea", "LosResult", "TableGeometry", "bearing", "footprint",
           "relative_bearing", "segment"]
