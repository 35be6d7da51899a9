"""The ruleset tables of towed units (MBT 5.2, 6.6.5, 6.6.7) the engine reads. Kept free of engine imports so the
declarations stay cheap (``data.ENGINE_TABLES`` adds them)."""
from __future__ import annotations

from studio.model.requirements import TableSpec

#: items of table ``towed-units``
TOWED_IDS = ("manhandle-hexes", "manhandle-heights", "tow-max-units", "hth-defender-towed", "bail-ko-towed",
             "bail-bu-towed")

TOWED_TABLES = (
    TableSpec("towed-units", "MBT 5.2, 6.6.5", ("item", "value"), ("value",), ("value",), keys=TOWED_IDS),
    TableSpec("towed-prohibited-hexsides", "MBT 6.6.5", ("feature",), min_rows=0),
)

__all__ = ["TOWED_IDS", "TOWED_TABLES"]
