"""Optional Rules 7.8 Turrets and 7.45 Small Turrets (mixed into :class:`~.advanced.AdvState` by
:class:`~.opt_fire.OptFireRules`).

Turret facing is kept as an offset (hexsides clockwise) from the hull front (``FireRecord.toff``), so a hull that
turns or moves carries its turret along (MBT 7.8.1: "maintain its turret's facing in relation to its hull").
- MBT 7.8.1: during movement, after each new hex entered, the turret may turn up to its TT Factor (``turn UNIT
  turret K``, K = -TT..TT); in the Adjust Turret step of the Adjustment Phase (after the 2nd Air Phase) each
  turreted or A-Type vehicle turns its turret up to TT and A-Types choose Open or Buttoned for the next turn
  (``turn UNIT turret K open|buttoned``). Turret Damaged: TT 1 (table ``opt-fire-values`` damaged-turret-tt);
  a fixed turret ring (7.23.2) cannot turn. Track hits keep the TT.
- Direct fire of turret weapons (TT 1-3) goes into the turret's front arc (the ``ow-arc`` width), by option
  ``turret-direct-fire``: only there ('turret-arc'), or the turret may first turn up to TT to bring the target in
  ('turn-tt').
- MBT 7.8.4: Overwatch at a target outside the turret's arc takes the Overwatch Adjust modifier and is legal only
  if the turret can turn up to TT to cover it; the turret then faces the target.
- MBT 7.8.2: a turret hit location is read again for the turret's own Hit Angle (option ``turret-hit-reading``).
- MBT 7.8.3: Buttoned A-Types spot one row worse (the spotter's -1, ``spotter_modifier``); Open A-Types take
  turret damage from Effective GP results the GP Effectiveness could not otherwise reach, and from small-arms
  Effective results at Point Blank (``open_turret_result``).
- MBT 7.45: Small Turret vehicles not (Partial) Hull Down read location 2 as 6 and 4 as 8 (table
  ``small-turret-locations``).
"""
from __future__ import annotations

from .ag_fire import hit_angle
from .codes import ON, P_AIR2, P_DF
from .fire import in_field

TURRET_FACE = {"front": "TF", "front_side": "TS", "rear_side": "TS", "rear": "TR"}
TURRET_LOCS = ("TF", "TS", "TR")


