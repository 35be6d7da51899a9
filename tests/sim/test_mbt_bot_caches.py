"""The MBT heuristic bot's caches change no choice (issue 19): at every decision of heuristic games on the sample
scenarios and on a generated 16-vs-16 position, a bot with the caches (plans and best ends per game, shot values
per place epoch and per action, the macro move continued from the legal actions alone) chooses what a twin bot
chooses with ``MbtState.caching`` off (everything computed afresh from the observation it is given)."""
from __future__ import annotations

from pathlib import Path

import pytest

from studio.rules.load import load_game
from studio.rules.position import load_position
from studio.rulesets.mbt.bots import HeuristicBot
from studio.rulesets.mbt.engine.state import MbtState

DATA = Path(__file__).resolve().parents[2] / "data"
US, SOV = ("m1", "m2a1", "m1", "m901a1"), ("t-80bv", "bmp-2", "t-72a", "bmp-1")


def generated(per_side: int):
    """``per_side`` vehicles a side in two blocks on the meeting-engagement boards (up to 2 a hex)."""
    game = load_game(DATA / "scenarios" / "mbt" / "meeting-engagement.yaml", DATA).game
    m = game.map
    blocks = [[m.label_of[h] for h in sorted(m.label_of) if lo <= m.offset(h)[0] <= lo + 3 and
               3 <= m.offset(h)[1] <= 10] for lo in (10, 26)]
    units = [{"id": f"{side}{k}", "card": cards[k % len(cards)], "side": side, "hex": hexes[k % len(hexes)]}
             for side, hexes, cards in (("us", blocks[0], US), ("sov", blocks[1], SOV)) for k in range(per_side)]
    position = {"kind": "position", "scenario": "meeting-engagement", "turn": 1, "phase": "spotting",
                "units": units}
    return load_position(position, DATA).as_loaded().game


def twin_game(game, seed: int, monkeypatch) -> tuple[int, int]:
    """Play ``game`` with cached bots, asking an uncached twin at every decision; (decisions, shots chosen)."""
    cached = [HeuristicBot(game, side, seed + side) for side in (0, 1)]
    plain = [HeuristicBot(game, side, seed + side) for side in (0, 1)]
    state = game.new_initial_state(seed)
    decisions = shots = 0
    while not state.is_terminal():
        player, legal = state.current_player(), state.legal_actions()
        choice = cached[player].choose(state.observation(player), legal)
        with monkeypatch.context() as m:
            m.setattr(MbtState, "caching", False)
            twin = plain[player].choose(state.observation(player), legal)
        assert choice == twin, (state.turn, state.phase_id(), str(choice), str(twin))
        decisions += 1
        shots += choice[0] in ("fire", "ow")
        state.apply(choice)
    return decisions, shots


@pytest.mark.parametrize("scenario", ["meeting-engagement", "hasty-defense", "delaying-action"])
def test_cached_bot_chooses_what_the_uncached_bot_chooses_on_the_samples(scenario, monkeypatch):
    game = load_game(DATA / "scenarios" / "mbt" / f"{scenario}.yaml", DATA).game
    decisions, shots = twin_game(game, 3, monkeypatch)
    assert decisions > 200 and shots > 0


def test_cached_bot_chooses_what_the_uncached_bot_chooses_16_vs_16(monkeypatch):
    """Many shooters and targets: the shot values are reused across the Command Phase and the announcements."""
    game = generated(16)
    total = shots = 0
    for seed in (1, 2):
        decisions, fired = twin_game(game, seed, monkeypatch)
        total, shots = total + decisions, shots + fired
    assert total > 1000 and shots > 20


def test_a_stale_shot_value_would_be_caught(monkeypatch):
    """The twin comparison can fail: a bot that keeps its shot values for the whole game (after the vehicles
    moved) chooses differently from the uncached bot."""
    import studio.rulesets.mbt.bots as bots

    monkeypatch.setattr(bots, "_place_epoch", lambda state: ())
    monkeypatch.setattr(bots, "_epoch", lambda state: ())
    game = generated(16)
    with pytest.raises(AssertionError):
        for seed in (1, 2, 3):
            twin_game(game, seed, monkeypatch)


def test_a_subclass_valuing_shots_its_own_way_is_asked_every_time():
    """The per-action memo belongs to the Basic shot value: a subclass with its own ``shot_value`` (the Advanced
    Game bot) is asked at every decision, so values that follow facts the Basic epoch ignores are never stale."""

    class Fickle(HeuristicBot):
        prefer = 0

        def shot_value(self, state, s, t, row, overwatch):
            return 1.0 if t == self.prefer else 0.5

    game = generated(16)
    state = game.new_initial_state(1)
    bots = [HeuristicBot(game, side, side) for side in (0, 1)]
    while not (state.legal_actions()[0][0] == "fire" and
               len({a[2] for a in state.legal_actions() if a[0] == "fire"}) > 1):
        player = state.current_player()
        state.apply(bots[player].choose(state.observation(player), state.legal_actions()))
    legal, player = state.legal_actions(), state.current_player()
    fickle = Fickle(state.game, player, 0)  # a position's states have their own game
    for target in sorted({a[2] for a in legal if a[0] == "fire"}):
        fickle.prefer = state.game.uindex[target]
        assert fickle.choose(state.observation(player), legal)[2] == target


def test_compiled_moves_search_is_the_heap_search():
    """The path search over the per-game compiled moves (smoke-free, and with Brew-Up Smoke sharing the smoke-
    free hexes and, between smoke sets, the hexes next to the same smoke) settles what the plain heap Dijkstra
    over the rules' step table settles, from every 7th hex and every facing, with the same insertion order."""
    from studio.rulesets.mbt import bots

    state = generated(16).new_initial_state(0)
    game = state.game
    i = next(k for k in range(game.n) if state.st[k] == 1)
    state._begin_move(i)
    table = state.xc_steps(i)
    traction = game.units[i].type.traction
    checked = 0
    some = frozenset(sorted(game.hexes)[40:400:23])
    for smoke in (frozenset(), some, some | frozenset(sorted(game.hexes)[41:400:29])):  # the last shares hexes
        moves = bots._compiled_moves(state, i, traction, smoke)
        steps = bots._table_steps(table, smoke, game.tables.bu_move_cost)
        for h in sorted(game.hexes)[::7]:
            for f in range(6):
                a = bots._search(state, i, (h, f), moves.steps, moves)
                b = bots._heap_search(state, (h, f), steps)
                assert a == b and list(a[0]) == list(b[0]), (h, f, len(smoke))
                checked += len(a[0])
    assert checked > 30_000


@pytest.mark.parametrize("scenario", ["meeting-engagement", "hasty-defense", "delaying-action", "16v16"])
def test_remembered_outcome_is_the_outcome_after_every_action(scenario, monkeypatch):
    """``MbtState.outcome()`` remembered by what the victory conditions read (asked after every action by the
    casualty tracker) equals the outcome computed afresh, after every action of random playouts."""
    import random

    game = generated(16) if scenario == "16v16" else \
        load_game(DATA / "scenarios" / "mbt" / f"{scenario}.yaml", DATA).game
    changes = 0
    for seed in (0, 1):
        rng, state = random.Random(seed), game.new_initial_state(seed)
        last = None
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            remembered = state.outcome()
            again = state.outcome()
            with monkeypatch.context() as m:
                m.setattr(MbtState, "caching", False)
                fresh = state.outcome()
            assert remembered == again == fresh, (state.turn, state.phase_id())
            changes += last is not None and fresh != last
            last = fresh
    assert changes > 0
