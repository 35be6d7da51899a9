"""Whole-board line of sight with numpy: one observer to every hex of a rectangular board.

``visibility_map`` gives exactly the same answers as ``los.check_los`` (tested on random
boards) with these board conventions:

* ``ground[row, col]`` and ``obstacle[row, col]`` (offset cells, convention ``kind``);
* hexes off the board (lines along the zig-zag edge can leave it) never block - the same
  as a ``terrain`` callback returning ``(-inf, 0)`` for them;
* optional ``hexside_tops[row, col, direction]``: absolute top of the obstacle on that
  hexside, NaN = none.  A hexside is read from the entry of the first hex passed to the
  ``hexside(h1, h2)`` callback (see ``board_callbacks``), so keep the array symmetric.
"""

from __future__ import annotations

import math

import numpy as np

from studio.hexgrid.coords import DIRECTIONS, Hex, axial_to_offset, offset_to_axial
from studio.hexgrid.lines import EdgePolicy
from studio.hexgrid.los import HexsideFn, LosRules, TerrainFn

_DIR_TABLE = np.full(9, -1, dtype=np.int64)
for _i, (_dq, _dr) in enumerate(DIRECTIONS):
    _DIR_TABLE[(_dq + 1) * 3 + (_dr + 1)] = _i


def _axial_to_offset_np(q: np.ndarray, r: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    if kind == "odd-q":
        return q, r + ((q - (q & 1)) >> 1)
    if kind == "even-q":
        return q, r + ((q + (q & 1)) >> 1)
    if kind == "odd-r":
        return q + ((r - (r & 1)) >> 1), r
    if kind == "even-r":
        return q + ((r + (r & 1)) >> 1), r
    raise ValueError(f"unknown offset kind {kind!r}")


def _offset_to_axial_np(c: np.ndarray, r: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    if kind == "odd-q":
        return c, r - ((c - (c & 1)) >> 1)
    if kind == "even-q":
        return c, r - ((c + (c & 1)) >> 1)
    if kind == "odd-r":
        return c - ((r - (r & 1)) >> 1), r
    if kind == "even-r":
        return c - ((r + (r & 1)) >> 1), r
    raise ValueError(f"unknown offset kind {kind!r}")


def board_callbacks(
    ground: np.ndarray, obstacle: np.ndarray, kind: str, hexside_tops: np.ndarray | None = None
) -> tuple[TerrainFn, HexsideFn | None]:
    """``terrain`` and ``hexside`` callbacks for ``check_los`` reading the same arrays (and
    the same off-board convention) as ``visibility_map``.

    >>> g = np.zeros((3, 3)); o = np.zeros((3, 3)); o[1, 1] = 2
    >>> terrain, _ = board_callbacks(g, o, "odd-q")
    >>> terrain(offset_to_axial(1, 1, "odd-q")), terrain((9, 9))
    ((0.0, 2.0), (-inf, 0.0))
    """
    rows, cols = ground.shape

    def terrain(h: Hex) -> tuple[float, float]:
        c, r = axial_to_offset(h, kind)
        if 0 <= c < cols and 0 <= r < rows:
            return (float(ground[r, c]), float(obstacle[r, c]))
        return (-math.inf, 0.0)

    if hexside_tops is None:
        return terrain, None

    def hexside(h1: Hex, h2: Hex) -> float | None:
        c, r = axial_to_offset(h1, kind)
        if not (0 <= c < cols and 0 <= r < rows):
            return None
        d = int(_DIR_TABLE[(h2[0] - h1[0] + 1) * 3 + (h2[1] - h1[1] + 1)])
        v = float(hexside_tops[r, c, d])
        return None if math.isnan(v) else v

    return terrain, hexside


def visibility_map(
    observer: tuple[int, int],
    ground: np.ndarray,
    obstacle: np.ndarray,
    kind: str,
    observer_height: float = 0.0,
    target_height: float = 0.0,
    rules: LosRules = LosRules(),
    hexside_tops: np.ndarray | None = None,
) -> np.ndarray:
    """Bool array [rows, cols]: True where the target hex is in LOS of ``observer``
    (an offset ``(col, row)`` cell).  Same semantics as ``check_los``.

    >>> g = np.zeros((1, 5)); o = np.zeros((1, 5)); o[0, 2] = 1
    >>> visibility_map((0, 0), g, o, "odd-r").tolist()
    [[True, True, True, False, False]]
    """
    ground = np.asarray(ground, dtype=np.float64)
    obstacle = np.asarray(obstacle, dtype=np.float64)
    rows, cols = ground.shape
    oc, orow = observer
    if not (0 <= oc < cols and 0 <= orow < rows):
        raise ValueError(f"observer {observer!r} is off the {cols}x{rows} board")
    top_grid = ground + obstacle
    cc, rr = np.meshgrid(np.arange(cols, dtype=np.int64), np.arange(rows, dtype=np.int64))
    tq, tr = _offset_to_axial_np(cc, rr, kind)
    q0, r0 = offset_to_axial(oc, orow, kind)
    dq = tq - q0
    dr = tr - r0
    ds = -dq - dr
    big_n = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(ds))
    n_safe = np.maximum(big_n, 1)
    eye = float(ground[orow, oc]) + observer_height
    dh = (ground + target_height) - eye
    n2 = 2 * big_n
    eq = rules.equal_blocks

    def blocks(top: np.ndarray, k: np.ndarray | int) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            lhs = (top - eye) * n2
            rhs = dh * k
            return lhs >= rhs if eq else lhs > rhs

    def top_at(q: np.ndarray, r: np.ndarray) -> np.ndarray:
        c, ro = _axial_to_offset_np(q, r, kind)
        ok = (c >= 0) & (c < cols) & (ro >= 0) & (ro < rows)
        out = np.full(q.shape, -np.inf)
        out[ok] = top_grid[ro[ok], c[ok]]
        return out

    def side_at(q1: np.ndarray, r1: np.ndarray, q2: np.ndarray, r2: np.ndarray) -> np.ndarray:
        c, ro = _axial_to_offset_np(q1, r1, kind)
        ok = (c >= 0) & (c < cols) & (ro >= 0) & (ro < rows)
        d = _DIR_TABLE[np.clip((q2 - q1 + 1) * 3 + (r2 - r1 + 1), 0, 8)]
        out = np.full(q1.shape, np.nan)
        sel = ok & (d >= 0)
        out[sel] = hexside_tops[ro[sel], c[sel], d[sel]]  # type: ignore[index]
        return out

    blocked = np.zeros((rows, cols), dtype=bool)
    any0 = np.zeros_like(blocked)
    any1 = np.zeros_like(blocked)
    if rules.observer_hex_blocks:
        blocked |= (big_n > 0) & blocks(np.full(blocked.shape, top_grid[orow, oc]), 0)
    if rules.target_hex_blocks:
        blocked |= (big_n > 0) & blocks(top_grid, n2)

    # major axis m (advances 1 per step), first minor axis u, other w
    absd = (np.abs(dq), np.abs(dr), np.abs(ds))
    m = np.where(absd[0] == big_n, 0, np.where(absd[1] == big_n, 1, 2))
    u = np.where(m == 0, 1, 0)
    w = 3 - m - u
    dstack = np.stack([dq, dr, ds])
    dm = np.take_along_axis(dstack, m[None], 0)[0]
    du = np.take_along_axis(dstack, u[None], 0)[0]
    dw = np.take_along_axis(dstack, w[None], 0)[0]
    sm = np.sign(dm)
    dot = du - dw  # cube dot of the line with (second - first) of a split pair

    def to_axial(cm: np.ndarray, cu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cw = -cm - cu
        q = np.where(m == 0, cm, np.where(u == 0, cu, cw)) + q0
        r = np.where(m == 1, cm, np.where(u == 1, cu, cw)) + r0
        return q, r

    has_sides = hexside_tops is not None
    prev_q = np.full(blocked.shape, q0, dtype=np.int64)
    prev_r = np.full(blocked.shape, r0, dtype=np.int64)
    prev_ok = np.ones_like(blocked)
    max_n = int(big_n.max())
    policy = rules.edge_policy
    for i in range(1, max_n + 1):
        active = big_n >= i
        inner = big_n > i
        cm = sm * i
        num = du * i
        fl = np.floor_divide(num, n_safe)
        rem2 = 2 * (num - fl * n_safe)
        tie = inner & (rem2 == big_n)
        single = active & ~tie
        cq, cr = to_axial(cm, np.where(rem2 < big_n, fl, fl + 1))
        if has_sides:
            sel = single & prev_ok
            blocked |= sel & blocks(side_at(prev_q, prev_r, cq, cr), 2 * i - 1)
        blocked |= single & inner & blocks(top_at(cq, cr), 2 * i)
        if tie.any():
            p0q, p0r = to_axial(cm, fl)
            p1q, p1r = to_axial(cm, fl + 1)
            t0 = top_at(p0q, p0r)
            t1 = top_at(p1q, p1r)
            b0 = blocks(t0, 2 * i)
            b1 = blocks(t1, 2 * i)
            spine = tie & (dot == 0)
            cross = tie & (dot != 0)
            if policy is EdgePolicy.BLOCK_IF_BOTH:
                blocked |= spine & b0 & b1
            else:
                any0 |= spine & b0
                any1 |= spine & b1
            if has_sides and rules.along_hexside_blocks:
                blocked |= spine & blocks(side_at(p0q, p0r, p1q, p1r), 2 * i)
            first0 = dot > 0
            xq = np.where(first0, p0q, p1q)
            xr = np.where(first0, p0r, p1r)
            yq = np.where(first0, p1q, p0q)
            yr = np.where(first0, p1r, p0r)
            blocked |= cross & (b0 | b1)
            if has_sides:
                blocked |= cross & prev_ok & blocks(side_at(prev_q, prev_r, xq, xr), 2 * i - 1)
                blocked |= cross & blocks(side_at(xq, xr, yq, yr), 2 * i)
            cq = np.where(cross, yq, cq)
            cr = np.where(cross, yr, cr)
            prev_ok = np.where(spine, False, np.where(active, True, prev_ok))
        else:
            prev_ok = np.where(active, True, prev_ok)
        prev_q = np.where(active, cq, prev_q)
        prev_r = np.where(active, cr, prev_r)
    if policy is EdgePolicy.BLOCK_IF_EITHER:
        blocked |= any0 | any1
    elif policy is EdgePolicy.FIRER_CHOOSES:
        blocked |= any0 & any1
    if rules.adjacent_always_clear:
        blocked &= big_n != 1
    blocked &= big_n > 0
    return ~blocked
