"""Command Cards: Full Batteries (option ``full-batteries``, BfOps p.17, B95), cross-branch commands (p.18,
B97) and Recon-In-Force (p.18, B101): the deck function, positions in the command step, legal actions."""
from __future__ import annotations

import copy

from studio.rulesets.bfops.engine.command import deck_cards
from studio.rulesets.bfops.engine.state import Order, Pass, new_state

from .conftest import unit
from .misc_cards import FAR, add_card


def _levels(cards, side):
    out = {}
    for c in cards:
        if c.side == side:
            out[c.level] = out.get(c.level, 0) + 1
    return out


def test_b95_a_full_battery_keeps_the_hq_company_card_and_warpac_no_nato_one_platoon_card(position):
    """B95: three artillery platoons and a battery Headquarters vehicle: WARPAC keeps the HQ's Company card
    and none of the three Platoon cards; NATO the HQ's Company cards (2, B90) and one Platoon card."""
    game = add_card(position, "wp-t55-hq", "test-battery-hq", capabilities={"battery_hq": True})
    hq, gun = game.cards["test-battery-hq"], game.cards["wp-120mm-mortar"]
    assert hq.capabilities.command_level == "company"
    elements = [(s, c) for s in (0, 1) for c in (hq, gun, gun, gun)]
    deck = game.tables.deck
    full = deck_cards(2, ["WARPAC", "NATO"], elements, deck, False, 1, None, True)
    assert _levels(full, 0) == {"company": 1}
    assert _levels(full, 1) == {"company": 2, "platoon": 1}
    normal = deck_cards(2, ["WARPAC", "NATO"], elements, deck, False, 1, None, False)
    assert _levels(normal, 0) == {"company": 1, "platoon": 3} and _levels(normal, 1)["platoon"] == 3
    no_hq = deck_cards(2, ["WARPAC", "NATO"], [(0, gun), (0, gun), (1, gun)], deck, False, 1, None, True)
    assert _levels(no_hq, 0) == {"platoon": 2}                        # no Headquarters: no Full Battery


def _with_supreme(s, **branches):
    game = copy.copy(s.game)
    game.ext = game.ext.model_copy(update={"supreme_commander": branches})
    s.game, s.legal_cache = game, None
    return s


def test_b97_nato_commands_to_another_branch_take_two_cards(position):
    """B97: under a British Supreme Commander an order to the U.S. M60A1 takes two Command Cards (NATO); with one
    card in hand it cannot be given; the Chieftain (British Army) takes one."""
    units = [unit("a", "nato-m60a1", "nato", 40, 5, 0, element="us"),
             unit("c", "nato-chieftain", "nato", 44, 5, 0, element="uk"), FAR]
    one = _with_supreme(position(units, phase="command"), nato="British Army")
    assert not any(isinstance(a, Order) and a.element == "us" for a in one.legal_actions())
    assert Order("uk", "advance") in one.legal_actions()
    two = _with_supreme(position(units, phase="command"), nato="British Army")
    two.hand = [2, 0]
    two.play(Order("us", "advance"))
    assert two.hand[0] == 0 and two.orders["us"] == "advance"
    same = _with_supreme(position(units, phase="command"), nato="US Army")
    same.hand = [2, 0]
    same.play(Order("us", "advance"))
    assert same.hand[0] == 1


def test_b97_warpac_commands_to_another_branch_take_one_card(position):
    s = _with_supreme(position([unit("t", "wp-t62", "warpac", 40, 40, 180, element="sov"),
                                unit("c", "nato-m60a1", "nato", 40, 5, 0)], phase="command", to_act="warpac"),
                      warpac="Polish Army")
    s.hand = [0, 2]
    s.play(Order("sov", "advance"))
    assert s.hand[1] == 1


def _rif(game, *elements):
    g = copy.copy(game)
    g.rif = frozenset(elements)
    return g


def test_b101_recon_in_force_is_under_a_compulsory_move_to_contact(position):
    game = position([FAR], phase="command").game
    element = game.elements[0].id
    state = new_state(_rif(game, element), 3)
    assert state.orders[element] == "advance"
    assert all(m == "hold" for e, m in state.orders.items() if e != element)


def test_b101_recon_in_force_keeps_the_recon_spotting_alert(position):
    """A unit of a Recon-In-Force element that spots an enemy places its force On Alert (B99); an ordinary
    one does not (spot 7 at 19": roll 1 spots)."""
    units = [unit("a", "nato-m60a1", "nato", 30, 10, 0, element="tanks"), unit("b", "wp-t62", "warpac", 30, 30, 180)]
    plain = position(units, phase="command", dice=[1, 10])
    rif = position(units, phase="command", dice=[1, 10])
    rif.game = _rif(rif.game, "tanks")
    for s in (plain, rif):
        s.play(Pass())
        s.play(Pass())
        assert "b" in s.spotted[0]
    assert rif.alerted[0] and not plain.alerted[0]


def test_a_recon_element_in_force_engages_as_a_combat_element(position):
    """p.18: Recon only return fire; a Recon-In-Force element is under Move to Contact and fights."""
    units = [unit("r", "wp-brdm2", "warpac", 30, 30, 180, element="recon", spotted=True),
             unit("b", "nato-m113", "nato", 30, 20, 0, spotted=True)]
    recon = position(units, to_act="warpac")
    assert recon.return_fire_only(recon.unit("r")) == set()
    rif = position(units, to_act="warpac")
    rif.game = _rif(rif.game, "recon")
    assert rif.return_fire_only(rif.unit("r")) is None
