"""Assault counter and card sheets of both sample scenarios, counter by counter (data/layouts/assault-*.yaml):
every counter's front prints its steps (platoon 2 / section 1, Assault 1.C), its TO&E designation (3: ``2C1``,
``HQC1``, ``TOC1``, ``A1``, ``HQ91``, ``TOC91`` ...), a NATO frame in its side's shape, mobility with movement
allowance (7.D) and armour front/flank when it has armour (13.B.2); every text fits its box at a readable size
without its shorter form being cut, and stays inside the counter with a margin for the cut (nothing clipped)."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.model.project import load_project
from studio.printing.faces import card_data, choose_layout, face_items
from studio.printing.primitives import Group, Polygon, Text
from studio.printing.sources import counters_for

REPO = Path(__file__).resolve().parents[2]
SIZE = 15.875                        # the sample project's 5/8 in counters
SAFE_MM = 0.7                        # text kept this far inside the trim (a cut is rarely further off)
READABLE_PT = 4.0


@pytest.fixture(scope="module")
def sample():
    return load_project(REPO / "data")


def _flat(items):
    for it in items:
        if isinstance(it, Group):
            yield from _flat(it.items)
        else:
            yield it


def _front(sample, counter):
    layout = choose_layout(sample, counter.unit, "counter")
    assert layout.id == "assault-counter"
    data = card_data(counter.unit) | counter.extra
    return list(_flat(face_items(layout, counter.unit, "front", SIZE, SIZE, data=data)))


@pytest.mark.parametrize("scenario", ["assault-meeting", "assault-probe"])
def test_every_counter_prints_its_values(sample, scenario):
    counters = counters_for(sample, scenario)
    assert len(counters) > 40
    for counter in counters:
        body = counter.unit.body
        items = _front(sample, counter)
        texts = [i.text for i in items if isinstance(i, Text)]
        label = f"{counter.unit.id} {counter.designation}"
        assert counter.designation and counter.designation in texts, label
        assert str(body.steps) in texts and body.steps == (2 if body.size == "platoon" else 1), label
        assert f"{body.mobility}{body.movement_allowance or ''}" in texts, label
        if body.armour is not None:
            assert f"{body.armour.front}/{body.armour.flank}" in texts, label
        frames = [i for i in items if isinstance(i, Polygon) and i.fill]
        corners = {"friend": 4, "hostile": 4}[counter.unit.symbol.affiliation]
        assert frames and len(frames[0].points) == corners, label
        if counter.unit.symbol.affiliation == "hostile":              # the diamond: its corners on the axes
            xs = sorted(p[0] for p in frames[0].points)
            assert xs[1] == pytest.approx(xs[2]), label
        assert ("*" in texts) == body.asterisk, label                 # Assault 4.D.1


def test_the_designations_of_both_grammars_are_printed(sample):
    """Assault 3.B/3.C: U.S. platoon, company HQ, battalion HQ and TOC forms; Soviet company, battalion HQ,
    regimental company, HQ and TOC forms."""
    names = {c.designation for s in ("assault-meeting", "assault-probe") for c in counters_for(sample, s)}
    assert {"1C1", "2C1", "HQC1", "HQ1", "TOC1", "1M1", "1S1", "1AT1"} <= names
    assert {"A1", "B3", "HQ3", "AT-91", "HQ91", "TOC91"} <= names


@pytest.mark.parametrize("scenario", ["assault-meeting", "assault-probe"])
def test_nothing_is_clipped_or_unreadable(sample, scenario):
    from studio.printing.render import _advance, ensure_app, fit_text

    ensure_app()
    seen = set()
    for counter in counters_for(sample, scenario):
        if counter.unit.id in seen:
            continue
        seen.add(counter.unit.id)
        for t in (i for i in _front(sample, counter) if isinstance(i, Text)):
            text, size, needed = fit_text(t)
            where = f"{counter.unit.id} {t.label}: {text!r}"
            assert needed >= t.min_pt and size >= READABLE_PT, f"{where} at {size:.1f} pt"
            width = _advance(text, size, t.bold, t.italic)
            left = {"left": t.rect.x, "right": t.rect.right - width,
                    "center": t.rect.x + (t.rect.w - width) / 2}[t.align]
            assert left >= SAFE_MM and left + width <= SIZE - SAFE_MM, f"{where} spans {left:.2f}-{left + width:.2f}"
            assert t.rect.y >= 0 and t.rect.bottom <= SIZE - SAFE_MM, where


def test_the_card_of_a_leg_unit_says_it_has_no_movement_points(sample):
    """Assault 7.D: leg units have no movement allowance; the card says so instead of printing a blank."""
    for unit_id, line in (("us-hq", "Mobility L, no movement points (7.D); transport circle none"),
                          ("us-m1-platoon", "Mobility T 12 MP; transport circle none")):
        unit = sample.model("unit", unit_id)
        layout = choose_layout(sample, unit, "card")
        texts = [i.text for i in _flat(face_items(layout, unit, "front", layout.width_mm, layout.height_mm))
                 if isinstance(i, Text)]
        assert line in texts, texts
        assert not any("- MP" in t for t in texts)
