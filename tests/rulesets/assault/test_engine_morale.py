"""Company morale (Assault 17; examples A98-A103, C53, option c46), through positions and play."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


@pytest.fixture(scope="module")
def game(index):
    rs = index.model("ruleset", "assault")
    return create_game(index.model("scenario", "assault-probe"), index, {o.id: o.default for o in rs.options})


def test_A98_initial_morale_levels(game):
    """Company 10, mechanized infantry (infantry and APCs) 12, HQ and TOC 8 (Assault 17.A.1, 17.C)."""
    morale = game.initial_morale(game.all_counters([1, 4]))
    assert morale["C1"].level == 10          # tank company C/1
    assert morale["B1"].level == 12          # mech company B/1: infantry platoons and M-2/M-113
    assert morale["HQC1"].level == 8 and morale["TOC1"].level == 8 and morale["HQ91"].level == 8
    assert morale["A3"].level == 12          # Soviet motor-rifle company A3: infantry and BMPs


def fight(game, dice, morale=None, phase="us-fire"):
    """A U.S. M-1 platoon fires KP twice at a T-80 platoon of company A1 (2 steps); both fire phases end."""
    units = [{"id": "us", "card": "us-m1-platoon", "side": "us", "hex": "A0120", "status": {"spotted": True}},
             {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "A0520", "facing": 0,
              "status": {"spotted": True, "company": "A1"}},
             {"id": "su2", "card": "su-t80-platoon", "side": "soviet", "hex": "A2220",
              "status": {"company": "A1"}}]
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": phase, "units": units,
                                   "extension": {"morale": morale or {}}})
    state = game.state_from_position(pos)
    state.dice.force(*dice)
    state.play("fire us KP su")
    state.play("fire us KP su")
    state.play("end")
    state.play("end")
    return state


def test_A99_A101_one_check_per_phase_and_the_failure_chain(game):
    """Fired at twice, company A1 checks once; with 1 step lost (level 9), a 10 fails: shaken; shaken fails:
    broken. KP at 4 hexes has hit number 7: the forced hit rolls (10) miss, so only the morale roll matters."""
    state = fight(game, [10, 10, 10, 10, 10], {"A1": {"lost": 1}})
    assert state.morale["A1"].state == "shaken"
    assert [r for r in state.dice.history if r[0].startswith("morale")] == [("morale A1", 10)]
    state = fight(game, [10, 10, 10, 10, 10], {"A1": {"lost": 1, "state": "shaken"}})
    assert state.morale["A1"].state == "broken"


def test_C53_a_fresh_company_never_fails(game):
    """Level 10 on a d10: 'equal to or less' always passes (reading c53)."""
    state = fight(game, [10, 10, 10, 10, 10])
    assert state.morale["A1"].state == "normal"


def test_broken_units_do_not_fire_and_take_flank_shots(game):
    """Assault 17.A.2: a broken company's units may not fire (and are always hit on the flank)."""
    units = [{"id": "us", "card": "us-m1-platoon", "side": "us", "hex": "A0120", "status": {"spotted": True}},
             {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "A0520", "facing": 0,
              "status": {"spotted": True, "company": "A1"}}]
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": "us-fire", "to_act": "soviet", "units": units,
                                   "extension": {"morale": {"A1": {"state": "broken"}}}})
    state = game.state_from_position(pos)
    assert state.legal_actions() == ["end"]
    assert not state._front(state.counters[1], state.counters[0])


def test_A103_free_rally_of_a_suppressed_unit(game):
    """Assault 17.B: before moving, a suppressed unit may try once to rally, at or under its company's level
    (A1 with 3 steps lost: 7). A 7 rallies it, an 8 does not; no second try; none once a unit has moved."""
    out = []
    for roll in (7, 8):
        units = [{"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "A0520",
                  "status": {"suppressed": True, "company": "A1"}},
                 {"id": "su2", "card": "su-t80-platoon", "side": "soviet", "hex": "A0620", "status": {"company": "A1"}},
                 {"id": "us", "card": "us-m1-platoon", "side": "us", "hex": "A2220"}]
        pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                       "phase": "soviet-move-1", "units": units,
                                       "extension": {"morale": {"A1": {"lost": 3}}}})
        state = game.state_from_position(pos)
        state.dice.force(roll)
        assert "rally su" in state.legal_actions()
        state.play("rally su")
        assert "rally su" not in state.legal_actions()
        out.append(state.counters[0].suppressed)
    assert out == [False, True]
    state = game.state_from_position(pos)
    state.play(next(a for a in state.legal_actions() if a.startswith("move su2 ")))
    assert "rally su" not in state.legal_actions()


