"""Ids within one document: objects in the same list (slots, sides, tables ...) must not share an id."""
from __future__ import annotations

from typing import Any

from .pointers import join


def local_duplicates(data: Any) -> list[tuple[str, str]]:
    """``(pointer, message)`` for objects in the same list sharing an id (slots, sides, tables ...).

    A pure function of the raw data, so it runs in the parsing workers of large projects."""
    out: list[tuple[str, str]] = []
    containers = (dict, list)
    stack: list[tuple[Any, tuple]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        if type(node) is dict:
            stack.extend((v, path + (k,)) for k, v in node.items() if type(v) in containers)
        elif type(node) is list:
            if node and all(type(x) is dict and "id" in x for x in node):
                first: dict[str, int] = {}
                for i, item in enumerate(node):
                    key = item["id"]
                    if isinstance(key, str):
                        if key in first:
                            message = f"duplicate id '{key}' (first used at item {first[key]})"
                            out.append((join([*path, i, "id"]), message))
                        else:
                            first[key] = i
            stack.extend((v, path + (i,)) for i, v in enumerate(node) if type(v) in containers)
    return sorted(out)
