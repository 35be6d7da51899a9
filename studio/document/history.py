"""Undo/redo history of one document: a list of steps, each the edits of one user gesture.

Contracts:
- ``record(label, forward, inverse)`` stores already-applied edits. Inside an open gesture (``begin``/``end``,
  nestable) records accumulate into one step; outside, each record is its own step.
- A step's ``inverse`` ops undo it in order; ``forward`` ops redo it in order.
- Recording clears the redo list. ``serial`` identifies the current state: equal serials mean equal content
  (used for the dirty flag), so undoing back to the saved state makes the document clean again.
- Consecutive ``Set`` edits of the same pointer inside one step are compacted (a brush stroke that passes a
  row ten times stores the row once).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from .ops import Op, Set

_serials = itertools.count(1)


@dataclass
class Step:
    label: str
    forward: list[Op] = field(default_factory=list)
    inverse: list[Op] = field(default_factory=list)  # in undo order
    serial: int = field(default_factory=lambda: next(_serials))

    def compact(self) -> None:
        """Merge Sets of the same pointer when the step holds only Sets on unrelated pointers."""
        if not all(isinstance(op, Set) for op in self.forward + self.inverse):
            return
        pointers = {op.pointer for op in self.forward}
        if len(pointers) == len(self.forward):
            return
        ordered = sorted(pointers)
        if any(b.startswith(a + "/") for a, b in zip(ordered, ordered[1:])):
            return
        last = {op.pointer: op for op in self.forward}
        first_inverse = {op.pointer: op for op in self.inverse}  # undo order: the last one wins = the oldest
        seen: list[str] = list(dict.fromkeys(op.pointer for op in self.forward))
        self.forward = [last[p] for p in seen]
        self.inverse = [first_inverse[p] for p in reversed(seen)]


class History:
    def __init__(self) -> None:
        self._undo: list[Step] = []
        self._redo: list[Step] = []
        self._open: Step | None = None
        self._depth = 0
        self._base_serial = 0  # serial of the state with no steps

    # ---------------------------------------------------------------- gestures
    def begin(self, label: str) -> None:
        """Open a gesture; nested calls join the outermost one."""
        if self._depth == 0:
            self._open = Step(label)
        self._depth += 1

    def end(self) -> Step | None:
        """Close a gesture; returns the finished step (None while still nested or when it recorded nothing)."""
        if self._depth == 0:
            return None
        self._depth -= 1
        if self._depth:
            return None
        step, self._open = self._open, None
        if step is None or not step.forward:
            return None
        step.compact()
        self._push(step)
        return step

    @property
    def in_gesture(self) -> bool:
        return self._depth > 0

    def record(self, label: str, forward: list[Op], inverse: list[Op]) -> None:
        if self._open is not None:
            self._open.forward.extend(forward)
            self._open.inverse[:0] = inverse
            return
        self._push(Step(label, list(forward), list(inverse)))

    def _push(self, step: Step) -> None:
        self._undo.append(step)
        self._redo.clear()

    # ---------------------------------------------------------------- undo / redo
    def pop_undo(self) -> Step | None:
        if self._open is not None or not self._undo:
            return None
        step = self._undo.pop()
        self._redo.append(step)
        return step

    def pop_redo(self) -> Step | None:
        if self._open is not None or not self._redo:
            return None
        step = self._redo.pop()
        self._undo.append(step)
        return step

    @property
    def can_undo(self) -> bool:
        return bool(self._undo) and self._open is None

    @property
    def can_redo(self) -> bool:
        return bool(self._redo) and self._open is None

    @property
    def undo_label(self) -> str:
        return self._undo[-1].label if self._undo else ""

    @property
    def redo_label(self) -> str:
        return self._redo[-1].label if self._redo else ""

    @property
    def serial(self) -> int:
        return self._undo[-1].serial if self._undo else self._base_serial

    def __len__(self) -> int:
        return len(self._undo)
