"""Seeded dice kept in the game state, with each system's reading conventions and forced rolls for tests.

``roll(100)`` reads percentile dice: 1..100 (a roll of "00" is 100); ``roll(10)`` reads a d10 with 0 = 10;
``roll(6)`` a d6. Every roll is recorded in ``history`` with a label, so logs can show them.
``Dice.seeded_from(text)`` makes the fresh dice of an observation: seeded from what the player sees, so they
never predict the real rolls and are the same however the hidden parts are scrambled.
"""
from __future__ import annotations

import hashlib
import random
from collections import deque


class Dice:
    __slots__ = ("_rng", "_forced", "history", "record")

    def __init__(self, seed: int, record: bool = True):
        self._rng = random.Random(seed)
        self._forced: deque[int] = deque()
        self.history: list[tuple[str, int]] = []
        self.record = record

    @classmethod
    def seeded_from(cls, text: str, record: bool = True) -> "Dice":
        """Dice seeded from ``text`` (e.g. the visible part of a state's fingerprint), for observations."""
        seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
        return cls(seed, record)

    def force(self, *values: int) -> None:
        """Queue values that the next rolls return, in order (tests reproduce worked examples this way)."""
        self._forced.extend(values)

    def roll(self, sides: int, label: str = "") -> int:
        """A roll in 1..sides (forced values first)."""
        if self._forced:
            value = self._forced.popleft()
            if not 1 <= value <= sides:
                raise ValueError(f"forced roll {value} is outside 1..{sides}")
        else:
            value = self._rng.randint(1, sides)
        if self.record:
            self.history.append((label or f"d{sides}", value))
        return value

    def pool(self, count: int, sides: int = 6, label: str = "") -> list[int]:
        """``count`` dice of ``sides`` sides (d6 pools for World-at-War-style systems)."""
        return [self.roll(sides, label) for _ in range(count)]

    def choice(self, items):
        """A seeded choice (e.g. drawing a marker from a cup); not recorded as a die roll."""
        return items[self._rng.randrange(len(items))]

    def randrange(self, n: int) -> int:
        return self._rng.randrange(n)

    def clone(self) -> "Dice":
        other = Dice.__new__(Dice)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._forced = deque(self._forced)
        other.history = list(self.history)
        other.record = self.record
        return other

    def fingerprint(self) -> str:
        state = self._rng.getstate()
        return f"{hash(state[1]) & 0xFFFFFFFF:08x}:{len(self._forced)}"
