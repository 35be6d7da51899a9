"""Scenario editor: board assembly, sides and forces (dragged from the TO&E list onto map hexes), painted setup
zones, reinforcement schedule, victory conditions with hex picking, environment, special rules, rule options,
the ruleset's optional rules as a checklist (rule number and title; the tooltip gives the description, what
the rule needs and requires), and a side panel with this scenario's diagnostics.

The map is the scenario's boards assembled by ``studio.model.maps.assemble`` (labels stay the printed ones, so a
turned board still reads ``4K3``). Every edit is a document op; one drop, one zone stroke or one click is one
undo step.
"""
from __future__ import annotations

import re

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton,
                               QScrollArea, QSplitter, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from studio.document import scenario_edit as sc
from studio.document.catalogue import Catalogue
from studio.document.geometry import AssembledGeometry
from studio.document.ops import DELETE, Set
from studio.document.schema import FieldSpec, node
from studio.model.kinds import model_for
from studio.model.maps import AssemblyError, assemble
from studio.model.pointers import split

from ..counters import COUNTER_OF_HEX, CounterSpec, counter_spec, facing_angle
from ..map_view import QtHexScene, QtMapView, draw_hex_features, draw_seams, legend_entries, shaded
from ..schema_form import QtSchemaForm
from ..side_tabs import QtSideTabs
from ..table.preview import show_table_preview, table_preview
from .base import QtEditor

MIME_TOE = "application/x-studio-toe"
SIDE_COLOURS = ["#1f5fd6", "#d62828", "#2a9d3a", "#9b30c8"]


class _EmptyGeometry:
    hex_mm = 19.0

    def keys(self):
        return []

    def key_at(self, x, y):
        return None

    def label(self, key):
        return "?"

    def key_of_label(self, label):
        return None

    def terrain(self, key):
        return ""

    def elevation(self, key):
        return 0

    def centre(self, key):
        return (0.0, 0.0)

    def corners(self, key):
        return []

    def corner_offsets(self):
        return [(0.0, 0.0)] * 6


class QtToeSource(QTreeWidget):
    """TO&Es of the scenario's rule system (and their templated sub-units), draggable onto the map."""

    def __init__(self):
        super().__init__()
        self.setHeaderLabels(["Forces: drag onto the map"])
        self.setDragEnabled(True)

    def mimeData(self, items):
        mime = QMimeData()
        toe = items[0].data(0, Qt.ItemDataRole.UserRole) if items else None
        if toe:
            mime.setData(MIME_TOE, toe.encode())
            mime.setText(toe)
        return mime

    def mimeTypes(self):
        return [MIME_TOE]


class QtScenarioMapView(QtMapView):
    """Map view accepting TO&E drops; ``dropped(toe_id, key)`` with the hex under the drop point."""

    def __init__(self, scene, editor: "QtScenarioEditor"):
        super().__init__(scene)
        self.editor = editor
        self.setAcceptDrops(True)

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_TOE):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        if not event.mimeData().hasFormat(MIME_TOE):
            event.ignore()
            return
        toe_id = bytes(event.mimeData().data(MIME_TOE)).decode()
        key, _, _ = self._key(event.position().toPoint())
        event.acceptProposedAction()
        self.editor.drop_force(toe_id, key)


