"""TO&E expansion: the one definition of which unit cards a TO&E or a scenario force fields.

A *slot path* names a slot by the echelon ids from the TO&E's root down to the slot id, e.g.
``coy/plt-1/m3``; an echelon that instantiates another TO&E (``template``) continues with that TO&E's root id
(``troop/tank-plt/plt/m1``). Paths are accepted with or without the root echelon's id. Echelon and slot
``count`` multiply; copies of a repeated echelon share its paths. A force's substitutions replace the unit of
the slot they name: every vehicle of the slot, or only the first ``count`` of them. Template nesting stops at
``MAX_DEPTH`` (cycles are reported by the TO&E check); a missing template contributes nothing (the reference
check reports it).
"""
from __future__ import annotations

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


def _short(path: str) -> str:
    return path.split("/", 1)[1] if "/" in path else path


def _walk(ech: Echelon, index, prefix: str, depth: int) -> Iterable[tuple[str, str, str]]:
    here = f"{prefix}{ech.id}"
    for _ in range(ech.count):
        for slot in ech.slots:
            for _ in range(slot.count):
                yield f"{here}/{slot.id}", slot.unit, slot.role
        if ech.template and depth < MAX_DEPTH:
            sub = index.model("toe", ech.template)
            if sub is not None:
                yield from _walk(sub.root, index, here + "/", depth + 1)
        for child in ech.children:
            yield from _walk(child, index, here + "/", depth)


def expand_toe(toe: Toe, index, substitutions: Iterable = ()) -> list[ForceUnit]:
    """Every vehicle of ``toe`` in depth-first order, with ``substitutions`` (``Substitution`` models) applied."""
    subs = {}
    for s in substitutions:
        subs[s.slot.strip("/")] = (s.unit, getattr(s, "count", None))
    seen: dict[str, int] = {}
    out = []
    for path, unit, role in _walk(toe.root, index, "", 0):
        copy = seen.get(path, 0)
        seen[path] = copy + 1
        swap = subs.get(path) or subs.get(_short(path))
        if swap is not None and (swap[1] is None or copy < swap[1]):
            unit = swap[0]
        out.append(ForceUnit(path, unit, role, copy))
    return out


def expand_force(force: Force, index) -> list[ForceUnit]:
    """The vehicles a scenario force fields; empty when its TO&E is missing."""
    toe = index.model("toe", force.toe)
    return expand_toe(toe, index, force.substitutions) if toe is not None else []


def slot_paths(toe: Toe, index) -> set[str]:
    """Every slot path of ``toe``, in both spellings (with and without the root echelon's id)."""
    paths = {path for path, _, _ in _walk(toe.root, index, "", 0)}
    return paths | {_short(p) for p in paths}
