"""MBT sample TO&Es and scenarios: they validate cleanly, sizes suit bot test-play, every force is placed."""
from pathlib import Path

import pytest

from studio.model.validate import validate_paths
from studio.model.forces import expand_force, expand_toe

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.fixture(scope="module")
def result():
    return validate_paths([DATA])


def mbt_diags(result, folder):
    return [d for d in result.diagnostics if f"{folder}/mbt/" in d.file.replace("\\", "/")
            and d.severity.value in ("error", "warning")]


def test_toes_and_scenarios_have_no_findings(result):
    assert not mbt_diags(result, "toe"), [d.format_text() for d in mbt_diags(result, "toe")]
    assert not mbt_diags(result, "scenarios"), [d.format_text() for d in mbt_diags(result, "scenarios")]
    assert not [d for d in result.diagnostics if "rulesets/mbt/" in d.file.replace("\\", "/")
                and d.severity.value in ("error", "warning")]


def test_two_toes_per_side(result):
    toes = [d.model for d in result.index.of_kind("toe") if d.model is not None and d.model.ruleset == "mbt"]
    assert sum(t.nation == "US" for t in toes) >= 2
    assert sum(t.nation == "SOV" for t in toes) >= 2


def test_toe_unit_counts(result):
    index = result.index
    counts = {t: len(expand_toe(index.model("toe", t), index)) for t in
              ("us-tank-platoon", "us-cav-troop", "sov-tank-platoon", "sov-tank-company", "sov-mr-company")}
    assert counts == {"us-tank-platoon": 4, "us-cav-troop": 2 + 12 + 8 + 2, "sov-tank-platoon": 3,
                      "sov-tank-company": 10, "sov-mr-company": 10}


SCENARIOS = ["meeting-engagement", "hasty-defense", "delaying-action"]


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_scenario_shape(result, scenario_id):
    index = result.index
    sc = index.model("scenario", scenario_id)
    assert sc is not None
    assert [b.map for b in sc.boards] == ["board-2", "board-4"]
    assert sc.boards[1].at == [20, 0]
    assert {s.id for s in sc.sides} == {"us", "sov"}
    assert sc.victory and sc.special_rules
    for side in sc.sides:
        units = []
        for force in side.forces:
            units += expand_force(force, index)
        assert 6 <= len(units) <= 12, (side.id, len(units))
        for u in units:
            assert index.model("unit", u.unit).ruleset == "mbt"
