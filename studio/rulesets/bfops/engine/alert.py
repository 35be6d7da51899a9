"""Alerting friendly units to a spotted minefield with a Command Card (BfOps p.11; digest c.8; B43; A31).

"Success means the player controlling advancing forces has freedom of unit movement and commands and may alert
friendly units to the location of the minefield with the use of any Command Card." Option ``minefield-alert``:

- ``side`` (the default, the engine's first reading): a minefield one unit spots is known to its whole side at
  once (its compulsory movement lifts for every unit, B43).
- ``command-card``: the spotting unit's element knows it (the compulsory movement lifts for it alone) and the
  command step's ``alert MINEFIELD`` spends one Command Card to alert the rest of the side.

The side's player sees a minefield either way (observations show what any of its units found).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Alert:
    """Spend a Command Card to alert the side to a minefield one of its elements spotted (BfOps p.11)."""

    minefield: str

    def __str__(self) -> str:
        return f"alert {self.minefield}"


def by_card(game) -> bool:
    return game.options.get("minefield-alert") == "command-card"


def spotted(state, u, area_id: str) -> None:
    """Unit ``u`` spotted the minefield: its element knows it, or its whole side (option)."""
    if by_card(state.game):
        state.mines_local.setdefault(f"{u.side}:{area_id}", set()).add(u.element)
    else:
        state.mines_known[u.side].add(area_id)


def knows(state, u, area_id: str) -> bool:
    """The unit's element spotted the minefield itself (option ``command-card``)."""
    return u.element in state.mines_local.get(f"{u.side}:{area_id}", ())


def found(state, side: int) -> set[str]:
    """Every minefield any unit of ``side`` has spotted (what its player sees)."""
    local = {k.split(":", 1)[1] for k in state.mines_local if k.startswith(f"{side}:")}
    return set(state.mines_known[side]) | local


def alert_orders(state, side: int) -> list[Alert]:
    """``alert M`` for each minefield only some elements of ``side`` know."""
    return [Alert(m) for m in sorted(found(state, side) - state.mines_known[side])]


def alert(state, action: Alert) -> None:
    state.mines_known[state.player].add(action.minefield)
    state.narrate(f"{state.game.sides[state.player]} alerts its units to minefield {action.minefield} with a "
                  "Command Card (BfOps p.11)")
