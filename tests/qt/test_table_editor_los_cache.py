"""The table editor builds the table's geometry once per table version for the LOS tool: a drawn feature shows in
the next sight line, and is gone again after undo."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.document.session import ProjectSession
from studio.qt.editors.table_editor import open_table_editor

from .test_table_editor import choose, click


@pytest.fixture
def editor(qtbot, project):
    session = ProjectSession(project)
    ed = open_table_editor(session, session.open_document(project / "maps" / "bfops-mill-valley.yaml"))
    qtbot.addWidget(ed)
    ed.resize(1400, 900)
    ed.show()
    qtbot.waitExposed(ed)
    ed.view.fit()
    return ed


def test_los_follows_edits_and_undo(editor):
    ids = lambda r: [c.area.id for c in r.crossings]   # noqa: E731
    before = editor.compute_los((2.0, 5.5), (12.0, 5.5))
    assert editor.compute_los((2.0, 6.5), (12.0, 6.5)) is not None and editor._geometry is not None
    editor.set_tool("draw")
    choose(editor.stamp_box, "Woods")
    for x, y in ((5.0, 3.0), (8.0, 3.0), (8.0, 8.0), (5.0, 8.0)):
        click(editor, x, y)
    QTest.keyClick(editor.view, Qt.Key.Key_Return)
    new = editor.features()[-1]["id"]
    after = editor.compute_los((2.0, 5.5), (12.0, 5.5))
    assert new in ids(after) and new not in ids(before)
    editor.doc.undo()
    assert new not in ids(editor.compute_los((2.0, 5.5), (12.0, 5.5)))
