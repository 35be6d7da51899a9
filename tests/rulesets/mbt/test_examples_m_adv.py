"""MBT Advanced Game worked examples M113-M214 of the examples digest (issue 12), each through the public API:
positions (``studio.rules.position``), forced dice, legal actions, the state's rule methods and the narration
(``state.events``). Every test names its example and rule; expected values come from the rulebook text or the
ruleset tables, never from the engine's output."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402

from studio.rulesets.mbt.engine.codes import MOVE, ON, SH  # noqa: E402

A, B, D = clear_pair(5)          # shooter hex, target hex (range 5), direction A -> B
FRONT = (D + 3) % 6              # the target faces the shooter: Front hit angle
FRONT_SIDE = (FRONT + 1) % 6     # Front/Side hit angle


def _row(st, i: int, key: str):
    return next(r for r in st.game.units[i].type.ap if r.key == key)


def _duel(shooter, target, dice=(), facing=FRONT, grades=None, shooter_status=None, phase="direct-fire-first",
          a=A, b=B, **target_status):
    """Shooter S (us, FIRE) at A and target T (sov) at B; ``shooter_status`` overrides S's status."""
    status = {"command": "FIRE", **(shooter_status or {})}
    return adv_state([unit("S", shooter, "us", a, D, **status), unit("T", target, "sov", b, facing, **target_status)],
                     phase=phase, to_act="us", dice=dice, grades=grades)


# ---------------------------------------------------------------- 6.5.2 AP fire


def test_m153_rof_n_roll_equal_to_the_hit_number_is_exactly_one_hit():
    """M153, MBT 6.5.2.1: ROF N does not use the Number of Hits table: a roll equal to the AP Hit Number is one
    hit, one above it a miss (the M1's 120mm is ROF N)."""
    probe = _duel("m1", "t-80bv")
    row = _row(probe, 0, "main:APFSDS")
    assert row.rof == "N"
    net, band = probe.hit_modifiers(0, 1, row, False)
    number = probe.game.tables.ap_hit[(net, band)]
    assert probe.number_of_hits(number, "N", number) == 1
    hit = _duel("m1", "t-80bv", dice=[number, 85, 99])   # location 85 (Front: a hull hit), digit 5
    act(hit, "fire S at T main:APFSDS")
    assert any(f"hit roll {number} vs {number}: 1 hit(s)" in e for e in hit.events), hit.events
    miss = _duel("m1", "t-80bv", dice=[number + 1])
    act(miss, "fire S at T main:APFSDS")
    assert any(f"hit roll {number + 1} vs {number}: miss" in e for e in miss.events), miss.events


def test_m157_track_hit_skips_damage_and_a_second_track_hit_is_ignored():
    """M157, MBT 6.5.2.2.1: a tens die of 0 (10) is a Track hit, damaged at once with no penetration or damage
    step; a later Track hit on the same vehicle does nothing (no second Bail Out check)."""
    st = _duel("m1", "t-80bv", dice=[1, 5, 99])          # hit, location 05: tens 10 = TK; crew roll 99 stays
    act(st, "fire S at T main:APFSDS")
    assert st.track[1] and not any("penetration" in e for e in st.events), st.events
    assert sum("Bail Out check (TK)" in e for e in st.events) == 1
    again = _duel("m1", "t-80bv", dice=[1, 5], track_hit=True)
    act(again, "fire S at T main:APFSDS")
    assert any("Track (already tracked)" in e for e in again.events), again.events
    assert not any("Bail Out" in e for e in again.events) and again.st[1] == ON


