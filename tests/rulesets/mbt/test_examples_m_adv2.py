"""MBT Advanced Game worked examples M113-M214 of the examples digest (issue 12), second part: GP fire (6.5.4),
indirect fire modifiers and missions (6.5.4.3, 6.5.1), terrain features (6.1.4.3), smoke, barrages, fire and ammo
(5.11, 5.16) and bail-out of towed passengers (5.15); helpers from ``test_examples_m_adv.py``. Expected values from
the rulebook text or the ruleset tables."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adv_states import dice_sides  # noqa: E402,F401
from mbt_adv_fixtures import act, adv_state, clear_pair, unit  # noqa: E402
from test_examples_m_adv import A, B, D, FRONT, _between, _cards_state, _duel, _row  # noqa: E402

from studio.rulesets.mbt.engine.codes import ON  # noqa: E402


# ---------------------------------------------------------------- 6.5.4 GP fire


def _terrain_hex(code: str) -> str:
    """The label of the first hex of terrain ``code`` on the sample scenario's boards."""
    g = adv_state([], phase="command").game
    return g.label(next(h for h in sorted(g.map.terrain) if g.map.terrain[h] == code))


def test_m190_improved_position_in_rough_uses_the_higher_gp_defense():
    """M190, MBT 6.5.4.2.2: with more than one terrain type in the hex (an Improved Position in Rough), the leg
    unit's GP Defense is the higher one: the Improved Position's Heavy Cover (Soviet squad 8S, Rough none 2S)."""
    from mbt_move_fixtures import opt_game, opt_state

    rough = _terrain_hex("R")
    squad = [unit("L", "sov-mr-squad", "sov", rough, 0)]
    in_ip = opt_state(opt_game(improved_positions=[rough]), squad, phase="command", to_act=None)
    bare = opt_state(opt_game(), squad, phase="command", to_act=None)
    gpd = in_ip.game.units[0].type.ag.gpd_cover
    assert (gpd["none"], gpd["heavy"]) == (2, 8)
    assert bare.leg_gp_defense(0) == 2 and in_ip.leg_gp_defense(0) == 8


@pytest.mark.parametrize("code, construction, cover", [("B", None, "none"), ("K", None, "none"),
                                                       ("T", "wood", "light"), ("T", "brick", "medium")])
def test_m191_leg_gp_defense_cover_of_brush_crops_and_buildings(code, construction, cover):
    """M191, MBT 6.5.4.2.2: for a leg unit's GP Defense, Brush and Crops are no cover, a Wood Building Light and a
    Brick Building Medium (for spotting they are Light, Medium, Heavy, Heavy): the Soviet squad reads 2S, 2S,
    4S and 6S there."""
    from mbt_move_fixtures import opt_game, opt_state

    h = _terrain_hex(code)
    g = opt_game(building_construction={h: construction}) if construction else opt_game()
    st = opt_state(g, [unit("L", "sov-mr-squad", "sov", h, 0)], phase="command", to_act=None)
    gpd = st.game.units[0].type.ag.gpd_cover
    assert gpd == {"none": 2, "light": 4, "medium": 6, "heavy": 8}
    assert st.leg_gp_defense(0) == gpd[cover]


def test_m193_a_type_target_and_damaged_turret_net_minus_30():
    """M193, MBT 6.5.4.3: GP fire modifiers add up: an A-Type target (-20) fired at by a shooter with a Damaged
    turret (-10) is -30 against an undamaged shooter at an S-Type target (the test-only S-Type truck)."""
    a, b, d = clear_pair(5)
    units = [unit("T", "t-80bv", "sov", b, (d + 3) % 6)]
    hurt = _cards_state([unit("S", "m1", "us", a, d, command="FIRE", turret_damaged=True)] + units)
    soft = _cards_state([unit("S", "m1", "us", a, d, command="FIRE"), unit("T", "test-truck", "sov", b, (d + 3) % 6)])
    row = _row(hurt, 0, "main:HEAT-MP")
    band = hurt.gp_factor(row, 5)[0]
    assert hurt.gp_modifiers(0, 1, row, band, False) - soft.gp_modifiers(0, 1, row, band, False) == -30


