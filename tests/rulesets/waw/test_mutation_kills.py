"""Exact-outcome tests written against the survivors of the mutation run (COVERAGE.md): each pins a rule's
numbers (dice rolled, Hits, markers, hexes), so a changed comparison, constant or dropped statement fails."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from helpers import at, build, legal, rolls, to_ops, u  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402


# ---------------------------------------------------------------- 6.1.7 results ladder, 5.2.4 passengers

def test_6_1_7_hit_ladder_one_hit_at_a_time():
    g, s = build([("us-mech-infantry", "4J14")], [("su-t72", "4T1")])
    inf = u(g, "us.1")
    assert s.apply_hits(inf, 1) is False and (s.disr[inf], s.strength[inf]) == (True, 0)
    assert s.apply_hits(inf, 1) is False and s.strength[inf] == 1
    assert s.apply_hits(inf, 1) is True and s.strength[inf] == 2 and s.hex[inf] is None
    assert s.lost == [1, 0] and at(g, "4J14") not in s.wrecks     # infantry leaves no Wreck


def test_6_1_7_vehicle_destroyed_leaves_a_wreck_and_counts_lost():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")])
    m60 = u(g, "us.1")
    assert s.apply_hits(m60, 5) is True
    assert s.lost == [1, 0] and at(g, "4J14") in s.wrecks


def test_5_2_4_passengers_of_a_destroyed_transport():
    for die, strength, disrupted, lost in ((2, 2, False, 2), (1, 1, True, 1)):
        g, s = build([("us-mech-infantry", "4J14"), ("us-m113", "4J14")], [("su-t72", "4T1")])
        inf, m113 = u(g, "us.1"), u(g, "us.2")
        s.carrier[inf] = m113
        s.dice.force(die)
        mark = len(s.dice.history)
        s._destroy(m113)
        assert rolls(s, mark, "passengers") == [die]
        assert (s.strength[inf], s.disr[inf], s.carrier[inf], s.lost[0]) == (strength, disrupted, -1, lost)


def test_5_2_4_passengers_of_a_reduced_transport_take_a_hit_on_even():
    for die, hit in ((4, True), (3, False)):
        g, s = build([("us-mech-infantry", "4J14"), ("us-m113", "4J14")], [("su-t72", "4T1")])
        inf, m113 = u(g, "us.1"), u(g, "us.2")
        s.carrier[inf] = m113
        s.disr[m113] = True
        s.dice.force(die)
        s.apply_hits(m113, 1)
        assert s.strength[m113] == 1 and s.disr[inf] is hit and s.strength[inf] == 0


# ---------------------------------------------------------------- 6.1.5 Concealment, defence dice

def test_6_1_5_concealment_needs_every_condition():
    g, s = build([("us-m60a3", "4A1"), ("us-mech-hq", "4J9")], [("su-motor-rifle", "2J7"), ("su-t72", "4T1")])
    inf, t72, m60, hq = u(g, "su.1"), u(g, "su.2"), u(g, "us.1"), u(g, "us.2")
    assert s.concealed(inf)
    s.hex[hq] = at(g, "2J8")                       # an adjacent HQ does not count
    assert s.concealed(inf)
    s.hex[m60] = at(g, "2J8")
    s.disr[m60] = True                             # nor a Disrupted unit
    assert s.concealed(inf)
    s.disr[m60] = False
    assert not s.concealed(inf)
    s.hex[t72] = at(g, "2J7")
    assert not s.concealed(t72) or g.tec_row(at(g, "2J7"))["concealment"] == "all"
    s.hex[m60] = at(g, "4A1")
    s.pending = ("opfire", inf, 0)                 # a moving unit under Opportunity Fire is not Concealed
    assert not s.concealed(inf)


def test_6_1_defence_dice_of_helicopters_and_soft_targets():
    g, s = build([("us-ah1-cobra", "4J14"), ("us-mech-infantry", "4J12")], [("su-t72", "4T1")])
    cobra, inf = u(g, "us.1"), u(g, "us.2")
    v = g.vals[cobra][0][0]
    assert s.defense_dice(cobra) == (v.armor, v.save)
    assert s.defense_dice(inf) == (0, 5)           # clear terrain, a GO enemy is far: no Concealment in clear


def test_6_1_resolve_hits_returns_the_net_hits():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    s.dice.force(6, 1, 1, 1, 1)                    # 3 Hits; saves: one 6 of the Armor dice
    assert s.resolve_hits(m60, 3, "ap", t72) == 2 and s.strength[m60] == 1
    assert s.resolve_hits(m60, 0, "ap", t72) == 0


# ---------------------------------------------------------------- 6.1 fire numbers edges

def test_6_1_adjacent_fire_needs_no_los_and_distance_zero_is_no_fire():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J13")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    assert s.fire_numbers(m60, t72, "ap", "normal") is not None
    s.hex[t72] = s.hex[m60]
    assert s.fire_numbers(m60, t72, "ap", "normal") is None


def test_6_1_disrupted_units_fire_only_opportunity_fire():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    s.disr[m60] = True
    assert s.fire_numbers(m60, t72, "ap", "normal") is None
    assert s.fire_numbers(m60, t72, "ap", "opfire") is not None


def test_6_1_3_moving_fire_marks_moving_fire_used():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")], morale=({"value": 12}, None))
    m60 = u(g, "us.1")
    to_ops(s)
    step = next(a for a in sorted(legal(s)) if a.startswith("move us.1 ") and distance(
        g.map.hex_of[a.split()[2]], s.hex[u(g, "su.1")]) == 4)
    s.play(g.parse_action(step))
    while s.pending[0] == "opfire":
        s.play(g.parse_action("pass"))
    s.dice.force(1, 1, 1, 1)
    s.play(g.parse_action("fire us.1 su.1 ap"))
    assert s.mfired[m60] and not any(a.startswith("move us.1") for a in legal(s))


def test_6_3_2_augmented_dice_count():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")])
    mark = len(s.dice.history)
    s.attack_roll(2, 4)
    s.attack_roll(2, 4, augmented=True)
    assert len(rolls(s, mark, "attack")) == 2 + 3


def test_1_3_6_leader_lowers_the_save_but_never_below_2():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], extension={
        "leaders": [{"unit": "su-leader", "force": "su", "index": 0}]})
    t72 = u(g, "su.1")
    s.ops_complete[t72] = True
    armor, save = g.vals[t72][0][0].armor, g.vals[t72][0][0].save
    assert s.defense_dice(t72) == (armor, max(2, save - 1))


# ---------------------------------------------------------------- 8.0 artillery calls and drift

def test_8_0_two_calls_per_caller_and_missions_count_down():
    ext = {"artillery": [{"id": "he", "side": "soviet", "formula": "3 x 45"}]}
    g, s = build([("us-m60a3", "4J14")], [("su-tank-hq", "4J10"), ("su-t72", "4J10")], extension=ext,
                 morale=(None, {"value": 12}))
    to_ops(s, "f-su")
    s.dice.force(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    s.play(g.parse_action("call su.1 he 4J14"))
    assert s.missions[0] == 2 and "call su.1 he 4J14" in legal(s)
    s.play(g.parse_action("call su.1 he 4J14"))
    assert s.missions[0] == 1 and not any(a.startswith("call ") for a in legal(s))


def test_8_0_no_call_without_missions():
    ext = {"artillery": [{"id": "he", "side": "soviet", "formula": "1 x 45"}]}
    g, s = build([("us-m60a3", "4J14")], [("su-tank-hq", "4J10"), ("su-t72", "4J10")], extension=ext,
                 morale=(None, {"value": 12}))
    s.missions[0] = 0
    to_ops(s, "f-su")
    assert not any(a.startswith("call ") for a in legal(s))


def test_8_0_drift_lands_where_the_opponent_likes_best():
    ext = {"artillery": [{"id": "he", "side": "soviet", "formula": "1 x 45"}]}
    g, s = build([("us-m60a3", "4J14")], [("su-tank-hq", "4J10"), ("su-t72", "4J10"), ("su-t72", "4J13")],
                 extension=ext)
    target = at(g, "4J14")
    s.dice.force(6)                                # a 6: the opponent (US) picks the adjacent hex
    mark = len(s.dice.history)
    s._call(u(g, "su.1"), 0, target)
    assert rolls(s, mark, "accuracy") == [6]
    landed = [h for h in g.nbrs[target] if h == at(g, "4J13")]
    assert landed and s.calls == {u(g, "su.1"): 1}
    # the US puts it on the Soviet T-72's hex next to the target: the T-72 takes the attack dice
    assert len(rolls(s, mark, "attack")) == 4


def test_1_3_4_3_mortar_in_los_fires_directly_not_indirectly():
    g, s = build([("us-81mm-mortar", "4J14"), ("us-mech-hq", "4J14"), ("us-m2-bradley", "4J14")],
                 [("su-motor-rifle", "4J10")])
    mortar = u(g, "us.1")
    assert g.los.clear(s.hex[mortar], at(g, "4J10"), 0, 0)
    assert at(g, "4J10") not in s._indirect_targets(mortar)


def test_8_4_chemical_one_morale_check_per_unit():
    g, s = build([("us-mech-infantry", "4J12")], [("su-t72", "4A1")])
    inf = u(g, "us.1")
    s.dice.force(1, 1)
    mark = len(s.dice.history)
    s.mission("Chemical", at(g, "4J12"), 1, 1, False)
    assert rolls(s, mark, "chemical") == [1, 1] and not s.disr[inf] and s.strength[inf] == 0


# ---------------------------------------------------------------- 9.5 airstrikes

def _strike_game(aa=True):
    ext = {"airstrikes": [{"id": "a10", "side": "us", "ap_fp": 4, "he_fp": 3, "to_hit": 4, "armor": 2, "save": 5}]}
    su = [("su-t72", "4J10")] + ([("su-zsu-23-4", "4J11")] if aa else [])
    return build([("us-m60a3", "4T14")], su, extension=ext)


def test_9_5_airstrike_attacks_armor_with_ap_and_may_go_home():
    g, s = _strike_game(aa=False)
    t72 = u(g, "su.1")
    s.dice.force(4, 4, 1, 1, 6)                    # AP 4 dice: 2 Hits; clear: no saves; return roll 6 > 2
    mark = len(s.dice.history)
    s._strike(0, at(g, "4J10"))
    assert len(rolls(s, mark, "attack")) == 4 and s.strength[t72] == 1 and s.disr[t72]
    assert rolls(s, mark, "sortie") == [6] and 0 not in s.air_out
    s.dice.force(1, 1, 1, 1, 1)                    # no Hits; return roll 1 <= 0? no: stays
    s._strike(0, at(g, "4J10"))
    assert 0 not in s.air_out
    s.dice.force(6, 1, 1, 1, 1)                    # 1 Hit; return roll 1 <= 1: out of ammunition
    s._strike(0, at(g, "4J10"))
    assert 0 in s.air_out


def test_9_5_aa_fire_shoots_down_or_aborts():
    for hits, abort, out, attacked in ((2, None, True, False), (1, 2, True, False), (1, 5, False, False),
                                       (0, None, False, True)):
        g, s = _strike_game()
        zsu = u(g, "su.2")
        n = g.vals[zsu][0][0].aa_fp
        aa_dice = [6] * hits + [1] * (n - hits)
        forced = list(aa_dice) + ([1, 1] if hits else [])   # the aircraft's 2 Armor dice save nothing
        if abort is not None:
            forced.append(abort)
        s.dice.force(*forced, 1, 1, 1, 1, 6)
        mark = len(s.dice.history)
        s._strike(0, at(g, "4J10"))
        assert s.ops_complete[zsu] and (0 in s.air_out) is out
        assert (len(rolls(s, mark, "attack")) > len(aa_dice)) is attacked


# ---------------------------------------------------------------- 6.3 Assault, 6.4 Overrun details

def test_6_3_both_sides_ops_complete_and_attacker_pays_the_mp():
    g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4J13")], morale=({"value": 12}, None))
    m60, rifle = u(g, "us.1"), u(g, "su.1")
    to_ops(s)
    s.dice.force(1, 1, 1, 1, 1, 1, 1, 1)           # nobody hits: the attacker stays out
    s.play(g.parse_action("assault us.1 4J13"))
    assert s.ops_complete[m60] and s.ops_complete[rifle] and s.hex[m60] == at(g, "4J14")
    assert s.mp_used[m60] > 0


def test_6_4_overrun_rolls_three_times_the_assault_factor_and_goes_through():
    g, s = build([("us-m60a3", "2B5")], [("su-motor-rifle", "2B4")], morale=({"value": 12}, None))
    m60 = u(g, "us.1")
    to_ops(s)
    over = next(a for a in sorted(legal(s)) if a.startswith("overrun us.1 2B4 "))
    mark = len(s.dice.history)
    s.dice.force(*([1] * 6), 1, 1, 1)              # 6 misses; the infantry's 3 dice miss
    s.play(g.parse_action(over))
    assert len(rolls(s, mark, "attack")) == 6 + 3
    assert s.hex[m60] == g.map.hex_of[over.split()[3]] and s.mp_used[m60] >= 3
    assert over not in legal(s)                    # not the same hex twice in a turn


def test_6_4_overrun_only_against_infantry():
    g, s = build([("us-m60a3", "2B5")], [("su-btr70", "2B4")], morale=({"value": 12}, None))
    to_ops(s)
    assert not any(a.startswith("overrun ") for a in legal(s))


# ---------------------------------------------------------------- 1.3.8 snipers

def test_1_3_8_sniper_shot_and_removal_roll():
    for shot, removal, disrupted, removed in ((6, 2, True, False), (6, 1, True, True), (1, 2, False, True)):
        ext = {"snipers": [{"unit": "us-sniper", "force": "us", "index": 0, "hex": "2N11"}]}
        g, s = build([("us-mech-infantry", "2N12")], [("su-motor-rifle", "2N8")], extension=ext)
        rifle = u(g, "su.1")
        s.dice.force(shot, removal)
        s._snipe(0, rifle)
        assert s.disr[rifle] is disrupted and (s.snipers[0][2] == 2) is removed and s.snipers[0][3] == 1


# ---------------------------------------------------------------- 11.0 Chaos details

def test_chaos_16_repairs_and_2_not_dead_yet():
    g, s = build([("us-m60a3", "4J14"), ("us-m60a3", "4J13")], [("su-t72", "4T1")])
    a, b = u(g, "us.1"), u(g, "us.2")
    s.strength[a] = 1
    s.disr[b] = True
    s.dice.force(3, 4, 5, 6, 5)                    # 7 -> 3d6 = 16
    s._chaos()
    assert s.strength[a] == 0 and s.disr[b]
    s.ops_complete[a] = s.ops_complete[u(g, "su.1")] = True
    s.dice.force(1, 1)
    s._chaos()
    assert not s.ops_complete[a] and not s.ops_complete[u(g, "su.1")]


# ---------------------------------------------------------------- second batch

def test_6_3_retreating_defenders_take_their_hq_or_lose_it():
    g, s = build([("us-m60a3", "4J14")], [("su-tank-hq", "4J13"), ("su-t72", "4J13")])
    hq, t72 = u(g, "su.1"), u(g, "su.2")
    s._retreat([t72], at(g, "4J13"), at(g, "4J14"), 0, [u(g, "us.1")])
    assert s.hex[t72] is not None and s.hex[hq] == s.hex[t72] != at(g, "4J13")
    g, s = build([("us-m60a3", "2B2"), ("us-m60a3", "2B2")], [("su-tank-hq", "2B1"), ("su-t72", "2B1")])
    hq, t72 = u(g, "su.1"), u(g, "su.2")
    s._retreat([t72], at(g, "2B1"), at(g, "2B2"), 0, [u(g, "us.1")])
    assert s.strength[t72] == 2 and s.strength[hq] == 2      # no retreat: destroyed, and the HQ with it


def test_6_3_hits_are_spread_one_each_first():
    g, s = build([("us-mech-infantry", "4J14"), ("us-mech-infantry", "4J14")], [("su-t72", "4T1")])
    a, b = u(g, "us.1"), u(g, "us.2")
    s._distribute([a, b], 2)
    assert s.disr[a] and s.disr[b] and s.strength[a] == s.strength[b] == 0
    s._distribute([a, b], 3)
    assert sorted([s.strength[a], s.strength[b]]) == [1, 2]


def test_chaos_10_friendly_fire_nato_shoots_nato():
    g, s = build([("us-m60a3", "4J14"), ("us-mech-infantry", "4J12")], [("su-t72", "4T1")])
    m60, inf = u(g, "us.1"), u(g, "us.2")
    s.dice.force(4, 6, 6, 6, 6, 1, 1, 1, 1)        # 10; then the M60's HE at the infantry
    mark = len(s.dice.history)
    s._chaos()
    assert rolls(s, mark, "attack") and s.ops_complete[m60] and (s.disr[inf] or s.strength[inf] > 0)


def test_chaos_11_13_leader_joins_unless_one_is_in_the_game():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    s.dice.force(5, 6)                             # 11: an Alliance Leader joins (the project has su-leader)
    s._chaos()
    assert list(s.xleaders) == [u(g, "su.1")]
    mark = len(s.dice.history)
    s.dice.force(5, 6, 1, 1)                       # 11 again: a Leader is in the game, roll again (2)
    s._chaos()
    assert len(rolls(s, mark, "chaos")) == 4 and s.log[-1].action == "chaos 2"


def test_chaos_18_sniper_placed_near_nato_and_fires():
    g, s = build([("us-mech-infantry", "2N12")], [("su-motor-rifle", "2N9")])
    s.dice.force(3, 4, 6, 6, 6, 6, 6)              # 7 -> 18; the shot hits; the removal roll 6
    s._chaos()
    assert len(s.snipers) == 1
    h = s.snipers[0][0]
    assert distance(h, at(g, "2N12")) <= 2 and (g.tec_row(h)["db_infantry"] or 0) > 0


def test_1_6_1_conditional_morale_counts_living_non_hq_units():
    morale = (None, {"value": 2, "conditional": True})
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "2A1"), ("su-t72", "2A1"), ("su-tank-hq", "2B1")],
                 morale=morale)
    a, b = u(g, "su.1"), u(g, "su.2")
    assert s.morale(a) == 2 + 1                    # the other T-72, not the HQ, not itself
    s.strength[b] = 2
    assert s.morale(a) == 2


def test_1_3_3_3_restore_picks_the_hex_with_most_units_of_its_type():
    g, s = build([("us-armor-hq", "4A14"), ("us-m60a3", "4A13"), ("us-m60a3", "4C14"), ("us-m1-abrams", "4C14")],
                 [("su-t72", "4T1")])
    hq = u(g, "us.1")
    s.strength[hq], s.hex[hq] = 2, None
    s._restore_hqs()
    assert s.hex[hq] == at(g, "4C14") and s.strength[hq] == 1


def test_game_setup_reach_control_and_air_cover():
    ext = {"cup": {"air_cover": ["soviet"], "air_cover_aa_fp": 3}, "setup_areas": {"us": ["4J14", "4J13"]}}
    g, s = build([("us-m60a3", "4J14"), ("us-m901-itv", "4J13")], [("su-t72", "4J10")], extension=ext)
    m60, itv = u(g, "us.1"), u(g, "us.2")
    assert g.reach[m60] == 2 * g.vals[m60][0][0].range and g.reach[itv] == g.vals[itv][0][0].range
    assert g.air_cover == [1] and g.initial_control == {at(g, "4J14"): 0, at(g, "4J13"): 0}
    assert s.control == g.initial_control


def test_volley_fire_marks_everyone_and_uses_the_marker():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10"), ("su-t72", "4J9"), ("su-t72", "4K10")])
    lead, a, b = u(g, "su.1"), u(g, "su.2"), u(g, "su.3")
    s.hand.add(("volley", 1))
    s.dice.force(*([1] * 12))
    s._volley(lead, [a, b], u(g, "us.1"))
    assert all(s.ops_complete[x] and s.acted[x] for x in (lead, a, b)) and ("volley", 1) not in s.hand


def test_victory_hold_hexes_and_destroy_percent():
    vc = [{"id": "a", "type": "hold_hexes", "side": "us", "points": 2, "hexes": ["4J14"]},
          {"id": "b", "type": "destroy_percent", "side": "soviet", "points": 5, "percent": 50}]
    g, s = build([("us-m60a3", "4J14"), ("us-m60a3", "4J13")], [("su-t72", "4J10")], victory=vc)
    s.control[at(g, "4J14")] = 0
    assert s.victory_points() == [2.0, 0.0]
    s.lost[0] = 1
    assert s.victory_points() == [2.0, 5.0]


# ---------------------------------------------------------------- third batch: Leaders, Heroes, SWs, snipers

def test_1_3_6_leader_dies_with_the_platoon_or_on_a_one_when_reduced():
    ext = {"leaders": [{"unit": "su-leader", "force": "su", "index": 0}]}
    for die, dead in ((1, True), (2, False)):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")], extension=ext)
        t72 = u(g, "su.1")
        s.dice.force(die)
        s._reduce(t72)
        assert (("L", t72) in s.hallowed) is dead and (("G", at(g, "4J10"), "Soviet Union") in s.hallowed) is dead
        assert (s.morale(t72) == g.leader_of[t72].morale.value) is not dead
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")], extension=ext)
    t72 = u(g, "su.1")
    s._destroy(t72)
    assert ("L", t72) in s.hallowed


def test_1_3_6_1_hallowed_ground_rerolls_one_failed_die():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    s.dice.force(1, 1, 6)
    mark = len(s.dice.history)
    assert s.attack_roll(2, 5, reroll=True) == 1
    assert rolls(s, mark, "hallowed") == [6]


def test_1_3_5_sw_loss_roll_modifier_counts_lost_infantry():
    ext = {"support_weapons": [{"unit": "su-sagger-sw", "force": "su", "index": 0}]}
    g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4A1"), ("su-motor-rifle", "4A2"),
                                          ("su-motor-rifle", "4A3"), ("su-motor-rifle", "4A4")], extension=ext)
    host = u(g, "su.1")
    s.dice.force(3)
    s._destroy(u(g, "su.2"))                       # 3 - 0 = 3: kept
    s.dice.force(3)
    s._destroy(u(g, "su.3"))                       # 3 - 1 = 2: kept
    assert host not in s.sw_lost and s.inf_lost[1] == 2
    s.dice.force(3)
    s._destroy(u(g, "su.4"))                       # 3 - 2 = 1: lost
    assert host in s.sw_lost


def test_1_3_5_a_placed_sw_is_never_lost_to_the_roll():
    ext = {"support_weapons": [{"unit": "su-sagger-sw", "force": "su", "index": 0}]}
    g, s = build([("us-m60a3", "4J14")], [("su-motor-rifle", "4A1"), ("su-motor-rifle", "4A2")], extension=ext)
    s.sw_placed.add(u(g, "su.1"))
    mark = len(s.dice.history)
    s._destroy(u(g, "su.2"))
    assert rolls(s, mark, "sw-loss") == []


def test_1_3_8_sniper_targets_only_ready_infantry_in_range_and_sight():
    ext = {"snipers": [{"unit": "us-sniper", "force": "us", "index": 0, "hex": "2N11"}]}
    g, s = build([("us-mech-infantry", "2N12")], [("su-motor-rifle", "2N10"), ("su-t72", "2N9")], extension=ext)
    rifle = u(g, "su.1")
    assert s._sniper_targets(0) == [rifle]
    s.disr[rifle] = True
    assert s._sniper_targets(0) == []
    s.disr[rifle] = False
    s.hex[rifle] = at(g, "2N2")
    assert s._sniper_targets(0) == []              # beyond what a d6 can reach


def test_1_3_8_an_enemy_entering_the_sniper_hex_eliminates_it():
    ext = {"snipers": [{"unit": "us-sniper", "force": "us", "index": 0, "hex": "2N11"}]}
    g, s = build([("us-mech-infantry", "2N13")], [("su-motor-rifle", "2N10")], extension=ext)
    s._relocate(u(g, "su.1"), at(g, "2N10"), at(g, "2N11"))
    assert s.snipers[0][2] == 2


def test_volley_actions_need_three_ready_units():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10"), ("su-t72", "4J9")], morale=(None, {"value": 12}))
    s.hand.add(("volley", 1))
    to_ops(s, "f-su")
    assert not any(a.startswith("volley") for a in legal(s))
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10"), ("su-t72", "4J9"), ("su-t72", "4K10")],
                 morale=(None, {"value": 12}))
    s.hand.add(("volley", 1))
    to_ops(s, "f-su")
    assert any(a.startswith("volley su.") for a in legal(s))


# ---------------------------------------------------------------- fourth batch: missions, jamming, Berserk, entry

def test_8_3_fascam_and_8_2_smoke_missions_place_markers():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    s.mission("FASCAM", at(g, "4J11"), 1, 1, True)
    s.mission("Smoke", at(g, "4J12"), 1, 1, True)
    assert at(g, "4J11") in s.mines and s.smoke == {at(g, "4J12"): 2}
    assert not s.has_los(u(g, "su.1"), u(g, "us.1"))


def test_8_6_mlrs_covers_the_hex_and_its_six_neighbours():
    g, s = build([("us-m60a3", "4J12")], [("su-t72", "4A1")])
    mark = len(s.dice.history)
    s.dice.force(*([1] * 21))
    s.mission("MLRS", at(g, "4J12"), 3, 4, False)
    assert len(rolls(s, mark, "attack")) == 7 * 3


def test_10_0_jam_goes_on_the_largest_enemy_formation():
    g, s = build([("us-armor-hq", "4J14"), ("us-m60a3", "4J14"), ("us-m60a3", "4J13")], [("su-t72", "4T1")])
    s._jam(1)
    assert s.jammed == {0: 1}
    s._jam(1)
    assert s.jammed == {0: 1}                      # already jammed: no second counter on it


def test_chaos_6_berserk_picks_with_a_d6_or_d10():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "2A1"), ("su-t72", "2B1"), ("su-t72", "2C1")])
    for x in ("su.1", "su.2", "su.3"):
        s.disr[u(g, x)] = True
    s.dice.force(1, 5, 5, 2)                       # 6: Berserk; d6 5 > 3 re-rolled, 2
    mark = len(s.dice.history)
    s._chaos()
    assert rolls(s, mark, "berserk") == [5, 2] and s.berserk == {u(g, "su.2"): 1} and not s.disr[u(g, "su.2")]


def test_chaos_6_berserk_first_hit_flips_to_insane():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "2A1")])
    t72 = u(g, "su.1")
    s.berserk[t72] = 1
    s.apply_hits(t72, 1)
    assert s.berserk[t72] == 2 and not s.disr[t72] and s.strength[t72] == 0
    s.apply_hits(t72, 1)
    assert s.strength[t72] == 1
    s.apply_hits(t72, 1)
    assert s.strength[t72] == 2


def test_13_0_entering_formation_fills_hexes_two_by_two():
    from studio.rules.load import load_game
    data = Path(__file__).resolve().parents[3] / "data"
    g = load_game(data / "scenarios" / "waw" / "waw-crossroads.yaml", data).game
    if not g.entry:
        return
    fi, (turn, hexes) = next(iter(g.entry.items()))
    s = g.new_initial_state(0)
    s._enter(fi)
    placed = [s.hex[x] for x in g.formations[fi].units if not g.units[x].is_hq and not g.units[x].is_heli]
    assert all(placed.count(h) <= 2 for h in placed) and fi in s.entered_f


def test_9_2_1_popup_resolution_both_results_apply():
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J11"), ("su-zsu-23-4", "4K12")])
    cobra, t72, zsu = u(g, "us.1"), u(g, "su.1"), u(g, "su.2")
    s.hover[cobra] = True
    s.pending = ("popup", cobra, t72, "he", 0)
    s.dice.force(*([1] * 20))
    s._popup_resolve(None)
    assert s.ops_complete[cobra] and s.acted[cobra] and s.pending == ("ops", 0) and not s.ops_complete[zsu]


# ---------------------------------------------------------------- fifth batch

def test_9_6_air_cover_attack_with_saves_and_the_first_action_gone():
    for saves, destroyed_steps in (((6, 6), 0), ((1, 1), 2)):
        ext = {"cup": {"air_cover": ["soviet"], "air_cover_aa_fp": 2, "air_cover_to_hit": 5}}
        g, s = build([("us-ah1-cobra", "4J14")], [("su-tank-hq", "4A1"), ("su-t72", "4A1")], extension=ext,
                     morale=(None, {"value": 12}))
        cobra = u(g, "us.1")
        to_ops(s, "f-su")
        s.cover.add(1)
        s.dice.force(6, 6, *saves)
        s._air_cover_attack(cobra)
        assert s.strength[cobra] == destroyed_steps and not s.impulse_first and ("used", 1) in s.cover


def test_10_0_jam_needs_an_enemy_hq_and_takes_the_largest():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")])
    s._jam(1)
    assert s.jammed == {}                          # no US HQ: nothing to jam
    g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "2A1"), ("su-t72", "2A1")],
                 soviet2=[("su-mr-hq", "2A14"), ("su-motor-rifle", "2A14"), ("su-motor-rifle", "2B14")])
    s._jam(0)
    big = next(i for i, f in enumerate(g.formations) if f.id == "f-su2")
    assert s.jammed == {big: 1}


def test_9_5_aa_units_out_of_range_do_not_fire():
    ext = {"airstrikes": [{"id": "a10", "side": "us", "ap_fp": 4, "he_fp": 3, "to_hit": 4, "armor": 2, "save": 5}]}
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4J10"), ("su-zsu-23-4", "2A1")], extension=ext)
    s.dice.force(*([1] * 10))
    s._strike(0, at(g, "4J10"))
    assert not s.ops_complete[u(g, "su.2")]


def test_6_3_retreat_goes_directly_away_when_it_can():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J12")])
    t72 = u(g, "su.1")
    h, src = at(g, "4J12"), at(g, "4J13")
    s._retreat([t72], h, src, 0, [u(g, "us.1")])
    assert s.hex[t72] == (2 * h[0] - src[0], 2 * h[1] - src[1])


def test_6_4_overrun_needs_mp_for_the_extra_point_and_the_exit():
    g, s = build([("us-m60a3", "2B5")], [("su-motor-rifle", "2B4")], morale=({"value": 12}, None))
    m60 = u(g, "us.1")
    mp = g.vals[m60][0][0].movement.mp
    to_ops(s)
    assert any(a.startswith("overrun us.1 2B4 ") for a in legal(s))
    s.mp_used[m60] = mp - 2                        # 1 to enter + 1 extra, nothing left for the exit hex
    assert not any(a.startswith("overrun us.1 2B4 ") for a in legal(s))
    s.mp_used[m60] = mp - 3
    assert any(a.startswith("overrun us.1 2B4 ") for a in legal(s))


def test_4_2_jammed_roll_equal_to_the_threshold_is_in_command():
    g, s = build([("us-armor-hq", "4J14"), ("us-m60a3", "4J14"), ("us-m60a3", "4A1")], [("su-t72", "2A1")])
    s.jammed = {0: 1}
    s.dice.force(4)                                # threshold 4: a 4 is enough
    s._command(0, False)
    assert not s.out_of_command[u(g, "us.3")]


def test_4_2_destroyed_hq_means_every_hex_checks_morale():
    g, s = build([("us-armor-hq", "4J14"), ("us-m60a3", "4J14"), ("us-m60a3", "4J13")], [("su-t72", "2A1")])
    s.strength[u(g, "us.1")], s.hex[u(g, "us.1")] = 2, None
    mark = len(s.dice.history)
    s.dice.force(1, 1, 1, 1)
    s._command(0, False)
    assert len(rolls(s, mark, "command")) == 4     # two hexes, 2d6 each


def test_1_3_6_leader_raises_mp_only_when_alive():
    ext = {"leaders": [{"unit": "su-leader", "force": "su", "index": 0}]}
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")], extension=ext)
    t72 = u(g, "su.1")
    mp = g.vals[t72][0][0].movement.mp
    assert s._mp(t72) == mp + 1
    s.hallowed.add(("L", t72))
    assert s._mp(t72) == mp


def test_chaos_3_directed_unit_destroyed_on_the_way_stops():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    m60 = u(g, "us.1")
    s.mines.add(at(g, "4J13"))
    s.dice.force(1, 2, 1, 1, 1)                    # 3: Miscommunication; the mines roll 1: Disrupted
    s._chaos()
    assert s.disr[m60]


def test_chaos_9_insurrection_only_once_and_not_in_enemy_hexes():
    g, s = build([("us-m60a3", "4T14")], [("su-t72", "4A1")], extension={"cup": {"chaos": 1}})
    mob = g.mob
    s.dice.force(4, 5)
    s._chaos()
    first = s.hex[mob]
    assert first is not None and not s.units_at(first, 1)
    s.dice.force(4, 5)
    s._chaos()
    assert s.hex[mob] == first and s.cup.count(("F", g.units[mob].formation)) == 1


def test_9_2_1_popup_raises_the_helicopter_one_level():
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J11")])
    cobra, t72 = u(g, "us.1"), u(g, "su.1")
    base = g.los.flight_level(at(g, "4J14"))
    seen = []
    orig = g.los.heli
    g.los.heli = lambda a, b, lb, level: seen.append(level) or orig(a, b, lb, level)
    try:
        s.has_los(cobra, t72)
        s.pending = ("popup", cobra, t72, "he", 0)
        s.has_los(cobra, t72)
    finally:
        g.los.heli = orig
    assert seen == [base, base + 1]


def test_8_2_smoke_between_blocks_smoke_far_behind_does_not():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    s.smoke = {at(g, "4J12"): 2}                   # between: blocked (the T-72 has no Advanced Imaging)
    assert not s.has_los(t72, m60)
    s.smoke = {at(g, "4J11"): 2}                   # 8.2: a unit next to the Smoke hex is not blinded
    assert s.has_los(t72, m60)
    s.smoke = {at(g, "4J6"): 2}                    # far behind the firer: no effect
    assert s.has_los(t72, m60)


def test_1_3_4_reduced_units_use_their_reduced_target_class():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    t72 = u(g, "su.1")
    assert g.tclass[t72][0] == "afv"
    s.strength[t72] = 1
    assert s.fire_numbers(u(g, "us.1"), t72, "ap", "normal") is not None