def test_m159_short_halt_vehicle_with_a_track_hit_still_counts_as_moving():
    """M159, MBT 6.5.2.2.1: a Short Halt vehicle whose track is hit by the First Player's fire still fires as
    moving (the Short Halt modifier) and is still a moving target; it never moves or pivots again."""
    sh = {"command": "SH", "revealed": True}
    plain = _duel("m1", "t-80bv", shooter_status=sh, phase="direct-fire-second")
    tracked = _duel("m1", "t-80bv", shooter_status={**sh, "track_hit": True}, phase="direct-fire-second")
    still = _duel("m1", "t-80bv", phase="direct-fire-second")
    row = _row(plain, 0, "main:APFSDS")
    sb = plain.game.units[0].type.sb
    assert tracked.hit_modifiers(0, 1, row, False)[0] == plain.hit_modifiers(0, 1, row, False)[0]
    assert tracked.hit_modifiers(0, 1, row, False)[0] - still.hit_modifiers(0, 1, row, False)[0] == \
        plain.game.tables.ap_mod[f"short-halt-sb{sb}"]
    as_target = adv_state([unit("S", "t-80bv", "sov", A, D, command="FIRE"),
                           unit("T", "m1", "us", B, FRONT, **sh, track_hit=True)], phase="direct-fire-second",
                          to_act="sov")
    at_rest = adv_state([unit("S", "t-80bv", "sov", A, D, command="FIRE"), unit("T", "m1", "us", B, FRONT)],
                        phase="direct-fire-second", to_act="sov")
    trow = _row(as_target, 0, "main:APFSDS")
    assert as_target.hit_modifiers(0, 1, trow, False)[0] - at_rest.hit_modifiers(0, 1, trow, False)[0] == \
        as_target.game.tables.ap_mod["target-moving"]
    assert MOVE not in tracked.cmd_options(0) and SH not in tracked.cmd_options(0)
    mover = adv_state([unit("S", "m1", "us", A, D, command="SH", revealed=True, track_hit=True, fired=True)],
                      phase="move-second", to_act="us")
    act(mover, "move S")
    assert [str(a) for a in mover.legal_actions()] == ["done S"]    # no step, turn or pivot


@pytest.mark.parametrize("era_roll, armor", [(7, 176), (8, 110)])
def test_m170_h_era_against_ke_multiplies_the_armor_by_1_6(era_roll, armor):
    """M170, MBT 6.5.2.4.2: H-ERA works against KE ammo too: on the owner's roll (10) of 7 or less the armor is
    1.6 x the listed armor, rounded down (T-80U HF, Basic front armor 110: 176); above 7 no effect. (L-ERA
    against KE is ignored: ``test_adv_fire.py::test_light_era_ignores_ke_ammo``.)"""
    st = _duel("m1", "t-80u", dice=[1, 71, era_roll])       # hit; Front, tens 7 = HF; ERA roll
    act(st, "fire S at T main:APFSDS")
    assert any(f"H-ERA roll {era_roll} vs 7" in e for e in st.events), st.events
    assert any(f"at HF (roll 71): penetration" in e and f"vs armor {armor}" in e for e in st.events), st.events


def test_m171_tandem_warhead_atgm_against_l_era_rolls_no_era():
    """M171, MBT 6.5.2.4.2: L-ERA has no effect against a Tandem Warhead ATGM (the T-80U's Sniper against the
    T-80BV's L-ERA turret front): no ERA roll, the listed armor stands."""
    st = adv_state([unit("S", "t-80u", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FRONT)],
                   to_act="us", dice=[1, 1, 15, 99])        # ammo limit; hit; Front, tens 1 = TF
    row = next(r for r in st.game.units[0].type.ap if r.kind == "ATGM")
    assert row.atgm.tandem
    act(st, f"fire S at T {row.key}")
    assert any("at TF" in e for e in st.events) and not any("ERA" in e for e in st.events), st.events


@pytest.mark.parametrize("era_roll, effective", [(6, False), (5, True)])
def test_m171_tandem_warhead_against_h_era_needs_5_or_less(era_roll, effective):
    """M171, MBT 6.5.2.4.2: H-ERA against a Tandem Warhead ATGM is effective only on a roll (10) of 5 or less:
    6 not effective, 5 effective (T-80U Sniper at a T-80U's turret front)."""
    st = adv_state([unit("S", "t-80u", "us", A, D, command="FIRE"), unit("T", "t-80u", "sov", B, FRONT)],
                   to_act="us", dice=[1, 1, 15, era_roll])    # ammo limit, hit, TF, ERA
    row = next(r for r in st.game.units[0].type.ap if r.kind == "ATGM")
    act(st, f"fire S at T {row.key}")
    word = "effective" if effective else "no effect"
    assert any(f"H-ERA roll {era_roll} vs 5: {word}" in e for e in st.events), st.events


