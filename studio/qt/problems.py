"""Problems panel: the live diagnostics of the project, one row each; double-click jumps to the finding.

``set_diagnostics(list, notes)`` replaces the rows (sorted as given); ``activated(Diagnostic)`` is emitted on
double-click or Enter. The header counts errors, warnings and infos; a severity filter hides the infos.

``notes`` (``checks.partial`` / ``checks.withheld``, see :mod:`studio.model.validate`) are not findings: they
explain findings that are missing, so they show in a bar above the rows whatever the filter, each file a link
to the part that was left out.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
                               QWidget)

from studio.model.diagnostics import Diagnostic, Severity

COLOURS = {Severity.ERROR: "#c00000", Severity.WARNING: "#b07000", Severity.INFO: "#406080"}


class QtProblemsPanel(QWidget):
    activated = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.summary = QLabel("No problems")
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.RichText)
        self.notice.setStyleSheet("QLabel { background: #eef3fa; border: 1px solid #b8c8e0; padding: 3px; }")
        self.notice.linkActivated.connect(self._note_link)
        self.notice.hide()
        self.notes: list[Diagnostic] = []
        self.show_infos = QCheckBox("Show infos")
        self.show_infos.setChecked(False)
        self.show_infos.toggled.connect(lambda _: self._fill())
        self.tree = QTreeWidget()
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setHeaderLabels(["Severity", "Code", "Message", "File", "Line", "Rule"])
        self.tree.setColumnWidth(0, 70)
        self.tree.setColumnWidth(1, 170)
        self.tree.setColumnWidth(2, 520)
        self.tree.setColumnWidth(3, 220)
        self.tree.setColumnWidth(4, 50)
        self.tree.itemActivated.connect(self._activated)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.show_infos)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.notice)
        layout.addWidget(self.tree)
        self.diagnostics: list[Diagnostic] = []

    def sizeHint(self):
        from PySide6.QtCore import QSize
        return QSize(800, 150)

    def set_diagnostics(self, diagnostics: list[Diagnostic], notes: list[Diagnostic] = ()) -> None:
        self.diagnostics = list(diagnostics)
        self.notes = list(notes)
        self._fill()
        self._fill_notice()

    #: notes listed in the bar; past it a count
    MAX_NOTES_SHOWN = 3

    def _fill_notice(self) -> None:
        if not self.notes:
            self.notice.hide()
            self.notice.setText("")
            return
        lines = []
        for i, note in enumerate(self.notes[:self.MAX_NOTES_SHOWN]):
            link = f'<a href="{i}">{html.escape(note.file)}</a>'
            lines.append(f"<b>Note</b> — {link}: {html.escape(note.message)}")
        if len(self.notes) > self.MAX_NOTES_SHOWN:
            lines.append(f"… and {len(self.notes) - self.MAX_NOTES_SHOWN} more file(s) with rule checks partial "
                         "or withheld")
        self.notice.setText("<br>".join(lines))
        self.notice.setToolTip("\n".join(f"{n.file}: {n.message}" for n in self.notes))
        self.notice.show()

    def _note_link(self, href: str) -> None:
        if href.isdigit() and int(href) < len(self.notes):
            self.activated.emit(self.notes[int(href)])

    def notice_text(self) -> str:
        """The bar's text without markup ('' when hidden)."""
        from PySide6.QtGui import QTextDocument
        document = QTextDocument()
        document.setHtml(self.notice.text())
        return document.toPlainText() if self.notice.isVisibleTo(self) else ""

    def shown(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if self.show_infos.isChecked() or d.severity != Severity.INFO]

    def _fill(self) -> None:
        self.tree.clear()
        for i, d in enumerate(self.diagnostics):
            if d.severity == Severity.INFO and not self.show_infos.isChecked():
                continue
            item = QTreeWidgetItem([d.severity.value, d.code, d.message, d.file, str(d.line), d.rule])
            item.setForeground(0, QColor(COLOURS[d.severity]))
            item.setToolTip(2, d.message + (f"\nhint: {d.hint}" if d.hint else "") + f"\n{d.pointer}")
            item.setData(0, Qt.ItemDataRole.UserRole, i)
            self.tree.addTopLevelItem(item)
        counts = {s: sum(1 for d in self.diagnostics if d.severity == s) for s in Severity}
        self.summary.setText(f"{counts[Severity.ERROR]} errors, {counts[Severity.WARNING]} warnings, "
                             f"{counts[Severity.INFO]} infos" if self.diagnostics else "No problems")

    def _activated(self, item: QTreeWidgetItem, column: int) -> None:
        index = item.data(0, Qt.ItemDataRole.UserRole)
        if index is not None and 0 <= index < len(self.diagnostics):
            self.activated.emit(self.diagnostics[index])

    def activate_row(self, row: int) -> None:
        """Act as if the row had been double-clicked (keyboard users and tests)."""
        item = self.tree.topLevelItem(row)
        if item is not None:
            self._activated(item, 0)

