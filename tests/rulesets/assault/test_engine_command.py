"""Command control (Assault 4-6; examples A19, A21, A22, A23, A25, A30, A33, A34, A35, A38), through positions
and play."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.model.validate import validate_paths
from studio.rulesets.assault.engine.command import rating_keys
from studio.rulesets.assault.engine.game import create_game

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def game_of(index, **options):
    rs = index.model("ruleset", "assault")
    return create_game(index.model("scenario", "assault-meeting"), index, {o.id: o.default for o in rs.options} | options)


def state_of(index, units, phase="us-move-1", **extension):
    game = game_of(index)
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-meeting",
                                   "phase": phase, "units": units, "extension": extension})
    return game.state_from_position(pos)


def unit(uid, card, side, hexlabel, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "status": status}


ENEMY = unit("su", "su-t80-platoon", "soviet", "B2121")


def moves(state, uid):
    return [a for a in state.legal_actions() if a.startswith(f"move {uid} ")]


def test_A19_one_public_roll_per_hq_and_toc(index):
    """Assault 4.B.1-2: one roll per HQ (command) and per TOC (command, planning), for every HQ and TOC of the
    scenario's forces at every force level; the ratings are in both players' observations."""
    game = game_of(index)
    state = game.new_initial_state(3)
    keys = rating_keys(game)
    assert (1, "HQC1") in keys and (1, "TOC1") in keys and (0, "HQ91") in keys and (0, "TOC91") in keys
    assert set(state.ratings) == set(keys)
    rolls = [r for r in state.dice.history if r[0].startswith("rating ")]
    assert len(rolls) == len(keys)
    table = game.command_ratings
    toc_roll = next(v for label, v in rolls if label == "rating TOC1")
    assert state.ratings[(1, "TOC1")] == (table[toc_roll]["toc_command"], table[toc_roll]["toc_planning"])
    hq_roll = next(v for label, v in rolls if label == "rating HQC1")
    assert state.ratings[(1, "HQC1")][0] == table[hq_roll]["hq_command"]
    assert state.observation(0).ratings == state.ratings


def test_A21_default_ops(index):
    """Assault 4.B.4: without HQs, TOCs or off-board OPs (the U.S. has none on the Meeting) the player has 2."""
    state = state_of(index, [unit("p", "us-m1-platoon", "us", "B0101"), ENEMY])
    assert state.ops[1] == {"default": 2}
    state.play(moves(state, "p")[0])                  # default OPs pay as not visible: 2 (option c31)
    assert state.ops[1] == {"default": 0}


def test_A22_split_payment_when_not_visible(index):
    """Assault 4.C: a platoon of B/1 no HQ can see costs 2 OPs: one from the company HQ and one from the
    battalion HQ when each has one left. The woods of board B (B0206-B0509) hide it."""
    units = [unit("p", "us-m1-platoon", "us", "B0607", designation="1B1"),
             unit("hqb", "us-hq", "us", "B0107", designation="HQB1"),
             unit("hq", "us-hq", "us", "B0108", designation="HQ1"), ENEMY]
    state = state_of(index, units, ops={"us": {"HQB1": 1, "HQ1": 1}})
    assert not state.has_los(state.game.map.hex("B0107"), state.game.map.hex("B0607"))
    state.play(moves(state, "p")[0])
    assert state.ops[1] == {"HQB1": 0, "HQ1": 0}
    alone = state_of(index, units, ops={"us": {"HQB1": 1}})
    assert moves(alone, "p") == []                    # one point is not enough


def test_A23_A25_formation_change_then_move_pays_twice(index):
    """Assault 4.C.1, 7.C: a change of formation costs 1 OP in view of the paying HQ, and moving in combat
    formation afterwards is a second payment."""
    units = [unit("p", "us-m1-platoon", "us", "B1010", designation="1C1", formation="march"),
             unit("hq", "us-hq", "us", "B1011", designation="HQC1"), ENEMY]
    state = state_of(index, units, ops={"us": {"HQC1": 2}})
    state.play("form p combat")
    assert state.ops[1]["HQC1"] == 1
    state.play(moves(state, "p")[0])
    assert state.ops[1]["HQC1"] == 0
    assert moves(state, "p")                          # the same order goes on: no new payment
    broke = state_of(index, units, ops={"us": {"HQC1": 0}})
    assert "form p combat" not in broke.legal_actions()
    assert moves(broke, "p")                          # march formation needs no OPs (Assault 4.C)


def test_A30_asterisk_units_need_no_ops(index):
    """Assault 4.D.1: HQ, TOC, OP and recon (asterisk) units move and change formation free."""
    units = [unit("hq", "us-hq", "us", "B1011", designation="HQC1"), ENEMY]
    state = state_of(index, units, ops={"us": {}})
    assert moves(state, "hq") and "form hq march" in state.legal_actions()


def test_A33_a_broken_hq_gives_no_ops(index):
    """Assault 5, 17.C: a shaken HQ spends its OPs, a broken one cannot."""
    units = [unit("hq", "us-hq", "us", "B1011", designation="HQC1", company="HQC1"), ENEMY]
    for state_name, has in (("shaken", True), ("broken", False)):
        state = state_of(index, units, morale={"HQC1": {"state": state_name}})
        assert ("HQC1" in state.ops[1]) is has


def test_c16_unused_ops_are_kept_or_lost(index):
    """Option c16: OPs left at the end of the first movement phase carry to the second, or are lost."""
    units = [unit("hq", "us-hq", "us", "B1011", designation="HQC1"), ENEMY]
    out = []
    for choice in ("lost", "carry"):
        game = game_of(index, **{"c16-unused-ops": choice})
        pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": "assault-meeting",
                                       "phase": "us-move-1", "units": units})
        state = game.state_from_position(pos)
        first = state.ops[1]["HQC1"]
        for _ in range(3):
            state.play("end")
        assert state.phase_id() == "us-move-2"
        out.append(state.ops[1]["HQC1"] - first)
    assert out[0] == 0 and out[1] > 0


STAFF = [unit("toc", "us-toc", "us", "B0101", designation="TOC1"),
         unit("hq", "us-hq", "us", "B0102", designation="HQ1"), ENEMY]


def test_A34_toc_plans(index):
    """Assault 6.A.2: a planning TOC spends nothing, may not move, and adds its command rating to its track
    up to its planning rating (option c17 'per-phase': in both movement phases of its player turn)."""
    state = state_of(index, STAFF)
    command, planning = state.ratings[(1, "TOC1")]
    assert "toc toc plan" in state.legal_actions() and "TOC1" in state.ops[1]
    state.play("toc toc plan")
    toc = next(c for c in state.counters if c.id == "toc")
    assert "TOC1" not in state.ops[1] and toc.toc_bank == min(command, planning)
    assert not moves(state, "toc")
    for _ in range(3):
        state.play("end")
    assert state.phase_id() == "us-move-2" and toc.toc_bank == min(2 * command, planning)


def test_A35_toc_executes_its_track(index):
    """Assault 6.A.3: an executing TOC spends up to its track, which goes down by what it spends."""
    units = [dict(STAFF[0], status={"designation": "TOC1", "toc_bank": 5}), STAFF[1],
             unit("p", "us-m1-platoon", "us", "B0303", designation="1C1"), ENEMY]
    state = state_of(index, units, ops={"us": {"HQ1": 0, "TOC1": 3}})     # the battalion HQ has spent its OPs
    state.play("toc toc execute")
    assert state.ops[1]["TOC1"] == 5
    state.play(moves(state, "p")[0])
    toc = next(c for c in state.counters if c.id == "toc")
    assert toc.toc_bank == state.ops[1]["TOC1"] < 5


def test_A38_no_planning_without_the_unit_hq(index):
    """Assault 6.B.4: without the battalion HQ in play the TOC may command but neither plan nor execute."""
    state = state_of(index, [STAFF[0], ENEMY])
    assert not [a for a in state.legal_actions() if a.startswith("toc ")] and "TOC1" in state.ops[1]
