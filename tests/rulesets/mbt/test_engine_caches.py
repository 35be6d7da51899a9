"""Every cache of the MBT engine and its heuristic bot gives what the uncached computation gives (issue 19):
random playouts replayed with ``MbtState.caching`` off see the same legal actions and the same fingerprints, the
heuristic bot plays the same games, and the compiled step costs equal the rules' costs for every hex pair."""
from __future__ import annotations

import random

import pytest

from studio.hexgrid.coords import neighbour
from studio.rulesets.mbt.engine.state import MbtState
from studio.sim.runner import play_game

from .engine_fixtures import new_game, place


def _trace(game, seed: int, steps: int) -> tuple[list, list, list]:
    """A random playout: the actions, the legal actions before each and the fingerprint after each."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    actions, legal_seen, prints = [], [], []
    while not state.is_terminal() and len(actions) < steps:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        legal_seen.append([str(a) for a in legal])
        state.apply(action)
        actions.append(action)
        prints.append(state.fingerprint())
    return actions, legal_seen, prints


def _replay(game, seed: int, actions) -> tuple[list, list]:
    state = game.new_initial_state(seed)
    legal_seen, prints = [], []
    for action in actions:
        legal_seen.append([str(a) for a in state.legal_actions()])
        state.apply(action)
        prints.append(state.fingerprint())
    return legal_seen, prints


@pytest.mark.parametrize("scenario", ["meeting-engagement", "hasty-defense", "delaying-action"])
def test_random_playouts_are_the_same_without_caches(scenario, monkeypatch):
    game = new_game(scenario)
    for seed in range(3):
        actions, legal, prints = _trace(game, seed, 4000)
        assert len(actions) > 200
        with monkeypatch.context() as m:
            m.setattr(MbtState, "caching", False)
            legal2, prints2 = _replay(game, seed, actions)
        assert legal2 == legal and prints2 == prints


@pytest.mark.parametrize("scenario", ["meeting-engagement", "delaying-action"])
def test_heuristic_games_are_the_same_without_caches(scenario, monkeypatch):
    """The bot's caches (plans per game, shot values per decision) and the engine's change no choice."""
    game = new_game(scenario)
    cached = [play_game(game, seed, ["heuristic", "heuristic"]) for seed in range(2)]
    again = [play_game(game, seed, ["heuristic", "heuristic"]) for seed in range(2)]  # plans now remembered
    with monkeypatch.context() as m:
        m.setattr(MbtState, "caching", False)
        plain = [play_game(game, seed, ["heuristic", "heuristic"]) for seed in range(2)]
    for (a, _), (b, _), (c, _) in zip(cached, again, plain):
        assert a.error is None and a.steps > 100
        assert (a.final_hash, a.steps) == (b.final_hash, b.steps) == (c.final_hash, c.steps)


def test_compiled_step_costs_equal_the_rules(monkeypatch):
    """``xc_static`` and ``xc_steps`` (compiled once per game and traction) against the uncached rules, every hex
    and direction, forward and reverse, for a tracked and a wheeled vehicle (MBT 4.5.1.1.2, 4.5.1.1.7)."""
    game = new_game("meeting-engagement")
    state = place(game, 0, {"M1": (0, "m1", "2C5", 2), "BRDM": (1, "brdm-2-at5", "4K5", 5)})
    by_traction = {u.type.traction: i for i, u in enumerate(game.units)}
    assert sorted(by_traction) == ["t", "w"]
    cached = {}
    for tr, i in by_traction.items():
        table = state.xc_steps(i)
        for h in game.hexes:
            for f in range(6):
                b = neighbour(h, f)
                for rev in (False, True):
                    cached[(tr, h, f, rev)] = state.step_cost(i, h, b, rev) if b in game.map.label_of else None
                assert table[h][f][1] == (cached[(tr, h, f, False)])
    with monkeypatch.context() as m:
        m.setattr(MbtState, "caching", False)
        for (tr, h, f, rev), c in cached.items():
            b = neighbour(h, f)
            plain = state.step_cost(by_traction[tr], h, b, rev) if b in game.map.label_of else None
            assert plain == c, (tr, h, f, rev)
    assert any(c is None for c in cached.values()) and len({c for c in cached.values()}) > 3


def test_observation_is_built_when_first_read_and_never_from_a_later_state():
    """The lazy view (issue 19: the random bot never reads it) is the eager one; read after the state moved on
    it refuses instead of showing the later state."""
    game = new_game("meeting-engagement")
    state = game.new_initial_state(3)
    for _ in range(40):
        state.apply(state.legal_actions()[-1])
    view = state.observation(1)
    assert view._view is None                                    # nothing built yet
    assert view.fingerprint() == state.observe(1).fingerprint()  # built on first read, the same view
    assert view.materialize() is view.materialize()
    unread = state.observation(0)
    state.apply(state.legal_actions()[0])
    with pytest.raises(RuntimeError, match="another action"):
        unread.fingerprint()


def test_bucket_path_search_is_the_heap_search():
    """The heuristic's path search by distance buckets settles the same nodes in the same order, with the same
    predecessors and one-hex exception, as the plain heap Dijkstra, from every hex and facing of a board strip
    (allowances of both cards, Brew-Up Smoke in the way)."""
    from studio.rulesets.mbt import bots

    game = new_game("meeting-engagement")
    state = place(game, 0, {"M1": (0, "m1", "2C5", 2), "BRDM": (1, "brdm-2-at5", "4K5", 5)})
    state.wreck[game.map.hex("2E5")] = 2
    smoke = frozenset(h for h, w in state.wreck.items() if w == 2)
    checked = 0
    for i in range(game.n):
        state._begin_move(i)
        steps = bots._table_steps(state.xc_steps(i), smoke, game.tables.bu_move_cost)
        for h in sorted(game.hexes)[::19]:
            for f in range(6):
                a = bots._search(state, i, (h, f), steps)
                b = bots._heap_search(state, (h, f), steps)
                assert a == b and list(a[0]) == list(b[0]), (i, h, f)
                checked += len(a[0])
        state.mv_u = -1
    assert checked > 3_000


def _crowded(per_side: int):
    """A game with ``per_side`` vehicles a side in two blocks of the meeting-engagement boards, up to four a hex
    (stacks, many shooters and targets: the situations the per-game fire rows, the Direct Fire actions kept
    through the announcements, the Brew-Up Smoke line walk and the spotting by target hex serve)."""
    game = new_game("meeting-engagement")
    m = game.map
    west = [h for h in sorted(m.label_of) if 12 <= m.offset(h)[0] <= 13 and 4 <= m.offset(h)[1] <= 8]
    east = [h for h in sorted(m.label_of) if 20 <= m.offset(h)[0] <= 21 and 4 <= m.offset(h)[1] <= 8]
    units = {}
    for side, hexes, cards in ((0, west, ("m1", "m2a1", "m1", "m901a1")), (1, east, ("t-80bv", "bmp-2", "t-72a"))):
        for k in range(per_side):
            units[f"s{side}u{k}"] = (side, cards[k % len(cards)], m.label_of[hexes[(k // 4) % len(hexes)]],
                                     (1, 4)[side])
    place(game, 0, units)
    return game


def test_crowded_random_playouts_are_the_same_without_caches(monkeypatch):
    """24 vehicles a side, four to a hex: every legal action list and fingerprint of random playouts is the one
    computed without caches (fire rows by geometry, Direct Fire actions per announcing side, Brew-Up Smoke along
    the remembered line, spotting by target hex, over-stacking)."""
    game = _crowded(24)
    seen_smoke = seen_stack = 0
    for seed in (0,):
        actions, legal, prints = _trace(game, seed, 1500)
        assert len(actions) > 500
        with monkeypatch.context() as m:
            m.setattr(MbtState, "caching", False)
            legal2, prints2 = _replay(game, seed, actions)
        assert legal2 == legal and prints2 == prints
        state = game.new_initial_state(seed)
        for action in actions:
            state.apply(action)
            seen_smoke += any(w == 2 for w in state.wreck.values())
            seen_stack += any(state.overstacked(h) for h in set(state.hex) if h)
    assert seen_smoke > 20 and seen_stack > 0  # the playouts reached smoke and over-stacked hexes


def test_fire_rows_and_smoke_counts_equal_the_rules(monkeypatch):
    """``fire_options`` (rows remembered by unit type, hex and facing) and ``brewup_on_line`` (the line's hexes
    remembered) against the uncached rules for every shooter and target of states along a random playout."""
    game = _crowded(12)
    rng = random.Random(5)
    state = game.new_initial_state(5)
    checked = 0
    while not state.is_terminal() and checked < 4000:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        if rng.random() < 0.9:
            continue
        everyone = list(range(game.n))
        cached = [state.fire_options(s, everyone) for s in everyone]
        smoke = [state.brewup_on_line(state.hex[a], state.hex[b]) for a in everyone[::3] for b in everyone[1::3]
                 if state.hex[a] and state.hex[b]]
        with monkeypatch.context() as m:
            m.setattr(MbtState, "caching", False)
            assert cached == [state.fire_options(s, everyone) for s in everyone]
            assert smoke == [state.brewup_on_line(state.hex[a], state.hex[b]) for a in everyone[::3]
                             for b in everyone[1::3] if state.hex[a] and state.hex[b]]
        checked += sum(map(len, cached))
    assert checked > 1000


@pytest.mark.parametrize("scenario", ["meeting-engagement", "delaying-action"])
def test_los_rows_judged_at_once_equal_the_pair_test(scenario, monkeypatch):
    """``MbtLos.clear`` judges a hex's whole row at once (``visibility``) after a few pairs from it; every answer,
    asked in a random order of hex pairs, is the one of the pair test alone (rows off: ``ROW_AFTER`` huge)."""
    from studio.rulesets.mbt.engine import los as los_module

    import copy

    rng = random.Random(11)
    rows = new_game(scenario).los
    plain = copy.copy(rows)
    plain.cache, plain.row_misses = {}, {}
    hexes = sorted(rows.grid.label_of)
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(2000)]
    pairs += [(hexes[7], b) for b in hexes] + [(b, hexes[-9]) for b in hexes]  # two whole rows, both ways round
    answers = [rows.clear(a, b) for a, b in pairs]
    with monkeypatch.context() as m:
        m.setattr(los_module, "ROW_AFTER", 10 ** 9)
        assert answers == [plain.clear(a, b) for a, b in pairs]
    assert len(rows.cache) > 5 * len(plain.cache)  # rows were judged at once
    assert 0 < sum(answers) < len(answers)
