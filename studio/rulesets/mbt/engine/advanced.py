"""The MBT Advanced Game (MBT 5.0-6.8) state: the Basic Game state (``state.MbtState``) with the Advanced
sequence of play and the chapter modules mixed in before it.

Sequence of play (``codes.ADV_PHASES``, MBT 6.0): Spotting -> Command (Determine Available Commands, then place
commands, MBT 6.2) -> Initiative (Force Grade modifiers, 6.3) -> 1st Air Phase (6.4) -> Combat: Indirect Fire
Step (6.5.1), Direct Fire AP and GP (6.5.2, 6.5.4), Overwatch (6.5.3) -> Movement (6.6) -> 2nd Air Phase (6.7) ->
Advanced Adjustment (6.8: Suppression recovery, counters, then the Basic adjustment and End Turn).
The air phases and the Indirect Fire Step pass at once while no unit of the scenario can act in them (the
engine models no aircraft or artillery yet: COVERAGE-ADVANCED.md).
"""
from __future__ import annotations

import random

from .ag_fire import AgFireRules
from .air import AIR_SLOTS, AirRules
from .assault import AssaultRules
from .codes import CARRIED, CMD_CODES, P_AIR1, P_AIR2, P_CMD, P_DF, P_IF, P_MOVE
from .command_control import CommandControlRules
from .gp_fire import GpFireRules
from .grades import GradeRules
from .indirect import IndirectRules
from .opt_command import OPT_COMMAND_SLOTS, OptCommandRules  # MBT 7.1-7.7, 7.24, 7.36, 7.40-7.46
from .opt_arty import ARTY_SLOTS, ARTY_VERBS, ArtyRules
from .leg import LegRules
from .ammo import AMMO_SLOTS, AmmoRules
from .atgm_dodge import DODGE_SLOTS, AtgmDodgeRules
from .opt_fire import OptFireRules
from .opt_move import MOVE_SLOTS, MoveOptionalRules
from .shared_commands import SharedCommandRules  # MBT 6.2.1.1.4
from .state import MbtState
from .suppression import SuppressionRules
from .transport import TransportRules
from .towed import TowedRules  # towed units (MBT 5.2, 6.6.5, 6.6.7)
from .opt_platform import PlatformRules  # MBT 7.16

AG_SLOTS = ("sup", "tdmg", "track", "bail", "attacked", "red", "carrier", "xfer", "grp", "budget", "if_side",
            "observed", "ca_side", "bat_fired", "air_side", "air_u", "air_done", "hover", "ofire", "sh_ow") + AMMO_SLOTS + DODGE_SLOTS + MOVE_SLOTS + AIR_SLOTS + ARTY_SLOTS + \
    OPT_COMMAND_SLOTS


