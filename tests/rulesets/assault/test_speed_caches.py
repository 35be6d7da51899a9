"""The Assault engine's caches (``studio/rulesets/assault/engine/caches.py``, issue 19) give the uncached answers:
seeded random games played in lockstep by a game with its caches on and one with them off
(``AssaultGame.caches = False``) have the same legal actions at every step and the same fingerprint (checked every
few steps and at the end), and so the same actions and results. The normal run plays two turns of each scenario;
``-m slow`` plays whole games under several option sets."""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import pytest

from studio.rules.load import load_game
from studio.rulesets.assault.engine.game import create_game

DATA = Path(__file__).resolve().parents[3] / "data"


@lru_cache(maxsize=None)
def _loaded(name: str, options: tuple):
    return load_game(name, DATA, options=dict(options))


def pair(name: str, options: dict | None = None, turns: int | None = None):
    """The same scenario compiled twice: caches on, caches off (``turns``: a shorter game). They share the LOS
    graph cache of the static map (``los_cache``, not under test here), so the test does not trace it twice."""
    loaded = _loaded(name, tuple(sorted((options or {}).items())))
    on, off = (create_game(loaded.scenario, loaded.index, loaded.options) for _ in range(2))
    off.caches = False
    off.los_cache, off.seen_from, off.lines, off.spines = on.los_cache, on.seen_from, on.lines, on.spines
    for g in (on, off):
        g.max_turns = turns or g.max_turns
    return on, off


def meeting():
    return _loaded("assault-meeting", ()).game


def movement_state(game, seed: int = 1):
    """A state of the first movement phase (the artillery phase ended)."""
    state = game.new_initial_state(seed)
    while not state.phase_id().endswith("move-1"):
        state.apply("end")
    return state


def lockstep(on, off, seed: int, every: int = 10, max_steps: int = 10 ** 6) -> int:
    """Play one random game with both (at most ``max_steps`` steps); assert the same legal actions each step and
    fingerprints every ``every`` steps and at the end; returns the steps played."""
    a, b = on.new_initial_state(seed), off.new_initial_state(seed)
    rng = random.Random(seed)
    steps = 0
    while not a.is_terminal() and steps < max_steps:
        legal = a.legal_actions()
        assert legal == b.legal_actions(), f"step {steps}: legal actions differ"
        action = legal[rng.randrange(len(legal))]
        a.apply(action)
        b.apply(action)
        steps += 1
        if steps % every == 0:
            assert a.fingerprint() == b.fingerprint(), f"step {steps} ({action}): states differ"
    assert b.is_terminal() == a.is_terminal() and a.fingerprint() == b.fingerprint()
    assert a.outcome() == b.outcome()
    return steps


@pytest.mark.parametrize("name", ["assault-meeting", "assault-probe"])
def test_caches_give_the_uncached_legal_actions_and_results(name):
    on, off = pair(name, turns=1)
    assert lockstep(on, off, seed=7, max_steps=160) > 100
    assert on.entry_cells and not off.entry_cells              # the cache was used by one, not by the other


def test_an_edited_terrain_effects_row_empties_the_entry_cache():
    """Compiled tables edited in place (as tests do) are read again: the per-game entry cells are refilled."""
    on, _ = pair("assault-meeting")
    state = movement_state(on)
    before = state.legal_actions()
    filled = on.entry_cells
    assert filled and any(a.startswith("move ") for a in before)
    for row in on.effects.values():
        row.update({k: "P" for k in row if k.endswith(("_march", "_combat"))})
        row["leg_roll"] = None
    assert not any(a.startswith("move ") for a in state.legal_actions())
    assert on.entry_cells is not filled


def test_a_decision_cache_lives_for_one_call_only():
    """Nothing of the per-decision cache stays on the state (it is not part of it: fingerprint, clone)."""
    state = movement_state(meeting())
    assert state.legal_actions()
    assert "_deciding" not in vars(state) and state._decision() is None


def test_a_lazy_observation_is_built_on_first_read_and_refused_when_stale():
    state = meeting().new_initial_state(1)
    view = state.observation(0)
    assert view._view is None                                  # nothing built yet
    assert view.turn == state.turn and view._view is not None
    late = state.observation(1)
    state.apply(state.legal_actions()[0])
    with pytest.raises(RuntimeError, match="another action"):
        late.counters


@pytest.mark.slow
@pytest.mark.parametrize("name", ["assault-meeting", "assault-probe"])
@pytest.mark.parametrize("options", [{}, {"c21-los-spine": "both", "c22-autospot-range": "max-range",
                                          "c16-unused-ops": "carry", "ammo-supply": "limited"},
                                     {"c18-leg-roll-fail": "retry", "c26-opp-fire-spotted": "in-los",
                                      "c2-fire-resolution": "sequential", "c13-smoke-removal": "adjust-first"}])
def test_whole_games_with_caches_and_without(name, options):
    on, off = pair(name, options)
    for seed in range(3):
        lockstep(on, off, seed, every=1)
