"""Command cards and the draw deck (BfOps p.16-18, digest b.6, c.16): the deck, the draw, Full Batteries (p.17)
and the cards an order costs (cross-branch commands, p.18)."""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Card:
    """One Command Card: its side index (-1 for Fog of War) and level."""

    side: int
    level: str

    def __str__(self) -> str:
        return "fog-of-war" if self.side < 0 else f"{self.level}:{self.side}"


FOG = Card(-1, "fog_of_war")


def build_deck(game) -> tuple[Card, ...]:
    """The basic draw deck of a game's order of battle (see :func:`deck_cards`)."""
    large = game.tables.procedure("large_force_cards_per_fog") if game.options.get("large-force") == "shortcuts" \
        else None
    return deck_cards(len(game.sides), game.side_blocs, [(e.side, game.cards[e.card]) for e in game.elements],
                      game.tables.deck, game.options.get("battalion-cards") == "two",
                      int(game.tables.sequence["fog_of_war"]), large, game.options.get("full-batteries") == "on")


def deck_cards(n_sides: int, blocs, elements, deck: dict, battalion_two: bool, fog: int,
               large_force: float | None = None, full_batteries: bool = False) -> tuple[Card, ...]:
    """The basic draw deck from the order of battle (BfOps p.17): one Platoon card per combat platoon (a Section
    pair gives none unless it is the side's only element), Company cards per company command vehicle (WARPAC 1,
    NATO 2: table ``deck``), Battalion cards per option ``battalion-cards`` (A14), and the Fog of War cards
    (table ``sequence``, base rule). ``elements`` are (side index, card) per TO&E slot; ``deck`` maps a source
    to {bloc: cards}. ``large_force`` (cards per Fog of War card, option ``large-force``): the Large Force
    shortcuts of p.23: a side with Company cards or higher keeps Platoon cards only for its mortar and artillery
    elements, and the deck holds one Fog of War card per ``large_force`` cards. ``full_batteries`` (option
    ``full-batteries``, Rule 8.5): a side whose mortar and artillery platoons work with a battery Headquarters
    vehicle (``capabilities.battery_hq``) keeps of their Platoon cards only table ``deck`` full_battery_platoons
    (WARPAC 0, NATO 1, p.17, B95); the Headquarters' own Company cards stay."""
    cards: list[Card] = []
    for s in range(n_sides):
        nation = blocs[s]
        mine = [card for side, card in elements if side == s]
        battery = full_batteries and any(c.capabilities.battery_hq for c in mine)
        kept = int(deck["full_battery_platoons"][nation]) if battery else 0
        for card in mine:
            level = card.capabilities.command_level
            if level in ("company", "battalion", "regimental") and level in deck:
                n = int(deck[level][nation])
                if level == "battalion" and battalion_two:
                    n = 2                                                   # BfOps p.17 (A14: 'each add 2')
                cards += [Card(s, level)] * n
                continue
            if card.capabilities.section_pair and len(mine) > 1:
                continue                                                    # BfOps p.17: Section pair
            if large_force and _has_company(mine) and not _barrage(card):
                continue                                                    # BfOps p.23: Company cards up
            if battery and _barrage(card):
                if kept <= 0:
                    continue                                                # BfOps p.17: Full Battery
                kept -= 1
            cards += [Card(s, "platoon")] * int(deck["platoon"][nation])    # BfOps p.17: per combat platoon
        if not any(c.side == s for c in cards) and mine:
            cards.append(Card(s, "platoon"))                                # BfOps p.17: at least one
    if large_force:
        fog = math.ceil(len(cards) / large_force)                           # BfOps p.23: one per 20 cards
    cards += [FOG] * max(1, fog)
    return tuple(cards)


def _has_company(cards) -> bool:
    return any(c.capabilities.command_level in ("company", "battalion", "regimental", "brigade") for c in cards)


def _barrage(card) -> bool:
    """A mortar or artillery element (every weapon indirect-fire): it keeps its Platoon card (p.23)."""
    from .sniper import BARRAGE

    return bool(card.weapons) and all(w.weapon_class in BARRAGE for w in card.weapons)


def draw(deck: tuple[Card, ...], dice) -> list[Card]:
    """Shuffle and draw until the first Fog of War card (BfOps p.23: 'until you hit the Fog of War card')."""
    order = list(deck)
    for i in range(len(order) - 1, 0, -1):              # Fisher-Yates on the game dice
        j = dice.randrange(i + 1)
        order[i], order[j] = order[j], order[i]
    drawn = []
    for card in order:
        if card.side < 0:
            break
        drawn.append(card)
    return drawn


def order_cost(state, element: str) -> int:
    """Command Cards an order to ``element`` takes (BfOps p.17-18): none for a Recon element; for an element
    whose card's branch is not that of its side's Supreme Commander (scenario ``supreme_commander``: side ->
    branch) table ``deck`` cross_branch (NATO 2, WARPAC 1, p.18, B97); else 1."""
    if state.is_recon(element):
        return 0                                                            # BfOps p.18
    g = state.game
    unit = next((u for u in state.units if u.element == element), None)
    if unit is None:
        return 1
    card = g.card_of(unit)
    supreme = g.ext.supreme_commander.get(g.sides[unit.side])
    if supreme and card.branch and card.branch != supreme:
        return int(g.tables.deck["cross_branch"][g.side_blocs[unit.side]])      # BfOps p.18: cross-branch
    return 1
