"""JSON pointers (RFC 6901) over plain JSON-like data (dicts, lists, scalars)."""
from __future__ import annotations

from typing import Any, Iterable


def escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def join(parts: Iterable[str | int]) -> str:
    """``join(["a", 0, "b/c"]) == "/a/0/b~1c"``; the empty sequence is the root pointer ``""``."""
    return "".join("/" + escape(p) for p in parts)


def split(pointer: str) -> list[str]:
    if not pointer:
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"JSON pointer must start with '/': {pointer!r}")
    return [unescape(t) for t in pointer[1:].split("/")]


def resolve(data: Any, pointer: str) -> Any:
    """The value at ``pointer``; raises KeyError/IndexError when it does not exist."""
    node = data
    for token in split(pointer):
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def parent(pointer: str) -> str:
    return pointer.rsplit("/", 1)[0] if pointer else ""
