"""Soviet battle drill (Assault 4.D.2) as a mixin of ``AssaultState``.

Instead of one order per unit, the Soviet player may give one order to a whole company or battalion: 1 OP if
any counter of it is visible to the HQ or TOC paying, 2 if not (4.C.1). Every counter of it except indirect
fire units must then take the same formation, assume and keep the same facing and spend the same movement
points: the engine moves them together.

- ``drill <group> march|combat``: the whole group changes formation (7.C), one order.
- ``drill <group> <direction 0-5>``: every counter of the group enters the adjacent hex in that direction,
  facing it (7.F); the first step of a phase is one order, later steps of the same drill are paid. Legal only
  when every counter can make that step at the same cost (same formation, same MPs spent so far, the same
  terrain-effects cost, none barred by suppression, morale or the enemy, 11.A.1, 17.A.2); otherwise battle drill
  may not be used (4.D.2). The counters enter one at a time (7.B), each open to opportunity fire (15); a counter
  that can no longer make the step (eliminated, suppressed) stays.
- Groups: a Soviet company (the line counters sharing a designation such as ``C3`` or ``AT-91``) and a
  battalion (``bn3``: the line counters of battalion 3 and its HQ). A group needs two counters or more. Leg units
  spend no movement points (7.D), so a group holding one (not carried) cannot drill; carried units ride along.
- A counter that drills this phase neither moves alone nor changes facing after it (it keeps the group's facing).

Orders to a stack (4.C, 4.D.1): an order is addressed to a hex, so ``stack <unit> <direction>`` moves every unit
of the phasing side in ``<unit>``'s hex that may still move (not carried, not dummies) one hex that way for one
order, and ``stack <unit> march|combat`` changes their formation for one; the units stay stacked for the phase
(later steps of the stack are paid), each spends its own MPs and must be able to enter. A stack holding an HQ
(not an OP, 4.D.1) moves and changes formation free. A leg unit whose entry roll fails stays behind.
"""
from __future__ import annotations

from studio.hexgrid import coords

from ..designations import parse


