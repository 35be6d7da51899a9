"""WaW 5.0-5.3 movement and transport through legal actions and the MP spent."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from helpers import at, build, legal, to_ops, u  # noqa: E402


def step_to(s, uid, code):
    g = s.game
    h = s.hex[g.by_uid[uid]]
    return next(n for n in sorted(g.nbrs[h]) if g.terrain.get(n) == code and not g.map.road(h, n)
                and not g.map.hexside(h, n) and not s.units_at(n))


def test_5_0_terrain_costs_by_mobility_and_the_impulse_mp():
    g, s = build([("us-m60a3", "2E5"), ("us-mech-infantry", "2E5")], [("su-t72", "4T1")],
                 morale=({"value": 12}, None))
    m60, inf = u(g, "us.1"), u(g, "us.2")
    scrub = step_to(s, "us.1", "S")
    assert s._terrain_cost(m60, s.hex[m60], scrub) == 1.0 and s._terrain_cost(inf, s.hex[inf], scrub) == 2.0
    to_ops(s)
    s.play(g.parse_action(f"move us.2 {g.label[scrub]}"))
    while s.pending[0] == "opfire":
        s.play(g.parse_action("pass"))
    assert s.mp_used[inf] == 2.0


def test_5_0_a_unit_stops_when_its_mp_are_spent_and_is_ops_complete_after_the_impulse():
    g, s = build([("us-mech-infantry", "4J14")], [("su-t72", "4T1")], morale=({"value": 12}, None),
                 markers=(2, 1), extension={"cup": {"end_turn": 0}})
    inf = u(g, "us.1")
    to_ops(s)
    for _ in range(10):
        moves = [a for a in sorted(legal(s)) if a.startswith("move us.1 ")]
        if not moves:
            break
        s.play(g.parse_action(moves[0]))
        while s.pending[0] == "opfire":
            s.play(g.parse_action("pass"))
    mp = g.vals[inf][0][0].movement.mp
    assert mp - 1 < s.mp_used[inf] <= mp
    s.play(g.parse_action("end"))
    assert s.ops_complete[inf]


def test_8_4_chemical_hexes_cost_two_more():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")])
    m60 = u(g, "us.1")
    n = step_to(s, "us.1", "C")
    before = s._terrain_cost(m60, s.hex[m60], n)
    s.chem.add(n)
    assert s._terrain_cost(m60, s.hex[m60], n) == before + 2


def test_5_0_roads_cost_one():
    g, s = build([("us-m60a3", "4A1")], [("su-t72", "4T1")])
    m60 = u(g, "us.1")
    for h in sorted(g.hexes):
        for n in g.nbrs[h]:
            if g.map.road(h, n) and g.terrain.get(n) not in g.water_codes:
                s.hex[m60] = h
                assert s._terrain_cost(m60, h, n) == 1.0
                return
    raise AssertionError("no road on the sample boards")


def test_5_2_unload_gives_one_more_hex_and_caps_the_transport():
    g, s = build([("us-mech-infantry", "4J14"), ("us-m113", "4J14")], [("su-t72", "4T1")],
                 morale=({"value": 12}, None))
    inf, m113 = u(g, "us.1"), u(g, "us.2")
    s.carrier[inf] = m113
    to_ops(s)
    assert "unload us.1" in legal(s)
    s.play(g.parse_action("unload us.1"))
    assert s.carrier[inf] == -1 and s.one_hex[inf] and s.mp_cap[m113] == s._half(m113)
    step = next(a for a in sorted(legal(s)) if a.startswith("move us.1 "))
    s.play(g.parse_action(step))
    while s.pending[0] == "opfire":
        s.play(g.parse_action("pass"))
    assert not any(a.startswith("move us.1 ") for a in legal(s))


def test_5_2_a_transport_past_half_its_mp_cannot_take_or_drop_passengers():
    g, s = build([("us-mech-infantry", "4J14"), ("us-m113", "4J14")], [("su-t72", "4T1")])
    inf, m113 = u(g, "us.1"), u(g, "us.2")
    s.mp_used[m113] = s._half(m113) + 1
    assert s._load_targets(inf) == []
    s.mp_used[m113] = s._half(m113)
    assert s._load_targets(inf) == [m113]


def test_1_4_stacking_limit_blocks_a_third_unit():
    g, s = build([("us-m60a3", "4J14"), ("us-m60a3", "4J13"), ("us-m60a3", "4J13")], [("su-t72", "4T1")],
                 morale=({"value": 12}, None))
    to_ops(s)
    assert "move us.1 4J13" not in legal(s)
    s.strength[u(g, "us.3")] = 2
    s.hex[u(g, "us.3")] = None
    assert "move us.1 4J13" in legal(s)


def test_5_0_no_step_into_an_enemy_hex():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J13")], morale=({"value": 12}, None))
    to_ops(s)
    assert "move us.1 4J13" not in legal(s) and "assault us.1 4J13" in legal(s)


def test_12_2_mines_disrupt_on_odd_and_clear_on_six():
    for die, disrupted, cleared in ((3, True, False), (6, False, True), (2, False, False)):
        g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")])
        m60 = u(g, "us.1")
        s.mines.add(at(g, "4J12"))
        s.dice.force(die)
        s._mines(m60, at(g, "4J13"))
        assert s.disr[m60] is disrupted and (at(g, "4J12") not in s.mines) is cleared
