"""The legal-action listing cache (engine/cache.py, issue 19) against the uncached computation: on random and
heuristic playouts of every sample scenario the cached listing equals the uncached one at every decision, and a
game played with the cache is the game played without it (same actions, same fingerprints, same outcome)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from studio.hexgrid.coords import distance
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


def test_cache_is_used_and_fresh_for_clones_and_shared_with_views():
    game = _game("waw-crossroads")
    st = game.new_initial_state(1)
    rng = random.Random(0)
    reused = 0
    while not st.is_terminal() and st.steps < 120:
        before = dict(st._lc.moves)
        legal = st.legal_actions()
        reused += sum(1 for u, e in st._lc.moves.items() if before.get(u) is e)
        st.apply(legal[rng.randrange(len(legal))])
    assert reused > 50                         # lists are really kept between listings
    assert st.clone()._lc is not st._lc and not st.clone()._lc.moves
    assert st.observation(0)._lc is st._lc     # the view reads the same unit lists: it shares the cache


def _base_keys(occ):
    """The occupancy without the derived per-side lists (those are made on demand)."""
    return {k: v for k, v in occ.items() if not (type(k) is tuple and k[0] in ("alive", "targets"))}


@pytest.mark.parametrize("name", SCENARIOS)
def test_kept_occupancy_equals_a_fresh_one_on_random_playouts(name):
    """The occupancy moved unit by unit between listings is the one built from scratch (units per hex and per
    hex and side in unit order, ground and stacking counts); the kept per-side lists equal fresh ones."""
    from studio.rulesets.waw.engine.cache import build_occupancy

    game = _game(name)
    for seed in range(2):
        st = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            occ = st._lc.occ
            if occ is not None and st.pending[0] in ("ops", "opfire"):
                fresh = build_occupancy(st)
                assert _base_keys(occ) == {k: v for k, v in fresh.items() if v or type(v) is set}, (seed, st.steps)
                for key, hit in occ.items():
                    if type(key) is tuple and key[0] == "alive":
                        assert hit == [i for i in range(len(game.units)) if st.strength[i] < 2
                                       and st.hex[i] is not None and key[1] in (None, game.units[i].side)]
                    elif type(key) is tuple and key[0] == "targets":
                        assert hit == st._targets_of_side(key[1])
            st.apply(legal[rng.randrange(len(legal))])


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


class _Units:
    """A bare state record for the invalidation rules: two units a side on a small map."""

    def __init__(self, game, hexes, disr=None):
        self.game = game
        n = len(hexes)
        self.hex, self.disr = list(hexes), list(disr or [False] * n)
        self.strength, self.carrier, self.hover = [0] * n, [-1] * n, [False] * n
        for name in ("ops_complete", "out_of_command", "mfired", "mode_changed", "acted", "fresh", "locked",
                     "one_hex"):
            setattr(self, name, [False] * n)
        for name in ("mp_used", "depleted", "heli_moves", "breakdown"):
            setattr(self, name, [0] * n)
        self.mp_cap = [None] * n
        self.thor, self.smoke, self.wrecks, self.chem, self.xleaders = 0, {}, set(), set(), {}
        self.hallowed, self.overrun_done = set(), set()


def _bare_game(sides):
    from types import SimpleNamespace

    from studio.rulesets.waw.engine.game import _within

    hexes = {(q, r) for q in range(12) for r in range(12)}
    n = len(sides)
    return SimpleNamespace(side_of=list(sides), ground_unit=[True] * n, stacking_unit=[True] * n, near_pair={},
                           within1={h: _within(h, 1, hexes) for h in hexes},
                           ring2={h: [x for x in _within(h, 2, hexes) if x not in _within(h, 1, hexes)]
                                  for h in hexes})


def _filled(lc, n):
    for table in (lc.moves, lc.fire, lc.close, lc.popup):
        for u in range(n):
            lc.put(table, u, [Action("end")])


def test_invalidation_rules_on_a_bare_record():
    """Own change: all lists; a change within 1 hex: move lists, within 2: close lists; an enemy's target field:
    the fire and Pop-Up lists of its enemies and the move lists of their Disrupted units; a friendly far change
    or an enemy's Ops Complete: nothing else."""
    game = _bare_game([0, 0, 1, 1])
    st = _Units(game, [(2, 2), (8, 8), (2, 5), (10, 10)], disr=[False, True, False, False])
    lc = ListingCache()
    lc.refresh(st)

    def kept(table):
        return {x for x in range(4) if lc.get(table, x, st) is not None}
    _filled(lc, 4)
    st.hex[2] = (2, 3)                          # enemy 2: next to unit 0, far from 1 and 3
    lc.refresh(st)
    assert kept(lc.moves) == {3}                # 0 within 1, 1 Disrupted (6.1.7), 2 its own
    assert kept(lc.close) == {1, 3}             # 0 within 2
    assert kept(lc.fire) == kept(lc.popup) == {3}   # its enemies' fire (0, 1) and its own
    _filled(lc, 4)
    st.ops_complete[3] = True                   # an enemy only became Ops Complete: its own lists only
    lc.refresh(st)
    assert kept(lc.moves) == kept(lc.fire) == kept(lc.close) == {0, 1, 2}
    _filled(lc, 4)
    st.hex[1] = (8, 9)                          # unit 1 steps, 3+ hexes from everyone: its own lists and
    lc.refresh(st)                              # the fire lists of its enemies
    assert kept(lc.moves) == kept(lc.close) == {0, 2, 3} and kept(lc.fire) == {0}
    _filled(lc, 4)
    st.ops_complete[1] = True                   # (0, 2) -> (2, 4) is 2 hexes from unit 0 at (2, 2)
    st.mp_used[1] = 1
    st.hex[1] = (2, 4)
    lc.refresh(st)
    assert 0 in kept(lc.moves) and 0 not in kept(lc.close) and 0 in kept(lc.fire)   # 2 hexes off: close only
    lc.put(lc.calls, 0, [Action("end")], key=(0, (2, 1)))
    assert lc.get(lc.calls, 0, st, (0, (2, 1))) is not None
    assert lc.get(lc.calls, 0, st, (1, (1, 1))) is None    # a call made since: the artillery list is asked anew
    st.hex[2] = (2, 4)                          # an enemy moved: the calls on enemy hexes are stale
    lc.refresh(st)
    assert lc.get(lc.calls, 0, st, (0, (2, 1))) is None
    st.smoke[(5, 5)] = 2                        # a global marker: every list
    lc.refresh(st)
    assert not (kept(lc.moves) or kept(lc.fire) or kept(lc.close) or kept(lc.popup))


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


