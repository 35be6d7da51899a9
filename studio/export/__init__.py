"""Interchange with other tools, outside the document model.

* ``tiled``: hex-board Map documents to and from Tiled JSON maps (``.tmj``): terrain and elevation as tile
  layers with generated tilesets, hexsides, roads and labels as object layers with properties
  (``studio map export MAP --to tiled OUT.tmj``, ``studio map import IN.tmj --ruleset ID OUT.yaml``).
"""
