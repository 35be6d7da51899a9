"""Rule deviations found against the rulebook (issue 10): each test names its rule and failed on the old engine."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from helpers import at, build, finish_turn, legal, rolls, to_ops, u  # noqa: E402

from studio.hexgrid.coords import distance  # noqa: E402
from studio.rulesets.waw.engine.los import Los  # noqa: E402


# ---------------------------------------------------------------- WaW 1.3.3.3 HQ replacement

def test_1_3_3_3_hq_restored_only_with_a_unit_of_its_type():
    """The Mech HQ's type is AFV: with only infantry of the formation left it can never come back."""
    g, s = build([("us-mech-hq", "4A14"), ("us-m60a3", "4A14"), ("us-mech-infantry", "4C14")],
                 [("su-t72", "4T1")])
    hq, m60, inf = u(g, "us.1"), u(g, "us.2"), u(g, "us.3")
    for x in (hq, m60):
        s.strength[x], s.hex[x] = 2, None
    finish_turn(s)
    assert s.strength[hq] == 3 and s.hex[hq] is None and s.strength[inf] == 0


def test_1_3_3_3_hq_restored_in_the_hex_of_its_type():
    g, s = build([("us-mech-hq", "4A14"), ("us-m60a3", "4A13"), ("us-mech-infantry", "4C14"),
                  ("us-mech-infantry", "4C14")], [("su-t72", "4T1")])
    hq = u(g, "us.1")
    s.strength[hq], s.hex[hq] = 2, None
    finish_turn(s)
    assert s.strength[hq] == 1 and s.hex[hq] == at(g, "4A13")   # not the hex with more (infantry) units


# ---------------------------------------------------------------- WaW 1.3.3.1 HQ movement (option c23)

@pytest.mark.parametrize("reading, hq_goes", [("formation_and_type", True), ("formation", False)])
def test_1_3_3_1_hq_follows_the_last_unit_of_its_type(reading, hq_goes):
    g, s = build([("us-armor-hq", "4J14"), ("us-m60a3", "4J14"), ("us-mech-infantry", "4J14")],
                 [("su-t72", "4T1")], options={"c23_hq_type": reading})
    hq = u(g, "us.1")
    to_ops(s)
    move = next(a for a in sorted(legal(s)) if a.startswith("move us.2 "))
    s.play(g.parse_action(move))
    dest = g.map.hex_of[move.split()[2]]
    assert (s.hex[hq] == dest) is hq_goes and (s.hex[hq] == at(g, "4J14")) is not hq_goes


def test_1_3_3_1_hq_marked_ops_complete_pins_its_last_unit():
    g, s = build([("us-armor-hq", "4J14"), ("us-m60a3", "4J14")], [("su-t72", "4T1")])
    to_ops(s)
    assert any(a.startswith("move us.2 ") for a in legal(s))
    s.ops_complete[u(g, "us.1")] = True                      # an Ops Complete HQ may not move (1.3.3.1)
    assert not any(a.startswith("move us.2 ") for a in legal(s))


# ---------------------------------------------------------------- WaW 6.1.3.1 / 9.2 helicopters (option c41)

@pytest.mark.parametrize("reading, may_fire", [("turn", False), ("activation", True)])
def test_6_1_3_1_helicopter_past_12_hexes_cannot_fire_again_that_turn(reading, may_fire):
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J10")], markers=(2, 1),
                 options={"c41_heli_12_hexes": reading}, extension={"cup": {"end_turn": 0}})
    cobra = u(g, "us.1")
    to_ops(s)
    assert any(a.startswith("fire us.1 ") for a in legal(s))
    s.heli_moves[cobra] = 13                       # moved 13 hexes in its first impulse
    assert not any(a.startswith("fire us.1 ") for a in legal(s))
    s.play(g.parse_action("end"))
    to_ops(s)                                      # its second marker, same turn
    assert s.turn == 1
    assert any(a.startswith("fire us.1 ") for a in legal(s)) is may_fire
    finish_turn(s)
    assert s.heli_moves[cobra] == 0                # a new turn: the count starts again


