"""Assault bots (studio/rulesets/assault/bots.py): the heuristic bot plays legal actions from its observation,
fires the shot with the best expected effect, holds fire-ready units in the first movement phase, and beats
the random bot (fast smoke test here; >= 90 % from either side of both sample scenarios under ``-m slow``)."""
from pathlib import Path

import pytest

from studio.model.position import Position
from studio.rules.load import load_game
from studio.sim.bots import bot_names, make_bot

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.fixture(scope="module")
def games():
    return {s: load_game(s, DATA).game for s in ("assault-meeting", "assault-probe")}


def play(game, seed: int, bots: tuple[str, str]):
    """One game through the public API: each bot sees its observation; ``play`` checks every action."""
    state = game.new_initial_state(seed)
    players = [make_bot(name, game, side, seed * 7 + side) for side, name in enumerate(bots)]
    while not state.is_terminal():
        side = state.current_player()
        state.play(players[side].choose(state.observation(side), state.legal_actions()))
    return state.outcome()


def test_bot_names(games):
    assert bot_names(games["assault-meeting"]) == ["random", "heuristic"]


@pytest.mark.parametrize("seat", [0, 1])
def test_heuristic_beats_random_smoke(games, seat):
    bots = ("heuristic", "random") if seat == 0 else ("random", "heuristic")
    assert [play(games["assault-meeting"], seed, bots).winner for seed in (1, 2)] == [seat, seat]


def _state(game, units, phase):
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": game.scenario_id,
                                   "phase": phase, "units": units})
    return game.state_from_position(pos)


def test_best_expected_shot(games):
    """M-1 platoon against a T-80 platoon's flank at range 2: KP (hit 8, penetration 21, never needs a
    confirmation, 13.B.3) is worth more than TP, HE (an AFV is only suppressed, 14.C) or SA."""
    game = games["assault-meeting"]
    units = [{"id": "us", "card": "us-m1-platoon", "side": "us", "hex": "B1010", "status": {"spotted": True}},
             {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "B1012", "facing": 0,
              "status": {"spotted": True}}]
    state = _state(game, units, "us-fire")
    bot = make_bot("heuristic", game, 1, 0)
    legal = state.legal_actions()
    assert {"fire us KP su", "fire us HE su", "fire us TP su"} <= set(legal)
    assert bot.choose(state.observation(1), legal) == "fire us KP su"
    values = {a.split()[2]: bot.shot_value(state.observation(1), *a.split()[1:]) for a in legal if a != "end"}
    assert values["KP"] > values["TP"] and values["KP"] > values["HE"]


def test_holds_fire_ready_units_in_the_first_movement_phase(games):
    """Assault 12.B.4: a unit that moves in its first movement phase cannot fire, so the bot keeps a unit that
    has a spotted enemy in range where it is, and moves the others toward the objective."""
    game = games["assault-meeting"]
    units = [{"id": "us", "card": "us-m1-platoon", "side": "us", "hex": "B1010", "status": {"spotted": True}},
             {"id": "far", "card": "us-m1-platoon", "side": "us", "hex": "B0101"},
             {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "B1012", "status": {"spotted": True}}]
    state = _state(game, units, "us-move-1")
    bot = make_bot("heuristic", game, 1, 0)
    start = {c.id: c.hex for c in state.counters}
    while state.phase_id() == "us-move-1":
        state.play(bot.choose(state.observation(1), state.legal_actions()))
    now = {c.id: c.hex for c in state.counters}
    assert now["us"] == start["us"] and now["far"] != start["far"]


def test_rallies_first(games):
    game = games["assault-meeting"]
    units = [{"id": "us", "card": "us-m1-platoon", "side": "us", "hex": "B0101", "status": {"suppressed": True}},
             {"id": "su", "card": "su-t80-platoon", "side": "soviet", "hex": "B2121"}]
    state = _state(game, units, "us-move-1")
    assert make_bot("heuristic", game, 1, 0).choose(state.observation(1), state.legal_actions()) == "rally us"


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["assault-meeting", "assault-probe"])
@pytest.mark.parametrize("seat", [0, 1])
def test_heuristic_beats_random_90_percent(games, scenario, seat):
    bots = ("heuristic", "random") if seat == 0 else ("random", "heuristic")
    wins = sum(play(games[scenario], 100 + seed, bots).winner == seat for seed in range(40))
    print(f"\n{scenario}: heuristic as {games[scenario].sides[seat]} won {wins}/40 against random")
    assert wins >= 36, wins
