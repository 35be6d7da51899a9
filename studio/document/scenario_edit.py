"""Scenario edits as pure functions (data in, ops out): placing forces from TO&Es on hexes, setup zones,
victory hexes, boards. Hexes are stored as printed labels; geometry comes from a ``geometry`` object
(``AssembledGeometry``) for neighbours and labels.
"""
from __future__ import annotations

from typing import Any, Callable

from studio.hexgrid import coords

from .ops import DELETE, Insert, Op, Remove, Set
from .toe import expand


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def unit_count(toe_data: Any, toe_lookup: Callable[[str], Any]) -> int:
    node = expand(toe_data, toe_lookup)
    return sum(node.totals().values()) if node else 0


def spread(geometry: Any, start: Any, n: int, taken: set | None = None,
           allowed: Callable[[Any], bool] | None = None, limit: int = 2000) -> list:
    """``n`` distinct on-map hexes nearest to ``start`` (breadth-first), skipping ``taken`` and hexes that are
    not ``allowed`` (e.g. terrain some unit cannot enter) when possible; the start hex, where the user dropped,
    is always used. ``limit`` bounds the search."""
    taken = taken or set()
    good, fallback, seen, frontier = [], [], {start}, [start]
    while frontier and len(good) < n and len(seen) < limit:
        nxt = []
        for h in frontier:
            if h not in taken:
                (good if h == start or allowed is None or allowed(h) else fallback).append(h)
                if len(good) == n:
                    break
            for nb in coords.neighbours(h):
                if nb not in seen and geometry.key_at(*geometry.centre(nb)) == nb:
                    seen.add(nb)
                    nxt.append(nb)
        frontier = nxt
    return (good + fallback)[:n]


#: spellings of the same nation in TO&Es and scenario sides (compared after lower-casing, without dots)
NATION_ALIASES = ({"us", "usa", "united states", "united states of america", "american"},
                  {"sov", "su", "ussr", "soviet", "soviet union"},
                  {"uk", "gb", "british", "united kingdom", "great britain"},
                  {"frg", "brd", "west germany", "german", "germany", "bundeswehr"},
                  {"gdr", "ddr", "east germany", "nva"})


def _nation_key(value: Any) -> str:
    text = " ".join(str(value or "").lower().replace(".", "").replace("-", " ").split())
    for group in NATION_ALIASES:
        if text in group:
            return min(group)
    return text


def side_for(data: dict, nation: Any, preferred: int = 0) -> int:
    """Index of the side whose nation is the TO&E's (case-insensitive, known spellings alike: 'SOV',
    'USSR' and 'Soviet Union' are one nation), else ``preferred``."""
    wanted = _nation_key(nation) if isinstance(nation, str) and nation.strip() else None
    if wanted is None:
        return preferred
    for i, side in enumerate(_list(data.get("sides"))):
        if isinstance(side, dict) and _nation_key(side.get("nation")) == wanted:
            return i
    return preferred


def new_force_ops(data: dict, side: int, toe_id: str, toe_data: Any, labels: list[str]) -> list[Op]:
    """A new force of TO&E ``toe_id`` in side ``side``, set up on ``labels``."""
    forces = _list(data["sides"][side].get("forces"))
    taken = {f.get("id") for s in _list(data.get("sides")) if isinstance(s, dict)
             for f in _list(s.get("forces")) if isinstance(f, dict)}
    n = 1
    while f"{toe_id}-{n}" in taken:
        n += 1
    name = toe_data.get("name") if isinstance(toe_data, dict) and isinstance(toe_data.get("name"), str) else toe_id
    force = {"id": f"{toe_id}-{n}", "toe": toe_id, "name": name, "designation": str(len(forces) + 1),
             "setup": {"hexes": list(labels)}}
    if isinstance(data["sides"][side].get("forces"), list):
        return [Insert(f"/sides/{side}/forces/-", force)]
    return [Set(f"/sides/{side}/forces", [force])]


def toggle_hexes(data: dict, pointer: str, labels: list[str], on: bool) -> list[Op]:
    """Add (``on``) or remove ``labels`` in the label list at ``pointer`` (created when missing)."""
    current: list = []
    node: Any = data
    try:
        for part in pointer.strip("/").split("/"):
            node = node[int(part)] if isinstance(node, list) else node[part]
        current = list(node) if isinstance(node, list) else []
        exists = True
    except (KeyError, IndexError, ValueError, TypeError):
        exists = False
    new = list(current)
    for label in labels:
        if on and label not in new:
            new.append(label)
        if not on and label in new:
            new.remove(label)
    if new == current:
        return []
    if not exists:
        parent, key = pointer.rsplit("/", 1)
        try:
            node = data
            for part in parent.strip("/").split("/"):
                node = node[int(part)] if isinstance(node, list) else node[part]
        except (KeyError, IndexError, ValueError, TypeError):
            return [Set(parent, {key: new})]
    return [Set(pointer, new)]


def add_board_ops(data: dict, map_id: str, columns_before: int) -> list[Op]:
    board = {"map": map_id, "at": [columns_before, 0]}
    return [Insert("/boards/-", board)] if isinstance(data.get("boards"), list) else [Set("/boards", [board])]


def rotate_board_ops(data: dict, index: int) -> list[Op]:
    board = _list(data.get("boards"))[index]
    return [Set(f"/boards/{index}/rotate", DELETE if board.get("rotate") == 180 else 180)]


def remove_board_ops(index: int) -> list[Op]:
    return [Remove(f"/boards/{index}")]


def toggle_entry_hex(data: dict, force_pointer: str, label: str) -> list[Op]:
    """Add or remove an entry hex of a force; a force without an entry gets one on turn 1 (a reinforcement)."""
    node: Any = data
    try:
        for part in force_pointer.strip("/").split("/"):
            node = node[int(part)] if isinstance(node, list) else node[part]
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    if not isinstance(node, dict):
        return []
    hexes = _list(node.get("entry", {}).get("hexes")) if isinstance(node.get("entry"), dict) else []
    return entry_hexes_ops(data, force_pointer, [label], label not in hexes)


def entry_hexes_ops(data: dict, force_pointer: str, labels: list[str], on: bool) -> list[Op]:
    """Add (``on``) or remove entry hexes of a force. A force given its first entry becomes a reinforcement
    arriving on turn 1: its set-up hexes and zone go (a force sets up or enters, not both)."""
    node: Any = data
    try:
        for part in force_pointer.strip("/").split("/"):
            node = node[int(part)] if isinstance(node, list) else node[part]
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    if not isinstance(node, dict):
        return []
    entry = node.get("entry")
    if not isinstance(entry, dict):
        if not on:
            return []
        ops: list[Op] = [Set(f"{force_pointer}/entry", {"turn": 1, "hexes": list(dict.fromkeys(labels))})]
        if "setup" in node:
            ops.append(Set(f"{force_pointer}/setup", DELETE))
        return ops
    return toggle_hexes(data, f"{force_pointer}/entry/hexes", labels, on)