@pytest.mark.parametrize("name", ["waw-crossroads", "waw-lab"])
def test_bot_offered_shots_make_the_same_choices(name, monkeypatch):
    """Reading "can it shoot from here" from the offered fire actions changes no choice (against scanning every
    target)."""
    from studio.rulesets.waw.bots import HeuristicBot

    game = _game(name)

    def play(offered):
        monkeypatch.setattr(HeuristicBot, "offered_shots", offered)
        bots = [game.make_bot("heuristic", s, 5 + s) for s in (0, 1)]
        return _playout(game, 6, cached=True, bots=bots)
    assert play(True) == play(False)


def test_los_answers_with_wrecks_equal_the_full_computation():
    """``Los.clear`` answers a line blocked without Wrecks at once (Wrecks only add to what blocks): the same
    answers as computing every line with its Wreck markers, on random lines and Wreck sets of a sample map."""
    game = _game("waw-crossroads")
    los = game.los
    rng = random.Random(5)
    hexes = game.hexes
    blocked_by_wrecks = 0
    for _ in range(3000):
        a, b = rng.choice(hexes), rng.choice(hexes)
        wrecks = set(rng.sample(hexes, 40)) | set(rng.sample(sorted(los.between(a, b)) or [a], 1))
        la, lb = game.level[a], game.level[b]
        inside = los.between(a, b) & wrecks if la == lb else frozenset()
        assert los.clear(a, b, la, lb, wrecks) == los._compute(a, b, la, lb, inside), (a, b)
        blocked_by_wrecks += los._compute(a, b, la, lb) and not los._compute(a, b, la, lb, inside)
    assert blocked_by_wrecks > 0                # the Wrecks really block some lines


