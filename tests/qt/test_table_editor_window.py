"""The window opens a measured table (a map with ``table``) in the table editor, a hex board in the map editor."""
from __future__ import annotations

import shutil
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data"


def test_measured_tables_open_in_the_table_editor(make_window, tmp_path):
    from studio.qt.editors.map_editor import QtMapEditor
    from studio.qt.editors.table_editor import QtTableEditor

    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    window = make_window(root)
    assert isinstance(window.open_id("bfops-mill-valley"), QtTableEditor)
    assert isinstance(window.open_id("board-2"), QtMapEditor)
