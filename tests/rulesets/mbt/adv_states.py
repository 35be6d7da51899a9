"""Shared helper of the MBT Advanced mutation tests (``test_mut_adv_*.py``): the die each rule rolls.

Every roll of the rules is ``roll (10)`` or ``roll (100)`` in the rulebook (MBT 3.2: a (10) roll reads one die, a
(100) roll two). The autouse fixture :func:`dice_sides`, imported by each test module, records every roll a test
makes and checks its die by the roll's label, so a rule that rolls the wrong die (e.g. a (101)) fails the test
that reaches it."""
from __future__ import annotations

import pytest

from studio.rules.dice import Dice

#: labels (prefixes) of the (10) rolls of the MBT engine; the scatter direction is a (6); the rest are (100)
DIE_10 = ("AP penetration die", "Ammo limit", "ammo limit", "Attached weapon loss", "CA KO/BU", "CA damage",
          "CIS second target", "Collateral damage", "ERA", "Fuel damage", "GP KO/BU", "GP damage", "IF response",
          "Weapon repair", "bomb scatter", "building damage location", "crash", "scatter distance", "smoke ammo",
          "smoke dischargers", "spoof")
DIE_6 = ("scatter direction",)
ANY_DIE = ("Attached weapon chosen", "Camouflage spot")   # a die of the number of weapons / the table's die


def die_of(label: str) -> int | None:
    """The die of the roll labelled ``label`` (None: not fixed)."""
    if label.startswith(ANY_DIE):
        return None
    if label.startswith(DIE_10):
        return 10
    if label.startswith(DIE_6):
        return 6
    return 100


@pytest.fixture(autouse=True)
def dice_sides(monkeypatch):
    """Record (label, sides) of every roll during the test; afterwards each must be its rule's die."""
    seen: list = []
    original = Dice.roll

    def roll(self, sides: int, label: str = "") -> int:
        seen.append((label, sides))
        return original(self, sides, label)

    monkeypatch.setattr(Dice, "roll", roll)
    yield seen
    wrong = [(label, sides) for label, sides in seen if die_of(label) not in (None, sides)]
    assert not wrong, f"rolls with the wrong die: {wrong}"
