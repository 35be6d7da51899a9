"""The unit table: every unit card of a rule system in one spreadsheet-like grid (story 2's main view).

Click a header to sort (numbers numerically), type in the filter box to show only the rows holding every word
(``soviet afv``), edit a cell to change that card (one undoable step in the card's document, saved with Save
all; Ctrl+Z / Edit > Undo in this tab undo the table's edits in order, across cards). A refused value is shown
in the status bar and the cell keeps the card's value. Cells of fields a card's category does not have are
greyed and read-only; the id column is read-only (use Rename id). Double-click a row header to open the card.
"""
from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QLabel, QLineEdit, QTableView,
                               QVBoxLayout, QWidget)

from studio.document.card_table import CardTable

READ_ONLY = QColor("#e6e6e6")


class QtCardTableModel(QAbstractTableModel):
    refused = Signal(str)

    def __init__(self, table: CardTable, parent=None):
        super().__init__(parent)
        self.table = table

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else self.table.row_count

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self.table.columns)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self.table.text(r, c)
        if role == Qt.ItemDataRole.UserRole:
            return self.table.sort_key(r, c)
        if role == Qt.ItemDataRole.BackgroundRole and (not self.table.applies(r, c) or
                                                       self.table.columns[c].read_only):
            return READ_ONLY
        if role == Qt.ItemDataRole.ToolTipRole:
            col = self.table.columns[c]
            return f"{col.pointer}\n{col.spec.description}".strip()
        return None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 - Qt API
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.table.columns[section].title
        return self.table.data(section).get("id", "?")

    def flags(self, index):
        base = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled
        if index.isValid() and self.table.applies(index.row(), index.column()) and \
                not self.table.columns[index.column()].read_only:
            base |= Qt.ItemFlag.ItemIsEditable
        return base

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802 - Qt API
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        try:
            changed = self.table.set_text(index.row(), index.column(), str(value))
        except ValueError as exc:
            col = self.table.columns[index.column()]
            self.refused.emit(f"{self.table.data(index.row()).get('id')} {col.title}: {exc}")
            return False
        if changed:
            self.dataChanged.emit(index, index)
        return changed

    def refresh(self) -> None:
        self.beginResetModel()
        self.endResetModel()


class QtCardFilter(QSortFilterProxyModel):
    """Rows holding every word of the filter; sorting by the table's sort keys."""

    def __init__(self, table: CardTable, parent=None):
        super().__init__(parent)
        self.table = table
        self.words: list[str] = []
        self.setSortRole(Qt.ItemDataRole.UserRole)

    def set_words(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt 6.9+: the supported way to change a filter
            self.beginFilterChange()
            self.words = text.lower().split()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # pragma: no cover - older Qt
            self.words = text.lower().split()
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, row, parent) -> bool:  # noqa: N802 - Qt API
        return self.table.matches(row, self.words)

    def lessThan(self, left, right) -> bool:  # noqa: N802 - Qt API
        return self.table.sort_key(left.row(), left.column()) < self.table.sort_key(right.row(), right.column())


class QtCardsTable(QWidget):
    """A tab of the main window; ``undo()``/``redo()`` are what Edit > Undo/Redo call while it is current."""

    status_message = Signal(str)
    open_requested = Signal(object)
    edited = Signal()  # a cell edit, undo or redo changed a card document

    def __init__(self, session, ruleset: str | None = None, parent=None):
        super().__init__(parent)
        self.session = session
        rulesets = sorted({e.ruleset for e in session.entries() if e.kind == "unit" and e.ruleset})
        self.ruleset_box = QComboBox()
        self.ruleset_box.addItems(rulesets)
        if ruleset in rulesets:
            self.ruleset_box.setCurrentText(ruleset)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter rows: every word must match (e.g. soviet afv)")
        self.filter.setClearButtonEnabled(True)
        self.count = QLabel("")
        self.view = QTableView()
        self.view.setSortingEnabled(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked |
                                  QAbstractItemView.EditTrigger.EditKeyPressed |
                                  QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.view.verticalHeader().sectionDoubleClicked.connect(self._open_row)
        top = QHBoxLayout()
        top.addWidget(QLabel("Rule system"))
        top.addWidget(self.ruleset_box)
        top.addWidget(self.filter, 1)
        top.addWidget(self.count)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        for keys, slot in ((QKeySequence.StandardKey.Undo, self.undo), (QKeySequence.StandardKey.Redo, self.redo)):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self.ruleset_box.currentTextChanged.connect(lambda _: self.load())
        self.filter.textChanged.connect(self._filter)
        self.load()

    @property
    def title(self) -> str:
        return f"Units: {self.table.ruleset}"

    def load(self) -> None:
        self.table = CardTable(self.session, self.ruleset_box.currentText())
        self.model = QtCardTableModel(self.table, self)
        self.model.refused.connect(self.status_message.emit)
        self.model.dataChanged.connect(lambda *_: self.edited.emit())
        self.proxy = QtCardFilter(self.table, self)
        self.proxy.setSourceModel(self.model)
        self.view.setModel(self.proxy)
        self._filter(self.filter.text())
        self.view.resizeColumnsToContents()

    def _filter(self, text: str) -> None:
        self.proxy.set_words(text)
        self.count.setText(f"{self.proxy.rowCount()} of {self.table.row_count} cards")

    # ---------------------------------------------------------------- keyboard users and tests
    def visible_ids(self) -> list[str]:
        return [self.proxy.headerData(r, Qt.Orientation.Vertical) for r in range(self.proxy.rowCount())]

    def column_of(self, pointer: str) -> int:
        return next(i for i, c in enumerate(self.table.columns) if c.pointer == pointer)

    def edit(self, card_id: str, pointer: str, text: str) -> bool:
        """Type ``text`` into the cell of card ``card_id`` and column ``pointer`` (through the view's model)."""
        row = self.table.find_row(card_id)
        source = self.model.index(row, self.column_of(pointer))
        return self.proxy.setData(self.proxy.mapFromSource(source), text)

    def sort_by(self, pointer: str, descending: bool = False) -> None:
        order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
        self.view.sortByColumn(self.column_of(pointer), order)

    # ---------------------------------------------------------------- undo
    def undo(self) -> bool:
        done = self.table.undo()
        self.model.refresh()
        if done:
            self.status_message.emit("Undone")
            self.edited.emit()
        return done

    def redo(self) -> bool:
        done = self.table.redo()
        self.model.refresh()
        if done:
            self.edited.emit()
        return done

    def refresh(self) -> None:
        """Re-read the cells (documents changed elsewhere, e.g. in a card editor)."""
        self.model.refresh()
        self._filter(self.filter.text())

    def _open_row(self, section: int) -> None:
        source = self.proxy.mapToSource(self.proxy.index(section, 0))
        if source.isValid():
            self.open_requested.emit(self.table.paths[source.row()])
