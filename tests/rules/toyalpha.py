"""A toy rule system over the fixture project's 'alpha' ruleset, to test the generic side of issue 10.

Rules (each read from data): a side's units race to position 12. Move phase: ``step`` advances the side's first
unit by 1 (option ``edge-los`` = block-if-both: by 2), ``dash`` by 3 when a d10 roll is at least the ``hit``
value of range 1 of table ``hit``. Fire phase: ``shoot`` pushes the enemy's first unit back 1 when a d10 roll
is at least the ``hit`` value of range 2; ``hold`` does nothing. Each unit has a hidden ``order`` (0-2) that
only its own side may see; the fire phase offers ``shoot`` only to a unit whose order is not 0.

``Flags`` switch in the faults each conformance check must catch: an option never read, a table cell never
read, a fingerprint that omits a field, an observation that leaks the orders or the dice, an undeclared cache,
an environment field declared used but never read. At night (environment ``light: night``) a dash needs one more.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from studio.model import registry
from studio.model.requirements import TableSpec
from studio.rules.api import TERMINAL, Game, Outcome, PhaseSpec, RulesError, State
from studio.rules.dice import Dice

PHASES = (PhaseSpec("move", "Move", "X 1", "active"), PhaseSpec("fire", "Fire", "X 2", "active"))
HIT_TABLE = TableSpec("hit", rule="X 2.1", columns=("range", "hit"), numeric=("hit",), integer=("range",),
                      keys=("1", "2"))
TARGET = 12


@dataclass(frozen=True)
class Flags:
    read_option: bool = True        # False: 'edge-los' is declared but never read
    read_all_cells: bool = True     # False: row 2 of 'hit' is never read (not compiled, never played)
    fingerprint_order: bool = True  # False: fingerprint() leaves out each unit's order
    hide_orders: bool = True        # False: observation() shows the enemy's orders
    reseed_dice: bool = True        # False: observation() keeps the real dice
    declare_cache: bool = True      # False: the derived cache slot is not listed in DERIVED_SLOTS
    positions: bool = True          # False: the Game has no state_from_position
    read_light: bool = True         # False: environment 'light' is declared used but never read


class AlphaGame(Game):
    ruleset_id = "alpha"
    phases = PHASES

    def __init__(self, scenario, index, options, flags: Flags = Flags()):
        rs = index.model("ruleset", scenario.ruleset)
        self.flags = flags
        self.ruleset_version = rs.version
        self.scenario_id = scenario.id
        self.sides = [s.id for s in scenario.sides]
        self.max_turns = scenario.turns
        self.options = dict(options or {})
        rows = rs.table("hit").rows
        self.hit = {row[0]: row[1] for row in (rows if flags.read_all_cells else rows[:1])}   # X 2.1
        both = self.options.get("edge-los") == "block-if-both"
        self.step = 2 if both and flags.read_option else 1                                      # X 1.1
        self.cards = set(index.ids("unit"))
        night = scenario.environment.light == "night" and flags.read_light
        self.dash_penalty = 1 if night else 0                                                 # X 3: at night

    def data_fingerprint(self) -> str:
        return repr(sorted(self.hit.items()))

    def new_initial_state(self, seed: int) -> "AlphaState":
        dice = Dice(seed)
        units = [AlphaUnit(f"{side}-1", "tank", s, 0, dice.randrange(3)) for s, side in enumerate(self.sides)]
        return AlphaState(self, dice, units)

    def parse_action(self, text: str):
        if text not in ("step", "dash", "shoot", "hold"):
            raise ValueError(f"unknown action '{text}'")
        return text

    def __getattr__(self, name):
        if name == "state_from_position" and self.flags.positions:
            return self._state_from_position
        raise AttributeError(name)

    def _state_from_position(self, position) -> "AlphaState":
        from studio.rules.position import PositionError

        state = self.new_initial_state(0)
        if position.units is not None:
            state.units = []
            for i, u in enumerate(position.units):
                unknown = set(u.status) - {"pos", "order"}
                if unknown:
                    raise PositionError(f"unknown status key(s) {sorted(unknown)}", f"/units/{i}/status")
                state.units.append(AlphaUnit(u.id or f"{u.side}-{i + 1}", u.card, self.sides.index(u.side),
                                             int(u.status.get("pos", 0)), int(u.status.get("order", 1))))
            for s in range(len(self.sides)):
                if not any(u.side == s for u in state.units):
                    raise PositionError(f"side '{self.sides[s]}' has no unit", "/units")
        state.turn = position.turn
        state.phase = position.phase
        if position.to_act is not None:
            state.player = self.sides.index(position.to_act)
        return state


@dataclass
class AlphaUnit:
    id: str
    card: str
    side: int
    pos: int
    order: int  # hidden from the other side


@dataclass
class AlphaState(State):
    game: AlphaGame
    dice: Dice
    units: list[AlphaUnit]
    turn: int = 1
    phase: str = "move"
    player: int = 0
    legal_cache: list | None = field(default=None, compare=False)

    @property
    def DERIVED_SLOTS(self) -> dict[str, str]:  # noqa: N802 - the contract's name
        return {"legal_cache": "legal actions, rebuilt from the other fields"} if self.game.flags.declare_cache else {}

    def _first(self, side: int) -> AlphaUnit:
        return next(u for u in self.units if u.side == side)

    def phase_id(self) -> str:
        return self.phase

    def current_player(self) -> int:
        if self.turn > self.game.max_turns or any(u.pos >= TARGET for u in self.units):
            return TERMINAL
        return self.player

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        if self.legal_cache is None:
            if self.phase == "move":
                self.legal_cache = ["dash", "step"]
            else:
                self.legal_cache = ["hold", "shoot"] if self._first(self.player).order else ["hold"]
        return list(self.legal_cache)

    def explain_illegal(self, action):
        rule = "X 1" if self.phase == "move" else "X 2"
        return RulesError(f"'{action}' is not legal in the {self.phase} phase", rule)

    def apply(self, action) -> None:
        me, enemy = self._first(self.player), self._first(1 - self.player)
        if action == "step":
            me.pos += self.game.step                                                           # X 1.1
        elif action == "dash" and self.dice.roll(10, "dash") >= self.game.hit[1] + self.game.dash_penalty:
            me.pos += 3                                                                        # X 2.1
        elif action == "shoot" and self.dice.roll(10, "shoot") >= self.game.hit.get(2, 7):
            enemy.pos = max(0, enemy.pos - 1)                                                  # X 2.1
        self.legal_cache = None
        if self.phase == "move":
            self.phase = "fire"
            return
        self.phase = "move"
        self.player = 1 - self.player
        if self.player == 0:
            self.turn += 1

    def clone(self) -> "AlphaState":
        return AlphaState(self.game, self.dice.clone(), [dataclasses.replace(u) for u in self.units], self.turn,
                          self.phase, self.player)

    def outcome(self) -> Outcome:
        best = [max(u.pos for u in self.units if u.side == s) for s in range(2)]
        winner = None if best[0] == best[1] else (0 if best[0] > best[1] else 1)
        return Outcome(winner, [float(b) for b in best], "race", min(self.turn, self.game.max_turns), [0, 0])

    def _visible(self) -> str:
        show = self.game.flags.fingerprint_order
        units = [(u.id, u.card, u.side, u.pos, u.order if show else "") for u in self.units]
        return f"{self.turn}|{self.phase}|{self.player}|{units}"

    def fingerprint(self) -> str:
        return f"{self._visible()}|{self.dice.fingerprint()}"

    def observation(self, player: int) -> "AlphaState":
        view = self.clone()
        if self.game.flags.hide_orders:
            for u in view.units:
                if u.side != player:
                    u.order = 0
        if self.game.flags.reseed_dice:  # seeded from what the player sees, never from the real dice
            view.dice = Dice.seeded_from(view._visible())
        return view

    def scramble_hidden(self, player: int, seed: int) -> "AlphaState":
        rng = random.Random(seed)
        other = self.clone()
        for u in other.units:
            if u.side != player:
                u.order = rng.randrange(3)
        other.dice = Dice(rng.randrange(1 << 30))
        other.dice.force(*[rng.randint(1, 10) for _ in range(rng.randrange(4))])
        return other


def alpha_plugin(flags: Flags = Flags(), probes=None, **fields) -> registry.RulesetPlugin:
    """Register (and return) the toy plugin for ruleset 'alpha'; unregister it with ``registry.unregister``."""
    registry.load_plugins()
    registry.unregister("alpha")
    return registry.register(registry.RulesetPlugin(
        id="alpha", name="Toy alpha", engine_tables=(HIT_TABLE,), environment_fields=frozenset({"light"}),
        game_factory=lambda scenario, index, options: AlphaGame(scenario, index, options, flags),
        probes=(lambda: list(probes)) if probes is not None else None, **fields))
