"""The MBT state record and the sequence of play (MBT 4.0): the automaton that runs the phases, the legal actions
of the player to act and applying them. The rules of each chapter live in their own module (``spotting``,
``commands``, ``fire``, ``overwatch``, ``movement``, ``adjustment``), mixed into :class:`MbtState`.

Sequence of play (``PHASES``, MBT 4.0): Spotting (automatic) -> Command (every vehicle gets one of FIRE, MOVE,
SH (Short Halt), OW (Overwatch), NC, placed face down: ``observation`` hides unrevealed enemy commands) ->
Initiative (roll (100) per side, ties rerolled, the winner chooses First or Second Player) -> Combat (Direct
Fire: First Player announces all Fire/Short Halt shots, then they resolve; then the Second Player; then
Overwatch fire at units that fired, alternating from the First Player, cascading) -> Movement (Second Player
first, then First; after every hex entered or turn made the other side may Overwatch-fire, cascading) ->
Adjustment (unused Fire/SH -> Spot/Fire, unused Move -> Spot/Move, commands removed, objectives, end of turn).
"""
from __future__ import annotations

import hashlib
import random
from functools import partial

from studio.rules.api import TERMINAL, RulesError, State
from studio.rules.dice import Dice, LazyDice

from .actions import PASS, Action
from .adjustment import AdjustmentRules
from .codes import PHASE_IDS, CMD_CODES, CMD_NAMES, NC, DEAD, EXITED, NOMARK, ON, P_CMD, P_DF, P_INIT, P_MOVE, P_OVER, P_OWC, WAIT
from .commands import CommandRules
from .fire import FireRules
from .movement import MovementRules
from .overwatch import OverwatchRules
from .spotting import SpottingRules


