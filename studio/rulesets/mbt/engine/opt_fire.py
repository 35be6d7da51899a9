"""The direct-fire Optional Rules (MBT 7.8, 7.11-7.18, 7.21, 7.23, 7.25, 7.44, 7.45, 7.47, 7.48, 7.50) as one mixin
of :class:`~.advanced.AdvState`: the per-state record ``ofire`` (:class:`FireRecord`; None when the scenario
switches none of them on, so play without them costs one test per hook) and the plumbing into the sequence of
play. The rules themselves live in ``opt_turrets`` (7.8, 7.45), ``opt_fire_damage`` (7.11-7.13, 7.17, 7.21, 7.23,
7.47) and ``opt_fire_decisions`` (7.14, 7.15, 7.18, 7.25, 7.44, 7.48, 7.50); the fire code (``ag_fire``,
``gp_fire``) calls them where each rule applies."""
from __future__ import annotations

import dataclasses

from studio.hexgrid.coords import distance

from .actions import Action
from .codes import NC, ON, P_AIR2, P_DF, P_MOVE, FIRE
from .opt_fire_damage import FireDamageRules
from .opt_fire_data import fire_data
from .opt_fire_decisions import CIS, PIN, FireDecisionRules
from .opt_turrets import TurretRules

_SETS = ("collat", "malf", "perm", "rep", "lostw", "inst")     # per unit frozensets
_LISTS = ("toff", "btn", "tadj", "tgt", "prev", "dby", "dused")  # per unit values


class FireRecord:
    """Per-state fields of the fire optional rules. Per unit: ``toff`` turret offset from the hull front, ``btn``
    Buttoned Up, ``tadj`` the move step of the last turret turn (MBT 7.8); ``collat`` collateral effects (7.23);
    ``malf``/``perm``/``rep`` malfunctioned, permanently out, repaired-this-turn weapons (7.25); ``lostw`` lost
    attached weapons (7.17); ``inst`` damaged installations (7.47); ``tgt``/``prev`` this and last turn's Fire
    target (-1 none, -2 no bonus, 7.50); ``dby`` who fired on this N/C unit, ``dused`` it fired back (7.15).
    Shared: ``pins`` announced pinning shots, ``pin_shot`` the overwatch shot being pinned (7.18); ``qd`` the
    pending Quickdraw (SPU, FPU), ``qd_asked`` shot indices already offered (7.44); ``cis_decl`` CIS declarations,
    ``cis2`` the pending second target (7.48); ``tq`` the Adjust Turret step's next unit (-1 not started);
    ``fuel_turn`` the turn whose fuel checks ran (7.23.4)."""

    __slots__ = ("d",) + _SETS + _LISTS + ("pins", "pin_shot", "qd", "qd_asked", "cis_decl", "cis2", "tq",
                                           "fuel_turn")

    @classmethod
    def new(cls, d, n: int) -> "FireRecord":
        r = cls()
        r.d = d
        for name in _SETS:
            setattr(r, name, [frozenset()] * n)
        r.toff, r.btn, r.tadj = [0] * n, [False] * n, [0] * n
        r.tgt, r.prev, r.dby, r.dused = [-1] * n, [-1] * n, [()] * n, [False] * n
        r.pins, r.pin_shot, r.qd, r.qd_asked = frozenset(), None, None, frozenset()
        r.cis_decl, r.cis2, r.tq, r.fuel_turn = frozenset(), None, -1, 0
        return r

    def copy(self) -> "FireRecord":
        r = FireRecord()
        r.d = self.d
        for name in _SETS + _LISTS:
            setattr(r, name, getattr(self, name)[:])
        r.pins, r.pin_shot, r.qd, r.qd_asked = self.pins, self.pin_shot, self.qd, self.qd_asked
        r.cis_decl, r.cis2, r.tq, r.fuel_turn = self.cis_decl, self.cis2, self.tq, self.fuel_turn
        return r

    def new_turn(self) -> None:
        """Start of a turn: last turn's Fire targets kept for 7.50; the per-turn records cleared."""
        n = len(self.toff)
        self.prev, self.tgt = self.tgt, [-1] * n
        self.dby, self.dused, self.rep = [()] * n, [False] * n, [frozenset()] * n
        self.tadj = [0] * n
        self.pins, self.pin_shot, self.qd, self.qd_asked = frozenset(), None, None, frozenset()
        self.cis_decl, self.cis2, self.tq = frozenset(), None, -1

    def fingerprint(self) -> str:
        per_unit = "".join(f"{self.toff[i]}{int(self.btn[i])}{self.tadj[i]}:{sorted(self.collat[i])}"
                           f"{sorted(self.malf[i])}{sorted(self.perm[i])}{sorted(self.rep[i])}{sorted(self.lostw[i])}"
                           f"{sorted(self.inst[i])}:{self.tgt[i]}/{self.prev[i]}/{self.dby[i]}{int(self.dused[i])},"
                           for i in range(len(self.toff)))
        return (f"{per_unit}|{sorted(self.pins)}{self.pin_shot}{self.qd}{sorted(self.qd_asked)}"
                f"{sorted(self.cis_decl)}{self.cis2}{self.tq}/{self.fuel_turn}")