class BattleDrill:
    """Methods of ``AssaultState`` for Assault 4.D.2."""

    def _drill_groups(self, side: int) -> dict:
        """Group key -> the counters of that Soviet company or battalion (indirect fire units, dummies and
        carried units aside)."""
        groups: dict = {}
        if self.game.sides[side] != "soviet":
            return groups
        for c in self.counters:
            if c.side != side or c.dummy or c.carrier or not c.designation:
                continue
            if self.game.card(c.card).body.indirect_fire is not None:
                continue                                              # Assault 4.D.2: except indirect fire units
            for key in self._group_keys(c.designation):
                groups.setdefault(key, []).append(c)
        return {k: v for k, v in groups.items() if len(v) >= 2}

    def _group_keys(self, designation: str) -> tuple:
        """The drill groups a Soviet designation belongs to: its company (line units) and its battalion (line
        units and the battalion HQ); kept per game (``drill_keys``)."""
        keys = self.game.drill_keys
        if designation not in keys or not self.game.caches:
            d = parse("soviet", designation)
            out = []
            if d is not None and d.role == "line":
                out.append(designation.replace("-", ""))
            if d is not None and d.battalion is not None and d.role in ("line", "battalion-hq"):
                out.append(f"bn{d.battalion}")
            keys[designation] = tuple(out)
        return keys[designation]

    def _drill_actions(self) -> list[str]:
        out = []
        side = self.phasing()
        for key, units in sorted(self._drill_groups(side).items()):
            if any(c.drill and c.drill != key for c in units):
                continue
            if any(self._company(c).state == "broken" for c in units):
                continue                                              # Assault 17.A.2: no formation
            out += self._drill_formations(key, units)
            out += [f"drill {key} {d}" for d in self._drill_directions(key, units)]
        return out

    def _drill_formations(self, key: str, units: list) -> list[str]:
        if any(c.moved or c.changed for c in units) or self._drill_payment(units) is None:
            return []
        return [f"drill {key} {f}" for f in ("march", "combat") if any(c.formation != f for c in units)]

    def _drill_payment(self, units: list):
        """One order for the group: seen if any of its counters is (Assault 4.D.2, 4.C.1)."""
        payer = next((c for c in units if not self.game.card(c.card).body.asterisk), units[0])
        return self._payment(payer, [c.hex for c in units])

    def _drill_directions(self, key: str, units: list) -> list[int]:
        """The directions (0-5) in which every counter of the group can step at the same cost (Assault 4.D.2).
        What does not depend on the direction (formations, MPs, the order, each unit's enterable neighbours)
        is worked out once for the six."""
        started = units[0].drill == key
        if {c.formation for c in units} != {units[0].formation} or {c.mp_used for c in units} != {units[0].mp_used}:
            return []
        if any(c.moved and c.drill != key for c in units):
            return []
        if not started and any(self._needs_orders(c) for c in units) and self._drill_payment(units) is None:
            return []
        if not all(self._may_move_drilled(c) for c in units):
            return []
        moves = [(c, self._enterable_set(c), self._entry_of(c)) for c in units]
        return [d for d in range(6) if self._drill_step_ok(moves, d)]

    def _drill_step_ok(self, moves: list, d: int) -> bool:
        """Every counter of ``moves`` ((counter, enterable neighbours, entry function)) can step in direction
        ``d`` at the same cost (Assault 4.D.2)."""
        costs = set()
        for c, enterable, entry in moves:
            h = self._step_hex(c, d)
            if h is None or h not in enterable or self._drill_barred(c, h):
                return False
            costs.add(entry(h))
        return len(costs) == 1 and all(isinstance(x, int) for x in costs)

    def _enterable_set(self, c) -> set:
        """The neighbours of ``c`` it may enter now (``_enterable``)."""
        return set(self._enterable(c, self.game.neighbours.get(c.hex, ())))

    def _step_hex(self, c, d: int):
        h = coords.neighbour(c.hex, d)
        return h if h in self.game.neighbours.get(c.hex, ()) else None

    def _may_move_drilled(self, c) -> bool:
        """``_may_move`` without the unit's own OPs (the group's order pays) and with leg units barred."""
        body = self.game.card(c.card).body
        if body.mobility in ("L", "S") or c.toc_mode == "plan" or c.deployed:
            return False                                              # 7.D: leg units spend no MPs
        if c.suppressed and body.defence_class in ("weapons", "nav"):
            return False                                              # Assault 11.A.1
        return not (c.moved and self._enemy_at(c.hex, c.side))        # Assault 7.B

    def _drill_barred(self, c, h) -> bool:
        """Suppressed personnel and shaken units never move toward a spotted enemy (11.A.1, 17.A.2)."""
        limited = c.suppressed and self.game.card(c.card).body.defence_class == "personnel" \
            or self._company(c).state == "shaken"
        return limited and self._toward_spotted(c, h)

    def _drill(self, key: str, arg: str) -> None:
        units = self._drill_groups(self.phasing())[key]
        if arg in ("march", "combat"):
            self._pay_drill(units)
            for c in units:
                c.formation, c.changed = arg, True                    # Assault 7.C
                c.cover = c.cover and arg == "combat"
                self._counts_as_moved(c)
            self.narrate(f"battle drill: {key} takes {arg} formation (4.D.2)")
            return
        if units[0].drill != key and any(self._needs_orders(c) for c in units):
            self._pay_drill(units)
        for c in units:
            c.drill, c.paid = key, True
        self.narrate(f"battle drill: {key} moves in direction {arg} (4.D.2)")
        self.drill_queue = tuple((c.id, int(arg)) for c in units)
        self._drill_continue()

    def _pay_drill(self, units: list) -> None:
        payer = next((c for c in units if not self.game.card(c.card).body.asterisk), units[0])
        for k, n in (self._drill_payment(units) or {}).items():
            self.ops[payer.side][k] -= n
            for toc in self.counters:
                if toc.side == payer.side and toc.toc_mode == "execute" and toc.designation.replace("-", "") == k:
                    toc.toc_bank -= n                                 # Assault 6.A.3

    def _drill_continue(self) -> None:
        """Move the queued counters one at a time until an opportunity-fire decision interrupts (15)."""
        while self.drill_queue and not self.opp_target:
            (cid, d), self.drill_queue = self.drill_queue[0], self.drill_queue[1:]
            c = next((o for o in self.counters if o.id == cid), None)
            h = self._step_hex(c, d) if c is not None else None
            stack = c is not None and c.drill.startswith("stack:")
            able = h is not None and (self._may_move_stacked(c) if stack else self._may_move_drilled(c))
            if able and self._can_enter(c, h):
                self._move(c, h)
            if stack and self._present(c) and c.hex != h:
                c.drill = ""                                          # left behind: no longer with the stack

    # ------------------------------------------------------------------ orders to a stack (Assault 4.C, 4.D.1)
    def _stack_members(self, lead) -> list:
        """The units an order through ``lead`` moves: its stack of this phase once started, else every unit of
        the side in its hex that has not moved."""
        if lead.drill.startswith("stack:"):
            return [c for c in self.counters if c.drill == lead.drill]
        return [c for c in self._here(lead.hex) if c.side == lead.side and not c.carrier   # (counter order)
                and not c.dummy and not c.moved and not c.drill]

    def _stack_free(self, units: list) -> bool:
        """Assault 4.D.1: units moving with an HQ as a stack need no OPs (an OP gives no such benefit)."""
        return any(self.game.card(c.card).body.role == "hq" for c in units)

    def _stack_payment_ok(self, units: list) -> bool:
        if self._stack_free(units) or not any(self._needs_orders(c) for c in units):
            return True
        return self._drill_payment(units) is not None

    def _stack_leads(self, side: int) -> list:
        """One counter per stack that may take an order: the first of each started stack, else the first unit
        of each hex that has not moved."""
        leads: dict = {}
        for c in self.counters:
            if c.side != side or c.carrier or c.dummy:
                continue
            if c.drill.startswith("stack:"):
                leads.setdefault(c.drill, c)
            elif not c.drill and not c.moved:
                leads.setdefault(c.hex, c)
        return list(leads.values())

    def _stack_actions(self) -> list[str]:
        out = []
        for lead in self._stack_leads(self.phasing()):
            units = self._stack_members(lead)
            if len(units) < 2 or any(self._company(c).state == "broken" for c in units):
                continue
            started = lead.drill.startswith("stack:")
            if not started and not any(c.changed for c in units) and self._stack_payment_ok(units):
                out += [f"stack {lead.id} {f}" for f in ("march", "combat") if any(c.formation != f for c in units)]
            out += [f"stack {lead.id} {d}" for d in self._stack_directions(units, started)]
        return out

    def _stack_directions(self, units: list, started: bool) -> list[int]:
        """The directions (0-5) in which every unit of the stack can step (Assault 4.C, 4.D.1); what does not
        depend on the direction is worked out once for the six."""
        if not started and not self._stack_payment_ok(units):
            return []
        if not all(self._may_move_stacked(c) for c in units):
            return []
        moves = [(c, self._enterable_set(c)) for c in units]
        return [d for d in range(6) if all(self._stack_step_ok(c, enterable, d) for c, enterable in moves)]

    def _stack_step_ok(self, c, enterable: set, d: int) -> bool:
        h = self._step_hex(c, d)
        return h is not None and h in enterable and not self._drill_barred(c, h)

    def _may_move_stacked(self, c) -> bool:
        """``_may_move`` without the unit's own OPs (the stack's order pays)."""
        body = self.game.card(c.card).body
        if c.toc_mode == "plan" or c.deployed or (c.suppressed and body.defence_class in ("weapons", "nav")):
            return False                                              # Assault 6.A.2, 19.E, 11.A.1
        return not (c.moved and (self._enemy_at(c.hex, c.side) or c.cover))     # Assault 7.B, 7.G

    def _stack(self, lead_id: str, arg: str) -> None:
        lead = self._by_id(lead_id)
        units = self._stack_members(lead)
        started = lead.drill.startswith("stack:")
        if not started and not self._stack_free(units) and any(self._needs_orders(c) for c in units):
            self._pay_drill(units)                                    # one order for the hex (4.C)
        if arg in ("march", "combat"):
            for c in units:
                c.formation, c.changed, c.cover = arg, True, c.cover and arg == "combat"   # Assault 7.C
                self._counts_as_moved(c)
            self.narrate(f"the stack of {lead.id} takes {arg} formation (4.C)")
            return
        key = lead.drill if started else f"stack:{lead.id}"
        for c in units:
            c.drill, c.paid = key, True
        self.narrate(f"the stack of {lead.id} moves in direction {arg} (4.C, 4.D.1)")
        self.drill_queue = tuple((c.id, int(arg)) for c in units)
        self._drill_continue()
