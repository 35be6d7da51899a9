"""Interchange with other tools, outside the document model (see docs/INTERCHANGE.md).

* ``tiled``: hex-board Map documents to and from Tiled JSON maps (``.tmj``): terrain and elevation as tile
  layers with generated tilesets, hexsides, roads and labels as object layers with properties
  (``studio map export MAP --to tiled OUT.tmj``, ``studio map import IN.tmj --ruleset ID OUT.yaml``).
* ``vassal`` (with ``vassal_grid``, VASSAL's hex-grid arithmetic): VASSAL 3.7 modules (``studio export vassal``).
* ``package``: scenario packages with a manifest, and their safe import (``studio export|import package``).
* ``spreadsheet``: unit cards to and from XLSX/CSV (``studio units export|import``).
* ``preflight``: the validation and test-play check every export and scenario print runs first.
"""
