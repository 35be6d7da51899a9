"""Screenshots of the table editor for story 5 (a miniatures player lays out a table, places units, measures LOS
with the obstacle list and saves the set-up), written to ``docs/bfops/screenshots/``.

Run from the repository root: ``python docs/bfops/story5_screenshots.py`` (offscreen; works on a temporary copy of
the sample project, so ``data/`` is never touched).
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "screenshots"
SIZE = (1366, 768)


def main() -> int:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from studio.document.session import ProjectSession
    from studio.qt.editors.table_editor import open_table_editor

    app = QApplication.instance() or QApplication(sys.argv)
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        shutil.copytree(REPO / "data", root, ignore=shutil.ignore_patterns(".*"))
        session = ProjectSession(root)
        editor = open_table_editor(session, session.open_document(root / "maps" / "bfops-mill-valley.yaml"))
        editor.resize(*SIZE)
        editor.show()
        app.processEvents()
        editor.view.fit()

        def at(x: float, y: float) -> QPoint:
            return editor.view.from_table(x, y)

        def click(x: float, y: float) -> None:
            QTest.mouseClick(editor.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                             at(x, y))

        def drag(a, b) -> None:
            vp = editor.view.viewport()
            QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at(*a))
            QTest.mouseMove(vp, at((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
            QTest.mouseMove(vp, at(*b))
            QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at(*b))

        def choose(box, text: str) -> None:
            box.setCurrentIndex(box.findText(text))

        def shot(name: str) -> None:
            app.processEvents()
            editor.grab().save(str(OUT / f"{name}.png"))
            print(f"wrote {OUT / name}.png")

        # 1. lay out: a new copse drawn with the Woods stamp on the 1/4" grid
        editor.set_tool("draw")
        choose(editor.stamp_box, "Woods")
        for x, y in ((4.0, 3.0), (11.0, 2.5), (12.0, 7.0), (5.0, 8.0)):
            click(x, y)
        QTest.keyClick(editor.view, Qt.Key.Key_Return)
        shot("table-editor-layout")
        # 2. place units by side and card
        editor.set_tool("unit")
        for card, side, pts in (("nato-m60a1", "nato", ((28.0, 10.0), (31.0, 10.0), (34.0, 10.0))),
                                ("wp-t62", "warpac", ((14.0, 36.0), (40.0, 34.0), (44.0, 36.0)))):
            choose(editor.card_box, card)
            choose(editor.side_box, side)
            for x, y in pts:
                click(x, y)
        shot("table-editor-units")
        # 3. LOS from an M60A1 to a T-62 beyond the north woods: the obstacle list and modifiers
        editor.set_tool("los")
        drag((28.0, 10.0), (14.0, 36.0))
        shot("table-editor-los")
        # 4. save the set-up as a position of the meeting scenario
        choose(editor.scenario_box, "bfops-meeting-at-the-ford")
        editor.save_setup()
        shot("table-editor-setup-saved")
        editor.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