# ---------------------------------------------------------------- WaW 6.3 (b) retreat

def test_6_3_b_only_the_attacking_units_are_exempt():
    """Defender in 2B1 (top edge: its far neighbours are off the map) assaulted from 2B2 by us.1 alone; us.2
    stays in 2B2, so 2A1 and 2C1 are next to an enemy unit that did not attack: no retreat, destroyed."""
    g, s = build([("us-m60a3", "2B2"), ("us-m60a3", "2B2")], [("su-motor-rifle", "2B1")],
                 morale=({"value": 12}, None))
    rifle = u(g, "su.1")
    to_ops(s)
    assert "assault us.1 2B1" in legal(s)
    s.dice.force(6, 1, 1, 1, 1, 1, 1, 1)           # one Hit on the defender, none back
    s.play(g.parse_action("assault us.1 2B1"))
    assert s.strength[rifle] == 2


def test_6_3_b_retreat_allowed_next_to_the_attackers():
    g, s = build([("us-m60a3", "2B2"), ("us-m60a3", "2B2")], [("su-motor-rifle", "2B1")],
                 morale=({"value": 12}, None))
    rifle = u(g, "su.1")
    to_ops(s)
    s.dice.force(6, 1, 1, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    s.play(g.parse_action("assault us.1+us.2 2B1"))   # both attack: both exempt
    assert s.strength[rifle] < 2 and s.hex[rifle] in (at(g, "2A1"), at(g, "2C1"))


# ---------------------------------------------------------------- WaW 7.2 ridge lines, Wrecks

def test_7_2_ridge_line_blocks_hill_to_ground():
    row = [(q, 0) for q in range(6)]
    terrain = dict(zip(row, "CCCCCC"))
    levels = dict(zip(row, (1, 1, 1, 0, 0, 0)))
    ridge = {((2, 0), (3, 0))}
    blocking = {"C": "none", "R": "two_or_more", "W": "blocks"}
    assert Los(terrain, levels, blocking).clear((0, 0), (5, 0))
    assert not Los(terrain, levels, blocking, ridge).clear((0, 0), (5, 0))      # ridge between
    assert Los(terrain, levels, blocking, ridge).clear((2, 0), (5, 0))          # observer next to the ridge
    assert Los(terrain, levels, blocking, ridge | {((4, 0), (5, 0))}).clear((0, 0), (5, 0))  # target next
    assert Los(terrain, dict(zip(row, (1,) * 6)), blocking, ridge).clear((0, 0), (5, 0))    # hill to hill


def test_7_2_wrecks_count_with_broken_terrain():
    row = [(q, 0) for q in range(5)]
    blocking = {"C": "none", "R": "two_or_more"}
    hill = Los(dict(zip(row, "CRCCC")), dict(zip(row, (1,) * 5)), blocking)
    assert hill.clear((0, 0), (4, 0)) and hill.clear((0, 0), (4, 0), wrecks={(3, 0)}) is False
    assert Los(dict(zip(row, "CCCCC")), {}, blocking).clear((0, 0), (4, 0), wrecks={(2, 0), (3, 0)}) is False


def test_7_3_a_wreck_beside_rough_blocks_through_the_state():
    g, s = build([("us-m60a3", "4A5")], [("su-t72", "4A6")])
    m60, t72 = u(g, "us.1"), u(g, "su.1")
    for a in g.hexes:
        if g.level[a] or g.terrain[a] != "C":
            continue
        for b in g.hexes:
            if g.level[b] or g.terrain[b] != "C" or not 3 <= distance(a, b) <= 6 or not g.los.clear(a, b):
                continue
            mid = g.los.between(a, b)
            rough = [h for h in mid if g.terrain.get(h) == "R"]
            plain = [h for h in mid if g.terrain.get(h) == "C"]
            if len(rough) == 1 and plain and len(mid) == distance(a, b) - 1:
                s.hex[m60], s.hex[t72] = a, b
                assert s.has_los(m60, t72)
                s.wrecks.add(plain[0])
                assert not s.has_los(m60, t72)
                return
    raise AssertionError("no test line found")


# ---------------------------------------------------------------- WaW 8.7 on-map artillery

def test_8_7_beyond_fixed_range_only_as_a_mission():
    g, s = build([("us-mech-infantry", "4T14")], [("su-2s1", "4A14"), ("su-tank-hq", "4T1"), ("su-t72", "4T1")])
    gun, m60 = u(g, "su.1"), u(g, "us.1")
    assert 10 < distance(s.hex[gun], s.hex[m60]) <= 20 and g.los.clear(s.hex[gun], s.hex[m60], 0, 0)
    to_ops(s, "f-su")
    acts = legal(s)
    assert not any(a.startswith("fire su.1 ") for a in acts)         # no extended-range direct fire
    assert "indirect su.1 4T14" in acts                               # 8.7 (b): per 8.1


# ---------------------------------------------------------------- Battlefield Chaos 3, 4, 5, 14

def test_chaos_3_directed_move_triggers_opportunity_fire():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J10")])
    m60 = u(g, "us.1")
    s.dice.force(1, 2)                             # 3: Miscommunication
    s._chaos()
    assert s.pending[0] == "opfire" and s.current_player() == 1
    assert any(a.startswith("opfire su.1 us.1") for a in legal(s))
    for _ in range(30):
        if s.pending[0] != "opfire":
            break
        s.play(g.parse_action("pass"))
    assert s.misc is None and s.ops_complete[m60] and distance(s.hex[m60], s.hex[u(g, "su.1")]) < 4


def test_chaos_4_scheduled_airstrike_counts():
    ext = {"airstrikes": [{"id": "a10", "side": "us", "ap_fp": 4, "he_fp": 3, "to_hit": 4, "armor": 2,
                           "save": 5, "from_turn": 3}]}
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J6")], extension=ext)
    he = next(i for i, a in enumerate(g.assets) if a.id == "chaos-he-34")
    s.dice.force(1, 3)                             # 4: NATO Close Air Support on turn 1
    s._chaos()
    assert ("A", 0) not in s.cup and s.missions[he] == 1


def test_chaos_4_spent_airstrike_returns_for_one_attack():
    ext = {"airstrikes": [{"id": "a10", "side": "us", "ap_fp": 4, "he_fp": 3, "to_hit": 4, "armor": 2,
                           "save": 5}]}
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4J6")], extension=ext)
    s.air_out.add(0)
    s.cup = [m for m in s.cup if m[0] != "A"]
    s.dice.force(1, 3)
    s._chaos()
    assert ("A", 0) in s.cup
    s._strike(0, None)
    assert 0 in s.air_out


def test_chaos_5_leader_hex_makes_no_roll():
    ext = {"leaders": [{"unit": "su-leader", "force": "su", "index": 1}]}
    g, s = build([("us-m60a3", "4T14")], [("su-mr-hq", "2A1"), ("su-t72", "2J14"), ("su-bmp2", "2J14")],
                 extension=ext)
    s.comms = True                                 # Chaos 5 rolled
    mark = len(s.dice.history)
    to_ops(s, "f-su")
    assert rolls(s, mark, "comms") == []


def test_chaos_14_thor_never_raises_command_range():
    g, s = build([("us-m60a3", "4T14")], [("su-tank-hq", "2A1"), ("su-t72", "2A1"), ("su-t72", "2D1")])
    hq = u(g, "su.1")
    s.strength[hq] = 1                             # Reduced: Command range 2
    assert distance(at(g, "2A1"), at(g, "2D1")) == 3
    s.thor = 1
    mark = len(s.dice.history)
    to_ops(s, "f-su")
    assert len(rolls(s, mark, "command")) == 2     # out of range 2: the hex checks Morale


# ---------------------------------------------------------------- WaW 9.2.1 Pop-Up

def test_9_2_1_popup_also_at_a_target_seen_at_normal_level():
    g, s = build([("us-ah1-cobra", "4J14")], [("su-t72", "4J11")])
    cobra, t72 = u(g, "us.1"), u(g, "su.1")
    to_ops(s)
    assert s.has_los(cobra, t72)
    assert any(a.startswith("popup us.1 su.1 ") for a in legal(s))
