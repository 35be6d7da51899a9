"""Hex map scene and view: one polygon item per hex, overlay layers, zoom and pan, gesture signals.

Contracts:
- ``QtHexScene(geometry, colour_of)`` draws every ``geometry.keys()`` hex (``geometry.corner_offsets()`` around
  ``geometry.centre(key)``) filled with ``colour_of(key)``;
  ``recolour(keys)`` refreshes fills after an edit; ``rebuild()`` after a shape change. Scene units are mm.
- Named overlay layers (``set_marks``, ``set_polylines``, ``set_texts``) replace their previous content, so
  editors redraw a layer from the document data after each change without tracking items.
- ``QtMapView`` zooms with the wheel about the cursor (the scene point under the cursor stays there), with
  ``+``/``-``, fits the board with ``0`` or ``Home``, pans with the middle or right button (or space+drag),
  and emits ``hovered(key)``, ``pressed(key, x, y, button)``, ``dragged(key, x, y)``, ``released(key, x, y)``
  in scene mm for the left button. ``key`` is None off the map.
- Hex ids are drawn from a moderate zoom on (never smaller than a readable pixel size); ``set_seams`` draws the
  seams between assembled boards; ``set_legend([(colour, name)])`` shows a terrain legend in the view's top-right
  corner; a minimap (bottom-right, ``show_minimap``) shows the whole board and the visible area, and a click on
  it centres the view there.
"""
from __future__ import annotations

import html
from typing import Any, Callable, Iterable

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtCore import QSize, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (QGraphicsItem, QGraphicsPathItem, QGraphicsPolygonItem, QGraphicsScene,
                               QGraphicsSimpleTextItem, QGraphicsView, QLabel, QStyleOptionGraphicsItem, QWidget)

HEX_PEN_COLOUR = QColor(90, 90, 90, 160)


def shaded(colour: str, level: int) -> str:
    """A terrain colour darkened by elevation level (so hills read on the map)."""
    base = QColor(colour)
    return base.darker(100 + 12 * level).name() if level > 0 else base.name()


def legend_entries(geometry: Any, catalogue: Any) -> list[tuple[str, str]]:
    """``(colour, name)`` of every terrain the map uses, most common first (for ``QtMapView.set_legend``)."""
    counts: dict[str, int] = {}
    for key in geometry.keys():
        code = geometry.terrain(key)
        counts[code] = counts.get(code, 0) + 1
    ordered = sorted(counts, key=lambda c: (-counts[c], c))
    return [(catalogue.colour_of(code), f"{catalogue.name_of(code)} ({code})") for code in ordered]


def draw_hex_features(scene: "QtHexScene", geometry: Any, catalogue: Any) -> None:
    """Hexside features and roads of an assembled map (``geometry.map``: ``hexsides``/``roads`` keyed by hex
    pairs) as layers ``feature:<id>`` and ``roads:<id>``, in the catalogue's colours."""
    amap = getattr(geometry, "map", None)
    if amap is None:
        return
    from studio.hexgrid import coords
    by_feature: dict[str, list] = {}
    for (a, b), feature in amap.hexsides.items():
        step = (b[0] - a[0], b[1] - a[1])
        if step in coords.DIRECTIONS:
            d = coords.DIRECTIONS.index(step)
            c = geometry.corners(a)
            by_feature.setdefault(feature, []).append([c[d], c[(d + 1) % 6]])
    for feature, segments in by_feature.items():
        f = catalogue.hexside_features.get(feature)
        scene.set_polylines(f"feature:{feature}", segments, f.colour if f else "#3060c0", geometry.hex_mm * 0.12)
    by_road: dict[str, list] = {}
    for (a, b), road in amap.roads.items():
        by_road.setdefault(road, []).append([geometry.centre(a), geometry.centre(b)])
    for road, segments in by_road.items():
        r = catalogue.road_types.get(road)
        scene.set_polylines(f"roads:{road}", segments, r.colour if r else "#805020", geometry.hex_mm * 0.09, z=4.5)


def draw_seams(scene: "QtHexScene", geometry: Any) -> int:
    """The seams between the boards of an assembled map (0 for a single board)."""
    amap = getattr(geometry, "map", None)
    if amap is None:
        return 0
    from studio.hexgrid import coords
    return scene.set_seams(amap.board_of, geometry.corners, list(coords.DIRECTIONS))


