"""The balance file: ``<scenario stem>.balance.json`` beside the scenario file, the report the scenario sheet
prints (``studio play --write-balance`` and the window's test-play runs write it)."""
from __future__ import annotations

import json
from pathlib import Path


def balance_path(scenario: Path) -> Path:
    """``<scenario stem>.balance.json`` beside the scenario file."""
    scenario = Path(scenario)
    return scenario.with_name(scenario.name.split(".")[0] + ".balance.json")


def write_balance(scenario: Path, report: dict) -> Path:
    """Write the balance report beside ``scenario`` atomically: inside the scenario's project (when it has one),
    never through a symlink (:func:`studio.model.safeio.write_atomic`)."""
    from studio.model.project import write_root
    from studio.model.safeio import write_atomic

    return write_atomic(balance_path(scenario), json.dumps(report, indent=2) + "\n", root=write_root(scenario))
