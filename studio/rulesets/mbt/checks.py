"""Static checks of MBT data (rules digest d.1-d.3). Codes are stable: ``mbt.<name>``."""
from __future__ import annotations

CHECKS: dict[str, list] = {"unit": [], "toe": [], "scenario": [], "map": []}
