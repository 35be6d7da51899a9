"""MBT sample vehicle cards: every card loads through the MBT card model, values from the rules digest b.5 are
exact (and not listed as placeholders), and the data-card examples of mbt-basic-examples.md hold."""
from pathlib import Path

import pytest

from studio.model.project import load_document
from studio.model.validate import validate_paths
from studio.rulesets.mbt.cards import BANDS, CARD_BODIES, VehicleBody

DATA = Path(__file__).resolve().parents[3] / "data"
CARDS = sorted((DATA / "units" / "mbt").glob("*.yaml"))
REQUIRED = {"m1", "m1ip", "m60a3", "m2", "m3", "m113", "m901", "t-80b", "t-72a", "t-64b", "bmp-1", "bmp-2",
            "brdm-2-at5"}


def card(card_id):
    doc = load_document(DATA / "units" / "mbt" / f"{card_id}.yaml")
    assert doc.model is not None, [d.format_text() for d in doc.diagnostics]
    return doc.model


def band_for(row, rng):
    """The range factor of ``rng`` on an ammo row (guns left to right, ATGMs right to left)."""
    order = BANDS if row.kind != "ATGM" else tuple(reversed(BANDS))
    for b in order:
        v = getattr(row.range, b)
        if v is not None and v >= rng:
            return b
    return None


def ammo(c, weapon_id, ammo_type):
    w = next(w for w in c.body.weapons if w.id == weapon_id)
    return next(a for a in w.ammo if a.ammo_type == ammo_type)


def test_required_sample_cards_exist():
    ids = {p.stem for p in CARDS}
    assert REQUIRED <= ids, sorted(REQUIRED - ids)
    assert len(ids) >= 12


@pytest.mark.parametrize("path", CARDS, ids=[p.stem for p in CARDS])
def test_every_card_loads_with_the_mbt_model(path):
    doc = load_document(path)
    assert doc.model is not None, [d.format_text() for d in doc.diagnostics]
    assert isinstance(doc.model.body, CARD_BODIES[doc.model.category])
    assert doc.model.id == path.stem
    assert doc.text.startswith("# yaml-language-server: $schema=")
    # game values the text does not give are marked
    assert doc.model.placeholder or doc.model.placeholder_fields
    assert doc.model.sources, "every card names its sources"


def test_sample_cards_validate_without_errors_or_warnings():
    result = validate_paths([DATA])
    mine = [d for d in result.diagnostics if "units/mbt/" in d.file.replace("\\", "/")
            and d.severity.value in ("error", "warning")]
    assert not mine, [d.format_text() for d in mine]


# ---------------------------------------------------------------- b.5 known values


def not_placeholder(c, *pointers):
    for p in pointers:
        assert p not in c.placeholder_fields, p


def test_b5_t80bv_values():
    c = card("t-80bv")
    b = c.body
    assert b.card_ref == "SM-1B"
    mv = b.general.movement
    assert (mv.cross_country, mv.traction, mv.path, mv.road) == (8, "T", 10, 16)          # MBT 4.5.1.1.1
    main = b.weapons[0]
    assert (main.rof, main.sight.primary, main.sight.secondary, main.tt_factor) == ("N", "L", "O", 2)
    apfsds = ammo(c, "main", "APFSDS")
    assert apfsds.range.E == 33                                                            # MBT 3.5.2
    assert b.defensive.target_size == 0
    assert (b.notes.basic_armor.front, b.notes.basic_armor.rear) == (90, 34)               # MBT 4.4.3.2.5
    songster = ammo(c, "main", "Songster (Kobra)")
    assert songster.range.model_dump() == {"P": 40, "S": 4, "M": 2, "L": None, "E": 1}     # MBT 5.1.3.3.2
    assert songster.sight.primary == "O" and songster.sight.secondary is None               # MBT 6.5.2.2.5
    assert {(lim.prefix, lim.value) for lim in main.ammo_limits} == {("A", 9), ("G", 9), ("D", 5)}  # MBT 5.16.2
    cv = b.general.command_variant
    assert cv.name == "Command 'K'" and {(x.prefix, x.value) for x in cv.ammo_limits} == {("A", 8), ("G", 8)}
    assert (b.defensive.gp_defense.value, b.defensive.gp_defense.target_type) == (8, "A")
    for loc in ("TF", "TS", "HF"):
        assert b.defensive.special_armor[loc].ce_multiplier == 1.5
        assert b.defensive.special_armor[loc].era == "L"
    assert b.defensive.armor_ag.front.rising.HF == 119
    assert b.defensive.armor_ag.front_side.level.HF == 100
    assert band_for(ammo(c, "main", "HE"), 10) == "M" and ammo(c, "main", "HE").gp_factor.M == 7   # MBT 6.5.4.1
    assert b.general.bog_modifier == 5 and b.general.bu_notation and b.spotting_aids == ["IR"]
    not_placeholder(c, "/body/general/movement/cross_country", "/body/weapons/0/ammo/0/range/E",
                    "/body/weapons/0/ammo/0/penetration/M", "/body/notes/basic_armor/front",
                    "/body/notes/basic_armor/rear", "/body/defensive/target_size",
                    "/body/weapons/0/ammo/1/gp_factor/M", "/body/weapons/0/gp_effectiveness/max")


