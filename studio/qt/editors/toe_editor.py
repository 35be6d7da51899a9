"""TO&E editor: the echelon tree with drag and drop, slot counts, designation numbering, card look-up with
preview, and totals per echelon.

The tree shows the document's echelons and slots; dropping an item moves it (one undo step, via
``studio.document.toe.move_ops``). The side panel edits the selected echelon or slot with a generated form and
looks up its unit card (with the printed counter preview). The organisation view expands templates and counts
into designated units, with totals per echelon.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QLabel, QPushButton, QScrollArea,
                               QSplitter, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from studio.document import toe as toelogic
from studio.document.ops import Insert, Remove, Set
from studio.model.documents import Echelon, Slot, Toe
from studio.model.pointers import split

from ..card_preview import QtCardPreview
from ..schema_form import QtSchemaForm
from .base import QtEditor

POINTER = Qt.ItemDataRole.UserRole
from ..project_tree import MIME_DOCUMENT  # noqa: E402 - drag data of the project tree


class QtToeTree(QTreeWidget):
    """Echelons and slots; internal drag and drop handled by the editor (the document moves, not the items)."""

    def __init__(self, editor: "QtToeEditor"):
        super().__init__()
        self.editor = editor
        self.setHeaderLabels(["Echelon / slot", "Kind", "Count", "Unit", "Designation", "Totals"])
        for column, width in enumerate((190, 70, 45, 120, 110)):
            self.setColumnWidth(column, width)
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_DOCUMENT):
            event.acceptProposedAction()
            return
        super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_DOCUMENT):
            event.acceptProposedAction()
            return
        super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:
        target = self.itemAt(event.position().toPoint())
        if event.mimeData().hasFormat(MIME_DOCUMENT):  # a unit card dragged from the project tree
            kind, _, doc_id = bytes(event.mimeData().data(MIME_DOCUMENT)).decode().partition(":")
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
            if kind == "unit" and doc_id:
                self.editor.add_card(doc_id, target.data(0, POINTER) if target is not None else "/root")
            else:
                self.editor.status_message.emit("Drop unit cards onto an echelon to add them as slots")
            return
        source = self.currentItem()
        if source is None or target is None:
            event.ignore()
            return
        rect = self.visualItemRect(target)
        y = event.position().y()
        where = "above" if y < rect.top() + rect.height() / 4 else "below" if y > rect.bottom() - rect.height() / 4 \
            else "on"
        event.setDropAction(Qt.DropAction.IgnoreAction)  # the view is rebuilt from the document
        event.accept()
        self.editor.move_item(source.data(0, POINTER), target.data(0, POINTER), where)


class QtToeEditor(QtEditor):
    #: the selected echelon's or slot's form is shown whole up to this height (pixels); past it, it scrolls
    MAX_FORM_HEIGHT = 420

    def __init__(self, session, doc, parent=None):
        super().__init__(session, doc, parent)
        self.tree = QtToeTree(self)
        self.tree.itemSelectionChanged.connect(self._selected)
        self.org = QTreeWidget()
        self.org.setHeaderLabels(["Organisation (expanded)", "Units", "Totals"])
        self.org.setColumnWidth(0, 260)
        add_echelon = QPushButton("Add echelon")
        add_echelon.clicked.connect(self.add_echelon)
        add_slot = QPushButton("Add slot")
        add_slot.clicked.connect(self.add_slot)
        remove = QPushButton("Remove")
        remove.clicked.connect(self.remove_selected)
        buttons = QHBoxLayout()
        for b in (add_echelon, add_slot, remove):
            buttons.addWidget(b)
        buttons.addStretch(1)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addLayout(buttons)
        ll.addWidget(self.tree, 3)
        ll.addWidget(self.org, 2)
        self.header_form = QtSchemaForm(self.doc, Toe.model_json_schema(), "",
                                        skip=("kind", "schema_version", "id", "ruleset", "root"),
                                        status=self.status_message)
        self.form_area = QScrollArea()
        self.form_area.setWidgetResizable(True)
        self.unit_box = QComboBox()
        self.unit_box.setEditable(True)
        self.unit_box.activated.connect(self._unit_chosen)
        self.preview = QtCardPreview()
        self.card_label = QLabel("")
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(QLabel("<b>TO&amp;E</b> (name, nation, years, notes)"))
        rl.addWidget(self.header_form)
        rl.addWidget(QLabel("<b>Selected echelon or slot</b>"))
        rl.addWidget(self.form_area, 2)
        rl.addWidget(QLabel("<b>Card look-up</b> (unit of the selected slot)"))
        rl.addWidget(self.unit_box)
        rl.addWidget(self.card_label)
        rl.addWidget(self.preview, 3)
        right_area = QScrollArea()  # the side panel scrolls: the window never grows past a 768-pixel screen
        right_area.setWidgetResizable(True)
        right_area.setWidget(right)
        right_area.setMinimumWidth(320)
        self.preview.setMinimumHeight(220)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(right_area)
        splitter.setSizes([640, 420])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self.form: QtSchemaForm | None = None
        self._fill_units()
        self.refresh()
        first = "/root/slots/0" if self.doc.get("/root/slots/0") is not None else "/root"
        self.select(first)

    # ---------------------------------------------------------------- view
    def _lookup(self, toe_id: str):
        return self.session.data_of("toe", toe_id)

    def refresh(self) -> None:
        selected = self.selected_pointer()
        expanded = toelogic.expand(self.doc.data, self._lookup)
        totals = {}
        if expanded is not None:
            for node in expanded.walk():
                if node.pointer and node.pointer not in totals:
                    totals[node.pointer] = (node, node.totals())
        self.tree.clear()
        root = self.doc.get("/root")
        if isinstance(root, dict):
            self.tree.addTopLevelItem(self._item(root, "/root", totals))
        self.tree.expandAll()
        self._fill_org(expanded)
        if selected:
            self.select(selected)

    def _item(self, ech: dict, pointer: str, totals) -> QTreeWidgetItem:
        node, total = totals.get(pointer, (None, {}))
        text = ", ".join(f"{n}× {u}" for u, n in sorted(total.items()))
        item = QTreeWidgetItem([f"{ech.get('name') or ech.get('id')}", str(ech.get("echelon", "")),
                                str(ech.get("count", 1)), f"template {ech['template']}" if ech.get("template") else "",
                                node.designation if node else str(ech.get("designation", "")), text])
        item.setData(0, POINTER, pointer)
        item.setToolTip(5, text)
        for k, slot in enumerate(ech.get("slots") or []):
            if isinstance(slot, dict):
                child = QTreeWidgetItem([f"• {slot.get('id')}", str(slot.get("role", "line")),
                                         str(slot.get("count", 1)), str(slot.get("unit", "")),
                                         str(slot.get("designation", "") or ""), ""])
                child.setData(0, POINTER, f"{pointer}/slots/{k}")
                if self.session.find(str(slot.get("unit")), "unit") is None:
                    child.setForeground(3, Qt.GlobalColor.red)
                    child.setToolTip(3, "no unit card with this id")
                item.addChild(child)
        for i, sub in enumerate(ech.get("children") or []):
            if isinstance(sub, dict):
                item.addChild(self._item(sub, f"{pointer}/children/{i}", totals))
        return item

    def _fill_org(self, node) -> None:
        self.org.clear()
        if node is None:
            return

        def add(n, parent):
            total = n.totals()
            item = QTreeWidgetItem([f"{n.designation}  {n.name} ({n.echelon})",
                                    ", ".join(f"{u.designation}: {u.unit}" for u in n.units),
                                    f"{sum(total.values())} units: " + ", ".join(f"{c}× {u}" for u, c in
                                                                                sorted(total.items()))])
            if parent is None:
                self.org.addTopLevelItem(item)
            else:
                parent.addChild(item)
            for child in n.children:
                add(child, item)
        add(node, None)
        self.org.expandAll()

    def _all_items(self):
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            item = stack.pop()
            yield item
            stack.extend(item.child(i) for i in range(item.childCount()))

    def item_of(self, pointer: str) -> QTreeWidgetItem | None:
        return next((i for i in self._all_items() if i.data(0, POINTER) == pointer), None)

    def select(self, pointer: str) -> None:
        item = self.item_of(pointer)
        if item is not None:
            self.tree.setCurrentItem(item)

    def selected_pointer(self) -> str | None:
        item = self.tree.currentItem()
        return item.data(0, POINTER) if item is not None else None

    def _selected(self) -> None:
        pointer = self.selected_pointer()
        if pointer is None:
            return
        model = Slot if toelogic.item_kind(pointer) == "slot" else Echelon
        schema = model.model_json_schema()
        if self.form is not None and self.form.pointer == pointer:
            self.form.refresh()
        else:
            self.form = QtSchemaForm(self.doc, schema, pointer, skip=("slots", "children"),
                                     node_spec=_spec(schema), status=self.status_message, choices=self.choices)
            self.form_area.setWidget(self.form)
            # the whole form shows (the side panel itself scrolls), not three lines of it in a box
            self.form_area.setMinimumHeight(min(self.MAX_FORM_HEIGHT, self.form.sizeHint().height() + 6))
        unit = self.doc.get(pointer + "/unit") if toelogic.item_kind(pointer) == "slot" else None
        self.show_card(unit)

    # ---------------------------------------------------------------- card look-up
    def choices(self, pointer: str) -> list[str] | None:
        """A slot's unit: the cards of the TO&E's rule system; an echelon's template: its other TO&Es."""
        ruleset = self.doc.data.get("ruleset") if isinstance(self.doc.data, dict) else None
        kind = {"unit": "unit", "template": "toe"}.get(pointer.rsplit("/", 1)[-1])
        if kind is None:
            return None
        return sorted(e.id for e in self.session.entries() if e.kind == kind and e.id and e.id != self.doc.id
                      and (e.ruleset == ruleset or not ruleset))

    def _fill_units(self) -> None:
        ruleset = self.doc.data.get("ruleset")
        self.unit_box.clear()
        for entry in self.session.entries():
            if entry.kind == "unit" and entry.id and (entry.ruleset == ruleset or not ruleset):
                self.unit_box.addItem(f"{entry.id} — {entry.name}", entry.id)

    def show_card(self, unit_id) -> None:
        if not isinstance(unit_id, str):
            self.card_label.setText("")
            return
        index = self.unit_box.findData(unit_id)
        if index >= 0:
            self.unit_box.setCurrentIndex(index)
        model = self.session.model_of("unit", unit_id)
        if model is None:
            self.card_label.setText(f"No valid unit card '{unit_id}'")
            return
        self.card_label.setText(f"{model.name} ({model.nation})")
        self.preview.show_card(model, self.session.current_index())

    def _unit_chosen(self, _index: int) -> None:
        pointer = self.selected_pointer()
        unit = self.unit_box.currentData()
        if pointer and toelogic.item_kind(pointer) == "slot" and unit and unit != self.doc.get(pointer + "/unit"):
            self.apply(f"Set unit {unit}", [Set(pointer + "/unit", unit)])

    # ---------------------------------------------------------------- edits
    def move_item(self, source: str, target: str, where: str) -> bool:
        """Move ``source`` relative to ``target`` ('above', 'below' or 'on' = into it)."""
        if not source or not target or source == target:
            return False
        kind = toelogic.item_kind(source)
        target_kind = toelogic.item_kind(target)
        wanted = "slots" if kind == "slot" else "children"
        if where == "on" and target_kind == "echelon":
            target_list = f"{target}/{wanted}"
            existing = self.doc.get(target_list)
            index = len(existing) if isinstance(existing, list) else 0
        else:
            parts = split(target)
            if target_kind != kind:
                if target_kind == "slot":  # dropping an echelon next to a slot: into that slot's echelon
                    target_list = "/" + "/".join(parts[:-2]) + f"/{wanted}"
                    existing = self.doc.get(target_list)
                    index = len(existing) if isinstance(existing, list) else 0
                else:
                    self.status_message.emit("A slot belongs inside an echelon: drop it onto the echelon")
                    return False
            else:
                target_list = "/" + "/".join(parts[:-1])
                index = int(parts[-1]) + (1 if where == "below" else 0)
        try:
            ops = toelogic.move_ops(self.doc.data, source, target_list, index)
        except ValueError as exc:
            self.status_message.emit(f"Cannot move: {exc}")
            return False
        return self.apply(f"Move {kind}", ops)

    def _target_echelon(self) -> str:
        pointer = self.selected_pointer() or "/root"
        if toelogic.item_kind(pointer) == "slot":
            pointer = "/" + "/".join(split(pointer)[:-2])
        return pointer

    def _unique(self, items, base: str) -> str:
        taken = {i.get("id") for i in items if isinstance(i, dict)}
        n = 1
        while f"{base}-{n}" in taken:
            n += 1
        return f"{base}-{n}"

    def add_echelon(self) -> None:
        parent = self._target_echelon()
        children = self.doc.get(parent + "/children") or []
        count = len(children)
        new = {"id": self._unique(children, "ech"), "name": "New echelon", "echelon": "platoon",
               "designation": "{n}/{parent}"}
        ops = [Insert(f"{parent}/children/-", new)] if isinstance(self.doc.get(parent + "/children"), list) \
            else [Set(f"{parent}/children", [new])]
        if self.apply("Add echelon", ops):
            self.select(f"{parent}/children/{count}")

    def add_slot(self) -> None:
        parent = self._target_echelon()
        slots = self.doc.get(parent + "/slots") or []
        count = len(slots)
        unit = self.unit_box.currentData() or "unit"
        new = {"id": self._unique(slots, "slot"), "unit": unit, "count": 1, "role": "line"}
        ops = [Insert(f"{parent}/slots/-", new)] if isinstance(self.doc.get(parent + "/slots"), list) \
            else [Set(f"{parent}/slots", [new])]
        if self.apply("Add slot", ops):
            self.select(f"{parent}/slots/{count}")

    def remove_selected(self) -> None:
        pointer = self.selected_pointer()
        if not pointer or pointer == "/root":
            self.status_message.emit("Select an echelon or slot below the root to remove it")
            return
        self.apply("Remove", [Remove(pointer)])

    def add_card(self, unit_id: str, target: str | None) -> bool:
        """A unit card dropped on ``target`` (an echelon, or a slot: its echelon): a new slot of that card, or
        one more of it when the echelon already has a slot of the card (one undo step)."""
        parent = target or "/root"
        if toelogic.item_kind(parent) == "slot":
            parent = "/" + "/".join(split(parent)[:-2])
        ruleset = self.doc.data.get("ruleset")
        card = self.session.data_of("unit", unit_id)
        if isinstance(card, dict) and ruleset and card.get("ruleset") != ruleset:
            self.status_message.emit(f"{unit_id} belongs to rule system '{card.get('ruleset')}', this TO&E to "
                                     f"'{ruleset}'")
            return False
        slots = self.doc.get(parent + "/slots")
        slots = slots if isinstance(slots, list) else []
        same = next((i for i, sl in enumerate(slots) if isinstance(sl, dict) and sl.get("unit") == unit_id), None)
        if same is not None:
            count = slots[same].get("count", 1)
            count = count if isinstance(count, int) and not isinstance(count, bool) else 1
            ok = self.apply(f"Add {unit_id}", [Set(f"{parent}/slots/{same}/count", count + 1)])
            pointer = f"{parent}/slots/{same}"
        else:
            new = {"id": self._unique(slots, unit_id.split("-")[0] or "slot"), "unit": unit_id, "count": 1,
                   "role": "line"}
            ops = [Insert(f"{parent}/slots/-", new)] if isinstance(self.doc.get(parent + "/slots"), list) \
                else [Set(f"{parent}/slots", [new])]
            ok = self.apply(f"Add {unit_id}", ops)
            pointer = f"{parent}/slots/{len(slots)}"
        if ok:
            self.select(pointer)
        return ok

    def on_document_changed(self, change) -> None:
        if change.reason in ("do", "undo", "redo"):
            self.refresh()
            self.header_form.refresh()

    def focus_pointer(self, pointer: str) -> None:
        parts = split(pointer) if pointer.startswith("/") else []
        while parts:
            candidate = "/" + "/".join(parts)
            if self.item_of(candidate) is not None:
                self.select(candidate)
                if self.form is not None:
                    self.form.focus(pointer)
                return
            parts.pop()


def _spec(schema):
    from studio.document.schema import node
    return node(schema, schema)
