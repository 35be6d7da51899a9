"""Unit data card editor: a form generated from the card's schema (the ruleset's card model), inline
validation, and a live preview of the counter and the card as they print.

The schema comes from ``model_for(data).model_json_schema()``, so a ruleset plugin's card body (weapons with
ammunition rows, armour tables ...) appears as nested tables without code here. The form is rebuilt when the
ruleset or category changes (the schema changes with them) and refreshed after any other change.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QLabel, QListWidget, QScrollArea, QSplitter, QToolBar, QVBoxLayout,
                               QWidget)

from studio.model.kinds import model_for

from ..card_preview import QtCardPreview
from ..schema_form import QtSchemaForm
from .base import QtEditor


def _schema_key(data) -> tuple:
    return (data.get("ruleset"), data.get("category")) if isinstance(data, dict) else (None, None)


def with_categories(schema: dict, data) -> dict:
    """``schema`` with the card ``category`` offered as a drop-down of the ruleset's card classes, when its plugin
    names them (no catch-all ``*`` body): the category picks the body's model, so a typo would lose the form. The
    card's current value stays a choice, so an unknown category can still be seen and changed."""
    from studio.model.registry import plugin

    plug = plugin(data.get("ruleset")) if isinstance(data, dict) and isinstance(data.get("ruleset"), str) else None
    if plug is None or not plug.card_bodies or "*" in plug.card_bodies:
        return schema
    choices = sorted(plug.card_bodies)
    current = data.get("category")
    if isinstance(current, str) and current not in choices:
        choices.append(current)
    prop = schema.get("properties", {}).get("category")
    if isinstance(prop, dict):
        prop = {k: v for k, v in prop.items() if k not in ("type", "anyOf")}
        schema = {**schema, "properties": {**schema["properties"], "category": {**prop, "enum": choices}}}
    return schema


class QtCardEditor(QtEditor):
    action_requested = Signal(str, object)
    rename_requested = Signal(str)  # an id typed in the Id field: renamed with its references, if confirmed

    def __init__(self, session, doc, parent=None):
        super().__init__(session, doc, parent)
        self.toolbar = QToolBar("Card")
        self.toolbar.addAction("New from template…", lambda: self.action_requested.emit("new", None))
        self.toolbar.addAction("Duplicate…", lambda: self.action_requested.emit("duplicate", self.doc.path))
        self.toolbar.addAction("Rename id…", lambda: self.action_requested.emit("rename", self.doc.path))
        self.toolbar.addAction("Delete…", lambda: self.action_requested.emit("delete", self.doc.path))
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.preview = QtCardPreview()
        self.problems = QListWidget()
        self.problems.setMaximumHeight(90)
        self.problems.itemActivated.connect(lambda item: self.focus_pointer(item.data(Qt.ItemDataRole.UserRole)))
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.preview, 1)
        rl.addWidget(QLabel("<b>Validation</b>"))
        rl.addWidget(self.problems)
        splitter = QSplitter()
        splitter.addWidget(self.scroll)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([620, 420])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toolbar)
        layout.addWidget(splitter, 1)
        self._key = None
        self.form: QtSchemaForm | None = None
        self._preview_timer = QTimer(self, singleShot=True, interval=120)
        self._preview_timer.timeout.connect(self.update_preview)
        self.build_form()
        self.update_preview()

    def build_form(self) -> None:
        self._key = _schema_key(self.doc.data)
        try:
            schema = with_categories(model_for(self.doc.data).model_json_schema(), self.doc.data)
        except Exception:  # noqa: BLE001 - unknown kind/ruleset: edit the raw envelope only
            from studio.model.documents import UnitCard
            schema = UnitCard.model_json_schema()
        form = QtSchemaForm(self.doc, schema, "", skip=("kind", "schema_version", "placeholder_fields"),
                            status=self.status_message,
                            intercept={"/id": lambda new: self.rename_requested.emit(str(new)) or True})
        form.revealer = lambda widget: QTimer.singleShot(0, lambda: self.scroll.ensureWidgetVisible(widget, 20, 120))
        self.form = form
        self.scroll.setWidget(form)

    def on_document_changed(self, change) -> None:
        if change.reason not in ("do", "undo", "redo"):
            return
        if _schema_key(self.doc.data) != self._key:
            self.build_form()
        else:
            self.form.refresh()
            self._mark()
        self._preview_timer.start()

    def update_preview(self) -> None:
        model, errors = self.doc.model()
        local = {}
        for err in errors:
            pointer = "".join(f"/{p}" for p in err.get("loc", ()) if not (isinstance(p, str) and
                                                                          (p[:1].isupper() or "[" in p)))
            local[pointer] = err.get("msg", "")
        self._local = local
        self._mark()
        if model is None:
            self.preview.show_problem(f"Card not valid ({len(errors)} problem(s)); preview shows the last valid "
                                      "state.")
            return
        self.preview.show_card(model, self.session.current_index())

    def _mark(self) -> None:
        problems = dict(getattr(self, "_local", {}))
        for d in self.diagnostics:
            problems.setdefault(d.pointer, d.message)
        if self.form is not None:
            self.form.mark(problems)
        self.problems.clear()
        from PySide6.QtWidgets import QListWidgetItem
        for pointer, message in sorted(problems.items()):
            item = QListWidgetItem(f"{pointer or '(card)'}: {message}")
            item.setData(Qt.ItemDataRole.UserRole, pointer)
            self.problems.addItem(item)

    def show_diagnostics(self, diagnostics) -> None:
        super().show_diagnostics(diagnostics)
        self._mark()

    def focus_pointer(self, pointer: str) -> None:
        if self.form is None or not pointer:
            return
        widget = self.form.focus(pointer)
        if widget is not None:  # after the layout has made room for a newly opened sub-form
            QTimer.singleShot(0, lambda: self.scroll.ensureWidgetVisible(widget, 20, 120))
