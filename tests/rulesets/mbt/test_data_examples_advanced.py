"""The Advanced Game data examples of mbt-basic-examples.md (M113-M214) and mbt-advanced-examples.md (MA*) that
concern cards, scenario data and static checks: the card values the rulebook gives, read through the card model,
and the checks that refuse what the rules forbid (validated in a copy of the sample project)."""
import shutil
from pathlib import Path

import pytest

from studio.model.project import load_document
from studio.model.validate import validate_paths
from studio.rulesets.mbt.cards import BANDS, CoverGpDefense, Transport, assign_passengers

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "data"


def card(card_id):
    doc = load_document(DATA / "units" / "mbt" / f"{card_id}.yaml")
    assert doc.model is not None, [d.format_text() for d in doc.diagnostics]
    return doc.model


def known(c, pointer):
    """A value the rulebook gives: present and not listed as a placeholder."""
    assert not c.placeholder, c.id
    assert pointer not in c.placeholder_fields, (c.id, pointer)


def band(row, rng):
    order = BANDS if row.kind != "ATGM" else tuple(reversed(BANDS))
    return next((b for b in order if getattr(row.range, b) is not None and getattr(row.range, b) >= rng), None)


def row_of(weapon, ammo_type):
    return next(a for a in weapon.ammo if a.ammo_type == ammo_type)


def weapon(c, wid):
    return next(w for w in c.body.weapons if w.id == wid)


# ------------------------------------------------------------------ card values


def test_M114_songster_bands_read_right_to_left():
    """MBT 5.1.3.3.2: ranges 1, 2, 3, 4, 5, 40 are E, M, S, S, P, P; 41 is out of range (L skipped)."""
    songster = row_of(weapon(card("t-80bv"), "main"), "Songster (Kobra)")
    assert [band(songster, r) for r in (1, 2, 3, 4, 5, 40, 41)] == ["E", "M", "S", "S", "P", "P", None]


def test_M115_crew_served_atgms_may_not_short_halt():
    """MBT 5.1.3.3.3: all crew-served ATGMs, whatever their class, have no Short Halt."""
    dragon = card("dragon")
    assert dragon.body.weapon_type == "atgm" and dragon.body.weapon.restrictions.no_short_halt
    assert dragon.body.weapon.ammo[0].atgm.guidance_class == 1          # even a CL 1 (SACLOS) one


def test_M117_dragon_speed_exceeds_its_maximum_range():
    """MBT 5.1.3.3.4: the Dragon's SP is greater than its maximum range, so it can never be dodged."""
    row = card("dragon").body.weapon.ammo[0]
    assert row.atgm.speed > max(v for v in row.range.values() if v is not None)


def test_M119_at4_and_law_fixed_gp():
    """MBT 5.1.3.4: AT4 and LAW GP Direct Fire factors 7 and 6, in the Ammo Type column."""
    for card_id, gp in (("at4", 7), ("law", 6)):
        c = card(card_id)
        assert c.body.weapon_type == "hhatw" and c.body.weapon.ammo[0].fixed_gp == gp
        assert "/body/weapon/ammo/0/fixed_gp" not in c.placeholder_fields


def test_M121_atgm_factors():
    """MBT 5.1.3.3.1: T-80U Sniper 180 TW; Dragon GP 12; Spigot SP 12."""
    sniper = next(a for w in card("t-80u").body.weapons for a in w.ammo if a.atgm and "Sniper" in a.ammo_type)
    assert (sniper.atgm.penetration, sniper.atgm.tandem, sniper.atgm.laser_guided) == (180, True, True)
    assert card("dragon").body.weapon.ammo[0].atgm.gp == 12
    spigot = next(a for w in card("bmp-1").body.weapons for a in w.ammo if a.atgm)
    assert spigot.atgm.speed == 12


def test_M123_m106_mmg_is_the_dual_fire_weapon():
    """MBT 5.14: the M106A2 fires its M30 mortar and its MMG; only the MMG takes the Dual Fire modifier."""
    c = card("m106")
    mortar, mmg = weapon(c, "mortar"), weapon(c, "mmg")
    assert mmg.dual_fire and not mortar.dual_fire
    assert "/body/weapons/1/dual_fire" not in c.placeholder_fields