class AdvState(SharedCommandRules, TowedRules, PlatformRules, OptCommandRules, AtgmDodgeRules, OptFireRules, AmmoRules, MoveOptionalRules, AirRules, AssaultRules, ArtyRules, IndirectRules, TransportRules, LegRules, AgFireRules, GpFireRules, SuppressionRules,
               CommandControlRules, GradeRules, MbtState):
    """Advanced Game state. Per unit: ``sup`` Suppression (none/on/off), ``tdmg`` Turret Damaged (``dmg`` is
    Hull Damaged), ``track`` Track hit, ``bail`` crew bailed out, ``attacked`` by direct fire this turn, ``grp``
    the shared command counter (its first unit; -1 none), ``red`` a squad reduced to its half-squad, ``carrier``
    the vehicle a passenger rides (-1 none); ``xfer`` the hex where the moving carrier paid for (dis)mounting;
    ``if_side`` the side calling indirect fire (-1 not started, -2 both done), ``observed`` this turn's observers,
    ``ca_side`` the side in the Close Assault / Hand-to-Hand Combat Step (-1 not started, -2 done); per off-map
    battery ``bat_fired`` (it fired this turn); the Air Phase's acting side ``air_side``, active helicopter
    ``air_u``, helicopters that acted ``air_done``, and per unit ``hover`` (hovering this Air Phase). Per formation: ``budget`` Available Commands left."""

    __slots__ = AG_SLOTS

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        n = self.game.n
        self.sup = [0] * n
        self.tdmg = [False] * n
        self.track = [False] * n
        self.bail = [False] * n
        self.attacked = [False] * n
        self.red = [False] * n
        self.carrier = list(self.game.initial_carrier)
        for p, c in enumerate(self.carrier):
            if c >= 0:
                self.st[p] = CARRIED
                self.hex[p] = self.hex[c]
        self.xfer = None
        self.if_side = -1
        self.observed = []
        self.ca_side = -1
        self.bat_fired = [False] * len(self.game.batteries)
        self._arty_reset()
        self.air_side, self.air_u, self.air_done, self.hover = -1, -1, [], [False] * n
        self.grp = [-1] * n
        self.sh_ow = [-1] * n
        self.budget = [0] * len(self.game.formation_side)

    def _copy(self, dice) -> "AdvState":
        o = super()._copy(dice)
        o.sup, o.tdmg, o.track, o.bail = self.sup[:], self.tdmg[:], self.track[:], self.bail[:]
        o.attacked, o.red, o.grp, o.budget = self.attacked[:], self.red[:], self.grp[:], self.budget[:]
        o.carrier, o.xfer, o.if_side, o.observed = self.carrier[:], self.xfer, self.if_side, self.observed[:]
        o.ca_side, o.bat_fired = self.ca_side, self.bat_fired[:]
        self._arty_copy(o)
        o.air_side, o.air_u, o.air_done, o.hover = self.air_side, self.air_u, self.air_done[:], self.hover[:]
        o.sh_ow = self.sh_ow[:]
        return o

    def fingerprint(self) -> str:
        ag = "".join(f"{self.sup[i]}{int(self.tdmg[i])}{int(self.track[i])}{int(self.bail[i])}"
                     f"{int(self.attacked[i])}{int(self.red[i])}:{self.grp[i]}:{self.carrier[i]}:{self.sh_ow[i]}," for i in range(self.game.n))
        xfer = self.game.label(self.xfer) if self.xfer is not None else "-"
        return f"{super().fingerprint()}|ag[{ag}]b{self.budget}x{xfer}i{self.if_side}{self.observed}c{self.ca_side}{self.bat_fired}a{self.air_side}/{self.air_u}{self.air_done}{self.hover}" + "|" + self.arty_fingerprint()

    def observe(self, player: int) -> "AdvState":
        """The Basic view, and the enemy's shared counters and Available Commands left unknown (-1): they would
        tell which hidden commands are unique (MBT 6.2.1.1.2)."""
        view = super().observe(player)
        g = self.game
        # ``view.rev``: a unit hidden from ``player`` (optional rule 7.2) has its set-up values in the view
        view.grp = [x if (g.units[i].side == player or view.rev[i]) else -1 for i, x in enumerate(self.grp)]
        view.budget = [b if g.formation_side[f] == player else -1 for f, b in enumerate(self.budget)]
        return view

    def scramble_hidden(self, player: int, seed: int) -> "AdvState":
        other = super().scramble_hidden(player, seed)
        rng = random.Random(seed + 1)
        g = self.game
        for i in range(g.n):
            if g.units[i].side != player and not self.rev[i]:
                other.grp[i] = rng.choice((-1, i))
        for f in range(len(self.budget)):
            if g.formation_side[f] != player:
                other.budget[f] = rng.randrange(5)
        return other

    # ---------------------------------------------------------------- sequence of play
    def _start_turn(self) -> None:
        """Spotting Phase, then the Command Phase's Determine Available Commands Step (MBT 6.2.1)."""
        super()._start_turn()
        self.observed = []
        self.ca_side = -1
        self.bat_fired = [False] * len(self.game.batteries)
        self._arty_turn_start()
        self._available_commands()

    def _begin_df(self) -> None:
        """After the Initiative Phase: the 1st Air Phase (MBT 6.4)."""
        self.phase = P_AIR1

    def _step_air1(self) -> bool:
        """1st Air Phase (MBT 6.4 -> 6.7): helicopters act; then the Indirect Fire Step (6.5.1)."""
        if self._step_air():
            return True
        self.phase = P_IF
        return False

    def _adjust(self) -> None:
        """After the Movement Phase: the 2nd Air Phase (MBT 6.7)."""
        self.phase = P_AIR2

    def _step_air2(self) -> bool:
        """2nd Air Phase (helicopters act), then the Advanced Adjustment Phase (MBT 6.8)."""
        if self._step_air():
            return True
        self._advanced_adjustment()
        return False

    def _advanced_adjustment(self) -> None:
        """MBT 6.8: Adjust/Remove Suppressions (6.8.4) and counters (6.8.6), then the Basic Adjust & Remove
        Counters and End Turn steps (4.6)."""
        self._recover()
        self._arty_adjust()
        MbtState._adjust(self)

    def _step_movement(self) -> bool:
        """The Movement Phase opens with the Close Assault / Hand-to-Hand Combat Step (MBT 6.6.1)."""
        if self.ca_side != -2 and self._step_close_combat():
            return True
        return MbtState._step_movement(self)

    def phase_id(self) -> str:
        if self.phase == P_MOVE and self.ca_side >= 0:
            return "close-combat"
        return super().phase_id()

    _STEPS = {**MbtState._STEPS, P_AIR1: _step_air1, P_IF: IndirectRules._step_indirect, P_AIR2: _step_air2,
              P_MOVE: _step_movement}

    def legal_actions(self) -> list:
        if self.phase in (P_AIR1, P_AIR2) and not self._ow_active():
            return self.air_actions()
        if self.phase == P_IF:
            return self.if_calls(self.if_side)
        if self.phase == P_MOVE and self.ca_side >= 0:
            return self.assaults(self.ca_side)
        if self.phase in (P_CMD, P_DF):
            extra = self.arty_actions()  # smoke dischargers (7.9), direct-fire and infantry smoke (6.1.4.3.10, 7.22)
            if extra:
                return extra + super().legal_actions()
        return super().legal_actions()

    def apply(self, action) -> None:
        """Commands go through Command Control (MBT 6.2.1), calls for fire through the Indirect Fire Step
        (6.5.1); everything else as in the Basic Game."""
        if action[0] in ARTY_VERBS:  # smoke dischargers, direct-fire and infantry smoke (opt_arty)
            self.history += 1
            self.apply_arty(action)
            self._advance()
            return
        if action[0] == "hide":  # a unit hides in the Command Phase (optional rule 7.2.3, hidden.py)
            self.history += 1
            self.apply_hide(action)
            self._advance()
            return
        close = self.phase == P_MOVE and self.ca_side >= 0
        air = self.phase in (P_AIR1, P_AIR2) and not self._ow_active()
        if self.phase not in (P_CMD, P_IF) and not close and not air:
            super().apply(action)
            return
        self.history += 1
        if air:
            self.apply_air(action)
        elif close:
            self.apply_assault(action)
        elif self.phase == P_IF:
            self.apply_if(action)
        else:
            i = self.game.uindex[action[1]]
            self._place_command(i, CMD_CODES[action[2]])
            self.cq += 1
        self._advance()

    def _turn_options(self, i: int) -> list:
        """A Track-hit vehicle may not pivot (MBT 6.5.2.2.1)."""
        return [] if self.track[i] else super()._turn_options(i)

    def _begin_move(self, i: int) -> None:
        """A Track-hit vehicle's move is a No Move move (MBT 6.5.2.2.1)."""
        super()._begin_move(i)
        if self.track[i]:
            self.mv_left = 0
            self.mv_end = True
