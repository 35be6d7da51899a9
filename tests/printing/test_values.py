"""Every counter and card of the sample project prints the values its card has (Deliver 1).

* No bound field prints blank where the card has a value, and no text is below the layout's minimum size.
* Counters carry the values the rules put on them, on the right side: WaW full/flying on the front,
  reduced/hovering on the back (WaW 1.2.1, 9.1), HQ/Leader command range, leadership and morale (1.3.3, 1.3.6),
  the special reverses (1.3.6-1.3.8); MBT name, card reference, ID, movement (MBT 1.6.1) and a damaged back.
* Data cards print every number and word of the card body (booleans as yes/no).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from studio.model.project import load_project
from studio.printing.faces import (_PLACEHOLDER, card_data, choose_layout, expand, face_items, format_value, lookup,
                                   present)
from studio.printing.primitives import Group, Text

REPO = Path(__file__).resolve().parents[2]
MISSING = lookup({}, "/x")


@lru_cache(maxsize=1)
def sample():
    return load_project(REPO / "data")


def _laid_out() -> set[str]:
    """Rule systems with their own layouts in the sample project (others print on the generic built-ins)."""
    return {d.model.ruleset for d in sample().of_kind("layout") if d.model is not None}


def _units(ruleset=None, laid_out=True):
    return sorted((d.model for d in sample().of_kind("unit") if d.model is not None
                   and (d.model.ruleset in _laid_out() or not laid_out)
                   and (ruleset is None or d.model.ruleset == ruleset)), key=lambda u: u.id)


def _texts(items):
    for it in items:
        if isinstance(it, Group):
            yield from _texts(it.items)
        elif isinstance(it, Text):
            yield it


def _pointers(el) -> list[str]:
    if el.field is not None:
        return [el.field]
    return [m.group(1) for m in _PLACEHOLDER.finditer(el.text or "")]


def _printed(layout, unit, side, data):
    from studio.printing.render import ensure_app, fit_text

    ensure_app()
    w, h = (15.875, 15.875) if layout.target == "counter" else (layout.width_mm, layout.height_mm)
    out = {}
    for t in _texts(face_items(layout, unit, side, w, h, data=data)):
        text, size, needed = fit_text(t)
        out.setdefault(t.label.rsplit(" ", 1)[-1], []).append((text, size, needed, t))
    return out


def _sides(layout):
    return ("front", "back") if layout.target == "counter" else ("front",)


@pytest.mark.parametrize("target", ["counter", "card"])
@pytest.mark.parametrize("unit_id", [u.id for u in _units()])
def test_no_bound_value_prints_blank_and_no_text_is_too_small(unit_id, target):
    unit = sample().model("unit", unit_id)
    layout = choose_layout(sample(), unit, target)
    assert layout.id != f"builtin-{target}", "every rule system of the sample has its own layouts"
    data = {**card_data(unit), "@designation": "2/A/1-37", "@count": 3}
    for side in _sides(layout):
        printed = _printed(layout, unit, side, data)
        for el in layout.elements:
            if el.type != "text" or el.side not in (side, "both") or not present(data, el.when) or \
                    (el.unless is not None and present(data, el.unless)):
                continue
            values = [lookup(data, p) for p in _pointers(el)]
            if values and all(v is MISSING or format_value(v) == "" for v in values):
                continue
            shown = printed.get(el.id, [])
            assert shown and shown[0][0].strip(), f"{unit_id} {side}: {el.id} is blank although the card has " \
                                                  f"{[format_value(v) for v in values]}"
            text, size, needed, t = shown[0]
            if t.shrink and not t.wrap:
                assert needed >= layout.min_font_pt - 1e-6, f"{unit_id} {side} {el.id}: '{text}' needs {needed:.2f} pt"
            for v in values:
                if v is not MISSING and el.field is not None:   # the value, or one of its short forms
                    assert format_value(v) in text or text in [expand(s, data) for s in el.short]


WAW_SIDE_VALUES = ["ap_fp", "he_fp", "aa_fp", "to_hit/ap", "to_hit/he", "to_hit/aa", "range", "armor", "save",
                   "movement/mp", "assault_fp", "command_range", "leadership", "artillery/fixed/fp",
                   "artillery/unlimited/fp"]


def _side_texts(unit, side, layout, data):
    return " | ".join(text for entries in _printed(layout, unit, side, data).values() for text, *_ in entries)


def _bound(layout, side, pointer: str) -> list[str]:
    """Ids of the elements on ``side`` that bind ``pointer`` (as a field, a placeholder or an alternative)."""
    out = []
    for el in layout.elements:
        if el.side in (side, "both") and any(pointer in p.split("|") for p in _pointers(el)):
            out.append(el.id)
    return out


@pytest.mark.parametrize("unit_id", [u.id for u in _units("waw")])
def test_waw_counters_carry_every_side_value(unit_id):
    unit = sample().model("unit", unit_id)
    layout = choose_layout(sample(), unit, "counter")
    data = card_data(unit)
    body = data["body"]
    for side, keys in (("front", ("full", "flying")), ("back", ("reduced", "hovering"))):
        printed = _printed(layout, unit, side, data)
        for key in keys:
            for value_key in WAW_SIDE_VALUES:
                pointer = f"/body/{key}/{value_key}"
                value = lookup(data, pointer)
                if value is MISSING:
                    continue
                ids = _bound(layout, side, pointer)
                texts = [text for i in ids for text, *_ in printed.get(i, [])]
                assert any(format_value(value) in t for t in texts), f"{unit_id} {side}: {pointer}={value} not printed"
    front, back = _side_texts(unit, "front", layout, data), _side_texts(unit, "back", layout, data)
    if body.get("morale") and body["morale"].get("value") is not None:
        assert f"M{body['morale']['value']}" in front
    assert ("HALLOWED GROUND" in back) == bool(body.get("hallowed_ground_reverse"))
    assert ("OPS COMPLETE" in back) == bool(body.get("ops_complete_reverse"))


@pytest.mark.parametrize("unit_id", [u.id for u in _units("waw")])
def test_waw_reduced_bar_only_for_units_with_a_reduced_side(unit_id):
    from studio.printing.primitives import Box

    unit = sample().model("unit", unit_id)
    layout = choose_layout(sample(), unit, "counter")
    items = face_items(layout, unit, "back", 15.875, 15.875)
    white_bars = [b for b in items if isinstance(b, Box) and b.fill == "#ffffff"]
    assert bool(white_bars) == (card_data(unit)["body"].get("reduced") is not None)


@pytest.mark.parametrize("unit_id", [u.id for u in _units("mbt") if u.category == "vehicle"])
def test_mbt_counters_have_id_card_ref_movement_and_a_damaged_back(unit_id):
    unit = sample().model("unit", unit_id)
    layout = choose_layout(sample(), unit, "counter")
    data = {**card_data(unit), "@designation": "211"}
    front, back = _side_texts(unit, "front", layout, data), _side_texts(unit, "back", layout, data)
    body = data["body"]
    move = f"{body['general']['movement']['cross_country']}{body['general']['movement']['traction']}"
    for text in (front, back):
        assert "211" in text and move in text
        if body.get("card_ref"):
            assert body["card_ref"] in text
    assert "DMGD" in back and "DMGD" not in front


#: not card values: ids, and the description of a value the source text lost (a data-entry note; its value prints)
_SKIP_CARD = re.compile(r"/(id|schema_version)$|/lost_values/\d+/(item|field)$")


def _leaves(value, pointer=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{pointer}/{k}")
    elif isinstance(value, list) and value and all(isinstance(v, (dict, list)) for v in value):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{pointer}/{i}")
    elif value not in (None, [], {}, "") and not isinstance(value, bool):
        yield pointer, value


@pytest.mark.parametrize("unit_id", [u.id for u in _units(laid_out=False)])
def test_data_cards_print_every_value_of_the_card(unit_id):
    """Every rule system: its own card layout, or the generic card that prints the whole body."""
    unit = sample().model("unit", unit_id)
    layout = choose_layout(sample(), unit, "card")
    data = card_data(unit)
    text = _side_texts(unit, "front", layout, data)
    if any(el.side == "back" for el in layout.elements):  # a duplex card: its back is printed too
        text += _side_texts(unit, "back", layout, data)
    missing = [f"{p}={format_value(v)}" for p, v in _leaves(data["body"], "/body")
               if not _SKIP_CARD.search(p) and format_value(v) not in text]
    assert not missing, f"{unit_id}: card values not printed: {missing}"
