"""The measured-table editor (``map`` documents with ``table:``): a QGraphicsView of the table in inches.

Tools (toolbar, keys): Select/edit (S: drag a feature's vertex handles, drag a feature to move it; the side
panel sets its height, cover and water depth), Ford (F: click a stream to put a ford of the chosen depth on it),
Draw (D: click
points, double-click or Enter to finish; the stamp gives terrain, shape and fixed width), Unit (U: click to place
a unit of the chosen card and side; drag a unit to move it, Alt- or right-drag to turn it), Ruler (R: drag),
LOS (L: drag from eye to target: every obstacle crossed with its length, faces, cover, and the ruleset's
modifiers), Template (T: click to lay a circle of the chosen radius or a 90-degree arc; Escape clears them and
any unfinished drawing). Snap 1/4", 1/8" or free;
inches or metric. Every gesture is one undo step (one ``apply`` on release). Units go to a set-up document
(a ``position``: x, y in inches, facing in degrees), by default an unsaved one named after the map; "Save set-up"
(Ctrl+Shift+S) writes it, atomically, as a position document of the scenario chosen in the Scenario box (the
project's scenarios played on this table) and says whether it sets up in that scenario.

Entry point for the window: :func:`open_table_editor` (the editor for ``map`` documents whose data has ``table``).
"""
from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QKeySequence, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFormLayout, QGraphicsEllipseItem, QGraphicsPathItem,
                               QGraphicsScene, QGraphicsView, QHBoxLayout, QLabel, QListWidget, QSplitter, QToolBar,
                               QToolButton, QVBoxLayout, QWidget)

from studio.document.document import EditableDocument
from studio.geometry import footprint
from studio.qt.table import logic as L

from .base import QtEditor, tool_actions

PX = 20.0  # scene units per inch
TOOLS = (("select", "Select/edit", "S"), ("draw", "Draw", "D"), ("ford", "Ford", "F"), ("unit", "Unit", "U"),
         ("ruler", "Ruler", "R"), ("los", "LOS", "L"), ("template", "Template", "T"))
#: feature properties the side panel edits: key, label, maximum (inches or cover points)
PROPERTIES = (("height_in", "Height (in)", 12.0), ("cover", "Cover", 20.0), ("depth_in", "Water depth (in)", 12.0))


def open_table_editor(session, doc, parent=None) -> "QtTableEditor":
    """The window's entry point for measured tables."""
    return QtTableEditor(session, doc, parent)


class TableView(QGraphicsView):
    """Zoom with the wheel, pan with the middle button; left/right gestures go to the editor in table inches."""

    pressed = Signal(float, float, object, object)   # x, y, button, modifiers
    dragged = Signal(float, float)
    released = Signal(float, float)
    finished = Signal()
    cancelled = Signal()

    def __init__(self, scene: QGraphicsScene, depth: float):
        super().__init__(scene)
        self.depth = depth
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self._pan = None

    def to_table(self, pos) -> tuple[float, float]:
        p = self.mapToScene(pos)
        return p.x() / PX, self.depth - p.y() / PX

    def from_table(self, x: float, y: float):
        return self.mapFromScene(QPointF(x * PX, (self.depth - y) * PX))

    def fit(self) -> None:
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def wheelEvent(self, event) -> None:
        f = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        self.scale(f, f)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.MiddleButton:
            self._pan = event.position()
            return
        self.pressed.emit(*self.to_table(event.position().toPoint()), event.button(), event.modifiers())

    def mouseMoveEvent(self, event) -> None:
        if self._pan is not None:
            d = event.position() - self._pan
            self._pan = event.position()
            self.horizontalScrollBar().setValue(int(self.horizontalScrollBar().value() - d.x()))
            self.verticalScrollBar().setValue(int(self.verticalScrollBar().value() - d.y()))
            return
        if event.buttons():
            self.dragged.emit(*self.to_table(event.position().toPoint()))

    def mouseReleaseEvent(self, event) -> None:
        if self._pan is not None:
            self._pan = None
            return
        self.released.emit(*self.to_table(event.position().toPoint()))

    def mouseDoubleClickEvent(self, event) -> None:
        self.finished.emit()

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finished.emit()
        elif event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
        else:
            super().keyPressEvent(event)