class QtHexLabelsItem(QGraphicsItem):
    """Hex ids (and elevation levels) painted for the exposed area only, and only when zoomed in enough."""

    MIN_LOD = 0.75  # device pixels per mm below which labels are not drawn (a 19 mm hex is then ~14 px)
    MIN_PIXELS = 7  # smallest label text in device pixels

    def __init__(self, scene: "QtHexScene"):
        super().__init__()
        self._scene = scene
        self.show_elevation = False
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setZValue(5)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return self._scene.board_rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        if lod < self.MIN_LOD:
            return
        geometry = self._scene.geometry
        size = geometry.hex_mm
        font = QFont("Sans")
        font.setPixelSize(max(1, int(round(min(size * 0.3, max(size * 0.16, self.MIN_PIXELS / lod))))))
        painter.setFont(font)
        painter.setPen(QColor(40, 40, 40))
        exposed = option.exposedRect.adjusted(-size, -size, size, size)
        for key, (x, y) in self._scene.centres.items():
            if not exposed.contains(x, y):
                continue
            rect = QRectF(x - size / 2, y - size * 0.48, size, size * 0.3)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, geometry.label(key))
            if self.show_elevation:
                level = geometry.elevation(key)
                painter.drawText(QRectF(x - size / 2, y + size * 0.12, size, size * 0.3),
                                 Qt.AlignmentFlag.AlignCenter, str(level))


