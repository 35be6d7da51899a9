"""Gesture helpers: real mouse events on a QtMapView at hex centres."""
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtTest import QTest


def point(view, key) -> QPoint:
    p = view.point_of(key)
    assert p is not None, f"hex {key} is not on the view"
    return p


def stroke(view, keys, button=Qt.MouseButton.LeftButton) -> None:
    """Press on the first hex, move through the others, release on the last (one gesture)."""
    vp = view.viewport()
    QTest.mousePress(vp, button, Qt.KeyboardModifier.NoModifier, point(view, keys[0]))
    for key in keys[1:]:
        QTest.mouseMove(vp, point(view, key))
    QTest.mouseRelease(vp, button, Qt.KeyboardModifier.NoModifier, point(view, keys[-1]))


def click(view, key, offset=(0, 0)) -> None:
    p = point(view, key)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(p.x() + offset[0], p.y() + offset[1]))


def drop_toe(editor, toe_id, key):
    """A real QDropEvent carrying the TO&E list's own drag data, released over hex ``key``."""
    item = editor.source_item(toe_id)
    mime = editor.source.mimeData([item])
    event = QDropEvent(QPointF(editor.view.point_of(key)), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    editor.view.dropEvent(event)
    return event
