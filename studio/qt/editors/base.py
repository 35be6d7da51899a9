"""Base class of document editors: owns the subscription to the document and the diagnostics shown.

Contracts for subclasses:
- ``on_document_changed(change)`` refreshes the view from ``self.doc.data`` (after edits, undo and redo).
- ``show_diagnostics(diags)`` receives this file's diagnostics (the window filters them); editors mark fields.
- ``focus_pointer(pointer)`` brings the field (or hex) a JSON pointer names into view; unknown pointers are
  ignored. ``dispose()`` is called when the tab closes.
- ``status_message(str)`` and ``inspect(title, rows)`` feed the status bar and the inspector.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QToolBar, QWidget

from studio.document.document import Change, EditableDocument
from studio.document.session import ProjectSession
from studio.model.diagnostics import Diagnostic


class QtEditor(QWidget):
    status_message = Signal(str)
    inspect = Signal(str, list)

    def __init__(self, session: ProjectSession, doc: EditableDocument, parent=None):
        super().__init__(parent)
        self.session = session
        self.doc = doc
        self.diagnostics: list[Diagnostic] = []
        self.notes: list[Diagnostic] = []
        self._unsubscribe = doc.subscribe(self._changed)

    def _changed(self, doc: EditableDocument, change: Change) -> None:
        try:
            self.on_document_changed(change)
        except RuntimeError:  # the widget was deleted by Qt before dispose()
            self._unsubscribe()

    def on_document_changed(self, change: Change) -> None:  # pragma: no cover - overridden
        pass

    def show_diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)

    def show_notes(self, notes: list[Diagnostic]) -> None:
        """This file's ``checks.partial`` / ``checks.withheld`` notes (editors with a findings list show them)."""
        self.notes = list(notes)

    def focus_pointer(self, pointer: str) -> None:
        pass

    def apply(self, label: str, ops) -> bool:
        """Apply ops to the document; a refused edit becomes a status message instead of an exception."""
        from studio.document.ops import EditError
        try:
            self.doc.apply(label, ops)
            return True
        except EditError as exc:
            self.status_message.emit(f"Edit refused: {exc}")
            return False

    def dispose(self) -> None:
        self._unsubscribe()


def tool_actions(editor: QWidget, toolbar: QToolBar, tools, set_tool, checked: str) -> dict[str, QAction]:
    """One checkable, mutually exclusive action per ``(name, text, key)`` of ``tools`` on ``toolbar`` (with its
    shortcut while ``editor`` has focus), each calling ``set_tool(name)``; ``checked`` starts checked."""
    group = QActionGroup(editor)
    actions: dict[str, QAction] = {}
    for name, text, key in tools:
        action = QAction(text, editor)
        action.setCheckable(True)
        action.setShortcut(QKeySequence(key))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.setToolTip(f"{text} ({key})")
        action.triggered.connect(lambda _=False, n=name: set_tool(n))
        group.addAction(action)
        toolbar.addAction(action)
        editor.addAction(action)
        actions[name] = action
    actions[checked].setChecked(True)
    return actions