class QtHexScene(QGraphicsScene):
    def __init__(self, geometry: Any, colour_of: Callable[[Any], str], parent=None):
        super().__init__(parent)
        self.geometry = geometry
        self.colour_of = colour_of
        self.items_by_key: dict[Any, QGraphicsPolygonItem] = {}
        self.centres: dict[Any, tuple[float, float]] = {}
        self._fills: dict[Any, str] = {}
        self._brushes: dict[str, QBrush] = {}
        self._layers: dict[str, list[QGraphicsItem]] = {}
        self.board_rect = QRectF()
        self.labels_item: QtHexLabelsItem | None = None
        self.setBackgroundBrush(QColor(70, 74, 80))
        self.rebuild()

    # ---------------------------------------------------------------- hexes
    def brush(self, colour: str) -> QBrush:
        b = self._brushes.get(colour)
        if b is None:
            b = self._brushes[colour] = QBrush(QColor(colour))
        return b

    def rebuild(self) -> None:
        """Drop and recreate every item (board shape changed). One shared hexagon, each item placed at its centre."""
        self.clear()
        self.items_by_key.clear()
        self.centres.clear()
        self._fills.clear()
        self._layers.clear()
        pen = QPen(HEX_PEN_COLOUR, 0)  # cosmetic: one pixel at any zoom
        pen.setCosmetic(True)
        shape = QPolygonF([QPointF(x, y) for x, y in self.geometry.corner_offsets()])
        centres = self.centres
        items = self.items_by_key
        fills = self._fills
        colour_of, brush, add = self.colour_of, self.brush, self.addItem
        centre = self.geometry.centre
        for key in self.geometry.keys():
            x, y = centre(key)
            item = QGraphicsPolygonItem(shape)
            item.setPos(x, y)
            item.setPen(pen)
            colour = colour_of(key)
            item.setBrush(brush(colour))
            add(item)
            items[key] = item
            fills[key] = colour
            centres[key] = (x, y)
        if centres:
            xs = [c[0] for c in centres.values()]
            ys = [c[1] for c in centres.values()]
            box = shape.boundingRect()
            self.board_rect = QRectF(min(xs) + box.left(), min(ys) + box.top(),
                                     max(xs) - min(xs) + box.width(), max(ys) - min(ys) + box.height())
        else:
            self.board_rect = QRectF(0, 0, 10, 10)
        self._scene_rect_for(self.board_rect)
        self.labels_item = QtHexLabelsItem(self)
        self.addItem(self.labels_item)

    def _scene_rect_for(self, rect: QRectF) -> None:
        """Room around the board (half its size) so the view can zoom about any point and pan past the edges."""
        margin = max(self.geometry.hex_mm, rect.width() / 2, rect.height() / 2)
        self.setSceneRect(rect.adjusted(-margin, -margin, margin, margin))

    def set_seams(self, board_of: dict, corners: Callable[[Any], list], directions: list) -> int:
        """Thick lines on every hexside between hexes of different boards (``board_of[hex]``); returns their
        number. ``corners(hex)`` and ``directions`` (axial steps, in corner order) come from the geometry."""
        segments = []
        for h, board in board_of.items():
            for d, (dq, dr) in enumerate(directions):
                nb = (h[0] + dq, h[1] + dr)
                if nb in board_of and board_of[nb] != board and h < nb:
                    c = corners(h)
                    segments.append([c[d], c[(d + 1) % 6]])
        self.set_polylines("seams", segments, "#202020", self.geometry.hex_mm * 0.07, z=4.8, dash=True)
        return len(segments)

    def recolour(self, keys: Iterable[Any] | None = None) -> int:
        """Refresh fills of ``keys`` (all when None); returns how many items changed."""
        changed = 0
        for key in (self.items_by_key if keys is None else keys):
            item = self.items_by_key.get(key)
            if item is None:
                continue
            colour = self.colour_of(key)
            if self._fills.get(key) != colour:
                self._fills[key] = colour
                item.setBrush(self.brush(colour))
                changed += 1
        if self.labels_item is not None and self.labels_item.show_elevation:
            self.labels_item.update()
        return changed

    def key_at(self, x: float, y: float):
        return self.geometry.key_at(x, y)

    def fill_of(self, key) -> str | None:
        return self._fills.get(key)

    # ---------------------------------------------------------------- overlay layers
    def clear_layer(self, name: str) -> None:
        for item in self._layers.pop(name, []):
            self.removeItem(item)

    def _add(self, name: str, item: QGraphicsItem, z: float) -> None:
        item.setZValue(z)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.addItem(item)
        self._layers.setdefault(name, []).append(item)

    def layer(self, name: str) -> list[QGraphicsItem]:
        return list(self._layers.get(name, []))

    def set_marks(self, name: str, keys: Iterable[Any], colour: str, alpha: int = 110, outline: str | None = None,
                  z: float = 3) -> None:
        """Tint hexes ``keys`` (unknown keys are ignored)."""
        self.clear_layer(name)
        fill = QColor(colour)
        fill.setAlpha(alpha)
        pen = QPen(QColor(outline or colour), 0.8 if outline else 0)
        if not outline:
            pen = QPen(Qt.PenStyle.NoPen)
        for key in keys:
            base = self.items_by_key.get(key)
            if base is None:
                continue
            item = QGraphicsPolygonItem(base.polygon())
            item.setPos(base.pos())
            item.setBrush(QBrush(fill))
            item.setPen(pen)
            self._add(name, item, z)

    def set_polygons(self, name: str, polygons: Iterable[tuple[list[tuple[float, float]], str]], z: float = 1,
                     outline: str = "#5a5a5a") -> None:
        """Free polygons (points in mm, fill colour) that are not hexes of this scene's geometry."""
        self.clear_layer(name)
        pen = QPen(QColor(outline), 0)
        pen.setCosmetic(True)
        for points, colour in polygons:
            item = QGraphicsPolygonItem(QPolygonF([QPointF(x, y) for x, y in points]))
            item.setBrush(self.brush(colour))
            item.setPen(pen)
            self._add(name, item, z)
        self._scene_rect_for(self.itemsBoundingRect())

    def set_polylines(self, name: str, lines: Iterable[list[tuple[float, float]]], colour: str, width: float,
                      z: float = 4, dash: bool = False) -> None:
        self.clear_layer(name)
        path = QPainterPath()
        for points in lines:
            if len(points) < 2:
                continue
            path.moveTo(*points[0])
            for x, y in points[1:]:
                path.lineTo(x, y)
        pen = QPen(QColor(colour), width)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        if dash:
            pen.setStyle(Qt.PenStyle.DashLine)
        item = QGraphicsPathItem(path)
        item.setPen(pen)
        self._add(name, item, z)

    def set_counters(self, name: str, stacks: Iterable[tuple[Any, list, float | None]], z: float = 6) -> list:
        """Counters drawn as printed (``studio.qt.counters``): ``stacks`` are ``(hex key, [CounterSpec],
        facing degrees or None)``; one stack item per hex. Returns the items."""
        from .counters import COUNTER_OF_HEX, QtCounterStackItem
        self.clear_layer(name)
        size = self.geometry.hex_mm * COUNTER_OF_HEX
        out = []
        for key, counters, facing in stacks:
            if key not in self.centres or not counters:
                continue
            item = QtCounterStackItem(*self.centres[key], counters, size, facing)
            self._add(name, item, z)
            out.append(item)
        return out

    def set_texts(self, name: str, texts: Iterable[tuple[float, float, str]], colour: str = "#000000",
                  size_mm: float = 3.5, z: float = 6, bold: bool = True) -> None:
        self.clear_layer(name)
        font = QFont("Sans")
        font.setPixelSize(max(1, int(round(size_mm))))
        font.setBold(bold)
        for x, y, text in texts:
            item = QGraphicsSimpleTextItem(text)
            item.setFont(font)
            item.setBrush(QColor(colour))
            rect = item.boundingRect()
            item.setPos(x - rect.width() / 2, y - rect.height() / 2)
            self._add(name, item, z)


