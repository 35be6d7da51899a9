"""The legal-action listing cache (engine/cache.py, issue 19) against the uncached computation: on random and
heuristic playouts of every sample scenario the cached listing equals the uncached one at every decision, and a
game played with the cache is the game played without it (same actions, same fingerprints, same outcome)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from studio.rules.load import load_game
from studio.rulesets.waw.engine.actions import Action
from studio.rulesets.waw.engine.cache import ListingCache

DATA = Path(__file__).resolve().parents[3] / "data"
SCENARIOS = ["waw-crossroads", "waw-hill-fight", "waw-lab"]


def _game(name):
    return load_game(DATA / "scenarios" / "waw" / f"{name}.yaml", DATA).game


def _texts(actions):
    return [str(a) for a in actions]


def _playout(game, seed: int, cached: bool, check: bool = False, bots=None):
    """Play one game; returns (actions, fingerprints, outcome, listings that reused a cached list)."""
    st = game.new_initial_state(seed)
    rng = random.Random(seed)
    played, prints = [], []
    while not st.is_terminal():
        legal = st.legal_actions() if cached else st.legal_actions_uncached()
        if check:
            assert _texts(legal) == _texts(st.legal_actions_uncached()), (seed, st.steps, st.pending)
        obs_player = st.current_player()
        a = bots[obs_player].choose(st.observation(obs_player), legal) if bots else legal[rng.randrange(len(legal))]
        played.append(str(a))
        st.apply(a)
        prints.append(st.fingerprint())
    return played, prints, st.outcome()


@pytest.mark.parametrize("name", SCENARIOS)
def test_cached_listing_equals_uncached_on_random_playouts(name):
    game = _game(name)
    for seed in range(3):
        _playout(game, seed, cached=True, check=True)


@pytest.mark.parametrize("name", ["waw-crossroads", "waw-lab"])
def test_cached_listing_equals_uncached_on_heuristic_games(name):
    game = _game(name)
    bots = [game.make_bot("heuristic", s, 7 + s) for s in (0, 1)]
    _playout(game, 11, cached=True, check=True, bots=bots)


@pytest.mark.parametrize("name", SCENARIOS)
def test_same_seed_same_game_with_and_without_cache(name):
    game = _game(name)
    for seed in (3, 4):
        assert _playout(game, seed, cached=True) == _playout(game, seed, cached=False)


def test_cache_is_used_and_fresh_for_clones_and_views():
    game = _game("waw-crossroads")
    st = game.new_initial_state(1)
    rng = random.Random(0)
    reused = 0
    while not st.is_terminal() and st.steps < 120:
        before = {u: e for u, e in st._lc.moves.items()}
        legal = st.legal_actions()
        reused += sum(1 for u, e in st._lc.moves.items() if before.get(u) is not None and before[u][1] is e[1])
        st.apply(legal[rng.randrange(len(legal))])
    assert reused > 50                         # lists are really kept between listings
    assert st.clone()._lc is not st._lc and not st.clone()._lc.moves
    assert st.observation(0)._lc is not st._lc


def test_direct_write_invalidates():
    """A write the engine did not make (a test moving a unit) is seen by the next listing: the listing compares
    every unit's signature, whatever changed it."""
    game = _game("waw-crossroads")
    st = game.new_initial_state(2)
    rng = random.Random(2)
    while st.pending[0] != "ops":
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    first = _texts(st.legal_actions())
    movers = [a for a in st.legal_actions() if a.kind == "move"]
    assert movers
    u = game.by_uid[movers[0].unit]
    enemy = next(e for e in range(len(game.units)) if game.units[e].side != game.units[u].side
                 and st.hex[e] is not None and not game.units[e].is_hq and st.carrier[e] < 0)
    target = game.map.hex_of[movers[0].hex]
    st.hex[enemy] = target                     # an enemy now stands where the unit would step
    after = _texts(st.legal_actions())
    assert str(movers[0]) in first and str(movers[0]) not in after
    assert after == _texts(st.legal_actions_uncached())


def test_listing_cache_scan_limit_recomputes():
    lc = ListingCache()
    lc.log = [(0, None, None, True)] * 100
    lc.sides = [0, 0]
    lc.moves[1] = (0, [Action("end")])

    class S:
        hex = [None, (0, 0)]
        disr = [False, False]
    assert lc.get(lc.moves, 1, S) is None          # too many changes to scan: recompute
    lc.moves[1] = (99, [Action("end")])
    lc.log[99] = (0, (5, 5), (6, 6), True)
    assert lc.get(lc.moves, 1, S) is not None      # a far friendly change keeps the move list
    lc.log[99] = (0, (1, 0), (6, 6), True)
    lc.moves[1] = (99, [Action("end")])
    assert lc.get(lc.moves, 1, S) is None          # ... a near one does not


@pytest.mark.parametrize("name", ["waw-crossroads", "waw-hill-fight"])
def test_bot_memo_makes_the_same_choices(name, monkeypatch):
    """The heuristic bot's per-decision answers (goal, targets, shot values, exposure) change no choice."""
    from studio.rulesets.waw.bots import HeuristicBot

    game = _game(name)

    def play(memo):
        monkeypatch.setattr(HeuristicBot, "memo", memo)
        bots = [game.make_bot("heuristic", s, 3 + s) for s in (0, 1)]
        return _playout(game, 5, cached=True, bots=bots)
    assert play(True) == play(False)
