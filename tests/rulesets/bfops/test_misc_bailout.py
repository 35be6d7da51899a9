"""Infantry aboard vehicles, dismounting and the Bailout check from a knocked-out vehicle (BfOps p.16, B80, B81;
digest c.14): positions with status ``aboard``, legal actions, observations and play with forced dice."""
from __future__ import annotations

import pytest

from studio.rules.position import PositionError
from studio.rulesets.bfops.engine.bailout import Dismount
from studio.rulesets.bfops.engine.state import Fire, Order, Pass

from studio.rules.position import load_position

from .conftest import DATA, MEETING, unit
from .misc_cards import FAR


def _carrier(uid="v", riders=("s",), **status):
    """The sample M113 (room for one 3-Hit squad: ``capabilities.carry_hits``) carrying ``riders``."""
    return {**unit(uid, "nato-m113", "nato", 40, 5, 0, spotted=True, element="apc", **status),
            "passengers": list(riders)}


def _rider(uid="s", card="nato-us-rifle-squad", side="nato"):
    return {"id": uid, "card": card, "side": side, "status": {"element": "sq"}}


def _ride(position=None, **status):
    return [_carrier(**status), _rider()]


def test_a_squad_aboard_is_off_the_table_unseen_and_no_target(position):
    s = position([*_ride(position), unit("a", "wp-t62", "warpac", 40, 20, 180)], to_act="warpac")
    assert [v.id for v in s.carried] == ["s"] and "s" not in {u.id for u in s.units}
    assert all(f.target != "s" for f in s.legal_actions() if isinstance(f, Fire))
    view = s.observation(1)
    assert not view.carried and "s" not in {u.id for u in view.units} and view.unseen[0] >= 1
    assert [v.id for v in s.observation(0).carried] == ["s"]


def test_a_position_may_not_overload_a_carrier_or_board_the_enemy(position):
    with pytest.raises(PositionError, match="carry_hits"):
        position([_carrier(riders=("s", "t")), _rider(), _rider("t"), FAR])
    with pytest.raises(PositionError, match="own side"):
        position([_carrier(riders=("w",)), _rider("w", "wp-rifle-squad", "warpac"), FAR])
    with pytest.raises(PositionError, match="another unit"):
        position([_carrier(riders=("x",)), unit("s", "nato-us-rifle-squad", "nato", 20, 10), FAR])
    with pytest.raises(PositionError, match="x and y"):
        position([_carrier(riders=()), _rider(), FAR])


@pytest.mark.parametrize("roll, escapes", [(6, True), (7, False)])
def test_b81_squads_bail_out_of_a_knocked_out_vehicle_on_six_or_less(position, roll, escapes):
    """B81: the Bailout check is the Infantry Unit Rating, 6 or less (the rulebook's 3 is corrected): roll 6
    escapes (set down beside the wreck, suppressed), roll 7 does not."""
    s = position([*_ride(position), unit("a", "wp-t62", "warpac", 40, 20, 180, spotted=True)], to_act="warpac",
                 dice=[1, 1, roll])
    s.play(Fire("a", "v", 0, "AP"))
    assert s.unit("v").disabled
    squad = s.unit("s")
    assert ("bailout s", roll) in s.dice.history and not s.carried
    assert squad.disabled is not escapes
    if escapes:
        assert squad.suppressed and squad.y < s.unit("v").y          # behind the wreck (it faced north)


def test_passengers_ride_with_their_carrier_and_dismount_for_a_card(position):
    s = position([*_ride(position, order="to-ford"), FAR], phase="command")
    s.play(Pass())
    s.play(Pass())                                                  # the Move Phase
    v = s.unit("v")
    assert v.y > 5 and (s.carried[0].x, s.carried[0].y) == (v.x, v.y)
    s = position([*_ride(position), FAR], phase="command", dice=[])
    assert Dismount("apc") in s.legal_actions()
    s.play(Dismount("apc"))
    assert not s.carried and s.hand[0] == 0
    assert s.unit("s").y < 5 and not s.unit("s").suppressed        # set down behind the M113
    assert Dismount("apc") not in s.legal_actions()


def test_an_element_aboard_takes_orders_only_once_dismounted(games):
    doc = {"kind": "position", "schema_version": 1, "scenario": MEETING, "phase": "command", "to_act": "nato",
           "units": [*_ride(), FAR], "extension": {"hand": [2, 0]}}
    s = load_position(doc, DATA, games=games).state
    assert not any(isinstance(a, Order) and a.element == "sq" for a in s.legal_actions())
    s.play(Dismount("apc"))
    assert Order("sq", "to-ford") in s.legal_actions()


def test_dismount_sets_the_squad_down_a_quarter_inch_behind_its_own_carrier_only(games):
    """Two loaded M113s of two elements, one facing east: dismounting 'apc' sets its squad 1/4" beyond the rear
    of its base (west of it); the other element's squad stays aboard; only carriers with passengers of the side
    to act are offered."""
    east = {**unit("v", "nato-m113", "nato", 40, 5, 90, element="apc"), "passengers": ["s"]}
    other = {**unit("w", "nato-m113", "nato", 44, 5, 0, element="apc2"), "passengers": ["t"]}
    empty = unit("e", "nato-m113", "nato", 48, 5, 0, element="apc3")
    enemy = {**unit("x", "wp-btr60", "warpac", 60, 40, 180, element="btr"), "passengers": ["y"]}
    doc = {"kind": "position", "schema_version": 1, "scenario": MEETING, "phase": "command", "to_act": "nato",
           "units": [east, other, empty, enemy, _rider(), _rider("t"), _rider("y", "wp-rifle-squad", "warpac")],
           "extension": {"hand": [2, 1]}}
    s = load_position(doc, DATA, games=games).state
    assert [a for a in s.legal_actions() if isinstance(a, Dismount)] == [Dismount("apc"), Dismount("apc2")]
    s.play(Dismount("apc"))
    back = s.game.card_of(s.unit("v")).base.length_in / 2 + 0.25
    assert (s.unit("s").x, s.unit("s").y) == (pytest.approx(40 - back), pytest.approx(5))
    assert sorted(v.id for v in s.carried) == ["t", "y"]