def _haze_state(units, phase="direct-fire-first", to_act="us"):
    """A position on the Advanced sample scenario with the scenario's ``heat_haze`` on (MBT 6.5.2.5)."""
    from mbt_adv_fixtures import SCENARIO, index
    from studio.rules.position import position_state
    from studio.rulesets.mbt.engine import game as G

    sc = index().model("scenario", SCENARIO)
    sc = sc.model_copy(update={"extension": sc.extension.model_copy(update={"heat_haze": True})})
    st = position_state(G.create_game(sc, index(), None),
                        {"scenario": SCENARIO, "phase": phase, "turn": 1, "units": units, "to_act": to_act})
    st.dice.record = True
    return st


@pytest.mark.parametrize("rng, modifier", [(8, -3), (7, 0)])
def test_m177_heat_haze_minus_3_to_ap_fire_at_vehicles_from_8_hexes(rng, modifier):
    """M177, MBT 6.5.2.5: with Heat Haze, AP direct fire at a vehicle (every vehicle a V-sized target) at 8 hexes
    or more takes -3; at 7 nothing."""
    a, b, d = clear_pair(rng)
    units = [unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    hazy, clear = _haze_state(units), adv_state(units, to_act="us")
    row = _row(clear, 0, "main:APFSDS")
    assert hazy.hit_modifiers(0, 1, row, False)[0] - clear.hit_modifiers(0, 1, row, False)[0] == modifier
    gp = _row(clear, 0, "main:HEAT-MP")
    band = clear.gp_factor(gp, rng)[0]
    assert band is not None   # MBT 6.5.4.3: GP direct fire -10 at the same ranges
    assert hazy.gp_modifiers(0, 1, gp, band, False) - clear.gp_modifiers(0, 1, gp, band, False) == \
            (-10 if modifier else 0)


def _between(a: str, b: str) -> str:
    """The label of a hex strictly between ``a`` and ``b`` on a clear row (for a smoke cloud on the line)."""
    from studio.hexgrid import hex_line

    g = adv_state([], phase="command").game
    line = hex_line(g.map.hex(a), g.map.hex(b))
    return g.label(line[len(line) // 2])


def test_m161_t80bv_sights_lo_and_songster_o():
    """M161, MBT 6.5.2.2.5: the T-80BV's 125mm has an LO sight (Laser primary, Optical secondary); its Songster
    ATGM an Optical sight; the T-80U's Sniper ATGM a Laser sight only (the T-72BA's Sniper of the example is
    not a sample card; the T-80U carries the same laser-only missile)."""
    from mbt_adv_fixtures import index

    body = index().model("unit", "t-80bv").body
    main = next(w for w in body.weapons if w.id == "main")
    assert (main.sight.primary, main.sight.secondary) == ("L", "O")
    songster = next(a for a in main.ammo if a.kind == "ATGM")
    assert (songster.sight.primary, songster.sight.secondary) == ("O", None)
    sniper = next(a for w in index().model("unit", "t-80u").body.weapons for a in w.ammo if a.kind == "ATGM")
    assert (sniper.sight.primary, sniper.sight.secondary) == ("L", None)


def test_m161_laser_only_atgm_may_not_fire_through_smoke():
    """M161, MBT 6.5.2.2.5: an ATGM with only a Laser sight may not fire from, into or through Smoke; without the
    smoke it may."""
    units = [unit("S", "t-80u", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FRONT)]
    clear = adv_state(units, to_act="us")
    smoky = adv_state(units, to_act="us", smoke=[{"hexes": [_between(A, B)], "sheaf": "closed"}])
    key = next(r.key for r in clear.game.units[0].type.ap if r.kind == "ATGM")
    assert f"fire S at T {key}" in [str(a) for a in clear.legal_actions()]
    shots = [str(a) for a in smoky.legal_actions()]
    assert f"fire S at T {key}" not in shots and "fire S at T main:APFSDS" in shots


def test_m161_laser_sight_through_smoke_reads_the_secondary_optical_sight():
    """M161, MBT 6.5.2.2.5: a Laser sight has no effect through Smoke; the T-80BV's 125mm then fires with its
    secondary Optical sight (no sight modifier) beside the smoke's own -5 (Closed SHEAF, MBT 6.5.2.5)."""
    a, b, d = clear_pair(12)      # band M of the 125mm APFSDS (11-18), where the Laser sight is +2 (MBT 6.5.2.5)
    units = [unit("S", "t-80bv", "us", a, d, command="FIRE"), unit("T", "m1", "sov", b, (d + 3) % 6)]
    clear = adv_state(units, to_act="us")
    smoky = adv_state(units, to_act="us", smoke=[{"hexes": [_between(a, b)], "sheaf": "closed"}])
    row = _row(clear, 0, "main:APFSDS")
    net, band = clear.hit_modifiers(0, 1, row, False)
    assert band == "M" and clear.game.ag.sight_ap["L"]["M"] == 2
    assert smoky.hit_modifiers(0, 1, row, False)[0] == net - 2 - 5
    assert smoky.sight_of(0, row, 1) == "O" and clear.sight_of(0, row, 1) == "L"


@pytest.mark.parametrize("grade, band, ap", [("regulars", "M", -2), ("seasoned", "P", 0), ("seasoned", "S", 0),
                                             ("seasoned", "M", 0), ("seasoned", "L", 0), ("seasoned", "E", 0)])
def test_m174_ap_unit_grade_modifier_by_range_factor(grade, band, ap):
    """M174, MBT 6.5.2.5: the AP Unit Grade modifier by the firer's AP Range Factor: Regulars at M -2; Seasoned
    (the baseline) 0 at every band; a Laser sight at M +2 (table ``unit-grade-modifiers``,
    ``weapon-sight-modifiers``)."""
    st = _duel("m1", "t-80bv")
    assert st.game.ag.grade_ap[grade][band] == ap
    assert st.game.ag.sight_ap["L"]["M"] == 2


def test_m174_regulars_firer_takes_minus_2_more_than_seasoned_at_band_m():
    """M174, MBT 6.5.2.5: the grade modifier is the firing unit's, read at the shot's range factor: a Regulars
    M1 at band M is 2 worse off than a Seasoned one."""
    rows = [r for r in _duel("m1", "t-80bv").game.units[0].type.ap if r.key == "main:APFSDS"]
    rng = next(r for r in range(1, 40) if _duel("m1", "t-80bv").band_of(rows[0], r) == "M")
    a, b, d = clear_pair(rng)
    reg = _duel("m1", "t-80bv", grades={"us": "regulars"}, a=a, b=b, facing=(d + 3) % 6)
    sea = _duel("m1", "t-80bv", grades={"us": "seasoned"}, a=a, b=b, facing=(d + 3) % 6)
    row = _row(reg, 0, "main:APFSDS")
    (rn, rb), (sn, sb) = reg.hit_modifiers(0, 1, row, False), sea.hit_modifiers(0, 1, row, False)
    assert rb == sb == "M" and rn - sn == -2


def _test_cards_index():
    """The sample project plus test-only cards: ``test-truck`` (the BMP-1 as an S-Type vehicle: the sample data
    has no S-Type ground vehicle), ``test-m1-damage`` (the M1 whose AP Damage reads DM on a 1 and ND on every
    other digit, so that the S-Type -2 and its floor of 1 show in the result) and ``test-m-sight`` (the M1 with a
    Ranging MG sight, M primary and O secondary, on its main gun: no sample card has one), ``test-unarmed-truck``
    (the S-Type truck, unarmed) and ``test-m125-s5`` (the M125A2 with a smoke ammo limit S5: no sample card has
    an S limit)."""
    import tempfile

    import yaml
    from mbt_adv_fixtures import DATA, index

    from studio.model.project import load_document, load_project

    if "idx" in _CARDS:
        return _CARDS["idx"]
    idx = load_project(DATA)
    tmp = Path(tempfile.mkdtemp(prefix="m-adv-cards-"))
    for src, new_id, edit in (("bmp-1", "test-truck", _s_type), ("m1", "test-m1-damage", _dm_on_one),
                              ("m1", "test-m-sight", _m_sight), ("bmp-1", "test-unarmed-truck", _unarmed_truck),
                              ("m125", "test-m125-s5", _smoke_limit)):
        doc = yaml.safe_load((DATA / "units" / "mbt" / f"{src}.yaml").read_text())
        doc["id"] = new_id
        edit(doc["body"])
        path = tmp / f"{new_id}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
        loaded = load_document(path)
        assert loaded.model is not None, loaded.diagnostics
        idx.add(loaded)
    assert index() is not idx
    _CARDS["idx"] = idx
    return idx


_CARDS: dict = {}


def _s_type(body: dict) -> None:
    body["defensive"]["gp_defense"]["target_type"] = "S"
    body["defensive"]["gp_defense"]["value"] = 1


def _dm_on_one(body: dict) -> None:
    body["ap_damage"] = ["DM"] + ["ND"] * 9


def _unarmed_truck(body: dict) -> None:
    _s_type(body)
    body["unarmed"] = True


def _smoke_limit(body: dict) -> None:
    mortar = next(w for w in body["weapons"] if w["id"] == "mortar")
    mortar["ammo_limits"] = list(mortar.get("ammo_limits") or []) + [{"prefix": "S", "value": 5}]


def _m_sight(body: dict) -> None:
    body["weapons"][0]["sight"] = {"primary": "M", "secondary": "O"}


def _cards_state(units, dice=(), phase="direct-fire-first", to_act="us"):
    from mbt_adv_fixtures import SCENARIO

    from studio.rules.position import position_state
    from studio.rulesets.mbt.engine import game as G

    idx = _test_cards_index()
    if "game" not in _CARDS:
        _CARDS["game"] = G.create_game(idx.model("scenario", SCENARIO), idx, None)
    st = position_state(_CARDS["game"], {"scenario": SCENARIO, "phase": phase, "turn": 1, "units": units,
                                         "dice": list(dice), "to_act": to_act})
    st.dice.record = True
    return st


@pytest.mark.parametrize("ammo, result", [("main:APFSDS", "DM"), ("main:HEAT", "ND")])
def test_m178_s_type_target_minus_2_on_the_damage_digit_except_ce_ammo(ammo, result):
    """M178, MBT 6.5.2.6, 6.5.2.4.3: a penetrating hit on an S-Type vehicle takes -2 on the units digit, never
    below 1, except with CE ammo: KE digit 2 -> 1 (the test card's DM), CE (HEAT) digit 2 stays 2 (ND)."""
    st = _cards_state([unit("S", "test-m1-damage", "us", A, D, command="FIRE"),
                       unit("T", "test-truck", "sov", B, FRONT)], dice=[1, 72, 99, 99, 99])
    act(st, f"fire S at T {ammo}")
    assert any("damage digit 2 -> " + result in e for e in st.events), st.events


@pytest.mark.parametrize("facing, loc_roll, loc, turret", [
    ((FRONT + 2) % 6, 23, "TS", True),    # Rear/Side, tens 2: TS (MBT 6.5.2.2 table, known cell)
    (FRONT, 53, "HF", False)])            # Front, tens 5: HF (known cell)
def test_m179_damaged_result_turret_or_hull_by_location(facing, loc_roll, loc, turret):
    """M179, MBT 6.5.2.6: a DM result at TF/TS/TR/DK marks the vehicle Turret Damaged, at HF/HS/HR Hull
    Damaged (the M1's AP Damage digit 3 is DM; the crew's Bail Out roll 99 stays)."""
    st = _duel("m1", "t-80bv", dice=[1, loc_roll, 99], facing=facing)
    act(st, "fire S at T main:APFSDS")
    assert any(f"at {loc} (roll {loc_roll})" in e and e.endswith("-> DM") for e in st.events), st.events
    assert (st.tdmg[1], st.dmg[1]) == (turret, not turret)


def test_m179_damaged_result_at_the_deck_is_turret_damage():
    """M179, MBT 6.5.2.6, 6.5.2.2.2: a falling shot (2B8 height 1 onto 2B11 height 0) with tens 1 hits the Deck;
    a DM there is Turret Damaged."""
    st = adv_state([unit("S", "m1", "us", "2B8", 3, command="FIRE"), unit("T", "t-80bv", "sov", "2B11", 0)],
                   to_act="us", dice=[1, 13, 99])
    act(st, "fire S at T main:APFSDS")
    assert any("falling at DK (roll 13)" in e and e.endswith("-> DM") for e in st.events), st.events
    assert st.tdmg[1] and not st.dmg[1]


@pytest.mark.parametrize("grade, roll, out", [("seasoned", 30, True), ("seasoned", 31, False),
                                              ("elite", 26, False), ("elite", 25, True)])
def test_m181_track_hit_crew_bail_out_with_the_grade_modifier(grade, roll, out):
    """M181, MBT 6.5.2.7.1: TK - Crew 30-: a Seasoned crew bails out on 30, stays on 31; an Elite crew adds +5
    (26 -> 31 stays, 25 -> 30 bails)."""
    st = _duel("m1", "t-80bv", dice=[1, 5, roll], grades={"sov": grade})
    act(st, "fire S at T main:APFSDS")
    assert st.bail[1] == out and (st.st[1] == ON) == (not out)
    assert any(f"Bail Out check (TK): roll {roll}{5 if grade == 'elite' else 0:+d} vs 30" in e for e in st.events)


def test_m181_broken_crew_bails_out_on_45():
    """M181, MBT 6.5.2.7.1 with Optional Rule 7.1: a Broken crew takes -20: 45 -> 25, at or under 30: bails out;
    a crew in good order stays on 45."""
    from opt_command_fixtures import pos_state

    units = [unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FRONT, morale="break-on")]
    broken = pos_state(units, rules=("morale",), dice=[1, 5, 45])
    act(broken, "fire S at T main:APFSDS")
    assert broken.bail[1]
    steady = pos_state(units[:1] + [unit("T", "t-80bv", "sov", B, FRONT)], rules=("morale",), dice=[1, 5, 45])
    act(steady, "fire S at T main:APFSDS")
    assert not steady.bail[1] and steady.st[1] == ON


def test_m182_crew_bail_out_takes_both_squads_out_suppressed_in_the_hex():
    """M182, MBT 6.5.2.7.1: the crew of a carrier with 2 squads aboard bails out (Track hit, roll 1 <= 30): both
    squads bail out automatically, with no roll of their own, in the carrier's hex, Suppression/On."""
    from towed_fixtures import towed_state

    from studio.rulesets.mbt.engine.suppression import SUP_ON

    st = towed_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "test-mover", "sov", B, FRONT),
                      unit("P", "sov-mr-squad", "sov", B, 0, carried_by="T"),
                      unit("Q", "sov-mr-squad", "sov", B, 0, carried_by="T")], to_act="us", dice=[1, 5, 1])
    act(st, "fire S at T main:APFSDS")
    assert st.bail[1]
    for p in (2, 3):
        assert st.st[p] == ON and st.hex[p] == st.hex[1] and st.sup[p] == SUP_ON and st.carrier[p] == -1
    assert not any("(passenger" in e and "Bail Out roll" in e for e in st.events), st.events