class QtTableEditor(QtEditor):
    def __init__(self, session, doc, parent=None, units_doc: EditableDocument | None = None):
        super().__init__(session, doc, parent)
        t = doc.data.get("table") or {}
        self.width_in = float(t.get("width_in", 72))
        self.depth_in = float(t.get("depth_in", 48))
        self.catalogue = self._catalogue()
        self.units_doc = units_doc or self._scratch_units()
        self._unsub_units = self.units_doc.subscribe(lambda d, c: self.redraw_units())
        self.scene = QGraphicsScene(self)
        self.scene.setSceneRect(QRectF(-PX, -PX, (self.width_in + 2) * PX, (self.depth_in + 2) * PX))
        self.view = TableView(self.scene, self.depth_in)
        self.tool = "select"
        self.selected: int | None = None
        self._points: list[tuple[float, float]] = []
        self._drag: dict | None = None
        self.last_measure: float | None = None
        self.last_los = None
        self.readout_rows: list[tuple[str, str]] = []
        self.templates: list = []
        self._geometry = None                 # TableGeometry of the current table version (LOS tool)
        self._build_ui()
        self.redraw()
        self.view.pressed.connect(self._press)
        self.view.dragged.connect(self._move)
        self.view.released.connect(self._release)
        self.view.finished.connect(self._finish)
        self.view.cancelled.connect(self._cancel)

    # ---------------------------------------------------------------- set-up
    def _catalogue(self) -> dict:
        rs = self.session.data_of("ruleset", self.doc.data.get("ruleset")) if self.doc.data.get("ruleset") else None
        out = {}
        for t in (rs or {}).get("terrain", []) if isinstance(rs, dict) else []:
            if isinstance(t, dict) and isinstance(t.get("id"), str):
                out[t["id"]] = t
        return out

    def _scratch_units(self) -> EditableDocument:
        mid = self.doc.data.get("id") or "table"
        root = getattr(self.session, "root", None)
        path = Path(root or ".") / "positions" / f"{mid}-setup.yaml"
        data = {"kind": "position", "schema_version": 1, "id": f"{mid}-setup", "name": f"Set-up on {mid}",
                "scenario": "", "units": []}
        return EditableDocument(path, data, path.name, root)

    def _build_ui(self) -> None:
        self.toolbar = QToolBar("Table tools")
        self.tool_actions = tool_actions(self, self.toolbar, TOOLS, self.set_tool, "select")
        self.options = QToolBar("Table options")
        self.stamp_box = QComboBox()
        for s in L.STAMPS:
            self.stamp_box.addItem(s.name, s.name)
        self.snap_box = QComboBox()
        self.snap_box.addItems(list(L.SNAPS))
        self.units_box = QComboBox()
        self.units_box.addItems(["inches", "metric"])
        self.units_box.currentIndexChanged.connect(lambda _i: self._refresh_readout())
        self.card_box = QComboBox()
        for card in self._cards():
            self.card_box.addItem(card, card)
        self.side_box = QComboBox()
        self.side_box.addItems(["nato", "warpac"])
        self.radius_box = QDoubleSpinBox()
        self.radius_box.setRange(0.25, 24.0)
        self.radius_box.setSingleStep(0.25)
        self.radius_box.setValue(3.0)
        self.template_box = QComboBox()
        self.template_box.addItems(["circle", "arc"])
        self.scenario_box = QComboBox()
        for sid in self._scenarios():
            self.scenario_box.addItem(sid, sid)
        for label, w in (("Stamp", self.stamp_box), ("Snap", self.snap_box), ("Units", self.units_box),
                         ("Card", self.card_box), ("Side", self.side_box), ("Radius", self.radius_box),
                         ("Template", self.template_box)):
            self.options.addWidget(QLabel(f" {label} "))
            self.options.addWidget(w)
        self.save_setup_action = QAction("Save set-up", self)
        self.save_setup_action.setShortcut(QKeySequence("Ctrl+Shift+S"))
        self.save_setup_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.save_setup_action.setToolTip("Save the units placed as a position document (Ctrl+Shift+S)")
        self.save_setup_action.triggered.connect(lambda _=False: self.save_setup())
        self.addAction(self.save_setup_action)
        self.readout = QListWidget()
        self.status = QLabel("")
        side = QWidget()
        panel = QFormLayout(side)
        save = QToolButton()
        save.setDefaultAction(self.save_setup_action)
        panel.addRow("Set-up of", self.scenario_box)
        panel.addRow("", save)
        self.prop_boxes: dict[str, QDoubleSpinBox] = {}
        for key, label, top in PROPERTIES:
            box = QDoubleSpinBox()
            box.setRange(0.0, top)
            box.setSingleStep(0.05 if key != "cover" else 1.0)
            box.setDecimals(2 if key != "cover" else 0)
            box.setEnabled(False)
            box.editingFinished.connect(lambda k=key: self.set_property(k, self.prop_boxes[k].value()))
            panel.addRow(label, box)
            self.prop_boxes[key] = box
        self.ford_depth = QDoubleSpinBox()
        self.ford_depth.setRange(0.0, 6.0)
        self.ford_depth.setSingleStep(0.05)
        self.ford_depth.setValue(0.25)
        panel.addRow("Ford depth (in)", self.ford_depth)
        panel.addRow(self.readout)
        split = QSplitter()
        split.addWidget(self.view)
        split.addWidget(side)
        split.setSizes([800, 260])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bars = QHBoxLayout()
        bars.addWidget(self.toolbar)
        bars.addWidget(self.options)
        layout.addLayout(bars)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)

    def _scenarios(self) -> list[str]:
        """The project's scenarios played on this table (their first board is this map)."""
        index = self.session.current_index()
        mid = self.doc.data.get("id")
        out = []
        for sid in index.ids("scenario"):
            sc = index.model("scenario", sid)
            boards = getattr(sc, "boards", None) or []
            if boards and getattr(boards[0], "map", None) == mid:
                out.append(sid)
        return sorted(out)

    # ---------------------------------------------------------------- set-up document
    def save_setup(self, path: Path | None = None) -> Path | None:
        """Write the units placed as a ``position`` of the chosen scenario (turn 1, command step), atomically, to
        ``path`` (default: the set-up document's own path); report in the status line whether it sets up in the
        scenario. Returns the path written, or None when nothing could be written (no scenario, I/O error)."""
        scenario = self.scenario_box.currentData()
        if not scenario:
            self._say("No scenario of this project is played on this table: a set-up needs one")
            return None
        data = self.units_doc.data
        fills = [(key, value) for key, value in (("scenario", scenario), ("turn", 1), ("phase", "command"))
                 if data.get(key) != value and not (key != "scenario" and key in data)]
        if fills:
            from studio.document.ops import Set

            self.units_doc.apply("Set-up scenario", [Set(f"/{k}", v) for k, v in fills])
        try:
            written = self.units_doc.save(path)
        except (OSError, ValueError) as exc:
            self._say(f"Set-up not saved: {exc}")
            return None
        self._say(f"Saved {written.name}: {self._setup_check(written)}")
        return written

    def _setup_check(self, path: Path) -> str:
        """Whether the saved position sets up in its scenario, in words (the first problem if not)."""
        from studio.rules.position import PositionError, load_position

        root = getattr(self.session, "root", None)
        try:
            load_position(path, root)
        except PositionError as exc:
            first = exc.diagnostics[0].format_text() if getattr(exc, "diagnostics", None) else str(exc)
            return f"it does not set up yet: {first}"
        return f"sets up in scenario '{self.units_doc.data.get('scenario')}'"

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status_message.emit(text)

    def _cards(self) -> list[str]:
        index = self.session.current_index()
        rs = self.doc.data.get("ruleset")
        return sorted(u for u in index.ids("unit") if getattr(index.model("unit", u), "ruleset", None) == rs)

    # ---------------------------------------------------------------- state helpers
    @property
    def metric(self) -> bool:
        return self.units_box.currentText() == "metric"

    @property
    def step(self) -> float:
        return L.SNAPS[self.snap_box.currentText()]

    def stamp(self) -> L.Stamp:
        return L.STAMPS[max(0, self.stamp_box.currentIndex())]

    def features(self) -> list:
        return list((self.doc.data.get("table") or {}).get("features", []))

    def units(self) -> list:
        return list(self.units_doc.data.get("units") or [])

    def set_tool(self, name: str) -> None:
        self.tool = name
        self._points = []
        self.tool_actions[name].setChecked(True)
        self.status_message.emit(f"Tool: {name}")

    def on_document_changed(self, change) -> None:
        self._geometry = None                 # the table changed: its geometry is built again on the next LOS
        self.redraw()
        self._show_properties()

    def dispose(self) -> None:
        self._unsub_units()
        super().dispose()

    # ---------------------------------------------------------------- drawing
    def _scene_pt(self, x: float, y: float) -> QPointF:
        return QPointF(x * PX, (self.depth_in - y) * PX)

    def _poly(self, coords) -> QPolygonF:
        return QPolygonF([self._scene_pt(x, y) for x, y in coords])

    def colour(self, terrain: str) -> QColor:
        c = self.catalogue.get(terrain, {}).get("colour")
        return QColor(c if isinstance(c, str) else "#c0c0c0")

    def redraw(self) -> None:
        self.scene.clear()
        self._line_item = None
        self.feature_items: list = []
        self.handles: list = []
        self.unit_items: list = []
        self.scene.addRect(QRectF(0, 0, self.width_in * PX, self.depth_in * PX), QPen(QColor("#000000"), 1.5),
                           QBrush(QColor("#ece8c8")))
        for h in (self.doc.data.get("table") or {}).get("elevations", []):
            if isinstance(h, dict) and len(h.get("points", [])) >= 3:
                self.scene.addPolygon(self._poly(h["points"]), QPen(QColor("#6a4a20"), 1, Qt.PenStyle.DashLine),
                                      QBrush(QColor(120, 90, 40, 40)))
        self._grid()
        for i, f in enumerate(self.features()):
            self.feature_items.append(self._feature(i, f))
        if self.selected is not None and self.selected < len(self.features()):
            self._handles(self.features()[self.selected])
        self.redraw_units()
        self._overlays()

    def _grid(self) -> None:
        thin, thick = QPen(QColor(150, 150, 150, 70), 0), QPen(QColor(110, 110, 110, 140), 0)
        for i in range(int(self.width_in) + 1):
            self.scene.addLine(i * PX, 0, i * PX, self.depth_in * PX, thick if i % 6 == 0 else thin)
        for j in range(int(self.depth_in) + 1):
            self.scene.addLine(0, j * PX, self.width_in * PX, j * PX, thick if j % 6 == 0 else thin)

    def _feature(self, i: int, f: dict):
        from studio.model.table import TableFeature, feature_geometry

        try:
            geom = feature_geometry(TableFeature.model_validate(f))
        except Exception:  # noqa: BLE001 - an invalid feature is drawn as its raw points (the checks report it)
            geom = None
        path = QPainterPath()
        if geom is not None and not geom.is_empty and hasattr(geom, "exterior"):
            path.addPolygon(self._poly(geom.exterior.coords))
        elif f.get("points"):
            path.addPolygon(self._poly([p for p in f["points"] if len(p) == 2]))
        item = QGraphicsPathItem(path)
        colour = self.colour(f.get("terrain", ""))
        colour.setAlpha(210)
        item.setBrush(QBrush(colour))
        hidden = bool(f.get("hidden_from"))
        item.setPen(QPen(QColor("#c00000" if hidden else "#303030"), 1.5 if i == self.selected else 0.8,
                         Qt.PenStyle.DashLine if hidden else Qt.PenStyle.SolidLine))
        item.setZValue(2 if f.get("shape") == "polygon" else 3)
        item.setData(0, i)
        self.scene.addItem(item)
        for ford in f.get("fords") or []:
            try:
                c, r = self._scene_pt(*ford["at"]), float(ford.get("width_in", 1.0)) * PX / 2
            except (KeyError, TypeError, ValueError):
                continue
            mark = self.scene.addEllipse(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r), QPen(QColor("#1f4f8f"), 1.5),
                                         QBrush(QColor("#c8ddf0")))
            mark.setZValue(4)
        return item

    def _handles(self, f: dict) -> None:
        for k, p in enumerate(f.get("points", [])):
            if len(p) != 2:
                continue
            c = self._scene_pt(*p)
            h = self.scene.addRect(QRectF(c.x() - 3, c.y() - 3, 6, 6), QPen(QColor("#000000")), QBrush(QColor("#ffffff")))
            h.setZValue(10)
            self.handles.append((k, h))

    def redraw_units(self) -> None:
        for it in getattr(self, "unit_items", []):
            if it.scene() is self.scene:
                self.scene.removeItem(it)
        self.unit_items = []
        index = self.session.current_index()
        for i, u in enumerate(self.units()):
            try:
                x, y, facing = float(u["x"]), float(u["y"]), float(u.get("facing") or 0)
            except (KeyError, TypeError, ValueError):
                continue
            body = getattr(index.model("unit", u.get("card", "")), "body", None)
            base = getattr(body, "base", None)
            w, ln = (base.width_in, base.length_in) if base is not None else (0.5, 0.8)
            poly = footprint(x, y, facing, w, ln)
            item = self.scene.addPolygon(self._poly(poly.exterior.coords), QPen(QColor("#000000"), 1),
                                         QBrush(QColor("#3060c0" if u.get("side") == "nato" else "#c03030")))
            item.setZValue(8)
            nose = self._scene_pt(x + math.sin(math.radians(facing)) * ln * 0.7,
                                  y + math.cos(math.radians(facing)) * ln * 0.7)
            line = self.scene.addLine(self._scene_pt(x, y).x(), self._scene_pt(x, y).y(), nose.x(), nose.y(),
                                      QPen(QColor("#ffffff"), 2))
            line.setZValue(9)
            self.unit_items += [item, line]

    def _overlays(self) -> None:
        pen = QPen(QColor("#c00000"), 1.2, Qt.PenStyle.DashLine)
        for kind, (x, y), r in self.templates:
            c = self._scene_pt(x, y)
            if kind == "circle":
                e = QGraphicsEllipseItem(c.x() - r * PX, c.y() - r * PX, 2 * r * PX, 2 * r * PX)
                e.setPen(pen)
                e.setZValue(12)
                self.scene.addItem(e)
            else:
                path = QPainterPath(c)
                for a in range(-45, 46, 5):
                    path.lineTo(self._scene_pt(x + r * math.sin(math.radians(a)), y + r * math.cos(math.radians(a))))
                path.closeSubpath()
                item = self.scene.addPath(path, pen)
                item.setZValue(12)
        if self._points:
            path = QPainterPath(self._scene_pt(*self._points[0]))
            for p in self._points[1:]:
                path.lineTo(self._scene_pt(*p))
            self.scene.addPath(path, QPen(QColor("#0060ff"), 1.5)).setZValue(11)

    # ---------------------------------------------------------------- gestures
    def _snapped(self, x: float, y: float) -> tuple[float, float]:
        return L.snap_point(x, y, self.step, self.width_in, self.depth_in)

    def unit_at(self, x: float, y: float) -> int | None:
        best, dist = None, 0.6
        for i, u in enumerate(self.units()):
            try:
                d = L.distance((x, y), (float(u["x"]), float(u["y"])))
            except (KeyError, TypeError, ValueError):
                continue
            if d < dist:
                best, dist = i, d
        return best

    def handle_at(self, x: float, y: float) -> int | None:
        if self.selected is None or self.selected >= len(self.features()):
            return None
        pts = self.features()[self.selected].get("points", [])
        near = [(L.distance((x, y), p), k) for k, p in enumerate(pts) if len(p) == 2]
        near = [n for n in near if n[0] <= 0.3]
        return min(near)[1] if near else None

    def feature_at(self, x: float, y: float) -> int | None:
        items = self.scene.items(self._scene_pt(x, y))
        for it in items:
            if isinstance(it, QGraphicsPathItem) and it.data(0) is not None:
                return int(it.data(0))
        return None

    def _press(self, x: float, y: float, button, modifiers) -> None:
        rotate = button == Qt.MouseButton.RightButton or bool(modifiers & Qt.KeyboardModifier.AltModifier)
        handler = {"select": self._press_select, "draw": self._press_draw, "ford": self._press_ford,
                   "unit": self._press_unit,
                   "ruler": self._press_measure, "los": self._press_measure,
                   "template": self._press_template}[self.tool]
        handler(x, y, rotate)

    def _press_select(self, x, y, rotate) -> None:
        u = self.unit_at(x, y)
        if u is not None:
            self._drag = {"kind": "rotate" if rotate else "unit", "index": u, "at": (x, y)}
            return
        k = self.handle_at(x, y)
        if k is not None:
            self._drag = {"kind": "vertex", "index": self.selected, "k": k, "at": (x, y)}
            return
        self.selected = self.feature_at(x, y)
        self._drag = {"kind": "feature", "index": self.selected, "at": (x, y)} if self.selected is not None else None
        self.redraw()
        self._show_properties()
        if self.selected is not None:
            f = self.features()[self.selected]
            self.inspect.emit(f.get("id", ""), [(k, str(v)) for k, v in f.items() if k != "points"])

    def _press_ford(self, x, y, rotate) -> None:
        """Ford tool: a ford of the chosen depth on the water line clicked (its nearest point on the line)."""
        i = self.feature_at(x, y)
        f = self.features()[i] if i is not None else None
        if f is None or f.get("shape") != "polyline" or f.get("depth_in") is None:
            self.status_message.emit("Click a stream (a polyline with a water depth) to put a ford on it")
            return
        op = L.add_ford_op(f, i, (x, y), self.ford_depth.value())
        if op is not None:
            self.apply("Add ford", [op])

    def set_property(self, key: str, value: float) -> None:
        """Set a property of the selected feature (one undo step); 0 height/depth keeps the field."""
        if self.selected is None or self.selected >= len(self.features()):
            return
        f = self.features()[self.selected]
        value = int(value) if key == "cover" else round(value, 3)
        if f.get(key) != value:
            self.apply(f"Set {key}", [L.Set(f"/table/features/{self.selected}/{key}", value)])

    def _show_properties(self) -> None:
        f = self.features()[self.selected] if self.selected is not None and self.selected < len(self.features()) \
            else None
        for key, box in self.prop_boxes.items():
            box.blockSignals(True)
            box.setEnabled(f is not None)
            box.setValue(float(f.get(key) or 0.0) if f is not None else 0.0)
            box.blockSignals(False)

    def _press_draw(self, x, y, rotate) -> None:
        s = self.stamp()
        self._points.append(self._snapped(x, y))
        if s.shape in ("circle", "point"):
            self._finish()
        else:
            self.redraw()

    def _press_unit(self, x, y, rotate) -> None:
        u = self.unit_at(x, y)
        if u is not None:
            self._drag = {"kind": "rotate" if rotate else "unit", "index": u, "at": (x, y)}
            return
        card = self.card_box.currentData()
        if not card:
            self.status_message.emit("No unit card of this ruleset to place")
            return
        sx, sy = self._snapped(x, y)
        self.units_doc.apply("Place unit", [L.place_unit_op(self.units(), card, self.side_box.currentText(),
                                                            sx, sy, 0.0 if self.side_box.currentText() == "nato"
                                                            else 180.0)])

    def _press_measure(self, x, y, rotate) -> None:
        u = self.unit_at(x, y)
        start = (float(self.units()[u]["x"]), float(self.units()[u]["y"])) if u is not None else (x, y)
        self._drag = {"kind": self.tool, "at": start}

    def _press_template(self, x, y, rotate) -> None:
        self.templates.append((self.template_box.currentText(), self._snapped(x, y), self.radius_box.value()))
        self.redraw()

    def _move(self, x: float, y: float) -> None:
        if self._drag and self._drag["kind"] in ("ruler", "los"):
            self.measure(self._drag["at"], (x, y), preview=True)

    def _release(self, x: float, y: float) -> None:
        drag, self._drag = self._drag, None
        if not drag:
            return
        kind = drag["kind"]
        if kind == "vertex":
            self.apply("Move vertex", [L.move_vertex_op(drag["index"], drag["k"], self._snapped(x, y))])
        elif kind == "feature" and L.distance(drag["at"], (x, y)) > 0.05:
            f = self.features()[drag["index"]]
            dx, dy = x - drag["at"][0], y - drag["at"][1]
            self.apply("Move feature", L.move_feature_ops(f, drag["index"], dx, dy, self.step))
        elif kind == "unit" and L.distance(drag["at"], (x, y)) > 0.05:
            self.units_doc.apply("Move unit", L.move_unit_ops(drag["index"], *self._snapped(x, y)))
        elif kind == "rotate":
            u = self.units()[drag["index"]]
            self.units_doc.apply("Turn unit", [L.rotate_unit_op(drag["index"], u, x, y)])
        elif kind in ("ruler", "los"):
            u = self.unit_at(x, y)
            end = (float(self.units()[u]["x"]), float(self.units()[u]["y"])) if u is not None else (x, y)
            self.measure(drag["at"], end)

    def _cancel(self) -> None:
        """Escape: drop the points of an unfinished drawing, the templates and the ruler line."""
        self._points, self.templates = [], []
        self.redraw()

    def _finish(self) -> None:
        if self.tool != "draw" or not self._points:
            self._points = []
            return
        s = self.stamp()
        need = {"polygon": 3, "polyline": 2}.get(s.shape, 1)
        pts, self._points = self._points, []
        if len(pts) >= need:
            self.apply(f"Draw {s.name}", [L.add_feature_op(self.doc.data, s, pts)])
        else:
            self.status_message.emit(f"A {s.shape} needs {need} points")
            self.redraw()

    # ---------------------------------------------------------------- ruler and LOS
    def measure(self, a, b, preview: bool = False) -> None:
        """Ruler: the distance; LOS: the obstacle list (cover, faces, length inside) and the ruleset's modifiers."""
        self.last_measure = L.distance(a, b)
        self._measure_line(a, b, None)
        rows = [("Ruler", L.fmt_length(self.last_measure, self.metric))]
        if self.tool == "los" and not preview:
            los = self.compute_los(a, b)
            if los is not None:
                self.last_los = los
                rows = L.los_rows(los, self.metric) + self._modifier_rows(los)
                self._measure_line(a, b, los.clear)
        self.readout_rows = rows
        self._refresh_readout()
        self.status_message.emit("; ".join(f"{k}: {v}" for k, v in rows[:2]))

    def _measure_line(self, a, b, clear: bool | None) -> None:
        """The ruler or sight line on the view: blue for a ruler, green clear, red blocked."""
        old = getattr(self, "_line_item", None)
        if old is not None and old.scene() is self.scene:
            self.scene.removeItem(old)
        colour = "#0060ff" if clear is None else ("#008000" if clear else "#d00000")
        pa, pb = self._scene_pt(*a), self._scene_pt(*b)
        self._line_item = self.scene.addLine(pa.x(), pa.y(), pb.x(), pb.y(), QPen(QColor(colour), 2))
        self._line_item.setZValue(13)

    def compute_los(self, a, b, eye: float = 0.35, target: float = 0.35):
        """The sight line on the table's geometry, built once per table version (every edit drops it)."""
        from studio.model.table import MeasuredTable, table_geometry

        if self._geometry is None:
            try:
                table = MeasuredTable.model_validate(self.doc.data.get("table"))
            except Exception:  # noqa: BLE001 - invalid table: the checks say why
                self.status_message.emit("LOS needs a valid table (see Problems)")
                return None
            terrain = {tid: {"blocks": bool((t.get("los") or {}).get("blocks"))} for tid, t in self.catalogue.items()}
            self._geometry = table_geometry(table, terrain)
        return self._geometry.los(a[0], a[1], b[0], b[1], eye, target)

    def _modifier_rows(self, los) -> list[tuple[str, str]]:
        from studio.model.registry import load_plugins, plugin

        load_plugins()
        plug = plugin(self.doc.data.get("ruleset") or "")
        hook = plug.extras.get("table_los_modifiers") if plug is not None else None
        if hook is None:
            return []
        rs = self.session.model_of("ruleset", self.doc.data.get("ruleset"))
        try:
            return list(hook(los, rs))
        except Exception as exc:  # noqa: BLE001 - a plugin bug must not break the editor
            return [("Modifiers", f"not available ({type(exc).__name__})")]

    def _refresh_readout(self) -> None:
        if self.tool == "los" and self.last_los is not None and self.readout_rows[:1] != [("Ruler", "")]:
            if self.readout_rows and self.readout_rows[0][0] == "Range":
                self.readout_rows = L.los_rows(self.last_los, self.metric) + self._modifier_rows(self.last_los)
        if self.last_measure is not None and self.readout_rows and self.readout_rows[0][0] in ("Ruler", "Range"):
            self.readout_rows[0] = (self.readout_rows[0][0], L.fmt_length(self.last_measure, self.metric))
        self.readout.clear()
        for k, v in self.readout_rows:
            self.readout.addItem(f"{k}: {v}")
