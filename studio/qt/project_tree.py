"""Project tree: the project's documents grouped by kind, with a filter box (every word must match the name,
id, file, rule system, nation, category or branch, e.g. ``soviet afv``).

Emits ``open_requested(path)`` on double-click or Enter, and ``action_requested(name, path)`` from the context
menu (``new``, ``duplicate``, ``rename``, ``delete``). Documents that do not load are shown in red.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLineEdit, QMenu, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from studio.document.session import Entry

GROUPS = [("ruleset", "Rule systems"), ("unit", "Units"), ("toe", "TO&Es"), ("map", "Maps"),
          ("scenario", "Scenarios"), ("variant", "House rules (variants)"), ("position", "Positions"),
          ("layout", "Layouts"), ("project", "Project"), (None, "Other files")]
TITLE_ROLE = Qt.ItemDataRole.UserRole + 1  # (group title, number of documents) of a group row
KIND_ROLE = Qt.ItemDataRole.UserRole + 2   # "kind:id" of a document row (the drag data)
#: drag data of a document row: ``kind:id`` (a TO&E editor takes unit cards dropped on an echelon)
MIME_DOCUMENT = "application/x-studio-document"


class QtDocumentTree(QTreeWidget):
    """The tree widget itself: document rows can be dragged (``MIME_DOCUMENT``) into editors."""

    def mimeTypes(self):
        return [MIME_DOCUMENT]

    def mimeData(self, items):
        from PySide6.QtCore import QMimeData
        mime = QMimeData()
        ref = items[0].data(0, KIND_ROLE) if items else None
        if ref:
            mime.setData(MIME_DOCUMENT, ref.encode())
            mime.setText(ref.partition(":")[2])
        return mime


class QtProjectTree(QWidget):
    open_requested = Signal(object)
    action_requested = Signal(str, object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter: name, id, rule system, nation, type… (all words)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.apply_filter)
        self.tree = QtDocumentTree()
        self.tree.setHeaderHidden(True)
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QTreeWidget.DragDropMode.DragOnly)
        self.tree.setSelectionMode(QTreeWidget.SelectionMode.ExtendedSelection)
        self.tree.itemActivated.connect(self._activated)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree)
        self._entries: list[Entry] = []

    def set_entries(self, entries: list[Entry]) -> None:
        self._entries = entries
        expanded = {self.tree.topLevelItem(i).data(0, TITLE_ROLE)[0] for i in range(self.tree.topLevelItemCount())
                    if self.tree.topLevelItem(i).isExpanded()}
        self.tree.clear()
        known = {k for k, _ in GROUPS if k}
        for kind, title in GROUPS:
            members = [e for e in entries if (e.kind if e.kind in known else None) == kind]
            if not members:
                continue
            group = QTreeWidgetItem([f"{title} ({len(members)})"])
            group.setData(0, Qt.ItemDataRole.UserRole, None)
            group.setData(0, TITLE_ROLE, (title, len(members)))
            self.tree.addTopLevelItem(group)
            by_ruleset: dict[str, list[Entry]] = {}
            for e in members:
                by_ruleset.setdefault(e.ruleset if kind in ("unit", "toe", "scenario") and e.ruleset else "", []).append(e)
            for ruleset, items in sorted(by_ruleset.items()):
                parent = group
                if ruleset:
                    parent = QTreeWidgetItem([ruleset])
                    group.addChild(parent)
                    parent.setExpanded(True)
                for e in sorted(items, key=lambda x: x.name.lower()):
                    item = QTreeWidgetItem([e.name if e.name == e.id or not e.id else f"{e.name}  [{e.id}]"])
                    item.setData(0, Qt.ItemDataRole.UserRole, str(e.path))
                    if e.kind and e.id:
                        item.setData(0, KIND_ROLE, f"{e.kind}:{e.id}")
                    item.setToolTip(0, e.display + ("" if e.ok else "  (has errors)"))
                    if not e.ok:
                        item.setForeground(0, QColor("#c00000"))
                    parent.addChild(item)
            group.setExpanded(not expanded or title in expanded)
        self.apply_filter(self.filter.text())

    def apply_filter(self, text: str) -> None:
        words = text.lower().split()

        def visit(item: QTreeWidgetItem) -> bool:
            path = item.data(0, Qt.ItemDataRole.UserRole)
            if path:
                entry = next((e for e in self._entries if str(e.path) == path), None)
                hay = " ".join(str(x) for x in (item.text(0), entry.display if entry else "",
                                                entry.ruleset if entry else "", entry.kind if entry else "",
                                                entry.keywords if entry else "")).lower()
                show = all(w in hay for w in words)
            else:
                show = False
                for i in range(item.childCount()):
                    show = visit(item.child(i)) or show
                if words and all(w in item.text(0).lower() for w in words):
                    show = True
                    for i in range(item.childCount()):
                        _unhide(item.child(i))
            item.setHidden(not show)
            return show

        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            visit(group)
            title, total = group.data(0, TITLE_ROLE)
            shown = sum(1 for _ in _visible_documents(group))
            group.setText(0, f"{title} ({shown} of {total})" if words else f"{title} ({total})")

    def visible_paths(self) -> list[Path]:
        out = []

        def walk(item):
            if item.isHidden():
                return
            path = item.data(0, Qt.ItemDataRole.UserRole)
            if path:
                out.append(Path(path))
            for i in range(item.childCount()):
                walk(item.child(i))
        for i in range(self.tree.topLevelItemCount()):
            walk(self.tree.topLevelItem(i))
        return out

    def select_path(self, path: Path) -> None:
        for item in self._all_items():
            if item.data(0, Qt.ItemDataRole.UserRole) == str(path):
                self.tree.setCurrentItem(item)
                return

    def _all_items(self):
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            item = stack.pop()
            yield item
            stack.extend(item.child(i) for i in range(item.childCount()))

    def selected_paths(self) -> list[Path]:
        """Every selected document (multi-select with Ctrl/Shift)."""
        return [Path(i.data(0, Qt.ItemDataRole.UserRole)) for i in self.tree.selectedItems()
                if i.data(0, Qt.ItemDataRole.UserRole)]

    def current_path(self) -> Path | None:
        item = self.tree.currentItem()
        path = item.data(0, Qt.ItemDataRole.UserRole) if item else None
        return Path(path) if path else None

    def _activated(self, item: QTreeWidgetItem, column: int) -> None:
        path = item.data(0, Qt.ItemDataRole.UserRole)
        if path:
            self.open_requested.emit(Path(path))

    def _menu(self, pos) -> None:
        item = self.tree.itemAt(pos)
        path = item.data(0, Qt.ItemDataRole.UserRole) if item else None
        menu = QMenu(self)
        if path:
            menu.addAction("Open", lambda: self.open_requested.emit(Path(path)))
            menu.addAction("Duplicate…", lambda: self.action_requested.emit("duplicate", Path(path)))
            menu.addAction("Rename id…", lambda: self.action_requested.emit("rename", Path(path)))
            menu.addAction("Delete…", lambda: self.action_requested.emit("delete", Path(path)))
        menu.addAction("New unit card from template…", lambda: self.action_requested.emit("new", None))
        menu.exec(self.tree.viewport().mapToGlobal(pos))


def _visible_documents(item: QTreeWidgetItem):
    for i in range(item.childCount()):
        child = item.child(i)
        if child.isHidden():
            continue
        if child.data(0, Qt.ItemDataRole.UserRole):
            yield child
        yield from _visible_documents(child)


def _unhide(item: QTreeWidgetItem) -> None:
    item.setHidden(False)
    for i in range(item.childCount()):
        _unhide(item.child(i))
