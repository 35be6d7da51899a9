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

from studio.hexgrid.coords import distance  # noqa: E402
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
