"""World at War Battlefield Chaos (WaW 11.0): the roll, and one handler per result of the table.

A mixin of :class:`studio.rulesets.waw.engine.state.WawState` (the state record); methods read and write its
slots.
"""
from __future__ import annotations

from studio.hexgrid.coords import distance
from studio.rules.api import LogEntry


class EventRules:
    __slots__ = ()

    # ------------------------------------------------------------------ Battlefield Chaos (11.0)
    def _chaos(self) -> None:
        """WaW 11.0: roll 2d6 (a result 'expand' rolls 3d6, again per option c15) and apply the result the
        ruleset's Battlefield Chaos Table names for that roll (choices automated, see each handler)."""
        g = self.game
        r = sum(self.dice.pool(g.const("chaos_dice"), 6, "chaos"))
        while g.tables.chaos.get(r) == "expand":
            r = sum(self.dice.pool(g.const("chaos_expand_dice"), 6, "chaos"))
            if g.option("c15_chaos_seven") != "reroll_3d6":
                break
        nato = g.roles.index("NATO") if "NATO" in g.roles else 0
        rerolled = getattr(self, "_chaos_" + g.tables.chaos.get(r, "none"))(nato, 1 - nato)
        if not rerolled:
            self.log.append(LogEntry(self.turn, "chaos", -1, f"chaos {r}", []))

    def _chaos_none(self, nato: int, alliance: int) -> None:
        """A roll the table leaves without a result (or 'expand' kept by option c15): nothing happens."""

    _chaos_expand = _chaos_none

    def _chaos_not_dead_yet(self, nato: int, alliance: int) -> None:
        """Chaos 2: each side takes the Ops Complete marker off one unit (automated: its first)."""
        for side in (0, 1):
            for i in self._alive(side):
                if self.ops_complete[i]:
                    self.ops_complete[i] = False
                    break

    def _chaos_miscommunication(self, nato: int, alliance: int) -> None:
        self._miscommunication(nato, alliance)

    def _chaos_close_air_support(self, nato: int, alliance: int) -> None:
        self._close_air_support(nato)

    def _chaos_comms_breakdown(self, nato: int, alliance: int) -> None:
        self.comms = True                      # Chaos 5: the next formation drawn rolls per hex (4.2)

    def _chaos_berserk(self, nato: int, alliance: int) -> None:
        """Chaos 6: a random Disrupted or Reduced Alliance unit (d6 up to 6, d10 up to 10, re-rolling faces above
        the count, digest C44; uniform beyond) is restored and marked Berserk."""
        g = self.game
        cands = [i for i in self._alive(alliance) if (self.disr[i] or self.strength[i] == 1)
                 and not g.units[i].is_hq]
        if not cands:
            return
        n = len(cands)
        if n <= g.const("chaos_berserk_d10_max"):
            sides = g.const("chaos_berserk_d6_max") if n <= g.const("chaos_berserk_d6_max") else \
                g.const("chaos_berserk_d10_max")     # the d6 or the d10 (digest C44)
            pick = self.dice.roll(sides, "berserk")
            while pick > n:
                pick = self.dice.roll(sides, "berserk")
            i = cands[pick - 1]
        else:
            i = cands[self.dice.randrange(n)]
        self.disr[i] = False
        self.strength[i] = 0
        self.berserk[i] = 1

    def _chaos_wear_and_tear(self, nato: int, alliance: int) -> None:
        """Chaos 8: Breakdown 2 on an Alliance vehicle platoon (automated: the strongest AP)."""
        g = self.game
        cands = [i for i in self._alive(alliance) if g.units[i].is_vehicle and not self.breakdown[i]]
        if cands:
            i = max(cands, key=lambda j: ((self.values(j).ap_fp or 0), -j))
            self.breakdown[i] = g.const("chaos_breakdown")

    def _chaos_insurrection(self, nato: int, alliance: int) -> None:
        self._insurrection(nato)

    def _chaos_friendly_fire(self, nato: int, alliance: int) -> None:
        self._friendly_fire(nato)

    def _chaos_leader(self, side: int) -> bool:
        """Chaos 11/13: a Leader joins a platoon of ``side``; re-roll if a Leader is already in the game."""
        g = self.game
        if any(("L", i) not in self.hallowed for i in list(g.leader_of) + list(self.xleaders)
               if self.strength[i] < 2):
            self._chaos()
            return True
        card = g.chaos_leaders.get(side)
        hosts = [i for i in self._alive(side) if not g.units[i].is_hq and not g.units[i].is_heli
                 and self.carrier[i] < 0]
        if card is not None and hosts:
            self.xleaders[hosts[0]] = card
        return False

    def _chaos_alliance_leader(self, nato: int, alliance: int) -> bool:
        return self._chaos_leader(alliance)

    def _chaos_nato_leader(self, nato: int, alliance: int) -> bool:
        return self._chaos_leader(nato)

    def _chaos_volley_fire(self, nato: int, alliance: int) -> None:
        self.hand.add(("volley", alliance))

    def _chaos_battle_drill(self, nato: int, alliance: int) -> None:
        self.hand.add(("drill", alliance))

    def _chaos_fortune(self, nato: int, alliance: int) -> None:
        self.hand.add(("fortune", alliance))

    def _chaos_sniper(self, nato: int, alliance: int) -> None:
        self._place_chaos_sniper(nato)

    def _chaos_thors_hammer(self, nato: int, alliance: int) -> None:
        self.thor = self.thor or 1

    def _chaos_repairs(self, nato: int, alliance: int) -> None:
        """Chaos 16: NATO restores a GO Reduced vehicle platoon, else rallies a Disrupted one (its first)."""
        g = self.game
        vs = [i for i in self._alive(nato) if g.units[i].is_vehicle]
        red = [i for i in vs if self.strength[i] == 1 and not self.disr[i]]
        if red:
            self.strength[red[0]] = 0
        else:
            dis = [i for i in vs if self.disr[i]]
            if dis:
                self.disr[dis[0]] = False

    def _close_air_support(self, nato: int) -> None:
        """Chaos 4: with no NATO airstrike in the game (in the cup, drawn, or scheduled for a later turn) a spent
        NATO airstrike counter goes into the cup for one attack; otherwise NATO gets one 3-4 HE mission."""
        g = self.game
        mine = [k for k, (a, sd) in enumerate(g.airstrikes) if sd == nato]
        in_game = [k for k in mine if k not in self.air_out]
        spent = [k for k in mine if k in self.air_out]
        if not in_game and spent:
            k = spent[0]
            self.air_out.discard(k)
            self.air_back.add(k)               # one attack, then out of the game (see _strike)
            self.cup.append(("A", k))
            return
        ai = next((i for i, a in enumerate(g.assets) if a.id == "chaos-he-34"), None)
        if ai is not None:
            self.missions[ai] += 1

    def _place_chaos_sniper(self, nato: int) -> None:
        """Chaos 18 (placement automated): within 2 hexes of a NATO unit, in a hex giving infantry a DB."""
        g = self.game
        if g.chaos_sniper is None:
            return
        enemies = [self.hex[e] for e in self._alive(1 - nato) if not g.units[e].is_hq]
        best = None
        for i in self._alive(nato):
            if g.units[i].is_hq or g.units[i].is_heli:
                continue
            radius = g.const("chaos_sniper_radius")
            for h in [self.hex[i]] + [n for n in g.hexes if 0 < distance(n, self.hex[i]) <= radius]:
                if not (g.tec_row(h)["db_infantry"] or 0) or self.units_at(h, 1 - nato):
                    continue
                key = (min((distance(h, e) for e in enemies), default=99), h)
                if best is None or key < best[0]:
                    best = (key, h, i)
        if best is None:
            return
        self.snipers.append([best[1], -1, 0, 0, "NATO"])
        k = len(self.snipers) - 1
        targets = self._sniper_targets(k)
        if targets:
            self._snipe(k, min(targets, key=lambda t: (distance(self.hex[t], best[1]), t)))

    def _miscommunication(self, nato: int, alliance: int) -> None:
        """Chaos 3 (choices automated): the Alliance moves the NATO unit nearest to it toward its units under
        the normal movement rules, hex by hex, each hex opening Opportunity Fire (6.2); then it is Ops Complete."""
        g = self.game
        mine = [self.hex[e] for e in self._alive(alliance) if not g.units[e].is_hq]
        cands = [i for i in self._alive(nato) if not g.units[i].is_hq and not g.units[i].is_heli
                 and self.carrier[i] < 0 and (not self.ops_complete[i] or g.option("c45_miscommunication_oc"))]
        if not mine or not cands:
            return
        u = min(cands, key=lambda i: (min(distance(self.hex[i], e) for e in mine), i))
        self.misc = (u, alliance, (self.mp_used[u], self.mp_cap[u], self.one_hex[u], self.locked[u]))
        self.mp_used[u], self.mp_cap[u], self.one_hex[u], self.locked[u] = 0.0, None, False, False
        self._misc_step()

    def _misc_step(self) -> None:
        """Chaos 3: one hex step at a time until no step closes in or an Opportunity Fire window opens."""
        u, alliance, saved = self.misc
        g = self.game
        mine = [self.hex[e] for e in self._alive(alliance) if not g.units[e].is_hq]
        while mine and self.strength[u] < 2:
            near = lambda h: min(distance(h, e) for e in mine)   # noqa: E731
            steps = [n for n in self._move_targets(u) if near(n) < near(self.hex[u])]
            if not steps:
                break
            n = min(steps, key=lambda x: (near(x), x))
            h = self.hex[u]
            self.mp_used[u] += self._terrain_cost(u, h, n) or 1.0
            self._relocate(u, h, n)
            self._mines(u, n)
            if self.strength[u] < 2 and self._opfire_shots(u, first=True):
                self.pending = ("opfire", u, -1)
                return
        self.mp_used[u], self.mp_cap[u], self.one_hex[u], self.locked[u] = saved
        if self.strength[u] < 2:
            self.ops_complete[u] = True
        self.misc = None

    def _insurrection(self, nato: int) -> None:
        """Chaos 9 (hex automated): the Mob goes in a city hex free of the enemy, its marker into the cup."""
        g = self.game
        m = g.mob
        if m is None or self.hex[m] is not None or self.strength[m] >= 2:
            return
        enemies = [self.hex[e] for e in self._alive(1 - nato) if not g.units[e].is_hq]
        cities = [h for h in g.hexes if g.terrain.get(h) in g.mob_codes and not self.units_at(h, 1 - nato)
                  and self._stack_count(h, nato) < g.const("stack_limit")]
        if not cities:
            return
        h = min(cities, key=lambda c: (min((distance(c, e) for e in enemies), default=99), c))
        self.hex[m] = h
        self.control[h] = nato
        fi = g.units[m].formation
        self.entered_f.add(fi)
        self.cup.append(("F", fi))

    def _friendly_fire(self, nato: int) -> None:
        """Chaos 10 (choices automated): the Alliance picks the NATO firer, NATO the (hardest) NATO target."""
        g = self.game
        best = None
        for u in self._alive(nato):
            if g.units[u].is_hq or self.carrier[u] >= 0 or self.disr[u] or self.ops_complete[u]:
                continue
            for t in self._alive(nato):
                if t == u or g.units[t].is_hq or self.carrier[t] >= 0:
                    continue
                for fp in ("ap", "he"):
                    nums = self.fire_numbers(u, t, fp, "normal")
                    if nums is not None:
                        n, save = self.defense_dice(t)
                        key = (nums[0] * (7 - nums[1]), -n * (7 - save), -u, -t)
                        if best is None or key > best[0]:
                            best = (key, u, t, fp)
        if best is not None:
            _, u, t, fp = best
            self._fire(u, t, fp, "normal")
