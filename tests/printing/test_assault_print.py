"""Assault counters and cards (data/layouts/assault-*.yaml): the Assault layouts are chosen for Assault units,
counters show steps (Assault 1.C), the TO&E designation (3), the NATO symbol, mobility and armour; the back is
the unspotted side with the facing arrow only (7.F); cards carry the fire data rows (12.A)."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.model.project import load_project
from studio.printing.faces import card_data, choose_layout, face_items
from studio.printing.primitives import Group, Polygon, Text

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sample():
    return load_project(REPO / "data")


def _flat(items):
    for it in items:
        if isinstance(it, Group):
            yield from _flat(it.items)
        else:
            yield it


def test_assault_layouts_are_chosen(sample):
    unit = sample.model("unit", "us-m1-platoon")
    assert choose_layout(sample, unit, "counter").id == "assault-counter"
    assert choose_layout(sample, unit, "card").id == "assault-card"


def test_counter_faces(sample):
    unit = sample.model("unit", "us-m1-platoon")
    lay = choose_layout(sample, unit, "counter")
    data = card_data(unit) | {"@designation": "1C1"}
    front = list(_flat(face_items(lay, unit, "front", 15.875, 15.875, data=data)))
    texts = [i.text for i in front if isinstance(i, Text)]
    assert {"2", "1C1", "T12", "22/12"} <= set(texts)
    assert any(isinstance(i, Polygon) for i in front)                 # the NATO frame (friend: rectangle)
    back = [i.text for i in _flat(face_items(lay, unit, "back", 15.875, 15.875, data=data))
            if isinstance(i, Text)]
    assert "1C1" not in back and "▲" in back                          # unspotted: facing arrow only
    section = sample.model("unit", "us-m3-section")
    texts = [i.text for i in _flat(face_items(lay, section, "front", 15.875, 15.875)) if isinstance(i, Text)]
    assert "1" in texts and "2" not in texts


def test_scenario_counter_sheet_names_every_counter(sample):
    from studio.printing.jobs import PrintOptions, build_pages

    pages = build_pages(sample, PrintOptions("counters", "assault-meeting"))
    front = [t.text for t in _flat(pages[0].items) if isinstance(t, Text)]
    for designation in ("1C1", "HQC1", "TOC1", "HQ91", "A1", "B1"):
        assert designation in front, designation
    assert front.count("2") > 10 and front.count("1") > 5              # platoon and section steps


def test_card_fire_rows(sample):
    unit = sample.model("unit", "su-bmp-platoon")
    lay = choose_layout(sample, unit, "card")
    texts = [i.text for i in _flat(face_items(lay, unit, "front", lay.width_mm, lay.height_mm))
             if isinstance(i, Text)]
    assert {"Msl", "API", "HE", "X/X/5:18/6:18/6:18/X/X", "7:8/7:8/6:7/4:6/X/X/X"} <= set(texts)
    assert any(t.startswith("soviet platoon, 2 step(s)") for t in texts)