class MbtState(SpottingRules, CommandRules, FireRules, OverwatchRules, MovementRules, AdjustmentRules, State):
    __slots__ = ("game", "dice", "turn", "phase", "first", "cp", "hex", "fac", "st", "dmg", "cmd", "rev", "fired",
                 "moved", "mk", "mkdf", "spots", "wreck", "bu_new", "cq", "df_side", "shots", "res_i", "reveal_for",
                 "conceal_once", "ow_side", "ow_pass", "ow_trig", "ow_ctx", "mv_idx", "mv_u", "mv_mode", "mv_left",
                 "mv_spent", "mv_turned", "mv_paid", "mv_steps", "mv_trail", "mv_end", "mv_exposed", "occ_start", "held",
                 "control", "lost", "exits", "ended", "init_rolls", "history", "outcome_memo", "events", "df_memo")

    DERIVED_SLOTS = {
        "game": "the compiled scenario and ruleset: static, shared by every state of the game",
        "history": "count of applied actions (seeds the observation dice); no rule reads it",
        "init_rolls": "the last initiative rolls, kept for display; later turns use 'first'",
        "outcome_memo": "the last outcome() by what it reads (AdjustmentRules._outcome_key): a cache",
        "df_memo": "the Direct Fire actions of the shooters of the side announcing now (_df_memo): a cache",
        "events": "narration of the rolls and results (replay viewer), appended only when dice.record is set",
        "ofire.d": "Advanced Game: the fire optional rules' compiled tables and card facts (opt_fire_data): static",
    }

    #: caches on (per game: compiled step costs; per state: see ``DERIVED_SLOTS``); False computes everything
    #: afresh, for the tests that compare the two on random playouts
    caching = True

    def __init__(self, game, seed: int | None = None):
        self.game = game
        if seed is None:
            return
        self._reset(seed)
        self._start_turn()
        self._advance()

    def _reset(self, seed: int) -> None:
        """Every field at its value before the first turn (units as the scenario sets them up)."""
        game = self.game
        self.dice = Dice(seed, record=False)
        n = game.n
        self.turn = 1
        self.first = 0
        self.cp = 0
        self.hex = [u.setup_hex for u in game.units]
        self.fac = [u.facing for u in game.units]
        self.st = [ON if u.entry_turn == 0 else WAIT for u in game.units]
        self.dmg = [False] * n
        self.cmd = [0] * n
        self.rev = [False] * n
        self.fired = [False] * n
        self.moved = [False] * n
        self.mk = [NOMARK] * n
        self.mkdf = [NOMARK] * n
        self.spots = [()] * n
        self.wreck: dict = {}
        self.bu_new: set = set()
        self.shots: list = []
        self.res_i = 0
        self.reveal_for = -1
        self.conceal_once = False
        self.ow_side = -1
        self.ow_pass = 0
        self.ow_trig: list = []
        self.ow_ctx = ""
        self.mv_idx = 0
        self.mv_u = -1
        self.mv_mode = "xc"
        self.mv_left = 0
        self.mv_spent = False
        self.mv_turned = 0
        self.mv_paid = False
        self.mv_steps = 0
        self.mv_trail: list = []
        self.mv_end = False
        self.mv_exposed = False
        self.occ_start: dict = {}
        self.held: dict = {}
        self.control: dict = {}
        self.lost = [0] * len(game.sides)
        self.exits: list = []
        self.ended = False
        self.init_rolls = ()
        self.df_side = 0
        self.cq = 0
        self.history = 0
        self.outcome_memo = None
        self.events: list = []
        self.df_memo = None

    def current_player(self) -> int:
        return TERMINAL if self.phase == P_OVER else self.cp

    def phase_id(self) -> str:
        """The PhaseSpec id of the current phase (``codes.PHASES``; "adjustment" once the game is over)."""
        ph = self.phase
        if ph == P_DF:
            return "direct-fire-first" if self.df_side == self.first else "direct-fire-second"
        if ph == P_MOVE:
            return "move-second" if self.mv_idx == 0 else "move-first"
        return PHASE_IDS[ph]

    def clone(self) -> "MbtState":
        """An independent copy (dice included); the per-unit lists, markers and bookkeeping are copied."""
        return self._copy(self.dice.clone())

    def _copy(self, dice) -> "MbtState":
        o = _new(type(self))
        o.game = self.game
        o.events = []
        o.dice = dice
        o.turn, o.phase, o.first, o.cp, o.cq = self.turn, self.phase, self.first, self.cp, self.cq
        o.df_side, o.res_i, o.reveal_for, o.conceal_once = self.df_side, self.res_i, self.reveal_for, self.conceal_once
        o.ow_side, o.ow_pass, o.ow_ctx = self.ow_side, self.ow_pass, self.ow_ctx
        o.mv_idx, o.mv_u, o.mv_mode, o.mv_left, o.mv_spent = self.mv_idx, self.mv_u, self.mv_mode, self.mv_left, \
            self.mv_spent
        o.mv_turned, o.mv_paid, o.mv_steps, o.mv_end, o.mv_exposed = self.mv_turned, self.mv_paid, self.mv_steps, \
            self.mv_end, self.mv_exposed
        o.ended, o.init_rolls, o.history, o.outcome_memo = self.ended, self.init_rolls, self.history, None
        o.df_memo = self.df_memo
        o.hex, o.fac, o.st, o.dmg = self.hex[:], self.fac[:], self.st[:], self.dmg[:]
        o.cmd, o.rev, o.fired, o.moved = self.cmd[:], self.rev[:], self.fired[:], self.moved[:]
        o.mk, o.mkdf, o.spots, o.shots = self.mk[:], self.mkdf[:], self.spots[:], self.shots[:]
        o.ow_trig, o.mv_trail, o.lost, o.exits = self.ow_trig[:], self.mv_trail[:], self.lost[:], self.exits[:]
        o.wreck = dict(self.wreck)
        o.bu_new = set(self.bu_new)
        o.occ_start = dict(self.occ_start)
        o.held = dict(self.held)
        o.control = dict(self.control)
        return o

    def fingerprint(self) -> str:
        """Every field that can change what happens next (``DERIVED_SLOTS`` lists the others)."""
        g = self.game
        lab = g.label

        def hexes(items) -> str:
            return ",".join(lab(h) if h else "-" for h in items)

        units = ";".join(f"{g.units[i].name}:{self.st[i]}:{lab(self.hex[i]) if self.hex[i] else '-'}:"
                         f"{self.fac[i]}:{int(self.dmg[i])}{self.cmd[i]}{int(self.rev[i])}{int(self.fired[i])}"
                         f"{int(self.moved[i])}{self.mk[i]}{self.mkdf[i]}:{'/'.join(map(str, self.spots[i]))}"
                         for i in range(g.n))
        marks = "|".join((
            ",".join(f"{lab(h)}={v}" for h, v in sorted(self.wreck.items())), hexes(sorted(self.bu_new)),
            ",".join(f"{lab(h)}={v}" for h, v in sorted(self.control.items())),
            ",".join(f"{lab(h)}={v}" for h, v in sorted(self.occ_start.items())),
            ",".join(f"{lab(h)}={v}" for h, v in sorted(self.held.items()))))
        shots = ",".join(f"{s}>{t}:{row.key if row is not None else '-'}" for s, t, row in self.shots)
        fire = (f"d{self.df_side}r{self.res_i}[{shots}]v{self.reveal_for}/{int(self.conceal_once)}"
                f"o{self.ow_side}/{self.ow_pass}/{self.ow_trig}/{self.ow_ctx}")
        move = (f"m{self.mv_idx}/{self.mv_u}/{self.mv_mode}/{self.mv_left}/{self.mv_steps}/{int(self.mv_spent)}"
                f"{self.mv_turned}{int(self.mv_paid)}{int(self.mv_end)}{int(self.mv_exposed)}[{hexes(self.mv_trail)}]")
        return (f"t{self.turn}p{self.phase}f{self.first}c{self.cp}q{self.cq}e{int(self.ended)}|{fire}|{move}|"
                f"{units}|{marks}|{self.lost}|{self.exits}|{self.dice.fingerprint()}")

    def observation(self, player: int) -> "LazyView":
        """What ``player`` may see, built on first use (a bot that never looks costs nothing): see ``observe``."""
        return LazyView(self, player)

    def observe(self, player: int) -> "MbtState":
        """What ``player`` may see: a clone in which the enemy's unrevealed commands are 0 (unknown, MBT 4.2.1)
        and the dice are reseeded from public facts (forced dice dropped), so neither the view nor its clones
        reveal hidden commands or the next rolls."""
        view = self._copy(LazyDice(partial(_public_seed, self.game.scenario_id, self.turn, self.phase, self.history, player)))
        cmd, rev = view.cmd, self.rev  # view.cmd is the view's own copy
        for i in self.game.enemies_of(player):
            if cmd[i] and not rev[i]:
                cmd[i] = 0
        return view

    def scramble_hidden(self, player: int, seed: int) -> "MbtState":
        """A clone with everything ``player`` may not know randomized: the enemy's unrevealed commands and the
        dice (seed and forced rolls)."""
        rng = random.Random(seed)
        other = self.clone()
        units = self.game.units
        for i, c in enumerate(self.cmd):
            if c and units[i].side != player and not self.rev[i]:
                other.cmd[i] = rng.choice(tuple(CMD_NAMES))
        other.dice = Dice(rng.randrange(1 << 30), record=False)
        other.dice.force(*(rng.randint(1, 100) for _ in range(rng.randrange(4))))
        return other
    def enemies_in(self, h, side: int) -> bool:
        """Is an opposing vehicle of ``side`` on the map in ``h``? (The vehicles in ``h`` found by ``list.index``,
        not by a Python loop over every vehicle.)"""
        hexes = self.hex
        if h not in hexes:
            return False
        st, units, find, i = self.st, self.game.units, hexes.index, -1
        try:
            while True:
                i = find(h, i + 1)
                if st[i] == ON and units[i].side != side:
                    return True
        except ValueError:
            return False

    def _start_turn(self) -> None:
        """Spotting Phase (MBT 4.1) and the start of the Command Phase (4.2)."""
        g = self.game
        units = g.units
        self._spotting_phase()
        for i in range(g.n):
            self.cmd[i] = 0
            self.rev[i] = self.fired[i] = self.moved[i] = False
        self.occ_start = {}
        on = [i for i in range(g.n) if self.st[i] == ON]
        for h in g.objectives:  # objectives held from the start of the turn (MBT 3.6)
            for i in on:
                if self.hex[i] == h and units[i].type.armed:
                    self.occ_start[h] = units[i].side
        self.phase = P_CMD
        self.cq = 0

    def _advance(self) -> None:
        """Run the automatic parts of the sequence of play until a player must act (or the game is over)."""
        while self.phase != P_OVER and not self._STEPS[self.phase](self):
            pass

    def _step_command(self) -> bool:
        """Command Phase (MBT 4.2.1): the next vehicle to command, else the Initiative Phase."""
        g = self.game
        while self.cq < g.n and not self._needs_cmd(self.cq):
            self.cq += 1
        if self.cq < g.n:
            self.cp = g.units[self.cq].side
            return True
        self._initiative()
        return False

    def _step_initiative(self) -> bool:
        return True  # the winner chooses (MBT 4.3.1)

    def _step_direct_fire(self) -> bool:
        """Direct Fire (MBT 4.4.1): all shots announced before any is resolved; First then Second Player."""
        if self.df_pending():  # a decision of an optional rule (FireRules.df_pending, MBT 7.44, 7.48)
            return True
        if self.reveal_for >= 0:
            self.cp = self.game.units[self.reveal_for].side
            return True
        if self._df_shooters():
            self.cp = self.df_side
            return True
        if self._resolve_shots():
            return False  # a reveal decision is pending
        self.bu_new.clear()
        if self.df_side == self.first:
            self.df_side = 1 - self.first
            self.shots, self.res_i = [], 0
            return False
        self._begin_owc()
        return False

    def _step_overwatch(self) -> bool:
        """Overwatch (MBT 4.4.2), in the Combat Phase or interrupting a move; True when a side may fire."""
        if self._ow_shots(self.ow_side):
            self.cp = self.ow_side
            return True
        self._ow_pass()
        return False

    def _step_combat_overwatch(self) -> bool:
        if self._ow_active():
            return self._step_overwatch()
        self.bu_new.clear()  # combat overwatch closed: the Movement Phase (MBT 4.5)
        self.phase = P_MOVE
        self.mv_idx = 0
        self.mv_u = -1
        return False

    def mover_side(self) -> int:
        """The side moving now: the Second Player, then the First (MBT 4.5; optional rule 7.5 may change it)."""
        return (1 - self.first) if self.mv_idx == 0 else self.first

    def _step_movement(self) -> bool:
        """Movement Phase (MBT 4.5): Second Player, then First, one vehicle at a time; then Adjustment."""
        if self._ow_active():
            return self._step_overwatch()
        g = self.game
        if self.mv_u >= 0:
            u = self.mv_u
            if self.st[u] in (DEAD, EXITED):
                self.moved[u] = True
                self.mv_u = -1
                return False
            self.cp = g.units[u].side
            return True
        mover = self.mover_side()
        if self._movers(mover):
            self.cp = mover
            return True
        self.bu_new.clear()
        if self.mv_idx == 0:
            self.mv_idx = 1
            return False
        self._adjust()
        return False

    _STEPS = {P_CMD: _step_command, P_INIT: _step_initiative, P_DF: _step_direct_fire,
              P_OWC: _step_combat_overwatch, P_MOVE: _step_movement}

    def legal_actions(self) -> list[Action]:
        g = self.game
        ph = self.phase
        if ph == P_OVER:
            return []
        if ph == P_CMD:
            name = g.units[self.cq].name
            return [Action(("command", name, CMD_NAMES[c])) for c in self.cmd_options(self.cq)]
        if ph == P_INIT:
            return [Action(("initiative", "first")), Action(("initiative", "second"))]
        if ph == P_DF:
            if self.reveal_for >= 0:
                name = g.units[self.reveal_for].name
                return [Action(("reveal", name)), Action(("conceal", name))]
            out = []
            memo = self._df_memo()
            for s in self._df_shooters():
                acts = memo.get(s) if memo is not None else None
                if acts is None:
                    acts = self._df_actions(s)
                    if memo is not None:
                        memo[s] = acts
                out += acts
            return out
        if self._ow_active():
            out = [PASS]
            for s, t, row in self._ow_shots(self.ow_side):
                out.append(Action(("ow", g.units[s].name, g.units[t].name, row.key)))
            return out
        if ph == P_MOVE:
            if self.mv_u >= 0:
                return self.move_options(self.mv_u)
            mover = self.mover_side()
            return [Action(("move", g.units[i].name)) for i in self._movers(mover)]
        return []

    def _df_actions(self, s: int) -> list[Action]:
        """The Direct Fire actions of shooter ``s`` (MBT 4.4.1): a shot at each target and row, else ``hold``."""
        g = self.game
        opts = self.fire_options(s, self.df_targets(s))
        if not opts:
            return [Action(("hold", g.units[s].name))]
        return [Action(("fire", g.units[s].name, g.units[t].name, row.key)) for t, row in opts]

    def _df_memo(self) -> dict | None:
        """Shooter -> its Direct Fire actions, kept while one side announces its shots (MBT 4.4.1: every shot is
        announced before any is resolved, so announcing changes no shooter's targets); shared by the clones and
        views of the step. None when not caching, or when a rule module overrides what the actions read."""
        cls = type(self)
        if not self.caching or cls._df_actions is not MbtState._df_actions or \
                cls.fire_options is not FireRules.fire_options or cls.df_targets is not SpottingRules.df_targets:
            return None
        key = (self.turn, self.df_side, self.first)
        memo = self.df_memo
        if memo is None or memo[0] != key:
            memo = self.df_memo = (key, {})
        return memo[1]

    def explain_illegal(self, action) -> RulesError:
        g = self.game
        k = action[0] if isinstance(action, tuple) and action else ""
        rules = {"command": ("each vehicle is given one command in turn (a command it cannot execute becomes "
                             "N/C)", "MBT 4.2.1"),
                 "fire": ("the target must be spotted by the firing vehicle, in range and in its field of fire; "
                          "each vehicle fires once per turn", "MBT 4.4.1"),
                 "ow": ("overwatch fire needs an unrevealed Overwatch command and a spotted target that fired or "
                        "moved", "MBT 4.4.2"),
                 "fwd": ("the move exceeds the speed allowance, enters prohibited terrain or breaks the height "
                         "limits", "MBT 4.5.1.1"),
                 "rev": ("the reverse move exceeds the speed allowance or enters prohibited terrain",
                         "MBT 4.5.1.1.7"),
                 "turn": ("turning may never exceed the speed allowance", "MBT 4.5.1.1.4"),
                 "done": ("a vehicle may never end its move in a hex with opposing vehicles", "MBT 4.5.1.1.10"),
                 "road": ("road/path rate: start on the road facing along it", "MBT 4.5.1.1.5"),
                 "enter": ("entry hexes must be free of opposing vehicles", "MBT 4.5.1.1.9"),
                 "exit": ("the exit costs more than the remaining allowance", "MBT 4.5.1.1.9")}
        msg, rule = rules.get(k, (f"'{action}' is not legal in this phase", "MBT 4.0"))
        if isinstance(action, tuple) and len(action) > 1 and isinstance(action[1], str) and \
                action[1] not in g.uindex and k not in ("initiative",):
            return RulesError(f"no unit '{action[1]}'", "MBT 4.0")
        return RulesError(f"'{action}' is illegal: {msg}", rule)

    def play(self, action) -> None:
        """Checked apply. A command the vehicle cannot execute is not refused: it becomes N/C (MBT 4.2.1)."""
        if self.phase == P_CMD and self._converted_command(action):
            action = Action(("command", action[1], CMD_NAMES[NC]))
        super().play(action)

    def _converted_command(self, action) -> bool:
        """Is ``action`` a command for the vehicle to command now that it may not be given (MBT 4.2.1)?"""
        return (isinstance(action, tuple) and len(action) == 3 and action[0] == "command" and
                action[1] == self.game.units[self.cq].name and action[2] in CMD_CODES and
                CMD_CODES[action[2]] not in self.cmd_options(self.cq))

    def apply(self, action) -> None:
        g = self.game
        k = action[0]
        ph = self.phase
        self.history += 1
        if ph == P_CMD:
            i = g.uindex[action[1]]
            self.cmd[i] = CMD_CODES[action[2]]
            self.cq += 1
        elif ph == P_INIT:
            winner = self.cp
            self.first = winner if action[1] == "first" else 1 - winner
            self._begin_df()
        elif ph == P_DF:
            if k in ("reveal", "conceal"):
                t = g.uindex[action[1]]
                if k == "reveal":
                    self.rev[t] = True
                else:
                    self.conceal_once = True
                self.reveal_for = -1
            elif k == "hold":
                # a Fire/Short Halt vehicle whose targets are all gone: no fire (unexecuted, MBT 4.6.1)
                self.shots.append((g.uindex[action[1]], -1, None))
            else:
                s, t = g.uindex[action[1]], g.uindex[action[2]]
                row = next(r for r in g.units[s].type.ap if r.key == action[3])
                self.shots.append((s, t, row))
        elif self._ow_active():
            if k == "pass":
                self._ow_pass()
            else:
                s, t = g.uindex[action[1]], g.uindex[action[2]]
                row = next(r for r in g.units[s].type.ap if r.key == action[3])
                self._shoot(s, t, row, overwatch=True)
                if s not in self.ow_trig:
                    self.ow_trig.append(s)  # the overwatch shooter becomes a trigger (cascade)
                self.ow_pass = 0
                if self.ow_ctx != "combat" or self.game.options["overwatch-order"] == "alternate":
                    self.ow_side = 1 - self.ow_side  # Q12: alternate, the First Player first
        elif ph == P_MOVE:
            self._apply_move(g.uindex[action[1]], action)
        else:
            raise RulesError(f"no action is possible now ('{action}')", "MBT 4.0")
        self._advance()


_new = object.__new__


class LazyView:
    """``MbtState.observation(player)``: the view is built (``observe``) when first read, and every attribute is
    the view's. Reading it after the state it came from has applied another action is an error (the view would
    show the later state)."""

    __slots__ = ("_state", "_player", "_history", "_view")

    def __init__(self, state: MbtState, player: int):
        self._state, self._player, self._history, self._view = state, player, state.history, None

    def materialize(self) -> MbtState:
        """The view itself (an ``MbtState``)."""
        if self._view is None:
            if self._state.history != self._history:
                raise RuntimeError("an observation read after its state applied another action: take a new one")
            self._view = self._state.observe(self._player)
        return self._view

    def __getattr__(self, name: str):
        return getattr(self.materialize(), name)


def _public_seed(scenario_id: str, turn: int, phase: int, history: int, player: int) -> int:
    """A dice seed from what every player knows (turn, phase, actions applied, the viewer)."""
    text = f"{scenario_id}:{turn}:{phase}:{history}:{player}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")
