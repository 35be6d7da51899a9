"""A form generated from a JSON Schema, editing a document subtree through undoable ops.

Contracts:
- ``QtSchemaForm(doc, schema, pointer)`` shows the object at ``pointer`` of ``doc.data``: scalars as line edits,
  enums as drop-downs, booleans as check boxes, nested objects as group boxes, lists of objects as editable
  tables (``QtObjectTable``) whose selected row opens a sub-form below (so weapon -> ammunition nests), lists of
  scalars as check boxes (short enumerations) or comma-separated values (``QtListField``), free mappings (side
  id -> grade, hex -> stories, counter -> state; a mapping of mappings such as side -> force -> grade with the inner
  mapping edited below the selected row) as key/value tables (``QtMapTable``); only unions and untyped
  values stay YAML text. Enum cells of tables edit with drop-downs too. Units, ranges and defaults show as
  placeholders and tooltips.
- Each committed field change is one ``Set`` op (one undo step); bad text is refused with the reason shown on
  the field (red), the field is scrolled into view (``revealer``) and nothing changes. ``intercept[pointer]``
  takes a committed value instead (a typed id becomes a rename that follows references). ``refresh()`` re-reads every value (after undo/redo).
- ``mark(diagnostics)`` colours the fields whose pointer has a finding; ``focus(pointer)`` reveals a field.
- ``choices(pointer) -> list[str] | None`` (optional, given by the editor) lists the ids a reference field may
  hold (a victory condition's side, a substitution's unit ...): such fields and table cells edit with a
  drop-down, and a new row starts with the first choice.
- "Add row" works on an absent list (it creates the list) and gives a new row a fresh unique ``id`` when the
  item has one, so the new row is valid at once where its fields allow.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QFormLayout, QGroupBox, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QPlainTextEdit, QPushButton, QStyledItemDelegate,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from studio.document import values
from studio.document.document import EditableDocument
from studio.document.ops import DELETE, EditError, Insert, Remove, Set
from studio.document.schema import FieldSpec, node, skeleton
from studio.model.pointers import escape

ERROR_STYLE = "background: #ffd8d8"
SCALARS = ("string", "integer", "number", "boolean", "enum")


def nice(name: str, spec: FieldSpec) -> str:
    return spec.title or name.replace("_", " ").capitalize()


#: value kinds of a free mapping edited as a key/value table with a sub-form below the selected key
NESTED_VALUES = ("object", "array", "map")

class QtField(QWidget):
    """One scalar field bound to a pointer."""

    committed = Signal(str)

    def __init__(self, form: "QtSchemaForm", pointer: str, spec: FieldSpec, required: bool):
        super().__init__()
        self.form, self.pointer, self.spec, self.required = form, pointer, spec, required
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        tip = spec.description + (f"\n{values.hint(spec)}" if values.hint(spec) else "")
        choices = form.choices(pointer) if form.choices is not None and spec.kind == "string" else None
        if choices is not None:
            self.editor = QComboBox()
            if not required:
                self.editor.addItem("", DELETE)
            for choice in choices:
                self.editor.addItem(choice, choice)
            self.editor.activated.connect(lambda _: self.commit())
        elif spec.kind == "enum":
            self.editor = QComboBox()
            if spec.nullable or not required:  # unset: the default applies, and says so
                self.editor.addItem(f"(default: {values.show(spec.default)})" if spec.has_default and
                                    spec.default is not None else "", DELETE)
            for choice in spec.enum:
                self.editor.addItem(values.show(choice), choice)
            self.editor.activated.connect(lambda _: self.commit())
        elif spec.kind == "boolean":
            self.editor = QCheckBox()
            self.editor.clicked.connect(lambda _: self.commit())
        else:
            self.editor = QLineEdit()
            self.editor.setPlaceholderText(values.hint(spec))
            self.editor.editingFinished.connect(self.commit)
        self.editor.setToolTip(tip.strip())
        layout.addWidget(self.editor)
        self.problem = ""

    def value(self) -> Any:
        return self.form.doc.get(self.pointer, DELETE)

    def refresh(self) -> None:
        value = self.value()
        self.editor.blockSignals(True)
        if isinstance(self.editor, QComboBox):
            index = self.editor.findData(value) if value is not DELETE else self.editor.findData(DELETE)
            if index < 0 and value is not DELETE:
                self.editor.addItem(f"{values.show(value)} (invalid)", value)
                index = self.editor.count() - 1
            self.editor.setCurrentIndex(max(index, 0))
        elif isinstance(self.editor, QCheckBox):
            shown = value if isinstance(value, bool) else bool(self.spec.default)
            self.editor.setChecked(shown)
        else:
            self.editor.setText("" if value is DELETE else values.show(value))
        self.editor.blockSignals(False)
        self.set_problem("")

    def set_problem(self, message: str) -> None:
        self.problem = message
        self.editor.setStyleSheet(ERROR_STYLE if message else "")
        base = self.spec.description
        self.editor.setToolTip(f"{message}\n{base}".strip() if message else base)

    def text_value(self) -> Any:
        if isinstance(self.editor, QComboBox):
            return self.editor.currentData()
        if isinstance(self.editor, QCheckBox):
            return self.editor.isChecked()
        return values.parse(self.spec, self.editor.text(), self.required)

    def commit(self) -> bool:
        try:
            new = self.text_value()
        except ValueError as exc:
            self.set_problem(str(exc))
            self.form.status.emit(f"{self.pointer}: {exc}")
            self.form.reveal(self.editor)
            return False
        if new == self.value() and type(new) is type(self.value()):
            self.set_problem("")
            return False
        self.set_problem("")
        handler = self.form.intercept.get(self.pointer)
        if handler is not None:  # e.g. a typed id: a rename that follows references, not a plain edit
            self.refresh()
            return bool(handler(new))
        return self.form.set_value(self.pointer, new, f"Edit {self.pointer.rsplit('/', 1)[-1]}")

    def set_text(self, text: str) -> bool:
        """Type ``text`` into the field and commit it (keyboard users and tests)."""
        if isinstance(self.editor, QComboBox):
            index = self.editor.findText(text)
            self.editor.setCurrentIndex(index)
        elif isinstance(self.editor, QCheckBox):
            self.editor.setChecked(text.lower() in ("true", "1", "yes"))
        else:
            self.editor.setText(text)
        return self.commit()


class _PlainText(QPlainTextEdit):
    """A few lines of text that report when they lose the focus (as a line edit's editingFinished)."""

    finished = Signal()

    def focusOutEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().focusOutEvent(event)
        self.finished.emit()


class QtTextField(QtField):
    """A long text (a description, a special rule's text, notes): three lines that wrap, committed when the
    field loses the focus."""

    #: string fields written as prose
    NAMES = ("description", "text", "notes")

    def __init__(self, form: "QtSchemaForm", pointer: str, spec: FieldSpec, required: bool):
        super().__init__(form, pointer, spec, required)
        old = self.editor
        self.editor = _PlainText()
        self.editor.setFixedHeight(self.editor.fontMetrics().lineSpacing() * 3 + 12)
        self.editor.setToolTip(old.toolTip())
        self.editor.finished.connect(self.commit)
        self.layout().replaceWidget(old, self.editor)
        old.deleteLater()
        self.refresh()

    def refresh(self) -> None:
        value = self.value()
        self.editor.blockSignals(True)
        self.editor.setPlainText("" if value is DELETE else values.show(value))
        self.editor.blockSignals(False)
        self.set_problem("")

    def text_value(self) -> Any:
        return values.parse(self.spec, self.editor.toPlainText(), self.required)

    def set_text(self, text: str) -> bool:
        self.editor.setPlainText(text)
        return self.commit()


class QtListField(QtField):
    """A list of scalars: check boxes for a short enumeration (tactics, missions), else a line edit of
    comma-separated values (``2E9, 2F9``; ``[a, b]`` is read too). A list of points (pairs of numbers, e.g. a
    polygon in inches) reads ``x, y; x, y``. Each value is checked against the item schema; a bad one is refused
    on the field, naming it."""

    MAX_CHECKS = 16

    def __init__(self, form: "QtSchemaForm", pointer: str, spec: FieldSpec, required: bool):
        QWidget.__init__(self)
        self.form, self.pointer, self.spec, self.required = form, pointer, spec, required
        self.item = node(form.schema, spec.items or {})
        self.point = point_spec(form.schema, self.item)  # the coordinate spec of a list of points, else None
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.checks: dict[Any, QCheckBox] = {}
        self.problem = ""
        if self.item.kind == "enum" and 0 < len(self.item.enum) <= self.MAX_CHECKS:
            from PySide6.QtWidgets import QGridLayout
            self.editor = QWidget()
            grid = QGridLayout(self.editor)
            grid.setContentsMargins(0, 0, 0, 0)
            grid.setVerticalSpacing(0)
            per_row = 3 if len(self.item.enum) <= 6 else 2
            for i, choice in enumerate(self.item.enum):
                box = QCheckBox(values.show(choice).replace("_", " "))
                box.clicked.connect(lambda _=False: self.commit())
                grid.addWidget(box, i // per_row, i % per_row)
                self.checks[choice] = box
        else:
            self.editor = QLineEdit()
            self.editor.setPlaceholderText("points: x, y; x, y" if self.point is not None else
                                           "values separated by commas" + (
                f", each one of {', '.join(values.show(e) for e in self.item.enum[:6])}"
                + ("…" if len(self.item.enum) > 6 else "") if self.item.kind == "enum" else ""))
            self.editor.editingFinished.connect(self.commit)
        self.editor.setToolTip(spec.description)
        layout.addWidget(self.editor)

    def refresh(self) -> None:
        value = self.value()
        items = value if isinstance(value, list) else []
        if self.checks:
            for choice, box in self.checks.items():
                box.blockSignals(True)
                box.setChecked(choice in items)
                box.blockSignals(False)
        else:
            self.editor.blockSignals(True)
            self.editor.setText(self._show(items) if isinstance(value, list)
                                else ("" if value is DELETE else values.show(value)))
            self.editor.blockSignals(False)
        self.set_problem("")

    def set_problem(self, message: str) -> None:
        self.problem = message
        self.editor.setStyleSheet(ERROR_STYLE if message else "")
        self.editor.setToolTip(f"{message}\n{self.spec.description}".strip() if message else self.spec.description)

    def text_value(self) -> Any:
        if self.checks:
            chosen = [c for c, box in self.checks.items() if box.isChecked()]
            return chosen if chosen or self.required else DELETE
        text = self.editor.text().strip()
        if self.point is not None:
            return self._points(text)
        if text.startswith("["):
            parsed = values.parse(FieldSpec("any", {}), text, self.required)
            tokens = [values.show(v) for v in parsed] if isinstance(parsed, list) else None
            if tokens is None:
                raise ValueError("expected a list of values")
        else:
            tokens = [x.strip() for x in text.split(",") if x.strip()]
        if not tokens:
            return [] if self.required else DELETE
        out = []
        for token in tokens:
            try:
                out.append(values.parse(self.item, token, True))
            except ValueError as exc:
                raise ValueError(f"'{token}': {exc}") from None
        return out

    def _show(self, items: list) -> str:
        if self.point is not None:
            return "; ".join(", ".join(values.show(c) for c in p) if isinstance(p, list) else values.show(p)
                             for p in items)
        return ", ".join(values.show(v) for v in items)

    def _points(self, text: str) -> Any:
        """``x, y; x, y`` (or YAML ``[[x, y], ...]``) as a list of points, each coordinate checked."""
        if text.startswith("[["):
            parsed = values.parse(FieldSpec("any", {}), text, self.required)
            text = "; ".join(", ".join(map(str, p)) for p in parsed) if isinstance(parsed, list) and all(
                isinstance(p, list) for p in parsed) else "?"
        points = [p.strip() for p in text.split(";") if p.strip()]
        if not points:
            return [] if self.required else DELETE
        size = self.item.schema.get("minItems")
        out = []
        for point in points:
            coords = [c for c in re.split(r"[,\s]+", point) if c]
            if size and len(coords) != size:
                raise ValueError(f"'{point}': a point has {size} coordinates")
            try:
                out.append([values.parse(self.point, c, True) for c in coords])
            except ValueError as exc:
                raise ValueError(f"'{point}': {exc}") from None
        return out

    def set_text(self, text: str) -> bool:
        """Type ``text`` (comma-separated; for check boxes the chosen values) and commit it."""
        if self.checks:
            chosen = {x.strip() for x in text.strip("[]").split(",") if x.strip()}
            for choice, box in self.checks.items():
                box.setChecked(values.show(choice) in chosen)
        else:
            self.editor.setText(text)
        return self.commit()


class QtEnumDelegate(QStyledItemDelegate):
    """Table cells of an enumeration are edited with a drop-down of its choices (blank = unset)."""

    def __init__(self, choices, parent=None, blank: bool = True):
        super().__init__(parent)
        self.choices = choices  # a list, or a callable(row) -> list (reference choices follow the document)
        self.blank = blank

    def createEditor(self, parent, option, index):
        box = QComboBox(parent)
        choices = self.choices(index.row()) if callable(self.choices) else self.choices
        box.addItems(([""] if self.blank else []) + list(choices))
        current = str(index.data() or "")
        if current and box.findText(current) < 0:
            box.addItem(current)
        return box

    def setEditorData(self, editor, index):
        editor.setCurrentText(str(index.data() or ""))

    def setModelData(self, editor, model, index):
        model.setData(index, editor.currentText())


class QtObjectTable(QWidget):
    """A list of objects as a table: one row per item, one column per scalar leaf (up to two levels deep)."""

    def __init__(self, form: "QtSchemaForm", pointer: str, spec: FieldSpec, title: str):
        super().__init__()
        self.form, self.pointer, self.spec = form, pointer, spec
        self.item_spec = node(form.schema, spec.items or {})
        self.columns: list[tuple[str, FieldSpec, bool]] = []  # (relative path, spec, required)
        self.nested: list[tuple[str, FieldSpec]] = []         # complex children shown in the sub-form
        for name, sub in self.item_spec.properties.items():
            child = node(form.schema, sub)
            required = name in self.item_spec.required
            if child.kind in SCALARS:
                self.columns.append((escape(name), child, required))
            elif child.kind == "object" and all(node(form.schema, s).kind in SCALARS
                                                for s in child.properties.values()) and len(child.properties) <= 6:
                for leaf, leaf_schema in child.properties.items():
                    self.columns.append((f"{escape(name)}/{escape(leaf)}", node(form.schema, leaf_schema),
                                         leaf in child.required))
            else:
                self.nested.append((name, child))
        self.table = QTableWidget(0, len(self.columns))
        self.table.setHorizontalHeaderLabels([c[0] for c in self.columns])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.itemChanged.connect(self._cell_changed)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        for i, (path, col_spec, _) in enumerate(self.columns):
            header = self.table.horizontalHeaderItem(i)
            header.setToolTip(f"{col_spec.description}\n{values.hint(col_spec)}".strip())
            if col_spec.kind == "enum":
                self.table.setItemDelegateForColumn(i, QtEnumDelegate([values.show(e) for e in col_spec.enum],
                                                                      self.table))
            elif col_spec.kind == "string" and self.column_choices(path, 0) is not None:
                self.table.setItemDelegateForColumn(
                    i, QtEnumDelegate(lambda row, p=path: self.column_choices(p, row) or [], self.table,
                                      blank=not self.columns[i][2]))
        for keys, slot in ((QKeySequence.StandardKey.Copy, self.copy_rows),
                           (QKeySequence.StandardKey.Paste, self.paste_rows)):
            shortcut = QShortcut(QKeySequence(keys), self.table)
            shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(slot)
        self.detail_box = QVBoxLayout()
        self.detail: QtSchemaForm | None = None
        layout = _table_page(self, title, spec, ("Add row", self.add_row), ("Remove row", self.remove_row))
        layout.addWidget(self.table)
        layout.addLayout(self.detail_box)
        self._filling = False
        self.refresh()

    def items(self) -> list:
        value = self.form.doc.get(self.pointer)
        return value if isinstance(value, list) else []

    def refresh(self) -> None:
        items = self.items()
        self._filling = True
        selected = self.current_row()
        self.table.setRowCount(len(items))
        for r, item in enumerate(items):
            for c, (path, col_spec, _) in enumerate(self.columns):
                value = self.form.doc.get(f"{self.pointer}/{r}/{path}", DELETE)
                cell = QTableWidgetItem("" if value is DELETE else values.show(value))
                cell.setToolTip(f"{self.pointer}/{r}/{path}")
                if col_spec.kind == "enum":
                    cell.setToolTip(f"one of: {', '.join(values.show(e) for e in col_spec.enum)}")
                self.table.setItem(r, c, cell)
        self._fit_height()
        self._filling = False
        if selected is not None and selected < len(items):
            self.table.selectRow(selected)
        self._show_detail()

    def _fit_height(self) -> None:
        """Exactly the rows' height (no gap below them): room for a horizontal scroll bar only when needed."""
        rows = self.table.rowCount()
        wide = (self.table.horizontalHeader().length() + self.table.verticalHeader().width() + 4
                > max(1, self.table.width()))
        bar = self.table.horizontalScrollBar().sizeHint().height() if wide else 0
        self.table.setFixedHeight(self.table.horizontalHeader().sizeHint().height() + 4 + bar +
                                  sum(self.table.rowHeight(r) for r in range(rows)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def current_row(self) -> int | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return rows[0].row() if rows else None

    def _selection_changed(self) -> None:
        if not self._filling:
            self._show_detail()

    def _show_detail(self) -> None:
        row = self.current_row()
        pointer = f"{self.pointer}/{row}" if row is not None else None
        if self.detail is not None and self.detail.pointer == pointer:
            self.detail.refresh()
            return
        if self.detail is not None:
            self.detail.setParent(None)
            self.detail.deleteLater()
            self.detail = None
        if pointer is None or not self.nested:
            return
        sub_schema = {"type": "object", "properties": {name: spec.schema for name, spec in self.nested}}
        self.detail = QtSchemaForm(self.form.doc, self.form.schema, pointer, node_spec=node(self.form.schema,
                                                                                             sub_schema),
                                   status=self.form.status, choices=self.form.choices)
        self.detail_box.addWidget(self.detail)

    def _cell_changed(self, cell: QTableWidgetItem) -> None:
        if self._filling:
            return
        path, col_spec, required = self.columns[cell.column()]
        pointer = f"{self.pointer}/{cell.row()}/{path}"
        if not cell.text().strip() and self.form.doc.get(pointer, DELETE) is DELETE:
            return
        try:
            value = values.parse(col_spec, cell.text(), required)
        except ValueError as exc:
            cell.setBackground(Qt.GlobalColor.red)
            cell.setToolTip(str(exc))
            self.form.status.emit(f"{pointer}: {exc}")
            return
        if value == self.form.doc.get(pointer, DELETE):
            return
        self.form.set_value(pointer, value, f"Edit {path}")

    def set_cell(self, row: int, column: str, text: str) -> None:
        """Type into a cell (tests and keyboard users)."""
        c = [p for p, _, _ in self.columns].index(column)
        self.table.item(row, c).setText(text)

    def column_choices(self, path: str, row: int) -> list[str] | None:
        """The reference choices of column ``path`` in ``row`` (None: free text)."""
        if self.form.choices is None:
            return None
        return self.form.choices(f"{self.pointer}/{row}/{path}")

    def new_row(self) -> object:
        """The row "Add row" inserts: the schema's skeleton, a fresh unique id, the first choice of references."""
        row = skeleton(self.form.schema, self.spec.items or {})
        if not isinstance(row, dict):
            return row
        index = len(self.items())
        if "id" in self.item_spec.properties and not row.get("id"):
            row["id"] = fresh_id(self.pointer.rsplit("/", 1)[-1], [i.get("id") for i in self.items()
                                                                   if isinstance(i, dict)])
        for path, col_spec, required in self.columns:
            if "/" in path or not required or row.get(path):
                continue
            choices = self.column_choices(path, index)
            if choices:
                row[path] = choices[0]
        return row

    def add_row(self) -> bool:
        """Append a new row (creating the list, and missing parents, when absent); one undo step."""
        row = self.new_row()
        index = len(self.items())
        with self.form.doc.gesture("Add row"):
            if isinstance(self.form.doc.get(self.pointer), list):
                ok = self.form.apply("Add row", [Insert(f"{self.pointer}/-", row)])
            else:
                ok = self.form.set_value(self.pointer, [row], "Add row")
            if ok:
                self._settle_choices(index)
        return ok

    def _settle_choices(self, row: int) -> None:
        """Once the new row is in place, a reference whose choices follow an earlier field of the row (a
        substitution's unit follows its slot) takes its first choice if the one it got is not among them."""
        for path, _, required in self.columns:
            if "/" in path or not required:
                continue
            pointer = f"{self.pointer}/{row}/{path}"
            choices = self.column_choices(path, row)
            if choices and self.form.doc.get(pointer) not in choices:
                self.form.set_value(pointer, choices[0], "Add row")

    def selected_rows(self) -> list[int]:
        model = self.table.selectionModel()
        return sorted({i.row() for i in model.selectedIndexes()}) if model is not None else []

    def copy_rows(self) -> int:
        """Ctrl+C: the selected rows as YAML on the clipboard (for this table or a spreadsheet); returns how many."""
        from PySide6.QtWidgets import QApplication
        from studio.model import yamlio
        items = self.items()
        rows = [items[r] for r in self.selected_rows() if r < len(items)]
        if rows:
            QApplication.clipboard().setText(yamlio.dump(rows))
        return len(rows)

    def paste_rows(self) -> int:
        """Ctrl+V: rows from the clipboard (YAML, as copied) appended as one step, each with a fresh id when
        its id is taken; returns how many (0 when the clipboard holds no rows)."""
        from PySide6.QtWidgets import QApplication
        from studio.model import yamlio
        try:
            rows = yamlio.parse(QApplication.clipboard().text())
        except yamlio.YamlProblem:
            rows = None
        rows = [rows] if isinstance(rows, dict) else rows
        if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
            self.form.status.emit("Paste: the clipboard holds no rows")
            return 0
        taken = [i.get("id") for i in self.items() if isinstance(i, dict)]
        fresh = []
        for row in rows:
            row = dict(row)
            if "id" in self.item_spec.properties and (not row.get("id") or row.get("id") in taken):
                row["id"] = fresh_id(str(row.get("id") or self.pointer.rsplit("/", 1)[-1]).rstrip("-0123456789")
                                     or "row", taken)
            taken.append(row.get("id"))
            fresh.append(row)
        existing = self.items() if isinstance(self.form.doc.get(self.pointer), list) else None
        if existing is None:
            ok = self.form.set_value(self.pointer, fresh, "Paste rows")
        else:
            ok = self.form.apply("Paste rows", [Insert(f"{self.pointer}/-", row) for row in fresh])
        return len(fresh) if ok else 0

    def remove_row(self) -> None:
        """Remove the selected rows (all of a multi-selection, one step), or the last row when none is."""
        rows = self.selected_rows() or ([len(self.items()) - 1] if self.items() else [])
        rows = [r for r in rows if 0 <= r < len(self.items())]
        if rows:
            self.form.apply("Remove row" if len(rows) == 1 else f"Remove {len(rows)} rows",
                            [Remove(f"{self.pointer}/{r}") for r in sorted(rows, reverse=True)])

    def mark(self, problems: dict[str, str]) -> None:
        self._filling = True
        try:
            self._mark_cells(problems)
        finally:
            self._filling = False
        if self.detail is not None:
            self.detail.mark(problems)

    def _mark_cells(self, problems: dict[str, str]) -> None:
        for r in range(self.table.rowCount()):
            for c, (path, _, _) in enumerate(self.columns):
                cell = self.table.item(r, c)
                message = problems.get(f"{self.pointer}/{r}/{path}")
                if cell is not None:
                    cell.setBackground(Qt.GlobalColor.transparent if not message else Qt.GlobalColor.red)
                    if message:
                        cell.setToolTip(message)


class QtMapTable(QWidget):
    """A free mapping (side id -> Force Grade, hex -> stories, counter -> set-up state ...) as a table: the key
    column, then the value (one column for a scalar, one per scalar leaf of an object); a value holding lists or
    nested objects is edited in a sub-form below when its row is selected. Keys offer the editor's choices
    (``choices(pointer + '/*')``, e.g. the scenario's sides). Add, remove and re-key are one undo step each."""

    def __init__(self, form: "QtSchemaForm", pointer: str, spec: FieldSpec, title: str):
        super().__init__()
        self.form, self.pointer, self.spec = form, pointer, spec
        self.value_spec = node(form.schema, spec.items or {})
        self.columns: list[tuple[str, FieldSpec]] = []  # (path inside the value, '' = the value itself)
        if self.value_spec.kind in SCALARS or scalar_union(form.schema, self.value_spec):
            self.columns.append(("", self.value_spec))
        elif self.value_spec.kind == "object":
            for name, sub in self.value_spec.properties.items():
                child = node(form.schema, sub)
                if child.kind in SCALARS:
                    self.columns.append((escape(name), child))
        self.nested = self.value_spec.kind not in SCALARS and not scalar_union(form.schema, self.value_spec) and (
            self.value_spec.kind != "object" or len(self.columns) < len(self.value_spec.properties))
        self.summary = not self.columns  # a list value: a read-only "n items" column, edited below
        self.table = QTableWidget(0, 1 + len(self.columns) + int(self.summary))
        self.table.setHorizontalHeaderLabels(["key"] + [p or "value" for p, _ in self.columns]
                                             + (["value (select to edit)"] if self.summary else []))
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.horizontalHeaderItem(0).setToolTip(spec.description)
        self.table.itemChanged.connect(self._cell_changed)
        self.table.itemSelectionChanged.connect(lambda: None if self._filling else self._show_detail())
        if self.key_choices() is not None:
            self.table.setItemDelegateForColumn(0, QtEnumDelegate(lambda row: self.key_choices() or [], self.table,
                                                                  blank=False))
        for i, (path, col_spec) in enumerate(self.columns, 1):
            self.table.horizontalHeaderItem(i).setToolTip(f"{col_spec.description}\n{values.hint(col_spec)}".strip())
            if col_spec.kind == "enum":
                self.table.setItemDelegateForColumn(i, QtEnumDelegate([values.show(e) for e in col_spec.enum],
                                                                      self.table))
        self.detail_box = QVBoxLayout()
        self.detail: QtSchemaForm | None = None
        self._detail_for: str | None = None
        layout = _table_page(self, title, spec, ("Add entry", self.add_entry), ("Remove entry", self.remove_entry))
        if spec.description:
            hint = QLabel(spec.description)
            hint.setStyleSheet("color: #666")
            hint.setWordWrap(True)
            layout.addWidget(hint)
        layout.addWidget(self.table)
        layout.addLayout(self.detail_box)
        self._filling = False
        self.refresh()

    def mapping(self) -> dict:
        value = self.form.doc.get(self.pointer)
        return value if isinstance(value, dict) else {}

    def keys(self) -> list[str]:
        return [str(k) for k in self.mapping()]

    def key_choices(self) -> list[str] | None:
        return self.form.choices(f"{self.pointer}/*") if self.form.choices is not None else None

    def refresh(self) -> None:
        self._filling = True
        selected = self.current_key()
        mapping = self.mapping()
        self.table.setRowCount(len(mapping))
        for r, (key, value) in enumerate(mapping.items()):
            self.table.setItem(r, 0, QTableWidgetItem(str(key)))
            for c, (path, _) in enumerate(self.columns, 1):
                inner = value if not path else (value.get(path.replace("~1", "/").replace("~0", "~"), DELETE)
                                                if isinstance(value, dict) else DELETE)
                self.table.setItem(r, c, QTableWidgetItem("" if inner is DELETE else values.show(inner)))
            if self.summary:
                cell = QTableWidgetItem(_summary(value))
                cell.setFlags(cell.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(r, 1, cell)
        rows = self.table.rowCount()
        self.table.setFixedHeight(self.table.horizontalHeader().sizeHint().height() + 6 +
                                  sum(self.table.rowHeight(r) for r in range(rows)))
        self._filling = False
        if selected in mapping:
            self.table.selectRow(list(mapping).index(selected))
        self._show_detail()

    def current_key(self) -> str | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        keys = self.keys()
        return keys[rows[0].row()] if rows and rows[0].row() < len(keys) else None

    def _show_detail(self) -> None:
        key = self.current_key() if self.nested else None
        pointer = f"{self.pointer}/{escape(key)}" if key is not None else None
        if self.detail is not None and self._detail_for == pointer:
            self.detail.refresh()
            return
        if self.detail is not None:
            self.detail.setParent(None)
            self.detail.deleteLater()
            self.detail = None
        if pointer is None:
            return
        if self.value_spec.kind == "object":
            scalars = {p for p, _ in self.columns}
            spec = FieldSpec("object", {}, properties={n: s for n, s in self.value_spec.properties.items()
                                                       if escape(n) not in scalars},
                             required=self.value_spec.required)
            self.detail = QtSchemaForm(self.form.doc, self.form.schema, pointer, node_spec=spec,
                                       status=self.form.status, choices=self.form.choices)
        else:  # a list (or other complex value) under the key: a one-field form for it
            spec = FieldSpec("object", {}, properties={key: self.spec.items or {}}, required=[key])
            self.detail = QtSchemaForm(self.form.doc, self.form.schema, self.pointer, node_spec=spec,
                                       status=self.form.status, choices=self.form.choices)
        self._detail_for = pointer
        self.detail_box.addWidget(self.detail)

    def _cell_changed(self, cell: QTableWidgetItem) -> None:
        if self._filling:
            return
        keys = self.keys()
        if cell.row() >= len(keys):
            return
        key = keys[cell.row()]
        if cell.column() == 0:
            self.rename_key(key, cell.text().strip())
            return
        if cell.column() > len(self.columns):
            return
        path, col_spec = self.columns[cell.column() - 1]
        pointer = f"{self.pointer}/{escape(key)}" + (f"/{path}" if path else "")
        try:
            value = values.parse(col_spec, cell.text(), not path)
        except ValueError as exc:
            cell.setBackground(Qt.GlobalColor.red)
            cell.setToolTip(str(exc))
            self.form.status.emit(f"{pointer}: {exc}")
            return
        if value != self.form.doc.get(pointer, DELETE):
            self.form.set_value(pointer, value, f"Edit {key}")

    def rename_key(self, old: str, new: str) -> bool:
        """Give entry ``old`` the key ``new`` (refused when empty or taken); one undo step."""
        if new == old:
            return False
        problem = "empty" if not new else "taken" if new in self.mapping() else (
            f"not a valid key (keys match {self.spec.key_pattern})"
            if self.spec.key_pattern and not re.search(self.spec.key_pattern, new) else "")
        if problem:
            self.form.status.emit(f"{self.pointer}: key '{new}' is {problem}")
            self.refresh()
            return False
        renamed = {(new if k == old else k): v for k, v in self.mapping().items()}
        return self.form.set_value(self.pointer, renamed, f"Rename {old}")

    def set_cell(self, key: str, column: str, text: str) -> None:
        """Type into the cell of entry ``key`` ('key' renames it; 'value' or a leaf name edits it)."""
        row = self.keys().index(key)
        c = 0 if column == "key" else 1 + [p or "value" for p, _ in self.columns].index(column)
        self.table.item(row, c).setText(text)

    def new_key(self) -> str:
        taken = set(self.mapping())
        for choice in self.key_choices() or []:
            if choice not in taken:
                return choice
        return fresh_id(self.pointer.rsplit("/", 1)[-1], list(taken))

    def add_entry(self) -> bool:
        """A new entry: the first unused key choice (else a fresh one) with the value's skeleton."""
        key = self.new_key()
        value = skeleton(self.form.schema, self.spec.items or {})
        ok = self.form.set_value(f"{self.pointer}/{escape(key)}", value, "Add entry") \
            if isinstance(self.form.doc.get(self.pointer), dict) else self.form.set_value(self.pointer, {key: value},
                                                                                          "Add entry")
        if ok:
            self.table.selectRow(self.keys().index(key))
        return ok

    def remove_entry(self) -> bool:
        key = self.current_key() or (self.keys()[-1] if self.keys() else None)
        if key is None:
            return False
        return self.form.set_value(f"{self.pointer}/{escape(key)}", DELETE, f"Remove {key}")

    def mark(self, problems: dict[str, str]) -> None:
        self._filling = True
        try:
            for r, key in enumerate(self.keys()):
                for c, (path, _) in enumerate(self.columns, 1):
                    pointer = f"{self.pointer}/{escape(key)}" + (f"/{path}" if path else "")
                    cell = self.table.item(r, c)
                    if cell is not None:
                        message = problems.get(pointer)
                        cell.setBackground(Qt.GlobalColor.red if message else Qt.GlobalColor.transparent)
                        if message:
                            cell.setToolTip(message)
        finally:
            self._filling = False
        if self.detail is not None:
            self.detail.mark(problems)


class QtSchemaForm(QWidget):
    status = Signal(str)

    def __init__(self, doc: EditableDocument, schema: dict, pointer: str = "", skip: tuple[str, ...] = (),
                 node_spec: FieldSpec | None = None, status: Any = None, parent=None,
                 choices: Callable[[str], list[str] | None] | None = None,
                 intercept: dict[str, Callable[[Any], bool]] | None = None):
        super().__init__(parent)
        self.doc, self.schema, self.pointer = doc, schema, pointer
        self.choices = choices
        self.intercept = dict(intercept or {})  # pointer -> handler of a committed value instead of a Set
        self.revealer: Callable[[QWidget], None] | None = None
        self.fields: dict[str, QtField] = {}
        self.tables: dict[str, QtObjectTable] = {}
        self.maps: dict[str, QtMapTable] = {}
        self.groups: list[tuple[str, QGroupBox, FieldSpec]] = []
        self.texts: dict[str, QtField] = {}
        if status is not None:
            self.status.connect(status.emit if hasattr(status, "emit") else status)
        spec = node_spec or node(schema, _at(schema, pointer))
        layout = QFormLayout(self)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        layout.setContentsMargins(4, 4, 4, 4)
        self._build(spec, pointer, layout, skip, depth=0)
        self.refresh()

    # ---------------------------------------------------------------- building
    def _build(self, spec: FieldSpec, pointer: str, layout: QFormLayout, skip, depth: int) -> None:
        for name, sub in spec.properties.items():
            if name in skip:
                continue
            child = node(self.schema, sub)
            child_pointer = f"{pointer}/{escape(name)}"
            required = name in spec.required
            label = nice(name, child) if child.kind in SCALARS else name.replace("_", " ").capitalize()
            if child.kind in SCALARS or depth > 6:
                prose = child.kind == "string" and name in QtTextField.NAMES and not (
                    self.choices is not None and self.choices(child_pointer) is not None)
                field = (QtTextField if prose else QtField)(self, child_pointer, child, required)
                self.fields[child_pointer] = field
                text = QLabel(label + ("" if required else ""))
                text.setToolTip(child.description)
                layout.addRow(text, field)
            elif child.kind == "object":
                box = QGroupBox(label)
                box.setToolTip(child.description)
                if child.nullable or not required:
                    box.setCheckable(True)
                    box.toggled.connect(lambda on, p=child_pointer, s=child: self._toggle_group(p, s, on))
                inner = QFormLayout(box)
                inner.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
                self._build(child, child_pointer, inner, (), depth + 1)
                self.groups.append((child_pointer, box, child))
                layout.addRow(box)
            elif child.kind == "array" and node(self.schema, child.items or {}).kind == "object":
                table = QtObjectTable(self, child_pointer, child, name.replace("_", " ").capitalize())
                self.tables[child_pointer] = table
                layout.addRow(table)
            elif child.kind == "array" and (node(self.schema, child.items or {}).kind in SCALARS
                                            or point_spec(self.schema, node(self.schema, child.items or {}))):
                field = QtListField(self, child_pointer, child, required)
                self.fields[child_pointer] = field
                text = QLabel(label)
                text.setToolTip(child.description)
                if field.checks:  # a block of check boxes takes the full width, under its name
                    layout.addRow(text)
                    layout.addRow(field)
                else:
                    layout.addRow(text, field)
            elif child.kind == "map" and (node(self.schema, child.items or {}).kind in SCALARS + NESTED_VALUES
                                          or scalar_union(self.schema, node(self.schema, child.items or {}))):
                table = QtMapTable(self, child_pointer, child, name.replace("_", " ").capitalize())
                self.maps[child_pointer] = table
                layout.addRow(table)
            else:
                text_spec = FieldSpec("any", child.schema, child.nullable, child.title, child.description
                                      + " (YAML, e.g. [a, b])")
                field = QtField(self, child_pointer, text_spec, required)
                self.fields[child_pointer] = field
                layout.addRow(QLabel(label), field)

    def _toggle_group(self, pointer: str, spec: FieldSpec, on: bool) -> None:
        present = self.doc.get(pointer) is not None
        if on and not present:
            fresh = {name: skeleton(self.schema, spec.properties[name]) for name in spec.required
                     if name in spec.properties}
            self.set_value(pointer, fresh, f"Add {pointer.rsplit('/', 1)[-1]}")
        elif not on and present:
            self.set_value(pointer, DELETE, f"Remove {pointer.rsplit('/', 1)[-1]}")

    def reveal(self, widget: QWidget) -> None:
        """Scroll ``widget`` (a refused field) into view: the enclosing form's revealer, e.g. a scroll area's."""
        form: Any = self
        while form is not None:
            if getattr(form, "revealer", None) is not None:
                form.revealer(widget)
                return
            form = form.parentWidget()

    # ---------------------------------------------------------------- editing
    def apply(self, label: str, ops) -> bool:
        try:
            self.doc.apply(label, ops)
            return True
        except EditError as exc:
            self.status.emit(f"Edit refused: {exc}")
            return False

    def set_value(self, pointer: str, value: Any, label: str) -> bool:
        """Set ``pointer`` (creating missing parent objects in the same step)."""
        ops = []
        parts = pointer.split("/")
        for i in range(2, len(parts)):
            parent = "/".join(parts[:i])
            if self.doc.get(parent) is None:
                if value is DELETE:
                    return False
                ops.append(Set(parent, {}))
        ops.append(Set(pointer, value))
        return self.apply(label, ops)

    # ---------------------------------------------------------------- view
    def refresh(self) -> None:
        for field in self.fields.values():
            field.refresh()
        for pointer, box, spec in self.groups:
            if box.isCheckable():
                box.blockSignals(True)
                box.setChecked(self.doc.get(pointer) is not None)
                box.blockSignals(False)
        for table in list(self.tables.values()) + list(self.maps.values()):
            table.refresh()

    def mark(self, problems: dict[str, str]) -> None:
        """``problems``: pointer -> message. Fields with a finding turn red with the message as tooltip."""
        for pointer, field in self.fields.items():
            message = problems.get(pointer, "")
            if message or not field.problem:
                field.set_problem(message)
        for table in list(self.tables.values()) + list(self.maps.values()):
            table.mark(problems)

    def field(self, pointer: str) -> QtField | None:
        if pointer in self.fields:
            return self.fields[pointer]
        for table in list(self.tables.values()) + list(self.maps.values()):
            if table.detail is not None:
                found = table.detail.field(pointer)
                if found is not None:
                    return found
        return None

    def focus(self, pointer: str) -> QWidget | None:
        """Reveal the field for ``pointer`` (a table row is selected first); returns the widget focused."""
        field = self.fields.get(pointer)
        if field is not None:
            field.editor.setFocus()
            return field.editor
        for table_pointer, table in self.tables.items():
            if pointer.startswith(table_pointer + "/"):
                rest = pointer[len(table_pointer) + 1:].split("/")
                if rest[0].isdigit() and int(rest[0]) < table.table.rowCount():
                    table.table.selectRow(int(rest[0]))
                    table._show_detail()
                    if table.detail is not None:
                        found = table.detail.focus(pointer)
                        if found is not None:
                            return found
                    table.table.setFocus()
                    return table.table
        for map_pointer, mapping in self.maps.items():
            if pointer.startswith(map_pointer + "/"):
                key = pointer[len(map_pointer) + 1:].split("/")[0].replace("~1", "/").replace("~0", "~")
                if key in mapping.keys():
                    mapping.table.selectRow(mapping.keys().index(key))
                    mapping._show_detail()
                    found = mapping.detail.focus(pointer) if mapping.detail is not None else None
                    if found is not None:
                        return found
                mapping.table.setFocus()
                return mapping.table
        for group_pointer, box, _ in self.groups:
            if pointer.startswith(group_pointer):
                box.setFocus()
                return box
        return None


def _at(schema: dict, pointer: str) -> Any:
    """Schema of the value at a data pointer (object properties and array items followed)."""
    sub: Any = schema
    for part in [p for p in pointer.split("/") if p]:
        spec = node(schema, sub)
        if spec.kind == "object":
            sub = spec.properties.get(part, {})
        elif spec.kind == "array":
            sub = spec.items or {}
        else:
            return {}
    return sub


def point_spec(schema: dict, item: FieldSpec) -> FieldSpec | None:
    """The coordinate spec when ``item`` (a list's item) is a point: a short fixed-length list of numbers."""
    if item.kind != "array":
        return None
    inner = node(schema, item.items or {})
    size = item.schema.get("minItems")
    if inner.kind in ("number", "integer") and size and size == item.schema.get("maxItems") and size <= 3:
        return inner
    return None


def scalar_union(schema: dict, spec: FieldSpec) -> bool:
    """A value that may be any of several plain types (text, number, true/false): edited as typed text."""
    options = spec.schema.get("anyOf") if spec.kind == "any" else None
    return bool(options) and all(node(schema, o).kind in SCALARS or node(schema, o).kind == "any" and
                                 o.get("type") == "null" for o in options)


def _summary(value: Any) -> str:
    """A short text for a list or mapping value: its scalars, or how many items it holds."""
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value) and len(value) <= 8:
            return ", ".join(values.show(v) for v in value) or "(none)"
        return f"{len(value)} item(s)"
    if isinstance(value, dict):
        return f"{len(value)} field(s)"
    return values.show(value)


def _table_page(owner: QWidget, title: str, spec, *buttons: tuple[str, Any]) -> QVBoxLayout:
    """The layout of a list or mapping editor: a header row with the title and one push button per
    (text, slot), margins off; the caller adds the table and its detail box."""
    header = QHBoxLayout()
    header.addWidget(_title(title, spec.description), 1)
    for text, slot in buttons:
        button = QPushButton(text)
        button.clicked.connect(slot)
        header.addWidget(button)
    layout = QVBoxLayout(owner)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addLayout(header)
    return layout


def _title(text: str, tip: str = "") -> QLabel:
    """A table's bold title beside its buttons; it wraps rather than widen a narrow panel."""
    label = QLabel(f"<b>{text}</b>")
    label.setWordWrap(True)
    label.setToolTip(tip)
    return label


def fresh_id(list_name: str, taken: list) -> str:
    """An id not in ``taken`` named after the list: ``victory`` -> ``victory-1``, ``special_rules`` ->
    ``special-rule-1``."""
    base = re.sub(r"[^a-z0-9]+", "-", list_name.lower()).strip("-") or "item"
    if base.endswith("s") and len(base) > 1:
        base = base[:-1]
    n = len(taken) + 1
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"