class QtLegend(QLabel):
    """The terrain legend over a map view: a click folds it to its title (so it hides no hexes) or unfolds it.
    Until the user clicks it, it is folded whenever, unfolded, it would cover the fitted board."""

    toggled = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setStyleSheet("QLabel { background: rgba(255,255,255,225); border: 1px solid #777; padding: 3px; "
                           "font-size: 11px; }")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.entries: list[tuple[str, str]] = []
        self.folded = False
        self._chosen = False  # the user folded or unfolded it: the view's size no longer decides

    def set_entries(self, entries: list[tuple[str, str]]) -> None:
        self.entries = list(entries)
        self._render()

    def full_size(self):
        """The unfolded legend's size (pixels)."""
        folded = self.folded
        self.folded = False
        self._render()
        size = self.sizeHint()
        self.folded = folded
        self._render()
        return size

    def fold_for(self, covers: bool) -> None:
        """Fold when the unfolded legend would cover the board, unfold when it would not (unless the user
        chose)."""
        if not self._chosen and covers != self.folded:
            self.folded = covers
            self._render()

    def set_folded(self, folded: bool) -> None:
        self.folded, self._chosen = folded, True
        self._render()
        self.toggled.emit()

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.set_folded(not self.folded)

    def _render(self) -> None:
        if self.folded:
            self.setText("<b>Terrain</b> &#9656;")
            self.setToolTip("Terrain legend: click to show it")
        else:
            rows = "".join(f"<tr><td style='background:{c}; border:1px solid #555'>&nbsp;&nbsp;&nbsp;&nbsp;</td>"
                           f"<td>&nbsp;{html.escape(n)}</td></tr>" for c, n in self.entries)
            self.setText(f"<b>Terrain</b> &#9662;<table cellspacing='1'>{rows}</table>")
            self.setToolTip("Click to fold the legend")
        self.adjustSize()


