"""Editor for a file that cannot be read as a document (YAML syntax error, bad encoding, not a mapping).

Shows the raw text with the failing line highlighted; *Save text* writes the text back (atomically) and, if it
now parses, the window reopens it in its proper editor. Nothing is lost: the file is only written on request.
Undo is the text box's own (the document layer needs parseable data).
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QTextEdit, QVBoxLayout, QWidget

from studio.model import yamlio
from studio.model.diagnostics import Diagnostic


class QtRawFileEditor(QWidget):
    saved = Signal(object)
    status_message = Signal(str)

    def __init__(self, path: Path, diagnostics: list[Diagnostic], parent=None):
        super().__init__(parent)
        self.path = Path(path)
        self.problem = QLabel("; ".join(f"line {d.line}: {d.message}" for d in diagnostics) or "unreadable")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #a00000")
        self.text = QPlainTextEdit()
        font = QFont("Monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.text.setFont(font)
        try:
            self.text.setPlainText(self.path.read_bytes().decode("utf-8", errors="replace"))
        except OSError as exc:
            self.text.setPlainText("")
            self.problem.setText(f"cannot read the file: {exc}")
        save = QPushButton("Save text")
        save.clicked.connect(self.save)
        bar = QHBoxLayout()
        bar.addWidget(self.problem, 1)
        bar.addWidget(save)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.text)
        if diagnostics:
            self.mark_line(diagnostics[0].line)

    def mark_line(self, line: int) -> None:
        block = self.text.document().findBlockByLineNumber(max(0, line - 1))
        selection = QTextEdit.ExtraSelection()
        fmt = QTextCharFormat()
        fmt.setBackground(QColor("#ffd8d8"))
        fmt.setProperty(QTextCharFormat.Property.FullWidthSelection, True)
        selection.format = fmt
        selection.cursor = QTextCursor(block)
        self.text.setExtraSelections([selection])
        self.text.setTextCursor(QTextCursor(block))
        self.text.centerCursor()

    def save(self) -> bool:
        """Write the text; returns True (and emits ``saved``) when it now parses as a document."""
        text = self.text.toPlainText()
        yamlio.atomic_write(self.path, text if text.endswith("\n") else text + "\n")
        try:
            data = yamlio.parse(text)
        except yamlio.YamlProblem as problem:
            self.problem.setText(f"saved, still not readable: line {problem.line}: {problem.message}")
            self.mark_line(problem.line)
            return False
        if not isinstance(data, dict):
            self.problem.setText("saved, but the top level is not a mapping")
            return False
        self.saved.emit(self.path)
        return True
