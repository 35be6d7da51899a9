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


def text_seed(text: str) -> int:
    """The seed ``Dice.seeded_from(text)`` uses: the first 8 bytes of the text's SHA-256."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


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
        return cls(text_seed(text), record)

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


class LazyDice(Dice):
    """Dice whose generator is made on first use, with recording off: an observation's dice cost nothing unless a
    bot rolls, clones or hashes them. ``seed`` is an int or a callable returning one (called once, on first use);
    the rolls are those of ``Dice(seed)``. Forced rolls are returned without making the generator."""

    __slots__ = ("_seed",)

    def __init__(self, seed):  # noqa: D107 - no generator until first use
        self._seed = seed
        self._rng = None
        self._forced = deque()
        self.history = []
        self.record = False

    def _ready(self) -> None:
        if self._rng is None:
            if callable(self._seed):
                self._seed = self._seed()
            self._rng = random.Random(self._seed)

    def roll(self, sides: int, label: str = "") -> int:
        if not self._forced:
            self._ready()
        return Dice.roll(self, sides, label)

    def choice(self, items):
        self._ready()
        return Dice.choice(self, items)

    def randrange(self, n: int) -> int:
        self._ready()
        return Dice.randrange(self, n)

    def clone(self) -> Dice:
        if self._rng is None:  # the same rolls to come, still lazy
            other = LazyDice(self._seed)
            other._forced = deque(self._forced)
            other.history = list(self.history)
            other.record = self.record
            return other
        return Dice.clone(self)

    def fingerprint(self) -> str:
        self._ready()
        return Dice.fingerprint(self)
