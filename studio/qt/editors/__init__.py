"""Editors per document kind. ``editor_for(kind)`` returns the editor class (the text editor as fallback)."""
from __future__ import annotations


def editor_for(kind: str | None, data=None):
    from .text_editor import QtTextEditor
    if kind == "map" and isinstance(data, dict) and isinstance(data.get("hex"), dict):
        from .map_editor import QtMapEditor
        return QtMapEditor
    if kind == "map" and isinstance(data, dict) and isinstance(data.get("table"), dict):
        from .table_editor import QtTableEditor
        return QtTableEditor
    if kind == "unit":
        from .card_editor import QtCardEditor
        return QtCardEditor
    if kind == "toe":
        from .toe_editor import QtToeEditor
        return QtToeEditor
    if kind == "scenario":
        from .scenario_editor import QtScenarioEditor
        return QtScenarioEditor
    return QtTextEditor
