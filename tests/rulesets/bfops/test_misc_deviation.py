"""Indirect fire deviation (option ``indirect-fire``, placeholder table ``deviation``) and the Corrected Fire cap
(BfOps p.13, digest c.13, B62, B63): through positions, legal actions and play with forced dice. Distances come
from the placeholder tables (read here, never assumed); the corrections -2, FO -2 and the -4 cap are the
update's numbers."""
from __future__ import annotations

import pytest

from studio.rulesets.bfops.engine.deviation import correction
from studio.rulesets.bfops.engine.state import Fire, Hold

from .conftest import unit

DEV = {"indirect-fire": "deviation"}
MORTAR = unit("a", "wp-120mm-mortar", "warpac", 30, 40, 180)
SQUAD = unit("b", "nato-us-rifle-squad", "nato", 30, 15, 0, spotted=True)


def _labels(s):
    return [label for label, _ in s.dice.history]


def _roll_for(game, inches: float) -> int:
    """The highest deviation roll the table ``deviation`` lands ``inches`` from the aim point."""
    return int(max(limit for limit, value in game.tables.deviation if value == inches))


def _fire(s, shot):
    while s.deciding_unit().id != shot.unit:
        s.play(Hold(s.deciding_unit().id))
    s.play(shot)
    return s


def test_b62_corrected_fire_reduction_is_minus_two_fo_minus_two_never_beyond_minus_four(position):
    game = position([MORTAR, SQUAD], to_act="warpac").game
    assert correction(game, False, True, -1) == 0                  # first-round fire: no reduction
    assert correction(game, True, False) == -2
    assert correction(game, True, True) == -4
    assert correction(game, True, True, -1) == -4                  # a card adjustment keeps the -4 cap (B62)
    assert correction(game, True, False, -1) == -3


def test_on_target_rolls_no_deviation_and_deviation_lands_by_the_table(position):
    plain = _fire(position([MORTAR, SQUAD], to_act="warpac", dice=[1, 1]), Fire("a", "b", 0, "HE"))
    assert not any(label.startswith("deviation") for label in _labels(plain))
    s = position([MORTAR, SQUAD], to_act="warpac", options=DEV)
    on = _roll_for(s.game, 0)
    s.dice.force(on, 1, 1)
    _fire(s, Fire("a", "b", 0, "HE"))
    assert _labels(s)[:2] == ["deviation a>b", "HE hit a>b"]        # on its aim point: the to-hit roll follows
    far = position([MORTAR, SQUAD], to_act="warpac", options=DEV)
    worst = far.game.tables.deviation[-1]
    assert worst[1] > far.game.tables.sequence["barrage_radius_in"] + 0.5
    far.dice.force(int(worst[0]), 3)                               # 3 o'clock: east of the squad
    _fire(far, Fire("a", "b", 0, "HE"))
    assert _labels(far)[:2] == ["deviation a>b", "deviation direction a>b"]
    assert not any("hit a>b" in label for label in _labels(far))   # no unit under the barrage
    assert far.barrages["unit:a"][3] == pytest.approx(30 + worst[1])


def test_a_deviated_barrage_strikes_the_unit_under_it_even_a_friend(position):
    """Landing 2" north (12 o'clock) of the NATO squad puts the barrage on the WARPAC squad standing there."""
    friend = unit("c", "wp-rifle-squad", "warpac", 30, 17, 180)
    s = position([MORTAR, SQUAD, friend], to_act="warpac", options=DEV)
    s.dice.force(_roll_for(s.game, 2), 12, 1)
    _fire(s, Fire("a", "b", 0, "HE"))
    assert _labels(s)[:3] == ["deviation a>b", "deviation direction a>b", "HE hit a>c"]


def _corrected(position, roll, fo=False, adjustment=0):
    """Turn 2: the mortar's last barrage (Turn 1, its priority) went at the squad: this one is Corrected."""
    units = [MORTAR, SQUAD] + ([unit("f", "wp-brdm2", "warpac", 34, 24, 180)] if fo else [])
    s = position(units, to_act="warpac", turn=2, options=DEV)
    g = s.game
    if fo:
        g.cards["test-fo"] = g.cards["wp-brdm2"].model_copy(update={"capabilities": g.cards[
            "wp-brdm2"].capabilities.model_copy(update={"forward_observer": True})})
        s.unit("f").card = "test-fo"
    if adjustment:
        base = g.cards["wp-120mm-mortar"]
        g.cards["test-mortar-adj"] = base.model_copy(update={"weapons": [
            base.weapons[0].model_copy(update={"correction_adjustment": adjustment})]})
        s.unit("a").card = "test-mortar-adj"
    s.sights, s.legal_cache = {}, None
    mortar_priority = s.priorities().index(g.tables.priority["mortar"])
    s.barrages["unit:a"] = ("b", 1, mortar_priority, 30.0, 15.0)
    s.dice.force(roll, 1, 1, 1)
    return _fire(s, Fire("a", "b", 0, "HE"))


def test_b62_corrected_fire_reduces_the_deviation_die(position):
    g = position([MORTAR, SQUAD], to_act="warpac", options=DEV).game
    on = _roll_for(g, 0)
    assert _roll_for(g, 1) > on + 1                                    # the table has a 1" band above it
    first = _fire(position([MORTAR, SQUAD], to_act="warpac", options=DEV, dice=[on + 2, 1, 1, 1]),
                  Fire("a", "b", 0, "HE"))
    assert "deviation direction a>b" in _labels(first)                 # first round: deviates
    fixed = _corrected(position, on + 2)                               # -2: on target
    assert _labels(fixed)[:2] == ["deviation a>b", "HE hit a>b"]
    not_enough = _corrected(position, on + 3)
    assert "deviation direction a>b" in _labels(not_enough)