def test_view_dice_are_the_seeded_dice_made_on_first_use():
    """An observation's dice roll, clone and hash as ``Dice.seeded_from`` of the visible position; forced rolls
    need no generator."""
    from studio.rules.dice import Dice

    game = _game("waw-hill-fight")
    st = game.new_initial_state(2)

    def ref():
        return Dice.seeded_from(f"{st.turn}|{st.steps}|{st.pending}|{len(st.cup)}", record=False)
    view = st.observation(0)
    assert view.dice._rng is None and view.dice.fingerprint() == ref().fingerprint()
    same = ref()
    assert [view.dice.roll(6) for _ in range(12)] == [same.roll(6) for _ in range(12)]
    twin, expected = st.observation(1).dice.clone(), ref()
    assert [twin.randrange(50) for _ in range(6)] == [expected.randrange(50) for _ in range(6)]
    forced = st.observation(0).dice
    forced.force(5)
    assert forced.roll(6) == 5 and forced._rng is None and forced.history == []


def _row_matches(st, u) -> bool:
    """Does the compiled step-cost row of ``u``'s hex equal the step-by-step ``_step_cost`` answers?"""
    g = st.game
    h = st.hex[u]
    mt = g.mobility[u][min(st.strength[u], 1)]
    return st._step_costs(u, mt, h) == [st._step_cost(u, mt, h, n) for n in g.nbrs[h]]


@pytest.mark.parametrize("name", SCENARIOS)
def test_compiled_step_cost_rows_equal_step_by_step_costs_on_random_playouts(name):
    game = _game(name)
    st = game.new_initial_state(5)
    rng = random.Random(5)
    checked = 0
    while not st.is_terminal():
        for u, spec in enumerate(game.units):
            if st.hex[u] is not None and st.strength[u] < 2 and not spec.is_heli:
                assert _row_matches(st, u), (name, st.steps, spec.uid)
                checked += 1
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    assert checked > 100


def test_compiled_step_cost_rows_follow_terrain_water_and_chemical():
    g = _game("waw-crossroads")
    st = g.new_initial_state(0)
    u = next(i for i, s in enumerate(g.units) if st.hex[i] is not None and not s.is_heli
             and g.mobility[i][0] not in (None, "towed"))
    h = st.hex[u]
    mt = g.mobility[u][0]
    before = st._step_costs(u, mt, h)
    n = g.nbrs[h][0]
    old = g.terrain.get(n)
    water = sorted(g.water_codes)[0]
    try:
        g.terrain[n] = water                   # a changed code recompiles the row (5.3 water: green MP)
        assert _row_matches(st, u)
        assert st._step_costs(u, mt, h)[0] != before[0] or before[0] in (0.0, None)
    finally:
        g.terrain[n] = old
    assert st._step_costs(u, mt, h) == before
    st.chem = {n}                              # 8.4: Chemical next to the entered hex adds MP
    assert _row_matches(st, u)
    extra = float(g.const("chemical_extra_mp"))
    assert [c for c in st._step_costs(u, mt, h) if c is not None] == [
        c + extra if distance(m, n) <= 1 else c for m, c in zip(g.nbrs[h], before) if c is not None]


def _fire_answers(st, u: int, t: int) -> list:
    """``u``'s fire types and fire numbers of each type at ``t`` in every mode."""
    return [(st._fire_types(u, t, mode), [st.fire_numbers(u, t, fp, mode) for fp in ("ap", "he", "aa")])
            for mode in ("normal", "moving", "opfire")]


@pytest.mark.parametrize("name", SCENARIOS)
def test_compiled_fire_legality_equals_the_computation_on_random_playouts(name):
    """``game.fire_memo`` (fire.py: fire legality before LOS per firer state, target class and distance, kept
    for the whole game): every living unit's fire types and numbers at every target in reach, in every mode,
    equal those computed with an empty memo, at every 4th decision of random playouts."""
    game = _game(name)
    checked = reused = 0
    for seed in (2,):
        st = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            if st.steps % 4 == 0:
                for u in st._alive_scan(None):
                    for t in st._within_reach(u, st.targets_of(u)):
                        before = len(game.fire_memo)
                        kept = _fire_answers(st, u, t)
                        reused += len(game.fire_memo) == before
                        memo, game.fire_memo = game.fire_memo, {}
                        try:
                            assert kept == _fire_answers(st, u, t), (name, seed, st.steps, u, t)
                        finally:
                            game.fire_memo = memo
                        checked += 1
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
    assert checked > 200 and reused > checked // 4     # answers really come from earlier positions
