"""Pages chosen from a narrow list on their left: tabs that never scroll, whatever the panel's width.

``QtSideTabs`` offers the part of the ``QTabWidget`` API the editors use (``addTab``, ``setCurrentIndex``,
``currentIndex``, ``currentWidget``, ``indexOf``, ``tabText``, ``setTabText``, ``setTabToolTip``, ``count``,
``widget``), so an editor panel with many pages keeps every page name visible.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QListWidget, QStackedWidget, QWidget


class QtSideTabs(QWidget):
    currentChanged = Signal(int)

    def __init__(self, parent=None, list_width: int = 86):
        super().__init__(parent)
        self.names = QListWidget()
        self.names.setFixedWidth(list_width)
        self.names.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.names.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.names.setStyleSheet("QListWidget { background: palette(window); border: none; } "
                                 "QListWidget::item { padding: 5px 4px; } "
                                 "QListWidget::item:selected { background: palette(highlight); "
                                 "color: palette(highlighted-text); }")
        self.pages = QStackedWidget()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.names)
        layout.addWidget(self.pages, 1)
        self.names.currentRowChanged.connect(self._chosen)

    def _chosen(self, row: int) -> None:
        if 0 <= row < self.pages.count():
            self.pages.setCurrentIndex(row)
            self.currentChanged.emit(row)

    #: the page list never grows past this (longer names are cut with an ellipsis and keep their tooltip)
    MAX_LIST_WIDTH = 118

    def addTab(self, widget: QWidget, text: str) -> int:  # noqa: N802 - QTabWidget API
        self.pages.addWidget(widget)
        self.names.addItem(text)
        self._fit(text)
        if self.names.currentRow() < 0:
            self.names.setCurrentRow(0)
        return self.pages.count() - 1

    def count(self) -> int:
        return self.pages.count()

    def widget(self, index: int) -> QWidget | None:
        return self.pages.widget(index)

    def indexOf(self, widget: QWidget) -> int:  # noqa: N802 - QTabWidget API
        return self.pages.indexOf(widget)

    def currentIndex(self) -> int:  # noqa: N802 - QTabWidget API
        return self.pages.currentIndex()

    def currentWidget(self) -> QWidget | None:  # noqa: N802 - QTabWidget API
        return self.pages.currentWidget()

    def setCurrentIndex(self, index: int) -> None:  # noqa: N802 - QTabWidget API
        if 0 <= index < self.pages.count():
            self.names.setCurrentRow(index)

    def tabText(self, index: int) -> str:  # noqa: N802 - QTabWidget API
        item = self.names.item(index)
        return item.text() if item is not None else ""

    def setTabText(self, index: int, text: str) -> None:  # noqa: N802 - QTabWidget API
        item = self.names.item(index)
        if item is not None:
            item.setText(text)
            self._fit(text)

    def _fit(self, text: str) -> None:
        """Widen the list to show ``text`` whole (up to :attr:`MAX_LIST_WIDTH`); it never narrows."""
        wanted = self.names.fontMetrics().horizontalAdvance(text) + 16
        if wanted > self.names.width():
            self.names.setFixedWidth(min(self.MAX_LIST_WIDTH, wanted))

    def setTabToolTip(self, index: int, text: str) -> None:  # noqa: N802 - QTabWidget API
        item = self.names.item(index)
        if item is not None:
            item.setToolTip(text)
