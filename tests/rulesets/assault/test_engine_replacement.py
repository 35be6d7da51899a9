"""HQ replacement (Assault 4.C.3; examples A26, A27) and cross-attachment in play (4.C.4, A29) through positions
and play."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def state_of(index, units, phase, dice=(), **options):
    rs = index.model("ruleset", "assault")
    game = create_game(index.model("scenario", "assault-meeting"), index,
                       {o.id: o.default for o in rs.options} | {"c31-offboard-ops-visibility": "visible"} | options)
    doc = {"kind": "position", "schema_version": 1, "scenario": "assault-meeting", "phase": phase, "units": units}
    state = game.state_from_position(Position.model_validate(doc))
    state.dice.force(*dice)
    return state


def unit(uid, card, side, hexlabel, facing=None, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "facing": facing, "status": status}


def by_id(state) -> dict:
    return {c.id: c for c in state.counters}


def kill_hq(state, hq_id: str, firer: str, ammo: str) -> None:
    state.play(f"fire {firer} {ammo} {hq_id}")
    state.play("end")
    state.play("end")
    assert hq_id not in by_id(state)


def test_A26_company_hq_replaced_on_a_platoon(index):
    """Assault 4.C.3 (A26): the U.S. company HQ C/1 is killed; next friendly movement phase it is placed on a
    full-strength platoon of its company, which takes a hit; its rating is rolled again."""
    units = [unit("hq", "us-hq", "us", "B1010", designation="HQC1", spotted=True),
             unit("p1", "us-m1-platoon", "us", "B0508", designation="1C1"),
             unit("p2", "us-m1-platoon", "us", "B0509", designation="2C2"),
             unit("su", "su-t80-platoon", "soviet", "B1011", spotted=True)]
    state = state_of(index, units, "soviet-fire", dice=[1, 1, 10, 10])
    kill_hq(state, "hq", "su", "HE")
    assert state.dead_hqs == ((1, "HQC1", "us-hq"),)
    while state.phase_id() != "us-move-1":
        state.play("end")
    replace = [a for a in state.legal_actions() if a.startswith("replace ")]
    assert replace == ["replace HQC1 p1"]                             # 2C2 is another company
    state.play("replace HQC1 p1")
    u = by_id(state)
    new = next(c for c in state.counters if c.designation == "HQC1")
    assert new.hex == u["p1"].hex and u["p1"].steps == 1 and state.dead_hqs == ()
    assert state.lost_steps[1] == 1 + 1                              # the HQ's step and the platoon's hit
    assert (1, "HQC1") in state.ratings


def test_A26_half_strength_platoon_is_removed(index):
    units = [unit("p1", "us-m1-platoon", "us", "B0508", designation="1C1", steps=1),
             unit("su", "su-t80-platoon", "soviet", "B2121")]
    state = state_of(index, units, "us-move-1")
    state.dead_hqs = ((1, "HQC1", "us-hq"),)
    state.play("replace HQC1 p1")
    assert "p1" not in by_id(state) and any(c.designation == "HQC1" for c in state.counters)


def test_A27_battalion_hq_at_its_toc_with_a_jeep(index):
    """Assault 4.C.3 (A27): a U.S. battalion HQ comes back at its TOC's hex with an M-151, the TOC loses
    nothing; without its TOC it cannot be replaced."""
    units = [unit("toc", "us-toc", "us", "B0508", designation="TOC1"),
             unit("su", "su-t80-platoon", "soviet", "B2121")]
    state = state_of(index, units, "us-move-1")
    state.dead_hqs = ((1, "HQ1", "us-hq"),)
    assert [a for a in state.legal_actions() if a.startswith("replace ")] == ["replace HQ1 toc"]
    state.play("replace HQ1 toc")
    cards = sorted(c.card for c in state.counters if c.hex == by_id(state)["toc"].hex)
    assert cards == ["us-hq", "us-m151", "us-toc"] and by_id(state)["toc"].steps == 1
    alone = state_of(index, [units[1], unit("p", "us-m1-platoon", "us", "B0508", designation="1C1")], "us-move-1")
    alone.dead_hqs = ((1, "HQ1", "us-hq"),)
    assert not [a for a in alone.legal_actions() if a.startswith("replace ")]


def test_cross_attachment_in_play_costs_two_from_the_own_hq(index):
    """Assault 4.C.4: at the start of a friendly movement phase a platoon is cross-attached for 2 OPs paid by
    its own HQ; it then obeys the receiving HQ (option c5 'receiving-chain') and checks morale with its company
    (17.A)."""
    units = [unit("p", "us-m1-platoon", "us", "B0102", designation="1C1"),
             unit("hqc", "us-hq", "us", "B0101", designation="HQC1"),
             unit("hqb", "us-hq", "us", "B0103", designation="HQB1"),
             unit("su", "su-t80-platoon", "soviet", "B2121")]
    state = state_of(index, units, "us-move-1")
    state.ops[1]["HQC1"] = 3
    assert "attach p HQB1" in state.legal_actions() and "attach p HQC1" not in state.legal_actions()
    state.play("attach p HQB1")
    p = by_id(state)["p"]
    assert state.ops[1]["HQC1"] == 1 and p.attached == "HQB1" and p.company == "B1"
    assert state._chain(p)[0] == "HQB1"
    poor = state_of(index, units, "us-move-1")
    poor.ops[1]["HQC1"] = 1
    assert "attach p HQB1" not in poor.legal_actions()


def test_cross_attachment_limit(index):
    """Assault 4.C.4 (A29): a U.S. company HQ receives at most two platoons."""
    units = [unit(f"a{n}", "us-m1-platoon", "us", "B0102", designation="1C1", attached="HQB1") for n in range(2)]
    units += [unit("p", "us-m1-platoon", "us", "B0104", designation="2C1"),
              unit("hqc", "us-hq", "us", "B0101", designation="HQC1"),
              unit("hqb", "us-hq", "us", "B0103", designation="HQB1"),
              unit("hqa", "us-hq", "us", "B0105", designation="HQA1"),
              unit("su", "su-t80-platoon", "soviet", "B2121")]
    state = state_of(index, units, "us-move-1")
    state.ops[1]["HQC1"] = 3
    legal = state.legal_actions()
    assert "attach p HQB1" not in legal and "attach p HQA1" in legal