@pytest.mark.parametrize("grade, band, gp", [("veteran", "L", 5), ("seasoned", "L", 0)])
def test_m194_gp_unit_grade_modifier_and_laser_sight(grade, band, gp):
    """M194, MBT 6.5.4.3: the GP Unit Grade modifier of a Veteran firer at GP range factor L is +5 (Seasoned, the
    baseline, 0); a Laser sight at M is +5 (tables ``unit-grade-modifiers``, ``weapon-sight-modifiers``)."""
    st = _duel("m1", "t-80bv")
    assert st.game.ag.grade_gp[grade][band] == gp and st.game.ag.sight_gp["L"]["M"] == 5


def test_m199_gp_2_against_gpd_9_result_109_is_effective():
    """M199, MBT 6.5.4.4: the modified result 109 against GP 2 / GPD 9 exceeds the S-Effect number: Effective."""
    st = _duel("m1", "t-80bv")
    n_eff, s_eff = st.game.ag.gp_crt[(2, 9)]
    assert n_eff < s_eff < 109


def _smallest_above(s_eff: int, digit: int) -> int:
    """The smallest modified result above the S-Effect number whose last digit is ``digit`` (0-9)."""
    x = s_eff + 1
    return x + (digit - x) % 10


@pytest.mark.parametrize("target, damage_roll, turret", [("test-truck", 4, True), ("test-truck", 5, False),
                                                         ("test-unarmed-truck", 1, False)])
def test_m202_gp_damaged_result_turret_on_4_or_less_unarmed_always_hull(target, damage_roll, turret):
    """M202, MBT 6.5.4.4.2: an Effective result ending in 5 is Damaged: roll (10) 4 or less Turret, 5 or more
    Hull; an unarmed target is always Hull Damaged (the T-80BV's HE at the test-only S-Type trucks, range 5)."""
    a, b, d = clear_pair(5)
    units = [unit("S", "t-80bv", "us", a, d, command="FIRE"), unit("T", target, "sov", b, (d + 3) % 6)]
    probe = _cards_state(units)
    row = _row(probe, 0, "main:HE")
    band, factor = probe.gp_factor(row, 5)
    net = probe.gp_modifiers(0, 1, row, band, False)
    n_eff, s_eff = probe.game.ag.gp_crt[(factor, probe.game.units[1].type.ag.gp_value)]
    st = _cards_state(units, dice=[1, _smallest_above(s_eff, 5) - net, damage_roll, 99, 99])   # ammo limit first
    act(st, "fire S at T main:HE")
    assert any(e.endswith("-> DAMAGE") for e in st.events), st.events
    assert (st.tdmg[1], st.dmg[1]) == (turret, not turret)


@pytest.mark.parametrize("kill_roll, result", [(2, 2), (3, 1)])
def test_m205_small_arms_kill_of_an_s_type_bu_on_half_the_gp_factor(kill_roll, result):
    """M205, MBT 6.5.4.4.2, 5.12: Small Arms GP Factor 5 (the T-80BV's AA HMG at Short range) Effective against
    an S-Type vehicle with a result not ending in 5 or 0 (83): roll (10) at or under half the GP Factor (5 / 2 =
    2, rounded down) Brews Up (2), above it Knocks Out (3); the wreck records it (2 BU, 1 KO)."""
    a, b, d = clear_pair(3)
    units = [unit("S", "t-80bv", "us", a, d, command="FIRE"), unit("T", "test-truck", "sov", b, (d + 3) % 6)]
    probe = _cards_state(units)
    row = _row(probe, 0, "aa-hmg:GP")
    band, factor = probe.gp_factor(row, 3)
    assert (band, factor, row.small_arms) == ("S", 5, True)
    net = probe.gp_modifiers(0, 1, row, band, False)
    assert probe.game.ag.gp_crt[(5, 1)][1] < 83
    st = _cards_state(units, dice=[83 - net, kill_roll, 99, 99])
    act(st, "fire S at T aa-hmg:GP")
    assert any(f"KO/BU roll {kill_roll} vs 2" in e for e in st.events), st.events
    assert st.wreck.get(st.hex[1]) == result


# ---------------------------------------------------------------- 6.5.4.3 indirect fire modifiers


def test_m195_moving_vehicle_in_the_target_point_of_an_open_sheaf():
    """M195, MBT 6.5.4.3: a vehicle with a revealed Move command in the Target Point hex of called off-map
    indirect fire in an Open SHEAF takes Moving IF -20, IF Open SHEAF -20 and A-Type -20: 50 - 60 = -10; a vehicle
    in another hex of the SHEAF takes no moving modifier (Q9): 50 - 40 = 10."""
    from mbt_arty_fixtures import FAR, TARGET, arty_state, events, if_units

    moving = {"command": "MOVE", "revealed": True}
    units = if_units(fo_hex=FAR)[:2] + [unit("T", "t-80bv", "sov", TARGET, 5, **moving),
                                        unit("N", "t-80bv", "sov", "4E3", 5, **moving)]
    st = arty_state(units, dice=[6] + [50] * 9)
    act(st, "call m109-battery-1 by F at 4E1 GP open")
    assert "roll 50-60 = -10" in events(st, "IF at T")[0]
    assert "roll 50-40 = 10" in events(st, "IF at N")[0]


