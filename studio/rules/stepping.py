"""What every conformance check shares: :class:`ConformanceError` and one random step of a game (a chance
outcome at CHANCE nodes, else a uniformly random legal action). Kept apart so that
:mod:`studio.rules.conformance` and :mod:`studio.rules.conformance_data` import it without a cycle."""
from __future__ import annotations

import random

from .api import CHANCE, State


class ConformanceError(AssertionError):
    """A conformance check failed; the message says what and where."""


def step(state: State, rng: random.Random) -> object:
    """Apply one random action (or chance outcome) to ``state`` and return it."""
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    else:
        legal = state.legal_actions()
        if not legal:
            raise ConformanceError(f"non-terminal state without legal actions (player {state.current_player()})")
        action = legal[rng.randrange(len(legal))]
    state.apply(action)
    return action
