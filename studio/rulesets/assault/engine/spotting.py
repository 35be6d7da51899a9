"""Spotting arithmetic (Assault 10): maximum range, the line of sight graph rule, the spotting number."""
from __future__ import annotations

from collections.abc import Iterable

from .data import AssaultData


def max_spotting_range(data: AssaultData, spotter_level: int, target_level: int) -> int:
    """Assault 10.B.1: the base range plus a number of hexes per level of the spotter and of the target."""
    per = data.constant("spotting-range-per-level")
    return data.constant("spotting-range-base") + per * (spotter_level + target_level)


def los_blocked(spotter_height: int, target_height: int, target_range: int,
                obstacles: Iterable[tuple[int, int]]) -> bool:
    """Assault 10.B.2, the line of sight graph as arithmetic: an obstacle (range from the spotter, height) blocks
    when it lies strictly above the straight line from the spotter to the target; exactly on the line is clear.
    The spotter's and target's own hexes are not obstacles (the caller passes the hexes in between)."""
    for rng, height in obstacles:
        # above the line: (h - hS) / r > (hT - hS) / R, cross-multiplied to stay in integers
        if (height - spotter_height) * target_range > (target_height - spotter_height) * rng:
            return True
    return False


def base_spotting_number(data: AssaultData, rng: int) -> int:
    """Assault 10.D: the spotting table's base number for a range (the first row whose range_max covers it);
    beyond the last row nothing is spotted (0)."""
    for range_max, base in data.spotting:
        if rng <= range_max:
            return base
    return 0
