"""Issue 19: the Battlefield Ops! observation is built when first read (the random bot never reads it). On random
playouts the lazy view answers exactly as the observation built at once (fingerprints, legal actions, the
heuristic bot's choice), and reading it after its state moved on is refused."""
from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from studio.rules.load import load_game
from studio.rulesets.bfops.bots import HeuristicBot
from studio.rulesets.bfops.engine.hidden import observe

DATA = Path(__file__).resolve().parents[3] / "data"


@functools.lru_cache(maxsize=None)
def _game(name="bfops-meeting-at-the-ford"):
    return load_game(DATA / "scenarios" / "bfops" / f"{name}.yaml", DATA).game


@pytest.mark.parametrize("name", ["bfops-meeting-at-the-ford", "bfops-village-defence"])
def test_lazy_observation_equals_the_observation_built_at_once(name):
    game = _game(name)
    s = game.new_initial_state(3)
    rng = random.Random(3)
    steps = 0
    while s.legal_actions() and steps < 60:
        p = s.current_player()
        lazy, eager = s.observation(p), observe(s, p)
        assert lazy.fingerprint() == eager.fingerprint()
        assert [str(a) for a in lazy.legal_actions()] == [str(a) for a in eager.legal_actions()]
        assert {u.id for u in lazy.units} == {u.id for u in eager.units}
        if steps % 5 == 0:
            legal = s.legal_actions()
            assert HeuristicBot(game, p, 1).choose(s.observation(p), legal) == \
                HeuristicBot(game, p, 1).choose(observe(s, p), legal)
        s.apply(rng.choice(s.legal_actions()))
        steps += 1
    assert steps == 60


def test_an_observation_read_after_its_state_moved_on_is_refused():
    s = _game().new_initial_state(0)
    view = s.observation(s.current_player())
    s.apply(s.legal_actions()[0])
    with pytest.raises(RuntimeError, match="applied another action"):
        view.units
    fresh = s.observation(s.current_player())
    assert fresh.turn == s.turn                      # a new one reads the state as it is now


def test_an_observation_read_before_the_state_moves_on_keeps_its_view():
    s = _game().new_initial_state(0)
    view = s.observation(0)
    seen = view.fingerprint()
    s.apply(s.legal_actions()[0])
    assert view.fingerprint() == seen               # built before: the view of that moment, not refused
