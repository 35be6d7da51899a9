"""The Assault ruleset file: the elevation table exactly as Assault 10.B.1 prints it, every chart the text names
as a table (placeholders marked), every digest ambiguity an option or a reading."""
from pathlib import Path

import pytest

from studio.model.project import load_document

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def rs():
    return load_document(REPO / "data" / "rulesets" / "assault" / "ruleset.yaml").model


def test_elevation_table_is_the_published_one(rs):
    t = rs.table("elevation-levels")
    assert not t.placeholder and not t.placeholder_rows and t.rule == "Assault 10.B.1"
    assert [r[0] for r in t.rows] == list(range(9))
    assert [r[2] for r in t.rows] == [25 * n for n in range(9)]
    assert t.rows[0][1] == "Full Lt. Green" and t.rows[8][1] == "Full Dark Brown"
    assert (rs.elevation.min, rs.elevation.max, rs.elevation.metres_per_level) == (0, 8, 25.0)


NAMED_CHARTS = ["terrain-effects", "command-ratings", "spotting", "terrain-spotting", "target-status",
                "spotter-status", "fire-ranges", "hit-confirmation", "conventional-defence", "conventional-crt",
                "indirect-defence", "indirect-delay", "wind-direction", "wind-velocity", "soviet-command-levels"]
PUBLISHED = {"hit-confirmation", "soviet-command-levels"}


@pytest.mark.parametrize("table_id", NAMED_CHARTS)
def test_named_chart_is_a_table_with_placeholders_marked(rs, table_id):
    t = rs.table(table_id)
    assert t.rule.startswith("Assault ")
    assert t.placeholder == (table_id not in PUBLISHED)


def test_values_the_text_gives(rs):
    """Assault 13.B.3 additions; the 14.A example's personnel-in-woods-under-cover 15; constants with rules."""
    assert rs.table("hit-confirmation").rows == [["chobham", 0], ["laminate", 2], ["other", 4]]
    cd = rs.table("conventional-defence")
    woods = next(r for r in cd.rows if r[0] == "woods")
    assert woods[cd.columns.index("personnel_cover")] == 15
    constants = {r[0]: r[1] for r in rs.table("constants").rows}
    assert constants["spotting-range-base"] == 18 and constants["fire-stack-steps"] == 10
    assert constants["road-stack-steps"] == 6 and constants["default-ops"] == 2
    assert (constants["morale-company"], constants["morale-mech-inf"], constants["morale-hq-toc"]) == (10, 12, 8)


def test_every_ambiguity_is_an_option_or_a_reading(rs):
    """Each of the digest's C1-C53 is an option (two or more choices) or a one-choice reading, exactly once."""
    numbers = []
    for item in list(rs.options) + list(rs.readings):
        if item.id[0] == "c" and item.id[1:item.id.find("-")].isdigit():
            numbers.append(int(item.id[1:item.id.index("-")]))
    assert sorted(numbers) == list(range(1, 54))


def test_options_have_choices_and_defaults(rs):
    for o in rs.options:
        assert len(o.choices) >= 2, o.id
        assert o.default in o.choices, o.id
        assert o.rule.startswith("Assault "), o.id