def test_m10_t80bv_max_range():
    row = ammo(card("t-80bv"), "main", "APFSDS")
    assert band_for(row, 33) == "E"
    assert band_for(row, 34) is None


def test_m73_t80bv_band_m_penetration():
    row = ammo(card("t-80bv"), "main", "APFSDS")
    assert band_for(row, 15) == "M"
    assert row.penetration.M == 86


def test_m75_t80bv_target_size():
    assert card("t-80bv").body.defensive.target_size == 0


def test_m98_t80bv_road_msa():
    assert card("t-80bv").body.general.movement.road == 16


def test_m206_t80bv_gp_effectiveness():
    ge = card("t-80bv").body.weapons[0].gp_effectiveness
    assert (ge.min, ge.max) == (1, 5)


def test_songster_bands_read_right_to_left():
    row = ammo(card("t-80bv"), "main", "Songster (Kobra)")
    assert band_for(row, 1) == "E"
    assert band_for(row, 2) == "M"           # L is skipped
    assert band_for(row, 3) == band_for(row, 4) == "S"
    assert band_for(row, 5) == band_for(row, 40) == "P"


def test_m85_m86_card_values():
    bmp2, m2a1 = card("bmp-2"), card("m2a1")
    assert bmp2.body.card_ref == "SM-4B" and m2a1.body.card_ref == "UM-4A"
    apds = ammo(bmp2, "main", "APDS")
    assert band_for(apds, 3) == "P" and apds.penetration.P == 12
    assert bmp2.body.weapons[0].rof == "R"
    assert bmp2.body.general.stabilization == 3
    assert bmp2.body.defensive.target_size == -1
    assert bmp2.body.notes.basic_armor.front == 5
    assert set(bmp2.body.weapons[0].exclusive_with) == {"APDS", "Spandrel (Konkurs)"}
    bapds = ammo(m2a1, "main", "APDS")
    assert band_for(bapds, 3) == "P" and bapds.penetration.P == 12
    assert m2a1.body.notes.basic_armor.rear == 9
    assert m2a1.body.defensive.target_size == 0
    # shot 1: 12 - 9 = 3 -> Damaged; shot 2: 12 - 5 = 7 -> KO (ruleset ap-penetration-results)
    assert apds.penetration.P - m2a1.body.notes.basic_armor.rear == 3
    assert bapds.penetration.P - bmp2.body.notes.basic_armor.front == 7
    not_placeholder(bmp2, "/body/weapons/0/ammo/0/penetration/P", "/body/defensive/target_size",
                    "/body/notes/basic_armor/front", "/body/general/stabilization")
    not_placeholder(m2a1, "/body/weapons/0/ammo/0/penetration/P", "/body/notes/basic_armor/rear")


