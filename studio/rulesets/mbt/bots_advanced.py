"""The MBT Advanced Game heuristic bot: the Basic Game heuristic bot (``bots.HeuristicBot``) on the Advanced rules.

It sees only its observation and plays through the legal actions. On top of the Basic bot it
- values shots with the Advanced fire model (``ag_expected_kill``): the Advanced hit number (grade, sight, ATGM
  and suppression modifiers), the number of hits by Rate of Fire, the armor at the hit angle and shot elevation
  (CE armor against CE ammo) against the AP/ATGM penetration, and GP fire by its chance of an Effective or
  Suppressed result on the GP Combat Results Table, so it fires ATGMs at range where guns fall short;
- spends its formation's Available Commands on the units that can shoot or must move first (MBT 6.2.1): a unit
  that can neither shoot nor reach anything this turn takes N/C when commands run short;
- close assaults vehicles and fights hand-to-hand when the defender is no stronger or holds its objective;
- carries its infantry forward and dismounts it near its goal or when enemies are close (MBT 6.6.7), and mounts
  leg units that are still far from their goal in the hex of a friendly carrier.
"""
from __future__ import annotations

from studio.hexgrid.coords import distance

from . import bot_groups as groups
from .bots import HeuristicBot, threat as threat_of
from .engine.codes import CMD_CODES as CODES
from .engine.ag_fire import hit_angle

#: the weight of a Suppressed result against a kill (it halves movement and costs the shooter -5 AP, -20 GP)
SUPPRESS_VALUE = 0.25


def ag_expected_kill(state, s: int, t: int, row, overwatch: bool) -> float:
    """Expected kill of a shot in the Advanced Game (1.0 = a sure KO)."""
    if row.kind == "GP":
        return _gp_value(state, s, t, row, overwatch)
    net, band = state.hit_modifiers(s, t, row, overwatch)
    if band is None:
        return 0.0
    number = state.game.tables.ap_hit.get((net, band), 0)
    if number <= 0:
        return 0.0
    hits = sum(state.number_of_hits(number, row.rof, r) for r in range(1, number + 1)) / 100.0
    angle = hit_angle(state.hex[t], state.fac[t], state.hex[s])
    elev = state.shot_elevation(s, t)
    pen = row.atgm.penetration if row.kind == "ATGM" else state.penetration(row, band)
    locs = ("TF", "HF") if angle in ("front", "rear") else ("TF", "HS")
    through = 0.0
    for loc in locs:
        armor = state.armor_at(t, angle, elev, loc)
        spec = state.game.units[t].type.ag.special.get(loc)
        if spec and spec[0] and row.energy == "CE":
            armor = int(armor * spec[0])
        if pen >= armor:
            through += 0.5
    return min(1.0, hits * through * 0.7)


def _gp_value(state, s: int, t: int, row, overwatch: bool) -> float:
    g = state.game
    band, factor = state.gp_factor(row, distance(state.hex[s], state.hex[t]))
    if band is None:
        return 0.0
    fmax, dmax = g.ag.gp_max
    defense = max(1, min(dmax, g.units[t].type.ag.gp_value))
    n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, factor)), defense)]
    net = state.gp_modifiers(s, t, row, band, overwatch)
    p_eff = max(0, min(100, 100 + net - s_eff)) / 100.0
    p_sup = max(0, min(100, 100 + net - n_eff)) / 100.0 - p_eff
    if state.sup[t]:
        p_sup = 0.0
    leg = g.units[t].type.ag.leg
    e_only_suppresses = not leg and (row.small_arms or (g.units[t].type.ag.target_type in ("A", "P") and
                                                         row.gpe < defense))
    kill = 0.0 if e_only_suppresses else p_eff * 0.8
    return kill + SUPPRESS_VALUE * (p_sup + (p_eff if e_only_suppresses else 0.0))


#: a carrier dismounts its passengers within this many hexes of its goal or of a spotted enemy
DISMOUNT_GOAL, DISMOUNT_ENEMY = 3, 3
#: a leg unit mounts when its goal is farther than this and no enemy is near
MOUNT_GOAL = 6
#: a unit this close to an objective hex of its side that no enemy holds moves in
CLOSE_IN = 12
#: shots at units on the bot's own objective hexes are worth this much more (they deny the objective)
OBJECTIVE_WEIGHT = 6.0


