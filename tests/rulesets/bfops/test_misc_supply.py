"""Supply units, medical units and the Battalion Aid Station (BfOps p.18-19, digest c.18, B102, B103): through
positions and Move Phases with forced dice. The sample forces hold no supply, medical or aid-station card, so
the tests give a sample card's copy the capability (``misc_cards.add_card``) and put it on the unit after the
position is set up. Quantities and intervals are placeholders: read from the tables, never assumed."""
from __future__ import annotations

import pytest

from studio.rulesets.bfops.engine.state import Pass
from studio.rulesets.bfops.engine.supply import loads

from .conftest import unit
from .misc_cards import FAR, add_card


def _as(s, uid, card):
    s.unit(uid).card = card
    s.sights, s.legal_cache = {}, None


def _move(s):
    """Both sides pass the command step: one Move Phase runs."""
    turn = s.turn
    while s.phase == "command" and s.turn == turn and s.legal_actions():
        s.play(Pass())
    while s.phase == "fire" and s.legal_actions():
        s.play(next(a for a in s.legal_actions() if str(a).startswith("hold")))
    return s


@pytest.fixture
def cards(position):
    game = add_card(position, "wp-btr60", "test-supply-medium", capabilities={"supply": "medium_truck"})
    add_card(position, "wp-btr60", "test-supply-heavy", capabilities={"supply": "heavy_truck"})
    add_card(position, "wp-btr60", "test-supply-jeep", capabilities={"supply": "jeep"})
    add_card(position, "nato-m113", "test-medic", capabilities={"medical": True, "carry_hits": 0})
    add_card(position, "nato-m113", "test-aid-station", capabilities={"battalion_aid_station": True})
    return game


def test_b102_a_heavy_truck_carries_twice_a_medium_truck(cards):
    seq = cards.tables.sequence
    medium, heavy, jeep = (loads(cards, cards.cards[c]) for c in
                           ("test-supply-medium", "test-supply-heavy", "test-supply-jeep"))
    assert medium == seq["supply_medium_truck_loads"] and jeep == seq["supply_jeep_loads"]
    assert heavy == 2 * medium                                       # B102
    assert loads(cards, cards.cards["wp-btr60"]) == 0


def test_a_supply_unit_gives_used_agl_reloads_back_until_its_loads_are_spent(position, cards):
    """Two AGS-17 teams that used a reload each, adjacent to a supply jeep (one load): one reload back."""
    s = position([unit("k", "wp-btr60", "warpac", 30, 40, 0),
                   unit("g", "wp-ags17-team", "warpac", 30, 40.7, 0, agl_reloads=1),
                   unit("h", "wp-ags17-team", "warpac", 30, 39.3, 0, agl_reloads=1),
                   unit("c", "nato-m60a1", "nato", 40, 5, 0)], phase="command")
    _as(s, "k", "test-supply-jeep")
    _move(s)
    assert sorted((s.unit("g").reloads, s.unit("h").reloads)) == [0, 1]
    assert s.work["supply:k"] == loads(s.game, s.game.card_of(s.unit("k")))
    _move(s)
    assert sorted((s.unit("g").reloads, s.unit("h").reloads)) == [0, 1]   # spent


def _casualty(uid="q", x=40.0, y=5.0):
    return unit(uid, "nato-us-rifle-squad", "nato", x, y, 0, disabled=True, hits=3)


@pytest.mark.parametrize("recovers", [True, False])
def test_b103_a_medic_at_a_casualty_checks_its_rating_after_the_interval(position, cards, recovers):
    s = position([_casualty(), unit("m", "nato-m113", "nato", 40, 5.9, 0), FAR], phase="command")
    _as(s, "m", "test-medic")
    seq = s.game.tables.sequence
    rating = s.game.card_of(s.unit("m")).unit_rating
    for _ in range(int(seq["medical_phases"]) - 1):
        _move(s)
        assert s.unit("q").disabled
    s.dice.force(rating if recovers else rating + 1)
    _move(s)
    q = s.unit("q")
    assert ("medical m>q", rating if recovers else rating + 1) in s.dice.history
    assert q.disabled is not recovers
    if recovers:
        assert 3 - q.hits == seq["medical_hits"]                        # back with the Hits the table gives


