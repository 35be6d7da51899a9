"""Live preview of a unit card and its counter, drawn by the printing renderer exactly as they print.

Uses ``studio.printing.faces`` (layout binding) and ``studio.printing.render.draw_item`` (the one QPainter
renderer). The layout is the one ``studio print`` would choose for the card. While the card is invalid the last
valid picture stays, with the reason shown underneath.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

COUNTER_MM = 15.875  # 5/8 inch, the project default


class QtFaceWidget(QWidget):
    """Paints a list of printing primitives scaled to fit, on a background colour."""

    def __init__(self, title: str, parent=None):
        super().__init__(parent)
        self.title = title
        self.items: list = []
        self.size_mm = (COUNTER_MM, COUNTER_MM)
        self.background = "#e8e4d8"
        self.setMinimumSize(90, 90)

    def set_face(self, items: list, size_mm: tuple[float, float], background: str) -> None:
        self.items, self.size_mm, self.background = items, size_mm, background
        self.update()

    def paintEvent(self, event) -> None:
        from studio.printing.render import draw_item
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.fillRect(self.rect(), QColor("#5a5f66"))
        w, h = self.size_mm
        if w <= 0 or h <= 0:
            return
        scale = min((self.width() - 16) / w, (self.height() - 16) / h)
        painter.translate((self.width() - w * scale) / 2, (self.height() - h * scale) / 2)
        painter.scale(scale, scale)
        painter.fillRect(QRectF(0, 0, w, h), QColor(self.background))
        painter.setClipRect(QRectF(0, 0, w, h))
        for item in self.items:
            try:
                draw_item(painter, item)
            except Exception:  # noqa: BLE001 - a drawing bug must not break the editor
                break
        painter.end()


class QtCardPreview(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.counter = QtFaceWidget("Counter")
        self.counter_back = QtFaceWidget("Counter back")
        self.card = QtFaceWidget("Card")
        self.card.setMinimumSize(200, 130)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a00000")
        row = QWidget()
        from PySide6.QtWidgets import QHBoxLayout
        counters = QHBoxLayout(row)
        counters.setContentsMargins(0, 0, 0, 0)
        counters.addWidget(self.counter)
        counters.addWidget(self.counter_back)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>Counter</b> (front, back) as printed"))
        layout.addWidget(row, 1)
        layout.addWidget(QLabel("<b>Data card</b> as printed"))
        layout.addWidget(self.card, 2)
        layout.addWidget(self.message)
        self.shown_for = None

    def show_card(self, model, index) -> str:
        """Draw ``model`` (a valid UnitCard) with the layouts of ``index``; returns '' or the problem."""
        try:
            from studio.printing.faces import background, choose_layout, face_items
            counter = choose_layout(index, model, "counter")
            card = choose_layout(index, model, "card")
            size = (COUNTER_MM, COUNTER_MM)
            self.counter.set_face(face_items(counter, model, "front", *size), size,
                                  background(counter, model.nation, "front"))
            self.counter_back.set_face(face_items(counter, model, "back", *size), size,
                                       background(counter, model.nation, "back"))
            card_size = (card.width_mm or 90.0, card.height_mm or 60.0)
            self.card.set_face(face_items(card, model, "front", *card_size), card_size,
                               background(card, model.nation, "front"))
        except Exception as exc:  # noqa: BLE001 - preview problems are shown, never raised
            self.message.setText(f"Preview unavailable: {type(exc).__name__}: {exc}")
            return str(exc)
        self.shown_for = model.id
        self.message.setText("")
        return ""

    def show_problem(self, text: str) -> None:
        self.message.setText(text)
