"""World at War helicopters in combat, airstrikes and jamming (WaW 9.2.1 Pop-Up, 9.5, 9.6, 10.0).

A mixin of :class:`studio.rulesets.waw.engine.state.WawState` (the state record); methods read and write its
slots.
"""
from __future__ import annotations


from studio.hexgrid.coords import distance


class AirRules:
    __slots__ = ()

    def _popup_targets(self, u: int) -> list[tuple[int, str]]:
        """9.2.1: every target the helicopter may attack one level up; the Pop-Up is the owner's choice whether
        or not the target is also seen at the normal level."""
        out = []
        for t in self._within_reach(u, self._targets(u)):
            saved = self.pending
            self.pending = ("popup", u, t, "", saved[1] if len(saved) > 1 else -1)
            try:
                out += [(t, fp) for fp in self._fire_types(u, t, "normal")]
            finally:
                self.pending = saved
        return out

    def _popup_resolve(self, response) -> None:
        """9.2.1: the one responding unit's fire and the helicopter's attack take effect together."""
        _, u, t, fp, fi = self.pending
        net = 0
        if response is not None:
            e, efp = response
            nums = self.fire_numbers(e, u, efp, "opfire")
            if nums is not None:
                net = self.resolve_hits(u, self.attack_roll(*nums), efp, e, apply=False)
            self.ops_complete[e] = True
        if self.fire_numbers(u, t, fp, "normal") is not None:
            self._fire(u, t, fp, "normal")
        self.ops_complete[u] = True
        self.acted[u] = True
        self.impulse_first = False
        if net:
            self.apply_hits(u, net)
        self.pending = ("ops", fi)

    def _air_cover_attack(self, t: int) -> None:
        """9.6: the held Air Cover marker attacks enemy helicopter ``t`` with its AA value (digest C76); the
        helicopter saves with its Armor and Save; then the marker is out of the game."""
        g = self.game
        side = 1 - g.units[t].side
        self.cover.discard(side)
        self.cover.add(("used", side))
        v = self.values(t)
        hits = self.attack_roll(*g.air_cover_fp)
        saved = sum(1 for d in self.dice.pool(v.armor or 0, 6, "save") if d >= (v.save or 7))
        self.apply_hits(t, max(0, hits - saved))
        self.impulse_first = False

    def _strike(self, k: int, h) -> None:
        """WaW 9.5: AA interception, then the attack on the hex (target class chosen first, digest C42)."""
        a, side = self.game.airstrikes[k]
        if k in self.air_back:
            self.air_back.discard(k)           # Chaos 4: this counter makes only one attack
            self.air_out.add(k)
        if h is None or not self._strike_gets_through(k, h, a, side):
            return
        self._strike_attack(k, h, a, side)

    def _strike_gets_through(self, k: int, h, a, side: int) -> bool:
        """9.5 (2), 9.6: Air Cover, then every ready AA unit in range fires; one net Hit aborts (on 1-3 the
        aircraft leaves the game, else it comes back next turn), two shoot it down."""
        g = self.game
        aa = 0
        if (1 - side) in self.cover and g.air_cover_fp[0]:
            self.cover.discard(1 - side)       # 9.6: Air Cover attacks first, then leaves the game
            self.cover.add(("used", 1 - side))
            aa += self.attack_roll(*g.air_cover_fp)
        for e in self._alive(1 - side):
            v = self.values(e)
            if v is None or not v.aa_fp or self.ops_complete[e] or self.disr[e] or self.carrier[e] >= 0:
                continue
            if distance(self.hex[e], h) <= (v.range or 0):
                aa += self.attack_roll(v.aa_fp, v.to_hit.aa or 6)
                self.ops_complete[e] = True
        if not aa:
            return True
        saved = sum(1 for d in self.dice.pool(a.armor, 6, "save") if d >= a.save)
        net = max(0, aa - saved)
        if net >= 2 or (net == 1 and self.dice.roll(6, "abort") <= g.const("airstrike_abort_roll")):
            self.air_out.add(k)
            return False
        return net == 0                        # one Hit: aborted, back in the cup next turn

    def _strike_attack(self, k: int, h, a, side: int) -> None:
        """9.5 (3)-(5): AP at the armored targets if any, else HE; terrain DB saves at 5+; the return roll."""
        g = self.game
        units = [i for i in self.units_at(h, 1 - side) if not g.units[i].is_hq and not g.units[i].is_heli
                 and self.carrier[i] < 0]
        armored = [i for i in units if g.units[i].target_class(self.strength[i]) in ("afv", "thin")]
        targets, fp = (armored, a.ap_fp) if armored else (units, a.he_fp)
        scored = self.attack_roll(fp, a.to_hit)
        if targets and scored:
            saved = self._hex_saves(h)
            before = self._snap(targets)
            self._distribute(targets, max(0, scored - saved))
            self._hq_check(h, 1 - side, self._hq_trigger(scored - saved > 0, targets, before),
                           any(self.strength[i] >= 2 for i in targets))
        if self.dice.roll(6, "sortie") <= scored:
            self.air_out.add(k)                # out of ammunition

    def _jam(self, side: int) -> None:
        """WaW 10.0: the Jammed counter goes on an enemy HQ (automated: the largest enemy formation's)."""
        g = self.game
        cands = [fi for fi, f in enumerate(g.formations) if f.side != side and f.hq >= 0
                 and self.strength[f.hq] < 2 and fi not in self.jammed]
        if cands:
            fi = max(cands, key=lambda x: (sum(1 for j in g.formations[x].units if self.strength[j] < 2), -x))
            self.jammed[fi] = 1
