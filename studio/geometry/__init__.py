"""Continuous (measured-table) geometry in inches, on Shapely: the counterpart of ``studio.hexgrid``."""
