"""The studio window (PySide6). With ``studio.printing``, the only package that imports Qt.

Widget classes carry a ``Qt`` prefix. Editors edit ``studio.document`` documents; every edit is an undoable
document op, so the window adds no editing logic of its own beyond turning gestures into ops.

- ``app``: ``run(project, screenshot, open_doc)`` entry point and the offscreen screenshot mode
- ``main_window``: menus, toolbars, project tree, editor tabs, inspector, Problems and Test-play panels;
  ``doc_actions``: new/duplicate/rename/delete; ``project_tree``, ``problems``, ``inspector``
- ``map_view``: hex scene (one shared hexagon item per hex, overlay layers) and zoom/pan view
- ``schema_form``: forms generated from JSON Schemas; ``card_preview``: counter/card drawn by the print renderer
- ``editors/``: one module per document kind (``editors.editor_for(kind)``); ``raw_file`` for unreadable files
- ``testplay``: balance runs in the background and the replay viewer
- ``print_preview``: the print preview dialog (printing)
"""
