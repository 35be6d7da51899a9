"""The scenario editor's preview of a scenario played on a measured table: the table with the scenario's
prepared works, deployment zones, objectives and placements (:class:`studio.qt.table.scene.TableScene`),
redrawn from the scenario document whenever the editor rebuilds its map."""
from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from .scene import TableGraphicsView, TableScene


class TablePreview(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.scene: TableScene | None = None
        self.view: TableGraphicsView | None = None
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)

    def show_scenario(self, table: dict, scenario: dict, colours) -> None:
        """Draw ``table`` (a map's ``table`` block) with the ``extension`` of ``scenario`` (raw document data)."""
        ext = scenario.get("extension") if isinstance(scenario.get("extension"), dict) else {}
        prepared = ext.get("prepared") if isinstance(ext.get("prepared"), dict) else {}
        sides = [str(s.get("id")) for s in scenario.get("sides") or [] if isinstance(s, dict)]
        try:
            width, depth = float(table.get("width_in")), float(table.get("depth_in"))
        except (TypeError, ValueError):
            return
        scene = TableScene(width, depth, colours, self)
        scene.draw_table(table, [f for f in prepared.get("features") or [] if isinstance(f, dict)])
        scene.draw_scenario(ext, sides)
        if self.view is None:
            self.view = TableGraphicsView(scene, self)
            self.layout_.addWidget(self.view)
        else:
            self.view.setScene(scene)
        self.scene = scene
        self.view.fit()


def table_preview(parent=None) -> TablePreview:
    widget = TablePreview(parent)
    widget.hide()
    return widget


def show_table_preview(widget: TablePreview, session, table_id: str | None, scenario: dict) -> None:
    """Show the preview of ``table_id`` for the scenario document data, or hide it (a hex scenario)."""
    data = session.data_of("map", table_id) if table_id else None
    table = data.get("table") if isinstance(data, dict) else None
    if not isinstance(table, dict):
        widget.hide()
        return
    ruleset = session.data_of("ruleset", str(scenario.get("ruleset") or data.get("ruleset") or ""))
    colours = {str(t.get("id")): str(t.get("colour")) for t in (ruleset or {}).get("terrain") or []
               if isinstance(t, dict) and t.get("colour")}
    widget.show_scenario(table, scenario, lambda terrain: colours.get(terrain, "#a0a0a0"))
    widget.show()
