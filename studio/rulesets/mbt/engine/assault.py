"""Close Assault and Hand-to-Hand combat (MBT 6.6.1): the Close Assault / Hand-to-Hand Combat Step opens the
Movement Phase, First Player then Second. An unsuppressed dismounted squad, half-squad or section with a Move
command that has not moved attacks one adjacent spotted enemy at most 1 Height away: a vehicle by Close Assault
(6.6.1.1: GP factor by the attacker's size against the vehicle's GP Defense, at most 5, on the GP Combat Results
Table), a dismounted leg unit by Hand-to-Hand (6.6.1.2: opposed rolls (100) until a unit is eliminated, a squad
first reduced to its half-squad). The attack is the attacker's move (Spot/Move). Combined attacks of hex-mates
(``all``) and Dismount Attacks are here, Advancing Attacks in ``advancing.py`` (``ENGINE_POLICIES['close-combat']``);
attached flamethrowers (5.1.3.7) in ``flame.py``.

Action: ``assault ATTACKER at TARGET``; ``pass`` ends the side's step.

Overrun (MBT 6.6.10), in the Movement Step: ``overrun VEHICLE TARGET`` while the vehicle moves with a Move command
drives it into the hex in front holding a dismounted leg unit it spotted before its move (one overrun per vehicle
per turn, enough allowance to enter, terrain legal for it): the GP factors of its weapons at range 1 (not AA
weapons) and of its passenger squads' own weapons, at most 15 (table ``overrun-values``), against the target's GP
Defense with the GP direct-fire modifiers and the Overrun modifier; no Overwatch during the overrun. A Suppression
/Off target is Suppressed regardless; Suppressed; Effective reduces a squad (Suppressed) or eliminates the unit.
The vehicle then moves on, stays if no enemy is left, or goes back to the hex it came from (MBT 6.6.10.1)."""
from __future__ import annotations

from studio.hexgrid.coords import distance, neighbour

from .actions import PASS, Action
from .codes import DEAD, MMOVE, MOVE, ON, SH
from .flame import FlameRules
from .suppression import SUP_OFF

SIZE_KEYS = {"squad": "squad", "half_squad": "half", "section": "section"}


