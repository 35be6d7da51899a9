"""Transport (Assault 8) and entrenchments (18) as a mixin of ``AssaultState``.

Transport: ``mount <unit> <carrier>`` and ``dismount <unit>`` in a friendly movement phase. Leg and static units
ride (8.A), an open circle carries leg units only, a filled one leg or static units, never more steps than the
carrier has (8.B). A carried unit is under its carrier: it moves with it, cannot be fired at and does not count
for stacking (8.C). Reading of 8.C: one of the two must spend the whole phase in the hex (a leg unit may walk in
and mount, a carrier may drive in and take it aboard; to dismount the carrier must not have moved this phase, as
its passenger travelled with it), a static unit needs both to stay, and mounting or dismounting ends the phase's
movement of both. Mounting and dismounting count as movement for spotting and, a dismount, for opportunity fire
(8.C); a suppressed AFV neither takes aboard nor sets down (11.A.1); carried infantry fires SA only, halved, from
an unsuppressed carrier (8.D, option c11); losses of a carrier reach its passengers (8.E, option c42).

Entrenchments: the scenario's hexes (18) hold ``entrench <unit>`` for personnel and weapons units that spend the
whole phase there, two steps at most (constant entrenchment-steps), never beside an entrenched enemy; an
entrenched unit is covered for spotting and defends on the entrenchment rows (18; indirect fire: option c28).
"""
from __future__ import annotations


