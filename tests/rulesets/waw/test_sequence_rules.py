"""WaW 3.0-3.2 sequence of play and 2.0/13.0 set-up through the state: the cup, draws, the end of the game."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from helpers import at, build, finish_turn, u  # noqa: E402


def cup_of(s):
    return sorted(m[0] for m in s.cup)


def test_3_1_the_cup_holds_formation_end_turn_chaos_air_and_jammed_markers():
    ext = {"cup": {"chaos": 1, "jammed": ["soviet"], "jammed_instructions": "x", "air_cover": ["soviet"],
                   "air_cover_aa_fp": 3},
           "airstrikes": [{"id": "a", "side": "us", "ap_fp": 4, "he_fp": 3, "to_hit": 4, "armor": 2, "save": 5,
                           "from_turn": 2}]}
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], markers=(2, 1), extension=ext)
    s.cup = []
    s.turn = 1
    s._new_cup()
    assert cup_of(s) == ["C", "E", "E", "F", "F", "F", "J", "V"]
    s.turn = 2
    s._new_cup()
    assert cup_of(s) == ["A", "C", "E", "E", "F", "F", "F", "V"]             # Jammed on turn 1 only
    s.cover.add(("used", 1))
    s._new_cup()
    assert "V" not in cup_of(s)


def test_3_1_a_destroyed_formation_has_no_marker_and_a_late_one_waits():
    g, s = build([("us-m60a3", "4J14"), ("us-m60a3", "4J13")], [("su-t72", "4T1")])
    for x in ("us.1", "us.2"):
        s.strength[u(g, x)] = 2
    s._new_cup()
    assert cup_of(s).count("F") == 1


def test_3_1_second_end_turn_marker_ends_the_phase():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], turns=3)
    s.pending = ("none",)
    s.et_drawn = 1
    s.cup = [("E", 0)] * 40 + [("F", 0)]          # the next draw is all but surely the second End Turn
    s._advance()
    assert s.turn == 2 and s.et_drawn in (0, 1) and ("F", 1) in s.cup or s.pending[0] == "decide"


def test_3_2_marker_removal_and_the_turn_limit():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")], turns=2)
    m60 = u(g, "us.1")
    s.ops_complete[m60] = s.out_of_command[m60] = s.locked[m60] = True
    s.breakdown[m60] = 2
    finish_turn(s)
    assert s.turn == 2 and not s.ops_complete[m60] and not s.out_of_command[m60] and not s.locked[m60]
    assert s.breakdown[m60] == 1
    finish_turn(s)
    assert s.is_terminal() and s.outcome().reason == "turn limit reached"


def test_13_0_a_side_without_combat_units_loses_at_once():
    g, s = build([("us-m60a3", "4J14")], [("su-t72", "4T1")])
    s.strength[u(g, "su.1")] = 2
    s.hex[u(g, "su.1")] = None
    s.pending = ("none",)
    s._advance()
    assert s.is_terminal() and "no combat units" in s.outcome().reason


def test_2_0_set_up_passengers_disrupted_and_control():
    ext = {"passengers": [{"force": "us", "index": 0, "carrier_force": "us", "carrier_index": 1, "disrupted": True}],
           "disrupted": [{"unit": "su-t72", "force": "su", "index": 0}], "wrecks": ["4J12"],
           "fortifications": {"mines": ["4J11"], "improved_positions": ["4T1"]}}
    g, s = build([("us-mech-infantry", "4J14"), ("us-m113", "4J13")], [("su-t72", "4T1")], extension=ext)
    inf, m113, t72 = u(g, "us.1"), u(g, "us.2"), u(g, "su.1")
    assert s.carrier[inf] == m113 and s.hex[inf] == s.hex[m113] and s.disr[inf] and s.disr[t72]
    assert at(g, "4J12") in s.wrecks and at(g, "4J11") in s.mines and at(g, "4T1") in s.ip
    assert s.control[at(g, "4T1")] == 1 and s.control[at(g, "4J13")] == 0


def test_13_0_reinforcements_enter_on_their_turn():
    from studio.rules.load import load_game
    data = Path(__file__).resolve().parents[3] / "data"
    g = load_game(data / "scenarios" / "waw" / "waw-crossroads.yaml", data).game
    late = [fi for fi, (turn, hexes) in g.entry.items() if turn > 1]
    s = g.new_initial_state(0)
    assert all(("F", fi) not in s.cup for fi in late) or not late