@pytest.mark.parametrize("grade, roll, out", [("green", 54, True), ("green", 56, False), ("seasoned", 54, False)])
def test_m183_passenger_bail_out_after_no_damage_with_its_grade(grade, roll, out):
    """M183, MBT 6.5.2.7.2: an ND result on a carrier without Under Armor or Under Cover protection (the M113),
    its crew staying: a Green passenger rolling 54 has 54 - 5 = 49, at or under AP No Damage - Pass 50: bails out
    (56 -> 51 stays); a Seasoned one rolling 54 stays."""
    st = adv_state([unit("S", "m1", "us", A, D, command="FIRE"), unit("T", "m113", "sov", B, FRONT),
                    unit("P", "sov-mr-squad", "sov", B, 0, carried_by="T")], to_act="us",
                   dice=[1, 71, 99, roll], grades={"sov": grade})     # hit; HF, digit 1: ND; crew 99 stays
    assert st.game.units[1].type.ag.protection == "none"
    act(st, "fire S at T main:APFSDS")
    assert any(e.endswith("-> ND") for e in st.events) and st.st[1] == ON, st.events
    assert (st.carrier[2] == -1) == out
    assert any(f"(passenger, ND) Bail Out roll {roll}: {'bails out' if out else 'stays'}" in e for e in st.events)


