"""World at War Assault and Overrun (WaW 6.3, 6.4).

A mixin of :class:`studio.rulesets.waw.engine.state.WawState` (the state record); methods read and write its
slots.
"""
from __future__ import annotations

from studio.hexgrid.coords import distance


class AssaultRules:
    __slots__ = ()

    def _assault_targets(self, u: int) -> list:
        g = self.game
        spec = g.units[u]
        v = self.values(u)
        barred = self.disr[u] and self.game.option("c70_disrupted_assault") != "hit_6"   # 6.1.7 (c70)
        if spec.is_heli or v.assault_fp is None or spec.body.cannot_assault or barred or self.breakdown[u] \
                or self.locked[u] or spec.values(self.strength[u]).movement.towed:
            return []
        h = self.hex[u]
        out = []
        for n in g.nbrs[h]:
            if not self._ground_enemies_at(n, spec.side):
                continue
            cost = self._terrain_cost(u, h, n)
            if cost is None or self.mp_used[u] + cost > self._mp(u) + 1e-9:
                continue
            out.append(n)
        return out

    def _overrun_targets(self, u: int) -> list:
        """WaW 6.4: a vehicle may overrun a hex of only enemy infantry in open or hilly terrain, once per hex per
        turn, with MP left (+1) to go on into an exit hex free of the enemy (option c71: both hexes)."""
        g = self.game
        spec = g.units[u]
        if not self._may_overrun(u):
            return []
        h = self.hex[u]
        out = []
        for n in g.nbrs[h]:
            if (spec.uid, n) in self.overrun_done or g.terrain.get(n) not in g.overrun_codes:
                continue
            en = self._ground_enemies_at(n, spec.side)
            cost = self._terrain_cost(u, h, n)
            if not en or not all(g.units[e].is_infantry for e in en) or cost is None:
                continue
            x = self._overrun_exit(u, h, n, self.mp_used[u] + cost + g.const("overrun_extra_mp"))
            if x is not None:
                out.append((n, x))
        return out

    def _may_overrun(self, u: int) -> bool:
        spec = self.game.units[u]
        if not spec.is_vehicle or spec.is_heli or self.disr[u] or self.breakdown[u] or self.locked[u]:
            return False
        v = self.values(u)
        return v.assault_fp is not None and not spec.body.cannot_assault and not v.movement.towed

    def _overrun_exit(self, u: int, h, n, spent: float):
        """The first hex beyond ``n`` the overrunning vehicle can still enter (6.4), or None."""
        g = self.game
        side = g.units[u].side
        for x in g.nbrs[n]:
            if x == h or self.units_at(x, 1 - side):
                continue
            c2 = self._terrain_cost(u, n, x)
            if c2 is not None and spent + c2 <= self._mp(u) + 1e-9 and \
                    self._stack_count(x, side) < g.const("stack_limit"):
                return x
        return None

    # ------------------------------------------------------------------ Assault (6.3) and Overrun (6.4)
    def _assault_dice(self, u: int, enemies: list[int], h, defender: bool, disrupted_at_entry: bool) -> int:
        g = self.game
        spec = g.units[u]
        v = self.values(u)
        if v.assault_fp is None or spec.body.cannot_assault:
            return 0
        af, hit = v.assault_fp, (v.assault_to_hit or 6)
        if self.berserk.get(u) and not defender:
            hit += g.const("chaos_berserk_hit_mod")   # Chaos 6: Berserk assaults with Hit Number -1
            del self.berserk[u]
        if disrupted_at_entry:
            hit = g.const("disrupted_hit_number")   # 6.3 / 6.1.7
        elif spec.is_infantry and enemies and not spec.body.no_assault_bonus:
            vehicles = all(g.units[e].is_vehicle for e in enemies)
            if g.option("c06_infantry_vs_vehicles") == "heavily_armored_only":
                vehicles = all(g.units[e].target_class(self.strength[e]) == "afv" for e in enemies)
            if vehicles:
                hit += g.const("assault_vs_vehicles_hit_mod")   # 6.3.1
                if g.terrain.get(h) in g.built_up:
                    af += g.const("assault_city_af")
        af += self._lead_dice(u)
        hits = self.attack_roll(af, hit, v.assault_augmented,
                                label=f"attack assault {spec.uid}" if self.dice.record else "attack")
        if u in g.hero_of and ("H", u) not in self.hallowed:
            hits += 1                          # 1.3.7: one more Hit than rolled
        return hits

    def _distribute(self, units: list[int], hits: int, saves: bool = False) -> None:
        """6.3: every unit takes one Hit before any takes a second; odd remainders go to random units.
        ``saves``: each unit first rolls its ranged-combat defence (option c33)."""
        units = [x for x in units if self.strength[x] < 2]
        if not units or hits <= 0:
            return
        base, rem = divmod(hits, len(units))
        extra = set()
        pool = list(units)
        for _ in range(rem):
            extra.add(pool.pop(self.dice.randrange(len(pool))))
        for x in units:
            k = base + (1 if x in extra else 0)
            if saves and k:
                n, save = self.defense_dice(x)
                k -= sum(1 for d in self.dice.pool(n, 6, "save") if d >= save) if n else 0
            if k > 0:
                self.apply_hits(x, k)

    def _assault(self, attackers, h) -> None:
        """WaW 6.3: the attackers (one unit or a stack) enter ``h``; both sides roll; Hits spread 1-each-first;
        the side that took fewer Hits holds the hex; both sides are Ops Complete."""
        g = self.game
        if isinstance(attackers, int):
            attackers = [attackers]
        side = g.units[attackers[0]].side
        src = self.hex[attackers[0]]
        costs = {a: (self._terrain_cost(a, src, h) or 1.0) for a in attackers}
        defenders = self._ground_enemies_at(h, side)
        applied_d, applied_a = self._assault_exchange(attackers, defenders, h, src, side)
        survivors = [d for d in defenders if self.strength[d] < 2]
        alive = [a for a in attackers if self.strength[a] < 2]
        if alive and (not survivors or applied_d > applied_a):
            if survivors:
                self._retreat(survivors, h, src, side, alive)
            if not self._ground_enemies_at(h, side):
                for a in alive:
                    self._relocate(a, src, h)
        for d in survivors:
            if self.strength[d] < 2:
                self.ops_complete[d] = True
        for a in alive:
            self.ops_complete[a] = True
            self.mp_used[a] += costs[a]
        for a in attackers:
            self._after_act(a)

    def _assault_exchange(self, attackers, defenders, h, src, side: int) -> tuple[int, int]:
        """Both sides' Assault dice (6.3), Improved Positions (12.1) and the Hero (1.3.7), the Hits applied
        (saves per option c33) and both HQ checks; returns the Hits each side received (option c32)."""
        g = self.game
        d_disr = {d: self.disr[d] for d in defenders}
        hits_a = sum(self._assault_dice(a, defenders, h, False, self.disr[a]) for a in attackers)
        hits_d = sum(self._assault_dice(d, attackers, h, True, d_disr[d]) for d in defenders)
        ip = 1 if h in self.ip else 0
        applied_d = hits_a if g.option("c32_assault_more_hits") == "scored" else max(0, hits_a - ip)
        saves = g.option("c33_assault_saves") == "saves"
        d_before, a_before = self._snap(defenders), self._snap(attackers)
        self._distribute(defenders, max(0, hits_a - ip), saves)
        if any(self._hero_shield(a) for a in attackers):
            hits_d = max(0, hits_d - 1)        # 1.3.7: the Hero ignores the first Hit against it
        self._distribute(attackers, hits_d, saves)
        if self.dice.record:
            self.events.append(
                f"Assault on {g.label[h]}: {self._group(attackers)} score {hits_a} Hit(s)"
                + (f" ({ip} taken off by the Improved Position)" if ip and hits_a else "")
                + f", {self._group(defenders) or 'no defender'} score {hits_d}: defenders "
                f"{self._effects(defenders, d_before)}; attackers {self._effects(attackers, a_before)}")
        d_destroyed = any(self.strength[d] >= 2 for d in defenders)
        self._hq_check(h, 1 - side, self._hq_trigger(applied_d > 0, defenders, d_before), d_destroyed)
        self._hq_check(src, side, self._hq_trigger(hits_d > 0, attackers, a_before),
                       any(self.strength[a] >= 2 for a in attackers))
        return applied_d, hits_d

    def _group(self, units) -> str:
        """Units as the narration names them ("us.1 M60A3 + us.2 M113")."""
        return " + ".join(self._who(i) for i in units)

    def _effects(self, units, before: tuple) -> str:
        """Each unit's result since ``before`` (``_snap`` of the same units), for the narration."""
        return ", ".join(f"{self.game.units[i].uid} {self._effect(i, b)}" for i, b in zip(units, before)) or "-"

    def _retreat(self, units: list[int], h, attacker_hex, attacker_side: int, attackers=()) -> None:
        """6.3: defenders retreat one hex, directly away from the attacker if possible (choice automated); not
        into an enemy hex, next to an enemy unit other than the ``attackers`` (6.3 b), or over stacking."""
        g = self.game
        dq, dr = h[0] - attacker_hex[0], h[1] - attacker_hex[1]
        away = (h[0] + dq, h[1] + dr)
        options = [away] + sorted(n for n in g.nbrs[h] if n != away)
        q = self._hq_in(h, 1 - attacker_side)
        for d in units:
            dest = None
            for n in options:
                if n not in g.label or n == attacker_hex or self.units_at(n, attacker_side):
                    continue
                if any(distance(n, self.hex[e]) <= 1 for e in self._alive(attacker_side)
                       if not g.units[e].is_hq and self.carrier[e] < 0 and e not in attackers):
                    continue                   # 6.3 b: only the units that just attacked are exempt
                if self._stack_count(n, 1 - attacker_side) >= g.const("stack_limit"):
                    continue
                dest = n
                break
            if dest is None:
                self._destroy(d)
            else:
                self.hex[d] = dest
                for p in self._passengers(d):
                    self.hex[p] = dest
                if q >= 0 and self.hex[q] == h:
                    self.hex[q] = dest
        if q >= 0 and self.hex[q] == h:
            self._destroy(q)

    def _overrun(self, u: int, h, x) -> None:
        """WaW 6.4: +1 MP, attacker rolls three times its Assault factor, infantry its unmodified factor."""
        g = self.game
        spec = g.units[u]
        src = self.hex[u]
        side = spec.side
        v = self.values(u)
        self.overrun_done.add((spec.uid, h))
        cost = (self._terrain_cost(u, src, h) or 1.0) + g.const("overrun_extra_mp")
        self.mp_used[u] += cost
        defenders = self._ground_enemies_at(h, side)
        hits_a = self.attack_roll(g.const("overrun_multiplier") * v.assault_fp + self._lead_dice(u),
                                  v.assault_to_hit or 6, v.assault_augmented)
        hits_d = 0
        for d in defenders:
            dv = self.values(d)
            if dv.assault_fp:
                hits_d += self.attack_roll(dv.assault_fp, g.const("disrupted_hit_number") if self.disr[d]
                                           else (dv.assault_to_hit or 6))
        # hits as in ranged combat (6.1): saves apply, one Hit each before a second
        alive = [d for d in defenders if self.strength[d] < 2]
        if hits_a > 0 and alive:
            base, rem = divmod(hits_a, len(alive))
            pool = list(alive)
            extra = {pool.pop(self.dice.randrange(len(pool))) for _ in range(rem)}
            for d in alive:
                self.resolve_hits(d, base + (1 if d in extra else 0), "assault", u)
        if self.dice.record:
            self.events.append(f"{self._who(u)} overruns {g.label[h]}: {hits_a} Hit(s) on "
                               f"{self._group(alive) or 'no defender'}, {hits_d} back")
        before = (self.disr[u], self.strength[u])
        self.resolve_hits(u, hits_d, "assault", defenders[0] if defenders else u)
        self._after_act(u)
        if self.strength[u] >= 2:
            return
        if (self.disr[u], self.strength[u]) != before:
            self.ops_complete[u] = True                  # returns to the hex it came from
            return
        self._relocate(u, src, x)              # continues through to the exit hex
        self.mp_used[u] += self._terrain_cost(u, h, x) or 1.0
        if self.strength[u] < 2:
            self._open_opfire(u)
