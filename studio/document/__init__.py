"""Editing layer: documents as plain JSON-like data, changed only through undoable operations (no Qt).

- ``ops``: the three primitive edits (set a value at a JSON pointer, insert or remove a list item); applying one
  returns its inverse.
- ``history``: undo/redo stack of steps; a *gesture* (brush stroke, drag, form field change) is one step.
- ``document``: :class:`EditableDocument` = data + history + change notifications + dirty state + save/autosave.
- ``session``: :class:`ProjectSession` = an open project folder, its open documents, live validation of unsaved
  content, crash recovery, rename-id that updates every reference, delete with reference check.
- maps: ``board`` (one board's geometry over ``studio.hexgrid``), ``geometry`` (board or assembled boards for
  views), ``maprows`` (row-encoded grids), ``mapedit`` (brush, fill, hexside, road, label edits), ``catalogue``
  (terrain colours and LOS data of a ruleset), ``los`` (line of sight with where and why it is blocked).
- forms: ``schema`` (reading JSON Schemas, skeleton values), ``values`` (text <-> typed values with reasons).
- ``templates`` (new cards and documents, duplicates), ``toe`` (designations, expansion, totals, moves),
  ``scenario_edit`` (forces placed on hexes, zones, victory hexes, boards), ``testplay`` (histograms, replay
  stepping).
"""
