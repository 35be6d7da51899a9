"""Inspector: key/value details of what the current editor shows or the user points at."""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget


class QtInspector(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.title = QLabel("Nothing selected")
        self.title.setStyleSheet("font-weight: bold")
        self.title.setWordWrap(True)
        self.table = QTreeWidget()
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels(["Property", "Value"])
        self.table.setColumnWidth(0, 110)
        self.table.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.title)
        layout.addWidget(self.table)

    def show_info(self, title: str, rows: list) -> None:
        self.title.setText(title)
        self.table.clear()
        for key, value in rows:
            item = QTreeWidgetItem([str(key), str(value)])
            item.setToolTip(1, str(value))
            self.table.addTopLevelItem(item)

    def rows(self) -> list[tuple[str, str]]:
        return [(self.table.topLevelItem(i).text(0), self.table.topLevelItem(i).text(1))
                for i in range(self.table.topLevelItemCount())]
