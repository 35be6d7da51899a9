"""TO&E expansion: the one definition of which unit cards a TO&E or a scenario force fields.

A *slot path* names a slot by the echelon ids from the TO&E's root down to the slot id, e.g.
``coy/plt-1/m3``; an echelon that instantiates another TO&E (``template``) continues with that TO&E's root id
(``troop/tank-plt/plt/m1``). Paths are accepted with or without the root echelon's id. Echelon and slot
``count`` multiply; copies of a repeated echelon share its paths. A force's substitutions replace the unit of
the slot they name: every vehicle of the slot, or only the first ``count`` of them. Template nesting stops at
``MAX_DEPTH`` (cycles are reported by the TO&E check); a missing template contributes nothing (the reference
check reports it).

Designations: ``{n}`` is always the *sibling number* (from 1), so siblings never share a designation. An echelon
copy's designation is its ``designation`` pattern with ``{n}`` its number among all the echelon copies under the
same parent (two scout platoons then two tank platoons are 1, 2, 3, 4) and ``{parent}`` the parent echelon's
designation; a template root takes the designation of the echelon that instantiates it; a vehicle's designation
is its slot's pattern with ``{n}`` its number among all the vehicles of its echelon, in slot order. ``{n+K}`` and
``{n-K}`` shift the number (``{parent}{n-1}``). An empty pattern gives the parent's designation followed by the
number (as ``studio.document.toe.designate``). A scenario force's ``designation`` names the TO&E's root echelon.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from .documents import Echelon, Force, Toe

MAX_DEPTH = 8


@dataclass(frozen=True, slots=True)
class ForceUnit:
    path: str   # slot path, from the root echelon's id
    unit: str   # unit card id (after substitutions)
    role: str   # hq, line, support or attached
    copy: int   # 0-based number of this vehicle among the vehicles of the same slot path
    designation: str = ""   # e.g. '1/A/2-37', from the designation patterns (see the module docstring)


_FIELD = re.compile(r"\{(?:(n)(?:([+-])(\d{1,3}))?|(parent))\}")


def _field(match: re.Match, n: int, parent: str) -> str:
    if match.group(4):
        return parent
    shift = int(match.group(3) or 0)
    return str(n + shift if match.group(2) != "-" else n - shift)


def designate(pattern: str | None, n: int, parent: str = "") -> str:
    """``pattern`` with ``{n}`` (``{n+K}``, ``{n-K}``) and ``{parent}`` filled in; an empty pattern gives
    ``parent`` + ``n``.

    >>> designate("{n}/{parent}", 2, "A"), designate("", 3, "2"), designate(None, 1), designate("{parent}{n-1}", 3, "2")
    ('2/A', '23', '1', '22')
    """
    if not pattern:
        return f"{parent}{n}" if parent else str(n)
    return _FIELD.sub(lambda m: _field(m, n, parent), pattern)


def _short(path: str) -> str:
    return path.split("/", 1)[1] if "/" in path else path


def _walk(ech: Echelon, index, prefix: str, depth: int, parent: str = "",
          fixed: str | None = None, first: int = 1) -> Iterable[tuple[str, str, str, str]]:
    """(slot path, unit, role, designation) of every vehicle under ``ech``; ``fixed`` is the designation of
    the echelon that instantiates this template root (or the force's designation for the root); ``first`` is
    the sibling number of its first copy."""
    for name in _copies(ech, parent, fixed, first):
        yield from _one_copy(ech, index, prefix, depth, parent, name)


def _copies(ech: Echelon, parent: str, fixed: str | None, first: int) -> list[str]:
    """Designations of the ``count`` copies of ``ech``, numbered from sibling number ``first``."""
    if fixed is not None:
        return [fixed] * ech.count
    return [designate(ech.designation, first + i, parent) for i in range(ech.count)]


def _one_copy(ech: Echelon, index, prefix: str, depth: int, parent: str,
              name: str) -> Iterable[tuple[str, str, str, str]]:
    here = f"{prefix}{ech.id}"
    number = 0  # sibling number of the echelon's vehicles, across its slots
    for slot in ech.slots:
        for _ in range(slot.count):
            number += 1
            yield f"{here}/{slot.id}", slot.unit, slot.role, designate(slot.designation, number, name)
    if ech.template and depth < MAX_DEPTH:
        sub = index.model("toe", ech.template)
        if sub is not None:
            yield from _walk(sub.root, index, here + "/", depth + 1, parent, name)
    sibling = 1
    for child in ech.children:
        yield from _walk(child, index, here + "/", depth, name, first=sibling)
        sibling += child.count


def expand_toe(toe: Toe, index, substitutions: Iterable = (), designation: str = "") -> list[ForceUnit]:
    """Every vehicle of ``toe`` in depth-first order, with ``substitutions`` (``Substitution`` models) applied;
    ``designation`` (a scenario force's) names the root echelon."""
    subs = {}
    for s in substitutions:
        subs[s.slot.strip("/")] = (s.unit, getattr(s, "count", None))
    seen: dict[str, int] = {}
    out = []
    for path, unit, role, name in _walk(toe.root, index, "", 0, "", designation or None):
        copy = seen.get(path, 0)
        seen[path] = copy + 1
        swap = subs.get(path) or subs.get(_short(path))
        if swap is not None and (swap[1] is None or copy < swap[1]):
            unit = swap[0]
        out.append(ForceUnit(path, unit, role, copy, name))
    return out


def expand_force(force: Force, index) -> list[ForceUnit]:
    """The vehicles a scenario force fields; empty when its TO&E is missing."""
    toe = index.model("toe", force.toe)
    return expand_toe(toe, index, force.substitutions, force.designation) if toe is not None else []


def slot_paths(toe: Toe, index) -> set[str]:
    """Every slot path of ``toe``, in both spellings (with and without the root echelon's id)."""
    paths = {path for path, *_ in _walk(toe.root, index, "", 0)}
    return paths | {_short(p) for p in paths}
