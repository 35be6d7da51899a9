"""The ruleset tables of the Advanced movement chapter (MBT 6.6.1.2, 6.6.3, 6.6.4.3, 6.6.6-6.6.8) the engine reads.
Kept free of engine imports so the declarations stay cheap (``data.ENGINE_TABLES`` adds them)."""
from __future__ import annotations

from studio.model.requirements import TableSpec

#: rows of table ``advanced-movement`` (item -> value)
ADV_MOVE_IDS = ("crawl-gp", "hasty-gp", "hasty-turns", "hasty-turns-engineer", "hasty-finish-engineer",
                "transported-gp", "transported-ua-range", "advance-attack",
                "building-gpd-multiplier", "building-turret-max", "level-move-cost", "upper-floor-spot-below")
CONSTRUCTIONS = ("wood", "brick", "stone")

ADV_MOVE_TABLES = (
    TableSpec("advanced-movement", "MBT 6.6.1.2, 6.6.3, 6.6.4.1, 6.6.4.3, 6.6.7.2, 6.6.8, 6.1.4.3.1", ("item", "value"), ("value",),
              ("value",), keys=ADV_MOVE_IDS),
    TableSpec("motorcycle-prohibited-hexsides", "MBT 6.6.4.4", ("feature",), min_rows=0),
    TableSpec("building-vehicle-into", "MBT 6.6.3", ("construction", "hit_max", "track_max"),
              ("hit_max", "track_max"), ("hit_max", "track_max"), keys=CONSTRUCTIONS),
)

__all__ = ["ADV_MOVE_IDS", "ADV_MOVE_TABLES", "CONSTRUCTIONS"]
