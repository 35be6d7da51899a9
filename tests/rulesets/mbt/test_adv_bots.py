"""The MBT Advanced Game heuristic bot (``bots_advanced.AdvancedHeuristicBot``) against the random bot on the
Advanced sample scenarios, and what it does: dismount infantry, fire ATGMs at range, call indirect fire, assault.

The win-rate check over 200 games per side is ``test_adv_bots_winrate.py`` (``pytest -m slow``); the normal run
plays two games per pairing."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import adv_state, unit  # noqa: E402

from studio.rules.load import load_game  # noqa: E402
from studio.rulesets.mbt.bots_advanced import AdvancedHeuristicBot  # noqa: E402
from studio.sim.runner import play_game, run_games  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "data"
SCENARIOS = ["mbt-adv-combined-arms", "mbt-adv-air-strike"]
_LOADED: dict = {}


def _loaded(scenario):
    return _LOADED.get(scenario) or _LOADED.setdefault(scenario, load_game(scenario, DATA))


def test_advanced_game_uses_the_advanced_bot():
    lg = _loaded(SCENARIOS[0])
    assert isinstance(lg.game.make_bot("heuristic", 0, 1), AdvancedHeuristicBot)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("side", [0, 1])
def test_heuristic_beats_random_smoke(scenario, side):
    lg = _loaded(scenario)
    bots = ["heuristic", "random"] if side == 0 else ["random", "heuristic"]
    report = run_games(lg, 2, seed=300 + side, bots=bots)
    assert not report.errors
    assert report.wins()[lg.game.sides[side]] >= 1, report.format_text()


def _events(scenario, seed=7):
    game = _loaded(scenario).game
    state = game.new_initial_state(seed)
    state.dice.record = True
    bots = [game.make_bot("heuristic", s, seed + s) for s in (0, 1)]
    while state.current_player() >= 0:
        p = state.current_player()
        state.apply(bots[p].choose(state.observation(p), state.legal_actions()))
    return state.events


def test_bot_dismounts_its_infantry():
    # issue 12: the bot carries its infantry and dismounts it
    assert any("dismounts from" in e for e in _events("mbt-adv-air-strike"))


def test_bot_fires_the_atgm_at_range():
    # issue 12: at range 12 the M2A1 prefers its TOW 2 to the 25mm against a T-80BV
    from mbt_adv_fixtures import clear_pair
    a, b, d = clear_pair(12)
    st = adv_state([unit("S", "m2a1", "us", a, d, command="FIRE"), unit("T", "t-80bv", "sov", b, (d + 3) % 6)],
                   to_act="us")
    legal = st.legal_actions()
    assert {x[3] for x in legal} >= {"main:APDS", "tow:TOW_2"}
    bot = AdvancedHeuristicBot(st.game, 0, 1)
    assert bot.choose(st.observation(0), legal)[3] == "tow:TOW_2"


def test_bot_calls_indirect_fire_on_a_spotted_stack():
    # issue 12: the bot calls artillery on spotted units (an M106 beyond its own sight, the FIST close)
    st = adv_state([unit("M", "m106", "us", "2A1", 2, command="FIRE"), unit("F", "m981", "us", "4B1", 2, command="OW"),
                    unit("T", "t-80bv", "sov", "4E1", 5)], phase="indirect-fire", to_act="us")
    bot = AdvancedHeuristicBot(st.game, 0, 1)
    assert str(bot.choose(st.observation(0), st.legal_actions())) == "call M by F at 4E1"


def test_bot_close_assaults_an_adjacent_vehicle():
    st = adv_state([unit("I", "us-mech-squad", "us", "2A1", 2, command="MOVE"), unit("T", "t-80bv", "sov", "2B1", 5)],
                   phase="close-combat", to_act="us")
    bot = AdvancedHeuristicBot(st.game, 0, 1)
    assert str(bot.choose(st.observation(0), st.legal_actions())) == "assault I T"


def test_playout_records_the_advanced_narration():
    # the replay viewer's narration: every Advanced roll named (hits, locations, GP results, dismounts)
    game = _loaded("mbt-adv-combined-arms").game
    result, state = play_game(game, 11, ["heuristic", "heuristic"])
    assert result.error is None and state.outcome() is not None
