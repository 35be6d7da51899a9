"""World at War artillery: calls, missions, mortars and on-map artillery (WaW 8.0-8.7, 1.3.4.3).

A mixin of :class:`studio.rulesets.waw.engine.state.WawState` (the state record); methods read and write its
slots.
"""
from __future__ import annotations


from studio.hexgrid.coords import distance

from .actions import Action


class ArtilleryRules:
    __slots__ = ()

    def _calls_made(self, caller: int) -> int:
        """Missions called so far this impulse: by ``caller``, or by the formation (option c67)."""
        if self.game.option("c67_artillery_calls") == "per_formation":
            return sum(self.calls.values())
        return self.calls.get(caller, 0)

    def _call_actions(self, caller: int, fi: int) -> list[Action]:
        """8.0: an HQ (or recon unit) calls each usable asset on every enemy hex in its LOS, up to two calls."""
        g = self.game
        made = self._calls_made(caller)
        if made >= g.const("artillery_missions_per_caller") or self.strength[caller] >= 2 or self.hex[caller] is None:
            return []                          # 8.0: up to two missions (per caller or per formation, c67)
        side = g.units[caller].side
        assets = [a for ai, a in enumerate(g.assets) if a.side == side and self.missions[ai] > 0 and a.usable]
        if not assets:
            return []
        here, lv = self.hex[caller], self.level(caller)
        hexes = [h for h in sorted({self.hex[e] for e in self._targets(caller) if not g.units[e].is_heli})
                 if distance(here, h) <= 1 or g.los.clear(here, h, lv, g.level.get(h, 0), self.wrecks)]
        uid = g.units[caller].uid
        return [Action("call", uid, a.id, g.label[h]) for a in assets for h in hexes]

    # ------------------------------------------------------------------ artillery (8.0, 8.1)
    def _call(self, caller: int, ai: int, target) -> None:
        g = self.game
        a = g.assets[ai]
        self.missions[ai] -= 1
        self.calls[caller] = self.calls.get(caller, 0) + 1
        side = g.units[caller].side
        h = target
        roll = self.dice.roll(6, "accuracy")
        if roll >= g.const("artillery_drift_roll"):
            # drift: the opponent picks an adjacent hex (automated: the one with fewest of his units)
            opts = sorted(g.nbrs[target])
            h = min(opts, key=lambda n: (len(self.units_at(n, 1 - side)) - len(self.units_at(n, side)), n))
        if self.dice.record:
            self.events.append(f"{self._who(caller)} calls {a.type} ({a.id}, {a.fp}x{a.to_hit}) on "
                               f"{g.label[target]}: accuracy {roll}, "
                               + (f"drifts to {g.label[h]}" if h != target else "on target"))
        self.mission(a.type, h, a.fp, a.to_hit, g.roles[side] == "NATO")

    def mission(self, kind: str, h, fp: int, hit: int, nato: bool) -> None:
        """Resolve an artillery mission of ``kind`` on impact hex ``h`` (WaW 8.1-8.6)."""
        g = self.game
        if kind == "Smoke":
            self.smoke[h] = g.const("smoke_duration")   # 8.2: Smoke 2, then 1, then removed
        elif kind == "FASCAM":
            self.mines.add(h)                  # 8.3
        elif kind == "Chemical":
            self._chemical(h)
        elif kind == "MLRS":
            shared = self.attack_roll(fp, hit) if g.option("c74_mlrs_rolls") == "shared" else None
            for x in [h] + sorted(g.nbrs[h]):  # 8.6: the hex and the six around, one roll per hex (c74)
                self.artillery_he(x, fp, hit, dpicm=nato, nato=nato, hits=shared)
        else:
            self.artillery_he(h, fp, hit, dpicm=kind == "DPICM", nato=nato)

    def _chemical(self, h) -> None:
        """WaW 8.4: Morale check for every unit in the hex and around; carried infantry shares its carrier's fate."""
        g = self.game
        self.chem.add(h)
        for x in [h] + sorted(g.nbrs[h]):
            for i in self.units_at(x):
                spec = g.units[i]
                if spec.is_hq or spec.is_heli or self.carrier[i] >= 0:
                    continue
                if sum(self.dice.pool(2, 6, "chemical")) <= self.morale(i):
                    continue
                group = [i] + self._passengers(i)
                for j in group:
                    self._disrupt(j)
                    if not g.units[j].is_vehicle:
                        if self.strength[j] == 0 and g.units[j].body.reduced is not None:
                            self._reduce(j)
                        else:
                            self._destroy(j)

    def _indirect_targets(self, u: int) -> list:
        """1.3.4.3 / 8.7: enemy hexes out of the unit's LOS but in LOS of a friendly HQ, recon unit or Leader
        (of its formation for on-map artillery); on-map artillery also in LOS beyond its fixed range (8.7 b)."""
        g = self.game
        spec = g.units[u]
        spotters = [i for i in self._alive(spec.side) if self.carrier[i] < 0 and (
            g.units[i].is_hq or g.units[i].body.recon or i in g.leader_of) and not self.disr[i]
            and (spec.body.mortar or g.units[i].formation == spec.formation)]
        reach = self._indirect_reach(u)
        if reach is None:
            return []                          # 8.7 (b) needs no spotter: only (c) and mortars (1.3.4.3) do
        out = set()
        for e in self._targets(u):
            h = self.hex[e]
            d = distance(self.hex[u], h)
            if g.units[e].is_heli or d > reach or d <= 1:
                continue
            if g.los.clear(self.hex[u], h, self.level(u), g.level.get(h, 0), self.wrecks):
                if self._beyond_fixed_range(u, d):
                    out.add(h)                 # 8.7 (b): in LOS beyond the fixed range: resolved per 8.1
            elif any(distance(self.hex[sp], h) <= 1 or g.los.clear(self.hex[sp], h, self.level(sp),
                                                                     g.level.get(h, 0), self.wrecks)
                     for sp in spotters):
                out.add(h)
        return sorted(out)

    def _indirect_reach(self, u: int) -> int | None:
        """How far ``u`` fires indirectly: on-map artillery without limit (its unlimited use, 8.7), a mortar its
        range (twice unless underlined, 6.1.1); None when it has no indirect use."""
        g = self.game
        v = self.values(u)
        if g.units[u].cls == "on_map_artillery":
            return None if v.artillery is None or v.artillery.unlimited is None else 999
        return (v.range or 0) * (1 if v.range_underlined else g.const("extended_range_factor"))

    def _beyond_fixed_range(self, u: int, d: int) -> bool:
        v = self.values(u)
        fixed = v.artillery.fixed if self.game.units[u].cls == "on_map_artillery" and v.artillery else None
        return fixed is not None and fixed.range is not None and d > fixed.range

    def _indirect(self, u: int, target) -> None:
        g = self.game
        spec = g.units[u]
        v = self.values(u)
        if spec.cls == "on_map_artillery":
            fp, hit = v.artillery.unlimited.fp, v.artillery.unlimited.to_hit
        else:
            fp, hit = v.he_fp or 0, v.to_hit.he or 6
        h = target
        seen = g.los.clear(self.hex[u], target, self.level(u), g.level.get(target, 0), self.wrecks)
        if not seen and self.dice.roll(6, "accuracy") >= g.const("artillery_drift_roll"):
            opts = sorted(g.nbrs[target])
            h = min(opts, key=lambda n: (len(self.units_at(n, 1 - spec.side)) - len(self.units_at(n, spec.side)), n))
        if self.dice.record:
            self.events.append(f"{self._who(u)} fires indirectly ({fp}x{hit}) at {g.label[target]}"
                               + (" in its own LOS" if seen else ", spotted")
                               + (f", drifts to {g.label[h]}" if h != target else ""))
        self.artillery_he(h, fp, hit)
        self.ops_complete[u] = True

    def artillery_he(self, h, fp: int, hit: int, dpicm: bool = False, nato: bool = True,
                     hits: int | None = None) -> int:
        """WaW 8.1: Hits (rolled, or ``hits`` shared by an MLRS strike), then terrain infantry DB (city: 2)
        saves at 5+; combat vehicles only Disrupted; DPICM (8.5) only strikes vehicles. Returns the net Hits."""
        g = self.game
        units = [i for i in self.units_at(h) if not g.units[i].is_hq and not g.units[i].is_heli
                 and self.carrier[i] < 0]
        say = self.dice.record
        if hits is None:
            hits = self.attack_roll(fp, hit, label=f"attack artillery {g.label[h]}" if say else "attack")
        if not units or not hits:
            if say:
                self.events.append(f"Artillery on {g.label[h]}: {hits} Hit(s)" + ("" if units else ", hex empty"))
            return 0
        saved = self._hex_saves(h)
        net = max(0, hits - saved)
        if dpicm:
            units = [i for i in units if g.units[i].is_vehicle]
        before = self._snap(units)
        self._artillery_results(h, units, net, dpicm, nato)
        if say:
            self.events.append(f"Artillery on {g.label[h]}: {hits} Hit(s), {saved} saved by the terrain, net {net}"
                               f"{' (DPICM)' if dpicm else ''}: {self._effects(units, before)}")
        return net

    def _hex_saves(self, h) -> int:
        """8.1, 9.5: the hex's infantry Defensive Bonus dice (built-up terrain: city_artillery_db), each at 5+
        (soft_save) saving one Hit; Concealment does not count."""
        g = self.game
        row = g.tec_row(h)
        n = g.const("city_artillery_db") if row["code"] in g.built_up else (row["db_infantry"] or 0)
        return sum(1 for d in self.dice.pool(n, 6, "save") if d >= g.const("soft_save")) if n else 0

    def _artillery_results(self, h, units: list[int], net: int, dpicm: bool, nato: bool) -> None:
        """Spread ``net`` Hits one each first, remainders at random (8.1); then each side's HQ check (1.3.3.2)."""
        g = self.game
        base, rem = divmod(net, len(units)) if units else (0, 0)
        pool = list(units)
        extra = {pool.pop(self.dice.randrange(len(pool))) for _ in range(rem)}
        sides_hit = set()
        before = self._snap(units)
        for i in units:
            k = base + (1 if i in extra else 0)
            if k:
                sides_hit.add(g.units[i].side)
                self._artillery_hit(i, k, dpicm, nato)
        for s in sorted(sides_hit):
            mine = [i for i in units if g.units[i].side == s]
            was = tuple(b for i, b in zip(units, before) if g.units[i].side == s)
            self._hq_check(h, s, self._hq_trigger(True, mine, was), any(self.strength[i] >= 2 for i in mine))

    def _artillery_hit(self, i: int, k: int, dpicm: bool, nato: bool) -> None:
        """``k`` artillery Hits on unit ``i``: HE only Disrupts combat vehicles (8.1); DPICM Reduces per option
        c18 (note 2: only NATO DPICM Reduces)."""
        g = self.game
        tc = g.units[i].target_class(self.strength[i])
        reading = g.option("c18_dpicm")
        if tc in ("afv", "thin") and not dpicm:
            self._disrupt(i)
        elif dpicm and (reading == "disrupt_only" or not (nato or reading == "all_reduce")):
            self._disrupt(i)
        else:
            self.apply_hits(i, k)
