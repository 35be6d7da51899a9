"""World at War HQs, Leaders, Heroes, Morale, command and rally (WaW 1.3.3, 1.3.6, 1.3.7, 1.6, 4.2, 4.3).

A mixin of :class:`studio.rulesets.waw.engine.state.WawState` (the state record); methods read and write its
slots.
"""
from __future__ import annotations


from studio.hexgrid.coords import distance


class CommandRules:
    __slots__ = ()

    def morale(self, i: int) -> int:
        """Formation Morale, or Conditional Morale: base + units within 2 hexes, at most 8 (WaW 1.6, 1.6.1)."""
        g = self.game
        leader = g.leader_of.get(i) or self.xleaders.get(i)
        if leader is not None and leader.morale is not None and ("L", i) not in self.hallowed:
            return leader.morale.value         # 1.3.6: the platoon takes its Leader's Morale (digest C12)
        f = g.formations[g.units[i].formation]
        m = f.morale
        if m is None:
            return g.const("unit_morale_default")
        if not m.conditional:
            return m.value
        radius = g.const("conditional_morale_radius")
        n = sum(1 for j in f.units if j != i and not g.units[j].is_hq and self.strength[j] < 2
                and self.hex[j] is not None and distance(self.hex[j], self.hex[i]) <= radius)
        return min(m.value + n, g.const("conditional_morale_cap"))

    def _hq_in(self, h, side: int) -> int:
        g = self.game
        for i in self.units_at(h, side):
            if g.units[i].is_hq:
                return i
        return -1

    def _leadership(self, i: int) -> int:
        v = self.values(i)
        return (v.leadership or 0) if v is not None else 0

    def _leader_bonus(self, i: int) -> int:
        """1.3.6: the attached (living) Leader's Leadership, applied to the value the event uses."""
        leader = self.game.leader_of.get(i) or self.xleaders.get(i)
        if leader is None or ("L", i) in self.hallowed or leader.full is None:
            return 0
        return leader.full.leadership or 0

    def _restore_hqs(self) -> None:
        """WaW 1.3.3.3: a destroyed HQ returns Reduced in a hex with a unit of the appropriate type of its
        formation (hex choice automated: the most such units); with none left it is permanently destroyed."""
        for f in self.game.formations:
            q = f.hq
            if q < 0 or self.strength[q] < 2 or self.strength[q] == 3:
                continue
            counts: dict = {}
            for u in f.hq_type_units:
                if self.strength[u] < 2 and self.hex[u] is not None and self.carrier[u] < 0:
                    counts[self.hex[u]] = counts.get(self.hex[u], 0) + 1
            if counts:
                h = max(sorted(counts), key=lambda x: counts[x])
                self.hex[q], self.strength[q], self.disr[q] = h, 1, False
            else:
                self.strength[q] = 3           # permanently destroyed

    def _command(self, fi: int, first: bool) -> None:
        """WaW 4.2: one check per hex; units in range of the HQ (twice for recon) are In Command; a formation
        entering the game is In Command on its first activation."""
        if first:
            return
        g = self.game
        f = g.formations[fi]
        q = f.hq
        hq_hex = self.hex[q] if q >= 0 and self.strength[q] < 2 else None
        cr = 0
        if hq_hex is not None:
            cr = self.values(q).command_range or 0
            if self.thor:
                cr = min(cr, g.const("thor_command_range"))   # Chaos 14: at most 3, never raised
        hexes: dict = {}
        for u in f.units:
            if u != q and self.strength[u] < 2 and self.hex[u] is not None:
                hexes.setdefault(self.hex[u], []).append(u)
        for h, us in sorted(hexes.items()):
            self._command_hex(fi, h, us, hq_hex, cr)

    def _command_hex(self, fi: int, h, us: list[int], hq_hex, cr: int) -> None:
        """The command check of one hex: Jammed (10.0) or Comms Breakdown (Chaos 5) roll d6 against the
        threshold (option c14) except in hexes with the HQ, a Leader or a Hero; else units out of range check
        Morale on 2d6 (4.2)."""
        g = self.game
        led = any(x in g.leader_of or x in g.hero_of or x in self.xleaders for x in us)
        us = [x for x in us if x not in g.leader_of and x not in g.hero_of and x not in self.xleaders]
        if not us:
            return                             # 1.3.6, 1.3.7: a Leader or Hero keeps its platoon In Command
        if fi in self.jammed or self.comms:
            if self._communications_fail(fi, h == hq_hex or led):
                for x in us:
                    self.out_of_command[x] = True
                return
            if fi in self.jammed:
                return
        need = [u for u in us if hq_hex is None or distance(h, hq_hex) > cr * (
            g.const("recon_command_factor") if g.units[u].body.recon else 1)]   # 1.3.4.4: recon twice the range
        if need:
            self._morale_command_check(h, need, g.formations[fi].side)

    def _communications_fail(self, fi: int, exempt: bool) -> bool:
        """10.0 Jammed, Chaos 5 Comms Breakdown: a d6 below the threshold (option c14) puts the hex Out of
        Command; hexes with the HQ, a Leader or a Hero make no roll."""
        if exempt:
            return False
        label = "jammed" if fi in self.jammed else "comms"
        return self.dice.roll(6, label) < self.game.option("c14_jam_threshold")

    def _morale_command_check(self, h, need: list[int], side: int) -> None:
        """4.2: one 2d6 roll for the hex against its lowest (option c66: or highest) Morale; a stacked HQ's
        Leadership helps (option c29); failure marks the units Out of Command."""
        g = self.game
        morale = [self.morale(u) for u in need]
        m = max(morale) if g.option("c66_command_morale_hex") == "highest" else min(morale)
        lead = 0
        if g.option("c29_hq_leadership_checks") == "rally_and_command":
            q2 = self._hq_in(h, side)
            lead = self._leadership(q2) if q2 >= 0 else 0
        if sum(self.dice.pool(2, 6, "command")) - lead > m:
            for u in need:
                self.out_of_command[u] = True

    def _rally(self, fi: int) -> None:
        """WaW 4.3: 2d6 (+1 if OOC, - HQ Leadership in the hex) <= Morale removes Disrupted."""
        g = self.game
        f = g.formations[fi]
        for u in f.units:
            if not self.disr[u] or self.strength[u] >= 2 or g.units[u].is_hq:
                continue
            if self.carrier[u] >= 0:
                continue
            mod = (g.const("ooc_rally_mod") if self.out_of_command[u] else 0) + \
                (g.const("jammed_rally_mod") if fi in self.jammed else 0)     # 4.3, 10.0
            if self.out_of_command[u] and not g.option("c11_ooc_rally"):
                continue
            q = self._hq_in(self.hex[u], f.side)
            if q >= 0:
                mod -= self._leadership(q)
            if sum(self.dice.pool(2, 6, "rally")) + mod <= self.morale(u):
                self.disr[u] = False
                for p in self._passengers(u):
                    self.disr[p] = False         # 5.2.4: passengers rally with the transport

    def _hq_left_alone(self, u: int, h) -> int:
        """The HQ of ``u``'s formation that ``u`` leaving ``h`` would leave without a unit of its type (WaW
        1.3.3.1, option c23), or -1."""
        g = self.game
        f = g.formations[g.units[u].formation]
        q = f.hq
        if q < 0 or u not in f.hq_company or self.hex[q] != h or self.strength[q] >= 2:
            return -1
        for j in f.hq_company:
            if j != u and self.hex[j] == h and self.strength[j] < 2 and self.carrier[j] < 0:
                return -1
        return q

    def _hq_can_follow(self, u: int, h, n, q: int | None = None) -> bool:
        """WaW 1.3.3.1: the last unit of its type may leave the HQ's hex only if the HQ can go with it: the HQ is
        not Ops Complete and ``n`` holds no other HQ of the side (1.3.3: one HQ per hex). ``q``: the answer of
        ``_hq_left_alone(u, h)`` when already known."""
        if q is None:
            q = self._hq_left_alone(u, h)
        if q < 0:
            return True
        if self.ops_complete[q]:
            return False
        side = self.game.units[u].side
        return sum(1 for j in self.units_at(n, side) if self.game.units[j].is_hq) < self.game.const("hq_per_hex")

    def _hero_shield(self, t: int) -> bool:
        """1.3.7: the living Hero of ``t`` ignores this attack's first Hit; option c64 ``once``: only once."""
        g = self.game
        if t not in g.hero_of or ("H", t) in self.hallowed or ("HU", t) in self.hallowed:
            return False
        if g.option("c64_hero_first_hit") == "once":
            self.hallowed.add(("HU", t))
        return True

    def _casualty(self, t: int, certain: bool) -> None:
        """1.3.6, 1.3.7: a Leader/Hero dies with its platoon, or on a 1 when it is Reduced; Hallowed Ground."""
        g = self.game
        for key, table in (("L", {**g.leader_of, **self.xleaders}), ("H", g.hero_of)):
            if t in table and (key, t) not in self.hallowed:
                if certain or self.dice.roll(6, "leader") == 1:
                    self.hallowed.add((key, t))
                    if self.hex[t] is not None:
                        self.hallowed.add(("G", self.hex[t], g.units[t].nation))

    def _hq_check(self, h, side: int, hit: bool, destroyed: bool) -> None:
        """WaW 1.3.3.2 (digest C31: any net Hit triggers one roll per attack)."""
        if h is None:
            return
        g = self.game
        q = self._hq_in(h, side)
        if q < 0:
            return
        others = [j for j in self.units_at(h, side) if j != q and not g.units[j].is_heli]
        if not others:
            self._destroy(q)
            return
        mod = g.const("hq_loss_destroyed_mod") if destroyed else 0
        if hit and self.dice.roll(6, "hq") + mod <= g.const("hq_loss_roll"):
            if self.strength[q] == 0:
                self.strength[q] = 1
            else:
                self._destroy(q)
