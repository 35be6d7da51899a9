"""The movement optional rules switched on together: games play to the end without an engine error (heuristic bot
against random), in the Advanced sample scenario with minefields of both sides, narrow roads and weight limits."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_move_fixtures import opt_game  # noqa: E402

RULES = ("mines", "bogging-down", "weight-limits", "dual-driving-controls", "amphibious", "fires", "narrow-roads",
         "engineers-vs-terrain", "vehicle-assault-cover", "avlb", "turrets", "long-guns")


def _game():
    g0 = opt_game()
    clear = [g0.label(h) for h in sorted(g0.map.label_of) if g0.map.terrain.get(h) == "C"]
    roads = sorted({g0.label(h) for k in g0.roads for h in k})[:12]
    ext = dict(minefields=[{"side": "sov", "hexes": clear[100:101], "field": "deliberate", "mines": "both"},
                           {"side": "us", "hexes": clear[300:301], "field": "hasty", "mines": "av", "visible": True}],
               narrow_roads=roads)
    return opt_game(RULES, **ext)


def _play(g, seed: int) -> int:
    st = g.new_initial_state(seed)
    rng = random.Random(seed)
    bot = g.make_bot("heuristic", seed % 2, seed)
    n = 0
    while st.current_player() >= 0 and n < 6000:
        p = st.current_player()
        legal = st.legal_actions()
        a = bot.choose(st.observation(p), legal) if p == seed % 2 else rng.choice(legal)
        st.play(a)
        n += 1
    return n


def test_two_games_with_every_movement_rule_on():
    g = _game()
    for seed in (1, 2):
        assert _play(g, seed) > 0


@pytest.mark.slow
def test_forty_games_with_every_movement_rule_on():
    g = _game()
    for seed in range(40):
        assert _play(g, seed) > 0
