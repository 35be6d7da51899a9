"""Deployed-In-Position first fire (BfOps p.16, digest a.4), deep snow and iced roads on Bog checks (p.12, B53,
B54) and the Large Force rally of suppressed infantry (p.8, B15): positions and play with forced dice."""
from __future__ import annotations

import copy

import pytest

from studio.rulesets.bfops.engine.state import Fire, Pass

from .conftest import unit
from .misc_cards import FAR

VILLAGE = "bfops-village-defence"


def _labels(s):
    return [label for label, _ in s.dice.history]


def _ur7(s, uid):
    g = s.game
    g.cards["test-t62-ur7"] = g.cards["wp-t62"].model_copy(update={"unit_rating": 7})
    s.unit(uid).card = "test-t62-ur7"
    s.sights, s.legal_cache = {}, None


@pytest.mark.parametrize("y, dug_in", [(32.6, True), (30.0, False)])
def test_a4_against_a_unit_deployed_in_position_a_rating_one_higher_does_not_fire_first(position, y, dug_in):
    """p.16: UR 7 against UR 6 fires and applies its hits first (B83) ... unless the UR 6 unit is a defense
    Deployed-In-Position (the village trench of the preparing side): then a difference of 2 is needed, and both
    shots resolve together (the M60A1 it disables still rolls)."""
    dice = [10, 1, 1] if dug_in else [1, 1]       # together: the M60A1's shot first (declared first) misses
    s = position([unit("m", "nato-m60a1", "nato", 45, y, 180, spotted=True),
                  unit("t", "wp-t62", "warpac", 45, 18, 0, spotted=True)], scenario=VILLAGE, dice=dice)
    _ur7(s, "t")
    assert bool(s.game.prepared_cover(s.unit("m"))) is dug_in
    s.play(Fire("m", "t", 0, "AP"))
    s.play(Fire("t", "m", 0, "AP"))
    assert s.unit("m").disabled
    assert ("AP hit m>t" in _labels(s)) is dug_in


def _weather(s, weather):
    """The state on a copy of its game under ``weather`` (own movement grids: the cached game keeps its own)."""
    game = copy.copy(s.game)
    game._nav = {}
    env = game.scenario.environment.model_copy(update={"weather": weather})
    game.scenario = game.scenario.model_copy(update={"environment": env})
    s.game, s.legal_cache = game, None
    return s


def _move(s):
    turn = s.turn
    while s.phase == "command" and s.turn == turn and s.legal_actions():
        s.play(Pass())
    return s


@pytest.mark.parametrize("weather, roll, bogged", [("deep_snow", 1, False), ("deep_snow", 2, True),
                                                  ("clear", 3, False), ("clear", 4, True)])
def test_b53_deep_snow_gives_extreme_ground_a_further_minus_two(position, weather, roll, bogged):
    """B53: an M60A1 (Bog 6) setting off double-time (faster than Cruise) inside the extreme bog meadow: -3
    (p.11), in deep snow -5."""
    s = _weather(position([unit("a", "nato-m60a1", "nato", 64, 20, 270, order="to-ford", element="t",
                                double_time=True), FAR], phase="command", turn=2, dice=[roll, 1, 1, 1]), weather)
    _move(s)
    assert s.dice.history[0] == ("bog a", roll)
    assert s.unit("a").bogged is bogged


@pytest.mark.parametrize("roll, bogged", [(3, False), (4, True)])
def test_b53_rough_ground_made_extreme_by_snow_takes_the_extreme_row_only(position, roll, bogged):
    """Reading deep-snow-extreme: the broken ground (Rough) is Extreme in deep snow: -3 faster than Cruise, no
    extra -2."""
    s = _weather(position([unit("a", "nato-m60a1", "nato", 28, 10, 0, order="to-ford", element="t",
                                double_time=True), FAR], phase="command", turn=2, dice=[roll, 1, 1, 1]), "deep_snow")
    _move(s)
    assert s.dice.history[0] == ("bog a", roll) and s.unit("a").bogged is bogged


