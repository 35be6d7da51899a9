"""Soviet battle drill (Assault 4.D.2, example A31), through positions on board A of the probe scenario.

Two T-80 platoons of company A of the 1st battalion (designation ``A1``) and their battalion HQ (``HQ1``, 3 OPs
this phase). Direction 2 is axial (+1, 0): east; direction 5 west."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]
OPS = {"ops": {"soviet": {"HQ1": 3}}}


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def state_of(index, units, phase="soviet-move-1", extension=OPS, **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", "assault-probe"), index,
                       {o.id: o.default for o in rs.options} | options)
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": phase, "units": units, "extension": extension})
    return game.state_from_position(pos)


def u(uid, card, side, hexlabel, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status}


def company(hq_hex="A0119", a="A0120", b="A0320", **status):
    return [u("t1", "su-t80-platoon", "soviet", a, designation="A1", **status),
            u("t2", "su-t80-platoon", "soviet", b, designation="A1", **status),
            u("hq", "su-hq", "soviet", hq_hex, designation="HQ1"),
            u("us", "us-m1-platoon", "us", "B2220")]


def drills(state):
    return sorted(a for a in state.legal_actions() if a.startswith("drill "))


def test_A31_one_order_moves_the_whole_company_with_the_same_facing_and_mps(index):
    """1 OP when a counter is visible to the HQ; every counter steps the same way at the same MP cost."""
    state = state_of(index, company())
    assert "drill A1 2" in drills(state)
    state.play("drill A1 2")
    t1, t2 = state._by_id("t1"), state._by_id("t2")
    assert state.game.map.label_of[t1.hex] == "A0221" and state.game.map.label_of[t2.hex] == "A0421"
    assert (t1.facing, t1.mp_used) == (t2.facing, t2.mp_used) == (2, 2)
    assert state.ops[0]["HQ1"] == 2
    state.play("drill A1 2")                                 # the same drill goes on: already paid
    assert state.ops[0]["HQ1"] == 2 and t1.mp_used == t2.mp_used == 4
    legal = state.legal_actions()
    assert not any(a.startswith(("move t1 ", "move t2 ", "face t1 ")) for a in legal)   # they keep together


def test_A31_two_ops_when_no_counter_is_visible(index):
    state = state_of(index, company(hq_hex="B2020"))          # the HQ 40 hexes away: out of sight
    state.play("drill A1 2")
    assert state.ops[0]["HQ1"] == 1
    single = state_of(index, company())
    single.play("move t1 A0221")                              # the ordinary order: one unit, 1 OP
    assert single.ops[0]["HQ1"] == 2


def test_A31_battle_drill_may_not_be_used_when_a_counter_cannot_follow(index):
    """t1 on the west edge (A0120) cannot step west, so the company may not drill west; a company in two
    formations may not drill at all; a company whose counters would pay different MPs may not either."""
    assert "drill A1 5" not in drills(state_of(index, company()))
    assert "drill A1 5" in drills(state_of(index, company(a="A0220", b="A0420")))
    mixed = company()
    mixed[0]["status"]["formation"] = "march"
    assert not [d for d in drills(state_of(index, mixed)) if d.split()[2].isdigit()]
    # A0212 -> A0213 clear, A0312 -> A0313 woods (direction 3: the next hex south)
    assert "drill A1 3" not in drills(state_of(index, company(a="A0212", b="A0312")))
    assert "drill A1 3" in drills(state_of(index, company(a="A0312", b="A0412")))


def test_A31_a_formation_order_for_the_whole_company(index):
    state = state_of(index, company())
    assert "drill A1 march" in drills(state) and "drill A1 combat" not in drills(state)
    state.play("drill A1 march")
    assert {c.formation for c in state.counters if c.designation == "A1"} == {"march"}
    assert state.ops[0]["HQ1"] == 2


def test_battle_drill_is_soviet_only(index):
    units = [u("m1", "us-m1-platoon", "us", "A0120", designation="1C1"),
             u("m2", "us-m1-platoon", "us", "A0320", designation="2C1"),
             u("su", "su-t80-platoon", "soviet", "B2220")]
    state = state_of(index, units, phase="us-move-1", extension={})
    assert drills(state) == []


def test_drilled_counters_enter_one_at_a_time_under_opportunity_fire(index):
    """Each counter's entry is a decision point for the enemy (15); the drill goes on after it."""
    units = company(**{"spotted": True})
    units[3] = u("us", "us-m1-platoon", "us", "A0520", cover=True)
    state = state_of(index, units)
    state.play("drill A1 2")
    assert state.opp_target == "t1" and state.current_player() == 1
    state.play("end")
    assert state.opp_target == "t2" and state.game.map.label_of[state._by_id("t2").hex] == "A0421"
    state.play("end")
    assert not state.opp_target and state.current_player() == 0


def test_a_battalion_drills_as_one_group_and_a_company_of_one_counter_does_not(index):
    """4.D.2: 'bn1' gathers the line counters of companies A1 and B1; a company of one counter has no drill."""
    units = [u("t1", "su-t80-platoon", "soviet", "A0120", designation="A1"),
             u("t2", "su-t80-platoon", "soviet", "A0320", designation="B1"),
             u("us", "us-m1-platoon", "us", "B2220")]
    state = state_of(index, units, extension={"ops": {"soviet": {"HQ1": 3}}})
    legal = drills(state)
    assert "drill bn1 2" in legal and not any(d.startswith(("drill A1 ", "drill B1 ")) for d in legal)
    state.play("drill bn1 2")
    assert state._by_id("t1").drill == state._by_id("t2").drill == "bn1"


def test_a_battalion_with_a_leg_hq_cannot_drill_its_moves(index):
    """Leg units spend no MPs (7.D): the battalion with its (leg) HQ may change formation by drill, not move."""
    units = company()
    units[1]["status"]["designation"] = "B1"
    state = state_of(index, units)
    legal = drills(state)
    assert "drill bn1 march" in legal and not [d for d in legal if d.startswith("drill bn1 ") and d[-1].isdigit()]


def test_one_formation_order_per_phase_and_equal_mps_to_start(index):
    state = state_of(index, company())
    state.play("drill A1 march")
    assert not any(d in drills(state) for d in ("drill A1 combat", "drill A1 march"))
    uneven = company()
    uneven[1]["status"]["mp_used"] = 2
    assert not [d for d in drills(state_of(index, uneven)) if d[-1].isdigit()]


def test_a_shaken_company_does_not_drill_toward_a_spotted_enemy(index):
    """17.A.2: shaken units may not move toward a spotted enemy, so neither may their drill."""
    units = company()
    units[0]["status"]["company"] = units[1]["status"]["company"] = "A1"
    units[3] = u("us", "us-m1-platoon", "us", "A0820", spotted=True)
    free = drills(state_of(index, units))
    shaken = drills(state_of(index, units, extension={**OPS, "morale": {"A1": {"state": "shaken"}}}))
    assert "drill A1 2" in free and "drill A1 2" not in shaken and "drill A1 5" not in shaken


def test_a_counter_lost_to_opportunity_fire_leaves_the_drill(index):
    """The first counter destroyed by opportunity fire; the second still makes the step (15, 4.D.2)."""
    units = company(**{"spotted": True})
    units[3] = u("us", "us-m1-platoon", "us", "A0222", cover=True)
    state = state_of(index, units)
    state.dice.force(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    state.play("drill A1 2")
    assert state.opp_target == "t1"
    state.play("fire us KP t1")
    state.play("end")
    assert "t1" not in {c.id for c in state.counters}
    assert state.game.map.label_of[state._by_id("t2").hex] == "A0421"
