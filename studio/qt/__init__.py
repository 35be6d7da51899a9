"""The studio window (PySide6). The only package that imports Qt.

Widget classes carry a ``Qt`` prefix. Editors edit ``studio.document`` documents; every edit is an undoable
document op, so the window adds no editing logic of its own beyond turning gestures into ops.

- ``app``: ``run(project, screenshot, open_doc)`` entry point (and the offscreen screenshot mode)
- ``main_window``: menus, toolbars, project tree, editor tabs, inspector, Problems and Test-play panels
- ``map_view``: hex scene and zoom/pan view shared by the map and scenario editors
- ``editors/``: one module per document kind; ``editors.editor_for(kind)`` picks one
"""
