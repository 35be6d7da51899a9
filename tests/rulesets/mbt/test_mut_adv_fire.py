"""MBT Advanced Game direct fire: cases found by mutation testing (issue 12) that no other test pinned down, through
positions and the public API (legal actions, play, the narration and the dice record). Expected values come from
the rulebook (MBT 6.1.3, 6.5.2, 6.5.4) and the ruleset tables."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401 (autouse: every roll's die)
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402

from studio.rulesets.mbt.engine.codes import MFIRE, MFIRE_SA, ON  # noqa: E402

A, B, D = clear_pair(2)
FACE = (D + 3) % 6


def _fire(shooter, ammo, target, dice=(100,) * 8, mark="none", **target_status):
    st = adv_state([unit("S", shooter, "us", A, D, command="FIRE", mark=mark),
                    unit("T", target, "sov", B, FACE, **target_status)], to_act="us", dice=dice)
    act(st, f"fire S at T {ammo}")
    return st


def test_a_shot_marks_the_shooter_spot_fire_small_arms_sideways():
    # MBT 6.1.3: a unit that fired is marked Spot/Fire; one that fired only Small Arms gets the counter sideways
    # (+1 row, not the full Spot/Fire modifier); a unit that fired non-Small Arms keeps the full counter
    assert _fire("m1", "main:APFSDS", "t-80bv").mk[0] == MFIRE
    assert _fire("us-mech-squad", "rifles:GP", "sov-mr-squad").mk[0] == MFIRE_SA
    assert _fire("us-mech-squad", "rifles:GP", "sov-mr-squad", mark="spot-fire").mk[0] == MFIRE


# ---------------------------------------------------------------- GP direct fire at vehicles (MBT 6.5.4)
GP_LINE = re.compile(r"fires \S+ \(GP (\d+), ([PSMLE])\) at T \(GPD (\d+)([APS])\): roll (\d+)([+-]\d+) = (-?\d+) vs "
                     r"N (-?\d+) / S (-?\d+): ([NSE])-Effect -> (\w+)")


def _gp_state(shooter, target, rng=2, t_to="C", s_status=None, dice=(), ext=None, **t_status):
    a, b, d = clear_pair(rng, "C", t_to)
    return adv_state([unit("S", shooter, "us", a, d, **({"command": "FIRE"} | (s_status or {}))),
                      unit("T", target, "sov", b, (d + 3) % 6, **t_status)], to_act="us", dice=dice,
                     **(ext or {}))


def _gp(shooter, ammo, target, rng=2, roll=50, extra=(), t_to="C", s_status=None, ext=None, **t_status):
    """GP fire with the roll (100) ``roll`` (or a function of the shot's N, S and net giving it), then ``extra``;
    returns the state and the narrated shot (GP factor, band, GPD, type, roll, net, x, N, S, effect, result)."""
    if callable(roll):
        probe = _gp(shooter, ammo, target, rng, 50, (100,) * 4, t_to, s_status, ext, **t_status)[1]
        roll = roll(probe["n"], probe["s"], probe["net"])
    st = _gp_state(shooter, target, rng, t_to, s_status, (roll, *extra), ext, **t_status)
    act(st, f"fire S at T {ammo}")
    line = next(e for e in st.events if " fires " in e and "(GP " in e)
    m = GP_LINE.search(line)
    assert m, line
    f, band, gpd, tt, r, net, x, n, s, effect, result = m.groups()
    return st, {"factor": int(f), "band": band, "gpd": int(gpd), "type": tt, "roll": int(r), "net": int(net),
                "x": int(x), "n": int(n), "s": int(s), "effect": effect, "result": result}


def _effective(digit=None):
    """The roll whose modified result is the smallest Effective one ending in ``digit`` (None: in neither 5 nor 0,
    the Rule of 5s and 10s)."""
    def pick(n, s, net):
        x = s + 1
        if digit is None:
            return x + (x % 5 == 0) - net
        return x + (digit - x) % 10 - net
    return pick


def _suppressed(n, s, net):
    return n + 1 - net


@pytest.mark.parametrize("rng, band, result", [(1, "P", "SUP"), (3, "S", "SUP"), (5, "M", "NE")])
def test_small_arms_s_effect_on_a_p_type_suppresses_at_p_and_s(rng, band, result):
    # MBT 6.5.4.4.2: Suppressed result, Small Arms vs P-Type: Suppressed at Point Blank or Short, else No Effect
    # (M1 commander's HMG: ranges 1/3/5/7/10; M106 mortar carrier: GPD 3P)
    st, shot = _gp("m1", "cdr-hmg:GP", "m106", rng, _suppressed)
    assert (shot["band"], shot["type"], shot["effect"], shot["result"]) == (band, "P", "S", result)
    assert (st.sup[1] != 0) == (result == "SUP")


@pytest.mark.parametrize("rng, band, result", [(1, "P", "DAMAGE"), (3, "S", "SUP"), (5, "M", "NE")])
def test_small_arms_e_effect_on_a_p_type_damages_only_at_point_blank(rng, band, result):
    # MBT 6.5.4.4.2: Effective result, Small Arms vs P-Type: Damaged at Point Blank (roll (10) 1-4 Turret), Suppressed
    # at Short, else No Effect
    st, shot = _gp("m1", "cdr-hmg:GP", "m106", rng, _effective(), extra=(3, 100, 100))
    assert (shot["band"], shot["effect"], shot["result"]) == (band, "E", result)
    assert st.tdmg[1] == (result == "DAMAGE") and (st.sup[1] != 0) == (result == "SUP") and st.st[1] == ON


@pytest.mark.parametrize("rng, band, result", [(1, "P", "SUP"), (3, "S", "SUP"), (5, "M", "NE")])
def test_small_arms_e_effect_on_an_a_type_only_suppresses_at_p_and_s(rng, band, result):
    # MBT 6.5.4.4.2: Effective result, Small Arms vs A-Type: Suppressed at Point Blank or Short, else No Effect
    st, shot = _gp("m1", "cdr-hmg:GP", "m113", rng, _effective(), extra=(100,) * 3)
    assert (shot["band"], shot["type"], shot["effect"], shot["result"]) == (band, "A", "E", result)
    assert st.st[1] == ON and not st.tdmg[1] and not st.dmg[1]


def test_gp_damage_roll_of_4_is_turret_5_is_hull():
    # MBT 6.5.4.4.2: a Damaged result: the shooter rolls (10); 4 or less Turret Damaged, else Hull Damaged
    turret = _gp("m1", "cdr-hmg:GP", "m106", 1, _effective(), extra=(4, 100, 100))[0]
    hull = _gp("m1", "cdr-hmg:GP", "m106", 1, _effective(), extra=(5, 100, 100))[0]
    assert turret.tdmg[1] and not turret.dmg[1] and hull.dmg[1] and not hull.tdmg[1]


def test_coax_mg_plus_10_at_point_blank_against_p_types_and_leg_units_only():
    # MBT 6.5.4.3: Coax MG (P-Range) vs P or S: +10; the M1's coax MMG and its loader's MMG have the same row
    def diff(target, rng):
        return _gp("m1", "mmg:GP", target, rng)[1]["net"] - _gp("m1", "loader-mmg:GP", target, rng)[1]["net"]

    assert diff("m106", 1) == 10 and diff("sov-mr-squad", 1) == 10
    assert diff("m113", 1) == 0 and diff("m106", 2) == 0


@pytest.mark.parametrize("status, modifier", [({"turret_damaged": True}, -10), ({"suppression": "on"}, -20),
                                              ({"command": "SH"}, -5)])
def test_shooter_gp_modifiers(status, modifier):
    # MBT 6.5.4.3: Shooter Damaged -10, Shooter Suppressed -20, Short Halt of an SB:1 vehicle (M1) -5
    plain = _gp("m1", "cdr-hmg:GP", "m106", 3)[1]["net"]
    assert _gp("m1", "cdr-hmg:GP", "m106", 3, s_status=status)[1]["net"] - plain == modifier


@pytest.mark.parametrize("terrain, modifier", [("W", -10), ("T", -20), ("B", 0)])
def test_target_vehicle_cover_modifier(terrain, modifier):
    # MBT 6.5.4.3: Target Vehicle in Medium Cover -10 (Woods), Heavy Cover -20; Light Cover (Brush) nothing
    plain = _gp("m1", "cdr-hmg:GP", "m106", 2)[1]["net"]
    assert _gp("m1", "cdr-hmg:GP", "m106", 2, t_to=terrain)[1]["net"] - plain == modifier


@pytest.mark.parametrize("answer, modifier", [("reveal", -10), ("conceal", 0)])
def test_target_vehicle_moving_only_when_revealed(answer, modifier):
    # MBT 6.5.4.3: Target Vehicle Moving (a Move or Short Halt command) -10 for Direct Fire; a hidden command is
    # revealed by its owner for the modifier, or kept hidden (modifier 0)
    plain = _gp("m1", "cdr-hmg:GP", "m106", 2)[1]["net"]
    st = _gp_state("m1", "m106", 2, dice=(50, 100, 100), command="SH")
    act(st, "fire S at T cdr-hmg:GP")
    act(st, f"{answer} T")
    shot = GP_LINE.search(next(e for e in st.events if " fires " in e and "(GP " in e))
    assert int(shot.group(6)) - plain == modifier


def test_gp_factor_at_the_band_edge():
    # MBT 6.5.4.1: the first range at or above the range in hexes gives the GP factor (HMG 1/3/5: range 3 is S, 4 M)
    assert _gp("m1", "cdr-hmg:GP", "m106", 3)[1]["band"] == "S" and _gp("m1", "cdr-hmg:GP", "m106", 3)[1]["factor"] == 5
    assert _gp("m1", "cdr-hmg:GP", "m106", 4)[1]["band"] == "M"


# ---------------------------------------------------------------- Ammo Limits (MBT 5.16.2.6)
def test_counted_missiles_are_in_the_fingerprint():
    # MBT 5.16.2.6: the missiles fired are part of the state: two states differing only in them are different
    st = _gp_state("m150", "t-80bv", 5)
    base = st.fingerprint()
    st.ammo[(0, "tow")] = 1  # one missile fired before (no position status for it)
    one = st.fingerprint()
    st.ammo[(0, "tow")] = 2
    assert len({base, one, st.fingerprint()}) == 3 and st.clone().fingerprint() == st.fingerprint()


@pytest.mark.parametrize("carried, first, second", [(0, False, False), (1, True, False), (2, True, True)])
def test_counted_missiles_fire_exactly_the_number_carried(carried, first, second):
    # MBT 5.16.2.6: counted ATGM limits are the exact number carried (option atgm-ammo-limits: count, Q31): a
    # launcher with none may not fire, with one it fires once (the M150's ITOW limit set to 0, 1, 2 on this game)
    from studio.rulesets.mbt.engine.opt_fire_data import fire_data

    a, b, d = clear_pair(5)
    st = adv_state([unit("S", "m150", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, (d + 3) % 6)],
                   to_act="us", dice=(100,) * 8, options={"atgm-ammo-limits": "count"})
    fire_data(st.game).cards["m150"].limits["tow"]["A"] = carried
    legal = [str(x) for x in st.legal_actions()]
    assert ("fire S at T tow:ITOW" in legal) is first
    st.ammo[(0, "tow")] = 1  # one fired before (no position status for it)
    assert (st.weapon_ok(0, 1, next(r for r in st.game.units[0].type.ap if r.key == "tow:ITOW"))) is second


def test_leg_targets_take_cover_and_movement_in_their_gp_defense_not_as_modifiers():
    # MBT 6.5.4.2.2, 6.5.4.3: a leg unit's cover and movement change its GP Defense (Soviet squad: none 2, medium
    # 6, moving -2); the Target Vehicle Moving / Medium Cover modifiers are for vehicles only
    clear = _gp("m1", "cdr-hmg:GP", "sov-mr-squad", 2)[1]
    woods = _gp("m1", "cdr-hmg:GP", "sov-mr-squad", 2, t_to="W")[1]
    moving = _gp("m1", "cdr-hmg:GP", "sov-mr-squad", 2, command="MOVE", revealed=True)[1]
    assert (clear["gpd"], woods["gpd"], moving["gpd"]) == (2, 6, 1)
    assert clear["net"] == woods["net"] == moving["net"]


# ---------------------------------------------------------------- hindrances on the line (MBT 6.5.2.5, 6.5.4.3)
def _middle(rng=2) -> str:
    """The label of the hex between the shooter and the target of ``clear_pair(rng)``."""
    a, b, d = clear_pair(rng)
    g = adv_state([unit("S", "m1", "us", a, d)]).game
    return g.label(neighbour(g.map.hex(a), d))


def _ap_net(ext=None) -> int:
    st = _gp_state("m1", "t-80bv", 2, dice=(100,) * 4, ext=ext)
    act(st, "fire S at T main:APFSDS")
    return int(re.search(r"net ([+-]\d+)", next(e for e in st.events if e.startswith("S fires"))).group(1))


@pytest.mark.parametrize("ext, ap, gp", [
    ({"wrecks": "brewed-up"}, -2, -10),
    ({"smoke": "open"}, -3, -10),
    ({"smoke": "closed"}, -5, -20)])
def test_brew_up_smoke_and_smoke_on_the_line(ext, ap, gp):
    # MBT 4.4.3.2.2, 6.5.2.5, 6.5.4.3: Brew-Up Smoke on the line AP -2, GP -10; Smoke of an Open / Closed SHEAF
    # AP -3 / -5, GP -10 / -20 (the hex between shooter and target)
    h = _middle()
    key, value = next(iter(ext.items()))
    position = {"wrecks": {h: value}} if key == "wrecks" else {"smoke": [{"hexes": [h], "sheaf": value}]}
    ag = adv_state([]).game.ag   # MBT 6.5.2.2.5: the M1's Laser sight has no effect through the smoke: Optical
    assert _ap_net(position) - _ap_net() == ap + ag.sight_ap["O"]["P"] - ag.sight_ap["L"]["P"]
    plain = _gp("m1", "cdr-hmg:GP", "m106", 2)[1]["net"]
    assert _gp("m1", "cdr-hmg:GP", "m106", 2, ext=position)[1]["net"] - plain == gp


# ---------------------------------------------------------------- AP hit location (MBT 6.5.2.2.2, 6.5.2.3)
@pytest.mark.parametrize("shooter_hex, target_hex, facing, elevation, where", [
    ("2B8", "2B11", (3, 0), "falling", "DK (roll 15): penetration 82 vs armor 20"),
    ("2B11", "2B8", (0, 3), "rising", "TF (roll 15)")])
def test_a_falling_shot_with_tens_1_hits_the_deck(shooter_hex, target_hex, facing, elevation, where):
    # MBT 6.5.2.2.2: a Falling shot (firer higher: 2B8 height 1, 2B11 height 0) whose location tens die is 1 hits
    # the Deck (T-80BV deck armor 20); the same roll rising hits the location table's cell (TF)
    st = adv_state([unit("S", "m1", "us", shooter_hex, facing[0], command="FIRE"),
                    unit("T", "t-80bv", "sov", target_hex, facing[1])], to_act="us", dice=[1, 15] + [100] * 6)
    act(st, "fire S at T main:APFSDS")
    assert any(e.startswith(f"T hit front {elevation} at {where}") for e in st.events), st.events


# ---------------------------------------------------------------- Suppression (MBT 5.10, 6.1.3.1, 6.5.2.6, 6.8.4)
def test_a_brew_up_suppresses_only_the_friendly_units_of_its_hex():
    # MBT 6.5.2.6: a Brew Up suppresses every friendly ground unit in the same hex (Q), no other unit (R, a hex
    # away; the enemy shooter S)
    a, b, d = clear_pair(5)
    g = adv_state([unit("S", "m1", "us", a, d)]).game
    beside = g.label(neighbour(g.map.hex(b), (d + 1) % 6))
    st = adv_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "bmp-2", "sov", b, (d + 3) % 6),
                    unit("Q", "bmp-2", "sov", b, (d + 3) % 6), unit("R", "bmp-2", "sov", beside, 0)],
                   to_act="us", dice=[1, 79])
    act(st, "fire S at T main:APFSDS")
    assert st.wreck.get(st.hex[1]) == 2 and st.sup[2] != 0 and st.sup[3] == 0 and st.sup[0] == 0


def test_an_unsuppressed_spotter_sees_all_around_while_another_unit_is_suppressed():
    # MBT 6.1.2, 6.1.3.1: units spot in all directions unless Suppressed (then the front 60 degrees only); a
    # suppressed unit elsewhere changes nothing for the others
    a, b, d = clear_pair(5)
    st = adv_state([unit("S", "m1", "us", a, (d + 3) % 6), unit("T", "t-80bv", "sov", b, 0),
                    unit("U", "m1", "us", "2A1", 0, suppression="on")], phase="spotting")
    assert 1 in st.spots[0]


def _recovery(command, roll):
    """A Regulars unit with Suppression/Off at the end of the turn (no command: ``command`` None), roll ``roll``."""
    status = {"suppression": "off"} | ({"command": command} if command else {})
    st = adv_state([unit("a", "m1", "us", "2A1", 0, **status), unit("m", "m1", "us", "2A13", 0, command="MOVE"),
                    unit("t", "t-80bv", "sov", "2P13", 0)], phase="move-first", to_act="us", dice=[roll],
                   grades={"us": "regulars", "sov": "regulars"})
    act(st, "move m")
    act(st, "done m")
    assert st.turn == 2
    return st.sup[0] == 0


@pytest.mark.parametrize("command, top", [(None, 50), ("FIRE", 30)])
def test_recovery_plus_20_for_any_command_but_nc(command, top):
    # MBT 6.8.4: +20 to the recovery roll if the unit's command was not N/C (no marked command is N/C, MBT
    # 6.2.1.1.2); Regulars recover on 01-50
    assert _recovery(command, top) and not _recovery(command, top + 1)


def test_attacked_this_turn_is_cleared_for_the_next_turn():
    # MBT 6.8.4: the +10 is for attacks of this turn: after the Adjustment Phase no unit counts as attacked
    a, b, d = clear_pair(5)
    st = adv_state([unit("S", "t-80bv", "sov", a, d, command="FIRE"),
                    unit("T", "m1", "us", b, (d + 3) % 6, suppression="off")], to_act="sov",
                   dice=[1, 100, 41], grades={"us": "regulars", "sov": "regulars"})
    act(st, "fire S at T main:APFSDS")
    assert st.turn == 2 and not any(st.attacked)


def test_gp_track_on_an_already_track_hit_vehicle_adds_nothing():
    # MBT 6.5.2.2.1, 6.5.4.4.2: later Track hits are ignored: no second crew Bail Out check (M1 HEAT-MP at an M113)
    st, shot = _gp("m1", "main:HEAT-MP", "m113", 3, _effective(0), extra=(100,) * 4, track_hit=True)
    assert shot["result"] == "TRACK" and st.track[1]
    assert not any(label.startswith("Bail Out") for label, _ in st.dice.history)


def test_a_gp_suppression_of_a_hull_down_vehicle_stands():
    # MBT 6.5.4.4.2: only a Track result on a Hull Down vehicle becomes No Effect; a Suppressed result stands
    st, shot = _gp("m1", "cdr-hmg:GP", "m106", 1, _suppressed, hull_down="hd")
    assert shot["result"] == "SUP" and st.sup[1] != 0


# ---------------------------------------------------------------- ATGM Dodge (MBT 5.1.3.3.4)
def test_no_atgm_dodge_at_a_range_of_the_missile_speed():
    # MBT 5.1.3.3.4: the target may dodge only beyond the ATGM's speed SP (the Spigot's 12): from 2A2 (range 12)
    # the shot resolves at once; from 2A1 (range 13) the Bradley is asked
    def duel(shooter_hex):
        st = adv_state([unit("S", "bmp-1", "sov", shooter_hex, 0, command="FIRE"),
                        unit("T", "m2a1", "us", "2A14", 1, command="MOVE", revealed=True)], to_act="sov",
                       dice=[1, 1, 50, 50, 50])
        act(st, "fire S at T main:Spigot_(Fagot)")
        return st

    near, far = duel("2A2"), duel("2A1")
    assert any(e.startswith("S fires Spigot (Fagot) at T, range 12") for e in near.events), near.events
    assert {str(a) for a in far.legal_actions()} == {"fwd T", "hold T"} and not far.events


# ---------------------------------------------------------------- AP hit modifiers (MBT 4.4.3.2.2, 6.5.2.5)
def _ap_shot_net(shooter, ammo, rng=2, **s_status) -> int:
    st = _gp_state(shooter, "t-80bv", rng, s_status=s_status or None, dice=(100,) * 6)
    act(st, f"fire S at T {ammo}")
    return int(re.search(r"net ([+-]\d+)", next(e for e in st.events if e.startswith("S fires"))).group(1))


@pytest.mark.parametrize("shooter, ammo, modifier", [("m1", "main:APFSDS", -1), ("bmp-2", "main:APDS", -3)])
def test_short_halt_ap_modifier_by_stabilization(shooter, ammo, modifier):
    # MBT 4.4.3.2.2: Short Halt of an SB:1 vehicle (M1) -1, SB:3 (BMP-2) -3; a Fire command has none
    assert _ap_shot_net(shooter, ammo, command="SH") - _ap_shot_net(shooter, ammo) == modifier


def test_laser_sight_plus_2_at_medium_range_for_guns():
    # MBT 6.5.2.5: Weapon Sight modifier, Laser at range factor M: AP +2 (the M1's APFSDS at range 12, band M;
    # Seasoned: no grade modifier; the T-80BV in the open: its Target Size only)
    st = _gp_state("m1", "t-80bv", 12, dice=(100,) * 6)
    row = next(r for r in st.game.units[0].type.ap if r.key == "main:APFSDS")
    net, band = st.hit_modifiers(0, 1, row, False)
    assert band == "M" and row.sight == "L" and net == st.game.units[1].type.target_size + 2


@pytest.mark.parametrize("rof, roll, hits", [("R", 6, 3), ("R", 7, 2), ("R", 18, 2), ("R", 19, 1), ("Q", 9, 2),
                                             ("Q", 10, 1), ("N", 1, 1)])
def test_number_of_hits_off_the_known_row_at_the_fraction_boundaries(rof, roll, hits):
    # MBT 6.5.2.1: several hits on a low hit roll by ROF; off the known row 56 the table ap-hits-by-rof
    # (placeholder): at or under floor(hit number x fraction) that many hits (hit number 60: R 3 hits to 6, 2 to
    # 18; Q 2 to 9); ROF N always one
    st = _gp_state("m2a1", "t-80bv", 5)
    assert st.number_of_hits(60, rof, roll) == hits


@pytest.mark.parametrize("facing_target, modifier", [(True, -5), (False, -10)])
def test_overwatch_gp_modifiers_inside_and_outside_the_field_of_fire(facing_target, modifier):
    # MBT 6.5.4.3: Overwatch at a target within the front field of fire -5, outside it (a turreted M1 turning its
    # turret) -10, besides Target Vehicle Moving -10 (the M106 turned in its hex: P-Type -10 too)
    a, b, d = clear_pair(2)
    plain = _gp("m1", "cdr-hmg:GP", "m106", 2)[1]["net"]
    st = adv_state([unit("S", "m1", "us", a, d if facing_target else (d + 3) % 6, command="OW"),
                    unit("T", "m106", "sov", b, (d + 3) % 6, command="MOVE")], phase="move-second", to_act="sov",
                   dice=[50] * 6)
    act(st, "move T")
    act(st, "turn T right")
    act(st, "ow S at T cdr-hmg:GP")
    shot = GP_LINE.search(next(e for e in st.events if " fires " in e and "(GP " in e))
    assert int(shot.group(6)) - plain == -10 + modifier
