"""Safe YAML reading with positions, canonical YAML writing and atomic file replacement.

Reading uses PyYAML's C loader (``CSafeLoader``): safe and fast. Positions are found lazily: only when a
finding must be mapped to a line is the text composed into nodes (``SourceMap``). Timestamps are not
resolved (dates stay strings, as JSON Schema expects), and shared YAML aliases are refused because a
handful of anchors can expand into billions of nodes.

Writing is canonical: two-space block style, key order as given (callers pass model order), short lists
of scalars in flow style, multi-line strings as literal blocks, and the ``$schema`` header line first.
"""
from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .pointers import escape, unescape
from .safeio import MAX_FILE_BYTES, write_atomic

MAX_NODES = 2_000_000
#: longest number literal read (a 64-bit integer has 20 digits; Python's int() stops at 4,300)
MAX_NUMBER_CHARS = 100
SCHEMA_HEADER = "# yaml-language-server: $schema="


#: plain scalar -> resolved tag (most keys and small values repeat across files)
_PLAIN_TAGS: dict[str, str] = {}


class StudioLoader(yaml.CSafeLoader):
    """CSafeLoader without the timestamp resolver (dates stay strings), with a lean tag resolver."""

    def resolve(self, kind, value, implicit):  # noqa: D401 - same contract as yaml.resolver.BaseResolver
        if kind is yaml.ScalarNode:
            if implicit[0]:
                tag = _PLAIN_TAGS.get(value)
                if tag is None:
                    tag = "tag:yaml.org,2002:str"
                    for candidate, regexp in self.yaml_implicit_resolvers.get(value[:1] if value else "", ()):
                        if regexp.match(value):
                            tag = candidate
                            break
                    if len(_PLAIN_TAGS) < 65536:
                        _PLAIN_TAGS[value] = tag
                return tag
            return "tag:yaml.org,2002:str"
        return "tag:yaml.org,2002:seq" if kind is yaml.SequenceNode else "tag:yaml.org,2002:map"

    def descend_resolver(self, current_node, current_index):  # no path resolvers: nothing to track
        pass

    def ascend_resolver(self):
        pass


StudioLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.CSafeLoader.yaml_implicit_resolvers.items()
}


class YamlProblem(Exception):
    """A file that cannot be read as data. ``code`` is the stable diagnostic code."""

    def __init__(self, code: str, message: str, line: int = 1, column: int = 1):
        super().__init__(message)
        self.code, self.message, self.line, self.column = code, message, line, column


def decode(raw: bytes) -> str:
    if len(raw) > MAX_FILE_BYTES:
        raise YamlProblem("file.too-large", f"file is {len(raw):,} bytes; the limit is {MAX_FILE_BYTES:,}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlProblem("syntax.encoding", f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded",
                          line, col) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise YamlProblem("syntax.encoding", "file contains a NUL byte (binary data?)", line, 1)
    return text