def test_b62_a_forward_observer_in_sight_corrects_two_more_and_the_cap_holds(position):
    on = _roll_for(position([MORTAR, SQUAD], to_act="warpac", options=DEV).game, 0)
    with_fo = _corrected(position, on + 4, fo=True)                    # -2 -2: on target
    assert _labels(with_fo)[:2] == ["deviation a>b", "HE hit a>b"]
    capped = _corrected(position, on + 5, fo=True, adjustment=-1)      # -5 would land on target; -4 does not
    assert "deviation direction a>b" in _labels(capped)


def test_a_barrage_records_its_marker_for_the_next_correction(position):
    s = position([MORTAR, SQUAD], to_act="warpac", options=DEV)
    s.dice.force(_roll_for(s.game, 0), 10)
    _fire(s, Fire("a", "b", 0, "HE"))
    aim, turn, priority, x, y = s.barrages["unit:a"]
    assert (aim, turn, (x, y)) == ("b", 1, (30.0, 15.0))
    assert priority == s.priorities().index(s.game.tables.priority["mortar"])


@pytest.mark.parametrize("grouping, deviations", [("individual", 2), ("element", 1)])
def test_b63_grouped_barrages_share_one_deviation(position, grouping, deviations):
    s = position([unit("a", "wp-120mm-mortar", "warpac", 30, 40, 180, element="battery"),
                  unit("m", "wp-120mm-mortar", "warpac", 31, 40, 180, element="battery"), SQUAD],
                 to_act="warpac", options={**DEV, "barrage-grouping": grouping})
    worst = int(s.game.tables.deviation[-1][0])
    s.dice.force(worst, 3, worst, 3)
    s.play(Fire("a", "b", 0, "HE"))
    s.play(Fire("m", "b", 0, "HE"))
    assert sum(label.startswith("deviation ") and "direction" not in label for label in _labels(s)) == deviations
    assert not any(label.startswith("HE hit") for label in _labels(s))   # the mate's barrage lands there too


def test_star_shells_deviate_like_any_other_barrage(position):
    """p.12: "Star shells deviate just as any other mortar or artillery": the shell lands 3 o'clock of the
    village by the table's distance and lights there, not the objective's point."""
    from studio.rulesets.bfops.engine.flares import Flare, lit

    s = position([unit("m", "wp-82mm-mortar", "warpac", 36, 10, 0),
                  unit("c", "nato-chieftain", "nato", 41, 39, 180)], scenario="bfops-village-defence",
                 to_act="warpac", options=DEV)
    worst = s.game.tables.deviation[-1]
    village = next(o.at for o in s.game.ext.objectives if o.id == "village")
    s.dice.force(int(worst[0]), 3)
    _fire(s, Flare("m", "village", 0))
    assert lit(s, village[0] + worst[1], village[1])
    assert worst[1] > 2 and not lit(s, *village)                   # the 82mm lights 2" (p.13)


def test_a_barrage_two_turns_ago_is_no_correction_and_the_nearest_unit_under_a_stray_barrage_is_struck(position):
    """Reading corrected-fire: only this Turn's or the previous Turn's barrage at the same aim corrects; a
    barrage landing 2" north of the squad falls on the nearer of two WARPAC squads under it."""
    on = _roll_for(position([MORTAR, SQUAD], to_act="warpac", options=DEV).game, 0)
    s = position([MORTAR, SQUAD], to_act="warpac", turn=3, options=DEV)
    s.barrages["unit:a"] = ("b", 1, s.priorities().index(s.game.tables.priority["mortar"]), 30.0, 15.0)
    s.dice.force(on + 2, 1, 1, 1)
    _fire(s, Fire("a", "b", 0, "HE"))
    assert "deviation direction a>b" in _labels(s)                    # -2 would have landed on target
    near = unit("c", "wp-rifle-squad", "warpac", 30, 17.1, 180)
    far = unit("d", "wp-rifle-squad", "warpac", 30.6, 17, 180)
    s = position([MORTAR, SQUAD, far, near], to_act="warpac", options=DEV)
    s.dice.force(_roll_for(s.game, 2), 12, 1, 1)
    _fire(s, Fire("a", "b", 0, "HE"))
    assert "HE hit a>c" in _labels(s) and "HE hit a>d" not in _labels(s)


def test_b63_the_element_mates_barrage_lands_where_the_first_did(position):
    """Under element grouping the mate's barrage falls where the first one's deviation put it: on the WARPAC
    squad 2" north of the target, both strike it (one deviation roll)."""
    friend = unit("c", "wp-rifle-squad", "warpac", 30, 17, 180)
    s = position([unit("a", "wp-120mm-mortar", "warpac", 30, 40, 180, element="battery"),
                  unit("m", "wp-120mm-mortar", "warpac", 31, 40, 180, element="battery"), SQUAD, friend],
                 to_act="warpac", options={**DEV, "barrage-grouping": "element"})
    s.dice.force(_roll_for(s.game, 2), 12, 10, 10)
    while s.deciding_unit().id not in ("a", "m"):
        s.play(Hold(s.deciding_unit().id))
    s.play(Fire("a", "b", 0, "HE"))
    s.play(Fire("m", "b", 0, "HE"))
    assert [label for label in _labels(s) if "hit" in label] == ["HE hit a>c", "HE hit m>c"]
