"""Facing, turning, sectors, fields of fire and hit aspects on a hex grid.

A facing is a direction index 0..5 (see ``coords``: flat-top N, NE, SE, S, SW, NW;
pointy-top NW, NE, E, SE, SW, W; clockwise).  All geometry here is exact integer
arithmetic on axial coordinates, so it is the same for both orientations.

Angles are measured in *hexside units* (1 unit = 60 degrees) clockwise from direction 0.
Hexside directions sit at whole units; hex "spines" (lines through hex corners, which
continue along hexsides) sit at half units.  Every rule boundary used here (arcs of
60/120/180/360 degrees centred on a hexside direction, the Front/Rear split through the
side corners, the six 60-degree hit-angle sectors) falls on a whole or half unit, so the
piecewise-linear "hex ring" angle used below decides them exactly.
"""

from __future__ import annotations

from enum import Enum

from studio.hexgrid.coords import Hex


def _angle_num(dq: int, dr: int) -> tuple[int, int]:
    """Angle of vector (dq, dr) as ``(num, n)``: ``num / n`` hexside units in [0, 6)."""
    ds = -dq - dr
    n = max(abs(dq), abs(dr), abs(ds))
    if n == 0:
        raise ValueError("no direction from a hex to itself")
    # walk the ring of radius n: edge i runs from n*dir[i] to n*dir[i+1]
    if dr == -n and dq >= 0:
        return (dq, n)  # edge 0: (0,-n) -> (n,-n)
    if dq == n and dr <= 0:
        return (n + dr + n, n)  # edge 1: (n,-n) -> (n,0)
    if ds == -n and dr >= 0:
        return (2 * n + dr, n)  # edge 2: (n,0) -> (0,n)
    if dr == n and dq <= 0:
        return (3 * n - dq, n)  # edge 3: (0,n) -> (-n,n)
    if dq == -n and dr >= 0:
        return (4 * n + (n - dr), n)  # edge 4: (-n,n) -> (-n,0)
    return (5 * n + (n + dq), n) if (5 * n + n + dq) < 6 * n else (0, n)  # edge 5


def bearing(origin: Hex, target: Hex) -> float:
    """Direction of ``target`` from ``origin`` in hexside units [0, 6), exact on whole and
    half units (monotone in the true angle, not linear between them).

    >>> bearing((0, 0), (1, 0)), bearing((0, 0), (1, 1)), bearing((0, 0), (0, -3))
    (2.0, 2.5, 0.0)
    """
    num, n = _angle_num(target[0] - origin[0], target[1] - origin[1])
    return num / n


def _rel2(origin: Hex, facing: int, target: Hex) -> tuple[int, int]:
    """Signed clockwise offset of target from ``facing`` as ``(k, n)``: ``k / (2n)``
    hexside units, normalised into (-3, 3]."""
    num, n = _angle_num(target[0] - origin[0], target[1] - origin[1])
    off = (num - (facing % 6) * n) % (6 * n)
    if off > 3 * n:
        off -= 6 * n
    return (2 * off, n)


def turn_cost(f1: int, f2: int) -> int:
    """Hexside steps (60-degree turns) between two facings: 0..3.

    >>> turn_cost(0, 5), turn_cost(1, 4), turn_cost(2, 2)
    (1, 3, 0)
    """
    d = (f2 - f1) % 6
    return d if d <= 3 else 6 - d


def turn(facing: int, steps: int) -> int:
    """Facing after turning ``steps`` hexsides clockwise (negative = anticlockwise).

    >>> turn(0, -1), turn(5, 2)
    (5, 1)
    """
    return (facing + steps) % 6


def reverse(facing: int) -> int:
    """The opposite facing (180 degrees).

    >>> reverse(1)
    4
    """
    return (facing + 3) % 6


def sector(origin: Hex, target: Hex) -> tuple[int, ...]:
    """Direction(s) whose 60-degree sector (centred on that hexside) contains ``target``.

    Sector i is the region of hexes "beyond hexside i"; a sight line from origin's centre
    to target's centre leaves origin through that hexside.  On a sector boundary (target on
    a spine through a corner of origin) both neighbouring directions are returned, lower
    clockwise first.  Raises ValueError when origin == target.

    >>> sector((0, 0), (0, -4)), sector((0, 0), (2, -3)), sector((0, 0), (1, 1))
    ((0,), (1,), (2, 3))
    """
    num, n = _angle_num(target[0] - origin[0], target[1] - origin[1])
    # num/n in [0,6); sector k covers (k - 0.5, k + 0.5)
    twice = 2 * num
    k, rem = divmod(twice + n, 2 * n)  # floor((num/n) + 0.5)
    if rem == 0:
        return ((k - 1) % 6, k % 6)
    return (k % 6,)