class AssaultRules(FlameRules):
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState` (with the flamethrowers of ``flame.py``)."""

    __slots__ = ()

    def leg_size(self, i: int) -> str:
        """squad, half (a reduced squad or a half-squad card) or section (MBT 5.1.1)."""
        ag = self.game.units[i].type.ag
        if ag.squad:
            return "half" if self.red[i] else "squad"
        return SIZE_KEYS.get(ag.leg_size, "section")

    def _step_close_combat(self) -> bool:
        """The Close Assault / Hand-to-Hand Combat Step (MBT 6.6.1); True when a side may attack."""
        if self.ca_side == -1:
            self.ca_side = self.first
        while self.ca_side >= 0:
            if self.assaults(self.ca_side):
                self.cp = self.ca_side
                return True
            self._next_ca_side()
        return False

    def _next_ca_side(self) -> None:
        self.ca_side = 1 - self.first if self.ca_side == self.first else -2

    def assaults(self, side: int) -> list[Action]:
        """Legal close combats of ``side`` (MBT 6.6.1.1, 6.6.1.2)."""
        g = self.game
        out = []
        for a in g.units_of(side):
            if not self._may_assault(a):
                continue
            for t in self.spots[a]:
                if self._may_attack(a, t):
                    out.append(Action(("assault", g.units[a].name, g.units[t].name)))
                    if self._hex_mates(a, t):
                        out.append(Action(("assault", g.units[a].name, g.units[t].name, "all")))
        return out + [PASS] if out else []

    def _may_attack(self, a: int, t: int) -> bool:
        """A spotted enemy adjacent to ``a`` and less than 2 Heights away (MBT 6.6.1.1, 6.6.1.2)."""
        g = self.game
        return self.st[t] == ON and distance(self.hex[a], self.hex[t]) == 1 and t in self.spots[a] and \
            abs(g.elev.get(self.hex[t], 0) - g.elev.get(self.hex[a], 0)) < 2

    def _hex_mates(self, a: int, t: int) -> list[int]:
        """The other units in ``a``'s hex that may attack ``t``: with ``all`` they combine with ``a`` as additional
        attackers (MBT 6.6.1.1: attackers in the same hex against the same vehicle combine)."""
        g = self.game
        return [b for b in g.units_of(g.units[a].side) if b != a and self.hex[b] == self.hex[a] and
                self._may_assault(b) and self._may_attack(b, t)]

    def _may_assault(self, a: int) -> bool:
        ag = self.game.units[a].type.ag
        return (ag.leg and self.st[a] == ON and self.cmd[a] == MOVE and not self.moved[a] and not self.sup[a]
                and self.game.units[a].type.combat)

    def apply_assault(self, action) -> None:
        if action[0] == "pass":
            self._next_ca_side()
            return
        g = self.game
        a, t = g.uindex[action[1]], g.uindex[action[2]]
        extra = self._hex_mates(a, t) if len(action) > 3 and action[3] == "all" else []
        for b in [a] + extra:
            self.moved[b] = True
            self.rev[b] = True
            self.mk[b] = MMOVE  # attackers are marked Spot/Move (MBT 6.6.1.1)
        self.attacked[t] = True
        if g.units[t].type.ag.leg:
            self.hand_to_hand(a, t, extra)
        else:
            self.close_assault(a, t, extra)
        if self.st[t] != ON and not self.enemies_in(self.hex[t], g.units[a].side):
            for b in [a] + extra:  # the attackers take the hex (``ENGINE_POLICIES['close-combat']``)
                if self.st[b] == ON:
                    self.hex[b] = self.hex[t]

    def _extra_attackers(self, extra: list[int]) -> int:
        """Each additional attacker: section / half-squad / squad +5 / +10 / +20 (MBT 6.6.1.1.2, 6.6.1.2)."""
        from .opt_move_data import move_opt

        cx = move_opt(self.game).ca_extra
        return sum(cx[f"extra-{self.leg_size(b)}"] for b in extra if self.st[b] == ON)

    def _vehicle_mods(self, t: int) -> int:
        """Close Assault modifiers of the target vehicle beyond the Basic ones (MBT 6.6.1.1.2): the card's C
        indicator +20, an Open A-Type +10 (7.8), a vehicle in an unsupported hex of terrain subject to support
        +30."""
        from .opt_move_data import card_move, move_opt

        g = self.game
        cx = move_opt(g).ca_extra
        net = cx["c-indicator"] if card_move(g, t).ca_c else 0
        if self.open_a_type(t):
            net += cx["open-a-type"]
        if g.map.terrain.get(self.hex[t], "") in move_opt(g).support_terrain and not self.supported(t):
            net += cx["unsupported"]
        return net

    def supported(self, t: int) -> bool:
        """Is vehicle ``t`` supported by its friendly unbroken squads and half-squads (MBT 6.6.1.1.2): its own
        passengers, or the dismounted ones of its hex (a squad supports two vehicles, a half-squad one, in unit
        order)?"""
        g = self.game
        side, h = g.units[t].side, self.hex[t]

        def supporter(p) -> bool:
            return self.is_leg(p) and self.leg_size(p) in ("squad", "half") and not self.broken(p)

        if any(supporter(p) for p in self.passengers(t)):
            return True  # mounted: one for one, a squad supports its carrier
        room = sum(2 if self.leg_size(p) == "squad" else 1 for p in g.units_of(side)
                   if self.st[p] == ON and self.hex[p] == h and supporter(p))
        vehicles = [v for v in g.units_of(side) if self.st[v] == ON and self.hex[v] == h and not self.is_leg(v) and
                    not g.units[v].type.ag.heli and not any(self.leg_size(p) in ("squad", "half")
                                                            for p in self.passengers(v))]
        return t in vehicles[:room]


    def _uphill(self, a: int, t: int) -> bool:
        e = self.game.elev
        return e.get(self.hex[t], 0) > e.get(self.hex[a], 0)

    def close_assault(self, a: int, t: int, extra: list[int] = (), mod: int = 0) -> None:
        """Close Assault (MBT 6.6.1.1.1-3): the primary attacker ``a``'s GP factor, with ``extra`` additional
        attackers from its hex and ``mod`` (a Dismount Attack)."""
        g = self.game
        cc = g.ag.close
        tag = g.units[t].type.ag
        factor = cc[f"ca-gp-{self.leg_size(a)}"]
        fmax, dmax = g.ag.gp_max
        defense = max(1, min(cc["ca-max-gpd"], dmax, tag.gp_value))
        n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, factor)), defense)]
        net = g.ag.grade_hth[self.unit_grade(a)] + (cc["uphill"] if self._uphill(a, t) else 0)
        net += {"P": cc["ca-p-type"], "S": cc["ca-s-type"]}.get(tag.target_type, 0)
        net += self.dismounted_fo_modifier(a)  # optional rule 7.39 (opt_dismounted_fo)
        if self.cmd[t] in (MOVE, SH) and self.rev[t]:
            net += cc["ca-moving"]
        if self.sup[t]:
            net += cc["ca-suppressed"]
        net += self._extra_attackers(list(extra)) + self._vehicle_mods(t) + mod
        flame = self.flame_in([a, *extra])
        net += self.flame_modifier([a, *extra], "ca")  # MBT 5.1.3.7, 6.6.1.1.2
        roll = self.dice.roll(100, f"Close Assault {g.units[a].name}>{g.units[t].name}")
        x = roll + net
        effect = "N" if x <= n_eff else ("S" if x <= s_eff else "E")
        result = "NE" if effect == "N" else ("SUP" if effect == "S" else
                                             ("DAMAGE" if x % 10 == 5 else "TRACK" if x % 10 == 0 else "KILL"))
        if self.dice.record:
            joined = f" with {', '.join(g.units[b].name for b in extra)}" if extra else ""
            self.events.append(f"{g.units[a].name}{joined} close assaults {g.units[t].name} (GP {factor} vs GPD "
                               f"{defense}{', flamethrower' if flame else ''}): roll {roll}{net:+d} = {x} vs "
                               f"N {n_eff} / S {s_eff}: {result}")
        if flame:
            self.flame_fire(t)  # optional rule 7.35.1
        self._ca_result(a, t, result, factor, flame)

    def _ca_result(self, a: int, t: int, result: str, factor: int, flame: bool = False) -> None:
        """Suppressed; or Effective regardless of target type: 5s DAMAGE, 10s TRACK, else BU with a ``flame``thrower
        (MBT 5.1.3.7), else roll (10) at or under half the attacker's GP factor BU, else KO (MBT 6.6.1.1.3)."""
        g = self.game
        if result == "SUP":
            self.suppress(t, "close assault")
        elif result == "TRACK":
            if not self.track[t]:
                self.track_hit(t)
                self.bail_out(t, "TK")
        elif result == "DAMAGE":
            self.apply_damage(t, "DM", self.damage_location(t, self.dice.roll(10, f"CA damage {g.units[t].name}")))
        elif result == "KILL" and flame:
            self.apply_damage(t, "BU", "HF")  # the flamethrower Brews it Up (MBT 6.6.1.1.3)
        elif result == "KILL":
            r = self.dice.roll(10, f"CA KO/BU {g.units[t].name}") + self.bu_close_assault_modifier(t)  # MBT 7.11
            self.apply_damage(t, "BU" if r <= max(1, factor // 2) else "KO", "HF")

    def _hth_mod(self, i: int, attacker: bool, other: int) -> int:
        cc = self.game.ag.close
        size = self.leg_size(i)
        m = self.game.ag.grade_hth[self.unit_grade(i)] + (cc[f"hth-{size}"] if size != "squad" else 0)
        m += self.dismounted_fo_modifier(i)  # optional rule 7.39 (opt_dismounted_fo)
        if attacker and self._uphill(i, other):
            m += cc["uphill"]
        if not attacker and self.sup[i]:
            m += cc["hth-defender-suppressed"]
        return m

    def hand_to_hand(self, a: int, t: int, extra: list[int] = (), mod: int = 0) -> None:
        """Hand-to-Hand (MBT 6.6.1.2): opposed rolls, ties rerolled; the loser is reduced (a squad, not
        suppressed) or eliminated. A reduced primary attacker stays primary while it is the largest; an eliminated
        one hands over to the largest additional attacker (``ENGINE_POLICIES['close-combat']``); with no attacker
        left the defender wins."""
        g = self.game
        side = [a] + list(extra)
        order = {"squad": 0, "half": 1, "section": 2}
        if self.flame_in(side):
            self.flame_fire(t)  # optional rule 7.35.1: the attackers' flamethrower at a target in a building
        while self.st[t] == ON:
            side = sorted((b for b in side if self.st[b] == ON), key=lambda b: (order[self.leg_size(b)], b))
            if not side:
                return
            a, others = side[0], side[1:]
            names = f"{g.units[a].name}>{g.units[t].name}"
            ra = self.dice.roll(100, f"HTH attacker {names}")
            rd = self.dice.roll(100, f"HTH defender {names}")
            x = ra + self._hth_mod(a, True, t) + self._extra_attackers(others) + mod
            x += self.flame_modifier(side, "hth")  # each side's own flamethrower (MBT 5.1.3.7, 6.6.1.2.2)
            y = rd + self._hth_mod(t, False, a) + self.flame_modifier([t], "hth")
            if x == y:
                continue
            loser = t if x > y else a
            if self.dice.record:
                self.events.append(f"{g.units[a].name} hand-to-hand with {g.units[t].name}: {ra} -> {x} vs "
                                   f"{rd} -> {y}: {g.units[loser].name} loses")
            if g.units[loser].type.ag.squad and not self.red[loser]:
                self.red[loser] = True
                if self.ofire is not None:
                    self.attached_loss(loser)  # MBT 7.17 (optional)
            else:
                self.st[loser] = DEAD
                self.lost[g.units[loser].side] += 1

    # ---------------------------------------------------------------- overrun (MBT 6.6.10)
    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.ovr = [False] * self.game.n  # overran this turn (one target per vehicle, MBT 6.6.10)

    def _copy(self, dice):
        o = super()._copy(dice)
        o.ovr = self.ovr[:]
        return o

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}|ovr{''.join('1' if x else '0' for x in self.ovr)}"

    def _start_turn(self) -> None:
        super()._start_turn()
        self.ovr = [False] * self.game.n

    def move_options(self, i: int) -> list[Action]:
        out = super().move_options(i)
        g = self.game
        if self.st[i] == ON and self.mv_u == i:
            out += [Action(("overrun", g.units[i].name, g.units[t].name)) for t in self.overrun_targets(i)]
            dismounts = {a[2] for a in out if a[0] == "dismount"}
            for p in self.passengers(i):
                if g.units[p].name in dismounts:
                    out += [Action(("dismount", g.units[i].name, g.units[p].name, g.units[t].name))
                            for t in self.dismount_targets(i, p)]
        return out

    # ---------------------------------------------------------------- dismount attacks (MBT 6.6.1.1)
    def dismount_targets(self, c: int, p: int) -> list[int]:
        """Enemies passenger ``p`` may attack as it dismounts from ``c`` (MBT 6.6.1.1 Dismount Attack): an
        unsuppressed squad, half-squad or section; a target its side spotted before moving, adjacent to the
        carrier's hex and less than 2 Heights away."""
        g = self.game
        if self.sup[p] or not g.units[p].type.combat or self.broken(p):
            return []
        side = g.units[p].side
        seen = {t for s in g.units_of(side) for t in self.spots[s]}
        h = self.hex[c]
        return [t for t in sorted(seen) if self.st[t] == ON and distance(h, self.hex[t]) == 1 and
                not g.units[t].type.ag.heli and abs(g.elev.get(self.hex[t], 0) - g.elev.get(h, 0)) < 2]

    def _dismount_attack(self, c: int, p: int, t: int) -> None:
        """Dismount, then Close Assault or Hand-to-Hand at -10, never combined (MBT 6.6.1.1.2, 6.6.1.2)."""
        from .opt_move_data import move_opt

        self._dismount(c, p)
        if self.st[p] != ON or self.st[t] != ON:
            return  # an AP minefield may have stopped it (MBT 7.31.2.2)
        self.attacked[t] = True
        mod = move_opt(self.game).ca_extra["dismount-attack"]
        if self.game.units[t].type.ag.leg:
            self.hand_to_hand(p, t, (), mod)
        else:
            self.close_assault(p, t, (), mod)
        if self.st[t] != ON and self.st[p] == ON and not self.enemies_in(self.hex[t], self.game.units[p].side):
            self.hex[p] = self.hex[t]

    def overrun_targets(self, i: int) -> list[int]:
        """Dismounted leg units in the hex in front that vehicle ``i`` may overrun now (MBT 6.6.10)."""
        g = self.game
        if self.is_leg(i) or self.ovr[i] or self.cmd[i] != MOVE or self.mv_end or not g.units[i].type.combat or \
                g.units[i].type.ag.heli:
            return []
        h = self.hex[i]
        b = neighbour(h, self.fac[i])
        if b not in g.map.label_of:
            return []
        c = self.step_cost(i, h, b)
        if c is None or (c > self.mv_left and not self._exception_ok()):
            return []  # the allowance to enter and terrain legal for the vehicle (MBT 6.6.10)
        spotted = self.spots[i]
        return [t for t in g.enemies_of(g.units[i].side) if self.st[t] == ON and self.hex[t] == b and self.is_leg(t)
                and t in spotted]

    def _apply_move(self, i: int, a) -> None:
        if a[0] == "overrun" and self.mv_u == i:
            self._overrun(i, self.game.uindex[a[2]])
            return
        if a[0] == "dismount" and len(a) == 4:
            self._dismount_attack(i, self.game.uindex[a[2]], self.game.uindex[a[3]])
            return
        super()._apply_move(i, a)

    def _overrun(self, i: int, t: int) -> None:
        """Enter the target's hex and resolve the Overrun (MBT 6.6.10.1-2); no Overwatch while overrunning."""
        h = self.hex[i]
        b = neighbour(h, self.fac[i])
        c = self.step_cost(i, h, b) or 0
        exception = c > self.mv_left
        self._spend(c)
        self.hex[i] = b
        self.mv_steps += 1
        self.mv_trail.append(b)
        self.mv_turned, self.mv_paid = 0, False
        if exception:
            self.mv_left, self.mv_end = 0, True
        self.ovr[i] = True
        self._carry(i)
        self.overrun_attack(i, t)
        if getattr(self, "mines", None) and self.st[i] == ON:
            self.mine_attack(i)  # entering a minefield hex (MBT 7.31.2)

    def overrun_gp(self, i: int) -> tuple[int, object]:
        """The Overrun GP Factor (MBT 6.6.10.1): each weapon's best GP factor at range 1 (no AA weapons, minimum
        range 1) plus the passenger squads' own weapons (not attached weapons), at most the table's maximum; and
        the vehicle row whose modifiers apply (its largest factor)."""
        g = self.game
        best: dict = {}
        for row in g.units[i].type.ap:
            if row.kind != "GP" or row.aa or row.min_range > 1:
                continue
            band, f = self.gp_factor(row, 1)
            if band is not None and f > best.get(row.weapon, (0, None))[0]:
                best[row.weapon] = (f, row)
        total = sum(f for f, _ in best.values())
        for p in self.passengers(i):
            for row in g.units[p].type.ap:
                if row.kind == "GP" and row.half is not None and row.half == self.red[p]:
                    total += self.gp_factor(row, 1)[1]
        main = max(best.values(), key=lambda x: x[0])[1] if best else None
        return min(total, self._overrun_values()["max-gp"]), main

    def _overrun_values(self) -> dict:
        from .opt_move_data import move_opt

        return move_opt(self.game).overrun

    def overrun_attack(self, i: int, t: int) -> None:
        """The Overrun GP attack (MBT 6.6.10.1-2)."""
        g = self.game
        factor, row = self.overrun_gp(i)
        if self.sup[t] == SUP_OFF:
            self.suppress(t, "overrun")  # Suppression/Off -> On regardless of the outcome (MBT 6.6.10.2)
        fmax, dmax = g.ag.gp_max
        defense = max(1, min(dmax, self.leg_gp_defense(t)))
        n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, factor)), defense)]
        net = self._overrun_values()["modifier"]
        if row is not None:
            net += self.gp_modifiers(i, t, row, "P", False)
            if not row.coax and any(r.coax and r.kind == "GP" for r in g.units[i].type.ap) and not self.coax_lost(i):
                net += g.ag.gp_mod["coax-pointblank"]  # the Coax MG fires in the overrun too
        roll = self.dice.roll(100, f"Overrun {g.units[i].name}>{g.units[t].name}")
        x = roll + net
        effect = "N" if x <= n_eff else ("S" if x <= s_eff else "E")
        result = self.apply_leg_result(t, effect) if effect != "S" or not self.sup[t] else "Suppressed"
        self.narrate(f"{g.units[i].name} overruns {g.units[t].name} in {g.label(self.hex[i])} (GP {factor} vs GPD "
                     f"{defense}): roll {roll}{net:+d} = {x} vs N {n_eff} / S {s_eff}: {result}")

