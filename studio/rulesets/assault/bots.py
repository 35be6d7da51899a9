"""Assault bots: a heuristic bot that plays through the same legal actions (text) as anyone else.

The heuristic bot sees only its side's observation (unspotted enemies, enemy declarations and force level stay
hidden). It
- rallies every suppressed unit it may before moving (free, Assault 17.B);
- holds still in the first movement phase with units that have a spotted enemy in range, so they may fire in
  their own fire phase (12.B.4); moves the others one step at a time toward the scenario's objective hexes
  (all of them to take its own; one unit per hex to deny the enemy's), preferring hexes with a better defence
  (cover, 14.A); a side that only denies sends the rest hunting, but never into a hex where a spotted enemy
  would see it and it would be spotted (opportunity fire, 15), and it stops once it has a target in range;
- marches (7.C: moves free of OPs) while no spotted enemy is within 12 hexes, and deploys to combat formation
  inside that range or on its objective;
- takes cover with the units that stay (7.G; in the first movement phase only those with nothing to fire at),
  so they defend better and may opportunity fire (15);
- fires, as long as it may, the shot with the best expected effect: anti-armour hit chance times the chance of
  a step loss (13), or conventional fire by its odds on the CRT (14), weighted by the target's steps;
- calls artillery (19): each firer's HE (ICM where allowed) on the hex with the most spotted enemy steps and no
  friendly unit, arriving soonest, at max ROF on a hex of four enemy steps or more; deploys its indirect fire
  units (19.E) and never leaves deployment;
- replaces eliminated HQs at once (4.C.3);
- dismounts its carried infantry before moving once a spotted enemy is within 12 hexes or the carrier stands on
  its goal (8.C), so the infantry fights; it never mounts again;
- gives one order to several units where that saves operations points (4.C): a stack's formation change or step
  (``stack``, free with an HQ in it, 4.D.1) and, as the Soviets, a company's or battalion's (battle drill,
  ``drill``, 4.D.2), when every unit of it would take that formation or gains ground toward its own goal by that
  step; a stack or drill once started goes on only while every unit still gains;
- uses its dummies (10.F) as a screen: they head for the nearest spotted enemy (else the enemy's edge) as a unit
  of their card would, stop four hexes short of it, never enter a hex where a spotted enemy would find them at
  once, count for no objective or stack, and a dummy that was found returns at the start of the next friendly
  movement phase with the unspotted unit nearest the enemy (the choice reads only what the bot's side knows);
- entrenches (18) the personnel and weapons that stand on their goal in an entrenchment hex, and turns an
  armoured vehicle that has moved so that its front armour faces the nearest spotted enemy (7.F, 13.B.2);
- cancels a firer's missions when one of them would land where its own units now stand (19.B.4);
- never plans with a TOC (6.A: commanding gives OPs every phase), leaves deployment, re-mounts, cross-attaches
  or aborts the fire timetable: none of them helps the plan above.
The bot reads the rules' public tables (compiled data, cards) but never the hidden part of the state: it sees
only its observation, where enemy dummies never appear (10.F).
"""
from __future__ import annotations

import random

from studio.hexgrid import coords

from .cards import ANTI_ARMOUR
from .engine import fire
from .engine.game import _hexsides_towards

CONTACT = 12             # hexes: the longest opportunity-fire range (Assault 15.A); deploy from march inside it
MIN_SCORE = 0.05         # fire below this expected effect is not worth revealing the firer (10.D just-fired)
HOLDERS = 2              # units per objective hex; the others stop within SUPPORT_RANGE hexes of it
SUPPORT_RANGE = 3
MAX_STACK_STEPS = 4      # the bot stacks no more steps in a hex (14.A defence, 13.A.3 hit numbers)
FORM_FIRST = 1000.0      # a group's formation change ranks above any step (a step is worth its hexes gained)
DUMMY_STANDOFF = 4       # hexes: a dummy stops this close to a spotted enemy (it spots from there, 10.F)


