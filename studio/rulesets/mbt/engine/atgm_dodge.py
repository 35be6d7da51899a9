"""ATGM Dodge (MBT 5.1.3.3.4), Advanced Game, against ATGM Direct Fire of the Combat Phase; mixed into
:class:`~.advanced.AdvState` (slots ``dodge_q``, ``dodge_c``).

Before an ATGM shot of a vehicle or crew-served weapon resolves, its target may dodge when it: is a vehicle with a
Move command (not Short Halt); spotted the firing unit in this turn's Spotting Phase; stands further away than
the missile's speed SP (and the SP does not exceed the ATGM's maximum range, e.g. the Dragon). It may spend 1
(speed allowance 6 or less) or 2 (7 or more) of its allowance per full SP increment of the range; a hex it could
so enter that blocks the firer's LOS or takes it beyond the firer's spotting range (with the Spot/Move modifier)
makes the shot an automatic miss: the target's owner answers ``fwd T`` / ``rev T`` (dodge into the hex ahead or
behind) or ``hold T`` (no dodge). Against Direct Fire the vehicle is committed to that hex: its move in the
Movement Phase starts with that step (``dodge_c``). Against Overwatch ATGM fire at the moving vehicle in the
Movement Phase it moves there at once (paying the step from its allowance; the new hex may be overwatched).

Helicopter ATGMs announced in the 1st Air Phase (not pop-up attacks) are dodged the same way (``air.AirRules``
asks; the target is committed to its step). ATGM Overwatch Response (5.1.3.3.5) and Under Fire (5.1.3.3.6):
``atgm_under_fire.UnderFireRules`` (a base of this class). Not here (COVERAGE-ADVANCED.md): dodges of more than
one hex or with turns."""
from __future__ import annotations

from studio.hexgrid.coords import distance, neighbour

from .actions import Action
from .atgm_under_fire import UNDER_FIRE_SLOTS, UnderFireRules
from .codes import MFIRE, MMOVE, MOVE, ON, P_AIR1, P_DF, P_MOVE

DODGE_SLOTS = ("dodge_q", "dodge_c") + UNDER_FIRE_SLOTS