@pytest.mark.xfail(strict=True, reason="EXM: engine fix of MBT 6.5.4.3 pending (indirect.py lock)")
def test_m195_planned_fire_takes_no_moving_modifier():
    """M195, MBT 6.5.4.3: Planned indirect fire (Closed SHEAF here) at a moving vehicle in its Target Point takes
    no moving modifier: only the A-Type -20 (50 - 20 = 30)."""
    from mbt_arty_fixtures import FAR, TARGET, arty_state, events, if_units

    plot = [{"side": "us", "battery": "m109-battery", "turn": 2,
             "segments": [{"mission": "GP", "sheaf": "closed", "hex": TARGET, "turns": 1}]}]
    units = if_units(fo_hex=FAR)[:2] + [unit("T", "t-80bv", "sov", TARGET, 5, command="MOVE", revealed=True)]
    st = arty_state(units, dice=[50] * 20, turn=1, grades={"us": "elite"}, planned_fire=plot)
    act(st, "planned m109-battery-1@2")
    assert "roll 50-20 = 30" in events(st, "IF at T")[0], st.events


# ---------------------------------------------------------------- 6.1.4.3 terrain features


@pytest.mark.parametrize("construction, hull_down", [("stone", True), ("brick", True), ("wood", False)])
def test_m133_vehicle_inside_a_stone_or_brick_building_is_hull_down_from_all_angles(construction, hull_down):
    """M133, MBT 6.1.4.3.1: a vehicle inside a Brick or Stone building is Hull Down from every angle without a
    Hull Down counter (Hull and Track hits miss, MBT 6.5.2.2.3); inside a Wood building it is not; the building
    gives its cover as well."""
    from mbt_move_fixtures import opt_game, opt_state

    town = _terrain_hex("T")
    st = opt_state(opt_game(building_construction={town: construction}),
                   [unit("S", "t-80bv", "sov", _terrain_hex("C"), 0), unit("T", "m1", "us", town, 0)],
                   phase="command", to_act=None)
    assert st.hd[1] == 0
    for angle in ("front", "front_side", "rear_side", "rear"):
        assert bool(st.hull_down_state(0, 1, angle)) == hull_down
    assert st.hull_down_miss(0, 1, "rear", 10, "TK") == hull_down
    assert st.hull_down_miss(0, 1, "rear", 7, "HR") == hull_down and not st.hull_down_miss(0, 1, "rear", 1, "TR")
    assert st.cover_of(st.hex[1]) == "heavy"


# ---------------------------------------------------------------- smoke, barrages, fire, ammo (5.11, 5.16, 6.1.4.3.10)


def test_m130_smoke_shot_failing_its_ammo_limit_places_nothing_but_marks_spot_fire():
    """M130, MBT 5.16.2.2: an on-map direct-fire smoke shot whose S ammo limit roll (10) fails is not resolved:
    no SMOKE counter; the firer is still marked Spot/Fire (the test-only M125A2 with S5: 6 fails, 5 places)."""
    from studio.rulesets.mbt.engine.codes import MFIRE

    units = [unit("C", "test-m125-s5", "us", "4H1", 5, command="FIRE"), unit("T", "t-80bv", "sov", "4E1", 5)]
    st = _cards_state(units, dice=[6] + [50] * 10)
    act(st, "smoke C at 4E1")
    assert st.arty.clouds == () and st.mk[0] == MFIRE
    assert any("ammo limit roll 6 > S5: nothing placed" in e for e in st.events), st.events
    ok = _cards_state(units, dice=[5] + [50] * 10)
    act(ok, "smoke C at 4E1")
    assert len(ok.arty.clouds) == 1 and ok.mk[0] == MFIRE


