"""Designations from the TO&E / scenario on every counter, short names, and the minimum text size (Deliver 2)."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.model.project import load_project
from studio.printing.geometry import Rect
from studio.printing.primitives import Group, Text
from studio.printing.sources import counters_for

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sample():
    return load_project(REPO / "data")


def _texts(items):
    for it in items:
        if isinstance(it, Group):
            yield from _texts(it.items)
        elif isinstance(it, Text):
            yield it


def test_toe_designation_patterns_name_each_counter(sample):
    """us-cav-troop: '{n} Trp' root, slots '{parent}66' / '{parent}65', platoons '{n}/{parent}' (templates)."""
    names = [(c.unit.id, c.designation) for c in counters_for(sample, "us-cav-troop")]
    assert ("m3", "1 Trp66") in names and ("m1", "1 Trp65") in names
    assert ("m901", "ITV/1 Trp1") in names and ("m901", "ITV/1 Trp2") in names
    assert any(d.startswith("2/1 Trp") for _, d in names)          # the second scout platoon's copies
    assert len(names) == 24 and all(d for _, d in names)


def test_a_scenario_force_designation_names_its_root_echelon(sample):
    counters = counters_for(sample, str(REPO / "data" / "scenarios" / "mbt" / "delaying-action.yaml"))
    by_unit = {}
    for c in counters:
        by_unit.setdefault(c.unit.id, []).append(c.designation)
    # force 'designation: 2' on us-tank-platoon (ldr substituted by m60a3): slot patterns '{parent}{n}1' ...
    assert by_unit["m60a3"][0].startswith("2") and by_unit["t-72a"][0].startswith("3")


def test_designations_are_printed_on_the_counters(sample):
    from studio.printing.jobs import PrintOptions, build_pages

    pages = build_pages(sample, PrintOptions("counters", "us-cav-troop"))
    front = [t.text for t in _texts(pages[0].items)]
    back = [t.text for t in _texts(pages[1].items)]
    for designation in ("1 Trp66", "ITV/1 Trp2"):
        assert designation in front and designation in back


def test_a_short_name_is_used_when_the_name_does_not_fit(sample):
    from studio.printing.faces import choose_layout, face_items
    from studio.printing.render import ensure_app, fit_text

    ensure_app()
    unit = sample.model("unit", "us-ah64-apache")                   # 'AH-64 Apache section'
    layout = choose_layout(sample, unit, "counter")
    name = next(t for t in _texts(face_items(layout, unit, "front", 15.875, 15.875)) if t.label.endswith("front-name"))
    assert name.text == "AH-64 Apache section" and name.alternatives == ("AH-64",)
    text, size, _ = fit_text(name)
    assert (text, size) == ("AH-64", name.font_pt)                  # the short form at full size, not shrunk
    hero = sample.model("unit", "us-hero")                          # 'US Hero' fits: printed as it is
    name = next(t for t in _texts(face_items(layout, hero, "front", 15.875, 15.875)) if t.label.endswith("front-name"))
    assert name.alternatives == ("Hero",) and fit_text(name)[:2] == ("US Hero", name.font_pt)


def test_text_below_the_minimum_size_gives_a_warning():
    from studio.printing.primitives import Page
    from studio.printing.render import ensure_app, fit_text, small_text_warnings

    ensure_app()
    long = Text(Rect(0, 0, 5, 3), "A very long designation", 6.0, shrink=True, min_pt=4.0, label="m1 front name")
    fits = Text(Rect(0, 0, 50, 3), "Short", 6.0, shrink=True, min_pt=4.0, label="m1 front name")
    text, size, needed = fit_text(long)
    assert size == 4.0 and needed < 4.0                             # never shrunk below the minimum
    warnings = small_text_warnings([Page(20, 20, [long, fits])])
    assert len(warnings) == 1 and "A very long designation" in warnings[0] and "below the layout's minimum" in warnings[0]


def test_the_cli_prints_the_warning(project, tmp_path, capsys):
    from studio.cli.main import main

    layouts = project / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / "tiny.yaml").write_text(
        "kind: layout\nid: tiny\nname: tiny\ntarget: counter\nmin_font_pt: 5\nelements:\n"
        "  - {id: name, field: /name, x_mm: 0, y_mm: 0, w_mm: 4, h_mm: 3, font_pt: 6}\n")
    try:
        assert main(["print", "counters", "unit:m1", "--layout", "tiny", "-o", str(tmp_path / "t.pdf"),
                     "--project", str(project)]) == 0
    finally:
        (layouts / "tiny.yaml").unlink()
    err = capsys.readouterr().err
    assert "warning: m1 front name: 'M1 Abrams' needs" in err


def test_a_card_short_name_comes_before_the_type_label(sample):
    """The unit card's own ``short_name`` (envelope field) is the first short form a layout tries."""
    from studio.printing.faces import choose_layout, face_items

    unit = sample.model("unit", "us-ah64-apache").model_copy(update={"short_name": "Apache"})
    layout = choose_layout(sample, unit, "counter")
    name = next(t for t in _texts(face_items(layout, unit, "front", 15.875, 15.875)) if t.label.endswith("front-name"))
    assert name.alternatives[0] == "Apache"
