"""The Assault game (engine/game.py, the plugin's game_factory): generic conformance on a sample scenario, the
sequence of play through the public API, and ROF budgets (A69-A71; these place counters on a fresh state)."""
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
        state.play("end")
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


def test_state_record_is_whole_and_private(index):
    """The issue-10 contract checks that need no registration: every field in the fingerprint (DERIVED_SLOTS),
    observations that hide unspotted enemies, enemy declarations, the enemy's force level and the dice, and
    phase ids from Game.phases."""
    from studio.rules.conformance import check_fingerprint_complete, check_observation_private, check_phase_ids

    g = game_of(index)
    check_phase_ids(g)
    for state in conformance.sample_states(g, seed=4, count=4):
        check_fingerprint_complete(state)
        for player in (0, 1):
            check_observation_private(state, player)


def test_observation_hides_unspotted_enemies_and_force_level(index):
    state = _duel(index, "us-m1-platoon")
    state.counters[1].spotted = False
    view = state.observation(1)
    assert [c.id for c in view.counters] == ["a"]
    assert view.force_level[0] == 0 and view.force_level[1] == state.force_level[1]
    assert [c.id for c in state.observation(0).counters] == ["t"]     # 'a' is not spotted either
    state.counters[0].spotted = True
    assert [c.id for c in state.observation(0).counters] == ["a", "t"]


def _position(**kw):
    from studio.model.position import Position

    doc = {"kind": "position", "schema_version": 1, "scenario": "assault-meeting", "turn": 2, "phase": "us-fire",
           "units": [{"id": "m1", "card": "us-m1-platoon", "side": "us", "hex": "B1010",
                      "status": {"steps": 1, "spotted": True}},
                     {"id": "t80", "card": "su-t80-platoon", "side": "soviet", "hex": "B1012", "facing": 0,
                      "status": {"spotted": True}}]}
    doc.update(kw)
    return Position.model_validate(doc)


def test_state_from_position(index):
    """Positions set counters, steps, spotted state, phase and side to act; the fire phase offers the M-1's fire."""
    g = game_of(index)
    state = g.state_from_position(_position(extension={"force_levels": {"us": 4}}))
    assert (state.turn, state.phase_id(), state.current_player()) == (2, "us-fire", 1)
    m1 = next(c for c in state.counters if c.id == "m1")
    assert (m1.steps, m1.spotted, state.force_level[1]) == (1, True, 4)
    assert "fire m1 KP t80" in state.legal_actions()


@pytest.mark.parametrize("change, pointer", [
    ({"hex": "B9999"}, "/units/0/hex"),
    ({"status": {"damage": 1}}, "/units/0/status"),
    ({"status": {"steps": 3}}, "/units/0/status/steps"),
    ({"facing": 7}, "/units/0/facing"),
])
def test_position_errors_point_at_the_value(index, change, pointer):
    from studio.rules.position import PositionError

    pos = _position()
    unit = pos.units[0].model_copy(update=change)
    bad = pos.model_copy(update={"units": [unit, pos.units[1]]})
    with pytest.raises(PositionError) as err:
        game_of(index).state_from_position(bad)
    assert err.value.pointer == pointer
