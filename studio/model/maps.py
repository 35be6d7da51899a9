"""Hex boards as geometry: one board or a geomorphic assembly of boards (placed, possibly turned 180 degrees).

``assemble(placements)`` turns map documents into an :class:`AssembledMap`: every hex in axial coordinates
(``studio.hexgrid``), its printed label (unique across boards because labels carry the board id), terrain
code, elevation, hexside features and roads keyed by hex pairs, and numpy arrays over the bounding offset grid
for whole-map work. Labels stay the printed ones after a 180-degree turn, as on the table.

Placement ``at`` is the [column, row] offset of the board's cell (0, 0) in the assembled grid, whose offset
convention is the first board's. A placement that would change which columns (rows) are shifted is refused.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from studio.hexgrid import coords
from studio.hexgrid.labels import AlphaNumericLabels, NumericLabels

from .documents import HexGridSpec, Map

if TYPE_CHECKING:  # pragma: no cover - numpy is imported where the arrays are made
    import numpy as np

Hex = tuple[int, int]
EDGES = ("north", "east", "south", "west")


class AssemblyError(ValueError):
    """A board placement that cannot be assembled; ``index`` is the placement's position."""

    def __init__(self, code: str, message: str, index: int = 0):
        super().__init__(message)
        self.code, self.index = code, index


def offset_kind(spec: HexGridSpec) -> str:
    return f"{spec.offset}-{'q' if spec.orientation == 'flat' else 'r'}"


def direction_names(spec: HexGridSpec) -> tuple[str, ...]:
    return coords.FLAT_DIRECTION_NAMES if spec.orientation == "flat" else coords.POINTY_DIRECTION_NAMES


def board_labeler(spec: HexGridSpec, board_ids: tuple[str, ...] | None = None):
    """The label convention of a board (``format(board, col, row)`` / ``parse(label)``)."""
    ids = board_ids if board_ids is not None else (spec.board,)
    if spec.labels == "alphanumeric":
        return AlphaNumericLabels(board_ids=ids, cols=None, rows=None)
    digits = 2 if max(spec.columns, spec.rows) < 100 else 3
    return NumericLabels(digits=digits, board_ids=ids if any(ids) else None)


@dataclass
class AssembledMap:
    orientation: str
    kind: str                      # offset convention of the assembled grid, e.g. "even-q"
    columns: int                   # bounding offset grid
    rows: int
    hex_m: float
    hex_mm: float
    label_of: dict[Hex, str] = field(default_factory=dict)
    hex_of: dict[str, Hex] = field(default_factory=dict)
    board_of: dict[Hex, str] = field(default_factory=dict)
    terrain: dict[Hex, str] = field(default_factory=dict)
    elevation: dict[Hex, int] = field(default_factory=dict)
    hexsides: dict[tuple[Hex, Hex], str] = field(default_factory=dict)
    roads: dict[tuple[Hex, Hex], str] = field(default_factory=dict)
    texts: dict[Hex, str] = field(default_factory=dict)

    # ---- lookups
    def hex(self, label: str) -> Hex:
        """Hex of a printed label; KeyError with a readable message when there is none."""
        try:
            return self.hex_of[label]
        except KeyError:
            raise KeyError(f"no hex '{label}' on this map") from None

    def on_map(self, h: Hex) -> bool:
        return h in self.label_of

    def offset(self, h: Hex) -> tuple[int, int]:
        return coords.axial_to_offset(h, self.kind)

    def axial(self, col: int, row: int) -> Hex:
        return coords.offset_to_axial(col, row, self.kind)

    def neighbours(self, h: Hex) -> list[Hex]:
        return [n for n in coords.neighbours(h) if n in self.label_of]

    def hexside(self, a: Hex, b: Hex) -> str | None:
        return self.hexsides.get(edge_key(a, b))

    def road(self, a: Hex, b: Hex) -> str | None:
        return self.roads.get(edge_key(a, b))

    def edge_hexes(self, edge: str) -> list[Hex]:
        """On-map hexes of the first/last offset column or row (``north``, ``east``, ``south``, ``west``)."""
        out = []
        for h in self.label_of:
            col, row = self.offset(h)
            if (edge == "north" and row == 0) or (edge == "south" and row == self.rows - 1) or \
               (edge == "west" and col == 0) or (edge == "east" and col == self.columns - 1):
                out.append(h)
        return sorted(out, key=self.offset)

    # ---- arrays over the bounding offset grid [row, col]
    def arrays(self, codes: list[str]) -> "tuple[np.ndarray, np.ndarray, np.ndarray]":
        """(on_map bool, elevation int16, terrain index int16 into ``codes``; -1 unknown)."""
        import numpy as np  # here, not at the top: validation imports this module and never needs numpy

        on = np.zeros((self.rows, self.columns), dtype=bool)
        elev = np.zeros((self.rows, self.columns), dtype=np.int16)
        terr = np.full((self.rows, self.columns), -1, dtype=np.int16)
        index = {c: i for i, c in enumerate(codes)}
        for h in self.label_of:
            col, row = self.offset(h)
            on[row, col] = True
            elev[row, col] = self.elevation.get(h, 0)
            terr[row, col] = index.get(self.terrain.get(h, ""), -1)
        return on, elev, terr