def parse(text: str, marks: "array | None" = None) -> Any:
    """Parse YAML text into plain data; raises YamlProblem with line and column on any failure.

    The C parser composes the node tree; :func:`_build` turns nodes into Python values (faster than PyYAML's
    constructor, and it refuses aliases, non-string keys, unknown tags and absurd sizes at their position).
    With ``marks`` (an ``array('Q')``), the 0-based ``line << 24 | column`` of every node and mapping key is
    appended to it in document order, for a :class:`SourceMap` without a second parse.
    """
    loader = StudioLoader(text)
    try:
        node = loader.get_single_node()
        return None if node is None else _Builder(marks).build(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = _within(text, *((mark.line + 1, mark.column + 1) if mark else (1, 1)))
        problem = exc.problem or str(exc)
        context = ""
        if exc.context:
            started = exc.context_mark
            where = f" started at line {started.line + 1}" if started and mark and started.line != mark.line else ""
            context = f" ({exc.context}{where})"
        raise YamlProblem("syntax.yaml", f"YAML syntax: {problem}{context}", line, col) from None
    except yaml.YAMLError as exc:
        raise YamlProblem("syntax.yaml", f"YAML syntax: {exc}") from None
    except RecursionError:
        raise YamlProblem("syntax.too-deep", "YAML nesting is too deep") from None
    finally:
        loader.dispose()


def _within(text: str, line: int, col: int) -> tuple[int, int]:
    """``(line, col)`` moved back onto the text: the parser reports end-of-stream one line past the last."""
    lines = text.split("\n")
    if lines and lines[-1] == "" and len(lines) > 1:
        lines.pop()  # the final newline ends the last line; it does not start a new one
    if line <= len(lines):
        return line, col
    return max(1, len(lines)), len(lines[-1]) + 1 if lines else 1


_STR, _INT, _FLOAT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
_BOOL, _NULL = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_SLOW = yaml.SafeLoader("")  # PyYAML's own scalar constructors for the rare forms (0x1F, 1_000, .inf ...)


def _problem(code: str, message: str, node: yaml.Node) -> YamlProblem:
    return YamlProblem(code, message, node.start_mark.line + 1, node.start_mark.column + 1)


class _Builder:
    """Composed YAML nodes -> plain Python data, node by node."""

    __slots__ = ("seen", "count", "mark")

    def __init__(self, marks: "array | None" = None):
        self.seen: set[int] = set()
        self.count = 0
        self.mark = None if marks is None else marks.append  # line << 24 | column of each node and key, in order

    def build(self, node: yaml.Node) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise _problem("file.too-large", f"more than {MAX_NODES:,} YAML nodes", node)
        if self.mark is not None:
            start = node.start_mark
            self.mark(start.line << 24 | start.column)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if id(node) in self.seen:
            raise _problem("syntax.alias", "YAML anchors and aliases (&, *) are not supported in studio files", node)
        self.seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                raise _problem("syntax.type", f"unsupported YAML tag {node.tag!r}", node)
            return [self.build(child) for child in node.value]
        if node.tag != _MAP:
            raise _problem("syntax.type", f"unsupported YAML tag {node.tag!r}", node)
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _STR:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise _problem("syntax.alias", "YAML merge keys (<<) are not supported in studio files", key_node)
                shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else "(collection)"
                raise _problem("syntax.key", f"mapping key {shown!r} is not a string; quote it", key_node)
            key = key_node.value
            if key in out:
                raise _problem("syntax.duplicate-key", f"key '{key}' appears twice in this mapping", key_node)
            if self.mark is not None:
                start = key_node.start_mark
                self.mark(start.line << 24 | start.column)
            out[key] = self.build(value_node)
        return out

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag, value = node.tag, node.value
        if tag == _STR:
            return value
        if tag == _INT:
            if len(value) > MAX_NUMBER_CHARS:  # int() refuses > 4,300 digits; nothing needs more than a few
                raise _problem("syntax.number", f"number of {len(value):,} characters is too long "
                                                f"(the limit is {MAX_NUMBER_CHARS})", node)
            if value.isdigit() and (value[0] != "0" or value == "0"):
                return int(value)
            return _SLOW.construct_yaml_int(node)
        if tag == _FLOAT:
            if len(value) > MAX_NUMBER_CHARS:
                raise _problem("syntax.number", f"number of {len(value):,} characters is too long "
                                                f"(the limit is {MAX_NUMBER_CHARS})", node)
            try:
                return float(value)
            except ValueError:
                return _SLOW.construct_yaml_float(node)
        if tag == _BOOL:
            return value.lower() in ("yes", "true", "on")
        if tag == _NULL:
            return None
        raise _problem("syntax.type", f"unsupported YAML tag {tag!r}", node)


@dataclass
class SourceMap:
    """Maps JSON pointers of a YAML text to 1-based (line, column), built on first use.

    From the ``marks`` the first parse recorded (with the ``data`` it built) when given: no second parse; else
    (or when the data no longer matches the marks) by composing the text again. The first few look-ups walk the
    data to the pointer, skipping what comes before it by the number of marks each container holds (counted once,
    in the walk that checks the marks fit the data), so a look-up costs the pointer's depth; past ``WALKS``
    look-ups a table of every position is built (``WALKS`` 0: always the table).
    """

    text: str
    marks: array | None = field(default=None, repr=False)
    data: Any = field(default=None, repr=False)
    _positions: dict[str, tuple[int, int]] | None = field(default=None, repr=False)
    _walks: int = field(default=0, repr=False)  # look-ups answered by a walk; -1: the marks do not fit the data
    _walked: dict = field(default_factory=dict, repr=False)  # pointer -> ``_walk`` result
    _sizes: dict | None = field(default=None, repr=False)  # id(container) -> marks it holds (``_container_sizes``)
    _starts: dict = field(default_factory=dict, repr=False)  # id(container) -> mark offset of each child

    #: look-ups answered by walking before the whole table is built (a walk costs the pointer's depth)
    WALKS = 1 << 20

    def position(self, pointer: str) -> tuple[int, int]:
        """Position of the node at ``pointer``, or of its nearest existing ancestor."""
        if self._walkable():
            return self._walk(pointer)[0]
        if self._positions is None:
            self._positions = {}
            if not (self.marks and self._from_marks()):
                self._positions = {}
                self._from_text()
        probe = pointer
        while True:
            if probe in self._positions:
                return self._positions[probe]
            if not probe:
                return (1, 1)
            probe = probe.rsplit("/", 1)[0]

    def key_position(self, pointer: str) -> tuple[int, int]:
        """Position of the mapping key of ``pointer`` (falls back to the value's position)."""
        if self._walkable():
            found, key = self._walk(pointer)
            return key or found
        self.position("")
        assert self._positions is not None
        return self._positions.get(pointer + "#key") or self.position(pointer)

    def _walkable(self) -> bool:
        """Whether this look-up is answered by a walk: the table is not built yet, fewer than ``WALKS`` walks
        were made, and the data has exactly one mark per node and mapping key (as the parse built it)."""
        if self._positions is not None or self._walks < 0:
            return False
        if self._walks == 0:
            self._sizes = _container_sizes(self.data, len(self.marks)) if self.marks else None
            if self._sizes is None:
                self._walks = -1
                return False
        self._walks += 1
        return self._walks <= self.WALKS

    def _walk(self, pointer: str) -> tuple[tuple[int, int], tuple[int, int] | None]:
        """(position of the node at ``pointer`` or of its nearest existing ancestor, position of its mapping key
        when the whole pointer exists in a mapping), remembered per pointer (a finding asks for both)."""
        found = self._walked.get(pointer)
        if found is None:
            found = self._walked[pointer] = self._walk_to(pointer)
        return found

    def _walk_to(self, pointer: str) -> tuple[tuple[int, int], tuple[int, int] | None]:
        """``_walk``: the index of a node's mark is the number of marks of the nodes and keys before it in
        document order."""
        node, at, key_at = self.data, 0, None
        if pointer.startswith("/"):
            for token in pointer[1:].split("/"):
                token = unescape(token)
                if isinstance(node, dict) and token in node:
                    key_at = at + self._offsets(node)[token]
                    at, node = key_at + 1, node[token]
                elif isinstance(node, list) and token.isascii() and token.isdigit() and str(int(token)) == token \
                        and int(token) < len(node):
                    key_at, at, node = None, at + self._offsets(node)[int(token)], node[int(token)]
                else:
                    key_at = None
                    break
        return _mark_position(self.marks[at]), (None if key_at is None else _mark_position(self.marks[key_at]))

    def _offsets(self, node: dict | list) -> dict | list:
        """The mark offset, from the container's own mark, of each child of ``node`` (of a mapping's keys; their
        values follow them), computed once per container."""
        found = self._starts.get(id(node))
        if found is None:
            sizes, at = self._sizes, 1
            if isinstance(node, dict):
                found = {}
                for key, child in node.items():
                    found[key] = at
                    at += 1 + (sizes[id(child)] if isinstance(child, (dict, list)) else 1)
            else:
                found = []
                for child in node:
                    found.append(at)
                    at += sizes[id(child)] if isinstance(child, (dict, list)) else 1
            self._starts[id(node)] = found
        return found

    def _from_text(self) -> None:
        try:
            root = yaml.compose(self.text, Loader=StudioLoader)
        except (yaml.YAMLError, RecursionError):
            root = None
        if root is not None:
            self._index(root, "")

    def _from_marks(self) -> bool:
        """Positions from the first parse's marks, walking the data in the order it was built (each node, and each
        mapping key before its value); False when the data does not match the marks."""
        marks, positions, at = self.marks, self._positions, 0
        stack: list[tuple[str, Any, str]] = [("node", self.data, "")]
        try:
            while stack:
                what, value, pointer = stack.pop()
                m = marks[at]
                at += 1
                if what == "key":
                    positions[pointer + "#key"] = ((m >> 24) + 1, (m & 0xFFFFFF) + 1)
                    continue
                positions[pointer] = ((m >> 24) + 1, (m & 0xFFFFFF) + 1)
                if isinstance(value, dict):
                    for key, child in reversed(value.items()):
                        child_pointer = f"{pointer}/{escape(key)}"
                        stack.append(("node", child, child_pointer))
                        stack.append(("key", None, child_pointer))
                elif isinstance(value, list):
                    stack.extend(("node", child, f"{pointer}/{i}") for i, child in reversed(list(enumerate(value))))
        except IndexError:
            return False
        return at == len(marks)

    def _index(self, node: yaml.Node, pointer: str) -> None:
        """Positions of every node of the composed tree; a node an alias repeats is indexed once, at its first
        pointer (an alias bomb or a self-referencing alias stays as small as its text)."""
        stack, seen = [(node, pointer)], set()
        while stack:
            node, pointer = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            self._positions[pointer] = (node.start_mark.line + 1, node.start_mark.column + 1)
            if isinstance(node, yaml.MappingNode):
                for key_node, value_node in node.value:
                    child = f"{pointer}/{escape(str(key_node.value))}"
                    self._positions[child + "#key"] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                    stack.append((value_node, child))
            elif isinstance(node, yaml.SequenceNode):
                for i, item in enumerate(node.value):
                    stack.append((item, f"{pointer}/{i}"))


class _TooMany(Exception):
    """More marks counted than recorded: the data is not what the parse built."""


def _container_sizes(value: Any, marks: int) -> dict[int, int] | None:
    """The marks the parse records (``_Builder``: one a node, one a mapping key) for each mapping and list of
    ``value``, by ``id``; None unless the whole holds exactly ``marks`` marks (counting stops past it: shared or
    self-containing data from YAML aliases would otherwise be walked without end)."""
    sizes: dict[int, int] = {}

    def sized(item: dict | list) -> int:
        n = 1 + len(item) if isinstance(item, dict) else 1
        for child in (item.values() if isinstance(item, dict) else item):
            n += sized(child) if isinstance(child, (dict, list)) else 1
        if n > marks:
            raise _TooMany
        sizes[id(item)] = n
        return n

    if not isinstance(value, (dict, list)):
        return {} if marks == 1 else None
    try:
        return sizes if sized(value) == marks else None
    except (_TooMany, RecursionError):
        return None


def _mark_position(mark: int) -> tuple[int, int]:
    return (mark >> 24) + 1, (mark & 0xFFFFFF) + 1


# ---------------------------------------------------------------- writing

class CanonicalDumper(yaml.SafeDumper):
    """Block style with flow-style short scalar lists; see module docstring."""

    def increase_indent(self, flow: bool = False, indentless: bool = False):  # noqa: D401
        return super().increase_indent(flow, False)


FLOW_LIST_WIDTH = 90
_SCALARS = (str, int, float, bool, type(None))


def _represent_list(dumper: yaml.Dumper, data: list) -> yaml.Node:
    flow = bool(data) and all(isinstance(x, _SCALARS) for x in data) and (
        sum(len(str(x)) + 2 for x in data) <= FLOW_LIST_WIDTH
    ) and not any(isinstance(x, str) and ("\n" in x or len(x) > 40) for x in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _represent_str(dumper: yaml.Dumper, data: str) -> yaml.Node:
    if "\n" in data and not re.search(r"[ \t]\n|\n[ \t]*\n[ \t]*$|^\s", data):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)


def _represent_dict(dumper: yaml.Dumper, data: dict) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=False if data else True)


CanonicalDumper.add_representer(list, _represent_list)
CanonicalDumper.add_representer(str, _represent_str)
CanonicalDumper.add_representer(dict, _represent_dict)


def dump(data: Any, schema_ref: str | None = None) -> str:
    """Canonical YAML text for ``data`` (keys in the order given), with an optional ``$schema`` header."""
    body = yaml.dump(data, Dumper=CanonicalDumper, sort_keys=False, allow_unicode=True, width=110,
                     default_flow_style=False, indent=2)
    header = f"{SCHEMA_HEADER}{schema_ref}\n" if schema_ref else ""
    return header + body


def schema_header(text: str) -> str | None:
    """The ``$schema`` reference of the file's first line, if present."""
    first = text.split("\n", 1)[0]
    return first[len(SCHEMA_HEADER):].strip() if first.startswith(SCHEMA_HEADER) else None


def atomic_write(path: Path, text: str | bytes, *, root: Path | None = None) -> Path:
    """Write ``text`` to ``path`` atomically through :func:`studio.model.safeio.write_atomic` (same policy)."""
    return write_atomic(path, text, root=root)
