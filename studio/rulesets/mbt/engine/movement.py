"""Movement (MBT 4.5): speed allowances, terrain, height and hexside costs, turning, road/path rate, reverse, the
one-hex exception, entering and leaving the map, and hexes with opposing vehicles."""
from __future__ import annotations

from studio.hexgrid.coords import neighbour
from studio.model.maps import edge_key
from studio.rules.api import RulesError

from .actions import Action
from .codes import EXITED, MMOVE, MOVE, ON, SH, WAIT

def _edge_towards(g, h, off, edges: set) -> str | None:
    """The map edge a vehicle leaves through when it moves from ``h`` to the off-map hex ``off`` (MBT 4.5.1.1.9):
    the edge of ``h`` on whose side ``off`` lies (a column edge first where both apply), by map offsets."""
    if len(edges) == 1:
        return next(iter(edges))
    (c0, r0), (c1, r1) = g.map.offset(h), g.map.offset(off)
    wanted = ["west" if c1 < c0 else "east" if c1 > c0 else None,
              "north" if r1 < r0 else "south" if r1 > r0 else None]
    for e in wanted:
        if e in edges:
            return e
    return sorted(edges)[0] if edges else None


class MovementRules:
    """Rules of this chapter, mixed into :class:`~.state.MbtState` (they read and write its fields)."""

    __slots__ = ()

    def _movers(self, side: int) -> list[int]:
        """``side``'s vehicles still to move this phase (MBT 4.5: Move and Short Halt commands), in unit order."""
        cmd, moved, st = self.cmd, self.moved, self.st
        return [i for i in self.game.units_of(side) if cmd[i] in (MOVE, SH) and not moved[i] and st[i] in (ON, WAIT)]

    def msa(self, i: int, rate: int) -> int:
        """Speed allowance for this move (MBT 4.5.1.1.1, 3.7): fraction by command, damage and SB; floor, min 1."""
        ut = self.game.units[i].type
        cmd = "short-halt" if self.cmd[i] == SH else "move"
        frac = 1.0
        best = None
        for c, damaged, sb, f in self.game.tables.msa_fraction:
            if c == cmd and damaged == self.dmg[i] and (sb is None or sb == ut.sb):
                if best is None or (sb is not None):
                    best, frac = (c, damaged, sb), f
        return max(1, int(rate * frac))

    def _begin_move(self, i: int) -> None:
        """Start the move of vehicle ``i`` (on the map, or waiting to enter): revealed, cross-country allowance."""
        self.mv_u = i
        self.rev[i] = True
        self.mk[i] = MMOVE  # Spot/Move, even for a No Move move (MBT 4.5.1.1.8)
        self.mv_mode = "xc"
        self.mv_left = self.msa(i, self.game.units[i].type.cc)
        self.mv_spent = False
        self.mv_turned = 0
        self.mv_paid = False
        self.mv_steps = 0
        self.mv_trail = [self.hex[i]] if self.st[i] == ON else []
        self.mv_end = False
        self.mv_exposed = False

    def planning_state(self, i: int):
        """A clone in which vehicle ``i`` is moving (its move started if it had not): for planning a move with
        ``step_cost`` and ``mv_left`` without touching this state (bots)."""
        probe = self.clone()
        if probe.mv_u != i:
            probe._begin_move(i)
        return probe

    def step_cost(self, i: int, a, b, reverse: bool = False) -> int | None:
        """Cost to move vehicle ``i`` from ``a`` into ``b`` in the current mode, or None when prohibited
        (MBT 4.5.1.1.2, 4.5.1.1.5-7). Cross-country, the static part comes from ``xc_static`` (compiled once per
        game and traction); only Brew-Up Smoke is added per state."""
        g = self.game
        if self.mv_mode != "xc":
            return self._road_step_cost(i, a, b, reverse)
        if self.caching:
            key = (g.units[i].type.traction, a, b, reverse)
            static = g.xc_costs.get(key, _UNSEEN)
            if static is _UNSEEN:
                static = g.xc_costs[key] = self.xc_static(i, a, b, reverse)
        else:
            static = self.xc_static(i, a, b, reverse)
        if static is None:
            return None
        return static + (g.tables.bu_move_cost if self.wreck.get(b) == 2 else 0)  # Brew-Up Smoke +1 (4.5.1.1.2)

    def _edge(self, i: int, a, b):
        """``_edge_cost`` of the crossing, cached per game (static data only)."""
        g = self.game
        if not self.caching:
            return self._edge_cost(i, a, b)
        key = (g.units[i].type.traction, a, b)
        edge = g.edge_costs.get(key, _UNSEEN)
        if edge is _UNSEEN:
            edge = g.edge_costs[key] = self._edge_cost(i, a, b)
        return edge

    def _road_step_cost(self, i: int, a, b, reverse: bool) -> int | None:
        """A step at the road/path rate (MBT 4.5.1.1.5): along the road only; a wreck, an enemy or an
        over-stacked hex loses the rate; a height change costs 1 less (table height-change)."""
        g = self.game
        edge = self._edge(i, a, b)
        if edge is None or g.roads.get(edge_key(a, b)) is None:
            return None
        if self.wreck.get(b) or self.enemies_in(b, g.units[i].side) or self.overstacked(b, extra=1):
            return None  # the rate is lost: move cross-country instead (4.5.1.1.5)
        return g.tables.movement["road-hex-reverse" if reverse else "road-hex"] + edge[0][1]

    def xc_static(self, i: int, a, b, reverse: bool = False) -> int | None:
        """The cross-country cost of ``a`` -> ``b`` for vehicle ``i`` without Brew-Up Smoke, or None when
        prohibited: terrain (4.5.1.1.2), height change and hexside, a road or path followed cross-country costs
        1 per hex with the full height cost (4.5.1.1.5), reverse multiplies (4.5.1.1.7, option reverse-cost)."""
        g = self.game
        edge = self._edge(i, a, b)
        if edge is None:
            return None
        hc, side_cost = edge
        mv = g.tables.movement
        if g.roads.get(edge_key(a, b)) is not None:
            base = mv["road-hex"]  # cross-country along a road or path: no elevation bonus (4.5.1.1.5)
        else:
            c = g.cost.get(b, {}).get(g.units[i].type.traction)
            if c is None:
                return None  # prohibited terrain (e.g. heavy woods off the road)
            base = int(c)
        height = hc[0]
        if reverse:
            base *= mv["reverse-multiplier"]  # reverse: the terrain cost (4.5.1.1.7, option reverse-cost)
            if g.options["reverse-cost"] == "all":
                height *= mv["reverse-multiplier"]
                side_cost *= mv["reverse-multiplier"]
        return base + height + side_cost

    def xc_steps(self, i: int) -> dict:
        """Hex -> the six forward steps ``(neighbour, xc_static cost or None)`` of vehicle ``i``'s traction (None
        also off the map): the compiled table a path search reads (once per game and traction)."""
        g = self.game
        tr = g.units[i].type.traction
        table = g.xc_tables.get(tr) if self.caching else None
        if table is None:
            on_map = g.map.label_of
            table = {}
            for h in g.hexes:
                row = []
                for f in range(6):
                    b = neighbour(h, f)
                    row.append((b, self.xc_static(i, h, b) if b in on_map else None))
                table[h] = tuple(row)
            if self.caching:
                g.xc_tables[tr] = table
        return table

    def _edge_cost(self, i: int, a, b) -> tuple | None:
        """The height change row and the hexside cost of crossing from ``a`` to ``b``, or None when the vehicle
        may not cross: height limits (4.5.1.1.2), a cliff (4.1.4.1.5, option ``unmarked-level-change``), a
        prohibited hexside; a bridge on the road costs nothing (4.5.1.1.6)."""
        g = self.game
        tr = g.units[i].type.traction
        key = edge_key(a, b)
        feat = g.features.get(key)
        road = g.roads.get(key)
        dl = abs(g.elev.get(b, 0) - g.elev.get(a, 0))
        hc = g.tables.height_change.get(dl)
        if hc is None or not hc[2].get(tr, False):
            return None
        fid = feat.id if feat is not None else None
        if dl and fid not in ("slope", "crest") and not road and g.options["unmarked-level-change"] == "cliff":
            return None
        if feat is None:
            return hc, 0
        mc = feat.move_cost.get(tr)
        if mc is None:
            return None
        return hc, 0 if fid == "bridge" and road else int(mc)

    def _turn_price(self, i: int) -> int | None:
        """Turning one more hexside here (MBT 4.5.1.1.4): the first free per hex (table movement-rules), the others
        cost the terrain's Turn once."""
        if self.mv_turned < self.game.tables.movement["free-hexsides-per-hex"] or self.mv_paid:
            return 0
        h = self.hex[i]
        c = self.game.turn_cost.get(h)
        if c is None:
            return None
        c = int(c)
        if self.wreck.get(h) == 2 and self.game.options["brew-up-turn-cost"] == "entry-and-turn":
            c += self.game.tables.bu_move_cost
        return c

    def move_options(self, i: int) -> list[Action]:
        """Primitive movement actions of the moving vehicle ``i`` (selected with ``move``)."""
        g = self.game
        name = g.units[i].name
        if self.st[i] == WAIT:
            out = [Action(("done", name))]
            side = g.units[i].side
            enemy = self._enemy_hexes(side)
            for h in g.units[i].entry_hexes:
                if g.cost.get(h, {}).get(g.units[i].type.traction) is not None and h not in enemy:
                    out.append(Action(("enter", name, g.label(h))))
            return out
        out = self._step_options(i)
        if self.mv_steps == 0 and not self.mv_spent and self.mv_mode == "xc" and self.mv_turned == 0 and \
                self._road_ok(i):
            out.append(Action(("road", name)))
        return out

    def _road_left_after(self, road_type: str | None, c: int) -> int:
        """Allowance left after a road/path-rate step: the rate of the type with more hexes on the route, Path on
        a tie (MBT 4.5.1.1.5); negative when the step does not fit."""
        road_msa, path_msa, nroad, npath, used = self.mv_mode
        if road_type == "road":
            nroad += 1
        elif road_type is not None:
            npath += 1
        return (road_msa if nroad > npath else path_msa) - used - c

    def _enemy_hexes(self, side: int) -> set:
        st, hexes = self.st, self.hex
        return {hexes[j] for j in self.game.enemies_of(side) if st[j] == ON}

    def _road_ok(self, i: int) -> bool:
        """Road/path rate: start on a road/path hex facing along it (MBT 4.5.1.1.5)."""
        h = self.hex[i]
        if h not in self.game.road_hexes:
            return False
        f = self.fac[i]
        return edge_key(h, neighbour(h, f)) in self.game.roads

    def _step_options(self, i: int) -> list[Action]:
        """``done``, turns, and one hex forward or in reverse (or off the map) for the moving vehicle ``i``."""
        g = self.game
        name = g.units[i].name
        h = self.hex[i]
        enemy = self._enemy_hexes(g.units[i].side)
        out: list[Action] = [] if h in enemy else [Action(("done", name))]
        out += self._turn_options(i)
        if not self.mv_end:
            for rev in (False, True):
                f = (self.fac[i] + 3) % 6 if rev else self.fac[i]
                b = neighbour(h, f)
                if b not in g.map.label_of:
                    if self._exit_ok(i, rev):
                        out.append(Action(("exit", name, "rev") if rev else ("exit", name)))
                elif self._step_ok(i, h, b, f, rev, enemy):
                    out.append(Action(("rev" if rev else "fwd", name)))
        if not out:
            out.append(Action(("done", name)))  # stuck in a hex with opposing vehicles: see ENGINE_POLICIES
        return out

    def _turn_options(self, i: int) -> list[Action]:
        """One more hexside left or right: 1-3 hexsides per hex, never beyond the allowance (MBT 4.5.1.1.4); at
        the road/path rate only to face along the route (4.5.1.1.5)."""
        g = self.game
        price = self._turn_price(i)
        if price is None or price > self.mv_left or self.mv_turned >= g.tables.movement["max-hexsides-per-hex"]:
            return []
        h, f = self.hex[i], self.fac[i]
        dirs = (-1, 1)
        if self.mv_mode != "xc":
            dirs = tuple(d for d in dirs if edge_key(h, neighbour(h, (f + d) % 6)) in g.roads or
                         edge_key(h, neighbour(h, (f + d + 3) % 6)) in g.roads)
        return [Action(("turn", g.units[i].name, "right" if d == 1 else "left")) for d in dirs]

    def _exit_ok(self, i: int, rev: bool) -> bool:
        """Leaving the map pays the cost of the hex being exited (MBT 4.5.1.1.9)."""
        g = self.game
        mv = g.tables.movement
        if self.mv_mode != "xc":
            c = mv["road-hex-reverse" if rev else "road-hex"]
        else:
            c0 = g.cost.get(self.hex[i], {}).get(g.units[i].type.traction)
            c = (int(c0) if c0 is not None else mv["road-hex"]) * (mv["reverse-multiplier"] if rev else 1)
        return c <= self.mv_left or self._exception_ok()

    def _step_ok(self, i: int, h, b, f: int, rev: bool, enemy: set) -> bool:
        """May vehicle ``i`` enter ``b`` from ``h`` now (cost, hedgerow, road rate, opposing vehicles)?"""
        g = self.game
        c = self.step_cost(i, h, b, rev)
        if c is None:
            return False
        if self._whole_allowance(i, h, b):  # hedgerow (MBT 4.5.1.1.2, option hedgerow-crossing)
            if not (self._exception_ok() or (g.options["hedgerow-crossing"] == "whole-allowance" and
                                             self.mv_left > 0)):
                return False
        elif self.mv_mode != "xc":
            if self._road_left_after(g.roads.get(edge_key(h, b)), c) < 0 and not self._exception_ok():
                return False
        elif c > self.mv_left and not self._exception_ok():
            return False
        return b not in enemy or self._can_pass(i, b, f, max(0, self.mv_left - c), rev)

    def _exception_ok(self) -> bool:
        """The 1-hex move beyond the allowance (MBT 4.5.1.1.3): nothing spent yet."""
        return self.mv_steps == 0 and not self.mv_spent and not self.mv_end

    def _can_pass(self, i: int, b, f: int, left: int, rev: bool) -> bool:
        """Entering a hex with opposing vehicles is only useful if the vehicle can leave it again (4.5.1.1.10)."""
        c = neighbour(b, f)
        if c not in self.game.map.label_of or self.enemies_in(c, self.game.units[i].side):
            return False
        cost = self.step_cost(i, b, c, rev)
        return cost is not None and cost <= left

    def _apply_move(self, i: int, a: Action) -> None:
        """Apply a movement action of vehicle ``i`` (``move`` selects it; one vehicle at a time, MBT 4.5)."""
        verb = a[0]
        if verb == "move" or self.mv_u != i:
            if self.mv_u >= 0:
                raise RulesError("another vehicle is still moving; vehicles move one at a time", "MBT 4.5")
            self._begin_move(i)
            if verb == "move":
                return
        getattr(self, _VERBS[verb])(i, a)

    def _move_done(self, i: int, a: Action) -> None:
        g = self.game
        if self.st[i] == ON and self.enemies_in(self.hex[i], g.units[i].side):
            for back in reversed(self.mv_trail):  # see ENGINE_POLICIES "stuck" (MBT 4.5.1.1.10)
                if not self.enemies_in(back, g.units[i].side):
                    self.hex[i] = back
                    break
        self.moved[i] = True
        self.mv_u = -1
        if self.st[i] == ON and not self.mv_exposed:
            self._after_step(i)  # a No Move move is still subject to Overwatch Fire (MBT 4.5.1.1.8)

    def _move_road(self, i: int, a: Action) -> None:
        """Road/path rate (MBT 4.5.1.1.5); in limited visibility a fraction of the factors (MBT 7.36.2)."""
        g = self.game
        ut = g.units[i].type
        frac = g.tables.light[g.turn_light.get(self.turn, "day")][1]
        self.mv_mode = (self.msa(i, int(ut.road * frac)), self.msa(i, int(ut.path * frac)), 0, 0, 0)
        self.mv_left = self._road_left_after(None, 0)

    def _move_enter(self, i: int, a: Action) -> None:
        """Enter from off the map into an entry hex, paying its cost (ENGINE_POLICIES "entry", MBT 4.5.1.1.9)."""
        g = self.game
        h = g.map.hex(a[2])
        self.st[i] = ON
        self.hex[i] = h
        self.fac[i] = g.units[i].entry_facing
        self._spend(int(g.cost[h][g.units[i].type.traction]))
        self.mv_steps = 1
        self.mv_trail = [h]
        self.mv_turned = 0
        self.mv_paid = False
        self._after_step(i)

    def _move_turn(self, i: int, a: Action) -> None:
        price = self._turn_price(i) or 0
        self.fac[i] = (self.fac[i] + (1 if a[2] == "right" else -1)) % 6
        self.mv_turned += 1
        if price:
            self.mv_paid = True
            self.mv_spent = True
            if self.mv_mode != "xc":
                r, p_, nr, np_, used = self.mv_mode
                self.mv_mode = (r, p_, nr, np_, used + price)
                self.mv_left = self._road_left_after(None, 0)
            else:
                self.mv_left -= price
        self._after_step(i)

    def _move_exit(self, i: int, a: Action) -> None:
        """Leave the map: out of the scenario, not eliminated (MBT 4.5.1.1.9)."""
        g = self.game
        rev = len(a) > 2
        h = self.hex[i]
        f = (self.fac[i] + 3) % 6 if rev else self.fac[i]
        edge = _edge_towards(g, h, neighbour(h, f), g.edges.get(h, set()))
        self.st[i] = EXITED
        self.exits.append((i, edge))
        self.moved[i] = True
        self.mv_u = -1

    def _move_step(self, i: int, a: Action) -> None:
        """One hex forward (``fwd``) or in reverse (``rev``, MBT 4.5.1.1.7)."""
        g = self.game
        rev = a[0] == "rev"
        h = self.hex[i]
        f = (self.fac[i] + 3) % 6 if rev else self.fac[i]
        b = neighbour(h, f)
        c = self.step_cost(i, h, b, rev) or 0
        whole = self._whole_allowance(i, h, b)
        if self.mv_mode != "xc":
            rtype = g.roads.get(edge_key(h, b))
            exception = self._road_left_after(rtype, c) < 0 or whole
            r, p_, nr, np_, used = self.mv_mode
            self.mv_mode = (r, p_, nr + (rtype == "road"), np_ + (rtype != "road"), used + c)
            self.mv_left = max(0, self._road_left_after(None, 0))
            self.mv_spent = self.mv_spent or c > 0
        else:
            exception = c > self.mv_left or whole
            self._spend(c)
        self.hex[i] = b
        self.mv_steps += 1
        self.mv_trail.append(b)
        self.mv_turned = 0
        self.mv_paid = False
        if exception:
            self.mv_left = 0
            self.mv_end = True
        self._after_step(i)

    def _whole_allowance(self, i: int, a, b) -> bool:
        """A tracked vehicle crossing a hedgerow spends its entire allowance (MBT 4.5.1.1.2)."""
        feat = self.game.features.get(edge_key(a, b))
        return feat is not None and feat.id == "hedgerow" and self.game.units[i].type.traction == "t"

    def _spend(self, c: int) -> None:
        if c > 0:
            self.mv_spent = True
        self.mv_left = max(0, self.mv_left - c)

    def _after_step(self, i: int) -> None:
        """Overwatch may interrupt after every hex entered or turn made (MBT 4.5, 4.4.2)."""
        self.mv_exposed = True
        self._open_ow(1 - self.game.units[i].side, [i], "move")


_UNSEEN = object()
_VERBS = {"done": "_move_done", "road": "_move_road", "enter": "_move_enter", "turn": "_move_turn",
          "exit": "_move_exit", "fwd": "_move_step", "rev": "_move_step"}
