"""The first playable Assault game (engine/game.py; not registered as game_factory yet): generic conformance
on a sample scenario, the sequence of play through the public API, and ROF budgets (A69-A71).

No ``state_from_position`` exists yet, so the ROF tests place counters on a fresh state directly."""
from pathlib import Path

import pytest

from studio.model.validate import validate_paths
from studio.rules import conformance
from studio.rulesets.assault.engine.game import Counter, create_game
from studio.rulesets.assault.engine.sequence import PHASES

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def index():
    return validate_paths([REPO / "data"]).index


def game_of(index, scenario="assault-meeting", **options):
    rs = index.model("ruleset", "assault")
    merged = {o.id: o.default for o in rs.options} | options
    return create_game(index.model("scenario", scenario), index, merged)


def test_generic_conformance(index):
    out = conformance.run_all(game_of(index))
    assert all(v is None for v in out.values()), out


def test_sequence_of_play_through_actions(index):
    """Assault 2: artillery (both), Soviet move/fire/move, U.S. move/fire/move, turn 2."""
    state = game_of(index).new_initial_state(3)
    seen = []
    while state.turn == 1:
        seen.append((state.phase_id(), state.current_player()))
        state.play("pass" if state.phase_id() == "artillery" else "end")
    assert list(dict.fromkeys(p for p, _ in seen)) == [p.id for p in PHASES]
    assert seen[:2] == [("artillery", 0), ("artillery", 1)]
    assert ("soviet-move-1", 0) in seen and ("us-move-1", 1) in seen
    assert [pl for p, pl in seen if p == "soviet-fire"] == [0, 1]   # both players fire, phasing first
    assert state.phase_id() == "artillery" and state.turn == 2


def _duel(index, attacker_card: str, target_card: str = "su-t80-platoon"):
    g = game_of(index)
    state = g.new_initial_state(0)
    a = g.map.hex("B1010")
    state.counters = [Counter("a", attacker_card, 1, a, 2), Counter("t", target_card, 0, g.map.hex("B1012"), 2,
                                                                  spotted=True)]
    state.phase, state.actor = "us-fire", 1
    return state


def _fires(state) -> list[str]:
    return [a for a in state.legal_actions() if a.startswith("fire a ")]


def test_A69_m1_rof(index):
    """A69 (Assault 12.D): an M-1 fires twice with KP, or twice SA, or once each; never three times."""
    state = _duel(index, "us-m1-platoon")
    assert "fire a KP t" in _fires(state)
    state.play("fire a KP t")
    state.play("fire a KP t")
    assert _fires(state) == []


def test_A70_bmp_rof(index):
    """A70 (Assault 12.D): a BMP-B fires API twice or Msl once; API and Msl together exceed min(2, 1)."""
    state = _duel(index, "su-bmp-platoon", "us-m1-platoon")
    for c in state.counters:
        c.side = 1 - c.side
    state.phase, state.actor = "soviet-fire", 0
    state.play("fire a API t")
    assert "fire a Msl t" not in _fires(state)
    state.play("fire a API t")
    assert _fires(state) == []


def test_A71_personnel_fire_every_type(index):
    """A71 (Assault 12.D): U.S. infantry fires TP once, Msl once and SA twice in one phase."""
    state = _duel(index, "us-mech-infantry-platoon", "su-bmp-platoon")
    state.counters[1].hex = state.game.map.hex("B1011")   # range 1: TP and SA reach, Msl does not
    fired = []
    while _fires(state):
        act = _fires(state)[0]
        fired.append(act.split()[2])
        state.play(act)
    assert sorted(fired) == ["SA", "SA", "TP"]


def test_moved_unit_does_not_fire_in_its_own_fire_phase(index):
    """A74 (Assault 12.B.4): a phasing unit that moved in the first movement phase cannot fire."""
    state = _duel(index, "us-m1-platoon")
    state.counters[0].moved_first = True
    assert _fires(state) == []