def test_m185_m186_ag_values():
    bmp2, m2a1 = card("bmp-2"), card("m2a1")
    assert m2a1.body.defensive.armor_ag.rear_side.level.TS == 11
    assert bmp2.body.defensive.armor_ag.front.level.HF == 4
    assert ammo(bmp2, "main", "APDS").ap_damage[4 - 1] == "DM"
    assert ammo(m2a1, "main", "APDS").ap_damage[7 - 1] == "KO"
    gpd = m2a1.body.defensive.gp_defense
    assert (gpd.value, gpd.target_type) == (3, "A")
    assert m2a1.body.general.transport_protection == "under_armor"
    assert m2a1.body.general.movement.cross_country == 7


def test_b5_other_cards():
    m1 = card("m1")
    assert {a.ammo_type: a.energy for a in m1.body.weapons[0].ammo if a.kind == "AP"} == {"APFSDS": "KE",
                                                                                          "HEAT": "CE"}
    assert {loc for loc, s in m1.body.defensive.special_armor.items() if s.ce_multiplier == 2.0} == \
        {"TF", "TS", "HF", "HS"}
    assert not m1.body.open_topped and m1.body.overhead_protection
    assert ammo(card("m901a1"), "tow", "TOW 2").atgm.penetration == 180
    assert ammo(card("bmp-1"), "main", "Spigot (Fagot)").atgm.speed == 12
    t64bv = card("t-64bv")
    assert t64bv.body.defensive.armor_ag.front.level.TF == 90
    assert t64bv.body.defensive.armor_ag.front.level.TR == 35
    sa = t64bv.body.defensive.special_armor
    assert all(sa[loc].ce_multiplier == 2.0 and sa[loc].era == "L" for loc in ("TF", "TS", "HF"))
    assert sa["HS"].era_front_only and sa["DK"].era_front_only


def test_era_vehicles_carry_no_passengers():
    for path in CARDS:
        c = load_document(path).model
        if isinstance(c.body, VehicleBody) and any(s.era for s in c.body.defensive.special_armor.values()):
            t = c.body.general.transport
            assert (t.towed, t.leg) == (0, 0), path.stem


def test_b5_more_cards():
    t80u = card("t-80u")
    sniper = ammo(t80u, "main", "Sniper (Refleks)")
    assert sniper.atgm.penetration == 180 and sniper.atgm.tandem and sniper.atgm.laser_guided   # MBT 5.1.3.3
    assert sniper.sight.primary == "L" and sniper.sight.secondary is None                      # MBT 6.5.2.2.5
    sa = t80u.body.defensive.special_armor
    assert all(sa[loc].ce_multiplier == 2.0 for loc in ("TF", "TS", "HF"))
    assert all(sa[loc].era == "H" for loc in ("TF", "TS", "HF", "HS", "DK"))
    assert sa["HS"].era_front_only and sa["DK"].era_front_only
    t62 = card("t-62mv")
    assert t62.body.defensive.armor_ag.front.level.HF == 53 and t62.body.defensive.special_armor["HF"].era == "L"
    assert t62.body.defensive.gp_defense.value == 7
    m150 = card("m150")
    assert m150.body.open_topped and not m150.body.overhead_protection                         # MBT 6.1.4.3.1
    assert (m150.body.defensive.gp_defense.value, m150.body.defensive.gp_defense.target_type) == (1, "P")
    itow = ammo(m150, "tow", "ITOW")
    assert itow.atgm.penetration == 126 and itow.energy == "CE"
    m981 = card("m981")
    assert m981.body.is_combat_unit and "fo" in m981.body.labels                               # MBT 4.1.1


def test_m13_unarmed_avlb_card():
    avlb = card("m60-avlb")
    assert avlb.body.unarmed and not avlb.body.is_combat_unit and not avlb.body.weapons   # MBT 4.1.1, 3.6


def test_vehicle_tow_may_short_halt():
    """TOW is a CL 1 (SACLOS) ATGM: vehicles may fire it on a Short Halt at -4 (MBT 4.4.3.2.2, 5.1.3.3.3)."""
    for cid in ("m2", "m2a1", "m3", "m901", "m901a1", "m150"):
        w = next(w for w in card(cid).body.weapons if w.id == "tow")
        assert w.ammo[0].atgm.guidance_class == 1 and not w.restrictions.no_short_halt
