"""A measured table drawn in a QGraphicsScene (inches, y up the table): terrain features, elevations, fords,
a scenario's deployment zones, objectives and placements, and units as their bases (position and facing).

Used where a table is shown rather than edited: the replay viewer (``replay_scene``) and the scenario editor's
preview of a Battlefield Ops! scenario. The table editor keeps its own editable drawing.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsScene, QGraphicsView

PX = 20.0  # scene units per inch
SIDE_COLOURS = ["#1f5fd6", "#d62828", "#2a9d3a", "#9b30c8"]
GROUND = "#ece8c8"


def side_colour(side: int) -> QColor:
    return QColor(SIDE_COLOURS[side % len(SIDE_COLOURS)])


class TableScene(QGraphicsScene):
    """The table in scene units (``PX`` per inch, y flipped so the near edge is at the bottom). Layers
    (``units``, ``marks``, ``shot``) are replaced as a whole; the table and the scenario stay."""

    def __init__(self, width_in: float, depth_in: float, colours=None, parent=None):
        super().__init__(parent)
        self.width_in, self.depth_in = float(width_in), float(depth_in)
        self.colours = colours or (lambda terrain: "#a0a0a0")
        self.layers: dict[str, list] = {}
        self.setSceneRect(QRectF(-PX, -PX, (self.width_in + 2) * PX, (self.depth_in + 2) * PX))
        self.addRect(QRectF(0, 0, self.width_in * PX, self.depth_in * PX), QPen(QColor("#000000"), 1.5),
                     QBrush(QColor(GROUND)))

    # ------------------------------------------------------------------ coordinates
    def pt(self, x: float, y: float) -> QPointF:
        return QPointF(x * PX, (self.depth_in - y) * PX)

    def poly(self, coords) -> QPolygonF:
        return QPolygonF([self.pt(float(c[0]), float(c[1])) for c in coords])

    # ------------------------------------------------------------------ the table
    def draw_table(self, table: dict, extra_features=()) -> None:
        """Elevations, then features (a table's ``features`` and e.g. a scenario's prepared works), with fords;
        a feature hidden from a side gets a dashed red outline."""
        for h in table.get("elevations") or []:
            if isinstance(h, dict) and len(h.get("points") or []) >= 3:
                item = self.addPolygon(self.poly(h["points"]), QPen(QColor("#6a4a20"), 1, Qt.PenStyle.DashLine),
                                       QBrush(QColor(120, 90, 40, 40)))
                item.setZValue(1)
        for f in [*(table.get("features") or []), *extra_features]:
            if isinstance(f, dict):
                self._feature(f)

    def _feature(self, f: dict) -> None:
        from studio.model.table import TableFeature, feature_geometry

        try:
            geom = feature_geometry(TableFeature.model_validate(f))
        except Exception:  # noqa: BLE001 - an invalid feature is drawn as its raw points (the checks report it)
            geom = None
        path = QPainterPath()
        for ring in _rings(geom):
            path.addPolygon(self.poly(ring))
        if path.isEmpty() and f.get("points"):
            path.addPolygon(self.poly([p for p in f["points"] if isinstance(p, list) and len(p) == 2]))
        item = QGraphicsPathItem(path)
        colour = QColor(self.colours(str(f.get("terrain", ""))))
        colour.setAlpha(210)
        item.setBrush(QBrush(colour))
        hidden = bool(f.get("hidden_from"))
        item.setPen(QPen(QColor("#c00000" if hidden else "#303030"), 0.8,
                         Qt.PenStyle.DashLine if hidden else Qt.PenStyle.SolidLine))
        item.setZValue(2 if f.get("shape") == "polygon" else 3)
        item.setToolTip(f"{f.get('id', '')} ({f.get('terrain', '')})")
        self.addItem(item)
        for ford in f.get("fords") or []:
            try:
                c, r = self.pt(*ford["at"]), float(ford.get("width_in", 1.0)) * PX / 2
            except (KeyError, TypeError, ValueError):
                continue
            mark = self.addEllipse(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r), QPen(QColor("#1f4f8f"), 1.5),
                                   QBrush(QColor("#c8ddf0")))
            mark.setZValue(4)

    # ------------------------------------------------------------------ a scenario
    def draw_scenario(self, extension: dict, sides: list[str]) -> None:
        """Deployment zones (side colours), objectives (radius and name) and placements (crosses)."""
        self.clear_layer("scenario")
        items = self.layers.setdefault("scenario", [])
        for z in extension.get("deployment") or []:
            rect = z.get("rect") if isinstance(z, dict) else None
            if not (isinstance(rect, list) and len(rect) == 4):
                continue
            colour = side_colour(sides.index(z.get("side")) if z.get("side") in sides else 0)
            fill = QColor(colour)
            fill.setAlpha(45)
            x0, y0, x1, y1 = (float(v) for v in rect)
            item = self.addRect(QRectF(self.pt(x0, y1), self.pt(x1, y0)), QPen(colour, 1.5, Qt.PenStyle.DashLine),
                                QBrush(fill))
            item.setZValue(5)
            item.setToolTip(f"deployment zone: {z.get('side')}")
            items.append(item)
            items.append(self._label(f"{z.get('side')} set-up", x0 + 0.3, y1 - 0.3, colour))
        for o in extension.get("objectives") or []:
            if not (isinstance(o, dict) and isinstance(o.get("at"), list) and len(o["at"]) == 2):
                continue
            c, r = self.pt(*o["at"]), float(o.get("radius_in", 3.0)) * PX
            item = self.addEllipse(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r), QPen(QColor("#7a5a00"), 2),
                                   QBrush(QColor(255, 210, 60, 50)))
            item.setZValue(6)
            item.setToolTip(f"objective {o.get('id')}")
            items.append(item)
            items.append(self._label(f"★ {o.get('name') or o.get('id')}", o["at"][0] - 1.0, o["at"][1] + 0.5,
                                     QColor("#5a4000")))
        for p in extension.get("placements") or []:
            if isinstance(p, dict) and isinstance(p.get("at"), list) and len(p["at"]) == 2:
                c = self.pt(*p["at"])
                for dx, dy in ((-4, -4), (-4, 4)):
                    line = self.addLine(c.x() + dx, c.y() + dy, c.x() - dx, c.y() - dy, QPen(QColor("#000000"), 1.5))
                    line.setZValue(7)
                    items.append(line)

    def _label(self, text: str, x: float, y: float, colour: QColor):
        item = self.addSimpleText(text, QFont("Sans", 9))
        item.setBrush(QBrush(colour))
        item.setPos(self.pt(x, y))
        item.setZValue(8)
        return item

    # ------------------------------------------------------------------ units and marks
    def clear_layer(self, name: str) -> None:
        for item in self.layers.pop(name, []):
            self.removeItem(item)

    def set_units(self, units) -> None:
        """``units``: records with id, side, x, y, facing, width_in, length_in and disabled (a wreck: grey,
        crossed). A base is drawn with a tick toward its facing."""
        from studio.geometry import footprint

        self.clear_layer("units")
        items = self.layers.setdefault("units", [])
        for u in units:
            foot = footprint(u.x, u.y, u.facing, u.width_in, u.length_in)
            colour = QColor("#8a8a8a") if u.disabled else side_colour(u.side)
            item = self.addPolygon(self.poly(foot.exterior.coords), QPen(QColor("#000000"), 0.8), QBrush(colour))
            item.setZValue(10)
            item.setToolTip(f"{u.id} ({u.card})" + (" — disabled" if u.disabled else ""))
            items.append(item)
            a = math.radians(u.facing)                      # degrees clockwise from north (up the table)
            tip = (u.x + math.sin(a) * u.length_in * 0.75, u.y + math.cos(a) * u.length_in * 0.75)
            p0, p1 = self.pt(u.x, u.y), self.pt(*tip)
            tick = self.addLine(p0.x(), p0.y(), p1.x(), p1.y(), QPen(QColor("#ffffff"), 1.5))
            tick.setZValue(11)
            items.append(tick)
            if u.disabled:
                for dx in (-1, 1):
                    line = self.addLine(p0.x() - 5 * dx, p0.y() - 5, p0.x() + 5 * dx, p0.y() + 5,
                                        QPen(QColor("#000000"), 1.5))
                    line.setZValue(11)
                    items.append(line)
            items.append(self._label(u.id, u.x + 0.4, u.y + 0.9, QColor("#000000")))

    def set_marks(self, points: list[tuple[float, float]]) -> None:
        """Rings round the units an action names."""
        self.clear_layer("marks")
        items = self.layers.setdefault("marks", [])
        for x, y in points:
            c, r = self.pt(x, y), 0.9 * PX
            item = self.addEllipse(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r), QPen(QColor("#ff8000"), 2.5))
            item.setZValue(12)
            items.append(item)

    def set_shot(self, a: tuple[float, float] | None, b: tuple[float, float] | None, lost: bool) -> None:
        """The line from firer to target (red when the step cost a unit)."""
        self.clear_layer("shot")
        if a is None or b is None:
            return
        p0, p1 = self.pt(*a), self.pt(*b)
        pen = QPen(QColor("#ff2020" if lost else "#ffaa00"), 2.5,
                   Qt.PenStyle.SolidLine if lost else Qt.PenStyle.DashLine)
        line = self.addLine(p0.x(), p0.y(), p1.x(), p1.y(), pen)
        line.setZValue(13)
        self.layers["shot"] = [line]


class TableGraphicsView(QGraphicsView):
    """A view of a :class:`TableScene`: zoom with the wheel, fitted on resize until zoomed."""

    def __init__(self, scene: TableScene, parent=None):
        super().__init__(scene, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self._zoomed = False

    def fit(self) -> None:
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def wheelEvent(self, event) -> None:
        f = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        self._zoomed = True
        self.scale(f, f)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if not self._zoomed:
            self.fit()


def _rings(geom) -> list:
    """The exterior rings of a polygon or of each part of a multipolygon (empty for anything else)."""
    if geom is None or geom.is_empty:
        return []
    if hasattr(geom, "exterior"):
        return [list(geom.exterior.coords)]
    return [list(g.exterior.coords) for g in getattr(geom, "geoms", ()) if hasattr(g, "exterior")]


def terrain_colours(index, ruleset_id: str):
    """terrain id -> the colour the ruleset's catalogue gives it (grey when unknown)."""
    ruleset = index.get("ruleset", ruleset_id) if index is not None else None
    data = ruleset.data if ruleset is not None and isinstance(ruleset.data, dict) else {}
    colours = {str(t.get("id")): str(t.get("colour")) for t in data.get("terrain") or []
               if isinstance(t, dict) and t.get("colour")}
    return lambda terrain: colours.get(terrain, "#a0a0a0")
