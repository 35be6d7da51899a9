"""`studio print` for a measured-table rule system: unit cards front and back, the 1:1 table layout guide."""
from __future__ import annotations

from pathlib import Path

from studio.model.project import load_project
from studio.printing.jobs import PrintOptions, build_pages
from studio.printing.table_guide import table_guide_pages, template_pages

DATA = Path(__file__).resolve().parents[2] / "data"


def test_cards_with_a_back_print_duplex_unless_told_not_to():
    index = load_project(DATA)
    duplex = build_pages(index, PrintOptions(kind="cards", source="ruleset:bfops"))
    fronts = build_pages(index, PrintOptions(kind="cards", source="ruleset:bfops", duplex="none"))
    assert len(fronts) >= 1 and len(duplex) == 2 * len(fronts)
    mbt = build_pages(index, PrintOptions(kind="cards", source="ruleset:mbt"))
    assert len(mbt) == len(build_pages(index, PrintOptions(kind="cards", source="ruleset:mbt", duplex="none")))


def test_a_measured_table_or_its_scenario_prints_the_layout_guide_and_templates():
    index = load_project(DATA)
    expected = len(table_guide_pages(index, "bfops-mill-valley", "letter", 8.0, 10.0)) + len(template_pages("letter"))
    assert expected > 4
    assert len(build_pages(index, PrintOptions(kind="map", source="bfops-mill-valley"))) == expected
    assert len(build_pages(index, PrintOptions(kind="map", source="bfops-village-defence"))) == expected
