"""Hex lines between hex centres (cube lerp, exact integer arithmetic) with split steps.

``line_steps(a, b)`` samples the centre-to-centre segment at ``distance(a, b) + 1`` evenly
spaced points; step ``i`` lies at range ``i`` from ``a``.  Each step is a tuple of hexes:

* ``(h,)`` - the sample point lies inside ``h``;
* ``(h1, h2)`` - a **split** step: the point lies exactly on the hexside shared by ``h1``
  and ``h2`` (the two candidates are equidistant).  Within one line ``h1`` is always on the
  same side of the line, so "all first" / "all second" are two consistent paths.

Two kinds of split exist (``runs_along_hexsides`` tells which):

* the line is parallel to a hexside ("hex spine": cube delta with two equal components):
  it runs *along* the shared hexsides and enters neither hex, and the rules must say what
  happens -> ``EdgePolicy``;
* otherwise the line *crosses* that hexside at its midpoint and passes through both hexes
  (no ambiguity: both are intervening).

Note: the N+1 samples are the standard hex line; a very thin sliver of a hex clipped by the
true segment between samples can be missed (e.g. (0, 0) -> (6, 1) also cuts a corner of
(2, 1)).  ``crossed_hexes`` gives the exact set of hexes whose interior the segment enters
(slower; for rules that count "any fraction" of a hex, MBT 4.1.4).
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from functools import lru_cache

from studio.hexgrid.coords import Hex, distance

Step = tuple[Hex, ...]


class EdgePolicy(Enum):
    """What a sight line running exactly along a hexside (split step) does.

    * ``BLOCK_IF_EITHER``: blocked if either flanking hex (or the hexside itself) blocks.
      MBT 4.1.4.2.6: a hex or hexside that can block blocks a LOS running exactly along one
      of its hexsides (digest Q7: both flanking hexes run through the height tests).
    * ``BLOCK_IF_BOTH``: judged step by step; a split step blocks only if both flanking hexes
      block.  WaW 7.3 ("string" rule): along the side of a single blocking hex is clear,
      along the common side of two blocking hexes is blocked.
    * ``FIRER_CHOOSES`` (attacker favourable): the firer picks one side of the spine for
      the whole line; clear if the all-first or the all-second path is clear.
      Assault R10.B.2 does not cover hex-spine LOS at all (AMB-C21): the ruleset must pick
      one of these as a named option.
    """

    BLOCK_IF_EITHER = "block_if_either"
    BLOCK_IF_BOTH = "block_if_both"
    FIRER_CHOOSES = "firer_chooses"


ATTACKER_FAVOURABLE = EdgePolicy.FIRER_CHOOSES


def runs_along_hexsides(a: Hex, b: Hex) -> bool:
    """True if the a->b centre line is parallel to hexsides (a "hex spine", 30 degrees off
    the hex rows), so its split steps run *along* hexsides.

    >>> runs_along_hexsides((0, 0), (1, 1)), runs_along_hexsides((0, 0), (4, -1))
    (True, False)
    >>> runs_along_hexsides((0, 0), (0, 0))
    False
    """
    dq = b[0] - a[0]
    dr = b[1] - a[1]
    ds = -dq - dr
    if dq == 0 and dr == 0:
        return False
    return dq == dr or dr == ds or dq == ds


@lru_cache(maxsize=1 << 16)
def _delta_steps(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    n = max(abs(dq), abs(dr), abs(dq + dr))
    if n == 0:
        return (((0, 0),),)
    d = (dq, dr, -dq - dr)
    # major axis m advances exactly one unit per step; u is the first other axis.
    m = 0 if abs(d[0]) == n else (1 if abs(d[1]) == n else 2)
    u = 1 if m == 0 else 0
    sm = 1 if d[m] > 0 else -1
    du = d[u]
    out = []
    for i in range(n + 1):
        c = [0, 0, 0]
        c[m] = sm * i
        num = du * i  # u coordinate * n
        fl, rem = divmod(num, n)
        twice = 2 * rem
        if twice != n:
            cu = fl if twice < n else fl + 1
            c[u] = cu
            c[3 - m - u] = -c[m] - cu
            out.append(((c[0], c[1]),))
        else:
            c1 = list(c)
            c1[u] = fl
            c1[3 - m - u] = -c[m] - fl
            c2 = list(c)
            c2[u] = fl + 1
            c2[3 - m - u] = -c[m] - fl - 1
            out.append(((c1[0], c1[1]), (c2[0], c2[1])))
    return tuple(out)


def line_steps(a: Hex, b: Hex) -> tuple[Step, ...]:
    """The distance+1 steps from ``a`` to ``b``; split steps hold two hexes (see module doc).

    For split steps the pair is ordered by the lower coordinate on a fixed minor axis, so the
    first hex is on the same side of the line for every step, and ``line_steps(b, a)`` is
    ``line_steps(a, b)`` reversed.

    >>> line_steps((0, 0), (2, 0))
    (((0, 0),), ((1, 0),), ((2, 0),))
    >>> line_steps((0, 0), (1, 1))
    (((0, 0),), ((0, 1), (1, 0)), ((1, 1),))
    """
    rel = _delta_steps(b[0] - a[0], b[1] - a[1])
    q0, r0 = a
    return tuple(tuple((q0 + h[0], r0 + h[1]) for h in step) for step in rel)


def hex_line(a: Hex, b: Hex, side: int = 0) -> list[Hex]:
    """One hex per step (``distance + 1`` hexes, consecutive ones adjacent), taking the
    ``side`` (0 or 1) member of every split step.

    >>> hex_line((0, 0), (1, 1)), hex_line((0, 0), (1, 1), side=1)
    ([(0, 0), (0, 1), (1, 1)], [(0, 0), (1, 0), (1, 1)])
    """
    return [step[side] if len(step) == 2 else step[0] for step in line_steps(a, b)]


def line_length(a: Hex, b: Hex) -> int:
    """Number of steps in the line: ``distance(a, b) + 1``.

    >>> line_length((0, 0), (3, -1))
    4
    """
    return distance(a, b) + 1


def crossed_hexes(a: Hex, b: Hex) -> list[Hex]:
    """Every hex whose *interior* the centre-to-centre segment a->b enters, in order along
    the segment (exact rational arithmetic).  Hexes only touched at a corner or along a
    hexside are excluded, so a spine line yields just the hexes whose centres it passes.

    >>> crossed_hexes((0, 0), (2, 0))
    [(0, 0), (1, 0), (2, 0)]
    >>> crossed_hexes((0, 0), (2, 2))
    [(0, 0), (1, 1), (2, 2)]
    >>> len(crossed_hexes((0, 0), (6, 1))), distance((0, 0), (6, 1)) + 1
    (10, 8)
    """
    if a == b:
        return [a]
    dq, dr = b[0] - a[0], b[1] - a[1]
    e = (dq - dr, dq + 2 * dr, -2 * dq - dr)  # slab functions x-y, y-z, z-x along the line
    cands: set[Hex] = set()
    for step in line_steps(a, b):
        for h in step:
            cands.add(h)
            q, r = h
            cands.update(((q, r - 1), (q + 1, r - 1), (q + 1, r), (q, r + 1), (q - 1, r + 1), (q - 1, r)))
    found: list[tuple[Fraction, Hex]] = []
    for h in cands:
        cq, cr = a[0] - h[0], a[1] - h[1]
        c = (cq - cr, cq + 2 * cr, -2 * cq - cr)
        lo, hi = Fraction(0), Fraction(1)
        for ci, ei in zip(c, e):
            # need -1 < ci + t * ei < 1
            if ei == 0:
                if ci != 0:
                    hi = Fraction(-1)
                    break
                continue
            t1, t2 = Fraction(-1 - ci, ei), Fraction(1 - ci, ei)
            if t1 > t2:
                t1, t2 = t2, t1
            lo, hi = max(lo, t1), min(hi, t2)
        if lo < hi:
            found.append((lo, h))
    found.sort()
    return [h for _, h in found]