def _rally_state(game, state_name, roll, ops=None):
    units = [{"id": "p1", "card": "su-t80-platoon", "side": "soviet", "hex": "A0520",
              "status": {"suppressed": True, "company": "A1", "designation": "A1"}},
             {"id": "p2", "card": "su-t80-platoon", "side": "soviet", "hex": "A0620",
              "status": {"company": "A1", "designation": "A1", "formation": "march"}},
             {"id": "us", "card": "us-m1-platoon", "side": "us", "hex": "A2220"}]
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": "soviet-move-1", "units": units,
                                   "extension": {"morale": {"A1": {"state": state_name, "lost": 2}},
                                                 "ops": {"soviet": ops if ops is not None else {"default": 2}}}})
    state = game.state_from_position(pos)
    state.dice.force(roll)
    return state


@pytest.mark.parametrize("before, roll, after", [("shaken", 8, "normal"), ("broken", 8, "shaken"),
                                                 ("shaken", 9, "shaken")])
def test_A103_company_rally(game, before, roll, after):
    """Assault 17.B: a shaken or broken company rallies on a roll at or under its level (10 - 2 = 8), paying 2
    OPs when no paying HQ sees it (default OPs, option c31 'not-visible'): broken becomes shaken (combat
    formation), shaken normal, and its suppressed units rally; a failure changes nothing."""
    state = _rally_state(game, before, roll)
    assert "rally-company A1" in state.legal_actions()
    state.play("rally-company A1")
    units = {c.id: c for c in state.counters}
    assert state.morale["A1"].state == after and state.ops[0]["default"] == 0
    assert units["p1"].suppressed is (after == before)
    if before == "broken" and after == "shaken":
        assert units["p2"].formation == "combat"
    assert "rally-company A1" not in state.legal_actions()          # once per phase


def test_company_rally_needs_ops(game):
    state = _rally_state(game, "shaken", 1, ops={"default": 1})
    assert "rally-company A1" not in state.legal_actions()


def test_A102_broken_units_retreat(game):
    """Assault 17.A.2: a broken unit moves only away from the nearest spotted enemy (as in march formation, no
    OPs), never within two hexes of another spotted enemy; with no spotted enemy it does not move."""
    units = [{"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "A1020",
              "status": {"company": "A1"}},
             {"id": "us", "card": "us-m1-platoon", "side": "us", "hex": "A0720", "status": {"spotted": True}}]
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": "soviet-move-1", "units": units,
                                   "extension": {"morale": {"A1": {"state": "broken"}}, "ops": {"soviet": {}}}})
    state = game.state_from_position(pos)
    targets = [game.map.hex(a.split()[2]) for a in state.legal_actions() if a.startswith("move su ")]
    enemy = game.map.hex("A0720")
    from studio.hexgrid import coords
    assert targets and all(coords.distance(h, enemy) > 3 for h in targets)
    units[1]["status"] = {}
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-probe",
                                   "phase": "soviet-move-1", "units": units,
                                   "extension": {"morale": {"A1": {"state": "broken"}}}})
    assert not [a for a in game.state_from_position(pos).legal_actions() if a.startswith("move su ")]


def test_A102_a_broken_unit_must_retreat_as_far_as_it_can():
    """Assault 17.A.2: the phase does not end while a broken unit can still move away from the nearest spotted
    enemy; a broken leg unit moves one hex (7.D), then the phase may end; with no spotted enemy it stays."""
    from pathlib import Path

    from studio.model.position import Position
    from studio.model.validate import validate_paths
    from studio.rulesets.assault.engine.game import create_game

    index = validate_paths([Path(__file__).resolve().parents[3] / "data"]).index
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", "assault-probe"), index, {o.id: o.default for o in rs.options})

    def state(spotted):
        units = [{"id": "inf", "card": "us-mech-infantry-platoon", "side": "us", "hex": "A0520",
                  "status": {"company": "K"}},
                 {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "A0820",
                  "status": {"spotted": spotted}}]
        return game.state_from_position(Position.model_validate({
            "kind": "position", "schema_version": 1, "scenario": "assault-probe", "phase": "us-move-1",
            "units": units, "extension": {"morale": {"K": {"state": "broken"}}}}))

    s = state(True)
    legal = s.legal_actions()
    assert "end" not in legal and any(a.startswith("move inf ") for a in legal)
    s.dice.force(1)
    s.play(next(a for a in legal if a.startswith("move inf ")))
    assert "end" in s.legal_actions()
    assert "end" in state(False).legal_actions()