# ---------------------------------------------------------------- 5.1.3.3.5-6 ATGM Overwatch Response, Under Fire


def test_m118_under_fire_modifiers_by_guidance_class():
    """M118, MBT 5.1.3.3.6: the AP modifier of an ATGM Under Fire: CL 1 -1, CL 2 and 3 -2 (the example's CL:3),
    CL 4 -3 (table ``atgm-under-fire``)."""
    st = _duel("m1", "t-80bv")
    assert {cl: st.game.air.under_fire[cl] for cl in (1, 2, 3, 4)} == {1: -1, 2: -2, 3: -2, 4: -3}


def test_m118_a_non_atgm_shot_takes_no_modifier_and_removes_the_counter():
    """M118, MBT 5.1.3.3.6: an ATGM unit Under Fire (the M1's GP fire had no effect on the BMP-1) that fires a
    weapon other than its ATGM takes no Under Fire modifier, and the counter is removed after that shot."""
    from opt_fire_fixtures import idx_of, opt_state
    from test_adv_air_atgm_responses import _gp_roll_for

    units = [unit("M", "m1", "us", "2A11", 0, command="FIRE"), unit("S", "bmp-1", "sov", "2A1", 0, command="FIRE")]
    probe = opt_state(units, phase="direct-fire-first", to_act="us", dice=[1] * 10)
    n_roll = _gp_roll_for(probe, "N", overwatch=False)
    st = opt_state(units, phase="direct-fire-first", to_act="us", dice=[n_roll] + [100] * 10)
    act(st, "fire M at S main:HEAT-MP")
    s, m = idx_of(st, "S"), idx_of(st, "M")
    assert s in st.under_fire
    gun = next(r for r in st.game.units[s].type.ap if r.kind == "AP")
    clean = opt_state(units, phase="direct-fire-first", to_act="us")
    assert st.hit_modifiers(s, m, gun, False) == clean.hit_modifiers(s, m, gun, False)
    act(st, f"fire S at M {gun.key}")
    assert s not in st.under_fire


