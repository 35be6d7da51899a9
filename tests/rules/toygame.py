"""A tiny two-player dice race used to test the rule-system-neutral engine core and the sim layer."""
from __future__ import annotations

from studio.rules.api import TERMINAL, Game, Outcome, PhaseSpec, RulesError, State
from studio.rules.dice import Dice


class RaceGame(Game):
    ruleset_id = "toy"
    ruleset_version = "1"
    scenario_id = "race"
    sides = ["red", "blue"]
    phases = (PhaseSpec("move", "Move", "TOY 1", "active"),)
    max_turns = 12
    target = 15
    placeholder_tables = ("toy-table",)

    def new_initial_state(self, seed: int) -> "RaceState":
        return RaceState(self, Dice(seed))

    def parse_action(self, text: str):
        verb, _, n = text.partition(" ")
        if verb not in ("step", "dash"):
            raise ValueError(f"unknown action '{text}'")
        return text

    def bot_names(self):
        return ["greedy"]

    def make_bot(self, name, side, seed):
        return GreedyBot() if name == "greedy" else None


class GreedyBot:
    name = "greedy"

    def choose(self, view, legal):
        return "dash" if "dash" in legal else legal[0]


class RaceState(State):
    def __init__(self, game, dice):
        self.game, self.dice = game, dice
        self.pos = [0, 0]
        self.turn = 1
        self.player = 0

    def current_player(self):
        if self.turn > self.game.max_turns or max(self.pos) >= self.game.target:
            return TERMINAL
        return self.player

    def legal_actions(self):
        return [] if self.is_terminal() else ["step", "dash"]

    def explain_illegal(self, action):
        return RulesError(f"'{action}' is not step or dash", "TOY 1")

    def apply(self, action):
        if action == "step":
            self.pos[self.player] += 1
        else:  # dash: a d6 roll of 3+ moves 3, else 0
            self.pos[self.player] += 3 if self.dice.roll(6, "dash") >= 3 else 0
        self.player = 1 - self.player
        if self.player == 0:
            self.turn += 1

    def clone(self):
        other = RaceState(self.game, self.dice.clone())
        other.pos, other.turn, other.player = list(self.pos), self.turn, self.player
        return other

    def outcome(self):
        a, b = self.pos
        winner = None if a == b else (0 if a > b else 1)
        return Outcome(winner, [float(a), float(b)], "race", min(self.turn, self.game.max_turns), [0, 0])

    def fingerprint(self):
        return f"{self.pos}|{self.turn}|{self.player}|{self.dice.fingerprint()}"
