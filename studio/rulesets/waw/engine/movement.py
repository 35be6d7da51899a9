"""World at War movement and transport (WaW 5.0-5.3, 12.2 Mines).

A mixin of :class:`studio.rulesets.waw.engine.state.WawState` (the state record); methods read and write its
slots.
"""
from __future__ import annotations


from studio.hexgrid.coords import distance


INF = 99.0          # Movement Points of a unit that must stop (no more movement this impulse)
WATER = "water"     # compiled step cost of a water hex (5.3: depends on the unit's MP spent)


class MovementRules:
    __slots__ = ()

    def _terrain_cost(self, i: int, a, b) -> float | None:
        """MP for unit ``i`` to step from ``a`` into ``b`` (WaW 5.0: ``terrain[].move_cost`` per mobility class,
        roads, hexside features; 5.3 water; 8.4 Chemical), or None when it may not."""
        g = self.game
        if g.units[i].is_heli:
            return 1.0
        return self._step_cost(i, g.mobility[i][min(self.strength[i], 1)], a, b)

    def _step_cost(self, i: int, mt: str | None, a, b) -> float | None:
        """``_terrain_cost`` of a ground unit of mobility class ``mt``."""
        if mt == "towed":
            return None
        g = self.game
        code = g.terrain.get(b, "C")
        key = (mt, a, b)
        hit = g.step_static.get(key)
        if hit is None or hit[0] != code:       # compiled once per game (keyed on the terrain code it read)
            hit = g.step_static[key] = (code, self._static_step_cost(mt, a, b, code))
        cost = hit[1]
        if cost is WATER:
            v = self.values(i)
            # 5.3: green MP crosses water as the whole move of the impulse, starting with it
            return 0.0 if v.movement.green and self.mp_used[i] == 0 and not self.one_hex[i] else None
        if cost is None:
            return None
        if self.chem and any(distance(b, c) <= 1 for c in self.chem):
            return cost + float(g.const("chemical_extra_mp"))   # 8.4
        return cost

    def _step_costs(self, i: int, mt: str | None, h) -> list:
        """``_step_cost(i, mt, h, n)`` for every neighbour ``n`` of ``h`` in ``game.nbrs`` order: the fixed costs
        compiled once per game per (mobility, hex), checked against the terrain codes they read; a row with
        water (5.3) or a game with Chemical markers (8.4) takes the step-by-step answers."""
        g = self.game
        nbrs = g.nbrs[h]
        if mt == "towed":
            return [None] * len(nbrs)
        terrain = g.terrain
        codes = [terrain.get(n, "C") for n in nbrs]
        key = (mt, h)
        row = g.step_rows.get(key)
        if row is None or row[0] != codes:
            row = g.step_rows[key] = (codes, [self._static_step_cost(mt, h, n, c) for n, c in zip(nbrs, codes)])
        costs = row[1]
        if self.chem or WATER in costs:
            return [self._step_cost(i, mt, h, n) for n in nbrs]
        return costs

    def _static_step_cost(self, mt: str, a, b, code: str):
        """The part of a step's cost fixed for the game: road (5.0), terrain per mobility class (TEC; Texas Scrub
        per option c61), hexside features; ``WATER`` for a water hex (5.3), None when prohibited."""
        g = self.game
        if g.map.road(a, b):
            return float(g.const("road_cost"))
        if code in g.water_codes:
            return WATER
        cost = g.step_cost.get((code, mt), g.step_cost.get(("C", mt)))
        if cost is None:
            return None                        # prohibited (TEC; Texas Scrub per option c61)
        side = g.map.hexside(a, b)
        if side:
            feat = g.tables.features.get(side)
            if feat:
                extra = feat.get(mt)
                if extra is None:
                    return None
                cost += extra
        return float(cost)

    def _mp(self, i: int) -> float:
        g = self.game
        if g.units[i].is_heli:
            return INF
        v = self.values(i)
        mp = float(v.movement.mp or 0)
        if mp and (self.game.leader_of or self.xleaders):
            mp += self._leader_bonus(i)        # 1.3.6: a moving platoon's Leader raises its MP
        cap = self.mp_cap[i]
        return min(mp, cap) if cap is not None else mp

    def _half(self, i: int) -> float:
        v = self.values(i)
        return float((v.movement.mp or 0) // 2)

    def _move_targets(self, u: int) -> list:
        """The hexes ``u`` may step into now (5.0): MP left, terrain, no enemy (an Assault or Overrun instead),
        stacking (1.4), the HQ following (1.3.3.1), a Disrupted unit not closing with the enemy (6.1.7)."""
        g = self.game
        spec = g.units[u]
        mp = self._mp_to_move(u)
        if mp is None:
            return []
        h = self.hex[u]
        used = self.mp_used[u]
        side = spec.side
        enemies = None
        if self.disr[u]:
            enemies = [self.hex[e] for e in self._alive(1 - side) if not g.units[e].is_hq and self.carrier[e] < 0]
        heli, one_hex = spec.is_heli, self.one_hex[u]
        nbrs = g.nbrs[h]
        if heli:
            costs, q = [1.0] * len(nbrs), -1
        else:
            costs = self._step_costs(u, g.mobility[u][min(self.strength[u], 1)], h)
            q = self._hq_left_alone(u, h)
        limit = g.const("stack_limit") - 1
        occ = self._occ
        if occ is None:                        # uncached: the queries read the units
            enemy_at = lambda n: self._has_units(n, 1 - side)          # noqa: E731
            stacked = lambda n: self._stack_count(n, side)             # noqa: E731
        else:                                  # the same answers read from the occupancy (cache.build_occupancy)
            enemy_at = lambda n: (n, 1 - side) in occ                  # noqa: E731
            stacked = lambda n: occ.get(("s", n, side), 0)             # noqa: E731
        cap = mp + 1e-9
        out = []
        for n, cost in zip(nbrs, costs):
            if cost is None or used + (0.0 if one_hex else cost) > cap or enemy_at(n):
                continue
            if not heli and (stacked(n) > limit or (q >= 0 and not self._hq_can_follow(u, h, n, q))):
                continue
            if enemies is not None and _closes_in(h, n, enemies):
                continue
            out.append(n)
        return out

    def _mp_to_move(self, u: int) -> float | None:
        """``u``'s MP (``_mp``) when it may move now, else None: not broken down (Chaos 8), locked (5.2.1),
        Hovering (9.1) or towed (1.3.9), MP left, and a unit in the water or just unloaded moves one hex only
        (5.3, 5.2.2)."""
        spec = self.game.units[u]
        if self.breakdown[u] or self.locked[u]:
            return None
        if (self.hover[u] if spec.is_heli else spec.values(self.strength[u]).movement.towed):
            return None
        used = self.mp_used[u]
        mp = self._mp(u)
        return mp if used < mp and not (self.one_hex[u] and used > 0) else None

    def _load_targets(self, u: int) -> list[int]:
        g = self.game
        spec = g.units[u]
        if not (spec.is_infantry or spec.cls == "towed_gun") or spec.cls == "militia_cav" or self.disr[u]:
            return []
        out = []
        for c in self.units_at(self.hex[u], spec.side):
            cs = g.units[c]
            if c == u or self.carrier[c] >= 0 or cs.is_heli or self.ops_complete[c] or self.out_of_command[c]:
                continue
            v = self.values(c)
            if not v.movement.circled or self._passengers(c):
                continue
            if self.mp_used[c] > self._half(c) or self.breakdown[c]:
                continue
            out.append(c)
        return out

    # ------------------------------------------------------------------ movement (5.0)
    def _move(self, u: int, n) -> None:
        g = self.game
        spec = g.units[u]
        h = self.hex[u]
        cost = 0.0 if self.one_hex[u] else (self._terrain_cost(u, h, n) or 1.0)
        self.mp_used[u] += cost
        if self.one_hex[u]:
            self.mp_used[u] = INF
        if spec.is_heli:
            self.heli_moves[u] += 1
        self._relocate(u, h, n)
        self._after_act(u)
        if g.terrain.get(n) in g.water_codes and not spec.is_heli:
            self.one_hex[u] = True             # 5.3: in the water; the next hex leaves it, then all MP are spent
            self.mp_used[u] = 0.0
        self._mines(u, n)
        if self.strength[u] < 2:
            self._open_opfire(u)

    def _relocate(self, u: int, h, n) -> None:
        """Move ``u`` (with passengers, and its HQ when it would be left alone: WaW 1.3.3.1) from h to n."""
        g = self.game
        spec = g.units[u]
        self.hex[u] = n
        for p in self._passengers(u):
            self.hex[p] = n
        if self.snipers:
            for sn in self.snipers:
                if sn[0] == n and sn[2] < 2 and sn[4] != g.roles[spec.side] and not spec.is_heli and not any(
                        g.units[j].side != spec.side for j in self.units_at(n)):
                    sn[2] = 2                  # 1.3.8: an enemy entering the sniper's hex eliminates it
        if not spec.is_heli:
            self.control[n] = spec.side
            q = self._hq_left_alone(u, h)
            if q >= 0:
                self.hex[q] = n                # 1.3.3.1: the HQ goes with the last unit of its type

    def _mines(self, u: int, n) -> None:
        """WaW 12.2: entering a Mines! hex or one next to it: d6 odd Disrupts; a 6 clears the marker."""
        if not self.mines or self.game.units[u].is_heli:
            return
        for m in sorted(self.mines):
            if distance(m, n) <= 1:
                r = self.dice.roll(6, "mines")
                if r % 2:
                    self._disrupt(u)
                if r == self.game.const("mines_clear_roll"):
                    self.mines.discard(m)

    def _open_opfire(self, mover: int) -> None:
        if self._opfire_shots(mover, first=True):
            self.pending = ("opfire", mover, self.pending[1])

    def _load(self, u: int, c: int) -> None:
        spec = self.game.units[u]
        moved = self.mp_used[u] > 0 or self.mp_used[c] > 0
        self.carrier[u] = c
        self.hex[u] = self.hex[c]
        if spec.cls == "towed_gun":
            self.mp_used[c] += self._half(c)   # 5.2.5
        elif moved:
            self.locked[u] = self.locked[c] = True   # 5.2.1 rendezvous (digest C20)
        else:
            self.mp_cap[c] = self._half(c)      # 5.2.1: load, then half the transport's MF
        self.acted[u] = True
        self._after_act(c)

    def _unload(self, u: int) -> None:
        c = self.carrier[u]
        spec = self.game.units[u]
        self.carrier[u] = -1
        self.hex[u] = self.hex[c]
        if spec.cls == "towed_gun":
            self.mp_used[c] += self._half(c)
            self.ops_complete[u] = True
        else:
            self.one_hex[u] = True              # 5.2.2: the infantry may move one more hex
            self.mp_used[u] = 0.0
            if self.mp_used[c] == 0:
                self.mp_cap[c] = self._half(c)
        self._after_act(u)


def _closes_in(h, n, enemies: list) -> bool:
    """6.1.7: a Disrupted unit may not enter a hex next to the enemy nor come closer to it."""
    if any(distance(n, e) <= 1 for e in enemies):
        return True
    return bool(enemies) and min(distance(n, e) for e in enemies) < min(distance(h, e) for e in enemies)
