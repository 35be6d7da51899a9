"""More behaviour tests for rules the issue-10 mutation review found weakly tested (each names its rule)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from helpers import at, build, finish_turn, legal, rolls, to_ops, u  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402


def test_4_3_rally_is_harder_out_of_command():
    for ooc, rallied in ((False, True), (True, False)):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], morale=({"value": 8}, None))
        m60 = u(g, "us.1")
        s.disr[m60], s.out_of_command[m60] = True, ooc
        s.dice.force(4, 4)                         # 8: passes Morale 8 only without the +1
        s._rally(0)
        assert (not s.disr[m60]) is rallied


def test_10_0_jammed_formation_rallies_at_plus_one():
    for jammed, rallied in (({}, True), ({0: 1}, False)):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], morale=({"value": 8}, None))
        m60 = u(g, "us.1")
        s.disr[m60] = True
        s.jammed = dict(jammed)
        s.dice.force(4, 4)
        s._rally(0)
        assert (not s.disr[m60]) is rallied


def test_8_2_smoke_lasts_two_marker_removal_phases():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], turns=4)
    h = at(g, "4J10")
    s.mission("Smoke", h, 1, 1, True)
    assert s.smoke == {h: 2}
    finish_turn(s)
    assert s.smoke == {h: 1}
    finish_turn(s)
    assert s.smoke == {}


def test_6_3_2_augmented_firepower_rolls_one_more_die_but_scores_at_most_its_factor():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")])
    mark = len(s.dice.history)
    s.dice.force(6, 6, 6, 6)
    assert s.attack_roll(3, 5, augmented=True) == 3
    assert len(rolls(s, mark, "attack")) == 4
    s.dice.force(1, 1, 6, 6)
    assert s.attack_roll(3, 5, augmented=True) == 2


def test_6_1_4_depleted_ammo_after_a_missed_missile_shot_then_steps_down():
    g, s = build([("us-m901-itv", "4J14")], [("su-t72", "4J10")], turns=4)
    itv, t72 = u(g, "us.1"), u(g, "su.1")
    s.dice.force(1, 1, 1, 1)
    s._fire(itv, t72, "ap", "normal")
    assert s.depleted[itv] == 2 and s.fire_numbers(itv, t72, "ap", "normal") is None
    finish_turn(s)
    assert s.depleted[itv] == 1
    finish_turn(s)
    assert s.depleted[itv] == 0 and s.fire_numbers(itv, t72, "ap", "normal") is not None


def test_1_3_4_4_recon_in_los_denies_concealment():
    g, s = build([("us-m60a3", "4A1"), ("us-m3-bradley", "4A2")], [("su-motor-rifle", "2J7")])
    inf, m3 = u(g, "su.1"), u(g, "us.2")
    assert s.concealed(inf)
    for h in sorted(g.hexes):
        if g.terrain[h] == "C" and not g.level[h] and 2 <= distance(h, s.hex[inf]) <= 4:
            s.hex[m3] = h
            if s.has_los(m3, inf):
                break
    assert s.has_los(m3, inf) and not s.concealed(inf)
    s.disr[m3] = True                              # a Disrupted recon unit does not count
    assert s.concealed(inf)


def test_6_1_6_armored_defence_bonus_capped_at_two():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], tables={"terrain_effects": {"T": {"db_vehicle": 3}}})
    t72 = u(g, "su.1")
    s.hex[t72] = next(h for h in sorted(g.hexes) if g.terrain[h] == "T")
    armor = g.vals[t72][0][0].armor
    assert s.defense_dice(t72)[0] == armor + 2      # DB 3 (+ Concealed 1), capped at 2


def test_1_3_3_1_hq_moves_with_its_last_unit_and_stays_otherwise():
    g, s = build([("us-armor-hq", "4J14"), ("us-m60a3", "4J14"), ("us-m60a3", "4J14")], [("su-t72", "4T1")],
                 morale=({"value": 12}, None))
    hq = u(g, "us.1")
    to_ops(s)
    first = next(a for a in sorted(legal(s)) if a.startswith("move us.2 "))
    s.play(g.parse_action(first))
    assert s.hex[hq] == at(g, "4J14")              # us.3 is still with it
    second = next(a for a in sorted(legal(s)) if a.startswith("move us.3 "))
    s.play(g.parse_action(second))
    assert s.hex[hq] == g.map.hex_of[second.split()[2]]


def test_6_2_opportunity_fire_marks_the_firer_ops_complete_and_stops_a_hit_mover():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J9")], morale=(None, {"value": 12}))
    m60 = u(g, "us.1")
    to_ops(s, "f-su")
    step = next(a for a in sorted(legal(s)) if a.startswith("move su.1 ") and
                distance(g.map.hex_of[a.split()[2]], s.hex[m60]) == 4)
    s.play(g.parse_action(step))
    assert s.pending[0] == "opfire" and "opfire us.1 su.1 ap" in legal(s)
    s.dice.force(6, 6, 6, 6, 1, 1, 1, 1, 1, 1)
    s.play(g.parse_action("opfire us.1 su.1 ap"))
    assert s.ops_complete[m60] and not any(a.startswith("move su.1") for a in legal(s))