def test_m213_no_pre_emption_by_a_unit_that_needs_overwatch_adjust():
    """M213, MBT 5.1.3.3.5: the Overwatch Response is open only to a unit that has the ATGM unit inside its
    Overwatch arc; the M1 facing away from the BMP-1 (it would need Overwatch Adjust) may not fire first, the
    Spigot resolves at once. (Facing it, the M1 fires first: ``test_adv_air_atgm_responses.py::
    test_overwatch_response_fires_before_the_atgm``.)"""
    from opt_fire_fixtures import opt_state

    st = opt_state([unit("S", "bmp-1", "sov", "2A1", 0, command="OW"),
                    unit("T", "m2a1", "us", "2A14", 0, command="MOVE"),
                    unit("M", "m1", "us", "2A11", 3, command="OW")], phase="move-second", to_act="us", dice=[1] * 10)
    for a in ("move T", "turn T right", "ow S at T main:Spigot_(Fagot)", "hold T"):
        act(st, a)
    assert st.ow_resp is None and any(e.startswith("S fires Spigot") for e in st.events), st.events


@pytest.mark.parametrize("rng, sight", [(20, "M"), (21, "O")])
def test_m162_ranging_mg_sight_is_unavailable_beyond_20_hexes(rng, sight):
    """M162, MBT 6.5.2.2.5: a Ranging Machinegun sight works up to 20 hexes; at 21 the weapon fires with its
    secondary sight (O) instead (table ``weapon-sight-modifiers`` column ``max_range``)."""
    a, b, d = _pair_at(rng)
    st = _cards_state([unit("S", "test-m-sight", "us", a, d, command="FIRE"),
                       unit("T", "t-80bv", "sov", b, (d + 3) % 6)])
    assert st.game.ag.sight_range == {"M": 20}
    assert st.sight_of(0, _row(st, 0, "main:APFSDS"), 1) == sight


def _pair_at(rng: int):
    """Two map hexes ``rng`` apart along a hex row (line of sight not needed) and the direction between them."""
    from studio.hexgrid.coords import neighbour

    g = adv_state([], phase="command").game
    for a in sorted(g.map.label_of):
        for d in range(6):
            b = a
            for _ in range(rng):
                b = neighbour(b, d)
            if b in g.map.label_of:
                return g.label(a), g.label(b), d
    raise LookupError(rng)
