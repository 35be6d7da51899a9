"""Print-ready sheets: counters, data cards, true-scale maps, scenario sheets and the duplex calibration page.

Pipeline: SOURCE -> :mod:`sources` (unit cards and counts from a TO&E, a scenario or a list) -> page builders
(:mod:`sheets` for counter and card grids, :mod:`mapsheet`, :mod:`scenario_sheet`, :mod:`calibration`), which
place :mod:`primitives` on :class:`~studio.printing.primitives.Page` objects using millimetre geometry from
:mod:`geometry` (grids, bleed, crop/registration marks, duplex back mapping, map tiling) and layout templates
bound to card fields by :mod:`faces` (NATO symbols from :mod:`symbols`) -> the one QPainter renderer
(:mod:`render`) -> PDF / PNG (:mod:`output`) or the preview dialog (``studio.qt.print_preview``).
:mod:`jobs` ties options to builders for the CLI and the dialog.

Only :mod:`render`, :mod:`output` and :mod:`counter_images` import Qt; everything else is Qt-free.
"""
