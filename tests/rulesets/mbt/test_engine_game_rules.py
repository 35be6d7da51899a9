"""The MBT Game: refusals of unplayable scenarios and the data fingerprint (issue 10: tables are real)."""
from __future__ import annotations

import pytest

from studio.rules.load import ScenarioRefused
from studio.rulesets.mbt.engine.game import create_game

from .engine_fixtures import index, new_game


def test_a_scenario_without_its_ruleset_is_refused_with_a_diagnostic():
    idx = index()
    scenario = idx.model("scenario", "meeting-engagement").model_copy(update={"ruleset": "no-such-ruleset"})
    with pytest.raises(ScenarioRefused) as exc:
        create_game(scenario, idx)
    assert "no-such-ruleset" in str(exc.value) and [d.code for d in exc.value.diagnostics] == ["mbt.engine-data"]


def test_data_fingerprint_covers_hexside_features():
    """A hexside feature's movement cost is engine data: editing it changes the data fingerprint."""
    g = new_game()
    before = g.data_fingerprint()
    key, feat = next((k, f) for k, f in sorted(g.features.items()) if f is not None)
    g.features[key] = feat.model_copy(update={"move_cost": {**feat.move_cost, "t": 7.0}})
    assert g.data_fingerprint() != before
    g.features[key] = feat
    assert g.data_fingerprint() == before
