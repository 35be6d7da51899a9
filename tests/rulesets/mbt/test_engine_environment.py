"""The scenario environment is played (issue 10): light and night turns give limited visibility (MBT 7.36.1-2,
Brew-Up Wrecks light their hex 7.27), visibility caps spotting; the game lists the environment rules applied."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_fixtures import index, line_pair, place  # noqa: E402

from studio.hexgrid.coords import neighbour  # noqa: E402
from studio.rulesets.mbt.declarations import ENVIRONMENT_FIELDS  # noqa: E402
from studio.rulesets.mbt.engine import game as G  # noqa: E402


def scenario_game(**environment):
    base = index().model("scenario", "delaying-action")
    env = base.environment.model_copy(update=environment)
    return G.create_game(base.model_copy(update={"environment": env}), index())


def test_night_turns_shorten_spotting():
    g = scenario_game(light="day", visibility=None, night_turns=[11, 12])
    a, b, _ = line_pair(g, "C", "C", 10)
    s = place(g, 1, {"X": (0, "m1", g.label(a), 0), "Y": (1, "t-72a", g.label(b), 0)})
    y = g.uindex["Y"]
    day = s.spot_range(y)
    s.turn = 11
    night = s.spot_range(y)
    mod = g.tables.light["night"][0]
    assert day == g.tables.spot_range[0] and night == g.tables.spot_range[mod] < day


def test_brew_up_wreck_lights_its_hex_but_never_above_zero():
    g = scenario_game(light="night", visibility=None, night_turns=[])
    a, b, _ = line_pair(g, "C", "C", 4)
    s = place(g, 1, {"X": (0, "m1", g.label(a), 0), "Y": (1, "t-72a", g.label(b), 0)})
    y = g.uindex["Y"]
    dark = s.spot_range(y)
    s.wreck[b] = 2
    lit = s.spot_range(y)
    night, bonus = g.tables.light["night"][0], g.tables.spot_mod["brew-up-illumination"]
    assert dark == g.tables.spot_range[night] and lit == g.tables.spot_range[min(0, night + bonus)]
    s.mk[y] = G.MFIRE                                     # net +3 -4 = -1: lit to 0, not beyond
    assert s.spot_range(y) == g.tables.spot_range[0]


def test_road_rate_halved_in_limited_visibility():
    day = scenario_game(light="day", visibility=None, night_turns=[])
    dusk = scenario_game(light="dusk", visibility=None, night_turns=[])
    rates = []
    for g in (day, dusk):
        a, b = next((x, y) for (x, y), t in sorted(g.roads.items()) if t == "road")
        d = next(k for k in range(6) if neighbour(a, k) == b)
        s = place(g, 1, {"V": (0, "t-80bv", g.label(a), d), "E": (1, "t-72a", "4T1", 3)})
        v = g.uindex["V"]
        s.cmd[v] = G.MOVE
        s._begin_move(v)
        s._move_road(v, ("road", "V"))
        rates.append(s.mv_mode[0])
    assert rates[1] == int(rates[0] * dusk.tables.light["dusk"][1])


def _final_hashes(game, seeds=range(3)):
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        out.append(state.state_hash())
    return out


def test_a_scenario_with_night_turns_plays_differently():
    night = scenario_game(light="day", visibility=None, night_turns=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    day = scenario_game(light="day", visibility=None, night_turns=[])
    assert _final_hashes(night) != _final_hashes(day)
    assert any("night" in rule for rule in night.environment_rules_applied)
    assert day.environment_rules_applied == []


def test_environment_fields_declared():
    assert ENVIRONMENT_FIELDS == {"visibility", "light", "night_turns"}
    g = scenario_game()
    assert g.environment_rules_applied == [
        "MBT 7.36.1 limited visibility (dusk, turns 1-10): spotting modifier -2; MBT 7.36.2 path/road movement "
        "factors x0.5; MBT 7.27 a Brew-Up Wreck lights its hex",
        "MBT 7.36.1 limited visibility (night, turns 11, 12): spotting modifier -4; MBT 7.36.2 path/road movement "
        "factors x0.5; MBT 7.27 a Brew-Up Wreck lights its hex",
        "scenario visibility: spotting ranges at most 15 hexes"]
