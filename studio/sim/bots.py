"""Bots: the protocol, the generic random bot and the name registry.

A bot is created per game and side with its own seed and is asked ``choose(view, legal)`` whenever its side is
the current player: ``view`` is ``state.observation(side)`` (hidden information stays hidden) and ``legal`` the
legal actions. Rulesets provide their own bots through ``Game.make_bot(name, side, seed)`` and list their names
in ``Game.bot_names()``; ``"random"`` is always available.
"""
from __future__ import annotations

import random
from typing import Any, Protocol, Sequence


class Bot(Protocol):
    name: str

    def choose(self, view: Any, legal: Sequence[Any]) -> Any: ...


class RandomBot:
    """Uniformly random among the legal actions (seeded)."""

    name = "random"

    def __init__(self, side: int = 0, seed: int = 0):
        self.side = side
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        return legal[self.rng.randrange(len(legal))]


def bot_names(game: Any) -> list[str]:
    names = ["random"]
    extra = getattr(game, "bot_names", None)
    if callable(extra):
        names += [n for n in extra() if n not in names]
    return names


def make_bot(name: str, game: Any, side: int, seed: int) -> Bot:
    """A bot by name for ``side``; ValueError names the available bots."""
    if name == "random":
        return RandomBot(side, seed)
    factory = getattr(game, "make_bot", None)
    bot = factory(name, side, seed) if callable(factory) else None
    if bot is None:
        raise ValueError(f"unknown bot '{name}'; available: {', '.join(bot_names(game))}")
    return bot
