"""Editing layer: documents as plain JSON-like data, changed only through undoable operations (no Qt).

- ``ops``: the three primitive edits (set a value at a JSON pointer, insert or remove a list item); applying one
  returns its inverse.
- ``history``: undo/redo stack of steps; a *gesture* (brush stroke, drag, form field change) is one step.
- ``document``: :class:`EditableDocument` = data + history + change notifications + dirty state + save/autosave.
- ``session``: :class:`ProjectSession` = an open project folder, its open documents, live validation,
  crash recovery, rename-id and delete with reference check.
- ``board``/``maprows``/``mapedit``/``los``: hex board geometry and the map edits the map editor performs.
- ``skeleton``/``toe``/``scenario_edit``: card templates, TO&E numbering and totals, scenario placement edits.
"""
