"""Issue 12 "must show": the MBT Advanced heuristic bot beats the random bot in at least 90 % of games from
either side of both Advanced sample scenarios, over 200 games per side per scenario (``pytest -m slow``; about
a minute per pairing on an idle core), and its Short Halt/Move choice (``AdvancedHeuristicBot.command``)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import adv_state, unit  # noqa: E402

from studio.rules.load import load_game  # noqa: E402
from studio.rulesets.mbt.bots_advanced import AdvancedHeuristicBot  # noqa: E402
from studio.sim.runner import run_games  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "data"
GAMES = 200


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["mbt-adv-combined-arms", "mbt-adv-air-strike"])
@pytest.mark.parametrize("side", [0, 1])
def test_heuristic_wins_90_percent_over_200_games(scenario, side):
    lg = load_game(scenario, DATA)
    bots = ["heuristic", "random"] if side == 0 else ["random", "heuristic"]
    report = run_games(lg, GAMES, seed=900 + side, bots=bots)
    assert not report.errors
    wins = report.wins()[lg.game.sides[side]]
    assert wins >= 0.9 * GAMES, report.format_text()


def _far_pair(rng: int):
    """Two clear hexes at range ``rng`` with a clear LOS, both more than 12 hexes from the Soviet objectives
    (2I8, 2Q2), so the bot does not close in (``_advance``)."""
    from mbt_adv_fixtures import adv_game
    from studio.hexgrid.coords import distance, neighbour

    g = adv_game()
    goals = [g.map.hex("2I8"), g.map.hex("2Q2")]
    for a in sorted(g.map.label_of):
        if g.map.terrain.get(a, "") != "C" or min(distance(a, x) for x in goals) <= 13:
            continue
        for d in range(6):
            b = a
            for _ in range(rng):
                b = neighbour(b, d)
            if b in g.map.label_of and g.map.terrain.get(b, "") == "C" and g.los.clear(a, b):
                return g.label(a), g.label(b), d
    raise LookupError(rng)


class _NoShotWorthIt(AdvancedHeuristicBot):
    """The bot judging no shot worth firing (``worth_firing`` False)."""

    def worth_firing(self, state, i):
        return False


def test_moves_at_full_speed_without_a_shot_worth_firing():
    # MBT 4.2.1 / 6.2.1: far from its objectives, with a spotted target but no shot worth firing, a T-80BV takes
    # MOVE (full allowance), not Short Halt; with a shot worth firing it halts to shoot
    a, b, d = _far_pair(4)
    st = adv_state([unit("T", "t-80bv", "sov", a, d), unit("M", "m113", "us", b, (d + 3) % 6)],
                   phase="command", to_act="sov")
    legal = st.legal_actions()
    assert {"FIRE", "SH", "MOVE"} <= {x[2] for x in legal}
    side = st.current_player()
    obs = st.observation(side)
    assert _NoShotWorthIt(st.game, side, 1).choose(obs, legal)[2] == "MOVE"
    assert AdvancedHeuristicBot(st.game, side, 1).choose(obs, legal)[2] in ("FIRE", "SH")
