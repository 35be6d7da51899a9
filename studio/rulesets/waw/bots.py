"""Heuristic World at War player.

Greedy, one decision at a time, using only the observation it is given:

* a drawn formation is always activated (3.2.1 makes setting one aside cost End Turn markers);
* artillery is called first (8.0) on the enemy hex with the most worth hitting in LOS;
* a unit fires when the expected net Hits of its best shot (Hits expected from Firepower and Hit Number, minus
  the target's expected saves) are worth it, weighting targets near destruction higher;
* Assaults are taken when the expected Hits favour the attacker; Overruns when the infantry is weak;
* otherwise units step toward their goal: the nearest objective hex the side does not hold, else the nearest
  enemy; carried infantry unloads near the goal; helicopters fly in Flying mode and hover to shoot;
* Opportunity Fire takes the best shot at the mover whenever it is worth anything (the firer is only Ops
  Complete until its own formation next activates).
"""
from __future__ import annotations

import random

from studio.hexgrid.coords import distance

FIRE_THRESHOLD = 0.35


class HeuristicBot:
    name = "heuristic"
    #: answers kept per decision (False: every query recomputed; the tests compare both, same choices)
    memo = True
    #: "can it shoot from here" read from the decision's offered fire actions when they are all its legal shots
    #: (False: every target scanned; the tests compare both, same choices)
    offered_shots = True

    def __init__(self, game, side: int, seed: int = 0):
        self.game = game
        self.side = side
        self.rng = random.Random(seed)
        self.objectives = sorted({h for vtype, s, pts, hexes, _ in game.victory if vtype == "hold_hexes"
                                  for h in hexes})
        self._memo: dict = {}                  # per decision: (query, args) -> answer (the view does not change)
        # kept across decisions while what they read is unchanged (see _lasting): the key and the answers
        self._world: tuple | None = None
        self._kept: dict = {}
        self._offered: list = []               # the fire actions of the decision being made
        self._top_shot: dict | None = None     # per decision, once _pick_fire ran: unit -> best AP/HE shot value

    def _once(self, key, compute):
        """``compute()`` once per decision for ``key`` (goal, targets, exposure ... of one observation)."""
        memo = self._memo
        if not self.memo:
            return compute()
        if key in memo:
            return memo[key]
        value = memo[key] = compute()
        return value

    def _lasting(self, st, u: int, key, compute):
        """``compute()`` for ``key``, kept across decisions while the enemy units (hex, Ops Complete, Disrupted),
        the objectives' control and which objectives hold a unit of the side are unchanged: goals, exposure and
        distances to the enemy read nothing else (``u``: any unit of the side, for its target list)."""
        if not self.memo:
            return compute()
        memo = self._memo
        if ("world",) not in memo:             # once per decision: the world is compared with the kept one
            world = memo[("world",)] = self._world_of(st, u)
            if world != self._world:
                self._world, self._kept = world, {}
        kept = self._kept
        if key in kept:
            return kept[key]
        value = kept[key] = compute()
        return value

    def _world_of(self, st, u: int) -> tuple:
        return (tuple((e, st.hex[e], st.ops_complete[e], st.disr[e]) for e in self._targets(st, u)),
                tuple(st.control.get(o) for o in self.objectives),
                tuple(bool(st.units_at(o, self.side)) for o in self.objectives))

    # ------------------------------------------------------------------ evaluation
    def shot_value(self, st, u: int, t: int, fp: str, mode: str) -> float:
        """Expected net Hits of the shot, weighted by the target's worth (0 when the shot is illegal)."""
        return self._once(("shot", u, t, fp, mode), lambda: self._shot_value(st, u, t, fp, mode))

    def _shot_value(self, st, u: int, t: int, fp: str, mode: str) -> float:
        nums = st.fire_numbers(u, t, fp, mode)
        if nums is None:
            return 0.0
        f, hit = nums
        hits = f * (7 - hit) / 6.0
        if st.hex[t] in st.ip:
            hits -= 1
        n, save = self._once(("defense", t), lambda: st.defense_dice(t))   # the target's, whoever shoots
        saves = n * max(0, 7 - save) / 6.0
        net = max(0.0, hits - saves * 0.8)
        g = self.game
        spec, strength = g.units[t], st.strength[t]
        steps_left = (0 if st.disr[t] else 1) + (1 if strength == 0 and spec.body.reduced else 0) + 1
        worth = 1.0 + (0.6 if g.tclass[t][min(strength, 1)] == "afv" else 0.0) + 0.5 / steps_left
        if spec.is_heli:
            worth += 0.5
        return net * worth

    def goal(self, st, u: int):
        """The hex ``u`` heads for (its hex and kind are all it depends on besides the world of ``_lasting``)."""
        h, heli = st.hex[u], self.game.units[u].is_heli
        return self._lasting(st, u, ("goal", h, heli), lambda: self._goal(st, u, h, heli))

    def _goal(self, st, u: int, h, heli: bool):
        if self.objectives:
            mine = [o for o in self.objectives if st.control.get(o) != self.side]
            if mine:
                return min(mine, key=lambda o: (distance(h, o), o))
            held = [o for o in self.objectives if not st.units_at(o, self.side)]
            if held and not heli:
                best = min(held, key=lambda o: (distance(h, o), o))
                if distance(h, best) <= 4:
                    return best
        enemies = [st.hex[e] for e in self._targets(st, u)]
        if enemies:
            return min(enemies, key=lambda e: (distance(h, e), e))
        return h

    # ------------------------------------------------------------------ choice
    def choose(self, st, legal):
        self._memo = {}
        self._top_shot = None
        try:
            with st.cached():                  # occupancy cache while deciding (the view is only read)
                return self._choose(st, legal)
        finally:
            self._memo = {}
            self._top_shot = None

    def _targets(self, st, u: int) -> list[int]:
        return self._once(("targets", u), lambda: st.targets_of(u))

    def _choose(self, st, legal):
        """The first worthwhile choice, in this order: activate, strike, Opportunity Fire, artillery, late
        objective moves, fire, snipers and Air Cover, indirect fire, assault, helicopter mode, unload, move."""
        g = self.game
        kinds = {}
        for a in legal:
            kinds.setdefault(a.kind, []).append(a)
        self._offered = kinds.get("fire", [])
        if "activate" in kinds:
            return kinds["activate"][0]
        if "strike" in kinds:
            return max(kinds["strike"], key=lambda a: (self._hex_value(st, a.hex), a.hex))
        if "pass" in kinds:
            best, bv = kinds["pass"][0], 0.1
            for a in kinds.get("opfire", []):
                v = self.shot_value(st, g.by_uid[a.unit], g.by_uid[a.target], a.fire, "opfire")
                if v > bv:
                    best, bv = a, v
            return best
        for pick in (self._pick_artillery, self._pick_late, self._pick_fire, self._pick_extras, self._pick_indirect,
                     self._pick_assault, self._pick_helicopters, self._pick_unload, self._pick_move):
            choice = pick(st, kinds)
            if choice is not None:
                return choice
        return kinds["end"][0] if "end" in kinds else legal[0]

    def _pick_artillery(self, st, kinds):
        g = self.game
        # artillery first
        if "call" in kinds:
            best, bv = None, 0.5
            damaging = {x.id for x in g.assets if x.type in ("HE", "DPICM", "MLRS", "Chemical")}
            for a in kinds["call"]:
                if a.asset not in damaging:
                    continue
                h = g.map.hex_of[a.hex]
                v = sum(1.0 + (0.5 if st.disr[e] else 0) for e in st.units_at(h, 1 - self.side)
                        if not g.units[e].is_hq)
                if v > bv:
                    best, bv = a, v
            if best is not None:
                return best
        return None

    def _pick_late(self, st, kinds):
        g = self.game
        # late in the game, units that can reach an objective the side does not hold go for it
        if self._late(st):
            for a in kinds.get("move", []):
                u = g.by_uid[a.unit]
                n = g.map.hex_of[a.hex]
                if g.units[u].is_heli:
                    continue
                goal = self.goal(st, u)
                if goal in self.objectives and st.control.get(goal) != self.side and \
                        distance(n, goal) < distance(st.hex[u], goal) and distance(st.hex[u], goal) <= 3:
                    return a
        return None

    def _pick_fire(self, st, kinds):
        g = self.game
        # fire
        best, bv = None, FIRE_THRESHOLD
        top = self._top_shot = {}              # unit -> its best AP or HE shot value offered (_offered_shot)
        for a in kinds.get("fire", []):
            u, t, fp = g.by_uid[a.unit], g.by_uid[a.target], a.fire
            mode = "moving" if st.mp_used[u] > 0 and not g.units[u].is_heli else "normal"
            v = self.shot_value(st, u, t, fp, mode)
            if v > top.get(u, 0.0) and fp != "aa":
                top[u] = v
            if v > bv:
                best, bv = a, v
        for a in kinds.get("volley", []):
            lead, t = g.by_uid[a.unit], g.by_uid[a.target]
            fp = "ap" if st.fire_numbers(lead, t, "ap", "normal") else "he"
            nums = st.fire_numbers(lead, t, fp, "normal")
            if nums:
                v = self.shot_value(st, lead, t, fp, "normal") * (nums[0] + 2) / nums[0] * 0.8
                if v > bv:
                    best, bv = a, v
        if best is not None:
            return best
        return None

    def _pick_extras(self, st, kinds):
        if "snipe" in kinds:
            return kinds["snipe"][0]
        if "cover" in kinds:
            return kinds["cover"][0]
        return None

    def _pick_indirect(self, st, kinds):
        # indirect fire from mortars and on-map artillery
        best, bv = None, 0.9
        for a in kinds.get("indirect", []):
            v = self._hex_value(st, a.hex)
            if v > bv:
                best, bv = a, v
        if best is not None:
            return best
        return None

    def _pick_assault(self, st, kinds):
        g = self.game
        # assault / overrun
        for a in sorted(kinds.get("assault", []), key=lambda x: -x.unit.count("+")) + kinds.get("overrun", []):
            if self.assault_ok(st, [g.by_uid[x] for x in a.unit.split("+")], g.map.hex_of[a.hex], a.kind == "overrun",
                               bold=self._late(st) and g.map.hex_of[a.hex] in self.objectives):
                return a
        return None

    def _pick_helicopters(self, st, kinds):
        g = self.game
        # helicopters: hover to shoot, fly to move
        for a in kinds.get("mode", []):
            u = g.by_uid[a.unit]
            near = min((distance(st.hex[u], st.hex[e]) for e in self._targets(st, u)), default=99)
            if st.hover[u] and near > 8:
                return a
            if not st.hover[u] and near <= 6:
                return a
        return None

    def _pick_unload(self, st, kinds):
        g = self.game
        # unload near the goal
        for a in kinds.get("unload", []):
            u = g.by_uid[a.unit]
            c = st.carrier[u]
            if distance(st.hex[c], self.goal(st, c)) <= 2 or any(
                    distance(st.hex[c], st.hex[e]) <= 3 for e in self._targets(st, c)):
                return a
        return None

    def _pick_move(self, st, kinds):
        """The step with the best gain toward the unit's goal (None when no step gains)."""
        best, bv = None, 0
        for a in kinds.get("move", []):
            gain = self._move_gain(st, a)
            if gain is not None and gain > bv:
                best, bv = a, gain
        return best

    def _move_gain(self, st, a):
        """How much a step helps: nearer the goal, into cover, out of the enemy's reach, within command range;
        None for a step not worth taking."""
        g = self.game
        u = g.by_uid[a.unit]
        spec = g.units[u]
        h, n = st.hex[u], g.map.hex_of[a.hex]
        goal = self.goal(st, u)
        if spec.is_heli:
            near = self._nearest(st, u, n)
            if self._nearest(st, u, h) <= 4:
                return None
            return (distance(h, goal) - distance(n, goal)) + (0.5 if near >= 3 else -1)
        if h in self.objectives and st.control.get(h) == self.side and self._holding(st, u):
            return None
        gain = distance(h, goal) - distance(n, goal)
        if gain <= 0:
            return None
        if self._can_shoot_next(st, u) and h not in self.objectives and not self._late(st):
            return None                        # a unit that can already shoot from here stays put
        row = g.tec_row(n)
        gain += 0.25 * ((row["db_infantry"] if spec.is_infantry else row["db_vehicle"]) or 0)
        exp_n = self._exposure(st, u, n)
        if exp_n >= 3 and not self._late(st) and exp_n > self._exposure(st, u, h):
            return None                        # bound: do not step into the reach of several ready enemies
        return gain - 0.3 * exp_n + self._command_gain(st, u, h, n)

    def _command_gain(self, st, u: int, h, n) -> float:
        """Stay within the HQ's command range (twice for recon), and keep the HQ company."""
        g = self.game
        spec = g.units[u]
        q = g.formations[spec.formation].hq
        gain = 0.0
        if q >= 0 and st.strength[q] < 2 and st.hex[q] is not None:
            cr = (st.values(q).command_range or 0) * (2 if spec.body.recon else 1)
            if distance(n, st.hex[q]) > cr >= distance(h, st.hex[q]):
                gain -= 1.2
            if st.hex[q] == h:
                gain += 0.4
        return gain

    def _hex_value(self, st, label: str) -> float:
        g = self.game
        if label not in g.map.hex_of:
            return 0.0
        return sum(1.0 + (0.5 if st.disr[e] else 0.0) for e in st.units_at(g.map.hex_of[label], 1 - self.side)
                   if not g.units[e].is_hq)

    def _late(self, st) -> bool:
        """Last turns, and the side does not yet hold more objectives than the enemy."""
        if not self.objectives or st.turn < self.game.max_turns - 3:
            return False
        mine = sum(1 for o in self.objectives if st.control.get(o) == self.side)
        return mine * 2 <= len(self.objectives)

    def _exposure(self, st, u: int, n) -> int:
        """Enemy units that could shoot at hex ``n`` (in reach and LOS, ready to fire)."""
        return self._lasting(st, u, ("exposure", n), lambda: self._exposure_of(st, u, n))

    def _nearest(self, st, u: int, x) -> int:
        """Distance from hex ``x`` to the nearest enemy target (99 without one)."""
        return self._lasting(st, u, ("nearest", x),
                             lambda: min((distance(x, st.hex[e]) for e in self._targets(st, u)), default=99))

    def _exposure_of(self, st, u: int, n) -> int:
        g = self.game
        lvl = g.level.get(n, 0)
        k = 0
        for e in self._targets(st, u):
            if st.ops_complete[e] or st.disr[e] or g.units[e].is_heli:
                continue
            he = st.hex[e]
            d = distance(he, n)
            if d <= g.reach[e] and (d <= 1 or g.los.clear(he, n, g.level.get(he, 0), lvl)):
                k += 1
        return k

    def _holding(self, st, u: int) -> bool:
        """Keep enough units on held objectives."""
        return self._once(("holding", u), lambda: self._holding_now(st, u))

    def _holding_now(self, st, u: int) -> bool:
        h = st.hex[u]
        return any(distance(h, st.hex[e]) <= 6 for e in self._targets(st, u)) or self.game.units[u].is_infantry

    def _can_shoot_next(self, st, u: int) -> bool:
        """True when the unit already has a worthwhile shot from where it stands (it then holds its ground)."""
        return self._once(("shoot", u), lambda: self._can_shoot_now(st, u))

    def _can_shoot_now(self, st, u: int) -> bool:
        if self.offered_shots and st.drill is None and (st.mp_used[u] == 0 or self.game.units[u].is_heli):
            return self._offered_shot(st, u)
        h, reach = st.hex[u], self.game.reach[u]
        for t in self._targets(st, u):
            if distance(h, st.hex[t]) > reach:
                continue                       # beyond the unit's longest reach: no shot (6.1.1)
            for fp in ("ap", "he"):
                if self.shot_value(st, u, t, fp, "normal") > FIRE_THRESHOLD:
                    return True
        return False

    def _offered_shot(self, st, u: int) -> bool:
        """A worthwhile AP or HE shot among ``u``'s fire actions of this decision: a unit offered a move that has
        not moved fires in the normal mode (6.1), so its offered fire actions are all its legal shots from here
        (outside a Battle Drill, Chaos 15, which offers Moving Fire only)."""
        if self.memo and self._top_shot is not None:   # read off the shot values _pick_fire just computed
            return self._top_shot.get(u, 0.0) > FIRE_THRESHOLD
        by_uid = self.game.by_uid
        uid = self.game.units[u].uid
        return any(self.shot_value(st, u, by_uid[a.target], a.fire, "normal") > FIRE_THRESHOLD
                   for a in self._offered_of(uid) if a.fire in ("ap", "he"))

    def _offered_of(self, uid: str) -> list:
        """The fire actions of this decision by the unit ``uid`` (grouped once per decision)."""
        def group():
            out: dict = {}
            for a in self._offered:
                out.setdefault(a.unit, []).append(a)
            return out
        return self._once(("offered",), group).get(uid, [])

    def assault_ok(self, st, units: list[int], h, overrun: bool, bold: bool = False) -> bool:
        mine = 0.0
        for u in units:
            v = st.values(u)
            if not v.assault_fp:
                return False
            mine += v.assault_fp * (3 if overrun else 1) * (7 - (v.assault_to_hit or 6)) / 6.0
        theirs = 0.0
        defenders = st.ground_enemies_at(h, self.side)
        for d in defenders:
            dv = st.values(d)
            if dv.assault_fp:
                hit = 6 if st.disr[d] else (dv.assault_to_hit or 6)
                theirs += dv.assault_fp * (7 - hit) / 6.0
        if h in st.ip:
            mine -= 1
        weak = sum(1 for d in defenders if st.disr[d] or st.strength[d])
        if bold:
            return mine >= theirs * 0.7
        return mine > theirs * 1.2 + 0.3 or (mine >= theirs and weak and h in self.objectives)


BOTS = {"heuristic": HeuristicBot}
