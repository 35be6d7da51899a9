"""Measured tables (miniatures, in inches): the table model's checks. Filled in by the measured-table work."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:  # pragma: no cover
    from .diagnostics import Diagnostic
    from .project import LoadedDocument, ProjectIndex


def check_table(doc: "LoadedDocument", index: "ProjectIndex") -> Iterator["Diagnostic"]:
    """Static checks of a measured table (``map`` documents with ``table``); nothing for hex boards."""
    return iter(())
