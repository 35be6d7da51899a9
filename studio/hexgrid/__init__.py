"""Pure hex geometry: coordinates, layout (hex <-> mm), lines, facing, paths, labels, LOS.

No Qt, no pydantic, no other ``studio`` package: plain tuples/ints and numpy only.
Hexes are axial ``(q, r)`` tuples (see ``studio.hexgrid.coords``).

The numpy parts (``visibility_map``; ``studio.hexgrid.fan``) load on first use: importing the package (as
validation does) does not import numpy.
"""

from studio.hexgrid.coords import (
    DIRECTIONS,
    FLAT_DIRECTION_NAMES,
    POINTY_DIRECTION_NAMES,
    Hex,
    axial_to_offset,
    distance,
    neighbour,
    neighbours,
    offset_to_axial,
    ring,
    rotate_180,
    within,
)
from studio.hexgrid.facing import Aspect, hit_angles, hit_aspect, in_arc, sector, turn_cost
from studio.hexgrid.labels import AlphaNumericLabels, NumericLabels
from studio.hexgrid.layout import Layout
from studio.hexgrid.lines import EdgePolicy, hex_line, line_steps, runs_along_hexsides
from studio.hexgrid.los import LosResult, LosRules, check_los
from studio.hexgrid.paths import movement_range, shortest_path


def __getattr__(name: str):
    if name == "visibility_map":  # numpy: imported on first use
        from studio.hexgrid.visibility import visibility_map

        return visibility_map
    raise AttributeError(f"module 'studio.hexgrid' has no attribute {name!r}")


__all__ = [
    "DIRECTIONS", "FLAT_DIRECTION_NAMES", "POINTY_DIRECTION_NAMES", "Hex", "axial_to_offset",
    "distance", "neighbour", "neighbours", "offset_to_axial", "ring", "rotate_180", "within",
    "Aspect", "hit_angles", "hit_aspect", "in_arc", "sector", "turn_cost",
    "AlphaNumericLabels", "NumericLabels", "Layout",
    "EdgePolicy", "hex_line", "line_steps", "runs_along_hexsides",
    "LosResult", "LosRules", "check_los", "movement_range", "shortest_path", "visibility_map",
]
