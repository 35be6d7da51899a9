"""Many unit cards at once as a table (the unit-database maintainer's main view), without Qt.

- ``CardTable(session, ruleset)``: one row per unit card of the rule system (project order: name), one column
  per scalar field of the card model (envelope fields, then the ruleset's body fields, objects flattened to
  ``/body/full/armor`` style pointers, lists left to the card editor). Columns of every category present are
  included; a field that a card's category does not have is not editable for it.
- ``text(row, column)`` is what a cell shows (``studio.document.values.show``); ``set_text(row, column, text)``
  parses it with the field's schema and applies one ``Set`` to that card's open document (opened through the
  session, so the edit is an ordinary unsaved, undoable edit there). A refused value raises ValueError with the
  reason and changes nothing. The card id is read-only here (renaming is "Rename id", which follows references).
- ``undo()`` / ``redo()`` step back and forth through the table's own edits, across cards, in order.
- ``matches(row, words)``: every word occurs in the row's text (the filter box); ``sort_key(row, column)``
  sorts numbers numerically and text case-insensitively, empty cells last.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .ops import DELETE, Set
from .schema import FieldSpec, node
from . import values

SCALARS = ("string", "integer", "number", "boolean", "enum")
ENVELOPE = ("id", "name", "short_name", "nation", "category", "years", "symbol", "placeholder")
MAX_DEPTH = 4


@dataclass(frozen=True)
class Column:
    pointer: str       # JSON pointer into a card, e.g. /body/full/armor
    title: str         # header text, e.g. full armor
    spec: FieldSpec
    required: bool = False
    read_only: bool = False


@dataclass
class _Edit:
    doc: Any


def _leaves(root: dict, spec: FieldSpec, pointer: str, depth: int, out: dict[str, Column]) -> None:
    for name, sub in spec.properties.items():
        child = node(root, sub)
        here = f"{pointer}/{name}"
        if child.kind in SCALARS:
            if here not in out:
                title = here.strip("/").replace("body/", "").replace("/", " ").replace("_", " ")
                out[here] = Column(here, title, child, name in spec.required, read_only=here == "/id")
        elif child.kind == "object" and depth < MAX_DEPTH:
            _leaves(root, child, here, depth + 1, out)


class CardTable:
    def __init__(self, session: Any, ruleset: str):
        self.session = session
        self.ruleset = ruleset
        self._done: list[_Edit] = []
        self._undone: list[_Edit] = []
        self.reload()

    # ---------------------------------------------------------------- shape
    def reload(self) -> None:
        """Re-read the cards and columns (after cards were added, removed or renamed)."""
        from studio.model.kinds import model_for
        docs = [d for d in self.session.current_index().documents
                if d.kind == "unit" and isinstance(d.data, dict) and d.data.get("ruleset") == self.ruleset]
        ordered = sorted(docs, key=lambda d: (str(d.data.get("name", "")).lower(), str(d.id)))
        self.paths: list[Path] = [d.path for d in ordered]
        self._keys = [Path(p).resolve() for p in self.paths]   # open_docs keys
        self._loaded = [d.data for d in ordered]
        columns: dict[str, Column] = {}
        self._category_columns: dict[str, set[str]] = {}
        for category in sorted({str(d.data.get("category") or "vehicle") for d in docs}):
            try:
                schema = model_for({"kind": "unit", "ruleset": self.ruleset,
                                    "category": category}).model_json_schema()
            except Exception:  # noqa: BLE001 - an unknown plugin: the envelope only
                from studio.model.documents import UnitCard
                schema = UnitCard.model_json_schema()
            root = node(schema, schema)
            envelope = FieldSpec("object", {}, properties={k: v for k, v in root.properties.items() if k in ENVELOPE},
                                 required=root.required)
            mine: dict[str, Column] = {}
            _leaves(schema, envelope, "", 0, mine)
            if "body" in root.properties:
                _leaves(schema, node(schema, root.properties["body"]), "/body", 1, mine)
            self._category_columns[category] = set(mine)
            for pointer, column in mine.items():
                columns.setdefault(pointer, column)
        self.columns: list[Column] = list(columns.values())

    @property
    def row_count(self) -> int:
        return len(self.paths)

    def data(self, row: int) -> dict:
        """The card's current data (an open document's unsaved content included)."""
        doc = self.session.open_docs.get(self._keys[row])
        data = doc.data if doc is not None else self._loaded[row]
        return data if isinstance(data, dict) else {}

    def applies(self, row: int, column: int) -> bool:
        """Whether the card's category has this field."""
        category = str(self.data(row).get("category") or "vehicle")
        return self.columns[column].pointer in self._category_columns.get(category, set())

    def value(self, row: int, column: int) -> Any:
        node_value: Any = self.data(row)
        for part in self.columns[column].pointer.strip("/").split("/"):
            if not isinstance(node_value, dict) or part not in node_value:
                return DELETE
            node_value = node_value[part]
        return node_value

    def text(self, row: int, column: int) -> str:
        value = self.value(row, column)
        return "" if value is DELETE else values.show(value)

    def find_row(self, card_id: str) -> int | None:
        return next((r for r in range(self.row_count) if self.data(r).get("id") == card_id), None)

    # ---------------------------------------------------------------- editing
    def set_text(self, row: int, column: int, text: str) -> bool:
        """Store ``text`` in the cell (one undo step); False when nothing changed; ValueError when refused."""
        col = self.columns[column]
        if col.read_only:
            raise ValueError(f"{col.title} is read-only here: use Rename id, which updates every reference")
        if not self.applies(row, column):
            raise ValueError(f"a {self.data(row).get('category')} card has no field {col.title}")
        value = values.parse(col.spec, text, col.required)
        current = self.value(row, column)
        if value == current and type(value) is type(current):
            return False
        doc = self.session.open_document(self.paths[row])
        ops = []
        parts = col.pointer.split("/")
        for i in range(2, len(parts)):
            parent = "/".join(parts[:i])
            if doc.get(parent) is None:
                if value is DELETE:
                    return False
                ops.append(Set(parent, {}))
        ops.append(Set(col.pointer, value))
        doc.apply(f"Edit {doc.id} {col.title}", ops)
        self._done.append(_Edit(doc))
        self._undone.clear()
        return True

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def undo(self) -> bool:
        if not self._done:
            return False
        edit = self._done.pop()
        if edit.doc.undo():
            self._undone.append(edit)
            return True
        return False

    def redo(self) -> bool:
        if not self._undone:
            return False
        edit = self._undone.pop()
        if edit.doc.redo():
            self._done.append(edit)
            return True
        return False

    # ---------------------------------------------------------------- filter and sort
    def row_text(self, row: int) -> str:
        data = self.data(row)
        symbol = data.get("symbol") if isinstance(data.get("symbol"), dict) else {}
        body = data.get("body") if isinstance(data.get("body"), dict) else {}
        extra = [symbol.get("branch"), symbol.get("affiliation"), body.get("unit_class"), body.get("side")]
        return " ".join([self.text(row, c) for c in range(len(self.columns))] +
                        [str(x) for x in extra if x]).lower()

    def matches(self, row: int, words: list[str]) -> bool:
        hay = self.row_text(row)
        return all(w.lower() in hay for w in words)

    def sort_key(self, row: int, column: int) -> tuple:
        value = self.value(row, column)
        if value is DELETE or value is None or value == "":
            return (2, 0.0, "")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return (0, float(value), "")
        return (1, 0.0, values.show(value).lower())
