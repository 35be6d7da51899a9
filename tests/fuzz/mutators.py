"""Hypothesis mutators: structural and textual changes of valid documents (YAML) and of Tiled maps and replays
(JSON).

A structural mutant is a list of :class:`Op` applied to the parsed sample (delete or rename a key, swap a value's
type, inject a huge integer / NaN / inf / a long string / deep nesting, duplicate a list item (duplicate ids),
make a reference dangle, change an enum-like string, quote a number). A textual mutant changes the bytes
(truncate, flip a byte, insert a tab / NUL / BOM / invalid UTF-8 / YAML syntax). Ops are plain data, so a failing
mutant can be shrunk by dropping ops (:func:`shrink_ops`).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable

from hypothesis import strategies as st

from corpus import render_json, render_yaml

HUGE = "__FZ_HUGEINT__"
DEEP = "__FZ_DEEP__"

SPECIAL_VALUES: list[Any] = [
    HUGE, DEEP, float("nan"), float("inf"), float("-inf"), -1, 0, 2 ** 63, 10 ** 18, 1e308, -0.0, 2.5, "", " ",
    None, True, False, [], {}, "0101", "5", "true", "x" * 5000, "no-such-id", "../../outside", [None], {"": None},
    ["a", "a"], "\u202e\u0000", "💥",
]
OPS = ("delete", "rename", "special", "swap", "quote", "dup", "dangle", "enum", "deep", "biglist", "perturb",
       "perturb")  # perturb twice: same-type changes keep documents valid more often, so they reach play


@dataclass(frozen=True)
class Op:
    kind: str
    path: tuple
    value: Any = None

    def describe(self) -> str:
        shown = repr(self.value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return f"{self.kind} /{'/'.join(map(str, self.path))}" + (f" = {shown}" if self.value is not None else "")


def paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value (mapping keys and list indexes), the root excluded."""
    out: list[tuple] = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        here = prefix + (key,)
        out.append(here)
        out.extend(paths(value, here))
    return out


def strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    items = data.values() if isinstance(data, dict) else data if isinstance(data, list) else ()
    return [s for v in items for s in strings(v)]


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def _swapped(value: Any) -> Any:
    """A value of another type than ``value``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return [value]
    if isinstance(value, str):
        return {value: value} if value else 0
    if isinstance(value, list):
        return {"item": value[0] if value else None}
    if isinstance(value, dict):
        return list(value.values())
    return "null"


def apply_op(data: Any, op: Op) -> Any:
    """``data`` with ``op`` applied (in place on a copy the caller owns); a path that no longer exists is skipped."""
    try:
        parent = _get(data, op.path[:-1])
        key = op.path[-1]
        old = parent[key]
    except (KeyError, IndexError, TypeError):
        return data
    if op.kind == "delete":
        del parent[key]
    elif op.kind == "rename" and isinstance(parent, dict):
        parent[op.value] = parent.pop(key)
    elif op.kind in ("special", "deep", "biglist", "swap", "enum", "dangle", "perturb"):
        parent[key] = copy.deepcopy(op.value)
    elif op.kind == "quote" and isinstance(old, (int, float)) and not isinstance(old, bool):
        parent[key] = repr(old) if isinstance(old, float) else str(old)
    elif op.kind == "dup" and isinstance(parent, list):
        parent.insert(key + 1, copy.deepcopy(old))
    return data


def apply_ops(data: Any, ops: list[Op]) -> Any:
    data = copy.deepcopy(data)
    for op in ops:
        data = apply_op(data, op)
    return data


@st.composite
def op_lists(draw, data: Any, focus: tuple = (), max_ops: int = 3) -> list[Op]:
    """1..max_ops ops on ``data``; with ``focus`` (a path prefix) most ops hit that subtree (e.g. tables)."""
    ops: list[Op] = []
    pool = strings(data) or ["x"]
    current = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, max_ops))):
        every = paths(current)
        if not every:
            break
        focused = [p for p in every if p[:len(focus)] == focus] if focus else []
        candidates = focused if focused and draw(st.integers(0, 3)) else every
        path = draw(st.sampled_from(candidates))
        kind = draw(st.sampled_from(OPS))
        old = _get(current, path)
        value: Any = None
        if kind == "rename":
            value = draw(st.sampled_from([f"{path[-1]}_x", str(path[-1]).upper(), "", "kind", "id", "tables"]))
        elif kind == "special":
            value = draw(st.sampled_from(SPECIAL_VALUES))
        elif kind == "swap":
            value = _swapped(old)
        elif kind == "enum":
            value = draw(st.sampled_from(pool))
        elif kind == "dangle":
            value = (old + "-missing") if isinstance(old, str) else "no-such-id"
        elif kind == "deep":
            value = DEEP if draw(st.booleans()) else _nested(draw(st.integers(2, 60)))
        elif kind == "perturb":
            value = _perturbed(draw, old)
        elif kind == "biglist":
            sizes = [2, 50, 2000] if not isinstance(old, (dict, list)) else [2, 20]
            value = [copy.deepcopy(old) for _ in range(draw(st.sampled_from(sizes)))]
        op = Op(kind, path, value)
        ops.append(op)
        current = apply_op(current, op)
    return ops


def _perturbed(draw, old: Any) -> Any:
    """A value of the same type: another number (0, +-1, doubled, negated, far out), another list length."""
    if isinstance(old, bool):
        return not old
    if isinstance(old, int):
        return draw(st.sampled_from([0, 1, -1, old + 1, old - 1, -old, old * 2, old * 10, 99, 10 ** 6]))
    if isinstance(old, float):
        return draw(st.sampled_from([0.0, -old, old * 2, old + 0.5, 1e-9, 1e9]))
    if isinstance(old, list) and old:
        return draw(st.sampled_from([old[:1], old[:-1], old + old[-1:], list(reversed(old))]))
    if isinstance(old, str):
        return draw(st.sampled_from([old.upper(), old + old, old[:1], ""]))
    return old


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


# ------------------------------------------------------------------ text

INSERTS: list[bytes] = [
    b"\t", b"\x00", b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\xed\xa0\x80", b": ", b"- ", b"{", b"[", b"]", b"&a ",
    b"*a", b"<<: *a\n", b"!!python/object/apply:os.getcwd [] ", b"? ", b"'", b'"', b"\n  ", b"\n\t", b"---\n",
    b"...\n", b"%YAML 1.1\n", b"!!binary ", b"#", b"|\n", b">-\n", b"\r", b"\\", b"9" * 4400, b".nan", b"-.inf",
    b"\x1b[31m", "\u2028".encode("utf-8"),
]
TEXT_OPS = ("truncate", "flip", "insert", "delete-line", "dup-line", "swap-lines", "bom", "crlf", "utf16")


@dataclass(frozen=True)
class TextOp:
    kind: str
    at: float = 0.0       # position as a fraction of the length (stable when shrinking)
    value: Any = None

    def describe(self) -> str:
        shown = repr(self.value)
        shown = shown if len(shown) <= 30 else shown[:27] + "..."
        return f"{self.kind} at {self.at:.3f}" + (f" {shown}" if self.value is not None else "")


def apply_text(raw: bytes, op: TextOp) -> bytes:
    pos = min(len(raw), int(op.at * len(raw)))
    lines = raw.split(b"\n")
    line = min(len(lines) - 1, int(op.at * len(lines))) if lines else 0
    if op.kind == "truncate":
        return raw[:pos]
    if op.kind == "flip" and raw:
        pos = min(pos, len(raw) - 1)
        return raw[:pos] + bytes([raw[pos] ^ (op.value or 1)]) + raw[pos + 1:]
    if op.kind == "insert":
        return raw[:pos] + op.value + raw[pos:]
    if op.kind == "delete-line" and len(lines) > 1:
        return b"\n".join(lines[:line] + lines[line + 1:])
    if op.kind == "dup-line":
        return b"\n".join(lines[:line + 1] + lines[line:])
    if op.kind == "swap-lines" and len(lines) > 2:
        other = (line + (op.value or 1)) % len(lines)
        lines[line], lines[other] = lines[other], lines[line]
        return b"\n".join(lines)
    if op.kind == "bom":
        return b"\xef\xbb\xbf" + raw
    if op.kind == "crlf":
        return raw.replace(b"\n", b"\r\n")
    if op.kind == "utf16":
        try:
            return raw.decode("utf-8").encode("utf-16")
        except UnicodeDecodeError:
            return raw
    return raw


def apply_texts(raw: bytes, ops: list[TextOp]) -> bytes:
    for op in ops:
        raw = apply_text(raw, op)
    return raw


@st.composite
def text_op_lists(draw, max_ops: int = 3) -> list[TextOp]:
    ops = []
    for _ in range(draw(st.integers(1, max_ops))):
        kind = draw(st.sampled_from(TEXT_OPS))
        at = draw(st.floats(0, 1, allow_nan=False))
        value: Any = None
        if kind == "flip":
            value = draw(st.integers(1, 255))
        elif kind == "insert":
            value = draw(st.sampled_from(INSERTS))
        elif kind == "swap-lines":
            value = draw(st.integers(1, 5))
        ops.append(TextOp(kind, at, value))
    return ops


# ------------------------------------------------------------------ mutants

@dataclass
class Mutant:
    """A mutated input: how to render it from its ops (for shrinking) and a one-line description."""

    render: Callable[[list], bytes]
    ops: list
    source: str

    @property
    def content(self) -> bytes:
        return self.render(self.ops)

    def describe(self, ops: list | None = None) -> str:
        return f"{self.source}: " + "; ".join(o.describe() for o in (self.ops if ops is None else ops))

    def shrink(self, still_fails: Callable[[list], bool]) -> list:
        return shrink_ops(self.ops, still_fails)


def yaml_renderer(data: Any, header: str) -> Callable[[list], bytes]:
    return lambda ops: render_yaml(apply_ops(data, ops), header)


def json_renderer(data: Any) -> Callable[[list], bytes]:
    return lambda ops: render_json(apply_ops(data, ops))


def text_renderer(raw: bytes) -> Callable[[list], bytes]:
    return lambda ops: apply_texts(raw, ops)


def shrink_ops(ops: list, still_fails: Callable[[list], bool]) -> list:
    """Drop ops one at a time while the failure persists (a greedy one-pass shrink)."""
    current = list(ops)
    i = 0
    while i < len(current) and len(current) > 1:
        trial = current[:i] + current[i + 1:]
        if still_fails(trial):
            current = trial
        else:
            i += 1
    return current

