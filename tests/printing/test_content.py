"""What gets printed: sources and counts, layout binding, symbols, map scale, scenario sheet, layout files."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from studio.model.layout import Layout, LayoutElement
from studio.model.project import load_document
from studio.printing.faces import choose_layout, face_items
from studio.printing.primitives import Text
from studio.printing.sources import SourceError, units_for

REPO = Path(__file__).resolve().parents[2]


def _counts(items):
    return {(it.group, it.unit.id): it.count for it in items}


def test_toe_counts_multiply_and_expand_templates(index):
    counts = _counts(units_for(index, "us-troop"))
    assert counts == {("US cavalry troop", "m3"): 2 + 2 * 3, ("US cavalry troop", "m1"): 4}


def test_scenario_applies_substitutions_per_side(index):
    counts = _counts(units_for(index, "probe"))
    assert counts == {("United States", "m3"): 2, ("United States", "m2"): 6, ("United States", "m1"): 4,
                      ("Soviet Union", "bmp2"): 10}


def test_unit_lists_and_filters(index):
    assert _counts(units_for(index, "unit:m1*3, bmp2")) == {("", "m1"): 3, ("", "bmp2"): 1}
    assert {it.unit.id for it in units_for(index, "nation:ussr")} == {"bmp2"}
    with pytest.raises(SourceError, match="no unit"):
        units_for(index, "unit:m1,zzz")
    with pytest.raises(SourceError, match="selects no unit"):
        units_for(index, "nation:france")


def test_missing_fields_print_blank_and_placeholders_expand(index):
    unit = index.model("unit", "m1")
    lay = Layout(id="t", name="t", design_mm=10, elements=[
        LayoutElement(id="a", field="/body/nothing/here", x_mm=0, y_mm=0, w_mm=5, h_mm=2),
        LayoutElement(id="b", text="{/body/armor/front}-{/body/nope}", missing="?", x_mm=0, y_mm=2, w_mm=5, h_mm=2),
        LayoutElement(id="c", field="/name", x_mm=0, y_mm=4, w_mm=5, h_mm=2, side="back"),
    ])
    front = [i.text for i in face_items(lay, unit, "front", 20, 20) if isinstance(i, Text)]
    back = [i.text for i in face_items(lay, unit, "back", 20, 20) if isinstance(i, Text)]
    assert front == ["12-?"] and back == ["M1 Abrams"]
    scaled = face_items(lay, unit, "front", 20, 20)[0]
    assert scaled.rect.y == pytest.approx(4.0)      # design 10 mm printed at 20 mm: geometry doubles


def test_table_rows_flatten_nested_lists(index):
    unit = index.model("unit", "m1")
    from studio.model.layout import LayoutColumn
    lay = Layout(id="t", name="t", target="card", width_mm=80, height_mm=40, elements=[
        LayoutElement(id="w", type="table", field="/body/weapons", x_mm=0, y_mm=0, w_mm=60, h_mm=30,
                      columns=[LayoutColumn(header="Weapon", field="/name", w_mm=30),
                               LayoutColumn(header="Rng", field="/range", w_mm=30)])])
    texts = [i.text for i in face_items(lay, unit, "front", 80, 40) if isinstance(i, Text)]
    assert texts == ["Weapon", "Rng", "120mm gun", "10/20/30", "7.62mm MG", "5/10/15"]


def test_layout_choice_falls_back_to_builtin(index):
    assert choose_layout(index, index.model("unit", "m1"), "counter").id == "builtin-counter"


@pytest.mark.parametrize("path", sorted((REPO / "data" / "layouts").glob("*.yaml")), ids=lambda p: p.name)
def test_bundled_layouts_are_valid(path):
    doc = load_document(path)
    assert doc.model is not None and not doc.diagnostics


def test_sample_project_picks_system_layouts():
    from studio.model.project import load_project
    idx = load_project(REPO / "data")
    for unit_doc in list(idx.of_kind("unit"))[:50]:
        unit = unit_doc.model
        if unit is None or unit.ruleset not in ("mbt", "waw") or unit.category not in ("vehicle", "*") and \
                unit.ruleset == "mbt":   # MBT leg, towed, aircraft, battery cards: tests/printing/test_mbt_advanced_print.py
            continue
        assert choose_layout(idx, unit, "counter").id == f"{unit.ruleset}-counter"
        assert choose_layout(idx, unit, "card").id == f"{unit.ruleset}-card"


def test_map_is_drawn_at_true_scale(index):
    from studio.model.maps import assemble_single
    from studio.printing.mapsheet import draw_map

    m = index.model("map", "board-2")
    amap = assemble_single(m)
    drawing = draw_map(amap, {})
    for h, (x, y) in list(drawing.centres.items())[:40]:
        for n in amap.neighbours(h):
            nx, ny = drawing.centres[n]
            assert math.hypot(nx - x, ny - y) == pytest.approx(m.hex.hex_mm, abs=1e-6)


def test_scenario_sheet_text(index):
    from studio.printing.render import ensure_app, text_height_mm
    from studio.printing.scenario_sheet import scenario_pages

    ensure_app()
    pages = scenario_pages(index, "probe", "a4", text_height_mm)

    def texts(items):
        for it in items:
            if isinstance(it, Text):
                yield it.text
            elif hasattr(it, "items"):
                yield from texts(it.items)
    all_text = "\n".join(t for p in pages for t in texts(p.items))
    for expected in ("Probe at the crossroads", "Designer: Test Designer", "2026-11-29", "Board 4 (sample) (turned 180)",
                     "6 x M2 Bradley", "Enters on turn 3 from the east edge", "United States holds 2E9: 10 VP",
                     "Night", "M2 Bradley instead of M3 Bradley (slot plt-1/m3)",
                     # the balance section, from the report studio play --write-balance writes
                     "2000 test games, bots greedy vs greedy, seed 7, rules mbt 2.0.",
                     "Soviet Union wins 71% (95% CI 69%-73%), 1420 games.",
                     "United States wins 29% (95% CI 27%-31%), 580 games.", "Draws: 0.",
                     "Games last 9.4 turns on average (from 5 to 12).",
                     "Victory points per game: United States 6.2 (sd 3.1); Soviet Union 11.5 (sd 4.0).",
                     "Losses per game: United States 3.4; Soviet Union 5.1.",
                     "Placeholder tables used (values not in the rulebook): gp fire table.",
                     "Environment rules applied: night visibility."):
        assert expected in all_text
    for raw in ("{", "'p'", "ci95", "elapsed_s", "steps_per_s", "456789", "-> m2"):
        assert raw not in all_text
    # nothing flows below the bottom margin
    for p in pages:
        for it in p.items:
            if isinstance(it, Text):
                assert it.rect.bottom <= p.height - 5


def test_balance_file_is_optional(tmp_path):
    from studio.printing.scenario_sheet import balance_lines
    assert balance_lines(tmp_path / "none.balance.json", {}) == []
    bad = tmp_path / "x.balance.json"
    bad.write_text("{not json")
    assert "could not be read" in balance_lines(bad, {})[0]


def test_symbols_cover_affiliations_and_echelons():
    from studio.model.documents import UnitSymbol
    from studio.printing.geometry import Rect
    from studio.printing.symbols import symbol_items

    box = Rect(0, 0, 12, 10)
    for aff in ("friend", "hostile", "neutral", "unknown"):
        for branch in ("armor", "infantry", "recon", "artillery", "hq", "strange_new_branch"):
            items = symbol_items(UnitSymbol(affiliation=aff, branch=branch, echelon="company"), box)
            assert len(items) >= 3


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_mbt_data_cards_print_two_per_page(paper):
    """The full MBT data card (180 x 120 mm: every Basic and Advanced Game field) prints two to a page."""
    from studio.model.project import load_project
    from studio.printing.jobs import PrintOptions, build_pages

    idx = load_project(REPO / "data")
    pages = build_pages(idx, PrintOptions("cards", "ruleset:mbt", paper=paper, bleed="0", gutter="0"))
    cards = [it for it in pages[0].items if getattr(it, "tag", "").startswith("card:")]
    assert len(cards) == 2
    from studio.printing.faces import choose_layout
    per_layout: dict[str, int] = {}
    for d in idx.of_kind("unit"):
        if d.ruleset == "mbt" and d.model is not None:
            lay = choose_layout(idx, d.model, "card").id
            per_layout[lay] = per_layout.get(lay, 0) + 1
    # every MBT unit card, one each, two per page (a page holds cards of one layout)
    assert len(pages) == sum((n + 1) // 2 for n in per_layout.values())
    assert all(p.width < p.height for p in pages)        # portrait


def test_map_overview_has_a_terrain_key_of_what_the_map_uses():
    from studio.model.maps import assemble_scenario
    from studio.model.project import load_project
    from studio.printing.jobs import PrintOptions, build_pages
    from studio.printing.mapsheet import map_key

    idx = load_project(REPO / "data")
    sc = idx.model("scenario", "hasty-defense")
    amap = assemble_scenario(sc, idx)
    key = map_key(idx, "mbt", amap)
    rs = idx.model("ruleset", "mbt")
    used = set(amap.terrain.values())
    assert [e.name for e in key if e.kind == "terrain"] == [t.name for t in rs.terrain if t.code in used]
    assert {e.kind for e in key} == {"terrain", "hexside", "road"}
    assert all(e.rule for e in key)                                     # rule references next to each name
    overview = build_pages(idx, PrintOptions("map", "hasty-defense"))[0]
    group = next(it for it in overview.items if getattr(it, "tag", "") == "map:key")
    texts = [it.text for it in group.items if isinstance(it, Text)]
    assert texts[0] == "Key" and len(texts) == len(key) + 1
    assert any(t.startswith("Woods") for t in texts) and any(t.startswith("Road") for t in texts)
    assert group.dy + 5 + 4.2 * 4 < overview.height                     # on the page, under the map


def test_town_and_feature_names_are_labelled_on_the_map():
    from studio.model.maps import assemble_single
    from studio.model.project import load_project
    from studio.printing.mapsheet import draw_map
    from studio.printing.primitives import Box

    idx = load_project(REPO / "data")
    drawing = draw_map(assemble_single(idx.model("map", "board-2")), {})
    items = drawing.items
    k = next(i for i, it in enumerate(items) if isinstance(it, Text) and it.text == "Town 2")
    assert isinstance(items[k - 1], Box) and items[k - 1].fill == "#ffffff" and items[k - 1].rect == items[k].rect
    assert items[k].bold and items[k].font_pt >= 0.5 * drawing.hex_mm


def test_card_sheets_print_one_card_per_unit_type_with_its_count(index):
    from studio.printing.jobs import PrintOptions, build_pages

    pages = build_pages(index, PrintOptions("cards", "probe"))
    cards = [it for p in pages for it in p.items if getattr(it, "tag", "").startswith("card:")]
    assert len(cards) == 4                               # m3, m2, m1, bmp2 - not one card per counter

    def texts(items):
        for it in items:
            if isinstance(it, Text):
                yield it.text
            elif hasattr(it, "items"):
                yield from texts(it.items)
    counts = sorted(t for c in cards for t in texts(c.items) if t.startswith("x "))
    assert counts == ["x 10", "x 2", "x 4", "x 6"]
    body = [t for c in cards for t in texts(c.items) if t.startswith("armor front 12")]
    assert len(body) == 4                                # a system without layouts: the whole body on its card