def edge_key(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    return (a, b) if a <= b else (b, a)


def _board_cells(m: Map) -> Iterable[tuple[int, int, str, int]]:
    for row, (trow, erow) in enumerate(zip(m.terrain, m.elevation)):
        for col, (code, level) in enumerate(zip(trow.split(), erow.split())):
            try:
                value = int(level)
            except ValueError:
                value = 0
            yield col, row, code, value


def assemble(placements: list[tuple[Map, tuple[int, int], int]]) -> AssembledMap:
    """Assemble ``(map, (col, row), rotate)`` placements; raises AssemblyError for impossible layouts."""
    if not placements:
        raise AssemblyError("map.assembly-empty", "no boards to assemble")
    first = placements[0][0]
    if first.hex is None:
        raise AssemblyError("map.assembly-measured", f"map '{first.id}' is a measured table, not a hex board")
    kind = offset_kind(first.hex)
    flat = first.hex.orientation == "flat"
    out = AssembledMap(first.hex.orientation, kind, 0, 0, first.hex.hex_m, first.hex.hex_mm)
    max_col = max_row = 0
    for index, (m, (at_col, at_row), rotate) in enumerate(placements):
        spec = m.hex
        if spec is None:
            raise AssemblyError("map.assembly-measured", f"map '{m.id}' is a measured table, not a hex board", index)
        if spec.orientation != first.hex.orientation:
            raise AssemblyError("map.assembly-orientation", f"board '{m.id}' is {spec.orientation}-top but "
                                f"'{first.id}' is {first.hex.orientation}-top", index)
        if at_col < 0 or at_row < 0:
            raise AssemblyError("map.assembly-offset", f"board '{m.id}' is placed at a negative offset", index)
        own = offset_kind(spec)
        if rotate:
            own = coords.rotated_offset_kind(own, spec.columns, spec.rows)
        shift = at_col if flat else at_row
        if shift % 2:
            own = ("even" if own.startswith("odd") else "odd") + own[own.index("-"):]
        if own != kind:
            raise AssemblyError("map.assembly-parity", f"board '{m.id}' placed at {[at_col, at_row]}"
                                f"{' turned 180' if rotate else ''} would misalign its hex columns/rows with "
                                f"'{first.id}'; move it by one {'column' if flat else 'row'}", index)
        labeler = board_labeler(spec)
        names = direction_names(spec)
        by_label: dict[str, Hex] = {}
        for col, row, code, level in _board_cells(m):
            c2, r2 = coords.rotate_offset_180(col, row, spec.columns, spec.rows) if rotate else (col, row)
            h = coords.offset_to_axial(at_col + c2, at_row + r2, kind)
            if h in out.label_of:
                raise AssemblyError("map.assembly-overlap", f"board '{m.id}' overlaps board "
                                    f"'{out.board_of[h]}' at hex {out.label_of[h]}", index)
            label = labeler.format(spec.board, col, row)
            if label in out.hex_of:
                raise AssemblyError("map.assembly-labels", f"hex label '{label}' appears on two boards; give the "
                                    "boards distinct board ids", index)
            by_label[label] = h
            out.label_of[h], out.hex_of[label], out.board_of[h] = label, h, m.id
            out.terrain[h], out.elevation[h] = code, level
            max_col, max_row = max(max_col, at_col + c2 + 1), max(max_row, at_row + r2 + 1)
        for side in m.hexsides:
            h = by_label.get(side.hex)
            if h is None or side.side not in names:
                continue  # reported by the map checks
            direction = names.index(side.side)
            if rotate:
                direction = (direction + 3) % 6
            out.hexsides[edge_key(h, coords.neighbour(h, direction))] = side.feature
        for road in m.roads:
            hexes = [by_label.get(label) for label in road.hexes]
            for a, b in zip(hexes, hexes[1:]):
                if a is not None and b is not None and coords.adjacent(a, b):
                    out.roads[edge_key(a, b)] = road.type
        for text in m.labels:
            if text.hex in by_label:
                out.texts[by_label[text.hex]] = text.text
    out.columns, out.rows = max_col, max_row
    return out


def assemble_single(m: Map, index=None) -> AssembledMap:
    """One board on its own; shared within a validation run of ``index`` (see :func:`assemble_shared`)."""
    return assemble_shared([(m, (0, 0), 0)], index)


def assemble_scenario(scenario, index) -> AssembledMap:
    """Assemble a scenario's boards from a ProjectIndex; AssemblyError names the failing placement. Within a
    validation run the checks of every rule system share one assembly per placement list (:func:`assemble_shared`)."""
    placements = []
    for i, board in enumerate(scenario.boards):
        m = index.model("map", board.map)
        if m is None:
            raise AssemblyError("map.assembly-missing", f"map '{board.map}' is not available", i)
        placements.append((m, tuple(board.at), board.rotate))
    return assemble_shared(placements, index)


def assemble_shared(placements: list[tuple[Map, tuple[int, int], int]], index=None) -> AssembledMap:
    """:func:`assemble`, answered from the run memo of ``index`` (``ProjectIndex.run_memo``: set only while a
    validation run checks it, when no model changes) for the same boards at the same placements; outside a run,
    a new assembly every call (callers may keep and change it). Placements that fail are not remembered."""
    memo = getattr(index, "run_memo", None)
    if memo is None:
        return assemble(placements)
    key = ("assembled-map", tuple((id(m), tuple(at), rotate) for m, at, rotate in placements))
    found = memo.get(key)
    if found is None:
        found = memo[key] = assemble(placements)
    return found
