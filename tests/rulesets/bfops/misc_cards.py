"""Test cards for the bfops-misc tests: copies of sample cards with a capability or rating changed, added under a
new id to a game's cards (the sample forces hold no supply, medical, transport or battery Headquarters card)."""
from __future__ import annotations

from .conftest import unit

FAR = unit("z", "wp-t62", "warpac", 69, 47, 180)          # hidden behind the ridge: keeps the game going


def add_card(position, base: str, new: str, scenario: str | None = None, **changes):
    """Register a copy of card ``base`` as ``new`` with top-level fields or ``capabilities`` / ``weapons0``
    (the first weapon) fields changed, in the cached game of ``scenario``; returns that game."""
    kw = {"scenario": scenario} if scenario else {}
    game = position([FAR], phase="command", **kw).game
    card = game.cards[base]
    caps = changes.pop("capabilities", None)
    weapon = changes.pop("weapons0", None)
    update = dict(changes)
    if caps:
        update["capabilities"] = card.capabilities.model_copy(update=caps)
    if weapon:
        update["weapons"] = [card.weapons[0].model_copy(update=weapon), *card.weapons[1:]]
    game.cards[new] = card.model_copy(update=update)
    return game