def test_M11_M106_mortar_min_5_and_both_gunnery_sections():
    """MBT 5.6, 5.1.3.1: the 107mm M30 has min-5 and a GP-DF and a GP-IF section, no AP row; mortars are Small
    Arms for spotting."""
    mortar = weapon(card("m106"), "mortar")
    assert mortar.min_range == 5
    assert {a.kind for a in mortar.ammo} == {"GP-DF", "GP-IF"} and mortar.small_arms


def test_M127_MA87_t80bv_ammo_limits_and_smoke_dischargers():
    """MBT 5.16.2, 7.9: T-80BV AP and GP 9, Smoke Dischargers 5; Command 'K' AP and GP 8, dischargers unchanged."""
    body = card("t-80bv").body
    limits = {lim.prefix: lim.value for lim in weapon(card("t-80bv"), "main").ammo_limits}
    assert limits == {"A": 9, "G": 9, "D": 5} and body.smoke_discharger_limit() == 5
    assert {lim.prefix: lim.value for lim in body.general.command_variant.ammo_limits} == {"A": 8, "G": 8}


def test_M151_rof():
    """MBT 6.5.2.1: T-80BV 125mm ROF N; BMP-2 30mm ROF R."""
    assert weapon(card("t-80bv"), "main").rof == "N"
    assert weapon(card("bmp-2"), "main").rof == "R"


def test_M163_gp_defense_codes():
    """MBT 6.5.2.3: 8A (T-80BV), 1P (M150); leg units are always type S."""
    assert (card("t-80bv").body.defensive.gp_defense.value, card("t-80bv").body.defensive.gp_defense.target_type) \
        == (8, "A")
    assert (card("m150").body.defensive.gp_defense.value, card("m150").body.defensive.gp_defense.target_type) == (1, "P")


def test_M165_t80bv_front_side_level_hf():
    """MBT 6.5.2.3.3: T-80BV Front/Side angle, Level, HF = 100."""
    assert card("t-80bv").body.defensive.armor_ag.front_side.level.HF == 100


def test_M167_M169_t64bv_tf_and_atgm_penetrations():
    """MBT 6.5.2.4.1-2: T-64BV TF base 90 with CEx2 and L-ERA; ITOW (M150) 126 CE; TOW II (M901A1) 180 CE."""
    t64 = card("t-64bv").body
    assert t64.defensive.armor_ag.front.level.TF == 90
    assert t64.defensive.special_armor["TF"].ce_multiplier == 2.0 and t64.defensive.special_armor["TF"].era == "L"
    itow = next(a for w in card("m150").body.weapons for a in w.ammo if a.atgm)
    tow2 = next(a for w in card("m901a1").body.weapons for a in w.ammo if a.atgm)
    assert (itow.atgm.penetration, itow.energy) == (126, "CE")
    assert (tow2.atgm.penetration, tow2.energy) == (180, "CE")


def test_M173_era_tank_carries_no_squad():
    """MBT 6.5.2.4.2: an ERA tank has TR 0-0, so a squad finds no seat (assign_passengers, check V51)."""
    t62 = card("t-62mv").body
    assert any(s.era for s in t62.defensive.special_armor.values())
    squad = card("sov-mr-squad").body
    seats, left = assign_passengers([("t62", t62.general.transport)], [("sqd", squad.passenger_capacity)])
    assert seats == {} and left == ["sqd"]


def test_M187_gp_factor_at_range():
    """MBT 6.5.4.1: T-80BV GP at range 10 is 7; the Soviet Motor Rifle squad's GP at range 4 is 4."""
    he = row_of(weapon(card("t-80bv"), "main"), "HE")
    assert getattr(he.gp_factor, band(he, 10)) == 7
    rifles = card("sov-mr-squad").body.weapons[0].ammo[0]
    assert getattr(rifles.gp_factor, band(rifles, 4)) == 4
    known(card("sov-mr-squad"), "/body/weapons/0/ammo/0/gp_factor/M")