def direction_to(origin: Hex, target: Hex) -> int:
    """The single direction whose sector holds ``target``; on a boundary the clockwise-lower
    one of the two (use ``sector`` to see ties).

    >>> direction_to((0, 0), (5, -4)), direction_to((0, 0), (1, 1))
    (1, 2)
    """
    return sector(origin, target)[0]


def in_arc(origin: Hex, facing: int, target: Hex, arc_deg: int, rear: bool = False) -> bool:
    """Is ``target`` within a field of fire of ``arc_deg`` (60, 120, 180 or 360) degrees
    centred on the front hexside ``facing`` (or the opposite hexside when ``rear``)?

    MBT 4.4.3.1.4-5: "all hexes bisected by the respective arc fall within" the field of
    fire.  Arc boundaries from the hex centre run either through rows of hex centres (120)
    or along hex spines (60, 180), so a hex is bisected - and inside - exactly when its
    centre is inside the arc or on its boundary (digest Q15).  Hexes merely touching a
    boundary along a hexside are outside.  The firer's own hex is always inside.

    >>> in_arc((0, 0), 0, (0, -5), 60), in_arc((0, 0), 0, (1, -2), 60)
    (True, True)
    >>> in_arc((0, 0), 0, (1, -1), 60), in_arc((0, 0), 0, (1, -1), 120)
    (False, True)
    >>> in_arc((0, 0), 0, (0, 3), 60, rear=True)
    True
    """
    if arc_deg not in (60, 120, 180, 360):
        raise ValueError(f"arc must be 60, 120, 180 or 360 degrees, got {arc_deg}")
    if arc_deg == 360 or origin == target:
        return True
    f = facing + 3 if rear else facing
    k, n = _rel2(origin, f, target)
    # |offset| <= half-arc (arc/120 hexside units) <=> |k|/(2n) <= arc/120
    return abs(k) * 60 <= arc_deg * n


class Aspect(Enum):
    """Basic-game hit aspect of a target (MBT 4.4.3.2.4)."""

    FRONT = "front"
    REAR = "rear"
    OWNER_CHOOSES = "owner_chooses"


def hit_aspect(target: Hex, target_facing: int, firer: Hex) -> Aspect:
    """Front or Rear armour aspect of ``target`` hit from ``firer`` (MBT 4.4.3.2.4).

    Front = the firer lies in the front 180 degrees (the three front hexsides), Rear = the
    rear 180 (digest Q16).  The dividing line runs through the target's two side corners
    and continues along hexsides; a line of fire exactly along it gives
    ``OWNER_CHOOSES`` (the target's owner picks).  Same hex: ``OWNER_CHOOSES``.

    >>> hit_aspect((0, 0), 0, (0, -3)).value, hit_aspect((0, 0), 0, (0, 2)).value
    ('front', 'rear')
    >>> hit_aspect((0, 0), 0, (2, -1)).value
    'owner_chooses'
    """
    if target == firer:
        return Aspect.OWNER_CHOOSES
    k, n = _rel2(target, target_facing, firer)
    a = abs(k)  # twice offset in units of 1/n; boundary at 1.5 units -> 3n
    if a < 3 * n:
        return Aspect.FRONT
    if a > 3 * n:
        return Aspect.REAR
    return Aspect.OWNER_CHOOSES


HIT_ANGLE_NAMES: tuple[str, ...] = (
    "front", "front_side_right", "rear_side_right", "rear", "rear_side_left", "front_side_left",
)


def hit_angles(target: Hex, target_facing: int, firer: Hex) -> tuple[int, ...]:
    """Relative hexside(s) of ``target`` facing ``firer``: 0 = front, 1 = front/side right,
    2 = rear/side right, 3 = rear, 4 = rear/side left, 5 = front/side left (clockwise).

    One 60-degree sector per target hexside (MBT AG 6.5.2.2, digest Q16); two values when the
    line of fire runs exactly along the hexside between two angles (the owner chooses).  Also
    the hexside a line of fire crosses into the target (Assault R13.B.2 front/flank armour).

    >>> [HIT_ANGLE_NAMES[i] for i in hit_angles((0, 0), 1, (4, -4))]
    ['front']
    >>> hit_angles((0, 0), 0, (1, -2))
    (0, 1)
    """
    if target == firer:
        raise ValueError("target and firer in the same hex: no hit angle")
    return tuple((d - target_facing) % 6 for d in sector(target, firer))