class QtScenarioEditor(QtEditor):
    #: ("open", path): open another document (the measured table a scenario is played on)
    action_requested = Signal(str, object)

    def __init__(self, session, doc, parent=None):
        super().__init__(session, doc, parent)
        self.schema = self._schema()
        self.catalogue = Catalogue.from_ruleset(self.session.data_of("ruleset", str(doc.data.get("ruleset"))))
        self.geometry = _EmptyGeometry()
        self.assembly_error = ""
        self.scene = QtHexScene(self.geometry, self.colour_of, self)
        self.view = QtScenarioMapView(self.scene, self)
        self.tool = "select"
        self._stroke = None
        self._stroke_on = True
        self.source = QtToeSource()
        self.status_label = QLabel("")
        self.status_label.setWordWrap(True)
        self._build()
        self.rebuild_map()
        self.refresh_panels()
        self.view.pressed.connect(self._press)
        self.view.dragged.connect(self._drag)
        self.view.released.connect(self._release)
        self.view.hovered.connect(self._hover)
        self._hovered = None
        from PySide6.QtGui import QKeySequence, QShortcut
        for keys, slot in ((QKeySequence.StandardKey.Copy, self.copy_force),
                           (QKeySequence.StandardKey.Paste, self.paste_force)):
            shortcut = QShortcut(QKeySequence(keys), self.view)
            shortcut.activated.connect(lambda s=slot: s())

    # ---------------------------------------------------------------- construction
    def _schema(self) -> dict:
        try:
            return model_for(self.doc.data).model_json_schema()
        except Exception:  # noqa: BLE001 - unknown ruleset: the core scenario model
            from studio.model.documents import Scenario
            return Scenario.model_json_schema()

    def _subform(self, names: tuple[str, ...]) -> QtSchemaForm:
        root = node(self.schema, self.schema)
        spec = FieldSpec("object", {}, properties={n: root.properties[n] for n in names if n in root.properties},
                         required=[n for n in root.required if n in names])
        return QtSchemaForm(self.doc, self.schema, "", node_spec=spec, status=self.status_message,
                            choices=self.choices)

    def choices(self, pointer: str) -> list[str] | None:
        """Ids a reference field of the scenario may hold (None: free text): sides, TO&Es, unit cards, slots."""
        parts = split(pointer) if pointer.startswith("/") else []
        data = self.doc.data if isinstance(self.doc.data, dict) else {}
        sides = [s.get("id") for s in data.get("sides") or [] if isinstance(s, dict) and isinstance(s.get("id"), str)]
        if parts in (["first_player"],):
            return sides + ["initiative"]
        if len(parts) == 3 and parts[0] == "victory" and parts[2] == "side":
            return sides
        if len(parts) == 5 and parts[0] == "sides" and parts[2] == "forces" and parts[4] == "toe":
            return self._ids_of("toe")
        if len(parts) == 7 and parts[0] == "sides" and parts[4] == "substitutions":
            if parts[6] == "unit":
                return self._substitution_units("/" + "/".join(parts[:4]), parts[5])
            if parts[6] == "slot":
                return self._slot_choices("/" + "/".join(parts[:4]))
        if len(parts) == 6 and parts[0] == "sides" and parts[4] == "setup" and parts[5] == "facing":
            return self._facings()
        if parts and parts[0] == "extension":
            return self._extension_choices(parts, sides)
        return None

    def _facings(self) -> list[str] | None:
        """The hexside directions of the assembled boards (a flat-top map faces N, NE, SE ...)."""
        from studio.hexgrid import coords
        assembled = getattr(self.geometry, "map", None)
        if assembled is None:
            return None
        return list(coords.POINTY_DIRECTION_NAMES if assembled.orientation == "pointy"
                    else coords.FLAT_DIRECTION_NAMES)

    #: fields of a rule system's scenario block (``extension:``) that name a side, a force or a unit card
    SIDE_FIELDS = ("side", "supreme_side")
    FORCE_FIELDS = ("force", "carrier_force", "carriers")
    UNIT_FIELDS = ("unit", "battery", "aircraft")

    def _extension_choices(self, parts: list[str], sides: list[str]) -> list[str] | None:
        """Choices inside ``extension:``: sides for ``side`` fields and for the keys of maps keyed by side
        (their schema says 'side id -> ...'), forces for ``force`` fields, unit cards for ``unit`` fields."""
        name = parts[-1]
        if name == "*":
            from ..schema_form import _at
            described = str(node(self.schema, _at(self.schema, "/" + "/".join(parts[:-1]))).description)
            return sides if re.match(r"side( id)? ->", described) else None
        if name in self.SIDE_FIELDS:
            return sides
        if name in self.FORCE_FIELDS:
            return self._force_ids()
        if name in self.UNIT_FIELDS:
            return self._ids_of("unit")
        return None

    def _force_ids(self) -> list[str]:
        data = self.doc.data if isinstance(self.doc.data, dict) else {}
        return [f["id"] for s in data.get("sides") or [] if isinstance(s, dict)
                for f in s.get("forces") or [] if isinstance(f, dict) and isinstance(f.get("id"), str)]

    def _ids_of(self, kind: str) -> list[str]:
        ruleset = self.doc.data.get("ruleset") if isinstance(self.doc.data, dict) else None
        return sorted(e.id for e in self.session.entries()
                      if e.kind == kind and e.id and (not ruleset or e.ruleset == ruleset))

    def _substitution_units(self, force_pointer: str, row: str) -> list[str]:
        """Cards that may replace the card of the substitution's slot: those of the same category (a vehicle
        for a vehicle, never an off-map battery); every card while the slot is not chosen yet."""
        from studio.model.forces import expand_toe
        units = self._ids_of("unit")
        slot = self.doc.get(f"{force_pointer}/substitutions/{row}/slot")
        toe = self.session.model_of("toe", str(self.doc.get(f"{force_pointer}/toe")))
        if toe is None or not isinstance(slot, str):
            return units
        try:
            fielded = expand_toe(toe, self.session.current_index(), [], "")
        except Exception:  # noqa: BLE001 - a TO&E that does not expand: no narrowing
            return units
        card = next((u.unit for u in fielded if slot in (u.path, u.path.split("/", 1)[-1])), None)
        category = self._category(card) if card else None
        same = [u for u in units if self._category(u) == category] if category else []
        return same or units

    def _category(self, unit_id: str) -> str | None:
        data = self.session.data_of("unit", unit_id)
        return data.get("category", "vehicle") if isinstance(data, dict) else None

    def _slot_choices(self, force_pointer: str) -> list[str]:
        from studio.model.forces import slot_paths
        toe = self.session.model_of("toe", str(self.doc.get(f"{force_pointer}/toe")))
        if toe is None:
            return []
        root = toe.root.id
        return sorted(p for p in slot_paths(toe, self.session.current_index()) if not p.startswith(root + "/"))

    def _scroll(self, widget: QWidget) -> QScrollArea:
        """A page that scrolls down only: its forms fit the panel's width (wide tables scroll inside)."""
        page = QWidget()  # the form at the top of the page, the spare height below it
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(widget)
        layout.addStretch(1)
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        area.setWidget(page)
        page.revealer = lambda w: area.ensureWidgetVisible(w, 20, 60)  # a refused field is scrolled into view
        return area

    def _build(self) -> None:
        self.tool_box = QComboBox()
        for tool, text in (("select", "Inspect"), ("zone", "Paint setup zone"), ("erase-zone", "Erase setup zone"),
                           ("setup", "Toggle setup hex"), ("entry", "Paint entry zone (reinforcement)"),
                           ("victory", "Pick victory hexes")):
            self.tool_box.addItem(text, tool)
        self.tool_box.currentIndexChanged.connect(lambda _: self.set_tool(self.tool_box.currentData()))
        self.side_box = QComboBox()
        self.force_box = QComboBox()
        self.victory_box = QComboBox()
        from PySide6.QtWidgets import QGridLayout
        choices = QGridLayout()  # two rows, so the choices stay readable in a narrow window
        choices.setContentsMargins(4, 0, 4, 0)
        choices.setHorizontalSpacing(4)
        choices.setVerticalSpacing(2)
        for n, (label, widget) in enumerate((("Tool", self.tool_box), ("Force", self.force_box),
                                             ("Side", self.side_box), ("Victory", self.victory_box))):
            choices.addWidget(QLabel(label), n // 2, (n % 2) * 2)
            choices.addWidget(widget, n // 2, (n % 2) * 2 + 1)
        choices.setColumnStretch(1, 3)
        choices.setColumnStretch(3, 2)
        fit = QPushButton("Fit (0)")
        fit.setToolTip("Fit the board in the view (keys 0 or Home)")
        fit.clicked.connect(self.view.fit_all)
        choices.addWidget(fit, 0, 4)
        centre = QWidget()
        cl = QVBoxLayout(centre)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addLayout(choices)
        self.table_note = self._table_note()
        cl.addWidget(self.table_note)
        self.table_preview = table_preview(self)  # the measured table with the scenario's zones (studio.qt.table)
        cl.addWidget(self.table_preview, 1)
        cl.addWidget(self.view, 1)
        cl.addWidget(self.status_label)
        # right-hand panels
        self.tabs = QtSideTabs()
        self.general = self._subform(("name", "designer", "date", "description", "turns", "first_player",
                                      "environment"))
        self.tabs.addTab(self._scroll(self.general), "General")
        self.tabs.addTab(self._boards_panel(), "Boards")
        self.sides_form = self._subform(("sides",))
        self.tabs.addTab(self._scroll(self.sides_form), "Sides")
        self.reinforcements = QTreeWidget()
        self.reinforcements.setHeaderLabels(["Turn", "Side", "Force", "Arrives"])
        self.tabs.addTab(self.reinforcements, "Arrivals")
        self.tabs.setTabToolTip(3, "Reinforcements: forces that enter during the game")
        self.victory_form = self._subform(("victory",))
        self.tabs.addTab(self._scroll(self.victory_form), "Victory")
        self.rules_form = self._subform(("special_rules",))
        self.options_panel = QWidget()
        self.options_layout = QVBoxLayout(self.options_panel)
        rules = self.rules_widget = QWidget()
        rl = QVBoxLayout(rules)
        rl.addWidget(self.rules_form)
        rl.addWidget(QLabel("<b>Rule options</b> (empty = the ruleset's default)"))
        rl.addWidget(self.options_panel)
        self.optional_title = QLabel("<b>Optional rules</b> in force (ticked)")
        rl.addWidget(self.optional_title)
        self.optional_list = QListWidget()
        self.optional_list.setMinimumHeight(260)
        self.optional_list.itemChanged.connect(self._optional_item_changed)
        rl.addWidget(self.optional_list)
        rl.addStretch(1)
        self.rules_page = self._scroll(rules)
        self.tabs.addTab(self.rules_page, "Rules")
        self.extension_form = self._extension_form()
        if self.extension_form is not None:
            self.extension_page = self._scroll(self._extension_page(self.extension_form))
            index = self.tabs.addTab(self.extension_page, "Rule system")
            self.tabs.setTabToolTip(index, "This rule system's own scenario settings (extension:)")
        self.diag_list = QListWidget()
        self.diag_list.setWordWrap(True)  # long findings wrap in the narrow panel
        self.diag_list.itemActivated.connect(lambda item: self.focus_pointer(item.data(Qt.ItemDataRole.UserRole)))
        self.tabs.addTab(self.diag_list, "Findings")
        self.forms = [self.general, self.sides_form, self.victory_form, self.rules_form] + (
            [self.extension_form] if self.extension_form is not None else [])
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.source)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(centre)
        splitter.addWidget(self.tabs)
        self.source.setMinimumWidth(130)
        self.tabs.setMinimumWidth(380)
        from PySide6.QtWidgets import QSizePolicy
        for box in (self.tool_box, self.side_box, self.force_box, self.victory_box, self.map_box):
            box.setMinimumWidth(64)  # the window fits 1366 px: long entries are cut, not the panels
            box.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        splitter.setChildrenCollapsible(False)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setStretchFactor(2, 0)
        splitter.setSizes([180, 600, 440])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self._fill_sources()

    def _table_note(self) -> QWidget:
        """Shown instead of the hex map when the scenario is played on a measured table."""
        note = QWidget()
        layout = QHBoxLayout(note)
        self.table_text = QLabel("")
        self.table_text.setWordWrap(True)
        layout.addWidget(self.table_text, 1)
        self.table_button = QPushButton("Open the table")
        self.table_button.clicked.connect(self._open_table)
        layout.addWidget(self.table_button)
        note.setStyleSheet("background: #eef3fa")
        note.hide()
        return note

    def _measured_table(self) -> str | None:
        """The id of the measured table the scenario is played on (its first board), if it is one."""
        boards = self.doc.data.get("boards") or []
        first = boards[0] if boards and isinstance(boards[0], dict) else {}
        data = self.session.data_of("map", str(first.get("map")))
        return str(first.get("map")) if isinstance(data, dict) and "table" in data else None

    def _open_table(self) -> None:
        table = self._measured_table()
        path = self.session.find(table, "map") if table else None
        if path is not None:
            self.action_requested.emit("open", path)

    def _extension_form(self) -> QtSchemaForm | None:
        """The form of the rule system's scenario block (``extension:``), when its plugin declares one."""
        root = node(self.schema, self.schema)
        if "extension" not in root.properties or node(self.schema, root.properties["extension"]).kind != "object":
            return None
        return QtSchemaForm(self.doc, self.schema, "/extension", status=self.status_message, choices=self.choices)

    def _extension_page(self, form: QtSchemaForm) -> QWidget:
        ruleset = self.session.data_of("ruleset", str(self.doc.data.get("ruleset")))
        name = ruleset.get("name") if isinstance(ruleset, dict) else None
        page = QWidget()
        layout = QVBoxLayout(page)
        title = QLabel(f"<b>{name or self.doc.data.get('ruleset')}</b>: this rule system's own scenario settings "
                       "(saved under <code>extension:</code>; empty fields take the rules' defaults)")
        title.setWordWrap(True)
        layout.addWidget(title)
        layout.addWidget(form)
        layout.addStretch(1)
        return page

    def _boards_panel(self) -> QWidget:
        """The boards as one table (map, turn, position below the selected row): *Add board* places the chosen
        map east of the others; *Rotate 180°* and *Remove board* act on the selected row."""
        panel = QWidget()
        layout = QVBoxLayout(panel)
        self.map_box = QComboBox()
        for entry in self.session.entries():
            if entry.kind == "map" and entry.id:
                self.map_box.addItem(f"{entry.id} — {entry.name}", entry.id)
        add = QPushButton("Add board")
        add.clicked.connect(self.add_board)
        rotate = QPushButton("Rotate 180°")
        rotate.clicked.connect(self.rotate_board)
        remove = QPushButton("Remove board")
        remove.clicked.connect(self.remove_board)
        row = QHBoxLayout()
        row.addWidget(self.map_box, 1)
        row.addWidget(add)
        layout.addLayout(row)
        self.boards_form = self._subform(("boards",))
        self.boards_table = self.boards_form.tables["/boards"]
        for button in self.boards_table.findChildren(QPushButton):  # the board buttons below add and remove
            if button.text() in ("Add row", "Remove row"):
                button.hide()
        layout.addWidget(self.boards_form)
        row2 = QHBoxLayout()
        row2.addWidget(rotate)
        row2.addWidget(remove)
        layout.addLayout(row2)
        layout.addStretch(1)
        return panel

    def select_board(self, row: int) -> None:
        """Select board ``row`` in the boards table (what Rotate and Remove act on)."""
        self.boards_table.table.selectRow(row)

    def _fill_sources(self) -> None:
        self.source.clear()
        ruleset = self.doc.data.get("ruleset")
        for entry in sorted(self.session.entries(), key=lambda e: e.name):
            if entry.kind != "toe" or not entry.id or (ruleset and entry.ruleset != ruleset):
                continue
            item = QTreeWidgetItem([entry.name])
            item.setData(0, Qt.ItemDataRole.UserRole, entry.id)
            item.setToolTip(0, entry.id)
            data = self.session.data_of("toe", entry.id)
            for child in (data.get("root", {}).get("children") or []) if isinstance(data, dict) else []:
                if isinstance(child, dict) and isinstance(child.get("template"), str):
                    sub = QTreeWidgetItem([f"{child.get('name') or child.get('id')} ({child['template']})"])
                    sub.setData(0, Qt.ItemDataRole.UserRole, child["template"])
                    item.addChild(sub)
            self.source.addTopLevelItem(item)

    def source_item(self, toe_id: str) -> QTreeWidgetItem | None:
        for i in range(self.source.topLevelItemCount()):
            item = self.source.topLevelItem(i)
            if item.data(0, Qt.ItemDataRole.UserRole) == toe_id:
                return item
        return None

    # ---------------------------------------------------------------- map
    def colour_of(self, key) -> str:
        return shaded(self.catalogue.colour_of(self.geometry.terrain(key)), self.geometry.elevation(key))

    def rebuild_map(self) -> None:
        placements, problem = [], ""
        for i, board in enumerate(self.doc.data.get("boards") or []):
            if not isinstance(board, dict):
                continue
            model = self.session.model_of("map", str(board.get("map")))
            if model is None:
                problem = f"board {i + 1}: no valid map '{board.get('map')}'"
                continue
            at = board.get("at") if isinstance(board.get("at"), list) and len(board.get("at")) == 2 else [0, 0]
            placements.append((model, (int(at[0]), int(at[1])), 180 if board.get("rotate") == 180 else 0))
        try:
            self.geometry = AssembledGeometry(assemble(placements)) if placements else _EmptyGeometry()
        except AssemblyError as exc:
            problem = str(exc)
            self.geometry = _EmptyGeometry()
        except (KeyError, ValueError) as exc:
            problem = f"cannot assemble the boards: {exc}"
            self.geometry = _EmptyGeometry()
        table = self._measured_table()
        if table:  # played in inches on a table: no hex map; the zones and placements are the rule system's
            problem = ""
            self.table_text.setText(f"This scenario is played on the measured table <b>{table}</b>, not on hex "
                                    "boards: its deployment zones, placements and objectives are on the "
                                    "<i>Rule system</i> page; the table itself opens in the table editor.")
        self.table_note.setVisible(bool(table))
        show_table_preview(self.table_preview, self.session, table, self.doc.data)
        self.view.setVisible(not table)
        self.tool_box.setEnabled(not table)  # the hex tools have nothing to paint on a table
        self.assembly_error = problem
        self.scene.geometry = self.geometry
        self.scene.rebuild()
        self.draw_features()
        self.draw_overlays()
        draw_seams(self.scene, self.geometry)
        self.view.set_legend(legend_entries(self.geometry, self.catalogue))
        self.view.show_minimap(bool(list(self.geometry.keys())))
        self.view.fit()
        if problem:
            self.status_label.setText(f"Boards: {problem}")

    def draw_features(self) -> None:
        """Hexside features and roads of the assembled boards."""
        draw_hex_features(self.scene, self.geometry, self.catalogue)

    def _counters_of(self, force: dict, colour: str) -> list:
        """The counters a force fields, in TO&E order, as printed (unknown cards drawn plain)."""
        from studio.model.documents import Force
        from studio.model.forces import expand_force
        index = self.session.current_index()
        try:
            units = expand_force(Force.model_validate(force), index)
        except Exception:  # noqa: BLE001 - an invalid force is drawn from its TO&E count only
            n = sc.unit_count(self.session.data_of("toe", str(force.get("toe"))),
                              lambda t: self.session.data_of("toe", t))
            return [CounterSpec(str(force.get("toe")), str(i + 1), side_colour=colour) for i in range(n)]
        size = self.geometry.hex_mm * COUNTER_OF_HEX
        return [counter_spec(index, index.model("unit", u.unit), u.designation, colour, size) for u in units]

    def _labels_of(self, labels) -> list:
        return [k for k in (self.geometry.key_of_label(x) for x in labels or []) if k is not None]

    def draw_overlays(self) -> None:
        data = self.doc.data
        names = [n for n in list(self.scene._layers) if n.startswith(("setup:", "zone:", "entry:", "count:"))]
        for name in names:
            self.scene.clear_layer(name)
        for si, side in enumerate(data.get("sides") or []):
            if not isinstance(side, dict):
                continue
            colour = SIDE_COLOURS[si % len(SIDE_COLOURS)]
            setup_keys, zone_keys, entry_keys, stacks = [], [], [], {}
            for force in side.get("forces") or []:
                if not isinstance(force, dict):
                    continue
                setup = force.get("setup") if isinstance(force.get("setup"), dict) else {}
                keys = self._labels_of(setup.get("hexes"))
                setup_keys += keys
                zone_keys += self._labels_of(setup.get("zone"))
                for k, counter in enumerate(self._counters_of(force, colour) if keys else []):
                    key = keys[k % len(keys)] if len(keys) > 1 else keys[0]
                    stacks.setdefault(key, ([], facing_angle(setup.get("facing"))))[0].append(counter)
                entry = force.get("entry") if isinstance(force.get("entry"), dict) else {}
                entry_keys += self._labels_of(entry.get("hexes"))
            self.scene.set_marks(f"zone:{si}", zone_keys, colour, 60, z=3)
            self.scene.set_marks(f"setup:{si}", setup_keys, colour, 110, outline="#ffffff", z=3.5)
            self.scene.set_marks(f"entry:{si}", entry_keys, colour, 90, outline=colour, z=3.2)
            self.scene.set_counters(f"count:{si}", [(k, c, f) for k, (c, f) in stacks.items()], z=6 + si * 0.01)
        victory = []
        for vc in data.get("victory") or []:
            if isinstance(vc, dict):
                victory += self._labels_of(vc.get("hexes"))
        self.scene.set_marks("victory", victory, "#ffd000", 120, outline="#ff8c00", z=4)
        self.scene.set_texts("victory-text", [(x, y + self.geometry.hex_mm * 0.28, "VP") for x, y in
                                              (self.geometry.centre(k) for k in victory)], "#7a3b00",
                             self.geometry.hex_mm * 0.22, z=6)

    # ---------------------------------------------------------------- panels
    def refresh_panels(self) -> None:
        data = self.doc.data
        side, force, vc = self.side_box.currentIndex(), self.force_box.currentData(), self.victory_box.currentIndex()
        for box in (self.side_box, self.force_box, self.victory_box):
            box.blockSignals(True)
            box.clear()
        for si, s in enumerate(data.get("sides") or []):
            if isinstance(s, dict):
                self.side_box.addItem(f"{s.get('name') or s.get('id')}", si)
                for fi, f in enumerate(s.get("forces") or []):
                    if isinstance(f, dict):
                        self.force_box.addItem(f"{s.get('id')}: {f.get('name') or f.get('id')}", f"/sides/{si}/forces/{fi}")
        for i, v in enumerate(data.get("victory") or []):
            if isinstance(v, dict):
                self.victory_box.addItem(f"{v.get('id')} ({v.get('type')})", i)
        self.side_box.setCurrentIndex(max(0, min(side, self.side_box.count() - 1)))
        fi = self.force_box.findData(force)
        self.force_box.setCurrentIndex(fi if fi >= 0 else 0)
        self.victory_box.setCurrentIndex(max(0, min(vc, self.victory_box.count() - 1)))
        for box in (self.side_box, self.force_box, self.victory_box):
            box.blockSignals(False)
        self.reinforcements.clear()
        rows = []
        for s in data.get("sides") or []:
            for f in (s.get("forces") or []) if isinstance(s, dict) else []:
                entry = f.get("entry") if isinstance(f, dict) and isinstance(f.get("entry"), dict) else None
                if entry:
                    where = entry.get("edge") or ", ".join(entry.get("hexes") or [])
                    rows.append((entry.get("turn", 0), s.get("name", ""), f.get("name") or f.get("id"), where))
        for turn, side_name, force_name, where in sorted(rows, key=lambda r: (r[0] if isinstance(r[0], int) else 0)):
            self.reinforcements.addTopLevelItem(QTreeWidgetItem([str(turn), str(side_name), str(force_name),
                                                                 str(where)]))
        self._fill_options()
        self._fill_optional_rules()
        # the scroll page must not squeeze the option rows (its height-for-width guess ignores them)
        self.rules_widget.setMinimumHeight(self.rules_widget.layout().minimumSize().height())
        for form in self.forms + [self.boards_form]:
            form.refresh()

    def _fill_options(self) -> None:
        while self.options_layout.count():
            item = self.options_layout.takeAt(0)
            if item.widget():
                item.widget().hide()  # gone at once (deleteLater waits for the event loop)
                item.widget().deleteLater()
        ruleset = self.session.data_of("ruleset", str(self.doc.data.get("ruleset")))
        chosen = self.doc.data.get("options") if isinstance(self.doc.data.get("options"), dict) else {}
        self.option_boxes = {}
        for option in (ruleset.get("options") or []) if isinstance(ruleset, dict) else []:
            if not isinstance(option, dict) or not isinstance(option.get("id"), str):
                continue
            box = QComboBox()
            box.addItem(f"default ({option.get('default')})", DELETE)
            for choice in option.get("choices") or []:
                box.addItem(str(choice), choice)
            oid = option["id"]
            if oid in chosen:
                index = box.findData(chosen[oid])
                box.setCurrentIndex(index if index >= 0 else 0)
            box.setToolTip(f"{option.get('description', '')} [{option.get('rule', '')}]")
            box.activated.connect(lambda _=0, o=oid, b=box: self.set_option(o, b.currentData()))
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(12)  # long choices are cut in the box, not the panel
            row = QWidget()
            rl = QHBoxLayout(row)
            rl.setContentsMargins(0, 0, 0, 0)
            title = QLabel(str(option.get("title") or oid))
            title.setWordWrap(True)
            title.setToolTip(box.toolTip())
            rl.addWidget(title, 1)
            rl.addWidget(box)
            self.options_layout.addWidget(row)
            self.option_boxes[oid] = box

    def set_option(self, option_id: str, value) -> None:
        if isinstance(self.doc.data.get("options"), dict):
            ops = [Set(f"/options/{option_id}", value)]
        elif value is DELETE:
            return
        else:
            ops = [Set("/options", {option_id: value})]
        self.apply(f"Option {option_id}", ops)

    def _ruleset_optional_rules(self) -> list[dict]:
        ruleset = self.session.data_of("ruleset", str(self.doc.data.get("ruleset")))
        rules = ruleset.get("optional_rules") if isinstance(ruleset, dict) else None
        return [r for r in rules or [] if isinstance(r, dict) and isinstance(r.get("id"), str)]

    def optional_rules_on(self) -> list:
        chosen = self.doc.data.get("optional_rules")
        return list(chosen) if isinstance(chosen, list) else []

    @staticmethod
    def _optional_tooltip(rule: dict) -> str:
        needs = rule.get("needs") if isinstance(rule.get("needs"), dict) else {}
        lines = [f"{rule.get('rule', '')} {rule.get('title', '')} (id {rule['id']})", str(rule.get("description", ""))]
        for key, what in (("scenario", "scenario data"), ("card_fields", "card fields"), ("tables", "tables"),
                          ("map_features", "map features")):
            if needs.get(key):
                lines.append(f"Needs {what}: {', '.join(map(str, needs[key]))}")
        if rule.get("tables"):
            lines.append(f"Its tables: {', '.join(map(str, rule['tables']))}")
        if rule.get("requires"):
            lines.append(f"Requires optional rule(s): {', '.join(map(str, rule['requires']))}")
        return "\n".join(lines)

    def _fill_optional_rules(self) -> None:
        """One checkable row per optional rule of the ruleset (ids the ruleset lacks are kept, marked unknown)."""
        rules = self._ruleset_optional_rules()
        on = self.optional_rules_on()
        self.optional_list.blockSignals(True)
        self.optional_list.clear()
        self.optional_items = {}
        known = {r["id"] for r in rules}
        shown = rules + [{"id": str(x), "rule": "?", "title": "not an optional rule of this ruleset",
                          "description": ""} for x in on if x not in known]
        for rule in shown:
            number = str(rule.get("rule", "")).split()[-1] if rule.get("rule") else ""
            item = QListWidgetItem(f"{number:<6} {rule.get('title') or rule['id']}")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if rule["id"] in on else Qt.CheckState.Unchecked)
            item.setToolTip(self._optional_tooltip(rule))
            item.setData(Qt.ItemDataRole.UserRole, rule["id"])
            self.optional_list.addItem(item)
            self.optional_items[rule["id"]] = item
        self.optional_list.blockSignals(False)
        self.optional_title.setText(f"<b>Optional rules</b> in force: {len(on)} of {len(rules)} (ticked)")
        self.optional_title.setVisible(bool(shown))
        self.optional_list.setVisible(bool(shown))

    def _optional_item_changed(self, item: QListWidgetItem) -> None:
        self.set_optional_rule(item.data(Qt.ItemDataRole.UserRole), item.checkState() == Qt.CheckState.Checked)

    def set_optional_rule(self, rule_id: str, on: bool) -> bool:
        """Switch optional rule ``rule_id`` on (with the rules it requires) or off (with the rules that require
        it): one undo step writing ``optional_rules`` in the ruleset's order (removed when empty)."""
        rules = {r["id"]: r for r in self._ruleset_optional_rules()}
        current = self.optional_rules_on()
        if on:
            wanted, stack = set(current), [rule_id]
            while stack:
                rid = stack.pop()
                if rid not in wanted or rid == rule_id:
                    wanted.add(rid)
                    stack += [r for r in (rules.get(rid, {}).get("requires") or []) if r not in wanted]
        else:
            wanted = set(current) - {rule_id}
            changed = True
            while changed:  # rules that need a rule switched off go too
                gone = {r for r in wanted if set(rules.get(r, {}).get("requires") or []) - wanted}
                changed = bool(gone)
                wanted -= gone
        order = [r for r in rules if r in wanted] + [r for r in current if r in wanted and r not in rules]
        if order == current:
            return False
        extra = sorted((set(order) ^ set(current)) - {rule_id})
        value = order if order else DELETE
        if value is DELETE and "optional_rules" not in self.doc.data:
            return False
        ok = self.apply(f"Optional rule {rule_id} {'on' if on else 'off'}", [Set("/optional_rules", value)])
        if ok and extra:
            self.status_message.emit(f"{rule_id} {'on' if on else 'off'}; also switched "
                                     f"{'on' if on else 'off'}: {', '.join(extra)}")
        return ok

    def show_diagnostics(self, diagnostics) -> None:
        super().show_diagnostics(diagnostics)
        self._fill_findings()

    def show_notes(self, notes) -> None:
        super().show_notes(notes)
        self._fill_findings()

    def _fill_findings(self) -> None:
        """This scenario's findings; first, in italics, a note when its rule checks ran on part of it only."""
        self.diag_list.clear()
        for note in self.notes:
            item = QListWidgetItem(f"note: {note.message}")
            font = item.font()
            font.setItalic(True)
            item.setFont(font)
            item.setData(Qt.ItemDataRole.UserRole, note.pointer)
            self.diag_list.addItem(item)
        for d in self.diagnostics:
            item = QListWidgetItem(f"{d.severity.value}: {d.message}  [{d.code}{' ' + d.rule if d.rule else ''}]")
            item.setData(Qt.ItemDataRole.UserRole, d.pointer)
            self.diag_list.addItem(item)
        self.tabs.setTabText(self.tabs.indexOf(self.diag_list), f"Findings ({len(self.diagnostics)})")
        self._mark_optional_findings()

    def _mark_optional_findings(self) -> None:
        """Rows of the optional rules checklist with a finding (``/optional_rules/N``; ``/optional_rules``: every
        rule on) turn red (error) or amber (warning), the finding added to their tooltip."""
        self._fill_optional_rules()  # fresh rows, plain colours and tooltips
        on = self.optional_rules_on()
        from PySide6.QtGui import QBrush, QColor
        for d in self.diagnostics:
            parts = split(d.pointer) if d.pointer.startswith("/optional_rules") else []
            if parts[:1] != ["optional_rules"]:
                continue
            rows = [int(parts[1])] if len(parts) > 1 and parts[1].isdigit() else range(len(on))  # the whole list
            for item in [self.optional_items.get(on[r]) for r in rows if 0 <= r < len(on)]:
                if item is None:
                    continue
                item.setForeground(QBrush(QColor("#b00020" if d.severity.value == "error" else "#b06000")))
                item.setToolTip(f"{item.toolTip()}\n{d.severity.value}: {d.message}")

    # ---------------------------------------------------------------- edits
    def drop_force(self, toe_id: str, key) -> bool:
        """A TO&E dropped on hex ``key``: a new force set up around it (one hex per unit)."""
        if key is None:
            self.status_message.emit("Drop the force onto a hex of the map")
            return False
        data = self.doc.data
        sides = data.get("sides")
        if not isinstance(sides, list) or not sides:
            self.status_message.emit("The scenario has no sides yet")
            return False
        toe_data = self.session.data_of("toe", toe_id)
        side = sc.side_for(data, toe_data.get("nation") if isinstance(toe_data, dict) else None,
                           max(0, self.side_box.currentIndex()))
        n = max(1, sc.unit_count(toe_data, lambda t: self.session.data_of("toe", t)))
        taken = set()
        for s in sides:
            for f in (s.get("forces") or []) if isinstance(s, dict) else []:
                setup = f.get("setup") if isinstance(f, dict) and isinstance(f.get("setup"), dict) else {}
                taken.update(self._labels_of(setup.get("hexes")))
        keys = sc.spread(self.geometry, key, n, taken,  # into terrain every unit can enter, where possible
                         lambda k: self.catalogue.open_to_all(self.geometry.terrain(k)))
        labels = [self.geometry.label(k) for k in keys]
        ok = self.apply(f"Place {toe_id}", sc.new_force_ops(data, side, toe_id, toe_data, labels))
        if ok:
            self.status_message.emit(f"{toe_id}: {n} units set up on {', '.join(labels)}")
        return ok

    def set_tool(self, tool: str) -> None:
        self.tool = tool
        index = self.tool_box.findData(tool)
        if index != self.tool_box.currentIndex():
            self.tool_box.setCurrentIndex(index)

    def _force_pointer(self) -> str | None:
        return self.force_box.currentData()

    def _apply_hex(self, key) -> None:
        label = self.geometry.label(key)
        force = self._force_pointer()
        if self.tool in ("zone", "erase-zone") and force:
            self.apply("Setup zone", sc.toggle_hexes(self.doc.data, f"{force}/setup/zone", [label],
                                                     self.tool == "zone"))
        elif self.tool == "setup" and force:
            current = self.doc.get(f"{force}/setup/hexes") or []
            self.apply("Setup hex", sc.toggle_hexes(self.doc.data, f"{force}/setup/hexes", [label],
                                                    label not in current))
        elif self.tool == "entry" and force:
            on = self._stroke_on if self._stroke is not None else label not in (
                self.doc.get(f"{force}/entry/hexes") or [])
            self.apply("Entry hex", sc.entry_hexes_ops(self.doc.data, force, [label], on))
        elif self.tool == "victory" and self.victory_box.currentIndex() >= 0:
            i = self.victory_box.currentData()
            current = self.doc.get(f"/victory/{i}/hexes") or []
            self.apply("Victory hex", sc.toggle_hexes(self.doc.data, f"/victory/{i}/hexes", [label],
                                                      label not in current))

    def _press(self, key, x, y, button) -> None:
        if key is None:
            return
        if self.tool in ("zone", "erase-zone", "entry"):  # a stroke paints (or erases) a whole zone
            self.doc.begin_gesture("Paint entry zone" if self.tool == "entry" else "Paint setup zone")
            force = self._force_pointer()
            self._stroke_on = self.geometry.label(key) not in (self.doc.get(f"{force}/entry/hexes") or []) \
                if force else True
            self._stroke = key
        if self.tool != "select":
            self._apply_hex(key)
        else:
            self.inspect.emit(f"Hex {self.geometry.label(key)}", self.describe(key))

    def _drag(self, key, x, y) -> None:
        if self._stroke is not None and key is not None and key != self._stroke:
            self._stroke = key
            self._apply_hex(key)

    def _release(self, key, x, y) -> None:
        if self._stroke is not None:
            self._stroke = None
            self.doc.end_gesture()

    def describe(self, key) -> list[tuple[str, str]]:
        label = self.geometry.label(key)
        rows = [("Hex", label), ("Terrain", self.catalogue.name_of(self.geometry.terrain(key))),
                ("Elevation", str(self.geometry.elevation(key)))]
        for s in self.doc.data.get("sides") or []:
            for f in (s.get("forces") or []) if isinstance(s, dict) else []:
                setup = f.get("setup") if isinstance(f, dict) and isinstance(f.get("setup"), dict) else {}
                if label in (setup.get("hexes") or []):
                    rows.append(("Set up", f"{s.get('id')}: {f.get('name') or f.get('id')}"))
                if label in (setup.get("zone") or []):
                    rows.append(("Zone of", f"{s.get('id')}: {f.get('name') or f.get('id')}"))
        return rows

    def copy_force(self) -> dict | None:
        """Ctrl+C on the map: the force chosen in the Force box (to paste it elsewhere, in this scenario or
        another)."""
        from PySide6.QtWidgets import QApplication
        from studio.model import yamlio
        pointer = self._force_pointer()
        force = self.doc.get(pointer) if pointer else None
        if not isinstance(force, dict):
            return None
        self._copied_force = dict(force)
        QApplication.clipboard().setText(yamlio.dump({"force": force}))
        self.status_message.emit(f"Copied force {force.get('id')}")
        return self._copied_force

    def paste_force(self, key=None) -> bool:
        """Ctrl+V over a hex: a copy of the copied force (fresh id) set up around that hex, in the side of its
        TO&E's nation; one undo step."""
        force = getattr(self, "_copied_force", None)
        key = key if key is not None else self._hovered
        if not force or key is None:
            return False
        toe_id = str(force.get("toe"))
        extra = {k: v for k, v in force.items() if k in ("name", "grade", "substitutions")}
        def pointers() -> dict:
            return {f"/sides/{si}/forces/{fi}": f.get("id") for si, side in enumerate(self.doc.data["sides"])
                    for fi, f in enumerate(side.get("forces") or []) if isinstance(f, dict)}
        before = set(pointers().values())
        with self.doc.gesture("Paste force"):  # the placement and the copied fields: one undo step
            if not self.drop_force(toe_id, key):
                return False
            new = next((p for p, i in pointers().items() if i not in before), None)
            if new is not None and extra:
                self.apply("Paste force", [Set(f"{new}/{k}", v) for k, v in extra.items()])
        return True

    def _hover(self, key) -> None:
        self._hovered = key
        if key is not None:
            self.status_message.emit("   ".join(f"{k}: {v}" for k, v in self.describe(key)))

    def add_board(self) -> None:
        map_id = self.map_box.currentData()
        if not map_id:
            return
        columns = 0
        for b in self.doc.data.get("boards") or []:
            model = self.session.model_of("map", str(b.get("map"))) if isinstance(b, dict) else None
            if model is not None and model.hex is not None:
                at = b.get("at") or [0, 0]
                columns = max(columns, int(at[0]) + model.hex.columns)
        self.apply(f"Add board {map_id}", sc.add_board_ops(self.doc.data, map_id, columns))

    def _board_row(self) -> int:
        row = self.boards_table.current_row()
        return row if row is not None else len(self.doc.data.get("boards") or []) - 1

    def rotate_board(self) -> None:
        row = self._board_row()
        if row >= 0:
            self.apply("Rotate board", sc.rotate_board_ops(self.doc.data, row))

    def remove_board(self) -> None:
        row = self._board_row()
        if row >= 0 and len(self.doc.data.get("boards") or []) > 1:
            self.apply("Remove board", sc.remove_board_ops(row))

    # ---------------------------------------------------------------- change handling
    def on_document_changed(self, change) -> None:
        if change.reason == "gesture":  # a zone stroke finished: the panels catch up once
            self.refresh_panels()
            return
        if change.reason not in ("do", "undo", "redo"):
            return
        if any(p == "" or p.startswith("/boards") for p in change.pointers):
            self.rebuild_map()
        else:
            self.draw_overlays()
        if not self.doc.history.in_gesture:
            self.refresh_panels()

    def focus_pointer(self, pointer: str) -> None:
        parts = split(pointer) if pointer.startswith("/") else []
        keys = []
        node_value = None
        for depth in range(len(parts), 0, -1):
            node_value = self.doc.get("/" + "/".join(parts[:depth]))
            if isinstance(node_value, (dict, list, str)):
                break
        labels = []
        if isinstance(node_value, str):
            labels = [node_value]
        elif isinstance(node_value, list):
            labels = [x for x in node_value if isinstance(x, str)]
        elif isinstance(node_value, dict):
            setup = node_value.get("setup") if isinstance(node_value.get("setup"), dict) else {}
            labels = list(node_value.get("hexes") or []) + list(setup.get("hexes") or []) + list(
                setup.get("zone") or [])
        keys = self._labels_of(labels)
        self.scene.set_marks("focus", keys, "#ffff00", 110, outline="#ff8000", z=7)
        self.view.reveal([self.geometry.centre(k) for k in keys[:12]])  # close enough to read the hex ids
        if parts and parts[0] in ("sides",):
            self.tabs.setCurrentIndex(2)
            self.sides_form.focus(pointer)
        elif parts and parts[0] == "victory":
            self.tabs.setCurrentIndex(4)
            self.victory_form.focus(pointer)
        elif parts and parts[0] in ("name", "turns", "environment", "first_player"):
            self.tabs.setCurrentIndex(0)
            self.general.focus(pointer)
        elif parts and parts[0] == "optional_rules":
            self.tabs.setCurrentIndex(self.tabs.indexOf(self.rules_page))
            row = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else -1
            on = self.optional_rules_on()
            item = self.optional_items.get(on[row]) if 0 <= row < len(on) else None
            if item is not None:
                self.optional_list.setCurrentItem(item)
                self.optional_list.scrollToItem(item)
        elif parts and parts[0] == "extension" and self.extension_form is not None:
            self.tabs.setCurrentIndex(self.tabs.indexOf(self.extension_page))
            self.extension_form.focus(pointer)
