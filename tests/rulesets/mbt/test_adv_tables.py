"""The Advanced Game tables no probe can expose (``declarations.AG_UNEXPOSABLE``) are still read: perturbing any
one of their numeric cells changes ``Game.data_fingerprint()`` (conformance ``check_tables_read``)."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from studio.model.project import load_project
from studio.rules.stepping import ConformanceError

from studio.rules.conformance import check_tables_read
from studio.rulesets.mbt import PLUGIN
from studio.rulesets.mbt.declarations import AG_UNEXPOSABLE

DATA = Path(__file__).resolve().parents[3] / "data"


def test_unexposable_advanced_tables_are_read():
    specs = tuple(s for s in PLUGIN.engine_tables if s.id in AG_UNEXPOSABLE)
    assert {s.id for s in specs} == set(AG_UNEXPOSABLE)
    plugin = dataclasses.replace(PLUGIN, engine_tables=specs, unexposable_tables={})
    check_tables_read(plugin, DATA, max_cells_per_table=12)


def test_advanced_spotting_rows_are_read():
    # MBT 6.1.3: the small-arms Spot/Fire and suppressed-spotter rows are read by the Advanced engine
    spec = next(s for s in PLUGIN.engine_tables if s.id == "spotting-modifiers")
    plugin = dataclasses.replace(PLUGIN, engine_tables=(spec,), unexposable_tables={})
    with pytest.raises(ConformanceError) as err:  # Recon spotting is not modelled yet (Full Cover is: MBT 6.1.3.2)
        check_tables_read(plugin, DATA)
    unread = {int(m) for m in re.findall(r"spotting-modifiers:(\d+):modifier", str(err.value))}
    rows = load_project(DATA).model("ruleset", "mbt")
    table = next(t for t in rows.tables if t.id == "spotting-modifiers")
    assert {table.rows[r][0] for r in unread} == {"spotter-recon"}