class AdvancedHeuristicBot(HeuristicBot):
    """The heuristic bot with the Advanced Game fire model (see the module docstring)."""

    name = "heuristic"

    def choose(self, view, legal):
        if view.phase_id().startswith("air"):
            from .engine.air_bot import air_choice  # fixed-wing sorties, AA fire at aircraft, landing (MBT 6.7)
            from .engine.state import LazyView

            pick = air_choice(self, view.materialize() if isinstance(view, LazyView) else view, legal)
            if pick is not None:
                return pick
        if legal[0][0] == "fly" or (legal[-1][0] == "hold" and view.phase_id().startswith("air")):
            from .engine.state import LazyView

            state = view.materialize() if isinstance(view, LazyView) else view
            if legal[0][0] == "fly":
                return self._fly(state, legal)
            best, _ = self._best_shot(state, legal, "fire", False, 0.0)
            popup = next((a for a in legal if a[0] == "popup"), None)  # MBT 6.7.5.1.2: pop up when hidden
            return best or popup or legal[-1]
        if any(a[0] in ("hide", "fake") for a in legal):  # hidden units: hide in cover, fakes close in (MBT 7.2)
            from .engine.hidden import hidden_choice
            from .engine.state import LazyView

            pick, legal = hidden_choice(view.materialize() if isinstance(view, LazyView) else view, legal)
            if pick is not None:
                return pick
        if legal[0][0] == "formation":  # staggered initiative (MBT 7.5.1): the formation with the most shots
            from .engine.opt_stagger import formation_choice
            from .engine.state import LazyView

            return formation_choice(view.materialize() if isinstance(view, LazyView) else view, legal)
        if legal[0][0] == "cover":  # the Adjust Full Cover Step (MBT 6.8.3): adv_move_bot
            from .adv_move_bot import cover_choice
            from .engine.state import LazyView

            return cover_choice(self, view.materialize() if isinstance(view, LazyView) else view, legal)
        if legal[0][0] == "assault":
            from .engine.state import LazyView

            state = view.materialize() if isinstance(view, LazyView) else view
            return self._assault(state, legal)
        if legal[0][0] in ("continue", "adjust", "check", "planned"):
            from .engine.state import LazyView

            state = view.materialize() if isinstance(view, LazyView) else view
            return self._running_fire(state, legal)
        if legal[0][0] in ("call", "pass") and any(a[0] == "call" for a in legal):
            from .engine.state import LazyView

            state = view.materialize() if isinstance(view, LazyView) else view
            return self._call(state, legal)
        transfer = [a for a in legal if a[0] in ("dismount", "mount")]
        if transfer:
            from .engine.state import LazyView

            state = view.materialize() if isinstance(view, LazyView) else view
            pick = self._transfer(state, transfer)
            if pick is not None:
                self.plan = []
                return pick
            legal = [a for a in legal if a[0] not in ("dismount", "mount")] or legal
        return super().choose(view, legal)

    def _call(self, state, legal):
        """Call fire on the target hex with the most enemy units and no friendly unit in the SHEAF (the hex for an
        on-map unit, and its neighbours for an off-map battery); else pass."""
        g = self.game
        best, score = None, 0.0
        for a in legal:
            if a[0] != "call":
                continue
            h = g.map.hex(a[3])
            radius = 1 if a[1] in g.battery_index else 0
            if any(g.units[k].side == self.side and state.st[k] in (1, 4) and state.hex[k] is not None and
                   distance(state.hex[k], h) <= radius for k in range(g.n)):
                continue
            value = sum(threat_of(g, k) for k in range(g.n) if g.units[k].side != self.side and
                        state.st[k] == 1 and state.hex[k] == h)
            if value > score:
                best, score = a, value
        return best or next(a for a in legal if a[0] == "pass")

    def _running_fire(self, state, legal):
        """Announce Planned fire; continue a running mission unless a friendly unit is within 2 hexes of its Target
        Point (then check it) (MBT 6.5.1.8-6.5.1.11)."""
        planned = next((a for a in legal if a[0] == "planned"), None)
        if planned is not None:
            return planned
        g = self.game
        verb, name = legal[0][0], legal[0][1]
        m = state.mission_of(g.uindex[name]) if verb in ("continue", "adjust", "check") else None
        near = m is not None and any(g.units[k].side == self.side and state.st[k] == 1 and
                                     distance(state.hex[k], m.tp) <= 2 for k in range(g.n))
        keep = next((a for a in legal if a[0] == "continue" and a[1] == name), None)
        return (None if near else keep) or next(a for a in legal if a[0] == "check" and a[1] == name)

    def _fly(self, state, legal):
        """The first helicopter to act flies to the reachable hex (a sample) with the most enemy units in LOS at
        6-12 hexes (ATGM and rocket range, beyond most guns), else toward 9 hexes from the nearest (MBT 6.7.5)."""
        g = self.game
        name = legal[0][1]
        mine = [a for a in legal if a[1] == name]
        i = g.uindex[name]
        enemies = [state.hex[t] for t in g.enemies_of(self.side) if state.st[t] == 1 and
                   not g.units[t].type.ag.heli]
        if not enemies:
            return next((a for a in mine if g.map.hex(a[2]) == state.hex[i]), mine[0])
        step = max(1, len(mine) // 40)
        best, score = None, -1.0
        for a in mine[::step]:
            h = g.map.hex(a[2])
            seen = sum(1 for e in enemies if 6 <= distance(h, e) <= 12 and g.los.clear(h, e))
            value = 10 * seen - 0.1 * abs(min(distance(h, e) for e in enemies) - 9)
            if value > score:
                best, score = a, value
        return best

    def _assault(self, state, legal):
        """Close assault any vehicle; fight hand-to-hand when the defender is no stronger, or holds an objective
        of this side (MBT 6.6.1)."""
        g = self.game
        size = {"squad": 2, "half": 1, "section": 0}
        objectives = {h for h, _ in self.own_obj}
        for a in legal:
            if a[0] != "assault":
                continue
            i, t = g.uindex[a[1]], g.uindex[a[2]]
            if not g.units[t].type.ag.leg:
                return a
            if state.hex[t] in objectives or state.sup[t] or size[state.leg_size(t)] <= size[state.leg_size(i)]:
                return a
        return next(a for a in legal if a[0] == "pass")

    def _enemy_near(self, state, h, rng: int) -> bool:
        g = self.game
        return any(g.units[k].side != self.side and state.st[k] == 1 and distance(h, state.hex[k]) <= rng
                   for k in range(g.n))

    def _transfer(self, state, actions):
        """Dismount near the goal or the enemy; mount when the goal is far and the enemy is not near."""
        g = self.game
        for a in actions:
            i = g.uindex[a[1]]
            h = state.hex[i]
            goal = self.objective(state, i)
            if a[0] == "dismount":
                if distance(h, goal) <= DISMOUNT_GOAL or self._enemy_near(state, h, DISMOUNT_ENEMY):
                    return a
            elif distance(h, goal) > MOUNT_GOAL and not self._enemy_near(state, h, DISMOUNT_ENEMY):
                return a
        return None

    def goal(self, state, i: int):
        """The Basic goal, for the formation and its shared commands (``bot_groups.group_goal``, MBT 6.2.1.1.4)."""
        return groups.group_goal(self, state, i, lambda j: HeuristicBot.goal(self, state, j))

    def objective(self, state, i: int):
        """The goal of ``i``'s formation, whatever its stack does this turn (``bot_groups.formation_goal``)."""
        return groups.formation_goal(self, state, i, lambda j: HeuristicBot.goal(self, state, j))

    def move(self, state, legal):
        """The Basic macro move, along the road when that is faster (``bot_groups.road_walk``);
        of the units still to move, sharers in the order ``bot_groups.mover_key``."""
        if state.mv_u < 0 and not self.plan and len(legal) > 1 and all(a[0] == "move" for a in legal):
            g = self.game
            return min(legal, key=lambda a: groups.mover_key(state, g.uindex[a[1]]))
        if state.mv_u >= 0 and not self.plan:
            from .adv_move_bot import crawl_choice  # MBT 6.6.4.3

            pick = crawl_choice(self, state, legal)
            if pick is not None:
                return pick
            name = self.game.units[state.mv_u].name
            if state.st[state.mv_u] == 0:  # off the map: the entry hex nearest the goal in time, roads counted
                pick = groups.entry_choice(self, state, state.mv_u, self.goal(state, state.mv_u), legal)
                if pick is not None:
                    return pick
            if ("road", name) in legal:  # the road/path rate when it gets nearer the goal (MBT 4.5.1.1.5)
                plan = groups.road_walk(self, state, state.mv_u, self.goal(state, state.mv_u))
                if plan:
                    self.plan = plan[1:]
                    return plan[0]
            elif state.mv_mode == "xc" and state.st[state.mv_u] == 1:  # e.g. just entered: along the road
                stop = groups.road_waypoint(self.game, state.mv_u, state.hex[state.mv_u],
                                            self.goal(state, state.mv_u))
                if stop is not None:
                    from .bots import macro_move

                    self.plan = macro_move(state, state.mv_u, stop, self)
        if state.mv_u >= 0:
            return groups.finish_on_road(self, state, state.mv_u, super().move(state, legal), legal)
        return super().move(state, legal)

    def shot_value(self, state, s: int, t: int, row, overwatch: bool) -> float:
        """Expected kill x threat; a unit holding one of this side's objective hexes counts triple."""
        from .bots import threat

        value = ag_expected_kill(state, s, t, row, overwatch) * threat(self.game, t)
        if any(state.hex[t] == h for h, _ in self.own_obj):
            value *= OBJECTIVE_WEIGHT
        return value

    def command(self, view, state, legal):
        """Mortars FIRE, observers OW, units close to an objective of their side move in (``_advance``); else
        the Basic choice, Move rather than Short Halt without a shot worth firing, and a unit that has no shot
        taking N/C rather than OW when commands run short."""
        g = self.game
        i = g.uindex[legal[0][1]]
        opts = {a[2]: a for a in legal}
        from .adv_move_bot import dig_command  # Hasty Entrenchments (MBT 6.6.8)

        pick = self._role_command(i, opts) or self._towed_command(state, i, opts) or dig_command(self, state, i, opts) \
            or (self._advance(state, i, opts) if state.st[i] == 1 else None)
        if pick is not None:
            return pick
        choice = super().command(view, state, legal)
        if choice[2] == "SH" and "MOVE" in opts and not self.worth_firing(state, i):
            # no shot worth a Short Halt (half the allowance, MBT 4.2.1): full speed, as a formation has few
            # Available Commands to spend on getting there (MBT 6.2.1)
            choice = opts["MOVE"]
        f = g.formation_of[i]
        entering = groups.entry_priority(state, i) > 0  # due to enter its stack formation (bot_groups)
        if choice[2] == "NC" or (state.st[i] != 1 and not entering) or state.budget[f] != 1 or \
                state.share_group(i, CODES[choice[2]]) >= 0:
            return choice
        later = [j for j in range(i + 1, g.n) if g.formation_of[j] == f and not state.cmd[j] and
                 (state.st[j] == 1 or groups.entry_priority(state, j) > 0)]
        mates = groups.hex_mates(state, i, later)  # a stack shares the command (MBT 6.2.1.1.2): its value counts
        others = [j for j in later if j not in mates]
        mine = self._priority(state, i) + sum(self._priority(state, j) for j in mates)
        if others and max(self._priority(state, j) for j in others) > mine:
            return opts.get("NC", choice)  # keep the formation's last command for a unit that needs it more
        return choice

    def _priority(self, state, i: int) -> float:
        """How much unit ``i`` needs a unique command: its best shot, its passengers, its nearness to its goal; a
        unit due to enter its stack formation's assembly hex first (``bot_groups.entry_priority``)."""
        if state.st[i] != 1:
            return groups.entry_priority(state, i)
        shots = [self.shot_value(state, i, t, row, False) for t, row in state.fire_options(i, state.spots[i])]
        carried = 1.0 if any(c == i for c in state.carrier) else 0.0
        return max(shots, default=0.0) + carried + 1.0 / (1 + distance(state.hex[i], self.goal(state, i)))

    def _role_command(self, i: int, opts: dict):
        """On-map mortars stay back and fire indirect (MBT 6.5.1); forward observers observe (6.5.1.1)."""
        ag = self.game.units[i].type.ag
        if ag.if_rows and "FIRE" in opts:
            return opts["FIRE"]
        if "fo" in ag.labels and "OW" in opts:
            return opts["OW"]
        if "OW" in opts and self._air_threat() and any(r.aa for r in self.game.units[i].type.ap):
            return opts["OW"]  # AA units watch for enemy aircraft (MBT 6.7.8: AA fire needs Overwatch)
        return None

    def _towed_command(self, state, i: int, opts: dict):
        """A dismounted towed gun holds its ground: it fires, else overwatches (it manhandles only one hex a turn,
        MBT 6.6.5, and its ammo is unlimited only beside its ammo dump or carrier, 5.16.2.3)."""
        if state.st[i] != 1 or not state.is_towed(i):
            return None
        return opts.get("FIRE") or opts.get("OW") or opts.get("NC")

    def _air_threat(self) -> bool:
        """Does the enemy have fixed-wing aircraft or helicopters?"""
        g = self.game
        return any(a.side != self.side for a in g.aircraft) or \
            any(g.units[j].type.ag.heli for j in g.enemies_of(self.side))

    def _advance(self, state, i: int, opts: dict):
        """Close in on an objective hex of this side within ``CLOSE_IN``: infantry with Move (so it can
        assault, MBT 6.6.1), vehicles with Short Halt or Move while no enemy holds the hex."""
        goal = self.goal(state, i)
        if goal not in {h for h, _ in self.own_obj} or state.control.get(goal) == self.side:
            return None
        gd = distance(state.hex[i], goal)
        if not 0 < gd <= CLOSE_IN:
            return None
        if self.game.units[i].type.ag.leg:
            return opts.get("MOVE")
        if state.enemies_in(goal, self.side):
            return opts.get("SH")  # close in while shooting at the holders
        return opts.get("SH", opts.get("MOVE"))