def test_m137_direct_fire_smoke_acts_only_after_its_step():
    """M137, MBT 6.1.4.3.10: smoke made in the Direct Fire Step does not hinder fire in that step (it takes
    effect in the following Close Assault / Hand-to-Hand Combat Step); IF smoke acts in the same turn's Direct
    Fire Step (``test_adv_if_smoke.py::test_smoke_mission_places_its_sheaf_and_acts_after_the_step``)."""
    from mbt_arty_fixtures import TARGET, arty_state

    units = [unit("C", "m125", "us", "4H1", 5, command="FIRE"), unit("A", "m1", "us", "4H1", 5, command="FIRE"),
             unit("T", "t-80bv", "sov", TARGET, 5)]
    st = arty_state(units, phase="direct-fire-first", dice=[1] + [50] * 10)
    act(st, "smoke C at 4E1")
    a, t = st.game.uindex["A"], st.game.uindex["T"]
    assert len(st.arty.clouds) == 1 and st.hindrance_modifier(a, t, "ap") == 0
    later = st.clone()
    later.arty.clouds = tuple(c._replace(made=(c.made[0], -1)) for c in later.arty.clouds)  # an earlier step's
    assert later.hindrance_modifier(a, t, "ap") == -5


@pytest.mark.parametrize("grade, sources", [("elite", 4), ("veteran", 4), ("seasoned", 4), ("regulars", 2),
                                            ("green", 2), ("raw", 1)])
def test_m138_fo_capacity_by_grade_command_and_recon_one(grade, sources):
    """M138, MBT 6.5.1.1.1-3: an FO calls up to 4 distinct sources (Elite, Veteran, Seasoned), 2 (Regulars,
    Green) or 1 (Raw); Command and Recon observers 1 at every grade (table ``observer-capacity``)."""
    from mbt_arty_fixtures import FAR, arty_state, if_units

    st = arty_state(if_units(fo_hex=FAR), grades={"us": grade})
    assert st.capacity(st.game.uindex["F"]) == sources
    cap = __import__("studio.rulesets.mbt.engine.if_data", fromlist=["if_data"]).if_data(st.game).capacity
    assert cap[("command", grade)] == cap[("recon", grade)] == 1


def test_m122_fire_and_a_closed_barrage_in_one_hex_apply_only_the_fire():
    """M122, MBT 5.11 (Optional Rule 7.35 Fires): a Fire and a Closed SHEAF Barrage in the same hex on the line:
    only the larger modifier, On Fire AP -5 / GP -20, not -5 -3 / -20 -10."""
    from mbt_arty_fixtures import FAR, TARGET, arty_state, if_units

    units = if_units(fo_hex=FAR, extra=[unit("A", "m1", "us", "4H1", 5, command="FIRE")])

    def after_barrage(burning):
        st = arty_state(units, dice=[6] + [50] * 20, optional=("fires",),
                        position_ext={"burning": burning} if burning else None)
        act(st, "call M by F at 4E1")          # the mortar's on-map (Closed) barrage on the Target Point
        if st.phase_id() == "indirect-fire":
            act(st, "pass")
        return st, st.game.uindex["A"], st.game.uindex["T"]

    bar, a, t = after_barrage(None)
    assert len(bar.arty.barrages) == 1
    assert (bar.hindrance_modifier(a, t, "ap"), bar.hindrance_modifier(a, t, "gp")) == (-3, -10)
    both, a, t = after_barrage({TARGET: 1})
    assert (both.hindrance_modifier(a, t, "ap"), both.hindrance_modifier(a, t, "gp")) == (-5, -20)


def test_m161_laser_sights_do_not_work_through_a_fire_hex():
    """M161, MBT 6.5.2.2.5 with Optional Rule 7.35 Fires: Laser sights have no effect from, into or through a Fire
    hex either: the T-80U's laser-only Sniper may not fire across a burning hex, its 125mm reads the secondary
    Optical sight."""
    from mbt_move_fixtures import opt_game

    from studio.rules.position import position_state

    units = [unit("S", "t-80u", "us", A, D, command="FIRE"), unit("T", "t-80bv", "sov", B, FRONT)]

    def state(burning):
        pos = {"scenario": "mbt-adv-combined-arms", "phase": "direct-fire-first", "turn": 1, "units": units,
               "to_act": "us", "extension": {"burning": burning} if burning else {}}
        return position_state(opt_game(("fires",)), pos)

    clear, hot = state(None), state({_between(A, B): 1})
    key = next(r.key for r in clear.game.units[0].type.ap if r.kind == "ATGM")
    assert f"fire S at T {key}" in [str(a) for a in clear.legal_actions()]
    assert f"fire S at T {key}" not in [str(a) for a in hot.legal_actions()]
    row = _row(clear, 0, "main:APFSDS")
    assert (clear.sight_of(0, row, 1), hot.sight_of(0, row, 1)) == ("L", "O")