class HeuristicBot:
    name = "heuristic"

    def __init__(self, game, side: int, seed: int = 0):
        self.game = game
        self.side = side
        self.rng = random.Random(seed)
        self.objectives = [game.map.hex_of[h] for v in game.victory if v.type == "hold_hexes"
                           for h in v.hexes if h in game.map.hex_of]
        self.attacker = any(v.type == "hold_hexes" and v.side == game.sides[side] for v in game.victory)
        self.enemy_edge = game._edge_hexes("east" if game.sides[side] == "us" else "west")[0]
        self._acted = None       # (turn, phase) in which the bot gave an order other than a dummy's return
        self._own, self._rank, self._target_cache, self._empty = [], {}, {}, None   # per decision (``choose``)

    # ------------------------------------------------------------------ choice
    def choose(self, view, legal):
        view = getattr(view, "materialize", lambda: view)()  # a lazy observation: read it once, not per attribute
        texts = [str(a) for a in legal]
        if view.phase == "artillery":
            return self._artillery(view, texts)
        self._own = [c for c in view.counters if c.side == self.side and not c.dummy]
        self._rank = {c.id: n for n, c in enumerate(self._own)}
        self._target_cache: dict = {}                          # unit id -> has a target (this decision)
        self._empty = None                                      # objective hexes no unit of the side holds
        for kind in ("dummy", "rally", "replace", "dismount", "fire", "exit", "group", "deploy", "march", "move",
                     "entrench", "face", "cover"):
            pick = getattr(self, f"_{kind}")(view, texts)
            if pick is not None:
                break
        else:
            pick = "end" if "end" in texts else texts[0]
        if not pick.startswith("dummy "):
            self._acted = (view.turn, view.phase)
        return pick

    # ------------------------------------------------------------------ artillery (Assault 19)
    def _artillery(self, view, texts):
        """Deploy every indirect fire unit; plot the best HE/ICM mission of a firer with none yet this phase."""
        deploys = [t for t in texts if t.startswith("deploy ")]
        if deploys:
            return deploys[0]
        for t in texts:
            if t.startswith("cancel ") and self._own_fire(view, t.split()[1]):
                return t
        best = None
        for t in texts:
            parts = t.split()
            if parts[0] != "plot" or parts[3] not in ("HE", "ICM"):
                continue
            if any(m.firer == parts[1] and m.written == view.turn for m in view.missions):
                continue                                              # one mission a phase is enough
            value = self._plot_value(view, parts)
            if value > 0 and (best is None or value > best[0]):
                best = (value, t)
        return best[1] if best else "end"

    def _own_fire(self, view, firer: str) -> bool:
        """Assault 19.B.4, 19.C: a mission of ``firer`` would land on a hex the bot's own units now hold (the
        fire attacks every unit in the hex), so it is cancelled."""
        held = {c.hex for c in view.counters if c.side == self.side and not c.dummy and not c.carrier}
        return any(m.firer == firer and m.side == self.side and not m.timetable and m.hex in held
                   for m in view.missions)

    def _plot_value(self, view, parts) -> float:
        """Enemy steps in the target hex (none if a friendly unit is there), sooner and max ROF preferred."""
        h = self.game.map.hex(parts[2])
        enemy = sum(c.steps for c in view.counters if c.hex == h and c.side != self.side and not c.carrier)
        if enemy == 0 or any(c.hex == h and c.side == self.side and not c.dummy for c in view.counters):
            return 0.0
        firer = view._firer(parts[1])
        delay = view._observed_delay(firer, h) or 0
        big = len(parts) > 4
        if big and enemy < 4:
            return 0.0
        return enemy / (1 + delay) + (0.5 if big else 0) + (0.25 if parts[3] == "ICM" else 0)

    def _replace(self, view, texts):
        """Assault 4.C.3: an eliminated HQ comes back at once (its OPs are worth more than a platoon's step)."""
        return next((t for t in texts if t.startswith("replace ")), None)

    def _dismount(self, view, texts):
        """Assault 8.C: set the infantry down before the carrier moves, once the enemy is near or it has arrived."""
        for t in texts:
            if t.startswith("dismount "):
                unit = view._by_id(t.split()[1])
                carrier = view._by_id(unit.carrier)
                if self._near_enemy(view, carrier) or self._goal(view, carrier) is None:
                    return t
        return None

    def _near_enemy(self, view, unit, reach: int = CONTACT) -> bool:
        return any(c.side != self.side and coords.distance(c.hex, unit.hex) <= reach for c in view.counters)

    def _march(self, view, texts):
        """Assault 4.C, 7.C: a unit far from any spotted enemy with a way to go changes to march formation once
        (1 or 2 OPs) and then moves free of OPs, at the march costs."""
        for t in texts:
            if t.endswith(" march") and t.startswith("form "):
                unit = view._by_id(t.split()[1])
                if self._goal(view, unit) is not None and not self._near_enemy(view, unit):
                    return t
        return None

    def _deploy(self, view, texts):
        """A marching unit deploys to combat formation (to fire and take cover) once a spotted enemy is within
        opportunity-fire range (12 hexes, Assault 15.A) or it stands on its objective."""
        for t in texts:
            if t.endswith(" combat") and t.startswith("form "):
                unit = view._by_id(t.split()[1])
                if self._near_enemy(view, unit) or self._goal(view, unit) is None:
                    return t
        return None

    def _cover(self, view, texts):
        """Units that stay take cover (Assault 7.G: better defence and spotting, and only units in cover may
        opportunity fire in the enemy's turn, 15). In the first movement phase cover counts as moving and forbids
        own-turn fire (12.B.4, option c43), so there only units with no target in range take it."""
        for t in texts:
            if not t.startswith("cover "):
                continue
            unit = view._by_id(t.split()[1])
            if view.phase.endswith("move-2") or not self._holds_fire(view, unit):
                return t
        return None

    def _exit(self, view, texts):
        """Assault 24.E: a unit on the side's exit edge leaves for its victory points."""
        return next((t for t in texts if t.startswith("exit ")), None)

    def _rally(self, view, texts):
        """Company rallies first (Assault 17.B: they also rally the company's suppressed units), then units."""
        return next((t for t in texts if t.startswith("rally-company ")), None) or \
            next((t for t in texts if t.startswith("rally ")), None)

    def _fire(self, view, texts):
        shots = [t for t in texts if t.startswith("fire ")]
        if not shots:
            return None
        scored = [(self.shot_value(view, *t.split()[1:4]), t) for t in shots]
        best, text = max(scored)
        return text if best >= MIN_SCORE else None

    # ------------------------------------------------------------------ dummies (Assault 10.F)
    def _dummy(self, view, texts):
        """A found dummy returns (10.F: only before any unit moves) with the unspotted unit nearest the enemy:
        nearest a spotted enemy, else the enemy's edge."""
        hosts = [view._by_id(t.split()[1]) for t in texts if t.startswith("dummy ")]
        if not hosts or self._acted == (view.turn, view.phase):
            return None
        marks = [c.hex for c in view.counters if c.side != self.side] or [self.enemy_edge]
        host = min(hosts, key=lambda c: (min(coords.distance(c.hex, m) for m in marks), c.id))
        return f"dummy {host.id}"

    def _dummy_goal(self, view, unit):
        """A dummy screens: toward the nearest spotted enemy, stopping DUMMY_STANDOFF hexes short, else toward
        the enemy's edge."""
        enemies = [c.hex for c in view.counters if c.side != self.side]
        if not enemies:
            return self.enemy_edge
        near = min(enemies, key=lambda h: coords.distance(unit.hex, h))
        return None if coords.distance(unit.hex, near) <= DUMMY_STANDOFF else near

    # ------------------------------------------------------------------ one order for several units (4.C, 4.D)
    def _group(self, view, texts):
        """The best ``stack`` or ``drill`` order: a formation change every unit of it wants, or a step every
        unit of it gains by; a new one only where it saves OPs (two units or more that need an order, or a
        stack moving free with its HQ, 4.D.1)."""
        best = None
        groups: dict = {}
        for t in texts:
            verb, key, arg = t.split() if t.startswith(("stack ", "drill ")) else (None, None, None)
            if verb is None:
                continue
            if (verb, key) not in groups:
                units, started = self._group_units(view, verb, key)
                groups[verb, key] = units if started or self._group_saves(view, verb, units) else None
            units = groups[verb, key]
            if units is None:
                continue
            if arg in ("march", "combat"):                        # formations first (7.C: before moving)
                value = FORM_FIRST + self._group_form_value(view, units, arg)
            else:
                value = self._group_step_value(view, units, int(arg))
            if value > 0 and value != FORM_FIRST and (best is None or value > best[0]):
                best = (value, t)
        return best[1] if best else None

    def _group_units(self, view, verb: str, key: str):
        """The units one order moves and whether they already move together this phase."""
        if verb == "stack":
            lead = view._by_id(key)
            return view._stack_members(lead), lead.drill.startswith("stack:")
        units = view._drill_groups(self.side).get(key, [])
        return units, any(c.drill == key for c in units)

    def _group_saves(self, view, verb: str, units: list) -> bool:
        """One order instead of one per unit (Assault 4.C); a stack with an HQ pays none (4.D.1)."""
        ordered = sum(1 for c in units if c.formation == "combat" and view._needs_orders(c)
                      and not self.game.card(c.card).body.asterisk)          # 4.D.1: asterisk units pay none
        return ordered >= 2 or (ordered >= 1 and verb == "stack" and view._stack_free(units))

    def _wanted_formation(self, view, unit) -> str:
        """March while the unit has a way to go and no spotted enemy is near (7.C), else combat."""
        return "march" if self._goal(view, unit) is not None and not self._near_enemy(view, unit) else "combat"

    def _group_form_value(self, view, units: list, formation: str) -> float:
        """How many units change to ``formation``; 0 if one of them would rather not."""
        changing = [c for c in units if c.formation != formation]
        if any(self._wanted_formation(view, c) != formation for c in changing):
            return 0.0
        return float(len(changing)) if len(changing) >= 2 or view._stack_free(units) else 0.0

    def _group_step_value(self, view, units: list, d: int) -> float:
        """Ground gained toward their goals when every unit steps in direction ``d``; 0 when one of them would
        not go (holding fire, at its goal, losing ground, exposed as a hunter, or into a crowded hex)."""
        moving = {c.id for c in units}
        arriving: dict = {}
        total = 0.0
        for c in units:
            goal = self._goal(view, c)
            h = coords.neighbour(c.hex, d)
            if goal is None or self._holds_fire(view, c) or (self._hunter(view, c) and
                                                             (self._has_target(view, c) or self._exposed(view, c, h))):
                return 0.0
            gain = coords.distance(c.hex, goal) - coords.distance(h, goal)
            if gain < 0:
                return 0.0
            arriving[h] = arriving.get(h, 0) + c.steps
            total += gain + 0.1 * self._defence(view, c, h)
        for h, steps in arriving.items():
            if self._steps_at(view, h, moving) + steps > max(MAX_STACK_STEPS, steps):
                return 0.0
        return total if total >= 1 else 0.0

    # ------------------------------------------------------------------ entrenchments, facing (Assault 18, 7.F)
    def _entrench(self, view, texts):
        """Personnel and weapons on their goal in an entrenchment hex dig in (18: a better defence row, covered
        for spotting); in the first movement phase only those with nothing to fire at (12.B.4)."""
        for t in texts:
            if t.startswith("entrench "):
                unit = view._by_id(t.split()[1])
                if self._goal(view, unit) is None and not self._holds_fire(view, unit):
                    return t
        return None

    def _face(self, view, texts):
        """An armoured vehicle that has moved turns its front armour (13.B.2) toward the nearest spotted enemy
        when the LOS from it would strike a flank (7.F: 1 MP after its last hex)."""
        faces: dict = {}
        for t in texts:
            if t.startswith("face "):
                _, uid, d = t.split()
                faces.setdefault(uid, set()).add(int(d))
        for uid, options in faces.items():
            unit = view._by_id(uid)
            body = self.game.card(unit.card).body
            enemies = [c for c in view.counters if c.side != self.side]
            if body.armour is None or unit.dummy or not enemies:
                continue
            enemy = min(enemies, key=lambda c: (coords.distance(unit.hex, c.hex), c.id))
            if enemy.hex == unit.hex or view._front(unit, enemy):
                continue
            sides = _hexsides_towards(unit.hex, enemy.hex)
            wanted = sides if unit.formation == "march" else tuple((s - k) % 6 for s in sides for k in (0, 1))
            pick = next((d for d in wanted if d in options), None)
            if pick is not None:
                return f"face {uid} {pick}"
        return None

    # ------------------------------------------------------------------ fire (Assault 13, 14)
    def shot_value(self, view, firer_id: str, ammo: str, target_id: str) -> float:
        """Expected steps lost by the target (suppression counts a fifth of a step)."""
        firer, target = view._by_id(firer_id), view._by_id(target_id)
        row = next(r for r in self.game.card(firer.card).rows if r.ammo == ammo)
        col = fire.range_column(self.game.data, coords.distance(firer.hex, target.hex))
        cell = row.cells[col]
        if ammo in ANTI_ARMOUR:
            return firer.steps * self._anti_armour(view, firer, target, ammo, cell)
        return self._conventional(view, target, cell * firer.steps)

    def _anti_armour(self, view, firer, target, ammo: str, cell) -> float:
        hit, pen = cell
        body = self.game.card(target.card).body
        p_hit = max(0, min(10, hit)) / 10
        armour = body.armour.front if view._front(target, firer) else body.armour.flank
        if not fire.penetrates(pen, armour):
            return 0.2 * p_hit
        kind = body.armour.front_type if view._front(target, firer) else body.armour.flank_type
        need = fire.confirmation_number(self.game.data, ammo, pen, armour, kind)
        p_loss = 1.0 if need is None else max(0, min(10, need)) / 10
        return p_hit * (0.2 + 0.8 * p_loss)

    def _conventional(self, view, target, value: int) -> float:
        body = self.game.card(target.card).body
        row = self.game.data.defence.get(view._terrain(target.hex), {})
        d = max(1, row.get(f"{body.defence_class}_open", 1))
        column = None
        for i, ratio in self.game.crt_columns:
            if value / d >= ratio:
                column = i
        if column is None:
            return 0.0
        weights = {"NE": 0.0, "S": 0.2, "H": 1.0, "E": float(target.steps)}
        if body.defence_class == "afv":
            weights = {"NE": 0.0, "S": 0.2, "H": 0.2, "E": 0.2}      # Assault 14.C: AFVs are only suppressed
        rows = list(self.game.crt.values())
        return sum(weights.get(r[column], 0.0) for r in rows) / len(rows)

    # ------------------------------------------------------------------ movement (Assault 7)
    def _move(self, view, texts):
        moves = [t.split() for t in texts if t.startswith("move ")]
        if not moves:
            return None
        best = None
        for _, uid, label in moves:
            unit = view._by_id(uid)
            if self._holds_fire(view, unit):
                continue
            hunter = self._hunter(view, unit)
            if hunter and self._has_target(view, unit):
                continue                                              # in range: stay and shoot
            goal = self._goal(view, unit)
            if goal is None:
                continue
            h = self.game.map.hex(label)
            gain = coords.distance(unit.hex, goal) - coords.distance(h, goal)
            if gain <= 0 or ((hunter or unit.dummy) and self._exposed(view, unit, h)):
                continue
            if not unit.dummy and self._crowded(view, h):
                continue
            score = gain + 0.1 * self._defence(view, unit, h) + 0.01 * self.rng.random()
            if best is None or score > best[0]:
                best = (score, f"move {uid} {label}")
        return best[1] if best else None

    def _holds_fire(self, view, unit) -> bool:
        """First movement phase: a unit with a spotted enemy in range stays to fire (Assault 12.B.4)."""
        return view.phase.endswith("move-1") and not unit.dummy and self._has_target(view, unit)

    def _has_target(self, view, unit) -> bool:
        if unit.id not in self._target_cache:
            self._target_cache[unit.id] = any(view._targets(unit, row) for row in self.game.card(unit.card).rows
                                              if row.rof >= 1)
        return self._target_cache[unit.id]

    def _goal(self, view, unit):
        """The hex this unit heads for. A side with objectives of its own spreads every unit over the objective
        hexes (HOLDERS per hex; the others close up to SUPPORT_RANGE, and one of them near an objective hex no
        unit of the side holds goes in, so slow holders do not leave it empty, 24.E); a side that only denies the
        enemy's sends one unit per objective hex there and the others hunt: toward the nearest spotted enemy,
        else toward the enemy's edge (its points come from enemy losses)."""
        if unit.dummy:
            return self._dummy_goal(view, unit)
        n = self._rank[unit.id]
        if self.objectives and (self.attacker or n < len(self.objectives)):
            goal = self.objectives[n % len(self.objectives)]
            if n < HOLDERS * len(self.objectives):
                return None if unit.hex == goal else goal
            empty = self._empty_objective(view, unit)
            if empty is not None:
                return empty
            return None if coords.distance(unit.hex, goal) <= SUPPORT_RANGE else goal   # close up, not pile in
        enemies = [c.hex for c in view.counters if c.side != self.side]
        if enemies:
            return min(enemies, key=lambda h: coords.distance(unit.hex, h))
        return self.enemy_edge

    def _empty_objective(self, view, unit):
        """The nearest objective hex within SUPPORT_RANGE of ``unit`` that holds no unit of the side, if the unit
        stands on none itself."""
        if unit.hex in self.objectives:
            return None
        if self._empty is None:
            held = {c.hex for c in self._own}
            self._empty = [h for h in self.objectives if h not in held]
        near = [h for h in self._empty if coords.distance(unit.hex, h) <= SUPPORT_RANGE]
        return min(near, key=lambda h: (coords.distance(unit.hex, h), h)) if near else None

    def _crowded(self, view, h) -> bool:
        """Deep stacks lose defence (Assault 14.A) and raise enemy hit numbers (13.A.3): at most four steps."""
        return self._steps_at(view, h) >= MAX_STACK_STEPS

    def _steps_at(self, view, h, leaving=()) -> int:
        """The side's steps in ``h`` (dummies count for no stacking, 10.F), those of ``leaving`` aside."""
        return sum(c.steps for c in view.counters if c.side == self.side and c.hex == h and not c.dummy
                   and c.id not in leaving)

    def _hunter(self, view, unit) -> bool:
        return not unit.dummy and not self.attacker and self._rank[unit.id] >= len(self.objectives)

    def _exposed(self, view, unit, h) -> bool:
        """Whether entering ``h`` draws opportunity fire (Assault 15): a spotted enemy within 12 hexes sees it,
        and the mover is spotted already or ``h`` is open ground where it is spotted at once (10.E)."""
        enemies = [e for e in view.counters if e.side != self.side and coords.distance(e.hex, h) <= 12]
        if not any(view.has_los(e.hex, h) for e in enemies):
            return False
        if unit.spotted:
            return True
        row = self.game.terrain_spot.get(view._terrain(h), {})
        kind = self.game.card(unit.card).body.spotting_type
        return row.get(f"{kind}_open") == "Auto"

    def _defence(self, view, unit, h) -> int:
        body = self.game.card(unit.card).body
        row = self.game.data.defence.get(view._terrain(h), {})
        return row.get(f"{body.defence_class}_open", 0)
