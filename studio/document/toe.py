"""TO&E editing logic: designation numbering, expansion with templates, totals per echelon, and moves.

- ``designate(pattern, n, parent)`` fills ``{n}`` (sibling number, 1-based) and ``{parent}`` (the parent's
  designation); an empty pattern yields the parent's designation followed by ``n``.
- ``expand(data, toe_lookup)`` turns raw TO&E data into :class:`Node` instances, one per echelon copy, following
  templates (depth-limited, cycles stop); each has its designation, its units with designations, and totals.
- ``move_ops(data, source, target_list, index)`` returns the ops that move an echelon or slot (one undo step), or
  raises ValueError for impossible moves (into itself, slot among echelons, ...).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from studio.model import forces
from studio.model.pointers import join, resolve, split

from .ops import Insert, Op, Remove

MAX_DEPTH = 8


def designate(pattern: Any, n: int, parent: str = "") -> str:
    """:func:`studio.model.forces.designate` for raw (possibly mistyped) editor data: a non-string is no pattern."""
    return forces.designate(pattern if isinstance(pattern, str) else None, n, parent)


@dataclass
class UnitInstance:
    unit: str
    designation: str
    slot: str
    role: str


@dataclass
class Node:
    pointer: str              # echelon pointer in the edited document ("" inside a template)
    name: str
    echelon: str
    designation: str
    units: list[UnitInstance] = field(default_factory=list)
    children: list["Node"] = field(default_factory=list)
    template: str | None = None

    def totals(self) -> Counter:
        """Units of this echelon and everything under it, by card id."""
        out = Counter(u.unit for u in self.units)
        for child in self.children:
            out.update(child.totals())
        return out

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


def _dicts(value: Any) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _count(value: Any, limit: int = 999) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= limit else 1


def expand(data: Any, toe_lookup: Callable[[str], Any] = lambda _id: None, base: int = 1) -> Node | None:
    """The organisation of TO&E ``data`` as instance nodes (``toe_lookup(id)`` gives other TO&Es' data)."""
    root = data.get("root") if isinstance(data, dict) else None
    if not isinstance(root, dict):
        return None
    return _echelon(root, "/root", base, "", toe_lookup, 0, {data.get("id")})


def _echelon(ech: dict, pointer: str, n: int, parent: str, lookup, depth: int, seen: set,
             fixed: str | None = None) -> Node:
    """One echelon copy; ``fixed`` is the designation of the echelon that instantiates this template root."""
    designation = fixed if fixed is not None else designate(ech.get("designation"), n, parent)
    node = Node(pointer, str(ech.get("name") or ech.get("id") or "?"), str(ech.get("echelon") or ""), designation,
                template=ech.get("template") if isinstance(ech.get("template"), str) else None)
    if depth > MAX_DEPTH:
        return node
    number = 0  # sibling number of the echelon's vehicles across its slots (studio.model.forces)
    for slot in _dicts(ech.get("slots")):
        for _ in range(_count(slot.get("count"))):
            number += 1
            node.units.append(UnitInstance(str(slot.get("unit") or "?"), designate(slot.get("designation"), number,
                                                                                    designation),
                                           str(slot.get("id") or ""), str(slot.get("role") or "line")))
    if node.template and node.template not in seen:
        sub = lookup(node.template)
        root = sub.get("root") if isinstance(sub, dict) else None
        if isinstance(root, dict):
            inner = _echelon(root, "", 1, parent, lookup, depth + 1, seen | {node.template}, fixed=designation)
            node.units.extend(inner.units)
            node.children.extend(inner.children)
    sibling = 0  # sibling number across all child echelon copies
    for i, child in enumerate(_dicts(ech.get("children"))):
        for _ in range(_count(child.get("count"), 99)):
            sibling += 1
            node.children.append(_echelon(child, f"{pointer}/children/{i}", sibling, designation, lookup, depth + 1,
                                          seen))
    return node


def item_kind(pointer: str) -> str:
    """'echelon' or 'slot' for a pointer into a TO&E ('/root', '/root/children/0', '/root/slots/1')."""
    parts = split(pointer)
    return "slot" if len(parts) >= 2 and parts[-2] == "slots" else "echelon"


def move_ops(data: dict, source: str, target_list: str, index: int) -> list[Op]:
    """Ops moving the item at ``source`` to position ``index`` of the list at ``target_list`` (may not exist)."""
    kind = item_kind(source)
    if source == "/root":
        raise ValueError("the root echelon cannot be moved")
    wanted = "slots" if kind == "slot" else "children"
    if split(target_list)[-1:] != [wanted]:
        raise ValueError(f"a {kind} can only go into an echelon's {wanted}")
    if target_list == source or target_list.startswith(source + "/"):
        raise ValueError("an echelon cannot be moved into itself")
    try:
        value = resolve(data, source)
    except (KeyError, IndexError, ValueError):
        raise ValueError(f"nothing at {source}") from None
    src_parts = split(source)
    src_list, src_index = join(src_parts[:-1]), int(src_parts[-1])
    ops: list[Op] = [Remove(source)]
    # removing shifts later items of the same list and of lists below later siblings
    target = _shift(target_list, src_list, src_index)
    if target == src_list and index > src_index:
        index -= 1
    try:
        existing = resolve(data, target_list)
    except (KeyError, IndexError, ValueError):
        existing = None
    if existing is None:
        parent = join(split(target)[:-1])
        ops.append(_set_list(parent, split(target)[-1], value))
    else:
        length = len(existing) - (1 if target == src_list else 0)
        ops.append(Insert(f"{target}/{max(0, min(index, length))}", value))
    return ops


def _set_list(parent: str, key: str, value: Any) -> Op:
    from .ops import Set
    return Set(f"{parent}/{key}", [value])


def _shift(pointer: str, removed_list: str, removed_index: int) -> str:
    """``pointer`` after removing item ``removed_index`` of ``removed_list`` (later siblings move up)."""
    prefix = removed_list + "/"
    if not pointer.startswith(prefix):
        return pointer
    rest = split(pointer[len(removed_list):])
    if rest and rest[0].isdigit() and int(rest[0]) > removed_index:
        rest[0] = str(int(rest[0]) - 1)
    return removed_list + join(rest)