class AtgmDodgeRules(UnderFireRules):
    """MBT 5.1.3.3.4 against Combat Phase ATGM Direct Fire."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.dodge_q = None       # the pending dodge decision: (shot index, [verbs the target may dodge with])
        self.dodge_c = {}         # unit -> committed first step of its move ("fwd" or "rev")

    def _copy(self, dice):
        o = super()._copy(dice)
        o.dodge_q, o.dodge_c = self.dodge_q, dict(self.dodge_c)
        return o

    def fingerprint(self) -> str:
        base = super().fingerprint()
        if self.dodge_q is None and not self.dodge_c:
            return base
        return f"{base}|dg{self.dodge_q}{sorted(self.dodge_c.items())}"

    def _start_turn(self) -> None:
        self.dodge_q, self.dodge_c = None, {}
        super()._start_turn()

    # ---------------------------------------------------------------- the decision
    def dodge_steps(self, s: int, t: int, row) -> list:
        """The one-hex dodges (``fwd``/``rev``) that would make this ATGM shot miss (MBT 5.1.3.3.4)."""
        g = self.game
        spec = row.atgm
        ut = g.units[t].type
        if row.kind != "ATGM" or spec is None or (g.units[s].type.ag.heli and not self._heli_dodgeable(s)) or \
                ut.ag.leg or ut.ag.heli or \
                self.cmd[t] != MOVE or self.st[t] != ON or spec.speed > row.max_range or s not in self.spots[t]:
            return []
        r = distance(self.hex[s], self.hex[t])
        if r <= spec.speed:
            return []
        budget = (r // spec.speed) * (1 if self.msa(t, ut.cc) <= 6 else 2)
        out = []
        for verb, f in (("fwd", self.fac[t]), ("rev", (self.fac[t] + 3) % 6)):
            b = neighbour(self.hex[t], f)
            if b not in g.map.label_of or g.units[t].type.traction not in g.cost.get(b, {}):
                continue
            cost = self.step_cost(t, self.hex[t], b, verb == "rev")
            if cost is not None and cost <= budget and self._hidden_from(s, t, b):
                out.append(verb)
        return out

    def _heli_dodgeable(self, s: int) -> bool:
        """Helicopter ATGMs may be dodged in the 1st Air Phase, not in a pop-up attack (MBT 5.1.3.3.4)."""
        return self.phase == P_AIR1 and self.popup != s

    def _hidden_from(self, s: int, t: int, b) -> bool:
        """From hex ``b``, is ``t`` out of ``s``'s LOS (a helicopter at Low: the aircraft LOS) or beyond its
        spotting range with Spot/Move?"""
        low = self.game.units[s].type.ag.heli and self.heli_alt[s] == "low"
        if not (self.air_los("low", b) if low else self.game.los.clear(self.hex[s], b)):
            return True
        here, mark = self.hex[t], self.mk[t]
        self.hex[t], self.mk[t] = b, MMOVE
        try:
            return distance(self.hex[s], b) > self.spot_range(t)
        finally:
            self.hex[t], self.mk[t] = here, mark

    def _before_resolve(self, s: int, t: int, row) -> bool:
        if super()._before_resolve(s, t, row):
            return True
        if self.dodge_q is not None and self.dodge_q[0] == (self.df_side, self.res_i):
            return self.dodge_q[1] is not None  # asked: waiting, or answered 'hold'
        steps = self.dodge_steps(s, t, row) if row.kind == "ATGM" else []
        if not steps:
            return False
        self.dodge_q = ((self.df_side, self.res_i), tuple(steps))
        return True

    def df_pending(self) -> bool:
        if super().df_pending():
            return True
        if self.dodge_q is None or self.dodge_q[1] is None:
            return False
        self.cp = self.game.units[self.shots[self.res_i][1]].side
        return True

    def legal_actions(self) -> list:
        if self._ow_dodge_pending():
            name = self.game.units[self.dodge_q[2]].name
            return [Action((v, name)) for v in self.dodge_q[4]] + [Action(("hold", name))]
        if self.phase == P_DF and self.dodge_q is not None and self.dodge_q[1] is not None and \
                not self._ow_active() and not self._other_df_decision():
            name = self.game.units[self.shots[self.res_i][1]].name
            return [Action((v, name)) for v in self.dodge_q[1]] + [Action(("hold", name))]
        return super().legal_actions()

    def _other_df_decision(self) -> bool:
        rec = getattr(self, "ofire", None)
        return rec is not None and (rec.qd is not None or rec.cis2 is not None)

    def apply(self, action) -> None:
        if self._ow_dodge_pending():
            self._apply_ow_dodge(action)
            return
        if self.phase == P_MOVE and self._ow_active() and action[0] == "ow" and len(action) == 4 and \
                self._offer_ow_dodge(action):
            return
        if self.phase == P_DF and self.dodge_q is not None and self.dodge_q[1] is not None and \
                not self._ow_active() and not self._other_df_decision():
            self.history += 1
            self._apply_dodge(action)
            self._advance()
            return
        if self.phase == P_MOVE and action[0] in ("fwd", "rev") and len(action) == 2:
            self.dodge_c.pop(self.game.uindex.get(action[1], -1), None)
        super().apply(action)

    def _apply_dodge(self, action) -> None:
        """A dodge: the shot is an automatic miss (the firer still fired: revealed, Spot/Fire, a missile spent);
        the target is committed to the dodge step. ``hold``: the shot resolves normally."""
        key, steps = self.dodge_q
        s, t, row = self.shots[self.res_i]
        if action[0] == "hold":
            self.dodge_q = (key, None)  # answered: the shot resolves
            return
        self.dodge_q = None
        self.res_i += 1
        self.fired[s] = self.rev[s] = True
        self.mk[s] = MFIRE
        self.dodge_miss(s, t, row, action[0], self.game.units[s].name)

    def dodge_miss(self, s: int, t: int, row, answer: str, firer: str) -> None:
        """MBT 5.1.3.3.4: target ``t`` dodged ``s``'s ATGM shot (``answer`` fwd/rev): the missile is spent, the
        shot misses, the dodge move is committed and the target shows the Move command. ``firer`` names the
        shooter in the narration."""
        self.ammo_check(s, t, row)
        self.short = None
        self.dodge_c[t] = answer
        self.rev[t] = True  # dodging shows the Move command
        self.narrate(f"{self.game.units[t].name} dodges the {row.ammo} of {firer} ({answer}, MBT 5.1.3.3.4): "
                     "an automatic miss")

    # ---------------------------------------------------------------- Overwatch during the Movement Phase
    def _ow_dodge_pending(self) -> bool:
        return self.dodge_q is not None and self.dodge_q[0] == "ow"

    def _offer_ow_dodge(self, action) -> bool:
        """An Overwatch ATGM shot at the moving vehicle: its owner may dodge first (MBT 5.1.3.3.4)."""
        g = self.game
        s, t = g.uindex.get(action[1], -1), g.uindex.get(action[2], -1)
        if s < 0 or t != self.mv_u:
            return False
        row = next((r for r in g.units[s].type.ap if r.key == action[3]), None)
        if row is None or row.kind != "ATGM" or action not in self.legal_actions():
            return False
        legal = {a[0] for a in self.move_options(t)}
        steps = tuple(v for v in self.dodge_steps(s, t, row) if v in legal)
        if not steps:
            return False
        self.history += 1
        self.dodge_q = ("ow", s, t, row.key, steps)
        self.cp = g.units[t].side
        return True

    def _apply_ow_dodge(self, action) -> None:
        """``hold``: the overwatch shot resolves; a dodge step: the vehicle moves now, the ATGM misses, the
        overwatching unit has fired (a trigger of the cascade, MBT 4.4.2)."""
        _, s, t, key, _ = self.dodge_q
        self.dodge_q = None
        g = self.game
        shot = Action(("ow", g.units[s].name, g.units[t].name, key))
        if action[0] == "hold":
            super().apply(shot)
            return
        self.history += 1
        row = next(r for r in g.units[s].type.ap if r.key == key)
        self.fired[s] = self.rev[s] = True
        self.mk[s] = MFIRE
        self.ammo_check(s, t, row)
        self.short = None
        self.narrate(f"{g.units[t].name} dodges the {row.ammo} of {g.units[s].name} ({action[0]}, MBT 5.1.3.3.4): "
                     "an automatic miss")
        side = 1 - g.units[t].side
        self._apply_move(t, Action((action[0], g.units[t].name)))  # opens the Overwatch of the new hex
        if self._ow_active() and self.ow_side == side and s not in self.ow_trig:
            self.ow_trig.append(s)  # the overwatching unit fired: a trigger for the mover's side
        self._advance()

    def move_options(self, i: int) -> list:
        """A dodging vehicle's move starts with its committed step when that step is still legal."""
        out = super().move_options(i)
        verb = self.dodge_c.get(i)
        if verb is None or self.mv_u != i or self.mv_steps:
            return out
        first = [a for a in out if a[0] == verb]
        return first or out


__all__ = ["AtgmDodgeRules", "DODGE_SLOTS"]