class OptFireRules(TurretRules, FireDamageRules, FireDecisionRules):
    """The fire optional rules mixed into :class:`~.advanced.AdvState` (first in its bases)."""

    __slots__ = ()

    # ---------------------------------------------------------------- state plumbing
    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        d = fire_data(self.game)
        self.ofire = FireRecord.new(d, self.game.n) if d.any else None
        if d.any:
            d.add_cards(self.game)  # a caller may have replaced the game's units (tests, editors)

    def _copy(self, dice):
        o = super()._copy(dice)
        o.ofire = self.ofire.copy() if self.ofire is not None else None
        return o

    def fingerprint(self) -> str:
        base = super().fingerprint()
        return base if self.ofire is None else f"{base}|of[{self.ofire.fingerprint()}]"

    def _start_turn(self) -> None:
        if self.ofire is not None:
            self.ofire.new_turn()
        super()._start_turn()

    # ---------------------------------------------------------------- spotting (MBT 7.8.3)
    def _spot_targets(self) -> list[set]:
        """Buttoned Up spotters spot one row worse (MBT 7.8.3), on top of the suppression limits."""
        out = super()._spot_targets()
        rec = self.ofire
        if rec is None or not rec.d.on["turrets"] or not any(rec.btn):
            return out
        g = self.game
        for s in range(g.n):
            if not self.buttoned(s) or not self.spots[s]:
                continue
            extra = self.spotter_modifier(s) + (g.ag.spot_mod["spotter-suppressed"] if self.sup[s] else 0)
            self.spots[s] = tuple(t for t in self.spots[s]
                                  if distance(self.hex[s], self.hex[t]) <= self.ag_spot_range(t, self.mkdf[t], extra))
        by_side = [set() for _ in g.sides]
        for s in range(g.n):
            by_side[g.units[s].side].update(self.spots[s])
        return by_side

    # ---------------------------------------------------------------- legality
    def weapon_ok(self, s: int, t: int, row) -> bool:
        """Range and field of fire, and: weapons out of action (7.17, 7.23.1, 7.25, 7.47), a Buttoned vehicle that
        must be Open to fire (7.8.3) and the turret's field of fire (7.8, 7.8.4)."""
        if not super().weapon_ok(s, t, row):
            return False
        if self.ofire is None:
            return True
        if self.row_blocked(s, row):
            return False
        return not self.turret_row(s, row) or self.turret_may_fire(s, t, not self.df_context())

    def row_blocked(self, s: int, row) -> bool:
        rec = self.ofire
        w = row.weapon
        if w in rec.malf[s] or w in rec.perm[s] or w in rec.rep[s] or w in rec.lostw[s]:
            return True
        if rec.collat[s] and self.effective_sight(s, row) is None:
            return True
        if rec.btn[s] and rec.d.cards[self.game.units[s].type.id].open_required:
            return True  # the card's Notes: it must be Open to fire (MBT 7.8.3; the flag is card-wide)
        return self.installation_blocks(s, row)

    def ow_inside(self, s: int, t: int, row) -> bool:
        """With turrets the turret's own arc decides Overwatch vs Overwatch Adjust (MBT 7.8.4)."""
        if self.ofire is not None and self.turret_row(s, row):
            return self.in_turret_arc(s, t)
        return super().ow_inside(s, t, row)

    def _ow_shooters(self, side: int) -> list[int]:
        out = super()._ow_shooters(side)
        if self.ofire is not None:
            out += [i for i in self.defensive_shooters(side) if i not in out]
        return out

    def _ow_shots(self, side: int) -> list:
        """Defensive Fire only at the unit's own firers (MBT 7.15)."""
        out = super()._ow_shots(side)
        if self.ofire is None or not self.ofire.d.on["defensive"]:
            return out
        dby = self.ofire.dby
        return [(s, t, row) for s, t, row in out if self.cmd[s] != NC or t in dby[s]]

    # ---------------------------------------------------------------- hooks of the fire code
    def opt_shot_row(self, s: int, t: int, row, overwatch: bool):
        """Before a shot: records for 7.15 and 7.50; a CIS declaration fires at ROF N (7.48)."""
        self.note_fired_on(s, t)
        self.note_df_target(s, t, overwatch)
        if self.cmd[s] == NC and overwatch:
            self.ofire.dused[s] = True
        if s in self.ofire.cis_decl and row.rof != "N":
            row = dataclasses.replace(row, rof="N")
        return row

    def opt_after_shot(self, s: int, t: int, row) -> None:
        """After a shot: the turret now faces the target it fired at (MBT 7.8.4)."""
        if self.turret_row(s, row):
            self.turret_follow(s, t)

    def opt_ap_modifier(self, s: int, t: int, row, overwatch: bool) -> int:
        """AP hit modifiers of the optional rules: Defensive Fire (7.15), damaged optics (7.23.1), NATO Target
        Acquisition Bonus (7.50)."""
        net = self.nato_modifier(s, t, row, overwatch, False)
        if overwatch and self.cmd[s] == NC and self.ofire.d.on["defensive"]:
            net += self.defensive_modifier(s, False)
        return net + self.collateral_fire_mod(s, False)

    def opt_gp_modifier(self, s: int, t: int, row, overwatch: bool) -> int:
        """GP fire modifiers of the optional rules: 7.15, 7.18 Pinning Fire, 7.23.1, 7.50."""
        net = self.nato_modifier(s, t, row, overwatch, True)
        if overwatch and self.cmd[s] == NC and self.ofire.d.on["defensive"]:
            net += self.defensive_modifier(s, True)
        if self.pinning(s, t):
            net += self.ofire.d.values["pinning-gp"]
        return net + self.collateral_fire_mod(s, True)

    def pinning(self, s: int, t: int) -> bool:
        rec = self.ofire
        return (s, t) in rec.pins or rec.pin_shot == (s, t)

    def _before_resolve(self, s: int, t: int, row) -> bool:
        return self.ofire is not None and self.quickdraw_pending(s, t)

    def _after_resolve(self, s: int, t: int, row) -> bool:
        return self.ofire is not None and self.cis_second(s, t)

    def df_pending(self) -> bool:
        return self.ofire is not None and self.df_decision()

    # ---------------------------------------------------------------- actions
    def legal_actions(self) -> list:
        rec = self.ofire
        if rec is None:
            return super().legal_actions()
        if self.phase == P_DF and not self._ow_active() and (rec.qd is not None or rec.cis2 is not None):
            return self.df_decision_actions()
        out = super().legal_actions()
        if self.phase == P_DF and self.reveal_for < 0 and not self._ow_active():
            return out + self._variants(out, "fire")
        if self._ow_active():
            return out + self._variants(out, "ow")
        return out

    def _variants(self, actions: list, verb: str) -> list:
        """The ``+pin`` (7.18) and ``+cis`` (7.48) forms of the legal shots."""
        g = self.game
        out = []
        for a in actions:
            if a[0] != verb:
                continue
            s, t = g.uindex[a[1]], g.uindex[a[2]]
            row = self._row(s, a[3])
            if self.may_pin(s, t, row):
                out.append(Action((verb, a[1], a[2], a[3] + PIN)))
            if verb == "fire" and self.may_cis(s, row):
                out.append(Action((verb, a[1], a[2], a[3] + CIS)))
        return out

    def _row(self, s: int, key: str):
        return next(r for r in self.game.units[s].type.ap if r.key == key)

    def apply(self, action) -> None:
        rec = self.ofire
        if rec is None:
            super().apply(action)
            return
        if self.phase == P_DF and not self._ow_active() and (rec.qd is not None or rec.cis2 is not None):
            self.history += 1
            self.apply_df_decision(action)
            self._advance()
            return
        if self.phase == P_MOVE and action[0] == "turn" and len(action) == 4 and action[2] == "turret":
            self.history += 1
            i = self.game.uindex[action[1]]
            self.apply_turret_move(i, int(action[3]))
            self._after_step(i)
            self._advance()
            return
        if action[0] in ("fire", "ow") and len(action) == 4 and action[3].endswith((PIN, CIS)):
            self._apply_variant(action)
            return
        super().apply(action)

    def _apply_variant(self, action) -> None:
        g = self.game
        rec = self.ofire
        key, flag = action[3][:-4], action[3][-4:]
        s, t = g.uindex[action[1]], g.uindex[action[2]]
        base = Action((action[0], action[1], action[2], key))
        if flag == CIS:
            rec.cis_decl = rec.cis_decl | {s}
        elif action[0] == "fire":
            rec.pins = rec.pins | {(s, t)}
        else:
            rec.pin_shot = (s, t)
        if self.dice.record:
            self.narrate(f"{g.units[s].name} declares {'Pinning Fire (MBT 7.18)' if flag == PIN else 'CIS (MBT 7.48)'}")
        try:
            super().apply(base)
        finally:
            rec.pin_shot = None

    def move_options(self, i: int) -> list:
        out = super().move_options(i)
        if self.ofire is not None and self.ofire.d.on["turrets"] and self.mv_u == i:
            out += self.turret_move_options(i)
        return out

    # ---------------------------------------------------------------- Adjust Turret step (MBT 7.8.1, 7.8.3)
    def _step_air(self) -> bool:
        """After the 2nd Air Phase the Adjustment Phase's steps in the rulebook's order (MBT 6.8): Adjust Turret &
        Visualization (6.8.2) before Adjust Full Cover (6.8.3); once the turret step began the Air Phase is over."""
        if self.ofire is not None and self.phase == P_AIR2 and self.ofire.tq >= 0:
            return self._fc_step()
        return super()._step_air()

    def _fc_step(self) -> bool:
        """The Adjust Turret step (MBT 6.8.2) runs first, then the Adjust Full Cover Step (6.8.3)."""
        if self.ofire is not None and self.turret_step():
            return True
        return super()._fc_step()

    def air_actions(self) -> list:
        if self.turret_step_active():
            return self.turret_step_actions()
        return super().air_actions()

    def apply_air(self, action) -> None:
        if self.turret_step_active():
            self.apply_turret_step(action)
            return
        super().apply_air(action)

    def phase_id(self) -> str:
        if self.turret_step_active():
            return "adjustment"
        return super().phase_id()

    # ---------------------------------------------------------------- Damaged Radio Set (MBT 7.23.5)
    def in_command_range(self, a: int, b: int, f: int) -> bool:
        """A Damaged Radio Set makes the unit's Command Range 0 (MBT 7.23.5.2): linked only in the same hex (and
        the morale command bonus only there, 7.23.5.4)."""
        ok = super().in_command_range(a, b, f)
        if ok and self.ofire is not None and (self.radio_damaged(a) or self.radio_damaged(b)):
            return self.hex[a] == self.hex[b] and self.game.options["command-range-zero"] != "no-spreading"
        return ok

    def if_calls(self, side: int) -> list:
        """An observer with a Damaged Radio Set may not call indirect fire (MBT 7.23.5.3)."""
        out = super().if_calls(side)
        if self.ofire is None or not any(self.ofire.collat):
            return out
        g = self.game
        out = [a for a in out if not (a[0] == "call" and a[2] in g.uindex and self.radio_damaged(g.uindex[a[2]]))]
        return out if any(a[0] != "pass" for a in out) else []

    # ---------------------------------------------------------------- other steps
    def _initiative(self) -> None:
        """The end of the Command Phase: weapon repair rolls (MBT 7.25), then the Initiative Phase."""
        if self.ofire is not None:
            self.repair_weapons()
        super()._initiative()

    def _recover(self) -> None:
        """A unit that used Defensive Fire recovers as one with a command other than N/C (MBT 7.15)."""
        rec = self.ofire
        used = [i for i in range(self.game.n) if rec is not None and rec.dused[i] and self.cmd[i] == NC]
        for i in used:
            self.cmd[i] = FIRE
        try:
            super()._recover()
        finally:
            for i in used:
                self.cmd[i] = NC

    def _step_close_combat(self) -> bool:
        """The Movement Phase opens with the fuel checks of 7.23.4."""
        if self.ofire is not None and self.ca_side == -1 and self.ofire.d.on["collateral"]:
            self.fuel_checks()
        return super()._step_close_combat()

    def msa(self, i: int, rate: int) -> int:
        """Running gear damage costs movement factors (MBT 7.23.3)."""
        if self.ofire is not None:
            rate = self.running_gear_rate(i, rate)
        return super().msa(i, rate)

    def apply_leg_result(self, t: int, effect: str) -> str:
        """A full squad reduced by GP fire may lose its attached weapons (MBT 7.17)."""
        was = self.red[t]
        result = super().apply_leg_result(t, effect)
        if self.ofire is not None and not was and self.red[t] and self.st[t] == ON:
            self.attached_loss(t)
        return result


__all__ = ["OptFireRules", "FireRecord"]