@pytest.mark.parametrize("second, disabled", [(3, False), (4, True)])
def test_b54_a_vehicle_reaching_cruise_on_iced_roads_checks_at_minus_three_then_frees_itself_or_is_lost(
        position, second, disabled):
    """B54: moving double-time (it reaches Cruise) on iced roads an M60A1 (Bog 6) checks at 6 - 3: roll 4 bogs it
    where it stands; its next Move Phase the mandatory second check at 3 frees it (3) or disables it (4)."""
    s = _weather(position([unit("a", "nato-m60a1", "nato", 40, 5, 0, order="to-ford", element="t",
                                double_time=True), FAR], phase="command", turn=2, dice=[4]), "iced_roads")
    passes = _weather(position([unit("a", "nato-m60a1", "nato", 40, 5, 0, order="to-ford", element="t",
                                     double_time=True), FAR], phase="command", turn=2, dice=[3, 1, 1, 1]), "iced_roads")
    _move(passes)
    assert passes.dice.history[0] == ("bog ice a", 3) and not passes.unit("a").bogged and passes.unit("a").y > 5
    _move(s)
    assert s.unit("a").bogged and (s.unit("a").x, s.unit("a").y) == (40, 5)
    while s.phase != "command":
        s.play(s.legal_actions()[0])
    s.dice.force(second)
    _move(s)
    assert ("bog ice free a", second) in s.dice.history
    assert s.unit("a").disabled is disabled and s.unit("a").bogged is disabled
    at_cruise = _weather(position([unit("a", "nato-m60a1", "nato", 40, 5, 0, order="to-ford", element="t"), FAR],
                                  phase="command", turn=2), "iced_roads")
    _move(at_cruise)
    assert not any(label.startswith("bog ice") for label in _labels(at_cruise))   # held below Cruise: no check


@pytest.mark.parametrize("option, roll, still", [("shortcuts", 6, False), ("shortcuts", 7, True),
                                                 ("standard", None, True)])
def test_b15_large_force_suppressed_infantry_rally_on_their_rating(position, option, roll, still):
    """B15 (Large Force option): a suppressed UR-6 squad stays suppressed through its next Move Phase, then checks
    its rating as its Weapon Priority sequence begins: 6 rallies, 7 stays suppressed; no check in the standard
    game."""
    s = position([unit("q", "nato-us-rifle-squad", "nato", 40, 5, 0, suppressed=True), FAR], phase="command",
                 dice=[roll] if roll else [], options={"large-force": option})
    _move(s)
    assert ("rally q" in _labels(s)) is (roll is not None)
    assert bool(s.unit("q").sup_fire) is still and not s.unit("q").sup_move


@pytest.mark.parametrize("rating, first", [(8, "t"), (5, "m")])
def test_a4_a_difference_of_two_fires_first_at_a_dug_in_unit_a_lower_rating_never_does(position, rating, first):
    """p.16: UR 8 against the dug-in UR 6 M60A1 fires first (difference 2); a UR 5 tank shooting at it stays in
    its own, lower tier (the M60A1 fires first and disables it: it does not roll)."""
    s = position([unit("m", "nato-m60a1", "nato", 45, 32.6, 180, spotted=True),
                  unit("t", "wp-t62", "warpac", 45, 18, 0, spotted=True)], scenario=VILLAGE, dice=[1, 1])
    g = s.game
    g.cards[f"test-t62-ur{rating}"] = g.cards["wp-t62"].model_copy(update={"unit_rating": rating})
    s.unit("t").card = f"test-t62-ur{rating}"
    s.sights, s.legal_cache = {}, None
    s.play(Fire("m", "t", 0, "AP"))
    s.play(Fire("t", "m", 0, "AP"))
    other = "m" if first == "t" else "t"
    assert s.unit(other).disabled and not s.unit(first).disabled
    assert not any(label.startswith(f"AP hit {other}>") for label in _labels(s))


def test_b15_a_rallied_squad_fires_in_that_sequence_and_only_suppressed_infantry_check(position):
    """The rallied squad (roll 6) is the first to decide in the Weapon Priority sequence; the unsuppressed squad
    and the suppressed M60A1 make no rally check."""
    s = position([unit("q", "nato-us-rifle-squad", "nato", 40, 5, 0, suppressed=True),
                  unit("r", "nato-us-rifle-squad", "nato", 41, 5, 0),
                  unit("k", "nato-m60a1", "nato", 43, 5, 0, suppressed=True),
                  unit("w", "wp-rifle-squad", "warpac", 40, 8, 180, spotted=True)],
                 phase="command", dice=[10, 6], options={"large-force": "shortcuts"})   # w spot fails, q rallies
    _move(s)
    assert [label for label in _labels(s) if label.startswith("rally")] == ["rally q"]
    assert s.phase == "fire" and not s.unit("q").suppressed
    assert "q" in {u.id for u in s._deciders(0)}
