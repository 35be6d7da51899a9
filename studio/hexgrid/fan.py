"""Sight fans: the hex lines from one hex to every hex of a rectangular offset board, as numpy index arrays.

A rule system's line of sight judges the hexes and hexsides along the centre-to-centre line
(``studio.hexgrid.lines.line_steps``). Judging every target of one observer at once needs, per target and per
step, *which* cell (and which hexside) the line passes. On an offset board those indices depend only on the
offset delta between the two hexes and on the parity of the observer's column (flat-top) or row (pointy-top),
so :class:`FanTable` computes them once per board shape for every delta, and :meth:`FanTable.fan` gives an
observer's fan as slices (views) of those tables plus one integer: the observer's flat index.

Conventions (all arrays ``[step k, row, col]`` over the board's targets):

* cells are numbered on the board padded by :data:`PAD` cells on each side (lines along a zig-zag edge can
  leave the board by one cell): ``flat = (row + PAD) * width + (col + PAD)``; hexsides ``flat * 6 + direction``
  (``studio.hexgrid.coords.DIRECTIONS``);
* a table value is *relative*: add the observer's ``flat`` (cells) or ``flat * 6`` (hexsides) to index an
  attribute array made by :meth:`FanTable.cells` / :meth:`FanTable.sides`. Positions that name no cell (the
  end hexes, steps past the target) point into a trailing region holding the ``rest`` value, so a gather never
  needs a mask;
* ``hex0`` / ``hex1``: the intervening hex of step k (0 < k < n); on a split step the two hexes (a line crossing
  a hexside at its midpoint: ``hex0`` is entered first; along a hexside, a "spine": the ``line_steps`` order),
  on other steps both are the same hex;
* ``side_in``: the hexside crossed entering step k (1 <= k <= n) from step k-1, when neither step is a spine;
  ``side_split``: the hexside between the two hexes of a split step;
* ``ridge_pairs``: for the move from step k to step k+1 (0 <= k < n), the hexsides between every adjacent pair
  of their hexes (up to 4; non-adjacent pairs point at the ``skip`` region);
* :meth:`FanTable.side_between` finds the hexside between two cells of a few sparse hits.

``dist[row, col]`` is the range to each target and ``split`` / ``spine`` mark split steps.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from studio.hexgrid.coords import DIRECTIONS
from studio.hexgrid.visibility import _DIR_TABLE, _axial_to_offset_np, _offset_to_axial_np

_NONE = -(1 << 30)  # "no hexside" while building the tables
#: direction index of an axial step (dq, dr) in [-2, 2]^2 at ``(dq + 2) * 5 + dr + 2``; -1 when not adjacent
_DIR25 = np.full(25, -1, dtype=np.int32)
for _d, (_q, _r) in enumerate(DIRECTIONS):
    _DIR25[(_q + 2) * 5 + _r + 2] = _d

#: cells of padding around the board (a hex line between two board cells strays at most one cell off it)
PAD = 2


@dataclass(frozen=True)
class Fan:
    """One observer's fan: ``table`` arrays sliced to the board's targets and to ``steps`` steps."""

    table: "FanTable"
    col: int
    row: int
    flat: int          # the observer's padded flat cell index
    parity: int
    steps: int         # K: the longest line from this observer + 1

    def _window(self, array: np.ndarray) -> np.ndarray:
        t = self.table
        r0, c0 = t.rows - 1 - self.row, t.cols - 1 - self.col
        return array[self.parity, :self.steps, r0:r0 + t.rows, c0:c0 + t.cols]

    @property
    def dist(self) -> np.ndarray:
        t = self.table
        r0, c0 = t.rows - 1 - self.row, t.cols - 1 - self.col
        return t.dist[self.parity, r0:r0 + t.rows, c0:c0 + t.cols]

    def cell(self, name: str) -> np.ndarray:
        """Absolute cell indices ``[k, row, col]`` of table field ``name`` (``hex0``, ``hex1``)."""
        return self._window(getattr(self.table, name)) + self.flat

    def side(self, name: str, j: int | None = None) -> np.ndarray:
        """Absolute hexside indices of ``side_in``, ``side_split`` or ``ridge_pairs`` [j]."""
        field = getattr(self.table, name)
        return self._window(field if j is None else field[j]) + 6 * self.flat

    def flag(self, name: str) -> np.ndarray:
        """``split`` or ``spine`` ``[k, row, col]``."""
        return self._window(getattr(self.table, name))

    def k(self) -> np.ndarray:
        """Step numbers broadcastable against ``[k, row, col]``."""
        return np.arange(self.steps, dtype=np.int16)[:, None, None]


class FanTable:
    """Fans of every hex of a ``cols`` x ``rows`` offset board of convention ``kind`` (see module doc)."""

    def __init__(self, kind: str, cols: int, rows: int):
        if kind not in ("odd-q", "even-q", "odd-r", "even-r"):
            raise ValueError(f"unknown offset kind {kind!r}")
        self.kind, self.cols, self.rows = kind, cols, rows
        self.width, self.height = cols + 2 * PAD, rows + 2 * PAD
        self.n_cells = self.width * self.height
        self._steps_cache: dict | None = None
        geo = self._geometry()
        self.dist = geo["n"][:, 0].astype(np.int16)                     # [parity, drow, dcol]
        self.max_steps = int(self.dist.max()) + 1

    # ---- attribute arrays
    def cells(self, grid: np.ndarray, off: float | bool, rest: float | bool, dtype=None) -> np.ndarray:
        """Flat attribute array for ``hex0``/``hex1`` gathers: ``grid[row, col]`` on the board, ``off`` on the
        padding, ``rest`` in the trailing region."""
        grid = np.asarray(grid)
        out = np.full((2 * self.n_cells,), rest, dtype=dtype or grid.dtype)
        body = out[:self.n_cells].reshape(self.height, self.width)
        body[...] = off
        body[PAD:PAD + self.rows, PAD:PAD + self.cols] = grid
        return out

    def sides(self, grid: np.ndarray, off, rest, skip=None, dtype=None) -> np.ndarray:
        """Flat attribute array for hexside gathers: ``grid[row, col, direction]`` on the board, ``off`` on the
        padding, ``skip`` (default ``rest``) in the ``skip`` region and ``rest`` in the trailing region."""
        grid = np.asarray(grid)
        n6 = 6 * self.n_cells
        out = np.full((3 * n6,), rest, dtype=dtype or grid.dtype)
        out[n6:2 * n6] = rest if skip is None else skip
        body = out[:n6].reshape(self.height, self.width, 6)
        body[...] = off
        body[PAD:PAD + self.rows, PAD:PAD + self.cols] = grid
        return out

    def cell_index(self, col: int, row: int) -> int | None:
        """Padded flat index of offset cell ``(col, row)`` (board or padding), None beyond the padding."""
        if -PAD <= col < self.cols + PAD and -PAD <= row < self.rows + PAD:
            return (row + PAD) * self.width + col + PAD
        return None

    def side_index(self, col: int, row: int, direction: int) -> int | None:
        """Index in a :meth:`sides` array of the hexside of cell ``(col, row)`` in ``direction``, or None."""
        at = self.cell_index(col, row)
        return None if at is None else at * 6 + direction

    def side_between(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Hexside indices (into a :meth:`sides` array) between the cells of flat indices ``a`` and ``b``, -1
        where they are not adjacent (for a few cells: a fan's sparse hits)."""
        def axial(flat):
            row, col = np.divmod(np.asarray(flat, dtype=np.int64), self.width)
            return _offset_to_axial_np(col - PAD, row - PAD, self.kind)

        (qa, ra), (qb, rb) = axial(a), axial(b)
        ddq, ddr = qb - qa, rb - ra
        d = _DIR_TABLE[np.clip((ddq + 1) * 3 + (ddr + 1), 0, 8)]
        ok = (np.abs(ddq) <= 1) & (np.abs(ddr) <= 1) & (d >= 0)
        return np.where(ok, np.asarray(a) * 6 + d, -1)

    def target_cells(self) -> np.ndarray:
        """Flat indices ``[row, col]`` of the board's cells."""
        rows = np.arange(self.rows)[:, None] + PAD
        return rows * self.width + np.arange(self.cols)[None, :] + PAD

    def fan(self, col: int, row: int) -> Fan:
        """The fan of the observer in offset cell ``(col, row)``."""
        if not (0 <= col < self.cols and 0 <= row < self.rows):
            raise ValueError(f"observer {(col, row)!r} is off the {self.cols}x{self.rows} board")
        parity = (col if self.kind.endswith("q") else row) & 1
        r0, c0 = self.rows - 1 - row, self.cols - 1 - col
        steps = int(self.dist[parity, r0:r0 + self.rows, c0:c0 + self.cols].max()) + 1
        return Fan(self, col, row, (row + PAD) * self.width + col + PAD, parity, steps)

    # ---- construction
    def _geometry(self) -> dict:
        """Axial deltas of every (parity, drow, dcol), shape [2, 1, 2*rows-1, 2*cols-1] (k axis first)."""
        dr = np.arange(-(self.rows - 1), self.rows, dtype=np.int64)[:, None]
        dc = np.arange(-(self.cols - 1), self.cols, dtype=np.int64)[None, :]
        out = {"q": [], "r": [], "oq": [], "or": [], "oc": [], "orow": []}
        for parity in (0, 1):
            oc, orow = (parity, 0) if self.kind.endswith("q") else (0, parity)
            q0, r0 = _offset_to_axial_np(np.int64(oc), np.int64(orow), self.kind)
            tq, tr = _offset_to_axial_np(oc + dc + 0 * dr, orow + dr + 0 * dc, self.kind)
            out["q"].append(tq - q0)
            out["r"].append(tr - r0)
            out["oq"].append(q0)
            out["or"].append(r0)
            out["oc"].append(oc)
            out["orow"].append(orow)
        dq = np.stack(out["q"])[:, None]
        drr = np.stack(out["r"])[:, None]
        n = np.maximum(np.maximum(np.abs(dq), np.abs(drr)), np.abs(dq + drr))
        return {"dq": dq, "dr": drr, "n": n, "q0": np.array(out["oq"]).reshape(2, 1, 1, 1),
                "r0": np.array(out["or"]).reshape(2, 1, 1, 1), "oc": np.array(out["oc"]).reshape(2, 1, 1, 1),
                "orow": np.array(out["orow"]).reshape(2, 1, 1, 1)}

    def _steps(self) -> dict:
        """Every step of every delta, shape [2, K, 2*rows-1, 2*cols-1] (int32): the axial hexes ``p0``/``p1``
        relative to the parity's reference observer (the two hexes of split steps, else the same hex), their
        relative flat indices ``rel0``/``rel1``, and the split/spine flags.

        As ``lines._delta_steps``: the major cube axis m advances one unit per step and the first other axis u is
        ``du * k / n`` rounded, a tie being a split step; so along one line ``q = alpha_q * k + beta_q * u`` (and
        the same for r) with per-line constants, and the cube dot of a split pair is a per-line constant too.
        """
        if self._steps_cache is not None:
            return self._steps_cache
        g = self._geometry()
        i32 = np.int32
        dq, dr, n = g["dq"].astype(i32), g["dr"].astype(i32), g["n"].astype(i32)
        ds = -dq - dr
        m = np.where(np.abs(dq) == n, 0, np.where(np.abs(dr) == n, 1, 2))
        u = np.where(m == 0, 1, 0)
        w = 3 - m - u
        sm = np.sign(np.choose(m, [dq, dr, ds])).astype(i32)
        du = np.choose(u, [dq, dr, ds]).astype(i32)
        coeff = {}
        for axis, name in ((0, "q"), (1, "r")):
            on_w = (w == axis).astype(i32)
            coeff[name] = (((m == axis).astype(i32) - on_w) * sm, (u == axis).astype(i32) - on_w)
        (aq, bq), (ar, br) = coeff["q"], coeff["r"]
        k = np.arange(self.max_steps, dtype=i32)[None, :, None, None]
        n_safe = np.maximum(n, 1)
        num = du * k
        fl = np.floor_divide(num, n_safe)
        rem2 = 2 * (num - fl * n_safe)
        inner = (k > 0) & (k < n)
        split = inner & (rem2 == n)
        dot = dq * bq + dr * br + (dq + dr) * (bq + br)       # cube dot of (second - first) of a split pair
        spine = split & (dot == 0)
        swap = (dot < 0).astype(i32)                         # crossing splits: the hex entered first goes first
        beyond = (rem2 > n).astype(i32)
        pick0 = np.where(split, swap, beyond)
        pick1 = np.where(split, 1 - swap, beyond)
        base_q = aq * k + bq * fl
        base_r = ar * k + br * fl
        p0 = (base_q + bq * pick0, base_r + br * pick0)
        p1 = (base_q + bq * pick1, base_r + br * pick1)
        self._steps_cache = {"p0": p0, "p1": p1, "rel0": self._rel(*p0, g), "rel1": self._rel(*p1, g),
                             "split": split, "spine": spine, "k": k, "n": n, "inner": inner}
        return self._steps_cache

    def _rel(self, q: np.ndarray, r: np.ndarray, g: dict) -> np.ndarray:
        """Relative padded flat index of axial hexes given relative to the parity's reference observer."""
        c, row = _axial_to_offset_np(q + g["q0"].astype(np.int32), r + g["r0"].astype(np.int32), self.kind)
        return (row - g["orow"].astype(np.int32)) * self.width + (c - g["oc"].astype(np.int32))

    @staticmethod
    def _side_rel(rel_a, aq, ar, bq, br) -> np.ndarray:
        """Relative hexside index ``rel(a) * 6 + direction(a -> b)``; :data:`_NONE` where a and b are not
        adjacent (hexes of neighbouring steps are at most 2 apart on each axis)."""
        code = (bq - aq + 2) * 5 + (br - ar + 2)
        d = np.take(_DIR25, code, mode="clip")
        return np.where(d >= 0, rel_a * 6 + d, _NONE)

    @cached_property
    def split(self) -> np.ndarray:
        return self._steps()["split"]

    @cached_property
    def spine(self) -> np.ndarray:
        return self._steps()["spine"]

    @cached_property
    def hex0(self) -> np.ndarray:
        s = self._steps()
        return np.where(s["inner"], s["rel0"], self.n_cells).astype(np.int32)

    @cached_property
    def hex1(self) -> np.ndarray:
        s = self._steps()
        return np.where(s["inner"], s["rel1"], self.n_cells).astype(np.int32)

    def _rest(self) -> int:
        return 12 * self.n_cells

    @staticmethod
    def _shift(x: np.ndarray, by: int) -> np.ndarray:
        """``x`` moved ``by`` steps along the k axis (``out[k] = x[k - by]``), edges zero."""
        out = np.zeros_like(x)
        if by > 0:
            out[:, by:] = x[:, :-by]
        else:
            out[:, :by] = x[:, -by:]
        return out

    @cached_property
    def side_in(self) -> np.ndarray:
        s = self._steps()
        (p0q, p0r), (p1q, p1r), spine, k, n = s["p0"], s["p1"], s["spine"], s["k"], s["n"]
        # exit of step k-1 (its second hex; the observer, relative (0, 0), at k = 0) -> entry of step k
        xq, xr, xrel = self._shift(p1q, 1), self._shift(p1r, 1), self._shift(s["rel1"], 1)
        ok = (k >= 1) & (k <= n) & ~spine & ~self._shift(spine, 1)
        rel = self._side_rel(xrel, xq, xr, p0q, p0r)
        return np.where(ok & (rel != _NONE), rel, self._rest()).astype(np.int32)

    @cached_property
    def side_split(self) -> np.ndarray:
        s = self._steps()
        rel = self._side_rel(s["rel0"], *s["p0"], *s["p1"])
        return np.where(s["split"] & (rel != _NONE), rel, self._rest()).astype(np.int32)

    @cached_property
    def ridge_pairs(self) -> np.ndarray:
        """[4, 2, K, ...]: hexsides between the hexes of step k and step k+1 (pairs a0b0, a0b1, a1b0, a1b1)."""
        s = self._steps()
        live = s["k"] < s["n"]
        out = []
        for (aq, ar), rel_a in ((s["p0"], s["rel0"]), (s["p1"], s["rel1"])):
            for bq, br in ((self._shift(s["p0"][0], -1), self._shift(s["p0"][1], -1)),
                           (self._shift(s["p1"][0], -1), self._shift(s["p1"][1], -1))):
                out.append(self._side_rel(rel_a, aq, ar, bq, br))
        rel = np.stack(out)
        found = rel != _NONE
        any_adjacent = found.any(axis=0) & live
        rel = np.where(found, rel, 6 * self.n_cells)
        return np.where(any_adjacent[None], rel, self._rest()).astype(np.int32)


@lru_cache(maxsize=8)
def fan_table(kind: str, cols: int, rows: int) -> FanTable | None:
    """The (shared) :class:`FanTable` of a board shape; None for a board too big for the tables (more than
    :data:`MAX_TABLE_ENTRIES` entries per field: about 90 x 90 hexes), where callers judge line by line."""
    if table_entries(cols, rows) > MAX_TABLE_ENTRIES:
        return None
    return FanTable(kind, cols, rows)


#: the largest table field built (entries; 4 bytes each)
MAX_TABLE_ENTRIES = 8_000_000


def table_entries(cols: int, rows: int) -> int:
    """Entries of one field of the tables of a cols x rows board (2 parities x deltas x steps)."""
    return 2 * (2 * rows - 1) * (2 * cols - 1) * (cols + (rows + 1) // 2 + 1)
