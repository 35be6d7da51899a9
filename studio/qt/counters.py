"""Units drawn on map views as their printed counters (the print renderer: NATO symbol, values, designation).

- :func:`counter_spec` turns a unit card model and a designation into a :class:`CounterSpec` (the face
  primitives of ``studio.printing.faces`` for the counter layout the project would print, and its background).
- :class:`QtCounterStackItem` draws the counters of one hex: up to ``FAN`` fanned (each offset up and to the
  right, the first on top), a count badge when the hex holds more than one counter, and a facing mark (a
  wedge on the hexside the stack faces, when known). The counter is ``COUNTER_OF_HEX`` of the hex size.
- Everything is in scene millimetres, like the hexes; drawing a counter never raises (a unit that cannot be
  drawn becomes a plain coloured square with its designation).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

#: counter edge as a fraction of the hex size (flat to flat)
COUNTER_OF_HEX = 0.62
#: counters of a stack drawn fanned; more are summarised by the badge
FAN = 4
#: hexside direction -> angle in degrees clockwise from north (flat and pointy layouts alike)
FACINGS = {"N": 0, "NE": 60, "E": 90, "SE": 120, "S": 180, "SW": 240, "W": 270, "NW": 300}


@dataclass
class CounterSpec:
    """One counter to draw: its face primitives (in a ``size`` mm square), background and what it stands for."""

    unit_id: str
    designation: str = ""
    items: list = field(default_factory=list)
    background: str = "#c8c8c8"
    side_colour: str = "#1f5fd6"
    name: str = ""


def counter_spec(index: Any, unit: Any, designation: str, side_colour: str, size_mm: float,
                 side: str = "front") -> CounterSpec:
    """The counter of ``unit`` (a UnitCard model, or None for an unknown card) at ``size_mm``."""
    unit_id = getattr(unit, "id", "?")
    spec = CounterSpec(unit_id, designation, side_colour=side_colour, name=getattr(unit, "name", unit_id))
    if unit is None:
        return spec
    try:
        from studio.printing.faces import background, card_data, choose_layout, face_items
        layout = choose_layout(index, unit, "counter")
        data = {**card_data(unit), "@designation": designation} if designation else card_data(unit)
        spec.items = face_items(layout, unit, side, size_mm, size_mm, None, data)
        spec.background = background(layout, unit.nation, side)
    except Exception:  # noqa: BLE001 - a counter that cannot be laid out is drawn plain
        spec.items = []
    return spec


class QtCounterStackItem(QGraphicsItem):
    """The counters of one hex, centred on ``(x, y)``; ``facing`` in degrees (None: not shown)."""

    def __init__(self, x: float, y: float, counters: list[CounterSpec], size_mm: float,
                 facing: float | None = None):
        super().__init__()
        self.counters = counters
        self.size = size_mm
        self.facing = facing
        self.shown = counters[:FAN]
        self.step = size_mm * 0.09
        self.setPos(x, y)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip("\n".join(f"{c.designation or '-'}  {c.name}" for c in counters))

    @property
    def count(self) -> int:
        return len(self.counters)

    def boundingRect(self) -> QRectF:
        s, fan = self.size, self.step * max(0, len(self.shown) - 1)
        return QRectF(-s / 2 - 1.5, -s / 2 - fan - 2.5, s + fan + 4, s + fan + 5)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for i in reversed(range(len(self.shown))):  # the first counter on top
            self._paint_counter(painter, self.shown[i], i * self.step, -i * self.step)
        if self.facing is not None:
            self._paint_facing(painter)
        if self.count > 1:
            self._paint_badge(painter)

    def _paint_counter(self, painter: QPainter, spec: CounterSpec, dx: float, dy: float) -> None:
        s = self.size
        painter.save()
        painter.translate(dx - s / 2, dy - s / 2)
        painter.fillRect(QRectF(0.35, 0.35, s, s), QColor(0, 0, 0, 90))  # shadow: reads as a stack
        painter.fillRect(QRectF(0, 0, s, s), QColor(spec.background))
        try:
            from studio.printing.render import draw_item
            painter.setClipRect(QRectF(0, 0, s, s))
            for item in spec.items:
                draw_item(painter, item)
            painter.setClipping(False)
        except Exception:  # noqa: BLE001 - never let a counter break the map
            painter.setClipping(False)
        if not spec.items:
            font = QFont("Sans")
            font.setPixelSize(max(1, int(s * 0.22)))
            painter.setFont(font)
            painter.setPen(QColor("#000000"))
            painter.drawText(QRectF(0, 0, s, s), Qt.AlignmentFlag.AlignCenter, spec.designation or spec.unit_id)
        pen = QPen(QColor(spec.side_colour), s * 0.06)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(0, 0, s, s))
        painter.restore()

    def _paint_facing(self, painter: QPainter) -> None:
        """A wedge outside the counter edge, pointing at the hexside faced."""
        s = self.size
        painter.save()
        painter.rotate(self.facing)
        wedge = QPolygonF([QPointF(-s * 0.16, -s / 2 - 0.2), QPointF(s * 0.16, -s / 2 - 0.2),
                           QPointF(0, -s / 2 - s * 0.2)])
        painter.setBrush(QBrush(QColor(self.shown[0].side_colour)))
        painter.setPen(QPen(QColor("#ffffff"), s * 0.03))
        painter.drawPolygon(wedge)
        painter.restore()

    def _paint_badge(self, painter: QPainter) -> None:
        s = self.size
        r = s * 0.2
        fan = self.step * (len(self.shown) - 1)
        centre = QPointF(s / 2 + fan - r * 0.3, -s / 2 - fan + r * 0.3)
        painter.setBrush(QBrush(QColor("#202020")))
        painter.setPen(QPen(QColor("#ffffff"), s * 0.03))
        painter.drawEllipse(centre, r, r)
        font = QFont("Sans")
        font.setPixelSize(max(1, int(r * 1.2)))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter,
                         str(self.count))


def facing_angle(facing: Any) -> float | None:
    """Degrees clockwise from north for a hexside name (``N``, ``NE`` ...); None when unknown."""
    return float(FACINGS[facing]) if isinstance(facing, str) and facing in FACINGS else None