def test_b103_a_transport_takes_the_casualty_to_the_aid_station_which_restores_the_full_squad(position, cards):
    """With a Battalion Aid Station set up, a holding M113 (room for a 3-Hit squad) takes the casualty aboard;
    driven to the Station it sets it down there, and after the interval the Station's check restores it whole."""
    s = position([_casualty(), unit("t", "nato-m113", "nato", 40, 5.9, 0),
                  unit("b", "nato-m113", "nato", 20, 5, 0), FAR], phase="command")
    _as(s, "b", "test-aid-station")
    _move(s)
    assert [v.id for v in s.carried] == ["q"] and s.carried[0].aboard == "t"
    t = s.unit("t")
    t.x, t.y = 20.0, 5.9                                             # the carrier drives to the Station
    _move(s)
    assert not s.carried and s.unit("q").disabled                     # set down; its treatment begins
    seq = s.game.tables.sequence
    s.dice.force(s.game.card_of(s.unit("b")).unit_rating)
    for _ in range(int(seq["medical_phases"]) - 1):
        _move(s)
    assert not s.unit("q").disabled and s.unit("q").hits == 0         # the full unit (p.19)


def test_a_jeep_carries_only_a_one_hit_fire_team(position, cards):
    add_card(position, "nato-m113", "test-jeep", capabilities={"carry_hits": 1})
    s = position([_casualty(), unit("t", "nato-m113", "nato", 40, 5.9, 0),
                  unit("b", "nato-m113", "nato", 20, 5, 0), FAR], phase="command")
    _as(s, "b", "test-aid-station")
    _as(s, "t", "test-jeep")
    _move(s)
    assert not s.carried                                             # a 3-Hit squad does not fit (p.18)


def test_only_a_holding_supply_unit_resupplies_and_only_used_reloads(position, cards):
    """The jeep's one load goes to the team that used a reload, not the one listed first that used none; a
    supply unit under a moving order gives nothing."""
    units = [unit("k", "wp-btr60", "warpac", 30, 40, 0, element="supply"),
             unit("h", "wp-ags17-team", "warpac", 30, 39.3, 0),
             unit("g", "wp-ags17-team", "warpac", 30, 40.7, 0, agl_reloads=1),
             unit("c", "nato-m60a1", "nato", 40, 5, 0)]
    s = position(units, phase="command")
    _as(s, "k", "test-supply-jeep")
    _move(s)
    assert (s.unit("h").reloads, s.unit("g").reloads) == (0, 0)
    units[0] = unit("k", "wp-btr60", "warpac", 30, 40, 0, element="supply", order="to-ford")
    moving = position(units, phase="command")
    _as(moving, "k", "test-supply-jeep")
    _move(moving)
    assert moving.unit("g").reloads == 1


def test_a_recovered_squad_is_no_longer_suppressed_and_an_enemy_carrier_takes_no_casualty(position, cards):
    s = position([unit("q", "nato-us-rifle-squad", "nato", 40, 5, 0, disabled=True, hits=3, suppressed=True),
                  unit("m", "nato-m113", "nato", 40, 5.9, 0), unit("x", "wp-btr60", "warpac", 40, 4.1, 180),
                  unit("b", "nato-m113", "nato", 20, 5, 0)], phase="command")
    add_card(position, "wp-btr60", "test-btr-carrier", capabilities={"carry_hits": 3})
    _as(s, "m", "test-medic")
    _as(s, "b", "test-aid-station")
    _as(s, "x", "test-btr-carrier")                                  # room for the squad, but the enemy's
    s.dice.force(1)
    for _ in range(int(s.game.tables.sequence["medical_phases"])):
        _move(s)
    assert not s.carried
    q = s.unit("q")
    assert not q.disabled and not q.suppressed