class Transport:
    """Methods of ``AssaultState`` for Assault 8 and 18."""

    # ------------------------------------------------------------------ transport (Assault 8)
    def _passengers(self, carrier) -> list:
        return [c for c in self.counters if c.carrier == carrier.id]

    def _may_carry(self, carrier, c) -> bool:
        """Assault 8.A-B: circle, mobility and capacity."""
        cb, body = self.game.card(carrier.card).body, self.game.card(c.card).body
        if cb.transport == "none" or body.mobility not in ("L", "S") or carrier.carrier:
            return False
        if body.mobility == "S" and cb.transport != "filled":
            return False
        load = sum(p.steps for p in self._passengers(carrier))
        return load + c.steps <= carrier.steps                            # Assault 8.B: never more

    def _transport_actions(self) -> list[str]:
        out = []
        side = self.phasing()
        for c in self.counters:
            if c.side != side:
                continue
            if c.carrier:
                if self._may_dismount(c):
                    out.append(f"dismount {c.id}")
                continue
            if not self._may_board(c):
                continue
            for t in self._here(c.hex):                                   # (counter order)
                if t.side == side and t is not c and self._may_take(t, c):
                    out.append(f"mount {c.id} {t.id}")
        return out

    def _may_board(self, c) -> bool:
        body = self.game.card(c.card).body
        return body.mobility in ("L", "S") and not c.deployed and c.toc_mode != "plan" and not c.dummy

    def _may_take(self, t, c) -> bool:
        """Assault 8.C: the carrier (or the leg unit) stayed the whole phase; a static unit and its carrier both;
        a suppressed AFV takes no one aboard (11.A.1)."""
        tb = self.game.card(t.card).body
        if t.dummy or not self._may_carry(t, c) or (t.suppressed and tb.armoured):
            return False
        static = self.game.card(c.card).body.mobility == "S"
        return not (t.moved or c.moved) if static else not (t.moved and c.moved)

    def _may_dismount(self, c) -> bool:
        t = self._by_id(c.carrier)
        tb = self.game.card(t.card).body
        if t.moved or (t.suppressed and tb.armoured):
            return False                                              # Assault 8.C, 11.A.1
        return not (c.suppressed and self.game.card(c.card).body.defence_class == "weapons")   # 11.A.2

    def _mount(self, c, t) -> None:
        """Assault 8.C: mounting counts as movement for opportunity fire: the enemy may fire at the unit before
        it is under its carrier (15); then it boards (``_go_aboard``)."""
        c.moved = t.moved = True
        t.mp_used = max(t.mp_used, self.game.card(t.card).body.movement_allowance or 0)
        self._counts_as_moved(c)
        self._begin_move(c)
        self._after_move(c, c.hex)
        if self.opp_target:
            self.pending_mount = (c.id, t.id)
            return
        self._go_aboard(c, t)

    def _board_after_fire(self) -> None:
        """The mount goes on after the opportunity fire at it, if both are still there and may (8.C, 11.A)."""
        (cid, tid), self.pending_mount = self.pending_mount, ()
        c = next((o for o in self.counters if o.id == cid), None)
        t = next((o for o in self.counters if o.id == tid), None)
        if c is None or t is None or t.carrier or c.carrier or not self._may_carry(t, c):
            return
        if (t.suppressed and self.game.card(t.card).body.armoured) or \
                (c.suppressed and self.game.card(c.card).body.defence_class == "weapons"):
            return                                                    # Assault 11.A.1: no boarding now
        self._go_aboard(c, t)

    def _go_aboard(self, c, t) -> None:
        """Assault 8.C: under the carrier; no more movement for either this phase. An unsuppressed personnel or
        weapons unit mounting a suppressed non-armoured vehicle makes it recover (11.A.2)."""
        c.carrier, c.hex, c.cover, c.entrenched, c.spotted, c.roof = t.id, t.hex, False, False, False, False
        body = self.game.card(c.card).body
        if t.suppressed and not self.game.card(t.card).body.armoured and not c.suppressed \
                and body.defence_class in ("personnel", "weapons"):
            t.suppressed = False
        self.narrate(f"{c.id} mounts {t.id} (8.C)")

    def _dismount(self, c) -> None:
        """Assault 8.C: set down in the carrier's hex; it counts as movement for spotting and opportunity fire."""
        t = self._by_id(c.carrier)
        c.carrier, c.hex = "", t.hex
        c.moved = t.moved = True
        t.mp_used = max(t.mp_used, self.game.card(t.card).body.movement_allowance or 0)
        self._counts_as_moved(c)
        self.narrate(f"{c.id} dismounts from {t.id} (8.C)")
        self._begin_move(c)
        self._after_move(c, c.hex)

    def _carry_along(self, t) -> None:
        """Assault 8.C: passengers move with their carrier (and so have moved, 12.B.4)."""
        for p in self._passengers(t):
            p.hex, p.facing, p.moved = t.hex, t.facing, True
            p.moved_first = p.moved_first or self.phase.endswith("move-1")

    def _carrier_loss(self, t, before: int, result: str) -> None:
        """Assault 8.E, 11.A.1-2: what a carrier's result does to its passengers."""
        passengers = self._passengers(t)
        if not passengers:
            return
        full = before == self.game.card(t.card).body.steps
        if t.steps == 0:
            self._carrier_destroyed(passengers, full)
        elif before > t.steps and full:
            victim = passengers[0] if len(passengers) == 1 else \
                passengers[self.dice.randrange(len(passengers))]
            self._passenger_loss(victim, 1)                              # Assault 8.E: one step loss
        if t.steps > 0 and t.suppressed and not self.game.card(t.card).body.armoured:
            for p in self._passengers(t):                               # Assault 11.A.1-2
                p.suppressed = True
                if self.game.card(p.card).body.defence_class == "personnel":
                    p.carrier = ""
                    self.narrate(f"{p.id} dismounts from the suppressed {t.id} (11.A.1)")

    def _carrier_destroyed(self, passengers: list, full: bool) -> None:
        """Assault 8.E: a full-strength carrier destroyed costs its passenger a step and suppresses it; two
        half-strength passengers: option c42 'one-lost' loses one at random and suppresses the other,
        'both-lost' both; a half-strength carrier destroyed only suppresses them. They stay in the hex."""
        lose = []
        if full:
            if len(passengers) > 1 and self.game.options.get("c42-carrier-two-passengers", "one-lost") == "one-lost":
                lose = [passengers[self.dice.randrange(len(passengers))]]
            else:
                lose = passengers
        for p in passengers:
            p.carrier, p.suppressed = "", True
            if p in lose:
                self._passenger_loss(p, 1)
        self.narrate(f"carrier destroyed: {', '.join(p.id for p in passengers)} set down suppressed (8.E)")

    def _passenger_loss(self, p, n: int) -> None:
        lost = min(n, p.steps)
        p.steps -= lost
        self.lost_steps[p.side] += lost
        self._record_loss(p, lost, None, "carrier loss")
        self._company_record(p).lost += lost
        self.narrate(f"{p.id} loses {lost} step(s) with its carrier (8.E)")

    def _transport_fire(self, c, row) -> bool:
        """Assault 8.D: a carried unit fires only if infantry, SA only, from an unsuppressed carrier."""
        if not c.carrier:
            return True
        return self.game.card(c.card).body.infantry and row.ammo == "SA" and not self._by_id(c.carrier).suppressed

    # ------------------------------------------------------------------ entrenchments (Assault 18)
    def _entrench_actions(self) -> list[str]:
        out = []
        cap = self.game.data.constant("entrenchment-steps")
        side = self.phasing()
        for c in self.counters:
            if c.side != side or c.moved or c.entrenched or c.carrier or c.hex not in self.game.entrenched:
                continue                                              # (a dummy may occupy one too, 18)
            if self.game.card(c.card).body.defence_class not in ("personnel", "weapons"):
                continue
            here = [o for o in self.counters if o.hex == c.hex and o.entrenched]
            if any(o.side != c.side for o in here) or sum(o.steps for o in here) + c.steps > cap:
                continue
            out.append(f"entrench {c.id}")
        return out

    def _entrench(self, c) -> None:
        """Assault 18: the whole movement phase in the hex; it goes under the marker."""
        c.entrenched, c.moved = True, True
        self._counts_as_moved(c)
        self.narrate(f"{c.id} enters the entrenchment in {self.game.map.label_of[c.hex]} (18)")