def test_M189_soviet_leg_gp_defense():
    """MBT 6.5.4.2.2: a Soviet leg unit is 2S in Clear; in Woods moving 6 - 2 = 4S; in an IP in Full Cover
    8 + 2 = 10S; the net value stays within 1..10."""
    gpd = card("sov-mr-squad").body.gp_defense

    def net(cover, full_cover=False, moving=False):
        return max(1, min(10, gpd.for_cover(cover) + (gpd.full_cover_bonus if full_cover else 0) - (2 if moving else 0)))

    assert (net("none"), net("medium", moving=True), net("heavy", full_cover=True)) == (2, 4, 10)
    assert CoverGpDefense(none=1, light=1, medium=1, heavy=10).for_cover("heavy") + 2 > 10   # clamp needed
    for pointer in ("/body/gp_defense/none", "/body/gp_defense/medium", "/body/gp_defense/heavy"):
        known(card("sov-mr-squad"), pointer)


def test_M206_t80bv_gp_effectiveness_and_MA95_bmp2_max_1():
    """MBT 6.5.4.4.2: T-80BV GP Effectiveness 1-5; MBT 7.21: BMP-2 maximum GP Effectiveness 1."""
    assert weapon(card("t-80bv"), "main").gp_effectiveness.max == 5
    assert weapon(card("bmp-2"), "main").gp_effectiveness.max == 1
    known(card("bmp-2"), "/body/weapons/0/gp_effectiveness/max")


def test_M207_soviet_2s1_battery_has_no_special_ammo():
    """MBT 6.5.1.3.4: Soviet attached 2S1s have no CLGP, FASCAM or ICM; SM-7A batteries all fire smoke (6.1.4.3.10)."""
    b = card("2s1-battery").body
    assert not {"CLGP", "FASCAM", "ICM"} & set(b.missions) and "smoke" in b.missions and b.weapon.smoke_capable


def test_M139_light_battery_gp_6_at_range_12():
    """MBT 6.5.1.13 example: a Light battery (SM-7A) at range 12 fires GP factor 6, range factor M."""
    row = card("2s1-battery").body.weapon.ammo[0]
    assert card("2s1-battery").body.battery_class == "light"
    assert band(row, 12) == "M" and row.gp_factor.M == 6


def test_M214_m125_is_smk():
    """MBT 6.1.4.3.10: the M125A2 may fire direct-fire smoke (SMK)."""
    assert weapon(card("m125"), "mortar").smoke_capable


def test_MA14_heavy_motor_rifle_squad_gp_8_at_short():
    """MBT 6.5.4.4 example: a Heavy Motor Rifle squad at range 3 fires GP 8, range factor S, as Small Arms."""
    rifles = card("sov-heavy-mr-squad").body.weapons[0]
    row = rifles.ammo[0]
    assert band(row, 3) == "S" and row.gp_factor.S == 8 and rifles.small_arms


def test_MA37_leg_movement_factors():
    """MBT 6.6.4.1, 5.1.2: squads and half-squads 2L 3; a section with attached weapons 1L 0; towed quickmarch 0."""
    for card_id in ("us-mech-squad", "us-mech-half-squad", "sov-mr-squad"):
        mv = card(card_id).body.movement
        assert (mv.cross_country, mv.traction, mv.quickmarch) == (2, "L", 3), card_id
    sec = card("sov-fo-section").body.movement_with_weapons
    assert (sec.cross_country, sec.quickmarch) == (1, 0)
    assert card("spg-9").body.movement.quickmarch == 0


def test_MA42_capacities():
    """MBT 6.6.7.1: SPG-9 passenger capacity 0-1 (carried like a leg unit); a carrier tows a single unit."""
    spg = card("spg-9").body.passenger_capacity
    assert (spg.towed, spg.leg) == (0, 1)
    mtlb = Transport(towed=2, leg=2)           # MT-LB TR 2-2 (SM-10B1): two towed guns still need two carriers
    gun = Transport(towed=1, leg=1)
    assert assign_passengers([("mtlb", mtlb)], [("g1", gun), ("g2", gun)]) == ({"g1": "mtlb"}, ["g2"])


def test_MA57_mi24_movement_and_fits():
    """MBT 6.7.5.1: Mi-24V 26 Low / 10 NOE; MBT 6.7.4: two fits, 168 points either way."""
    h = card("mi-24").body
    assert (h.movement.low, h.movement.noe) == (26, 10)
    counts = [{wc.weapon: wc.count for wc in c.weapons} for c in h.configs]
    assert counts == [{"hmg": None, "rockets": 4, "spiral": 4}, {"hmg": None, "rockets": 2, "spiral": 8}]
    assert [c.points for c in h.configs] == [168, 168] and h.countermeasures


