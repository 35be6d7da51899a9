"""MBT Advanced Game print (issue 12, Deliver 6): every card category prints on its own layout, the Advanced values
print in the element that names them, and the counters carry what the rules put on them (helicopter Low front /
NOE back, MBT 6.7.5.1; leg movement '2L 3', MBT 6.6.4.1)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from studio.model.project import load_project
from studio.printing.faces import _table, card_data, choose_layout, face_items
from studio.printing.primitives import Group, Text

REPO = Path(__file__).resolve().parents[2]

LAYOUTS = {"vehicle": ("mbt-card", "mbt-counter"), "leg": ("mbt-leg-card", "mbt-leg-counter"),
           "towed": ("mbt-towed-card", "mbt-leg-counter"), "crew_served": ("mbt-crew-card", "mbt-leg-counter"),
           "fixed_wing": ("mbt-aircraft-card", "mbt-air-counter"),
           "helicopter": ("mbt-helicopter-card", "mbt-helicopter-counter"),
           "battery": ("mbt-battery-card", "mbt-air-counter")}


@lru_cache(maxsize=1)
def sample():
    return load_project(REPO / "data")


def texts(unit_id: str, target: str, side: str = "front") -> dict[str, str]:
    """Element id -> printed text of one side of a unit's card or counter."""
    from studio.printing.render import ensure_app

    ensure_app()
    unit = sample().model("unit", unit_id)
    layout = choose_layout(sample(), unit, target)
    w, h = (15.875, 15.875) if target == "counter" else (layout.width_mm, layout.height_mm)
    out: dict[str, list[str]] = {}

    def walk(items):
        for it in items:
            if isinstance(it, Group):
                walk(it.items)
            elif isinstance(it, Text):
                out.setdefault(it.label.rsplit(" ", 1)[-1], []).append(it.text)

    data = {**card_data(unit), "@designation": "2-1", "@count": 1}
    walk(face_items(layout, unit, side, w, h, data=data))
    for el in layout.elements:          # table cells: the rows as the table element draws them
        if el.type == "table" and el.side in (side, "both"):
            out[el.id] = [it.text for it in _table(el, data, 1.0) if isinstance(it, Text)]
    return {k: " | ".join(v) for k, v in out.items()}


@pytest.mark.parametrize("category", sorted(LAYOUTS))
def test_every_category_prints_on_its_own_layouts(category):
    units = [d.model for d in sample().of_kind("unit") if d.model is not None and d.model.ruleset == "mbt"
             and d.model.category == category]
    assert units, f"no sample card of category {category}"
    for unit in units:
        assert (choose_layout(sample(), unit, "card").id, choose_layout(sample(), unit, "counter").id) == \
            LAYOUTS[category], unit.id


def test_vehicle_card_prints_the_advanced_fields():
    t = texts("t-80bv", "card")
    # AG armour table (MBT 6.5.2.3.2): Front Rising HF 119, Front/Side Level HF 100, deck 20
    assert "119" in t["ag"] and "100" in t["ag"] and "deck 20" in t["ag-head"]
    # ATGM row (MBT 5.1.3.3.1): Songster penetration 140, GP 8, CL 2, SP 10
    assert "140 8 C2 S10" in t["ammo"]
    # GP factor row 9/8/7/6/5 and GP Effectiveness 1-5 (MBT 6.5.4.1, 6.5.4.4.2); ammo limits A9 G9 D5 (5.16.2)
    assert "1-5" in t["ammo"] and "A 9/G 9/D 5" in t["weapon-flags"]
    # card-level AP damage (MBT 6.5.2.6)
    assert "ND/ND/DM/DM/KO/KO/KO/KO/BU/BU" in t["advanced"]
    zsu = texts("zsu-23-4", "card")
    assert "gun 23" in zsu["weapon-flags"] and "0 yes no yes" in zsu["weapon-flags"]   # AA: radar, N/A high


def test_leg_card_prints_movement_gpd_capacity_and_attachments():
    t = texts("sov-mr-squad", "card")
    assert "M 2L 3" in t["movement"]                                   # MBT 6.6.4.1
    assert "none 2S, light 4S, medium 6S, heavy 8S; Full Cover +2" in t["gpd"]   # MBT 6.5.4.2.2
    assert "Passenger capacity 0-1" in t["capacity"] and "S5" in t["capacity"]
    assert "rpg-7" in t["attached"] and "sov-mr-half-squad" in t["unit"]
    assert "7" in t["ammo"] and "4" in t["ammo"]                        # GP 7 at range 1, 4 at range 4
    fo = texts("sov-fo-section", "card")
    assert "with attached weapons 1L 0" in fo["movement"]              # MBT 5.1.2


def test_crew_served_card_prints_fixed_gp_and_restrictions():
    law = texts("law", "card")
    assert "type hhatw" in law["weapon"] and law["ammo"].rstrip().split(" | ")[0]
    assert "6" in law["ammo"]                                           # LAW fixed GP 6 (MBT 5.1.3.4)
    dragon = texts("dragon", "card")
    assert "100 12 C1 S25" in dragon["ammo"]                            # Dragon GP 12 (MBT 5.1.3.3.1)
    assert "No Short Halt yes, not transported yes, not upper floors yes" in dragon["restrictions"]


def test_aircraft_card_prints_points_loads_and_strafe():
    t = texts("a-10", "card")
    assert "Base points 174" in t["points"] and "LD 6" in t["points"]   # MBT 6.7.1
    assert "30mm GAU-8/A Gatling cannon" in t["strafe"]
    loads = t["loads"]
    for value in ("30", "40", "20", "50", "6-30"):                       # Bomb 30, High-Drag 40, PGM +20 ...
        assert value in loads, value


def test_helicopter_card_and_counter():
    t = texts("mi-24", "card")
    assert "M Low 26 / NOE 10" in t["movement"]                         # MBT 6.7.5.1
    assert t["configs"].count("168") >= 2 and "8" in t["configs"]       # both fits 168 points (MBT 6.7.4)
    assert "LOW 26" in texts("mi-24", "counter", "front")["low"]
    assert "NOE 10" in texts("mi-24", "counter", "back")["noe"]


def test_battery_card_prints_class_missions_and_if_rows():
    t = texts("2s1-battery", "card")
    assert "light battery, 6 tubes, self-propelled yes" in t["class"]
    assert "GP/smoke/illumination" in t["class"]
    assert "S 7/I 8" in t["limits"] and "01-40" in t["limits"]
    assert "GP-IF" in t["ammo"] and "6" in t["ammo"]                     # GP 6 at band M (MBT 6.5.1.13)


def test_leg_counter_carries_movement_and_gp_defense():
    t = texts("us-mech-squad", "counter")
    assert t["move"] == "2L 3" and t["gpd"] == "2S"
    assert "2-1" in t["designation"]
