"""The decimal die (Assault 1.E): one d10 whose 0 reads 10; every check succeeds on a roll at or under N."""
from __future__ import annotations

from studio.rules.dice import Dice


def d10(dice: Dice, label: str = "") -> int:
    """A roll 1..10 (Assault 1.E). Forced dice may give the printed face 0, which reads 10."""
    if dice._forced and dice._forced[0] == 0:   # a forced 0 is the die's printed face  # Assault 1.E
        dice._forced[0] = 10
    return dice.roll(10, label)


def succeeds(roll: int, number: int) -> bool:
    """Assault 1.E: 'equal to or less' succeeds; N <= 0 never, N >= 10 always (digest c0, reading c53)."""
    return roll <= number
