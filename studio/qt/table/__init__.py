"""Helpers of the measured-table editor (``studio.qt.editors.table_editor``): Qt-free edit logic (``logic``)."""
