"""Hex map editor: terrain and elevation brushes (sizes 1/2/3), fill, hexside, road and label tools, and a
line-of-sight tool, on a zoomable QGraphicsView. One mouse gesture (press..release) is one undo step. An
assembly preview draws another board beside this one (east or south, optionally turned 180 degrees) as a
scenario would assemble them, to match geomorphic edges; scenarios store assemblies.

Tools turn gestures into ``studio.document.mapedit`` ops; the view is redrawn from the document on every change
(so undo/redo need no special handling). The terrain catalogue (codes, colours, LOS heights) comes from the
map's ruleset document; codes missing from it are still drawn with a stable colour.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QKeySequence, QPixmap
from PySide6.QtWidgets import (QCheckBox, QComboBox, QHBoxLayout, QInputDialog, QLabel, QSpinBox, QToolBar,
                               QVBoxLayout, QWidget)

from studio.document import mapedit
from studio.document.catalogue import Catalogue
from studio.document.geometry import BoardGeometry
from studio.document.los import line_of_sight
from studio.model.pointers import split

from ..map_view import QtHexScene, QtMapView, shaded
from .base import QtEditor, tool_actions

TOOLS = [
    ("terrain", "Terrain brush", "T"),
    ("elevation", "Elevation brush", "E"),
    ("fill", "Fill", "F"),
    ("hexside", "Hexside", "H"),
    ("road", "Road / path", "R"),
    ("label", "Label", "L"),
    ("los", "Line of sight", "S"),
]


def swatch(colour: str) -> QIcon:
    pix = QPixmap(14, 14)
    pix.fill(QColor(colour))
    return QIcon(pix)


class QtMapEditor(QtEditor):
    def __init__(self, session, doc, parent=None):
        super().__init__(session, doc, parent)
        self.geometry = BoardGeometry(doc.data)
        self.catalogue = self._load_catalogue()
        self._shade: dict[tuple[str, int], str] = {}
        self.scene = QtHexScene(self.geometry, self.colour_of, self)
        self.view = QtMapView(self.scene)
        self.tool = "terrain"
        self._stroke_last = None
        self._path: list = []
        self._los_from = None
        self.last_los = None
        self._hovered = None
        self._build_ui()
        self.redraw_layers()
        self.update_legend()
        from PySide6.QtGui import QShortcut
        for keys, slot in ((QKeySequence.StandardKey.Copy, self.copy_hex), (QKeySequence.StandardKey.Paste,
                                                                             self.paste_hex)):
            shortcut = QShortcut(QKeySequence(keys), self.view)
            shortcut.activated.connect(lambda s=slot: s())
        self.view.show_minimap(True)
        self.view.hovered.connect(self._hover)
        self.view.pressed.connect(self._press)
        self.view.dragged.connect(self._drag)
        self.view.released.connect(self._release)

    # ---------------------------------------------------------------- setup
    def _load_catalogue(self) -> Catalogue:
        ruleset = self.doc.data.get("ruleset")
        data = self.session.data_of("ruleset", ruleset) if isinstance(ruleset, str) else None
        return Catalogue.from_ruleset(data)

    def _build_ui(self) -> None:
        self.toolbar = QToolBar("Map tools")
        self.tool_actions = tool_actions(self, self.toolbar, TOOLS, self.set_tool, "terrain")
        self.options = QToolBar("Map tool options")
        self.brush_size = QComboBox()
        self.brush_size.addItems(["1", "2", "3"])
        self.brush_size.setToolTip("Brush size (hexes across the centre: 1, 7 or 19 hexes)")
        self.terrain_box = QComboBox()
        codes = list(self.catalogue.terrain) or sorted({self.geometry.terrain(k) for k in self.geometry.keys()} - {""})
        for code in codes:
            self.terrain_box.addItem(swatch(self.catalogue.colour_of(code)), f"{code}  {self.catalogue.name_of(code)}"
                                     if code in self.catalogue.terrain else code, code)
        self.level_box = QSpinBox()
        self.level_box.setRange(self.catalogue.elevation_min, max(self.catalogue.elevation_max, 9))
        self.level_box.setPrefix("level ")
        self.feature_box = QComboBox()
        for fid, feature in self.catalogue.hexside_features.items():
            self.feature_box.addItem(swatch(feature.colour), feature.name, fid)
        if not self.catalogue.hexside_features:
            self.feature_box.addItem("stream", "stream")
        self.road_box = QComboBox()
        for rid, road in self.catalogue.road_types.items():
            self.road_box.addItem(swatch(road.colour), road.name, rid)
        if not self.catalogue.road_types:
            self.road_box.addItem("road", "road")
        for label, widget in (("Size", self.brush_size), ("Terrain", self.terrain_box), ("Elevation", self.level_box),
                              ("Hexside", self.feature_box), ("Road", self.road_box)):
            box = QWidget()
            row = QHBoxLayout(box)
            row.setContentsMargins(4, 0, 4, 0)
            row.addWidget(QLabel(label))
            row.addWidget(widget)
            self.options.addWidget(box)
        self.neighbour_box = QComboBox()
        self.neighbour_box.addItem("(this board only)", None)
        for entry in self.session.entries():
            if entry.kind == "map" and entry.id and entry.id != self.doc.id and entry.ruleset == \
                    self.doc.data.get("ruleset"):
                self.neighbour_box.addItem(entry.id, entry.id)
        self.neighbour_side = QComboBox()
        self.neighbour_side.addItems(["east", "south"])
        self.neighbour_turned = QCheckBox("180°")
        self.neighbour_turned.setToolTip("turn the other board 180 degrees")
        self.neighbour_box.setToolTip("preview another board beside this one (as a scenario would assemble them)")
        self.neighbour_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.neighbour_box.setMinimumContentsLength(9)
        for widget in (self.neighbour_box, self.neighbour_side, self.neighbour_turned):
            signal = widget.toggled if isinstance(widget, QCheckBox) else widget.currentIndexChanged
            signal.connect(lambda *_: self.show_assembly())
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(4, 0, 4, 0)
        row.addWidget(QLabel("Beside"))
        row.addWidget(self.neighbour_box)
        row.addWidget(self.neighbour_side)
        row.addWidget(self.neighbour_turned)
        self.toolbar.addSeparator()
        self.toolbar.addWidget(box)
        self.toolbar.addSeparator()
        fit = self.toolbar.addAction("Fit")
        fit.triggered.connect(self.view.fit)
        self.los_label = QLabel("")
        self.los_label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.options)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.los_label)

    # ---------------------------------------------------------------- drawing
    def colour_of(self, key) -> str:
        code = self.geometry.terrain(key)
        level = self.geometry.elevation(key)
        cached = self._shade.get((code, level))
        if cached is None:
            cached = self._shade[(code, level)] = shaded(self.catalogue.colour_of(code), level)
        return cached

    def redraw_layers(self) -> None:
        board = self.geometry.board
        data = self.doc.data
        by_feature: dict[str, list] = {}
        for entry in data.get("hexsides") or []:
            if not isinstance(entry, dict):
                continue
            cell, d = board.parse(entry.get("hex")), board.side_index(str(entry.get("side", "")))
            if cell is None or d is None:
                continue
            by_feature.setdefault(str(entry.get("feature")), []).append(list(board.side_segment(cell, d)))
        for name in [n for n in list(self.scene._layers) if n.startswith("hexside:")]:
            self.scene.clear_layer(name)
        for fid, segments in by_feature.items():
            feature = self.catalogue.hexside_features.get(fid)
            self.scene.set_polylines(f"hexside:{fid}", segments, feature.colour if feature else "#3060c0",
                                     board.hex_mm * 0.12, z=4)
        for name in [n for n in list(self.scene._layers) if n.startswith("road:")]:
            self.scene.clear_layer(name)
        for i, road in enumerate(data.get("roads") or []):
            if not isinstance(road, dict):
                continue
            cells = [board.parse(h) for h in road.get("hexes") or []]
            points = [board.centre(c) for c in cells if c is not None]
            rtype = self.catalogue.road_types.get(str(road.get("type")))
            self.scene.set_polylines(f"road:{i}", [points], rtype.colour if rtype else "#805020",
                                     board.hex_mm * 0.09, z=4.5)
        texts = []
        for entry in data.get("labels") or []:
            if isinstance(entry, dict) and board.parse(entry.get("hex")) is not None:
                x, y = board.centre(board.parse(entry.get("hex")))
                texts.append((x, y + board.hex_mm * 0.2, str(entry.get("text", ""))))
        self.scene.set_texts("labels", texts, "#101010", board.hex_mm * 0.22)

    def on_document_changed(self, change) -> None:
        rows: set[int] = set()
        full = False
        layers = False
        for pointer in change.pointers:
            parts = split(pointer)
            if not parts or parts[0] in ("hex", "ruleset"):
                full = True
            elif parts[0] in ("terrain", "elevation"):
                if len(parts) >= 2 and parts[1].isdigit() and not change.structural:
                    rows.add(int(parts[1]))
                else:
                    full = True
            elif parts[0] in ("hexsides", "roads", "labels"):
                layers = True
        if full:
            self.geometry.reload(self.doc.data)
            self.catalogue = self._load_catalogue()
            self._shade.clear()
            self.scene.rebuild()
            self.redraw_layers()
            self.update_legend()
            self.view.minimap.refresh()
            return
        if rows:
            changed = self.geometry.reload_rows(rows)
            columns = self.geometry.board.columns
            self.scene.recolour(changed if changed is not None else [(c, r) for r in rows for c in range(columns)])
            self.update_legend()
        if layers:
            self.redraw_layers()

    def update_legend(self) -> None:
        """The terrain legend of the terrain this board uses."""
        from ..map_view import legend_entries
        self.view.set_legend(legend_entries(self.geometry, self.catalogue))

    def show_assembly(self) -> str:
        """Draw the chosen board beside this one, as a geomorphic assembly would place it (read-only preview).

        Returns '' or why the boards do not assemble (shown in the status bar)."""
        self.scene.clear_layer("assembly")
        self.scene.clear_layer("assembly-labels")
        other_id = self.neighbour_box.currentData()
        if not other_id:
            self.scene.set_polygons("assembly", [])
            return ""
        from studio.hexgrid.layout import Layout
        from studio.model.maps import AssemblyError, assemble
        this, _ = self.doc.model()
        other = self.session.model_of("map", other_id)
        if this is None or other is None or this.hex is None or other.hex is None:
            message = "Assembly preview needs both boards valid"
            self.status_message.emit(message)
            return message
        at = (this.hex.columns, 0) if self.neighbour_side.currentText() == "east" else (0, this.hex.rows)
        try:
            amap = assemble([(this, (0, 0), 0), (other, at, 180 if self.neighbour_turned.isChecked() else 0)])
        except AssemblyError as exc:
            self.status_message.emit(f"Boards do not assemble: {exc}")
            return str(exc)
        layout = Layout(flat=this.hex.orientation == "flat", size_mm=this.hex.hex_mm)
        polygons, texts = [], []
        for h, board in amap.board_of.items():
            if board == other_id:
                colour = shaded(self.catalogue.colour_of(amap.terrain.get(h, "")), amap.elevation.get(h, 0))
                polygons.append((layout.corners(h), QColor(colour).lighter(115).name()))
                x, y = layout.to_mm(h)
                texts.append((x, y - this.hex.hex_mm * 0.3, amap.label_of[h]))
        self.scene.set_polygons("assembly", polygons)
        self.scene.set_texts("assembly-labels", texts, "#303030", this.hex.hex_mm * 0.16, bold=False)
        self.assembled = amap
        self.view.fit_all()
        self.status_message.emit(f"Previewing {other_id} {self.neighbour_side.currentText()} of this board"
                                 f"{' turned 180°' if self.neighbour_turned.isChecked() else ''} (not saved: "
                                 "scenarios assemble boards)")
        return ""

    # ---------------------------------------------------------------- tools
    def set_tool(self, name: str) -> None:
        self.tool = name
        self.tool_actions[name].setChecked(True)
        if self.scene.labels_item is not None:
            self.scene.labels_item.show_elevation = name == "elevation"
            self.scene.labels_item.update()
        self.status_message.emit(f"Tool: {dict((n, t) for n, t, _ in TOOLS)[name]}")

    def current_terrain(self) -> str:
        return self.terrain_box.currentData() or self.catalogue.first_code()

    def _brush_cells(self, key) -> list:
        return self.geometry.board.disc(key, int(self.brush_size.currentText()))

    def _paint(self, keys) -> None:
        board = self.geometry.board
        cells = sorted({c for k in keys for c in self._brush_cells(k)})
        if self.tool == "terrain":
            ops = mapedit.paint_terrain(self.doc.data, board, cells, self.current_terrain(),
                                        self.catalogue.first_code())
        else:
            ops = mapedit.paint_elevation(self.doc.data, board, cells, self.level_box.value())
        self.apply("Paint", ops)

    def _press(self, key, x, y, button) -> None:
        if key is not None and self.tool != "los":
            self.inspect.emit(f"Hex {self.geometry.label(key)}", self.describe(key))
        if self.tool in ("terrain", "elevation"):
            if key is None:
                return
            self.doc.begin_gesture("Paint terrain" if self.tool == "terrain" else "Paint elevation")
            self._stroke_last = key
            self._paint([key])
        elif self.tool == "fill" and key is not None:
            cells = mapedit.fill_region(self.doc.data, self.geometry.board, key)
            self.apply("Fill", mapedit.paint_terrain(self.doc.data, self.geometry.board, cells,
                                                     self.current_terrain(), self.catalogue.first_code()))
        elif self.tool == "hexside" and key is not None:
            board = self.geometry.board
            direction = board.nearest_side(key, x, y)
            self.apply("Hexside", mapedit.toggle_hexside(self.doc.data, board, key, direction,
                                                         self.feature_box.currentData()))
        elif self.tool == "road" and key is not None:
            self._path = [key]
            self._preview_road()
        elif self.tool == "label" and key is not None:
            self.edit_label(key)
        elif self.tool == "los" and key is not None:
            self._los_from = key
            self.show_los(key, key)

    def _drag(self, key, x, y) -> None:
        if key is None:
            return
        if self.tool in ("terrain", "elevation") and self._stroke_last is not None:
            if key != self._stroke_last:
                self._paint(self.geometry.board.line(self._stroke_last, key)[1:])
                self._stroke_last = key
        elif self.tool == "road" and self._path:
            if key != self._path[-1]:
                self._path.extend(self.geometry.board.line(self._path[-1], key)[1:])
                self._preview_road()
        elif self.tool == "los" and self._los_from is not None:
            self.show_los(self._los_from, key)

    def _release(self, key, x, y) -> None:
        if self.tool in ("terrain", "elevation") and self._stroke_last is not None:
            self._stroke_last = None
            self.doc.end_gesture()
        elif self.tool == "road" and self._path:
            path, self._path = self._path, []
            self.scene.clear_layer("road-preview")
            ops = mapedit.add_road(self.doc.data, self.geometry.board, path, self.road_box.currentData())
            if ops:
                self.apply("Add road", ops)
            else:
                self.status_message.emit("A road needs at least two hexes: drag across them")
        elif self.tool == "los":
            self._los_from = None

    def _preview_road(self) -> None:
        points = [self.geometry.board.centre(c) for c in self._path]
        self.scene.set_polylines("road-preview", [points], "#ff8000", self.geometry.hex_mm * 0.1, z=7, dash=True)

    def ask_text(self, title: str, prompt: str, current: str) -> str | None:
        text, ok = QInputDialog.getText(self, title, prompt, text=current)
        return text if ok else None

    def edit_label(self, key) -> None:
        board = self.geometry.board
        current = next((e.get("text", "") for e in self.doc.data.get("labels") or []
                        if isinstance(e, dict) and e.get("hex") == board.label(key)), "")
        text = self.ask_text("Hex label", f"Label of hex {board.label(key)} (empty removes it):", current)
        if text is not None:
            self.apply("Label", mapedit.set_label(self.doc.data, board, key, text.strip()))

    def show_los(self, a, b):
        """Draw the sight line from ``a`` to ``b`` and mark where and why it is blocked; returns the result."""
        ruleset = self.doc.data.get("ruleset")
        ruleset_data = self.session.data_of("ruleset", ruleset) if isinstance(ruleset, str) else None
        result = line_of_sight(self.geometry.board, self.doc.data, ruleset_data, a, b)
        board = self.geometry.board
        self.scene.set_marks("los-path", result.cells, "#ffffff", 70, z=6)
        self.scene.set_marks("los-block", result.blocked_at, "#e00000", 150, outline="#e00000", z=6.5)
        colour = "#00a000" if result.clear else "#e00000"
        self.scene.set_polylines("los-line", [[board.centre(a), board.centre(b)]], colour, board.hex_mm * 0.06, z=8)
        text = f"LOS {board.label(a)} → {board.label(b)} (range {board.distance(a, b)}): {result.reason}"
        self.los_label.setText(text)
        self.status_message.emit(text)
        self.inspect.emit("Line of sight", [("From", board.label(a)), ("To", board.label(b)),
                                            ("Range", str(board.distance(a, b))),
                                            ("Result", "clear" if result.clear else "blocked"),
                                            ("Why", result.reason), ("Rule", result.rule or "generic")])
        self.last_los = result
        return result

    # ---------------------------------------------------------------- info
    def describe(self, key) -> list[tuple[str, str]]:
        code = self.geometry.terrain(key)
        board = self.geometry.board
        label = board.label(key)
        rows = [("Hex", label), ("Terrain", f"{self.catalogue.name_of(code)} ({code})"),
                ("Elevation", str(self.geometry.elevation(key))), ("Cell", f"column {key[0]}, row {key[1]}")]
        for entry in self.doc.data.get("hexsides") or []:
            if isinstance(entry, dict) and entry.get("hex") == label:
                rows.append((f"Hexside {entry.get('side')}", str(entry.get("feature"))))
        for entry in self.doc.data.get("labels") or []:
            if isinstance(entry, dict) and entry.get("hex") == label:
                rows.append(("Label", str(entry.get("text"))))
        return rows

    def copy_hex(self, key=None) -> dict | None:
        """Ctrl+C over a hex: its terrain and elevation become the brush (and go to the clipboard as text)."""
        key = key if key is not None else self._hovered
        if key is None:
            return None
        from PySide6.QtWidgets import QApplication
        code, level = self.geometry.terrain(key), self.geometry.elevation(key)
        index = self.terrain_box.findData(code)
        if index >= 0:
            self.terrain_box.setCurrentIndex(index)
        self.level_box.setValue(level)
        self._copied = {"terrain": code, "elevation": level}
        QApplication.clipboard().setText(f"terrain: {code}\nelevation: {level}\n")
        self.status_message.emit(f"Copied hex {self.geometry.label(key)}: {self.catalogue.name_of(code)}, "
                                 f"level {level}")
        return self._copied

    def paste_hex(self, key=None) -> bool:
        """Ctrl+V over a hex: the copied terrain and elevation, one undo step."""
        key = key if key is not None else self._hovered
        copied = getattr(self, "_copied", None)
        if key is None or not copied:
            return False
        board = self.geometry.board
        ops = mapedit.paint_terrain(self.doc.data, board, [key], copied["terrain"], self.catalogue.first_code())
        ops += mapedit.paint_elevation(self.doc.data, board, [key], copied["elevation"]) \
            if self.geometry.elevation(key) != copied["elevation"] else []
        with self.doc.gesture("Paste hex"):
            for op in ops:
                if not self.apply("Paste hex", [op]):
                    return False
        return True

    def _hover(self, key) -> None:
        self._hovered = key
        if key is None:
            return
        info = self.describe(key)
        self.status_message.emit("   ".join(f"{k}: {v}" for k, v in info))

    def focus_pointer(self, pointer: str) -> None:
        parts = split(pointer) if pointer.startswith("/") else []
        board = self.geometry.board
        keys = []
        if len(parts) >= 2 and parts[0] in ("terrain", "elevation") and parts[1].isdigit():
            keys = [(c, int(parts[1])) for c in range(board.columns)]
        elif parts:
            node = self.doc.get("/" + "/".join(parts[:2])) if len(parts) >= 2 else None
            if isinstance(node, dict):
                hexes = [node.get("hex")] if "hex" in node else list(node.get("hexes") or [])
                keys = [k for k in (board.parse(h) for h in hexes) if k is not None]
        self.focus_keys(keys)

    def focus_diagnostic(self, diagnostic) -> None:
        """A finding: the hex it names when the message gives its row and column (terrain and elevation
        findings point at a whole row), else what its pointer names."""
        import re
        parts = split(diagnostic.pointer) if diagnostic.pointer.startswith("/") else []
        found = re.search(r"\(row (\d+), column (\d+)\)", diagnostic.message or "")
        if found and len(parts) == 2 and parts[0] in ("terrain", "elevation"):
            self.focus_keys([(int(found.group(2)), int(found.group(1)))])
            return
        self.focus_pointer(diagnostic.pointer)

    def focus_hex(self, label: str) -> None:
        key = self.geometry.key_of_label(label)
        self.focus_keys([key] if key is not None else [])

    def focus_keys(self, keys) -> None:
        self.scene.set_marks("focus", keys, "#ffff00", 90, outline="#ff8000", z=7)
        if keys:
            self.view.reveal([self.geometry.centre(keys[0])])  # close enough to read the hex ids