def test_a10_load_out_costs_404_points():
    """MBT 6.7.1 example: A-10A 174 + Bomb 30 + 2 High-Drag 40 + PGM Bomb 50 + Drop Tank 20 + ECM Pod 50 = 404,
    within LD 6."""
    a10 = card("a-10").body
    loads = ["bomb", "high-drag", "high-drag", "bomb", "drop-tank", "ecm-pod"]
    assert a10.load_points(loads, pgm=["bomb"]) == 404 and len(loads) <= a10.max_loads


# ------------------------------------------------------------------ checks on scenario data


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("mbt-examples") / "data"
    shutil.copytree(DATA, root)
    return root


PLOT_HEAD = """kind: scenario
schema_version: 1
id: plot-test
ruleset: mbt
name: Plot test
boards:
  - map: board-2
    at: [0, 0]
  - map: board-4
    at: [20, 0]
turns: 12
first_player: initiative
sides:
  - id: us
    name: US
    nation: US
    forces:
      - id: fist
        toe: us-fist
        setup:
          hexes: [2P4]
          facing: SE
  - id: sov
    name: Soviets
    nation: SOV
    forces:
      - id: tanks
        toe: sov-t80bv-platoon
        entry:
          turn: 1
          edge: east
victory:
  - id: kills
    type: destroy_units
    side: us
    points: 1
extension:
  game: advanced
  force_grades: {us: seasoned, sov: regulars}
  artillery:
    - {side: us, battery: m109-battery, attachment: attached, force: fist}
  planned_fire:
"""


def plot_codes(project, segments: str, name: str):
    target = project / "scenarios" / "mbt" / f"zz-{name}.yaml"
    target.write_text(PLOT_HEAD + f"    - side: us\n      battery: m109-battery\n      turn: 6\n      segments:\n{segments}",
                      encoding="utf-8")
    try:
        result = validate_paths([project])
        return {d.code for d in result.diagnostics if Path(d.file).name == target.name and d.severity.value == "error"}
    finally:
        target.unlink()


def test_M145_the_example_plot_is_valid(project):
    """MBT 6.5.1.11.1: 'Turn 6, GP, Closed, 1L6, 2 turns; Smoke, Open, 1 turn; GP, Open, 2 turns' (5 turns)."""
    segs = ("        - {mission: GP, sheaf: closed, hex: 4L6, turns: 2}\n"
            "        - {mission: smoke, sheaf: open, hex: 4L6, turns: 1}\n"
            "        - {mission: GP, sheaf: open, hex: 4L6, turns: 2}\n")
    assert plot_codes(project, segs, "m145") == set()


@pytest.mark.parametrize("name,segments", [
    ("six-turns", "        - {mission: GP, sheaf: closed, hex: 4L6, turns: 4}\n"
                  "        - {mission: GP, sheaf: open, hex: 4L6, turns: 2}\n"),        # M146: a 6-turn plot
    ("clgp", "        - {mission: CLGP, sheaf: closed, hex: 4L6}\n"),                     # M146: planned CLGP
    ("icm-closed", "        - {mission: ICM, sheaf: closed, hex: 4L6}\n"),                # M147: ICM Open only
    ("fascam-linear", "        - {mission: FASCAM, sheaf: closed_linear, hex: 4L6}\n"),   # M147: FASCAM Closed only
    ("shift-6", "        - {mission: GP, sheaf: closed, hex: 4L6}\n"
                "        - {mission: GP, sheaf: closed, hex: 4F6}\n"),                   # M143: a 6-hex re-plot
])
def test_M143_M146_M147_invalid_plots(project, name, segments):
    """MBT 6.5.1.11.1, 6.5.1.6, 6.5.1.8.2: invalid plots are refused with mbt.planned-fire."""
    assert "mbt.planned-fire" in plot_codes(project, segments, name)


def test_M143_a_five_hex_replot_is_legal(project):
    """MBT 6.5.1.11.3: a planned fire target point moves at most 5 hexes per turn (5 legal)."""
    segs = ("        - {mission: GP, sheaf: closed, hex: 4L6}\n"
            "        - {mission: GP, sheaf: closed, hex: 4G6}\n")
    assert plot_codes(project, segs, "shift-5") == set()
