"""Generic height-profile line of sight along a hex line.

The sight line runs from the observer's eye (observer hex ground + ``observer_height``) to
the target (target hex ground + ``target_height``) in a straight line over range.  Each
obstacle is tested at its position along the line, in half-hex units ``k`` (hex at step i:
``k = 2i``; the hexside between steps i and i+1: ``k = 2i + 1``): it blocks when its top
is above the sight line there.  In exact arithmetic (``n`` = range)::

    blocked  <=>  (top - eye) * 2n  >  (target - eye) * k      (">=" if rules.equal_blocks)

which is Assault R10.B.2's LOS graph rule "(hX - hS) * dT > (hT - hS) * dX" (example A55).

What is tested (``lines`` explains split steps):

* every intervening hex (not the two end hexes unless ``observer_hex_blocks`` /
  ``target_hex_blocks``): top = ground + obstacle height (woods, town ...);
* every hexside the line crosses between consecutive steps (``hexside(h1, h2)`` gives its
  absolute top height or None);
* where the line crosses a hexside exactly at its midpoint, both hexes and that hexside;
* where the line runs *along* a hexside (hex spine), that hexside (if
  ``rules.along_hexside_blocks``) and the two flanking hexes, combined by
  ``rules.edge_policy``.  Hexsides touched only at a corner are not crossed.

MBT's blind-zone test (MBT 4.1.4.2.1-4) is not a straight-line interpolation; a ruleset
needing it uses ``line_steps`` directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from studio.hexgrid.coords import Hex, distance
from studio.hexgrid.lines import EdgePolicy, line_steps

TerrainFn = Callable[[Hex], "tuple[float, float]"]
HexsideFn = Callable[[Hex, Hex], "float | None"]


@dataclass(frozen=True, slots=True)
class LosRules:
    """A ruleset's LOS choices as data.

    ``rule``: rule key copied into results (e.g. ``"Assault R10.B.2"``).
    ``edge_policy``: spine lines (see ``EdgePolicy``).
    ``equal_blocks``: an obstacle exactly on the sight line blocks (Assault: no, "exactly on
    or below" is clear).
    ``observer_hex_blocks`` / ``target_hex_blocks``: the end hexes' own terrain is tested
    (all four systems: no - MBT 4.1.4 "intervening", WaW 7.1, Assault R10.B.2).
    ``adjacent_always_clear``: adjacent hexes always see each other (WaW 7.0); MBT lets an
    intervening hexside block adjacent units (4.1.4.2.5).
    ``along_hexside_blocks``: a hexside obstacle the line runs along is tested (MBT 4.1.4.2.6).

    >>> LosRules(rule="WaW 7.3", edge_policy=EdgePolicy.BLOCK_IF_BOTH).edge_policy.value
    'block_if_both'
    """

    rule: str = ""
    edge_policy: EdgePolicy = EdgePolicy.BLOCK_IF_EITHER
    equal_blocks: bool = False
    observer_hex_blocks: bool = False
    target_hex_blocks: bool = False
    adjacent_always_clear: bool = False
    along_hexside_blocks: bool = True


@dataclass(frozen=True, slots=True)
class LosResult:
    """Outcome of a LOS check.

    ``blocker``: the blocking hex, hexside ``(h1, h2)``, the two flanking hexes of a spine
    step (kind ``"spine"``), or None when clear.  ``kind``: ``"hex"``, ``"hexside"``,
    ``"spine"`` or None.  ``reason``: human-readable.  ``rule``: ``LosRules.rule``.
    """

    clear: bool
    blocker: object = None
    kind: str | None = None
    reason: str = ""
    rule: str = ""

    def __bool__(self) -> bool:
        return self.clear


# an element is (k, kind, ident, top); side is 0/1 for spine alternatives, -1 mandatory
_Elem = tuple[int, str, object, float]


def _cube_dot(d: tuple[int, int], a: Hex, b: Hex) -> int:
    ex, ey = b[0] - a[0], b[1] - a[1]
    return d[0] * ex + d[1] * ey + (d[0] + d[1]) * (ex + ey)


def los_elements(
    a: Hex, b: Hex, terrain: TerrainFn, hexside: HexsideFn | None, rules: LosRules
) -> tuple[list[_Elem], list[tuple[_Elem, _Elem]]]:
    """Obstacles along a->b: (mandatory elements, spine alternatives (side 0, side 1)).

    Elements are ``(k, kind, ident, top)`` in observer-to-target order; ``top`` is the
    absolute obstacle top (None hexsides are skipped).

    >>> flat = lambda h: (0, 0)
    >>> mand, alt = los_elements((0, 0), (1, 1), flat, None, LosRules())
    >>> mand, alt
    ([], [((2, 'hex', (0, 1), 0), (2, 'hex', (1, 0), 0))])
    """
    n = distance(a, b)
    steps = line_steps(a, b)
    d = (b[0] - a[0], b[1] - a[1])
    mand: list[_Elem] = []
    alts: list[tuple[_Elem, _Elem]] = []
    if rules.observer_hex_blocks:
        g, o = terrain(a)
        mand.append((0, "hex", a, g + o))

    def side(h1: Hex, h2: Hex, k: int) -> None:
        if hexside is not None:
            t = hexside(h1, h2)
            if t is not None:
                mand.append((k, "hexside", (h1, h2), t))

    # per step: entry hex (for the hexside from the previous step) and exit hex
    prev_exit: Hex | None = a
    for i in range(1, n + 1):
        step = steps[i]
        if len(step) == 1:
            h = step[0]
            if prev_exit is not None:
                side(prev_exit, h, 2 * i - 1)
            if i < n:
                g, o = terrain(h)
                mand.append((2 * i, "hex", h, g + o))
            prev_exit = h
            continue
        p0, p1 = step
        dot = _cube_dot(d, p0, p1)
        if dot == 0:  # runs along the p0|p1 hexside
            g0, o0 = terrain(p0)
            g1, o1 = terrain(p1)
            alts.append(((2 * i, "hex", p0, g0 + o0), (2 * i, "hex", p1, g1 + o1)))
            if rules.along_hexside_blocks:
                side(p0, p1, 2 * i)
            prev_exit = None
        else:  # crosses the p0|p1 hexside at its midpoint: x then y
            x, y = (p0, p1) if dot > 0 else (p1, p0)
            if prev_exit is not None:
                side(prev_exit, x, 2 * i - 1)
            gx, ox = terrain(x)
            mand.append((2 * i, "hex", x, gx + ox))
            side(x, y, 2 * i)
            gy, oy = terrain(y)
            mand.append((2 * i, "hex", y, gy + oy))
            prev_exit = y
    if rules.target_hex_blocks:
        g, o = terrain(b)
        mand.append((2 * n, "hex", b, g + o))
    return mand, alts


def check_los(
    a: Hex,
    b: Hex,
    terrain: TerrainFn,
    hexside: HexsideFn | None = None,
    observer_height: float = 0.0,
    target_height: float = 0.0,
    rules: LosRules = LosRules(),
) -> LosResult:
    """Line of sight from observer hex ``a`` to target hex ``b``.

    ``terrain(h) -> (ground, obstacle)``: ground elevation and obstacle height above ground
    (0 = none); ``hexside(h1, h2) -> absolute top | None``.  Heights are in any consistent
    unit (levels).  Same hex: clear.

    >>> woods = {(2, 0)}
    >>> terrain = lambda h: (0, 1 if h in woods else 0)
    >>> check_los((0, 0), (4, 0), terrain).clear
    False
    >>> check_los((0, 0), (4, 0), terrain, observer_height=3).clear
    True
    >>> r = check_los((0, 0), (4, 0), terrain, rules=LosRules(rule="demo"))
    >>> (r.blocker, r.kind, r.rule)
    ((2, 0), 'hex', 'demo')
    """
    n = distance(a, b)
    if n == 0:
        return LosResult(True, None, None, "same hex", rules.rule)
    if n == 1 and rules.adjacent_always_clear:
        return LosResult(True, None, None, "adjacent hexes always see each other", rules.rule)
    ga, _ = terrain(a)
    gb, _ = terrain(b)
    eye = ga + observer_height
    tgt = gb + target_height
    dh = tgt - eye
    n2 = 2 * n
    eq = rules.equal_blocks

    def blocks(e: _Elem) -> bool:
        lhs = (e[3] - eye) * n2
        rhs = dh * e[0]
        return lhs >= rhs if eq else lhs > rhs

    mand, alts = los_elements(a, b, terrain, hexside, rules)
    first: _Elem | None = next((e for e in mand if blocks(e)), None)
    policy = rules.edge_policy
    alt_block: tuple[int, str, object, float] | None = None
    if policy is EdgePolicy.BLOCK_IF_EITHER:
        for e0, e1 in alts:
            hit = e0 if blocks(e0) else (e1 if blocks(e1) else None)
            if hit is not None:
                alt_block = hit
                break
    elif policy is EdgePolicy.BLOCK_IF_BOTH:
        for e0, e1 in alts:
            if blocks(e0) and blocks(e1):
                alt_block = (e0[0], "spine", (e0[2], e1[2]), max(e0[3], e1[3]))
                break
    else:  # FIRER_CHOOSES: one side for the whole line
        b0 = next((e0 for e0, _ in alts if blocks(e0)), None)
        b1 = next((e1 for _, e1 in alts if blocks(e1)), None)
        if b0 is not None and b1 is not None:
            alt_block = b0 if b0[0] <= b1[0] else b1
    cands = [e for e in (first, alt_block) if e is not None]
    if not cands:
        return LosResult(True, None, None, "no obstacle reaches the sight line", rules.rule)
    e = min(cands, key=lambda x: x[0])
    line_h = eye + dh * e[0] / n2
    what = {"hex": "hex", "hexside": "hexside", "spine": "hexes on both sides of the spine"}[e[1]]
    reason = (
        f"{what} {e[2]!r} at range {e[0] / 2:g}: obstacle top {e[3]:g} "
        f"{'reaches' if eq else 'is above'} the sight line ({line_h:.3g})"
    )
    return LosResult(False, e[2], e[1], reason, rules.rule)
