"""Primitive edits of JSON-like data addressed by JSON pointers; applying an edit returns its exact inverse.

Contracts:
- ``Set(pointer, value)`` stores a deep copy of ``value`` at ``pointer`` (creating the key in a mapping, or
  replacing a list item); ``value is DELETE`` removes the mapping key. Its inverse restores the old state.
- ``Insert(pointer, value)``: ``pointer`` names the list index the value will have (``.../-`` appends).
- ``Remove(pointer)``: removes a list item (or mapping key) and remembers it for the inverse.
- ``apply(data, op)`` mutates ``data`` in place and returns the inverse op; it raises :class:`EditError` (and
  leaves ``data`` untouched) when the pointer does not address a valid place.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Union

from studio.model.pointers import join, split


class _Delete:
    def __repr__(self) -> str:
        return "DELETE"


#: marker value: ``Set(pointer, DELETE)`` removes the mapping key
DELETE: Any = _Delete()


class EditError(ValueError):
    """An edit that does not fit the data (bad pointer, wrong container type, index out of range)."""


@dataclass(frozen=True)
class Set:
    pointer: str
    value: Any


@dataclass(frozen=True)
class Insert:
    pointer: str
    value: Any


@dataclass(frozen=True)
class Remove:
    pointer: str


Op = Union[Set, Insert, Remove]


def _parent(data: Any, pointer: str) -> tuple[Any, str]:
    tokens = split(pointer)
    if not tokens:
        raise EditError("cannot edit the document root")
    node = data
    try:
        for token in tokens[:-1]:
            node = node[int(token)] if isinstance(node, list) else node[token]
    except (KeyError, IndexError, ValueError, TypeError) as exc:
        raise EditError(f"no such place in the document: {pointer}") from exc
    if not isinstance(node, (dict, list)):
        raise EditError(f"{pointer}: parent is not a mapping or a list")
    return node, tokens[-1]


def _index(container: list, token: str, pointer: str, allow_end: bool) -> int:
    if token == "-" and allow_end:
        return len(container)
    try:
        i = int(token)
    except ValueError:
        raise EditError(f"{pointer}: list index expected, got {token!r}") from None
    limit = len(container) if allow_end else len(container) - 1
    if not 0 <= i <= limit:
        raise EditError(f"{pointer}: index {i} out of range")
    return i


def apply(data: Any, op: Op) -> Op:
    """Apply ``op`` to ``data`` in place; return the op that undoes it."""
    parent, key = _parent(data, op.pointer)
    if isinstance(op, Set):
        if isinstance(parent, list):
            i = _index(parent, key, op.pointer, allow_end=False)
            if op.value is DELETE:
                raise EditError(f"{op.pointer}: use Remove to delete a list item")
            old = parent[i]
            parent[i] = copy.deepcopy(op.value)
            return Set(op.pointer, old)
        old = parent.get(key, DELETE)
        if op.value is DELETE:
            parent.pop(key, None)
        else:
            parent[key] = copy.deepcopy(op.value)
        return Set(op.pointer, old)
    if isinstance(op, Insert):
        if not isinstance(parent, list):
            raise EditError(f"{op.pointer}: Insert needs a list")
        i = _index(parent, key, op.pointer, allow_end=True)
        parent.insert(i, copy.deepcopy(op.value))
        return Remove(join(split(op.pointer)[:-1] + [i]))
    if isinstance(op, Remove):
        if isinstance(parent, list):
            i = _index(parent, key, op.pointer, allow_end=False)
            return Insert(op.pointer, parent.pop(i))
        if key not in parent:
            raise EditError(f"{op.pointer}: no such key")
        return Set(op.pointer, parent.pop(key))
    raise EditError(f"unknown edit {op!r}")


def apply_all(data: Any, ops: list[Op]) -> list[Op]:
    """Apply ``ops`` in order; return their inverses in undo order. All or nothing: on error, roll back."""
    inverses: list[Op] = []
    try:
        for op in ops:
            inverses.append(apply(data, op))
    except EditError:
        for inv in reversed(inverses):
            apply(data, inv)
        raise
    inverses.reverse()
    return inverses


def structural(op: Op) -> bool:
    """True when ``op`` changes the shape of a list (indices after it move)."""
    return isinstance(op, (Insert, Remove))
