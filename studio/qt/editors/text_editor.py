"""Fallback editor: the document's canonical YAML text; "Apply" replaces the content as one undo step.

Used for kinds without a dedicated editor (project, ruleset, layout) and for measured tables. Text that does
not parse is refused with the YAML error in the status bar; the document is unchanged.
"""
from __future__ import annotations

from PySide6.QtGui import QFont, QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout

from studio.model import yamlio

from .base import QtEditor


class QtTextEditor(QtEditor):
    def __init__(self, session, doc, parent=None):
        super().__init__(session, doc, parent)
        self.text = QPlainTextEdit()
        font = QFont("Monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.text.setFont(font)
        self.apply_button = QPushButton("Apply text (Ctrl+Return)")
        self.apply_button.clicked.connect(self.apply_text)
        self.note = QLabel("Edit the YAML and apply; the form-less kinds are edited as text.")
        bar = QHBoxLayout()
        bar.addWidget(self.note, 1)
        bar.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.text)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.apply_text)
        self.text.installEventFilter(self)  # Ctrl+Z: the typing first, then the applied changes
        self.refresh()

    def eventFilter(self, watched, event) -> bool:
        """Undo/Redo in the text: Qt's own text undo while there is unapplied typing, else the document's
        history (so Ctrl+Z undoes an applied change, like Edit > Undo)."""
        from PySide6.QtCore import QEvent
        if watched is self.text and event.type() in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            for keys, typed, step in ((QKeySequence.StandardKey.Undo, self.text.document().isUndoAvailable,
                                       self.doc.undo),
                                      (QKeySequence.StandardKey.Redo, self.text.document().isRedoAvailable,
                                       self.doc.redo)):
                if event.matches(keys) and not typed():
                    event.accept()
                    if event.type() == QEvent.Type.KeyPress:
                        step()
                    return True
        return super().eventFilter(watched, event)

    def refresh(self) -> None:
        self.text.setPlainText(self.doc.text())

    def on_document_changed(self, change) -> None:
        if change.reason in ("do", "undo", "redo"):
            self.refresh()

    def apply_text(self) -> bool:
        try:
            data = yamlio.parse(self.text.toPlainText())
        except yamlio.YamlProblem as problem:
            self.status_message.emit(f"Not applied: line {problem.line}: {problem.message}")
            return False
        if not isinstance(data, dict):
            self.status_message.emit("Not applied: a document must be a mapping")
            return False
        self.doc.replace_data("Edit text", data)
        return True

    def focus_pointer(self, pointer: str) -> None:
        from studio.model.yamlio import SourceMap
        line, _ = SourceMap(self.text.toPlainText()).position(pointer)
        block = self.text.document().findBlockByLineNumber(max(0, line - 1))
        cursor = QTextCursor(block)
        self.text.setTextCursor(cursor)
        self.text.centerCursor()
        self.text.setFocus()