class TurretRules:
    """Rules 7.8 and 7.45."""

    __slots__ = ()

    # ---------------------------------------------------------------- facts
    def turret_tt(self, i: int) -> int:
        """How many hexsides the turret of ``i`` may turn (MBT 7.8.1): the card's TT, 1 when Turret Damaged, 0 with
        a fixed turret ring (7.23.2) or no turret."""
        d = self.ofire.d
        tt = d.cards[self.game.units[i].type.id].tt
        if tt == 0 or "turret-ring" in self.ofire.collat[i]:
            return 0
        return min(tt, d.values["damaged-turret-tt"]) if self.tdmg[i] else tt

    def has_turret(self, i: int) -> bool:
        return self.ofire is not None and self.ofire.d.on["turrets"] and \
            self.ofire.d.cards[self.game.units[i].type.id].tt > 0

    def turret_facing(self, i: int) -> int:
        """The hexside the turret of ``i`` faces (the hull's without Optional Rule 7.8). For 7.20 Long Guns:
        ``turret_offset`` / ``set_turret_offset`` (0 = the hull front, 3 = the rear)."""
        if self.ofire is None or not self.ofire.d.on["turrets"]:
            return self.fac[i]
        return (self.fac[i] + self.ofire.toff[i]) % 6

    def turret_offset(self, i: int) -> int:
        return self.ofire.toff[i] if self.ofire is not None else 0

    def set_turret_offset(self, i: int, k: int) -> None:
        self.ofire.toff[i] = k % 6

    def buttoned(self, i: int) -> bool:
        """Is the A-Type vehicle ``i`` Buttoned Up (MBT 7.8.3)? False without Optional Rule 7.8."""
        return self.ofire is not None and self.ofire.d.on["turrets"] and self.ofire.btn[i]

    def open_a_type(self, i: int) -> bool:
        """An Open A-Type (MBT 7.8.3: more exposed to GP fire, close assault, air bursts and incendiaries)."""
        return self.ofire is not None and self.ofire.d.on["turrets"] and not self.ofire.btn[i] and \
            self.game.units[i].type.ag.target_type == "A" and not self.game.units[i].type.ag.leg

    def turret_row(self, s: int, row) -> bool:
        """Does ``row`` fire from the turret of ``s`` (a TT 1-3 weapon, Optional Rule 7.8 on)?"""
        return self.has_turret(s) and row.weapon in self.ofire.d.cards[self.game.units[s].type.id].turret_weapons

    # ---------------------------------------------------------------- arcs
    def _turret_arc(self) -> int:
        return int(self.game.options["ow-arc"])

    def in_turret_arc(self, s: int, t: int, facing: int | None = None) -> bool:
        f = self.turret_facing(s) if facing is None else facing
        return in_field(self.hex[s], f, self.hex[t], self._turret_arc(), False,
                        self.game.options["fof-hex-inclusion"] == "any-part")

    def turret_turn_to(self, s: int, t: int) -> int | None:
        """The smallest turret turn (signed hexsides, within TT) that brings ``t`` into the turret's arc; None when
        no turn within TT does (MBT 7.8.4)."""
        if self.in_turret_arc(s, t):
            return 0
        tt = self.turret_tt(s)
        f = self.turret_facing(s)
        for k in range(1, tt + 1):
            for sign in (1, -1):
                if self.in_turret_arc(s, t, (f + sign * k) % 6):
                    return sign * k
        return None

    def turret_may_fire(self, s: int, t: int, overwatch: bool) -> bool:
        """Turret weapon legality (MBT 7.8, 7.8.4): inside the turret arc, or after a turn within TT (Overwatch,
        and Direct Fire under option ``turret-direct-fire: turn-tt``)."""
        if self.in_turret_arc(s, t):
            return True
        if not overwatch and self.game.options["turret-direct-fire"] == "turret-arc":
            return False
        return self.turret_turn_to(s, t) is not None

    def turret_follow(self, s: int, t: int) -> None:
        """The turret turns to cover the target it fires at (MBT 7.8.4): its new facing."""
        k = self.turret_turn_to(s, t)
        if k:
            self.ofire.toff[s] = (self.ofire.toff[s] + k) % 6

    # ---------------------------------------------------------------- hit location
    def turret_location(self, s: int, t: int, tens: int, loc: str) -> str:
        """MBT 7.8.2: a turret hit is read again for the turret's Hit Angle with the same roll: the same tens on
        the turret angle's row (option ``turret-hit-reading: same-tens``; a hull location there keeps the turret
        face of that angle), or the turret face of that angle (``face-by-angle``)."""
        if loc not in TURRET_LOCS or not self.has_turret(t):
            return loc
        hull = hit_angle(self.hex[t], self.fac[t], self.hex[s])
        turret = hit_angle(self.hex[t], self.turret_facing(t), self.hex[s])
        if turret == hull:
            return loc
        if self.game.options["turret-hit-reading"] == "same-tens":
            again = self.game.ag.locations[(turret, tens)][0]
            if again in TURRET_LOCS:
                return again
        return TURRET_FACE[turret]

    def small_turret_tens(self, s: int, t: int, tens: int, angle: str) -> int:
        """MBT 7.45: a Small Turret vehicle not Hull Down or Partial Hull Down (``hull_down_state``, MBT 6.1.4.1)
        reads some turret locations as hull locations."""
        d = self.ofire.d
        if not d.on["small_turrets"] or not d.cards[self.game.units[t].type.id].small_turret or \
                self.hull_down_state(s, t, angle):
            return tens
        return d.small_turret.get(tens, tens)

    # ---------------------------------------------------------------- spotting (MBT 7.8.3)
    def spotter_modifier(self, s: int) -> int:
        """A Buttoned Up spotter moves one row down on the Spotting Ranges Table (MBT 7.8.3)."""
        return -1 if self.buttoned(s) else 0

    # ---------------------------------------------------------------- decisions (MBT 7.8.1, 7.8.3)
    def turret_move_options(self, i: int) -> list:
        """``turn UNIT turret K`` once per new hex entered (MBT 7.8.1)."""
        from .actions import Action

        rec = self.ofire
        if not self.has_turret(i) or self.st[i] != ON or self.mv_steps <= rec.tadj[i] or \
                self.hex[i] is None or not self.mv_trail:
            return []
        name = self.game.units[i].name
        tt = self.turret_tt(i)
        return [Action(("turn", name, "turret", str(k))) for k in range(-tt, tt + 1)
                if k and self.long_gun_allows(i, (rec.toff[i] + k) % 6)]  # MBT 7.20 (MOVE: opt_long_guns.py)

    def apply_turret_move(self, i: int, k: int) -> None:
        if not 0 < abs(k) <= self.turret_tt(i):
            from studio.rules.api import RulesError

            raise RulesError(f"the turret turns at most {self.turret_tt(i)} hexside(s)", "MBT 7.8.1")
        self.ofire.toff[i] = (self.ofire.toff[i] + k) % 6
        self.ofire.tadj[i] = self.mv_steps
        if self.dice.record:
            self.narrate(f"{self.game.units[i].name} turns its turret {k:+d} (now facing {self.turret_facing(i)})")

    def _needs_turret_step(self, i: int) -> bool:
        ut = self.game.units[i].type
        if self.st[i] != ON or ut.ag.leg or ut.ag.heli:
            return False
        return self.turret_tt(i) > 0 or ut.ag.target_type == "A"

    def turret_step(self) -> bool:
        """Adjust Turret step of the Adjustment Phase (MBT 7.8.1, 7.8.3): True while a vehicle must decide."""
        rec = self.ofire
        if self.phase != P_AIR2 or not rec.d.on["turrets"]:
            return False
        if rec.tq < 0:
            rec.tq = 0
        while rec.tq < self.game.n and not self._needs_turret_step(rec.tq):
            rec.tq += 1
        if rec.tq < self.game.n:
            self.cp = self.game.units[rec.tq].side
            return True
        return False

    def turret_step_active(self) -> bool:
        rec = self.ofire
        return rec is not None and self.phase == P_AIR2 and 0 <= rec.tq < self.game.n

    def turret_step_actions(self) -> list:
        """Keep the turret (first: the default), or turn it up to TT; A-Types Open or Buttoned."""
        from .actions import Action

        i = self.ofire.tq
        name = self.game.units[i].name
        tt = self.turret_tt(i)
        modes = ("open", "buttoned") if self.game.units[i].type.ag.target_type == "A" else ("open",)
        ks = [0] + [k for k in range(-tt, tt + 1) if k]
        return [Action(("turn", name, "turret", str(k), m)) for m in modes for k in ks]

    def apply_turret_step(self, action) -> None:
        rec = self.ofire
        i = rec.tq
        rec.toff[i] = (rec.toff[i] + int(action[3])) % 6
        rec.btn[i] = action[4] == "buttoned"
        rec.tq += 1
        if self.dice.record:
            self.narrate(f"{self.game.units[i].name}: turret facing {self.turret_facing(i)}, "
                         f"{'Buttoned Up' if rec.btn[i] else 'Open'} for the next turn (MBT 7.8.1, 7.8.3)")

    def df_context(self) -> bool:
        """Is the fire now Direct Fire of the Fire/Short Halt steps (not Overwatch)?"""
        return self.phase == P_DF and not self._ow_active()
