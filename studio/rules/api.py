"""The Game/State API every rule system implements (shaped after OpenSpiel and python-chess).

Contracts:
- ``Game`` holds static facts compiled from a scenario (map, units, tables, options) and creates states.
- ``State.current_player()`` is a side index (0, 1, ...), ``CHANCE`` or ``TERMINAL``.
- ``legal_actions()`` lists every legal action of the current player (empty at a terminal state).
- ``apply(action)`` is fast and unchecked; ``play(action)`` checks legality first and raises
  :class:`RulesError` naming the rule that forbids the action.
- ``clone()`` returns an independent copy (dice included): playing on the clone never changes the original.
- ``outcome()`` is valid at terminal states: winner (side index or None for a draw), victory points, reason.
- Actions are small immutable values whose ``str()`` is their text form (``move 1A3 0405>0506``);
  ``Game.parse_action(text)`` inverts it, so replays and tests can be written as text.
- ``observation(player)`` is what that side may see (hidden commands stay hidden); bots get only this.
- ``State.phase_id()`` is the id of the current step's :class:`PhaseSpec` in ``Game.phases`` (replay viewer,
  positions); the default ``""`` means "not reported".
- Optional: ``Game.bot_names()`` / ``Game.make_bot(name, side, seed)`` (ruleset bots for ``studio.sim``),
  ``Game.placeholder_tables`` (reported by balance runs), ``Game.environment_rules_applied`` (the environment
  rules in force, in words), ``State.chance_outcomes()`` at CHANCE nodes.
- Optional hooks the conformance checks and positions look for (``hasattr``; a missing one is reported as
  "not declared", see :mod:`studio.rules.conformance`):
  ``Game.state_from_position(position) -> State`` (``position`` is a :class:`studio.model.position.Position`;
  raise :class:`studio.rules.position.PositionError` ``(message, pointer)`` on bad input),
  ``Game.data_fingerprint() -> str`` (a hash text of every compiled table value and constant the engine uses),
  ``State.DERIVED_SLOTS: dict[str, str]`` (slots left out of ``fingerprint()`` on purpose, slot -> reason),
  ``State.scramble_hidden(player, seed) -> State`` (a clone with everything ``player`` may not know
  randomized: hidden commands and units, dice seed and forced dice).
"""
from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

CHANCE = -1
TERMINAL = -2


class RulesError(Exception):
    """An illegal action. ``rule`` is the rule reference that forbids it (e.g. ``4.5.1.2`` with its system prefix)."""

    def __init__(self, message: str, rule: str = ""):
        super().__init__(f"{message} [{rule}]" if rule else message)
        self.rule = rule
        self.reason = message


@dataclass(frozen=True, slots=True)
class PhaseSpec:
    """One step of the sequence of play, as data for the GUI and the replay viewer."""

    id: str
    name: str
    rule: str = ""
    actor: str = "both"  # "first", "second", "both", "active", "none"


@dataclass(slots=True)
class Outcome:
    winner: int | None
    victory_points: list[float]
    reason: str
    turn: int = 0
    losses: list[int] = field(default_factory=list)  # units lost per side


@dataclass(slots=True)
class LogEntry:
    """One applied action with its die rolls, for replay viewers and debugging."""

    turn: int
    phase: str
    player: int
    action: str
    rolls: list[tuple[str, int]] = field(default_factory=list)


class Game(ABC):
    ruleset_id: str
    ruleset_version: str
    scenario_id: str
    sides: list[str]
    phases: Sequence[PhaseSpec] = ()
    max_turns: int
    #: ids of placeholder tables the engine reads (balance reports list them)
    placeholder_tables: Sequence[str] = ()
    #: the scenario environment rules this game applies, in words with their rule references (e.g. night on
    #: turns 11-12 and its spotting modifier), so play reports can say which applied; empty = none
    environment_rules_applied: Sequence[str] = ()
    #: ids of the ruleset's optional rules in force (the scenario's ``optional_rules``, or load_game's override)
    optional_rules: frozenset[str] = frozenset()

    def optional_on(self, rule_id: str) -> bool:
        """Whether the optional rule ``rule_id`` is in force in this game."""
        return rule_id in self.optional_rules

    def bot_names(self) -> list[str]:
        """Names of the ruleset's own bots (``studio.sim`` adds the generic ``random``)."""
        return []

    def make_bot(self, name: str, side: int, seed: int) -> Any:
        """A ruleset bot by name, or None when the name is unknown."""
        return None

    @abstractmethod
    def new_initial_state(self, seed: int) -> "State": ...

    @abstractmethod
    def parse_action(self, text: str) -> Hashable: ...


class State(ABC):
    game: Game

    @abstractmethod
    def current_player(self) -> int: ...

    @abstractmethod
    def legal_actions(self) -> list[Any]: ...

    @abstractmethod
    def apply(self, action: Any) -> None: ...

    @abstractmethod
    def clone(self) -> "State": ...

    @abstractmethod
    def outcome(self) -> Outcome: ...

    @abstractmethod
    def fingerprint(self) -> str:
        """A canonical text of the full state (positions, damage, dice state, turn ...) for hashing."""

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a CHANCE node: ``[(action, probability)]``. Rulesets whose dice live in the state never need it."""
        raise NotImplementedError

    def phase_id(self) -> str:
        """The id of the current :class:`PhaseSpec` (one of ``game.phases``). Rulesets override; the default
        ``""`` means the engine does not report its phase (the conformance check reports it "not declared")."""
        return ""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def explain_illegal(self, action: Any) -> RulesError:
        """Why ``action`` is illegal now; rulesets override to name the exact rule."""
        return RulesError(f"'{action}' is not a legal action now")

    def play(self, action: Any) -> None:
        """Checked apply: raises RulesError (naming the rule) when ``action`` is not legal."""
        if self.is_terminal():
            raise RulesError("the game is over")
        if action not in self.legal_actions():
            raise self.explain_illegal(action)
        self.apply(action)

    def narrate(self, text: str) -> None:
        """Append one narrated result to ``self.events`` for the replay viewer, only while ``self.dice.record`` is
        on (batch play pays nothing). For states that keep ``dice`` and an ``events`` list; a hot path that would
        build an expensive text tests ``self.dice.record`` itself first."""
        if self.dice.record:
            self.events.append(text)

    def observation(self, player: int) -> "State":
        """The state as ``player`` may see it; rulesets with hidden information override."""
        return self

    def state_hash(self) -> str:
        return hashlib.sha256(self.fingerprint().encode("utf-8")).hexdigest()[:32]