class QtMapView(QGraphicsView):
    hovered = Signal(object)
    pressed = Signal(object, float, float, object)
    dragged = Signal(object, float, float)
    released = Signal(object, float, float)

    ZOOM_STEP = 1.2

    def __init__(self, scene: QtHexScene, parent=None):
        super().__init__(scene, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setMouseTracking(True)
        self._pan_from: QPointF | None = None
        self._left_down = False
        self._space = False
        self._last_key: Any = None
        self._fitted = False
        self.legend = QtLegend(self.viewport())
        self.legend.toggled.connect(self._place_overlays)
        self.legend.hide()
        self.minimap = QtMiniMap(self)
        self.minimap.hide()
        self.horizontalScrollBar().valueChanged.connect(lambda _: self.minimap.update())
        self.verticalScrollBar().valueChanged.connect(lambda _: self.minimap.update())

    # ---------------------------------------------------------------- overlays of the view
    def set_legend(self, entries: list[tuple[str, str]]) -> None:
        """Terrain legend: ``(colour, name)`` rows, shown in the top-right corner (hidden when empty)."""
        self.legend_entries = list(entries)
        if not entries:
            self.legend.hide()
            return
        self.legend.set_entries(entries)
        self.legend.show()
        self._place_overlays()

    def show_minimap(self, on: bool = True) -> None:
        self.minimap.setVisible(on)
        if on:
            self.minimap.refresh()
        self._place_overlays()

    def _place_overlays(self) -> None:
        """Legend top-right and minimap bottom-right of the viewport (re-placed whenever it resizes)."""
        vp = self.viewport().rect()
        self.legend.fold_for(self._legend_covers_board(vp))
        self.legend.move(max(0, vp.right() - self.legend.width() - 6), 6)
        size = self.minimap.sizeHint()
        self.minimap.setGeometry(max(0, vp.right() - size.width() - 6), max(0, vp.bottom() - size.height() - 6),
                                 size.width(), size.height())

    def _legend_covers_board(self, vp) -> bool:
        """Whether the unfolded legend, in its corner, would hide part of the board as the view shows it."""
        from PySide6.QtCore import QRect
        scene = self.scene()
        if not isinstance(scene, QtHexScene) or not self.legend.entries:
            return False
        size = self.legend.full_size()
        corner = QRect(vp.right() - size.width() - 6, 6, size.width(), size.height())
        return self.mapFromScene(scene.board_rect).boundingRect().intersects(corner)

    def viewportEvent(self, event) -> bool:  # noqa: N802 - Qt API
        from PySide6.QtCore import QEvent
        result = super().viewportEvent(event)
        if event.type() == QEvent.Type.Resize:
            self._place_overlays()
        return result

    def visible_scene_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    # ---------------------------------------------------------------- zoom
    def zoom(self, factor: float, anchor: QPointF | None = None) -> None:
        """Scale by ``factor``; the scene point under ``anchor`` (viewport pixels; default the centre) stays
        under it."""
        current = self.transform().m11()
        factor = max(0.05 / current, min(200.0 / current, factor))
        pos = anchor if anchor is not None else QPointF(self.viewport().rect().center())
        before = self.mapToScene(pos.toPoint())
        previous = self.transformationAnchor()
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.scale(factor, factor)
        self.setTransformationAnchor(previous)
        after = self.mapFromScene(before)
        shift = after - pos.toPoint()
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + shift.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + shift.y())
        self.minimap.update()

    def zoom_level(self) -> float:
        return self.transform().m11()

    #: the zoom (pixels per mm) at which hex ids can be read; findings are shown at least this close
    READABLE_ZOOM = 2.0

    def reveal(self, points: list[tuple[float, float]]) -> None:
        """Bring scene ``points`` (e.g. the hexes of a finding) into view, close enough to read their ids."""
        if not points:
            return
        if self.zoom_level() < self.READABLE_ZOOM:
            self._user_zoomed = True
            self.zoom(self.READABLE_ZOOM / self.zoom_level())
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        self.centerOn((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        self.minimap.update()

    def fit(self) -> None:
        scene = self.scene()
        if isinstance(scene, QtHexScene):
            rect = scene.board_rect
            if scene.layer("assembly"):
                rect = rect.united(scene.itemsBoundingRect())
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
            self.minimap.update()

    def fit_all(self) -> None:
        self._user_zoomed = False
        self.fit()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            self.fit()

    def resizeEvent(self, event) -> None:
        """Keep the board fitted until the user zooms or pans (only when the widget itself changed size: a
        scroll bar appearing resizes the viewport, and re-fitting on that would oscillate)."""
        super().resizeEvent(event)
        self._place_overlays()
        if self._left_down or self._pan_from is not None or getattr(self, "_user_zoomed", False):
            return
        if getattr(self, "_fitted_size", None) != self.size():
            self._fitted_size = self.size()
            self.fit()

    def wheelEvent(self, event) -> None:
        delta = event.angleDelta().y()
        if delta:
            self._user_zoomed = True
            self.zoom(self.ZOOM_STEP if delta > 0 else 1 / self.ZOOM_STEP, event.position())
        event.accept()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            return
        if event.key() in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self._user_zoomed = True
            self.zoom(self.ZOOM_STEP)
            return
        if event.key() == Qt.Key.Key_Minus:
            self._user_zoomed = True
            self.zoom(1 / self.ZOOM_STEP)
            return
        if event.key() in (Qt.Key.Key_0, Qt.Key.Key_Home):
            self.fit_all()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            return
        super().keyReleaseEvent(event)

    # ---------------------------------------------------------------- mouse
    def _key(self, pos) -> tuple[Any, float, float]:
        p = self.mapToScene(pos)
        scene = self.scene()
        key = scene.key_at(p.x(), p.y()) if isinstance(scene, QtHexScene) else None
        return key, p.x(), p.y()

    def mousePressEvent(self, event) -> None:
        button = event.button()
        if button in (Qt.MouseButton.MiddleButton, Qt.MouseButton.RightButton) or \
                (button == Qt.MouseButton.LeftButton and self._space):
            self._pan_from = event.position()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        if button == Qt.MouseButton.LeftButton:
            self._left_down = True
            key, x, y = self._key(event.position().toPoint())
            self._last_key = key
            self.pressed.emit(key, x, y, button)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._pan_from is not None:
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            self._user_zoomed = True
            event.accept()
            return
        key, x, y = self._key(event.position().toPoint())
        self.hovered.emit(key)
        if self._left_down:
            self.dragged.emit(key, x, y)
            self._last_key = key
        event.accept()

    def mouseReleaseEvent(self, event) -> None:
        if self._pan_from is not None and event.button() != Qt.MouseButton.LeftButton or \
                (self._pan_from is not None and self._space):
            self._pan_from = None
            self.unsetCursor()
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton and self._left_down:
            self._left_down = False
            key, x, y = self._key(event.position().toPoint())
            self.released.emit(key, x, y)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def point_of(self, key) -> "QPointF | None":
        """Viewport position of a hex centre (for tests and drops)."""
        scene = self.scene()
        if not isinstance(scene, QtHexScene) or key not in scene.centres:
            return None
        x, y = scene.centres[key]
        return self.mapFromScene(QPointF(x, y))


class QtMiniMap(QWidget):
    """The whole board small, with the main view's visible area outlined; a click (or drag) centres the view.

    The board is rendered once into a pixmap (again, debounced, when the scene changes), so the minimap costs
    nothing while the user pans."""

    SIZE = 170

    def __init__(self, view: QtMapView):
        super().__init__(view.viewport())
        self.view = view
        self.pixmap: QPixmap | None = None
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Minimap: click to go there")
        self._timer = QTimer(self, singleShot=True, interval=400)
        self._timer.timeout.connect(self.refresh)
        self._scene = None

    def sizeHint(self) -> QSize:
        rect = self._board()
        if rect.width() <= 0 or rect.height() <= 0:
            return QSize(self.SIZE, self.SIZE // 2)
        k = self.SIZE / max(rect.width(), rect.height())
        return QSize(max(40, int(rect.width() * k)), max(30, int(rect.height() * k)))

    def _board(self) -> QRectF:
        scene = self.view.scene()
        return scene.board_rect if isinstance(scene, QtHexScene) else QRectF()

    def refresh(self) -> None:
        """Re-render the board (after a rebuild or edits)."""
        scene = self.view.scene()
        if scene is not self._scene and scene is not None:
            self._scene = scene
            scene.changed.connect(lambda _: self._timer.start() if not self.isHidden() else None)
        if not isinstance(scene, QtHexScene) or self.isHidden():
            return
        size = self.sizeHint()
        self.resize(size)
        pixmap = QPixmap(size)
        pixmap.fill(QColor(70, 74, 80))
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        labels = scene.labels_item
        if labels is not None:
            labels.setVisible(False)
        scene.render(painter, QRectF(0, 0, size.width(), size.height()), self._board())
        if labels is not None:
            labels.setVisible(True)
        painter.end()
        self.pixmap = pixmap
        self.view._place_overlays()
        self.update()

    def _k(self) -> float:
        rect = self._board()
        return self.width() / rect.width() if rect.width() > 0 else 1.0

    def visible_rect(self) -> QRectF:
        """The main view's visible area in minimap pixels."""
        board, k = self._board(), self._k()
        r = self.view.visible_scene_rect()
        return QRectF((r.left() - board.left()) * k, (r.top() - board.top()) * k, r.width() * k, r.height() * k)

    def scene_point(self, x: float, y: float) -> QPointF:
        board, k = self._board(), self._k()
        return QPointF(board.left() + x / k, board.top() + y / k)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        if self.pixmap is not None:
            painter.drawPixmap(0, 0, self.pixmap)
        painter.setPen(QPen(QColor("#ffffff"), 1))
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))
        painter.setPen(QPen(QColor("#ffd000"), 2))
        painter.drawRect(self.visible_rect().intersected(QRectF(self.rect())))
        painter.end()

    def mousePressEvent(self, event) -> None:
        self._go(event.position())

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._go(event.position())

    def _go(self, pos) -> None:
        self.view._user_zoomed = True
        self.view.centerOn(self.scene_point(pos.x(), pos.y()))
        self.update()