def test_m126_towed_passenger_bails_out_with_the_crew_without_a_roll():
    """M126, MBT 5.15 example 2, 6.5.2.7.1: a carrier Damaged by GP fire whose crew bails out (Bail Out roll 1):
    its towed passenger (an SPG-9 on the test-only 2-2 carrier) bails out automatically, no roll of its own, in
    the carrier's hex, Suppressed. (GP direct fire here; the example's indirect fire applies the same results.)"""
    from towed_fixtures import towed_state

    from studio.rulesets.mbt.engine.suppression import SUP_ON

    a, b, d = clear_pair(5)
    units = [unit("S", "t-80bv", "us", a, d, command="FIRE"), unit("T", "test-mover", "sov", b, (d + 3) % 6),
             unit("G", "spg-9", "sov", b, 0, carried_by="T")]
    probe = towed_state(units, to_act="us")
    row = _row(probe, 0, "main:HE")
    band, factor = probe.gp_factor(row, 5)
    net = probe.gp_modifiers(0, 1, row, band, False)
    s_eff = probe.game.ag.gp_crt[(factor, probe.game.units[1].type.ag.gp_value)][1]
    st = towed_state(units, to_act="us", dice=[1, _smallest_above(s_eff, 5) - net, 5, 1])  # ammo; DAMAGE; Hull; bail
    act(st, "fire S at T main:HE")
    assert any(e.endswith("-> DAMAGE") for e in st.events) and st.bail[1], st.events
    assert st.st[2] == ON and st.carrier[2] == -1 and st.hex[2] == st.hex[1] and st.sup[2] == SUP_ON
    assert not any("G (passenger" in e for e in st.events), st.events


# ---------------------------------------------------------------- 6.5.1 indirect fire


@pytest.mark.xfail(strict=True, reason="EXM: engine fix of MBT 6.5.1.1.4 pending (indirect.py lock)")
def test_m209_two_on_map_mortars_in_command_range_are_one_source_for_a_raw_fo():
    """M209, MBT 6.5.1.1.4, 6.5.1.1.1: two on-map IF units within Command Range of one another (here in the same
    hex) count as a single distinct source: a Raw FO (one source) may call both; each rolls its own response and
    resolves its own combat. A third mortar elsewhere is a second source: not callable."""
    from mbt_arty_fixtures import FAR, MORTAR, arty_state, events, if_units

    extra = [unit("M2", "m106", "us", MORTAR, 2, command="FIRE"), unit("M3", "m106", "us", "2B1", 2, command="FIRE")]
    st = arty_state(if_units(fo_hex=FAR, extra=extra), dice=[6, 50, 50, 6, 50, 50] + [50] * 20,
                    grades={"us": "raw", "sov": "regulars"})
    assert st.capacity(st.game.uindex["F"]) == 1
    act(st, "call M by F at 4E1")
    got = [str(a) for a in st.legal_actions()]
    assert "call M2 by F at 4E1" in got and "call M3 by F at 4E1" not in got
    act(st, "call M2 by F at 4E1")
    assert len(events(st, "F calls M on 4E1")) == 1 and len(events(st, "F calls M2 on 4E1")) == 1, st.events
    assert sum(e.startswith("IF at T") for e in st.events) == 2


@pytest.mark.xfail(strict=True, reason="EXM: engine fix of MBT 6.5.1.8.1 pending (indirect.py lock)")
def test_m210_continued_mission_may_switch_gp_to_smoke_without_a_response_roll():
    """M210, MBT 6.5.1.8.1: next turn, the observer still spotting the Target Point, a GP mission may continue
    without a response roll, switching freely to Smoke (the M106 is SMK): a Smoke counter on the Target Point, no
    GP attack. A switch to ICM needs an adjustment (not a continuation)."""
    from test_adv_if_missions import _running

    st = _running()
    got = [str(a) for a in st.legal_actions()]
    assert "continue F" in got and "continue F smoke" in got and "continue F ICM" not in got
    st.events.clear()
    act(st, "continue F smoke")
    assert not any(" calls " in e for e in st.events) and not any(e.startswith("IF at T") for e in st.events)
    (cloud,) = st.arty.clouds
    assert st.game.map.hex("4E1") in cloud.hexes
    (m,) = st.arty.missions
    assert [f.mission for f in m.fires] == ["smoke"]
