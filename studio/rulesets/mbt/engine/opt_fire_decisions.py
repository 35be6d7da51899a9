"""The fire-decision optional rules (mixed into :class:`~.advanced.AdvState` by :class:`~.opt_fire.OptFireRules`):
7.14 Fire Priority (a legal-action filter), 7.15 Defensive Fire (N/C units fire back as if overwatching), 7.18
Pinning Fire (``fire S at T WEAPON:AMMO+pin``), 7.25 Weapon Malfunction (and the repair roll at the end of the
Command Phase), 7.44 Quickdraw (the Second Player's unit fires back simultaneously: ``fire SPU at FPU ...`` or
``hold SPU`` while the First Player's shot waits), 7.48 Commander Independent Sight (``...+cis``: ROF N, then
a roll (10) for a second target, ``fire S at T2 ...`` or ``hold S``) and 7.50 NATO Target Acquisition Bonus.
Every value is read from table ``opt-fire-values``."""
from __future__ import annotations

import dataclasses

from studio.hexgrid.coords import distance
from studio.hexgrid.facing import direction_to

from .ag_specs import GRADES
from .codes import FIRE, NC, ON, OW, P_DF, SH

PIN, CIS = "+pin", "+cis"


class FireDecisionRules:
    """Rules 7.14, 7.15, 7.18, 7.25, 7.44, 7.48 and 7.50."""

    __slots__ = ()

    # ---------------------------------------------------------------- MBT 7.14
    def priority_filter(self, s: int, opts: list) -> list:
        """MBT 7.14: a vehicle with Fire/Short Halt must fire at the closest opposing vehicle combat unit unless
        another vehicle of its formation already engages it (option ``fire-priority-engaged``: then the closest
        one not engaged, or any target). Leg units' fire does not count."""
        g = self.game
        if not self.ofire.d.on["priority"] or self.cmd[s] not in (FIRE, SH) or self.is_leg(s) or \
                g.units[s].type.ag.heli or not self.df_context():
            return opts
        vehicles = {t for t, _ in opts if self._vehicle_combat(t)}
        if not vehicles:
            return opts
        engaged = {t for x, t, row in self.shots if row is not None and x != s and self._vehicle_combat(x) and
                   g.formation_of[x] == g.formation_of[s]}
        hs = self.hex[s]
        by_range = sorted(vehicles, key=lambda t: distance(hs, self.hex[t]))
        nearest = distance(hs, self.hex[by_range[0]])
        if g.options["fire-priority-engaged"] == "any":
            closest = {t for t in by_range if distance(hs, self.hex[t]) == nearest}
            if closest <= engaged:
                return opts
            allowed = closest - engaged
        else:
            free = [t for t in by_range if t not in engaged]
            if not free:
                return opts
            r = distance(hs, self.hex[free[0]])
            allowed = {t for t in free if distance(hs, self.hex[t]) == r}
        return [(t, row) for t, row in opts if t in allowed]

    def _vehicle_combat(self, t: int) -> bool:
        ut = self.game.units[t].type
        return ut.combat and not ut.ag.leg and not ut.ag.heli

    # ---------------------------------------------------------------- MBT 7.15
    def note_fired_on(self, s: int, t: int) -> None:
        """An N/C unit fired on by direct AP or GP fire may fire back at one of its firers (MBT 7.15)."""
        rec = self.ofire
        if rec.d.on["defensive"] and self.cmd[t] == NC and s not in rec.dby[t]:
            rec.dby[t] = rec.dby[t] + (s,)

    def defensive_shooters(self, side: int) -> list:
        """N/C units of ``side`` fired on this turn, not yet fired, in the Combat Phase's Overwatch (MBT 7.15)."""
        rec = self.ofire
        if not rec.d.on["defensive"] or self.ow_ctx != "combat":
            return []
        return [i for i in self.game.units_of(side) if self.cmd[i] == NC and self.st[i] == ON and not self.fired[i]
                and rec.dby[i]]

    def defensive_modifier(self, s: int, gp: bool) -> int:
        """MBT 7.15: -2 AP / -10 GP on top of the Overwatch modifiers."""
        return self.ofire.d.values["defensive-gp" if gp else "defensive-ap"]

    # ---------------------------------------------------------------- MBT 7.18
    def may_pin(self, s: int, t: int, row) -> bool:
        """Pinning Fire (MBT 7.18): small-arms GP direct fire at a leg (or towed) unit, with Fire, Short Halt or
        Overwatch."""
        return self.ofire.d.on["pinning"] and row.kind == "GP" and row.small_arms and self.is_leg(t) and \
            self.cmd[s] in (FIRE, SH, OW)

    # ---------------------------------------------------------------- MBT 7.25
    def malfunction(self, s: int, row, roll: int, gp: bool) -> None:
        """MBT 7.25: an AP direct-fire roll of ``malfunction-ap-roll`` or an unmodified GP roll of
        ``malfunction-gp-roll`` puts the weapon out until repaired (the shot itself resolves normally)."""
        d = self.ofire.d
        if not d.on["malfunction"] or roll != d.values["malfunction-gp-roll" if gp else "malfunction-ap-roll"]:
            return
        self.ofire.malf[s] = self.ofire.malf[s] | {row.weapon}
        if self.dice.record:
            self.narrate(f"{self.game.units[s].name}: {row.weapon} malfunctions (roll {roll})")

    def repair_weapons(self) -> None:
        """MBT 7.25: at the end of the Command Phase each malfunctioned weapon rolls (10), N/C ``repair-nc``: at or
        under ``repair-max`` it works again from the next turn; a final ``repair-permanent`` puts it out for
        good."""
        rec = self.ofire
        if not rec.d.on["malfunction"]:
            return
        v = rec.d.values
        g = self.game
        for i in range(g.n):
            for w in sorted(rec.malf[i]):
                roll = self.dice.roll(10, f"Weapon repair {g.units[i].name} {w}")
                final = roll + (v["repair-nc"] if self.cmd[i] == NC else 0)
                if final <= v["repair-max"]:
                    rec.malf[i] = rec.malf[i] - {w}
                    rec.rep[i] = rec.rep[i] | {w}
                    outcome = "repaired (from the next turn)"
                elif final == v["repair-permanent"]:
                    rec.malf[i] = rec.malf[i] - {w}
                    rec.perm[i] = rec.perm[i] | {w}
                    outcome = "permanently out of action"
                else:
                    outcome = "still out"
                if self.dice.record:
                    self.narrate(f"{g.units[i].name} {w} repair roll {roll} -> {final}: {outcome}")

    # ---------------------------------------------------------------- MBT 7.50
    def nato_eligible(self, s: int, t: int, row, overwatch: bool) -> bool:
        """MBT 7.50: a NATO vehicle's weapon of at least ``nato-min-calibre`` mm (no ATGM, no mortar), Fire command,
        at the target it fired at last turn with direct fire under a Fire command."""
        d = self.ofire.d
        if not d.on["nato"] or overwatch or self.cmd[s] != FIRE or self.ofire.prev[s] != t or row.kind == "ATGM":
            return False
        card = d.cards[self.game.units[s].type.id]
        cal = card.calibre.get(row.weapon)
        return card.nation in d.nato and row.weapon not in card.mortars and cal is not None and \
            cal >= d.values["nato-min-calibre"] and not self.game.units[s].type.ag.leg

    def nato_modifier(self, s: int, t: int, row, overwatch: bool, gp: bool) -> int:
        if not self.nato_eligible(s, t, row, overwatch):
            return 0
        return self.ofire.d.values["nato-gp" if gp else "nato-ap"]

    def note_df_target(self, s: int, t: int, overwatch: bool) -> None:
        """The target of this turn's direct fire under a Fire command (MBT 7.50); -2: no bonus next turn (7.48)."""
        rec = self.ofire
        if not overwatch and self.cmd[s] == FIRE and rec.tgt[s] != -2:
            rec.tgt[s] = t

    # ---------------------------------------------------------------- MBT 7.44
    def quickdraw_rows(self, q: int, f: int) -> list:
        """The rows the Second Player's unit ``q`` may Quickdraw with at the First Player's unit ``f`` (MBT 7.44):
        unsuppressed, unbroken, not hesitating; an unrevealed Fire command, not fired; ``f`` spotted in this
        turn's Spotting Phase and in the current field of fire; a superior Unit Grade; no ATGM."""
        g = self.game
        if not self.ofire.d.on["quickdraw"] or self.st[q] != ON or self.sup[q] or not self.morale_ok(q) or \
                self.cmd[q] != FIRE or self.rev[q] or self.fired[q] or f not in self.spots[q] or \
                GRADES.index(self.unit_grade(q)) >= GRADES.index(self.unit_grade(f)):
            return []
        out = []
        for row in g.units[q].type.ap:
            if row.kind == "ATGM" or not self.weapon_ok(q, f, row):
                continue
            if self.turret_row(q, row) and not self.in_turret_arc(q, f):
                continue  # the current field of fire: no turret turn first
            out.append(row)
        return out

    def morale_ok(self, i: int) -> bool:
        """Neither broken nor hesitating (Optional Rule 7.1 Morale, ``morale.py``, when the state has it)."""
        hesitating, broken = getattr(self, "hesitating", None), getattr(self, "broken", None)
        return not ((hesitating is not None and hesitating(i)) or (broken is not None and broken(i)))

    def quickdraw_pending(self, s: int, t: int) -> bool:
        """Before the First Player's shot ``s`` -> ``t`` resolves, ``t``'s owner may Quickdraw (asked once per
        shot)."""
        rec = self.ofire
        if self.df_side != self.first or self.res_i in rec.qd_asked or not self.quickdraw_rows(t, s):
            return False
        rec.qd = (t, s)
        return True

    def quickdraw_actions(self) -> list:
        from .actions import Action

        q, f = self.ofire.qd
        names = self.game.units
        return [Action(("fire", names[q].name, names[f].name, row.key)) for row in self.quickdraw_rows(q, f)] + \
            [Action(("hold", names[q].name))]

    def apply_quickdraw(self, action) -> None:
        """Both shots resolve, then both results apply (MBT 7.44): the Second Player's unit fires (ROF N) with its
        status from before the First Player's shot."""
        rec = self.ofire
        q, f = rec.qd
        rec.qd = None
        rec.qd_asked = rec.qd_asked | {self.res_i}
        if action[0] == "hold":
            return
        row = dataclasses.replace(next(r for r in self.quickdraw_rows(q, f) if r.key == action[3]), rof="N")
        s, t, frow = self.shots[self.res_i]
        self.res_i += 1
        before = (self.tdmg[q], self.sup[q], rec.collat[q], rec.malf[q], self.st[q])
        self._shoot(s, t, frow, overwatch=False)
        after = (self.tdmg[q], self.sup[q], rec.collat[q], rec.malf[q], self.st[q])
        self.tdmg[q], self.sup[q], rec.collat[q], rec.malf[q], _ = before
        if self.dice.record:
            self.narrate(f"{self.game.units[q].name} quickdraws at {self.game.units[f].name} (MBT 7.44)")
        self._shoot(q, f, row, overwatch=False)
        self.tdmg[q], self.sup[q], rec.collat[q], rec.malf[q], self.st[q] = after

    # ---------------------------------------------------------------- MBT 7.48
    def may_cis(self, s: int, row) -> bool:
        """A CIS vehicle (its sight, not lost to turret damage) with a Fire command, no ATGM (MBT 7.48)."""
        return self.ofire.d.on["cis"] and row.cis and not self.tdmg[s] and self.cmd[s] == FIRE and \
            row.kind != "ATGM"

    def cis_second(self, s: int, t: int) -> bool:
        """After the first shot of a CIS declaration, roll (10): at or under ``cis-second-max`` it may fire at a
        spotted second target within its turret turn rate (MBT 7.48)."""
        rec = self.ofire
        if s not in rec.cis_decl:
            return False
        rec.cis_decl = rec.cis_decl - {s}
        roll = self.dice.roll(10, f"CIS second target {self.game.units[s].name}")
        ok = roll <= rec.d.values["cis-second-max"]
        if self.dice.record:
            self.narrate(f"{self.game.units[s].name} CIS roll {roll} vs {rec.d.values['cis-second-max']}: "
                         f"{'may engage a second target' if ok else 'no second target'}")
        if ok and self.cis_targets(s, t):
            rec.cis2 = (s, t)
            return True
        return False

    def cis_targets(self, s: int, first: int) -> list:
        """Spotted second targets within the turret turn rate (MBT 7.48): the turret (after the first shot it faces
        the first target; without Optional Rule 7.8 the direction of the first target) turned at most TT
        hexsides must bring it into the turret arc."""
        g = self.game
        if self.has_turret(s):
            base, tt = self.turret_facing(s), self.turret_tt(s)
        else:
            base, tt = direction_to(self.hex[s], self.hex[first]), self.ofire.d.cards[g.units[s].type.id].tt
        out = []
        for t in self.df_targets(s):
            if t == first or self.st[t] != ON or g.units[t].side == g.units[s].side:
                continue
            if not any(self.in_turret_arc(s, t, (base + k) % 6) for k in range(-tt, tt + 1)):
                continue
            for row in g.units[s].type.ap:
                if row.kind != "ATGM" and self.weapon_ok(s, t, row):
                    out.append((t, row))
        return out

    def cis_actions(self) -> list:
        from .actions import Action

        s, first = self.ofire.cis2
        u = self.game.units
        return [Action(("fire", u[s].name, u[t].name, row.key)) for t, row in self.cis_targets(s, first)] + \
            [Action(("hold", u[s].name))]

    def apply_cis(self, action) -> None:
        rec = self.ofire
        s, first = rec.cis2
        rec.cis2 = None
        if action[0] == "hold":
            return
        t, row = next((t, r) for t, r in self.cis_targets(s, first)
                      if self.game.units[t].name == action[2] and r.key == action[3])
        rec.tgt[s] = -2  # neither target gets the NATO bonus next turn (MBT 7.48)
        self._shoot(s, t, dataclasses.replace(row, rof="N"), overwatch=False)
        rec.tgt[s] = -2

    def df_decision(self) -> bool:
        """A Quickdraw or CIS decision waits (the Direct Fire step hands it to that unit's owner)."""
        rec = self.ofire
        pending = rec.qd[0] if rec.qd is not None else (rec.cis2[0] if rec.cis2 is not None else -1)
        if pending < 0:
            return False
        self.cp = self.game.units[pending].side
        return True

    def df_decision_actions(self) -> list:
        return self.quickdraw_actions() if self.ofire.qd is not None else self.cis_actions()

    def apply_df_decision(self, action) -> None:
        if self.ofire.qd is not None:
            self.apply_quickdraw(action)
        else:
            self.apply_cis(action)

    def phase_df(self) -> bool:
        return self.phase == P_DF
