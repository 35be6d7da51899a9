"""Editor for a file that cannot be read as a document (YAML syntax error, bad encoding, not a mapping).

Shows the raw text with the failing line highlighted; *Save text* writes the text back (atomically, inside the
project, never through a symlink: ``studio.model.safeio.write_atomic`` with ``root``) and, if it now parses,
the window reopens it in its proper editor. Nothing is lost: the file is only written on request, and a file
whose bytes the text box cannot hold exactly is never written from it: a file that is not valid UTF-8 (or a
special file, or one too large to read) opens read-only, its undecodable bytes shown as U+FFFD, and *Save text*
refuses with a message (``read_only_reason`` says why). The text box turns CR LF, lone CRs and U+2028/U+2029
into plain line breaks and drops a BOM, so a byte-order mark and consistent CR LF line endings are put back on
save, and a file with lone CRs, mixed line endings or U+2028/U+2029 opens read-only too. Undo is the text box's own (the document layer needs
parseable data).
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QTextEdit, QVBoxLayout, QWidget

from studio.model import yamlio
from studio.model.diagnostics import Diagnostic
from studio.model.safeio import read_regular, write_atomic


def _readable_text(path: Path) -> tuple[str, str]:
    """(text, read-only reason): the file as text, and why it must not be written back ("" when it may)."""
    try:
        raw = read_regular(path)
    except OSError as exc:
        return "", f"cannot read the file: {getattr(exc, 'reason', None) or exc.strerror or exc}"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return (raw.decode("utf-8", errors="replace"),
                f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at line {line}): shown read-only, since saving this "
                "text would replace those bytes; convert the file to UTF-8 in another editor")
    return text, _unkeepable(text)


def _unkeepable(text: str) -> str:
    """Why the text box could not give ``text`` back exactly, even with BOM and CR LF restored ("" if it can)."""
    body = text.removeprefix("\ufeff")
    crlf = body.count("\r\n")
    if "\u2028" in body or "\u2029" in body:
        found = "contains U+2028/U+2029 separators"
    elif body.count("\r") != crlf:
        found = "contains carriage returns without a line feed"
    elif crlf and crlf != body.count("\n"):
        found = "mixes CR LF and LF line endings"
    else:
        return ""
    return f"the file {found}, which the text box would turn into plain line breaks: shown read-only"


class QtRawFileEditor(QWidget):
    saved = Signal(object)
    status_message = Signal(str)

    def __init__(self, path: Path, diagnostics: list[Diagnostic], parent=None, root: Path | None = None):
        super().__init__(parent)
        self.path = Path(path)
        self.root = root
        self.problem = QLabel("; ".join(f"line {d.line}: {d.message}" for d in diagnostics) or "unreadable")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #a00000")
        self.text = QPlainTextEdit()
        font = QFont("Monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.text.setFont(font)
        text, self.read_only_reason = _readable_text(self.path)
        self.bom = "\ufeff" if text.startswith("\ufeff") else ""
        self.newline = "\r\n" if "\r\n" in text else "\n"
        self.text.setPlainText(text)
        self.save_button = QPushButton("Save text")
        self.save_button.clicked.connect(self.save)
        if self.read_only_reason:
            self.text.setReadOnly(True)
            self.save_button.setEnabled(False)
            self.problem.setText(f"{self.problem.text()} — {self.read_only_reason}")
        bar = QHBoxLayout()
        bar.addWidget(self.problem, 1)
        bar.addWidget(self.save_button)
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
        """Write the text; returns True (and emits ``saved``) when it now parses as a document. Refused (nothing
        written, a message in the bar and the status) for a read-only file or a write the policy refuses."""
        if self.read_only_reason:
            return self._refuse(f"not saved: {self.read_only_reason}")
        text = self.text.toPlainText()
        text = (text if text.endswith("\n") else text + "\n").removeprefix("\ufeff")
        try:
            write_atomic(self.path, self.bom + text.replace("\n", self.newline), root=self.root)
        except OSError as exc:
            return self._refuse(f"not saved: {exc.strerror or exc}")
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

    def _refuse(self, message: str) -> bool:
        self.problem.setText(message)
        self.status_message.emit(f"{self.path.name}: {message}")
        return False
