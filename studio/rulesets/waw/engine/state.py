"""World at War game state: the sequence of play, movement, combat and victory.

Sequence (WaW 3.0): each turn the cup holds the formation markers (1 or 2 per formation), the End Turn markers
and any Chaos! marker. Markers are drawn at random (seeded); a formation marker gives its owner the choice to
activate the formation or set it aside (``skip``, digest C13). The second End Turn marker, or an empty supply of
formation markers, ends the Operations Phase (3.1); the Marker Removal Phase (3.2) follows, with 3.2.1 holding an
End Turn marker out of the next cup for a side whose formations were not all activated.

A formation impulse (4.0) runs housekeeping (4.1: its Ops Complete and OOC markers go), command (4.2: one check
per hex), rally (4.3) automatically, then the owner acts unit by unit until ``end``. Every hex a unit enters
opens an Opportunity Fire window (6.2) for the other side when some unit of it could fire at the mover.

Choices the rules give to a player but that this engine makes automatically (documented in COVERAGE.md): the
defender's retreat hex, the opponent's drift hex for artillery, the HQ restore hex, and the targets of Chaos
results; Hit distribution remainders are random as the rules say.
"""
from __future__ import annotations

import random

from studio.rules.api import TERMINAL, LogEntry, Outcome, RulesError, State
from studio.rules.dice import Dice
from studio.hexgrid.coords import distance

from .actions import Action

INF = 99.0


class WawState(State):
    __slots__ = ("game", "dice", "turn", "cup", "et_drawn", "held", "held_marker", "activated", "pending",
                 "hex", "strength", "disr", "oc", "ooc", "mp_used", "mp_cap", "mfired", "depleted", "carrier",
                 "hover", "mode_changed", "heli_moves", "acted", "breakdown", "fresh", "locked", "one_hex",
                 "lead_used", "calls", "missions", "wrecks", "smoke", "control", "lost", "thor", "comms",
                 "impulse_first", "overrun_done", "log", "steps", "entered_f", "reason", "mines", "_occ",
                 "chem", "jammed", "hallowed", "air_out", "air_back", "hand", "xleaders", "berserk",
                 "sw_placed", "sw_lost", "inf_lost", "snipers", "cover", "drill", "misc", "ip")

    # ------------------------------------------------------------------ construction
    @classmethod
    def initial(cls, game, seed: int) -> "WawState":
        s = cls.__new__(cls)
        s.game = game
        s.dice = Dice(seed)
        n = len(game.units)
        s.turn = 1
        s.cup = []
        s.et_drawn = 0
        s.held = [set() for _ in game.sides]
        s.held_marker = [0 for _ in game.sides]
        s.activated = set()
        s.pending = ("none",)
        s.hex = list(game.start_hex)
        s.strength = [0] * n
        s.disr = [False] * n
        for i in game.start_disrupted:
            s.disr[i] = True
        s.oc = [False] * n
        s.ooc = [False] * n
        s.mp_used = [0.0] * n
        s.mp_cap = [None] * n
        s.mfired = [False] * n
        s.depleted = [0] * n
        s.carrier = [-1] * n
        for p, c, d in game.passengers:
            s.carrier[p] = c
            s.hex[p] = s.hex[c]
            if d:
                s.disr[p] = True
        s.hover = [False] * n
        s.mode_changed = [False] * n
        s.heli_moves = [0] * n
        s.acted = [False] * n
        s.breakdown = [0] * n
        s.fresh = [False] * n
        s.locked = [False] * n
        s.one_hex = [False] * n
        s.lead_used = set()
        s.calls = {}
        s.missions = [a.missions for a in game.assets]
        s.wrecks = set(game.start_wrecks)
        s.smoke = {}
        s.mines = set(game.mines)
        s.control = dict(game.initial_control)
        s.lost = [0 for _ in game.sides]
        s.thor = 0
        s.comms = False
        s.impulse_first = True
        s.overrun_done = set()
        s.log = []
        s.steps = 0
        s.entered_f = set(f for f in range(len(game.formations)) if f not in game.entry)
        s.reason = ""
        s._occ = None
        s.chem = set()
        s.jammed = {}
        s.hallowed = set()
        s.air_out = set()
        s.air_back = set()
        s.hand = set()
        s.xleaders = {}
        s.berserk = {}
        s.sw_placed = set()
        s.sw_lost = set()
        s.inf_lost = [0 for _ in game.sides]
        s.snipers = [[h, host, 0, 0, card.side] for card, host, h in game.snipers]   # hex, host, oc/removed, shots
        s.cover = set()
        s.drill = None
        s.misc = None
        s.ip = set(game.ip)                    # 12.1 Improved Positions (scenario set-up or a position)
        s._new_cup()
        s._advance()
        return s

    def clone(self) -> "WawState":
        s = WawState.__new__(WawState)
        s.game = self.game
        s.dice = self.dice.clone()
        s.turn, s.et_drawn, s.pending, s.thor, s.comms = self.turn, self.et_drawn, self.pending, self.thor, self.comms
        s.cup = list(self.cup)
        s.held = [set(x) for x in self.held]
        s.held_marker = list(self.held_marker)
        s.activated = set(self.activated)
        for name in ("hex", "strength", "disr", "oc", "ooc", "mp_used", "mp_cap", "mfired", "depleted", "carrier",
                     "hover", "mode_changed", "heli_moves", "acted", "breakdown", "fresh", "locked", "one_hex",
                     "missions", "lost"):
            setattr(s, name, list(getattr(self, name)))
        s.lead_used = set(self.lead_used)
        s.calls = dict(self.calls)
        s.wrecks = set(self.wrecks)
        s.smoke = dict(self.smoke)
        s.mines = set(self.mines)
        s.control = dict(self.control)
        s.impulse_first = self.impulse_first
        s.overrun_done = set(self.overrun_done)
        s.log = list(self.log)
        s.steps = self.steps
        s.entered_f = set(self.entered_f)
        s.reason = self.reason
        s._occ = None
        s.chem = set(self.chem)
        s.jammed = dict(self.jammed)
        s.hallowed = set(self.hallowed)
        s.air_out = set(self.air_out)
        s.air_back = set(self.air_back)
        s.hand = set(self.hand)
        s.xleaders = dict(self.xleaders)
        s.berserk = dict(self.berserk)
        s.sw_placed = set(self.sw_placed)
        s.sw_lost = set(self.sw_lost)
        s.inf_lost = list(self.inf_lost)
        s.snipers = [list(x) for x in self.snipers]
        s.cover = set(self.cover)
        s.drill = self.drill
        s.misc = self.misc
        s.ip = set(self.ip)
        return s

    #: slots fingerprint() leaves out on purpose (the conformance check perturbs every other one)
    DERIVED_SLOTS = {"_occ": "occupancy cache, rebuilt from hex/strength while legal actions are listed",
                     "log": "the record of what happened, not what happens next",
                     "steps": "count of actions applied (numbering for logs)"}

    #: pending kind -> PhaseSpec id of ``Game.phases``
    PHASE_OF = {"none": "operations", "decide": "operations", "strike": "operations", "ops": "impulse",
                "opfire": "opfire", "popup": "opfire", "terminal": "marker_removal"}

    # ------------------------------------------------------------------ API
    def phase_id(self) -> str:
        """The current PhaseSpec id (WaW 3.1 Operations Phase, 4.0 impulse, 6.2 Opportunity Fire, 3.2 MRP)."""
        return self.PHASE_OF[self.pending[0]]

    def observation(self, player: int) -> "WawState":
        """What ``player`` sees: every unit and marker is open in World at War (no hidden units or commands);
        only the dice are private, so the view shares the state's fields read-only and carries fresh dice seeded
        from the visible position (never the real dice, so neither the view nor its clone predicts a roll)."""
        view = WawState.__new__(WawState)
        for name in self.__slots__:
            setattr(view, name, getattr(self, name))
        view._occ = None
        view.dice = Dice.seeded_from(f"{self.turn}|{self.steps}|{self.pending}|{len(self.cup)}", record=False)
        return view

    def scramble_hidden(self, player: int, seed: int) -> "WawState":
        """A clone whose hidden parts (the dice: seed and forced rolls) are randomized."""
        rng = random.Random(seed)
        other = self.clone()
        other.dice = Dice(rng.randrange(1 << 30))
        other.dice.force(*[rng.randint(1, 6) for _ in range(rng.randrange(4))])
        return other

    def current_player(self) -> int:
        p = self.pending
        if p[0] == "terminal":
            return TERMINAL
        if p[0] in ("opfire", "popup"):
            return 1 - self.game.units[p[1]].side
        if p[0] == "strike":
            return self.game.airstrikes[p[1]][1]
        return self.game.formations[p[1]].side

    def is_terminal(self) -> bool:
        return self.pending[0] == "terminal"

    def legal_actions(self) -> list[Action]:
        p = self.pending
        if p[0] == "terminal":
            return []
        g = self.game
        if p[0] == "decide":
            f = g.formations[p[1]]
            if f.markers >= 2 and not g.option("c34_two_markers_skip"):
                return [Action("activate", f.id)]     # 4.0 read strictly: both activations are carried out
            return [Action("activate", f.id), Action("skip", f.id)]
        if p[0] == "strike":
            a, side = g.airstrikes[p[1]]
            hexes = sorted({self.hex[e] for e in self._alive(1 - side) if not g.units[e].is_hq
                            and not g.units[e].is_heli and self.carrier[e] < 0})
            return [Action("strike", a.id, g.label[h]) for h in hexes] or [Action("strike", a.id, "none")]
        self._occ = self._occupancy()
        try:
            if p[0] in ("opfire", "popup"):
                mover = p[1]
                out = [Action("pass")]
                for u in self._alive(1 - g.units[mover].side):
                    if self._can_opfire(u):
                        for fp in self._fire_types(u, mover, "opfire"):
                            out.append(Action("opfire", g.units[u].uid, g.units[mover].uid, fp))
                return out
            return self._ops_actions(p[1])
        finally:
            self._occ = None

    def _occupancy(self) -> dict:
        occ: dict = {}
        hx, st = self.hex, self.strength
        for i in range(len(hx)):
            if st[i] < 2 and hx[i] is not None:
                occ.setdefault(hx[i], []).append(i)
        return occ

    def apply(self, action: Action) -> None:
        mark = len(self.dice.history)
        pending = self.pending
        player = self.current_player()
        k = action.kind
        g = self.game
        if k == "activate":
            self._activate(pending[1])
        elif k == "skip":
            if g.option("c13_skip_marker") == "back_to_cup" and any(m[0] == "E" for m in self.cup):
                self.cup.append(("F", pending[1]))     # 3.1 (option c13): the marker may be drawn again
            self.pending = ("none",)
        elif k == "end":
            self._end_impulse(pending[1])
        elif k == "move":
            self._move(g.by_uid[action.a], g.map.hex_of[action.b])
        elif k == "fire":
            u = g.by_uid[action.a]
            mode = "moving" if self.mp_used[u] > 0 and not g.units[u].is_heli else "normal"
            self._fire(u, g.by_uid[action.b], action.c, mode)
            self._after_act(u)
        elif k == "popup":
            u, t = g.by_uid[action.a], g.by_uid[action.b]
            self.pending = ("popup", u, t, action.c, pending[1])
            if not any(self._can_opfire(e) and self._fire_types(e, u, "opfire") for e in self._alive(1 - g.units[u].side)):
                self._popup_resolve(None)
        elif k in ("opfire", "pass") and pending[0] == "popup":
            self._popup_resolve((g.by_uid[action.a], action.c) if k == "opfire" else None)
        elif k == "opfire":
            u, t = g.by_uid[action.a], g.by_uid[action.b]
            before = (self.disr[t], self.strength[t])
            self._fire(u, t, action.c, "opfire")
            if (self.disr[t], self.strength[t]) != before:
                self.mp_used[t] = INF          # a unit that becomes Disrupted or Reduced must stop (6.2)
            self._after_opfire(pending[2])
        elif k == "pass":
            self._after_opfire(pending[2])
        elif k == "assault":
            self._assault([g.by_uid[x] for x in action.a.split("+")], g.map.hex_of[action.b])
        elif k == "overrun":
            self._overrun(g.by_uid[action.a], g.map.hex_of[action.b], g.map.hex_of[action.c])
        elif k == "load":
            self._load(g.by_uid[action.a], g.by_uid[action.b])
        elif k == "unload":
            self._unload(g.by_uid[action.a])
        elif k == "call":
            self._call(g.by_uid[action.a], [a.id for a in g.assets].index(action.b), g.map.hex_of[action.c])
        elif k == "strike":
            self._strike(pending[1], None if action.b == "none" else g.map.hex_of[action.b])
            self.pending = ("none",)
        elif k == "indirect":
            self._indirect(g.by_uid[action.a], g.map.hex_of[action.b])
            self._after_act(g.by_uid[action.a])
        elif k == "volley":
            self._volley(g.by_uid[action.a], [g.by_uid[x] for x in action.b.split("+")], g.by_uid[action.c])
        elif k == "cover":
            t = g.by_uid[action.a]
            side = 1 - g.units[t].side
            self.cover.discard(side)
            self.cover.add(("used", side))     # 9.6: used once, then out of the game
            v = self.values(t)                 # the helicopter saves as against AP (digest C76: AA value)
            hits = self.attack_roll(*g.air_cover_fp)
            saved = sum(1 for d in self.dice.pool(v.armor or 0, 6, "save") if d >= (v.save or 7))
            self.apply_hits(t, max(0, hits - saved))
            self.impulse_first = False
        elif k == "snipe":
            self._snipe(int(action.a[6:]) - 1, g.by_uid[action.b])
        elif k == "mode":
            u = g.by_uid[action.a]
            self.hover[u] = not self.hover[u]
            self.mode_changed[u] = True
            self.acted[u] = True
            self.impulse_first = False
        else:
            raise RulesError(f"unknown action '{action}'")
        self.steps += 1
        self.log.append(LogEntry(self.turn, pending[0], player, str(action), self.dice.history[mark:]))
        self._advance()

    def explain_illegal(self, action) -> RulesError:
        g = self.game
        k = getattr(action, "kind", "")
        p = self.pending
        if p[0] == "decide" and k not in ("activate", "skip"):
            return RulesError("a drawn formation marker must first be activated or set aside", "WaW 3.1")
        if p[0] == "opfire" and k not in ("opfire", "pass"):
            return RulesError("the other side may make Opportunity Fire at the moving unit first", "WaW 6.2")
        if k in ("move", "fire", "assault") and action.a in g.by_uid:
            u = g.by_uid[action.a]
            if p[0] == "ops" and g.units[u].formation != p[1]:
                return RulesError(f"{action.a} is not in the active formation", "WaW 4.0")
            if self.ooc[u]:
                return RulesError(f"{action.a} is Out of Command: it may not move or fire", "WaW 4.2")
            if self.oc[u]:
                return RulesError(f"{action.a} is Ops Complete", "WaW 5.0, 6.1")
            if k == "fire" and self.disr[u]:
                return RulesError(f"{action.a} is Disrupted and cannot fire", "WaW 6.1.7")
            if k == "fire" and self.mp_used[u] > 0:
                return RulesError(f"{action.a} has moved: only Moving Fire within half its MP", "WaW 6.1.3")
            if k == "fire":
                return RulesError(f"{action.b} is not a legal target (range, LOS or Targeting Table)",
                                  "WaW 6.1, 7.0, Targeting Table")
            if k == "move":
                return RulesError(f"{action.a} cannot enter {action.b} (MP, stacking, enemy or terrain)",
                                  "WaW 5.0, 1.4")
        return RulesError(f"'{action}' is not a legal action now")

    def fingerprint(self) -> str:
        g = self.game
        parts = [f"t{self.turn}", f"p{self.pending}", f"cup{self.cup}", f"et{self.et_drawn}",
                 f"h{sorted(map(sorted, self.held))}{self.held_marker}", f"a{sorted(self.activated)}",
                 f"w{sorted(self.wrecks)}", f"c{sorted(self.control.items())}", f"l{self.lost}",
                 f"m{self.missions}", f"th{self.thor}{self.comms}", f"s{sorted(self.smoke.items())}", f"mi{sorted(self.mines)}",
                 f"lu{sorted(self.lead_used)}", f"ca{sorted(self.calls.items())}", f"if{self.impulse_first}",
                 f"ov{sorted(self.overrun_done)}", f"ef{sorted(self.entered_f)}", f"ch{sorted(self.chem)}",
                 f"j{sorted(self.jammed.items())}", f"hg{sorted(self.hallowed)}", f"ai{sorted(self.air_out)}"
                 f"{sorted(self.air_back)}", f"hd{sorted(self.hand)}", f"xl{sorted(self.xleaders)}",
                 f"bz{sorted(self.berserk.items())}", f"sw{sorted(self.sw_placed)}{sorted(self.sw_lost)}"
                 f"{self.inf_lost}", f"sn{self.snipers}", f"cv{sorted(self.cover)}", f"dr{self.drill}", f"mc{self.misc}", f"r{self.reason}", f"ip{sorted(self.ip)}",
                 self.dice.fingerprint()]
        for i in range(len(g.units)):
            parts.append(f"{i}:{self.hex[i]}:{self.strength[i]}{self.disr[i]:d}{self.oc[i]:d}{self.ooc[i]:d}"
                         f"{self.mp_used[i]}:{self.mp_cap[i]}:{self.mfired[i]:d}{self.depleted[i]}{self.carrier[i]}"
                         f"{self.hover[i]:d}{self.mode_changed[i]:d}{self.heli_moves[i]}{self.acted[i]:d}"
                         f"{self.breakdown[i]}{self.fresh[i]:d}{self.locked[i]:d}{self.one_hex[i]:d}")
        return "|".join(parts)

    def outcome(self) -> Outcome:
        vp = self.victory_points()
        winner = None
        if len(vp) == 2 and vp[0] != vp[1]:
            winner = 0 if vp[0] > vp[1] else 1
        return Outcome(winner, vp, self.reason or "in progress", min(self.turn, self.game.max_turns),
                       list(self.lost))

    def victory_points(self) -> list[float]:
        g = self.game
        vp = [0.0 for _ in g.sides]
        for vtype, side, points, hexes, percent in g.victory:
            if vtype == "hold_hexes":
                vp[side] += points * sum(1 for h in hexes if self.control.get(h) == side)
            elif vtype == "destroy_units":
                vp[side] += points * self.lost[1 - side]
            elif vtype == "destroy_percent":
                total = sum(1 for u in g.units if u.side != side and not u.is_hq)
                if total and 100 * self.lost[1 - side] >= (percent or 100) * total:
                    vp[side] += points
            elif vtype == "survive":
                if self._alive(side):
                    vp[side] += points
        return vp

    # ------------------------------------------------------------------ helpers
    def _alive(self, side: int | None = None) -> list[int]:
        occ = self._occ
        if occ is not None:
            key = ("alive", side)
            hit = occ.get(key)
            if hit is None:
                hx, st = self.hex, self.strength
                hit = occ[key] = [u.idx for u in self.game.units if st[u.idx] < 2 and hx[u.idx] is not None
                                  and (side is None or u.side == side)]
            return list(hit)
        hx, st = self.hex, self.strength
        return [u.idx for u in self.game.units if st[u.idx] < 2 and hx[u.idx] is not None
                and (side is None or u.side == side)]

    def units_at(self, h, side: int | None = None) -> list[int]:
        g = self.game
        occ = self._occ
        if occ is not None:
            us = occ.get(h, ())
            return list(us) if side is None else [i for i in us if g.units[i].side == side]
        return [i for i in range(len(g.units)) if self.hex[i] == h and self.strength[i] < 2
                and (side is None or g.units[i].side == side)]

    def _ground_enemies_at(self, h, side: int) -> list[int]:
        g = self.game
        return [i for i in self.units_at(h, 1 - side) if not g.units[i].is_heli and not g.units[i].is_hq
                and self.carrier[i] < 0]

    def _stack_count(self, h, side: int) -> int:
        g = self.game
        return sum(1 for i in self.units_at(h, side) if self.carrier[i] < 0 and not g.units[i].is_heli
                   and not g.units[i].is_hq and g.units[i].cls not in ("support_weapon", "sniper", "leader", "hero"))

    def values(self, i: int):
        return self.game.vals[i][min(self.strength[i], 1)][self.hover[i]]

    def level(self, i: int) -> int:
        if self.game.units[i].is_heli:
            return 1
        return self.game.level.get(self.hex[i], 0)

    def has_los(self, a: int, b: int) -> bool:
        ha, hb = self.hex[a], self.hex[b]
        if distance(ha, hb) <= 1:
            return True
        if self.smoke and not self.game.units[a].body.advanced_imaging and self._smoke_between(ha, hb):
            return False                       # 8.2: Smoke blocks into and through its hex and the six around
        g = self.game
        ua, ub = g.units[a], g.units[b]
        if ua.is_heli or ub.is_heli:
            heli, other = (a, b) if ua.is_heli else (b, a)
            hh, ho = self.hex[heli], self.hex[other]
            lo = g.level.get(ho, 0) if not g.units[other].is_heli else 1
            level = g.los.flight_level(hh) + (1 if (self.pending[0] == "popup" and self.pending[1] == heli) else 0)
            if not g.los.heli(hh, ho, lo, level):
                return False
            if level == 1 and lo == 1 and self.wrecks:
                from studio.hexgrid.lines import line_steps
                on_hill = sum(1 for st in line_steps(hh, ho)[1:-1] for h in st if h in self.wrecks
                              and g.level.get(h, 0))
                if on_hill > 1:
                    return False               # more than one Wreck marker on a hill between
            return True
        return self.game.los.clear(ha, hb, self.level(a), self.level(b), self.wrecks)   # 7.2 b: Wrecks

    def _smoky(self, a, b) -> bool:
        from studio.hexgrid.lines import line_steps

        return any(distance(h, sm) <= 1 for st in line_steps(a, b)[1:] for h in st for sm in self.smoke)

    def _smoke_between(self, a, b) -> bool:
        from studio.hexgrid.lines import line_steps

        for st in line_steps(a, b):
            for h in st:
                for sm in self.smoke:
                    if distance(h, sm) <= 1 and distance(a, sm) > 1:
                        return True
        return False

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

    def _terrain_cost(self, i: int, a, b) -> float | None:
        """MP for unit ``i`` to step from ``a`` into ``b`` (WaW 5.0: ``terrain[].move_cost`` per mobility class,
        roads, hexside features; 5.3 water; 8.4 Chemical), or None when it may not."""
        g = self.game
        u = g.units[i]
        if u.is_heli:
            return 1.0
        mt = u.values(self.strength[i]).movement.type
        if mt == "towed":
            return None
        extra_chem = float(g.const("chemical_extra_mp")) if self.chem and any(
            distance(b, c) <= 1 for c in self.chem) else 0.0   # 8.4
        if g.map.road(a, b):
            return float(g.const("road_cost")) + extra_chem
        code = g.terrain.get(b, "C")
        if code in g.water_codes:
            v = u.values(self.strength[i])
            # 5.3: green MP crosses water as the whole move of the impulse, starting with it
            return 0.0 if v.movement.green and self.mp_used[i] == 0 and not self.one_hex[i] else None
        cost = (g.tables.move_cost.get(code) or g.tables.move_cost["C"]).get(mt)
        if cost is None or (code in g.scrub_codes and mt != "foot"
                            and g.option("c61_texas_scrub_vehicles") == "trail_only"):
            return None                        # TEC: Texas Scrub vehicles only along a trail (option c61)
        side = g.map.hexside(a, b)
        if side:
            feat = g.tables.features.get(side)
            if feat:
                extra = feat.get(mt)
                if extra is None:
                    return None
                cost += extra
        return float(cost) + extra_chem

    def _leader_bonus(self, i: int) -> int:
        """1.3.6: the attached (living) Leader's Leadership, applied to the value the event uses."""
        leader = self.game.leader_of.get(i) or self.xleaders.get(i)
        if leader is None or ("L", i) in self.hallowed or leader.full is None:
            return 0
        return leader.full.leadership or 0

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

    def _in_command_formation(self, i: int, fi: int) -> bool:
        return self.game.units[i].formation == fi

    # ------------------------------------------------------------------ turn flow
    def _new_cup(self) -> None:
        g = self.game
        cup = []
        for fi, f in enumerate(g.formations):
            entry = g.entry.get(fi)
            if entry is not None and entry[0] > self.turn:
                continue
            if fi in self.entered_f and not any(self.strength[u] < 2 and self.hex[u] is not None for u in f.units
                                                if not g.units[u].is_hq):
                continue
            cup += [("F", fi)] * (f.markers or (1 if f.kind == "mob" else 0))
        cup += [("E", 0)] * max(0, g.end_turn_markers - sum(self.held_marker))
        cup += [("C", 0)] * g.chaos_markers
        for k, (a, side) in enumerate(g.airstrikes):
            if a.from_turn <= self.turn and k not in self.air_out:
                cup.append(("A", k))
        if self.turn == 1:
            cup += [("J", side) for side in g.jammers]
        cup += [("V", side) for side in g.air_cover if ("used", side) not in self.cover]
        self.cup = cup
        self.et_drawn = 0
        self.activated = set()

    def _advance(self) -> None:
        """Draw markers until a player has a decision, or the game ends."""
        g = self.game
        while self.pending[0] == "none":
            if self._one_side_gone():
                self._finish("a side has no combat units left")
                return
            if not any(m[0] == "F" for m in self.cup):
                self._marker_removal()
                continue
            m = self.cup.pop(self.dice.randrange(len(self.cup)))
            if m[0] == "E":
                self.et_drawn += 1
                if self.et_drawn >= g.const("end_turn_draws"):   # 3.1: the second End Turn marker
                    self._marker_removal()
            elif m[0] == "C":
                self._chaos()
            elif m[0] == "A":
                self.pending = ("strike", m[1])
            elif m[0] == "J":
                self._jam(m[1])
            elif m[0] == "V":
                self.cover.add(m[1])           # 9.6: held for this turn
            else:
                fi = m[1]
                f = g.formations[fi]
                if not any(self.strength[u] < 2 for u in f.units if not g.units[u].is_hq):
                    continue
                self.pending = ("decide", fi)

    def _one_side_gone(self) -> bool:
        g = self.game
        for side in range(len(g.sides)):
            if not any(self.strength[u.idx] < 2 and not u.is_hq and (self.hex[u.idx] is not None or u.formation
                                                                         not in self.entered_f)
                       for u in g.units if u.side == side and u.idx != g.mob):
                return True
        return False

    def _finish(self, reason: str) -> None:
        self.pending = ("terminal",)
        self.reason = reason

    def _marker_removal(self) -> None:
        """WaW 3.2 (with 6.1.4, 8.2, 11.0 #8/#14, 1.3.3.3, 3.2.1)."""
        g = self.game
        n = len(g.units)
        for i in range(n):
            self.oc[i] = False
            self.ooc[i] = False
            if self.depleted[i]:
                self.depleted[i] -= 1
            if self.breakdown[i]:
                self.breakdown[i] -= 1
            self.locked[i] = False
            self.heli_moves[i] = 0             # 6.1.3.1: the 12-hex count never outlives the turn
        self.smoke = {h: v - 1 for h, v in self.smoke.items() if v > 1}
        self.chem = set()                      # 8.4: Chemical Strike markers go in the MRP
        for sn in self.snipers:
            if sn[2] == 1:
                sn[2] = 0
        self.cover = {c for c in self.cover if isinstance(c, tuple)}   # 9.6: unused Air Cover back to the cup
        for fi in sorted(self.jammed):         # 10.0 (digest C59): an even roll advances Jammed -> Solving -> off
            if self.dice.roll(6, "jammed") % 2 == 0:
                self.jammed[fi] += 1
                if self.jammed[fi] > g.const("jam_states"):
                    del self.jammed[fi]
        if self.thor:                          # Chaos 14: ends on 5-6, +1 per earlier roll
            if self.dice.roll(6, "thor") + (self.thor - 1) * g.const("thor_end_step") >= g.const("thor_end_roll"):
                self.thor = 0
            else:
                self.thor += 1
        self._restore_hqs()
        # 3.2.1: a side with formations not activated holds one End Turn marker (digest C51: one per side)
        for side in range(len(g.sides)):
            unact = {fi for fi, f in enumerate(g.formations) if f.side == side and fi not in self.activated
                     and fi in self.entered_f and f.markers > 0
                     and any(self.strength[u] < 2 for u in f.units if not g.units[u].is_hq)}
            self.held[side] = unact
            if g.option("c51_held_end_turn") == "per_formation":
                self.held_marker[side] = min(len(unact), g.end_turn_markers)
            else:
                self.held_marker[side] = min(1, len(unact), g.end_turn_markers)
        self.overrun_done = set()
        if self.turn >= g.max_turns:
            self._finish("turn limit reached")
            return
        self.turn += 1
        self._new_cup()

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

    # ------------------------------------------------------------------ formation impulse (4.0)
    def _activate(self, fi: int) -> None:
        g = self.game
        f = g.formations[fi]
        self.activated.add(fi)
        side = f.side
        if fi in self.held[side]:
            self.held[side].discard(fi)
            per_formation = g.option("c51_held_end_turn") == "per_formation"
            if self.held_marker[side] and (per_formation or not self.held[side]):
                self.held_marker[side] -= 1
                self.cup.append(("E", 0))     # 3.2.1: the held End Turn marker goes back into the cup
        first = fi not in self.entered_f
        if first:
            self._enter(fi)
        # 4.1 housekeeping
        for u in f.units:
            self.oc[u] = self.ooc[u] = False
            self.mp_used[u] = 0.0
            self.mp_cap[u] = None
            self.mfired[u] = False
            self.acted[u] = False
            if g.option("c41_heli_12_hexes") != "turn":
                self.heli_moves[u] = 0         # 6.1.3.1, 9.2 read per activation (option c41)
            self.mode_changed[u] = False
            self.one_hex[u] = False
            self.fresh[u] = first
        self.lead_used = set()
        self.calls = {}
        self.impulse_first = True
        if f.kind == "helicopter":
            for u in f.units:
                self.disr[u] = False           # 9.0: helicopters are In Command and Undisrupted
        else:
            self._command(fi, first)
            self._rally(fi)
        self.comms = False
        self.pending = ("ops", fi)
        if ("drill", side) in self.hand:
            # Chaos 15: a second formation acts with this one (choice automated: the largest not yet activated)
            others = [x for x, f2 in enumerate(g.formations) if f2.side == side and x != fi and x in self.entered_f
                      and x not in self.activated and any(self.strength[u] < 2 and self.hex[u] is not None
                                                          for u in f2.units)]
            if others:
                fi2 = max(others, key=lambda x: (len(g.formations[x].units), -x))
                self.hand.discard(("drill", side))
                self.activated.add(fi2)
                self.held[side].discard(fi2)
                f2 = g.formations[fi2]
                for u in f2.units:
                    self.oc[u] = self.ooc[u] = False
                    self.mp_used[u] = 0.0
                    self.mp_cap[u] = None
                    self.mfired[u] = self.acted[u] = self.mode_changed[u] = self.one_hex[u] = False
                    if g.option("c41_heli_12_hexes") != "turn":
                        self.heli_moves[u] = 0
                if f2.kind == "helicopter":
                    for u in f2.units:
                        self.disr[u] = False
                else:
                    self._command(fi2, False)
                    self._rally(fi2)
                self.drill = fi2

    def _enter(self, fi: int) -> None:
        g = self.game
        f = g.formations[fi]
        _, hexes = g.entry[fi]
        load: dict = {}
        k = 0
        last = hexes[0]
        for u in f.units:
            if g.units[u].is_hq or g.units[u].is_heli:
                self.hex[u] = last
                continue
            while k < len(hexes) and load.get(hexes[k], 0) >= g.const("stack_limit"):
                k += 1
            h = hexes[min(k, len(hexes) - 1)]
            self.hex[u] = last = h
            load[h] = load.get(h, 0) + 1
        self.entered_f.add(fi)

    def _command(self, fi: int, first: bool) -> None:
        """WaW 4.2: one check per hex; units in range of the HQ (twice for recon) are In Command."""
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
        threshold = g.option("c14_jam_threshold") or 4
        jam = fi in self.jammed
        for h, us in sorted(hexes.items()):
            if first:
                continue
            led = any(x in g.leader_of or x in g.hero_of or x in self.xleaders for x in us)
            us = [x for x in us if x not in g.leader_of and x not in g.hero_of and x not in self.xleaders]
            if not us:
                continue
            exempt = h == hq_hex or led
            if jam:
                if not exempt:                 # 10.0: HQ, Leader or Hero hexes make no roll
                    if self.dice.roll(6, "jammed") < threshold:
                        for x in us:
                            self.ooc[x] = True
                continue
            if self.comms and not exempt:      # Chaos 5: hexes with an HQ, Leader or Hero make no roll
                if self.dice.roll(6, "comms") < threshold:
                    for u in us:
                        self.ooc[u] = True
                    continue
            need = []
            for u in us:
                rng = cr * (g.const("recon_command_factor") if g.units[u].body.recon else 1)   # 1.3.4.4
                if hq_hex is None or distance(h, hq_hex) > rng:
                    need.append(u)
            if not need:
                continue
            m = min(self.morale(u) for u in need) if g.option("c66_command_morale_hex") != "highest" else \
                max(self.morale(u) for u in need)
            lead = 0
            if g.option("c29_hq_leadership_checks") == "rally_and_command":
                q2 = self._hq_in(h, f.side)    # 1.6.1 (option c29): a stacked HQ's Leadership helps the check
                lead = self._leadership(q2) if q2 >= 0 else 0
            if sum(self.dice.pool(2, 6, "command")) - lead > m:
                for u in need:
                    self.ooc[u] = True

    def _rally(self, fi: int) -> None:
        """WaW 4.3: 2d6 (+1 if OOC, - HQ Leadership in the hex) <= Morale removes Disrupted."""
        g = self.game
        f = g.formations[fi]
        for u in f.units:
            if not self.disr[u] or self.strength[u] >= 2 or g.units[u].is_hq:
                continue
            if self.carrier[u] >= 0:
                continue
            mod = (g.const("ooc_rally_mod") if self.ooc[u] else 0) + \
                (g.const("jammed_rally_mod") if fi in self.jammed else 0)     # 4.3, 10.0
            if self.ooc[u] and not g.option("c11_ooc_rally"):
                continue
            q = self._hq_in(self.hex[u], f.side)
            if q >= 0:
                mod -= self._leadership(q)
            if sum(self.dice.pool(2, 6, "rally")) + mod <= self.morale(u):
                self.disr[u] = False
                for p in self._passengers(u):
                    self.disr[p] = False         # 5.2.4: passengers rally with the transport

    def _end_impulse(self, fi: int) -> None:
        g = self.game
        for f2 in (fi,) if self.drill is None else (fi, self.drill):
            for u in g.formations[f2].units:
                if self.mp_used[u] > 0 or self.acted[u]:
                    self.oc[u] = True          # 5.0: a unit that moved is Ops Complete
        self.drill = None
        if g.option("c20_rendezvous_lock") == "impulse":
            self.locked = [False] * len(self.locked)   # 5.2.1 read as: until the end of the impulse
        self.pending = ("none",)

    def _after_act(self, u: int) -> None:
        self.acted[u] = True
        self.impulse_first = False

    def _passengers(self, c: int) -> list[int]:
        return [i for i, x in enumerate(self.carrier) if x == c and self.strength[i] < 2]

    # ------------------------------------------------------------------ operations: legal actions
    def _can_act(self, u: int) -> bool:
        g = self.game
        return (self.strength[u] < 2 and self.hex[u] is not None and not self.oc[u] and not self.ooc[u]
                and not g.units[u].is_hq and self.carrier[u] < 0)

    def _ops_actions(self, fi: int) -> list[Action]:
        if self.drill is None:
            return self._ops_actions_one(fi)
        # Chaos 15 Battle Drill: both formations' units only move or use Moving Fire (HQ/recon calls: option c16)
        g = self.game
        calls = g.option("c16_battle_drill_artillery")
        out = []
        for f2 in (fi, self.drill):
            for a in self._ops_actions_one(f2):
                if a.kind == "move" or (a.kind == "call" and calls) or (
                        a.kind == "fire" and self.mp_used[g.by_uid[a.a]] > 0 and not g.units[g.by_uid[a.a]].is_heli):
                    out.append(a)
        out.append(Action("end"))
        return out

    def _ops_actions_one(self, fi: int) -> list[Action]:
        g = self.game
        f = g.formations[fi]
        out: list[Action] = []
        label = g.label
        for u in f.units:
            spec = g.units[u]
            if spec.is_hq:
                if self.impulse_first or self.calls.get(u):
                    out += self._call_actions(u, fi)
                continue
            if self.carrier[u] >= 0:
                if not self.ooc[u] and not self.oc[u] and self.strength[u] < 2:
                    c = self.carrier[u]
                    if self.mp_used[c] <= self._half(c) and not self.oc[c]:
                        out.append(Action("unload", spec.uid))
                continue
            if not self._can_act(u):
                continue
            uid = spec.uid
            if spec.is_heli and not self.acted[u] and not self.mode_changed[u] and self.mp_used[u] == 0:
                out.append(Action("mode", uid))
            if spec.is_heli and not self.disr[u] and self.heli_moves[u] <= g.const("helicopter_fire_move_limit"):
                for t, fp in self._popup_targets(u):
                    out.append(Action("popup", uid, g.units[t].uid, fp))
            if spec.body.recon and (self.impulse_first or self.calls.get(u)):
                out += self._call_actions(u, fi)
            if not self.mfired[u]:
                for h in self._move_targets(u):
                    out.append(Action("move", uid, label[h]))
            mode = "moving" if self.mp_used[u] > 0 and not spec.is_heli else "normal"
            if self.mp_used[u] == 0 and not self.disr[u] and (spec.body.mortar or spec.cls == "on_map_artillery"):
                for h in self._indirect_targets(u):
                    out.append(Action("indirect", uid, label[h]))
            if not self.mfired[u]:
                for t in self._targets(u):
                    for fp in self._fire_types(u, t, mode):
                        out.append(Action("fire", uid, g.units[t].uid, fp))
                for h in self._assault_targets(u):
                    out.append(Action("assault", uid, label[h]))
                    # the stack assaults together: the other ready unit of this hex that can reach h
                    mate = next((x for x in f.units if x > u and self.hex[x] == self.hex[u] and self._can_act(x)
                                 and not self.mfired[x] and h in self._assault_targets(x)), None)
                    if mate is not None:
                        out.append(Action("assault", f"{uid}+{g.units[mate].uid}", label[h]))
                for h, x in self._overrun_targets(u):
                    out.append(Action("overrun", uid, label[h], label[x]))
                for c in self._load_targets(u):
                    out.append(Action("load", uid, g.units[c].uid))
        for k, sn in enumerate(self.snipers):
            if sn[2] == 0 and sn[4] == g.roles[f.side] and (sn[1] < 0 or g.units[sn[1]].formation == fi):
                for t in self._sniper_targets(k):
                    out.append(Action("snipe", f"sniper{k + 1}", g.units[t].uid))
        if ("volley", f.side) in self.hand:
            out += self._volley_actions(fi)
        if f.side in self.cover and g.air_cover_fp[0]:
            for t in self._targets(f.units[0]):
                if g.units[t].is_heli:
                    out.append(Action("cover", g.units[t].uid))
        out.append(Action("end"))
        return out

    def _volley_actions(self, fi: int) -> list[Action]:
        """Volley Fire: a leading unit and two supports of one formation at one target; one pair per leader."""
        g = self.game
        ready = [x for x in g.formations[fi].units if self._can_act(x) and not self.disr[x] and self.mp_used[x] == 0
                 and not g.units[x].is_heli]
        out = []
        need = g.tables.volley["support_units"]
        if len(ready) < need + 1:
            return out
        for t in self._targets(ready[0]):
            for lead in ready:
                fp = next((f for f in ("ap", "he") if self.fire_numbers(lead, t, f, "normal")), None)
                if fp is None:
                    continue
                sup = [x for x in ready if x != lead and self._in_reach(x, t)]
                if len(sup) >= need:
                    out.append(Action("volley", g.units[lead].uid, "+".join(g.units[x].uid for x in sup[:need]),
                                      g.units[t].uid))
        return out

    def _popup_targets(self, u: int) -> list[tuple[int, str]]:
        """9.2.1: every target the helicopter may attack one level up; the Pop-Up is the owner's choice whether
        or not the target is also seen at the normal level."""
        g = self.game
        out = []
        for t in self._targets(u):
            saved = self.pending
            self.pending = ("popup", u, t, "", saved[1] if len(saved) > 1 else -1)
            try:
                out += [(t, fp) for fp in self._fire_types(u, t, "normal")]
            finally:
                self.pending = saved
        return out

    def _popup_resolve(self, response) -> None:
        """9.2.1: the one responding unit's fire and the helicopter's attack take effect together."""
        g = self.game
        _, u, t, fp, fi = self.pending
        net = 0
        if response is not None:
            e, efp = response
            nums = self.fire_numbers(e, u, efp, "opfire")
            if nums is not None:
                net = self.resolve_hits(u, self.attack_roll(*nums), efp, e, apply=False)
            self.oc[e] = True
        if self.fire_numbers(u, t, fp, "normal") is not None:
            self._fire(u, t, fp, "normal")
        self.oc[u] = True
        self.acted[u] = True
        self.impulse_first = False
        if net:
            self.apply_hits(u, net)
        self.pending = ("ops", fi)

    def _sniper_targets(self, k: int) -> list[int]:
        g = self.game
        h = self.snipers[k][0]
        side = g.roles.index(self.snipers[k][4])
        return [t for t in self._alive(1 - side) if self.carrier[t] < 0 and not self.disr[t]
                and (g.units[t].is_infantry or g.units[t].cls == "towed_gun")
                and distance(h, self.hex[t]) <= 6 and g.los.clear(h, self.hex[t], g.level.get(h, 0),
                                                                   self.level(t), self.wrecks)]

    def _snipe(self, k: int, t: int) -> None:
        """WaW 1.3.8: range counts the target hex; +1 city, -1 open; d6 >= it Disrupts; then the removal roll."""
        g = self.game
        sn = self.snipers[k]
        h = self.hex[t]
        d = distance(sn[0], h)
        code = g.terrain.get(h)
        d += g.const("sniper_range_city") if code in g.built_up else (
            g.const("sniper_range_open") if code in g.open_codes else 0)
        hit = self.dice.roll(6, "sniper") >= d and not self.disr[t]
        if hit:
            self._disrupt(t)
        sn[2] = 1                              # Ops Complete side
        r = self.dice.roll(6, "sniper-removal") - (0 if hit else 1) - (1 if sn[3] else 0)
        sn[3] += 1
        if r <= g.const("sniper_removal_roll"):
            sn[2] = 2                          # removed
        self.impulse_first = False

    def _in_reach(self, x: int, t: int) -> bool:
        v = self.values(x)
        d = distance(self.hex[x], self.hex[t])
        factor = 1 if v is None or v.range_underlined else self.game.const("extended_range_factor")
        return v is not None and bool(v.range) and d <= v.range * factor and \
            (d <= 1 or self.has_los(x, t))

    def _volley(self, lead: int, sups: list[int], t: int) -> None:
        g = self.game
        fp = next(f for f in ("ap", "he") if self.fire_numbers(lead, t, f, "normal"))
        fpv, hit = self.fire_numbers(lead, t, fp, "normal")
        side = g.units[lead].side
        lead_dice = 0
        for x in [lead] + sups:
            q = self._hq_in(self.hex[x], side)
            if q >= 0:
                lead_dice += self._leadership(q)
        vf = g.tables.volley                       # Volley Fire: +1d6 per support, Leadership at most 2 in total
        hits = self.attack_roll(fpv + vf["dice_per_support"] * len(sups) + min(vf["leadership_cap"], lead_dice), hit)
        self.resolve_hits(t, hits, fp, lead)
        for x in [lead] + sups:
            self.oc[x] = True
            self.acted[x] = True
        self.hand.discard(("volley", side))
        self.impulse_first = False

    def _half(self, i: int) -> float:
        v = self.values(i)
        return float((v.movement.mp or 0) // 2)

    def _move_targets(self, u: int) -> list:
        g = self.game
        spec = g.units[u]
        if self.breakdown[u] or self.locked[u]:
            return []
        if spec.is_heli:
            if self.hover[u]:
                return []
        elif spec.values(self.strength[u]).movement.towed:
            return []
        h = self.hex[u]
        mp = self._mp(u)
        used = self.mp_used[u]
        if used >= mp:
            return []
        if self.one_hex[u] and used > 0:
            return []
        side = spec.side
        out = []
        enemies = None
        if self.disr[u]:
            enemies = [self.hex[e] for e in self._alive(1 - side) if not g.units[e].is_hq and self.carrier[e] < 0]
        for n in g.nbrs[h]:
            cost = self._terrain_cost(u, h, n)
            if cost is None:
                continue
            if self.one_hex[u]:
                cost = 0.0
            if used + cost > mp + 1e-9:
                continue
            if self.units_at(n, 1 - side):
                continue                       # entering an enemy hex is an Assault or Overrun (5.0)
            if not spec.is_heli:
                if self._stack_count(n, side) + 1 > g.const("stack_limit"):
                    continue
                if not self._hq_can_follow(u, h, n):
                    continue
            if enemies is not None:
                # 6.1.7: a Disrupted unit may not close with the enemy or enter a hex adjacent to it
                if any(distance(n, e) <= 1 for e in enemies):
                    continue
                if enemies and min(distance(n, e) for e in enemies) < min(distance(h, e) for e in enemies):
                    continue
            out.append(n)
        return out

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

    def _hq_can_follow(self, u: int, h, n) -> bool:
        """WaW 1.3.3.1: the last unit of its type may leave the HQ's hex only if the HQ can go with it: the HQ is
        not Ops Complete and ``n`` holds no other HQ of the side (1.3.3: one HQ per hex)."""
        q = self._hq_left_alone(u, h)
        if q < 0:
            return True
        if self.oc[q]:
            return False
        side = self.game.units[u].side
        return sum(1 for j in self.units_at(n, side) if self.game.units[j].is_hq) < self.game.const("hq_per_hex")

    def _targets(self, u: int) -> list[int]:
        g = self.game
        side = g.units[u].side
        return [t for t in self._alive(1 - side) if not g.units[t].is_hq and self.carrier[t] < 0
                and g.units[t].cls not in ("support_weapon", "sniper", "leader", "hero")]

    def _can_opfire(self, u: int) -> bool:
        g = self.game
        return (self.strength[u] < 2 and self.hex[u] is not None and not self.oc[u] and not self.disr[u]
                and not g.units[u].is_hq and self.carrier[u] < 0 and not self.breakdown[u])

    def _fire_types(self, u: int, t: int, mode: str) -> list[str]:
        if distance(self.hex[u], self.hex[t]) > self.game.reach[u]:
            return []
        v = self.values(u)
        out = []
        for fp in ("ap", "he", "aa"):
            if not (v.ap_fp if fp == "ap" else v.he_fp if fp == "he" else v.aa_fp):
                continue
            if self.fire_numbers(u, t, fp, mode) is not None:
                out.append(fp)
        return out

    def fire_numbers(self, u: int, t: int, fp: str, mode: str, shooter=None) -> tuple[int, int] | None:
        """(Firepower, Hit Number) of ``u`` firing ``fp`` at ``t``, or None when illegal (WaW 6.1, 9.3)."""
        g = self.game
        spec, tspec = g.units[u], g.units[t]
        v = shooter if shooter is not None else self.values(u)
        if v is None:
            return None
        d = distance(self.hex[u], self.hex[t])
        if d > g.reach[u] and shooter is None:
            return None
        if mode != "opfire" and (self.disr[u] or self.breakdown[u]):
            return None
        fpv = {"ap": v.ap_fp, "he": v.he_fp, "aa": v.aa_fp}[fp]
        hit = getattr(v.to_hit, fp)
        if not fpv or hit is None:
            return None
        tc = g.tclass[t][min(self.strength[t], 1)]
        allowed = g.tables.targeting                 # Targeting Table rows (6.1)
        if fp == "aa":
            if tc not in allowed["aa"]:
                return None
        elif fp == "ap":
            if tc not in allowed["ap"]:
                return None
            missile = v.range_underlined if g.option("c54_underline_uses") != "underlined_ap" else v.ap_fp_underlined
            if self.depleted[u] and missile and shooter is None:
                return None                    # 6.1.4 (option c54: AP of underlined-range or -AP units)
        else:
            if spec.is_heli:                   # 9.2: helicopter HE as vehicle HE, not at helicopters; c25: vs armor
                ok = (tc in allowed["vehicle_he"] and tc != "helicopter") or (
                    tc == "afv" and g.option("c25_heli_he_armor"))
            else:
                ok = tc in allowed["vehicle_he" if spec.is_vehicle else "infantry_he"]
            if not ok:
                return None
        if d == 0:
            return None
        rng = v.range or 0
        ext = red = not v.range_underlined
        if spec.cls == "on_map_artillery":
            ext = False                        # 8.7: beyond the fixed range only as an 8.1 mission (indirect)
        if self.thor:
            rng, ext, red = min(rng, g.const("thor_max_range")), False, False
        if tc == "helicopter" and fp != "aa":
            if g.option("c08_flying_heli_underline") == "firepower":
                barred = v.ap_fp_underlined if fp == "ap" else v.he_fp_underlined
            else:
                barred = v.range_underlined
            if barred and not self.hover[t] and not (d <= 1 and g.option("c50_adjacent_flying") == "adjacent_wins"):
                return None                    # 9.3: guided missiles cannot attack a Flying helicopter (c08, c50)
            rng = self._half_range(rng)
            if d > max(rng, 1):
                return None
        else:
            if d > rng:
                if d > 1 and (not ext or d > g.const("extended_range_factor") * rng):
                    return None
                if d > 1:
                    hit += g.const("extended_range_hit_mod")   # 6.1.1 extended range
            elif red and d <= self._half_range(rng):
                hit += g.const("reduced_range_hit_mod")        # 6.1.2 reduced range
        if mode == "moving":
            level = spec.body.moving_fire
            underlined = v.ap_fp_underlined if fp == "ap" else v.he_fp_underlined if fp == "he" else False
            if spec.body.moving_fire_qualifier == "he_only" and fp != "he":
                return None
            if level == "none" or not underlined:
                return None
            if self.mp_used[u] > self._half(u):
                return None
            fp_mod, hit_mod = g.tables.mf_effects[level]   # Moving Fire Table effects row
            hit += hit_mod
            fpv += fp_mod
        if spec.is_heli and self.heli_moves[u] > g.const("helicopter_fire_move_limit"):
            return None                        # 6.1.3.1, 9.2: moved more than 12 hexes (option c41: per turn)
        if hit > 6:
            fpv -= hit - 6                     # 6.1.3: Hit Numbers above 6 cost Firepower
            hit = 6
        if fpv <= 0:
            return None
        if d > 1 and not self.has_los(u, t):
            return None
        if self.smoke and self._smoky(self.hex[u], self.hex[t]):
            step = g.tables.mf_effects["advanced_imaging"][1]   # 8.2 (c07, C39): once in total
            hit += -step if g.option("c07_smoke_imaging") == "minus_one" else step
            if d > rng:
                return None                    # Advanced Imaging: no extended range through Smoke
            if hit > 6:
                fpv -= hit - 6
                hit = 6
            if fpv <= 0:
                return None
        return fpv, max(hit, 1)

    def _half_range(self, rng: int) -> int:
        """Half range (6.1.2, 9.3), rounded per option c49."""
        return -(-rng // 2) if self.game.option("c49_half_range") == "ceil" else rng // 2

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
        """WaW 6.4: a vehicle may overrun a hex of only enemy infantry in open or hilly terrain."""
        g = self.game
        spec = g.units[u]
        if not spec.is_vehicle or spec.is_heli or self.disr[u] or self.breakdown[u] or self.locked[u]:
            return []
        v = self.values(u)
        if v.assault_fp is None or spec.body.cannot_assault or v.movement.towed:
            return []
        h = self.hex[u]
        out = []
        for n in g.nbrs[h]:
            if (spec.uid, n) in self.overrun_done:
                continue
            if g.terrain.get(n) not in g.overrun_codes:
                continue                       # 6.4: open or hilly terrain
            en = self._ground_enemies_at(n, spec.side)
            if not en or not all(g.units[e].is_infantry for e in en):
                continue
            cost = self._terrain_cost(u, h, n)
            if cost is None:
                continue
            spent = self.mp_used[u] + cost + g.const("overrun_extra_mp")
            for x in g.nbrs[n]:
                if x == h or self.units_at(x, 1 - spec.side):
                    continue
                c2 = self._terrain_cost(u, n, x)
                if c2 is None or spent + c2 > self._mp(u) + 1e-9 or \
                        self._stack_count(x, spec.side) >= g.const("stack_limit"):
                    continue
                out.append((n, x))
                break
        return out

    def _load_targets(self, u: int) -> list[int]:
        g = self.game
        spec = g.units[u]
        if not (spec.is_infantry or spec.cls == "towed_gun") or spec.cls == "militia_cav" or self.disr[u]:
            return []
        out = []
        for c in self.units_at(self.hex[u], spec.side):
            cs = g.units[c]
            if c == u or self.carrier[c] >= 0 or cs.is_heli or self.oc[c] or self.ooc[c]:
                continue
            v = self.values(c)
            if not v.movement.circled or self._passengers(c):
                continue
            if self.mp_used[c] > self._half(c) or self.breakdown[c]:
                continue
            out.append(c)
        return out

    def _call_actions(self, caller: int, fi: int) -> list[Action]:
        g = self.game
        made = sum(self.calls.values()) if g.option("c67_artillery_calls") == "per_formation" else \
            self.calls.get(caller, 0)
        if made >= g.const("artillery_missions_per_caller") or self.strength[caller] >= 2 or self.hex[caller] is None:
            return []                          # 8.0: up to two missions (per caller or per formation, c67)
        side = g.units[caller].side
        out = []
        hexes = sorted({self.hex[e] for e in self._targets(caller) if not g.units[e].is_heli})
        for ai, a in enumerate(g.assets):
            if a.side != side or self.missions[ai] <= 0 or not a.usable:
                continue
            for h in hexes:
                if distance(self.hex[caller], h) <= 1 or g.los.clear(self.hex[caller], h, self.level(caller),
                                                                     g.level.get(h, 0), self.wrecks):
                    out.append(Action("call", g.units[caller].uid, a.id, g.label[h]))
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
        g = self.game
        side = g.units[mover].side
        for e in self._alive(1 - side):
            if self._can_opfire(e) and self._fire_types(e, mover, "opfire"):
                self.pending = ("opfire", mover, self.pending[1])
                return

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
            self.oc[u] = True
        else:
            self.one_hex[u] = True              # 5.2.2: the infantry may move one more hex
            self.mp_used[u] = 0.0
            if self.mp_used[c] == 0:
                self.mp_cap[c] = self._half(c)
        self._after_act(u)

    # ------------------------------------------------------------------ ranged combat (6.1)
    def _lead_dice(self, u: int) -> int:
        q = self._hq_in(self.hex[u], self.game.units[u].side)
        if q < 0 or q in self.lead_used:
            return 0
        self.lead_used.add(q)
        return min(self._leadership(q), self._lead_cap())

    def _lead_cap(self) -> int:
        """1.3.6: leadership dice added to one roll total at most ``leader_dice_cap`` (option c37: or no cap)."""
        g = self.game
        return g.const("leader_dice_cap") if g.option("c37_leadership_cap") != "uncapped" else 99

    def _fire(self, u: int, t: int, fp: str, mode: str) -> None:
        g = self.game
        nums = self.fire_numbers(u, t, fp, mode)
        if nums is None:
            raise RulesError(f"{g.units[u].uid} cannot fire {fp} at {g.units[t].uid}", "WaW 6.1")
        fpv, hit = nums
        lead = self._lead_dice(u)
        leader = g.leader_of.get(u) or self.xleaders.get(u)
        if leader is not None and ("L", u) not in self.hallowed and leader.full is not None:
            lead += leader.full.leadership or 0    # 1.3.6: Leader modifier (declared: Firepower)
        lead = min(lead, self._lead_cap())
        v = self.values(u)
        aug = (v.ap_fp_augmented if fp == "ap" else v.he_fp_augmented if fp == "he" else False)
        side = g.units[u].side
        if ("fortune", side) in self.hand:
            self.hand.discard(("fortune", side))
            lead += g.const("fortune_dice")    # Chaos 17: the Fortune die added to this roll
        hallowed = bool(self.hallowed) and ("G", self.hex[u], g.units[u].nation) in self.hallowed
        hits = self.attack_roll(fpv + lead, hit, aug, reroll=hallowed)
        if hits == 0 and v.range_underlined and not g.units[u].body.mortar:
            self.depleted[u] = g.const("depleted_turns")   # 6.1.4 Depleted Ammo
        self.resolve_hits(t, hits, fp, u)
        sw = g.sw_of.get(u)
        if sw is not None and u not in self.sw_lost and self.strength[t] < 2 and (
                mode == "normal" or g.option("c48_sw_opfire")):
            swv = g.sw_cards[sw].full
            for sfp in ("ap", "he"):
                nums = self.fire_numbers(u, t, sfp, "normal", shooter=swv)
                if nums is not None:
                    self.sw_placed.add(u)      # 1.3.5: placed on the map when first fired
                    self.resolve_hits(t, self.attack_roll(*nums, False), sfp, u)
                    break
        self.oc[u] = True
        if mode == "moving":
            self.mfired[u] = True

    def attack_roll(self, fp: int, hit: int, augmented: bool = False, reroll: bool = False) -> int:
        """Roll ``fp`` d6 (+1 when augmented, keeping at most ``fp`` Hits; WaW 6.3.2): Hits on >= ``hit``.

        ``reroll``: Hallowed Ground (1.3.6.1, digest C63) re-rolls one failed die."""
        dice = self.dice.pool(fp + (1 if augmented else 0), 6, "attack")
        if reroll:
            for k, d in enumerate(dice):
                if d < hit:
                    dice[k] = self.dice.roll(6, "hallowed")
                    break
        hits = sum(1 for d in dice if d >= hit)
        return min(hits, fp)

    def concealed(self, t: int) -> bool:
        """WaW 6.1.5 (digest C21: all conditions)."""
        g = self.game
        h = self.hex[t]
        row = g.tec_row(h)
        c = row["concealment"]
        spec = g.units[t]
        if spec.is_heli or c == "none" or (c == "infantry" and spec.target_class(self.strength[t]) != "soft"):
            return False
        if self.oc[t] or (self.pending[0] == "opfire" and self.pending[1] == t):
            return False
        for e in self._alive(1 - spec.side):
            es = g.units[e]
            if es.is_hq or self.disr[e] or self.carrier[e] >= 0:
                continue
            if distance(self.hex[e], h) <= 1:
                return False
            if es.body.recon and self.has_los(e, t):
                return False
        return True

    def defense_dice(self, t: int) -> tuple[int, int]:
        """(dice, save number) of the target's defence roll (WaW 6.1, 6.1.5, 6.1.6; 9.3; digest C5, C38)."""
        g = self.game
        spec = g.units[t]
        tc = spec.target_class(self.strength[t])
        v = self.values(t)
        if tc == "helicopter":
            return (v.armor or 0), (v.save or 7)
        row = g.tec_row(self.hex[t])
        if tc == "afv" or (tc == "thin" and g.option("c05_thin_skinned_saves") == "armor" and v.armor):
            tdb = (row["db_vehicle"] or 0) + (1 if self.concealed(t) else 0)
            bonus = self._leader_bonus(t) if (g.leader_of or self.xleaders) else 0
            return ((v.armor or 0) + min(tdb, g.const("armored_db_cap")),   # 6.1.6
                    max(2, (v.save or 7) - bonus))                           # 1.3.6: Leader lowers Save
        if tc == "unarmored" and row["code"] in g.woods_codes and g.option("c03_leopard_example") == "as_printed_3d6":
            return 3, g.const("soft_save")     # the 6.1 example's '3d6' read as printed (digest C3)
        db = row["db_infantry"] if tc == "soft" else row["db_vehicle"]
        return (db or 0) + (1 if self.concealed(t) else 0), g.const("soft_save")

    def resolve_hits(self, t: int, hits: int, fp: str, firer: int, apply: bool = True) -> int:
        """Saves, then results; returns the net Hits applied (only computed when ``apply`` is false)."""
        if hits <= 0 or self.strength[t] >= 2:
            return 0
        g = self.game
        h = self.hex[t]
        if h in self.ip:
            hits -= 1                          # 12.1: Improved Positions negate the first Hit
        if self._hero_shield(t):
            hits -= 1                          # 1.3.7: a Hero ignores the first Hit of each attack (option c64)
        if hits <= 0:
            return 0
        n, save = self.defense_dice(t)
        saved = sum(1 for d in self.dice.pool(n, 6, "save") if d >= save) if n else 0
        net = max(0, hits - saved)
        if not apply:
            return net
        ap_armored = fp == "ap" and g.units[firer].is_vehicle
        before = self._snap([t])
        destroyed = self.apply_hits(t, net, ap_armored)
        self._hq_check(h, g.units[t].side, self._hq_trigger(net > 0, [t], before), destroyed)
        return net

    def _snap(self, units) -> tuple:
        return tuple((self.disr[i], self.strength[i]) for i in units)

    def _hq_trigger(self, hit: bool, units, before: tuple) -> bool:
        """1.3.3.2 (option c31): any net Hit, or only when a unit was actually Disrupted, Reduced or destroyed."""
        if self.game.option("c31_hq_trigger") == "disrupt_or_reduce":
            return hit and self._snap(units) != before
        return hit

    def _hero_shield(self, t: int) -> bool:
        """1.3.7: the living Hero of ``t`` ignores this attack's first Hit; option c64 ``once``: only once."""
        g = self.game
        if t not in g.hero_of or ("H", t) in self.hallowed or ("HU", t) in self.hallowed:
            return False
        if g.option("c64_hero_first_hit") == "once":
            self.hallowed.add(("HU", t))
        return True

    def apply_hits(self, t: int, n: int, ap_armored: bool = False) -> bool:
        """WaW 6.1.7 one Hit at a time; True when the unit is destroyed."""
        g = self.game
        spec = g.units[t]
        tc = spec.target_class(self.strength[t])
        for _ in range(n):
            if self.strength[t] >= 2:
                break
            if self.berserk.get(t) == 1:
                self.berserk[t] = 2            # Chaos 6: the first Hit flips Berserk to Insane
                continue
            if self.berserk.get(t) == 2:
                if self.strength[t] == 0 and spec.body.reduced is not None:
                    self._reduce(t)
                else:
                    self._destroy(t)
                continue
            if spec.body.single_strength or spec.is_heli:
                if not self.disr[t]:
                    self._disrupt(t)
                else:
                    self._destroy(t)
            elif tc == "unarmored" and ap_armored and g.option("c04_unarmored_ap_hit") == "reduce_and_disrupt":
                if self.strength[t] == 0:
                    self._disrupt(t)
                    self._reduce(t)
                else:
                    self._destroy(t)
            elif not self.disr[t]:
                self._disrupt(t)
            elif self.strength[t] == 0 and spec.body.reduced is not None:
                self._reduce(t)
            else:
                self._destroy(t)
        return self.strength[t] >= 2

    def _disrupt(self, t: int) -> None:
        if self.game.units[t].is_hq:
            return
        self.disr[t] = True
        for p in self._passengers(t):
            self.disr[p] = True                # 5.2.4

    def _casualty(self, t: int, certain: bool) -> None:
        """1.3.6, 1.3.7: a Leader/Hero dies with its platoon, or on a 1 when it is Reduced; Hallowed Ground."""
        g = self.game
        for key, table in (("L", {**g.leader_of, **self.xleaders}), ("H", g.hero_of)):
            if t in table and (key, t) not in self.hallowed:
                if certain or self.dice.roll(6, "leader") == 1:
                    self.hallowed.add((key, t))
                    if self.hex[t] is not None:
                        self.hallowed.add(("G", self.hex[t], g.units[t].nation))

    def _reduce(self, t: int) -> None:
        self.strength[t] = 1
        self._casualty(t, False)
        for p in self._passengers(t):
            if self.dice.roll(6, "passengers") % 2 == 0:
                self.apply_hits(p, 1)          # 5.2.4 (digest C68: one step)

    def _destroy(self, t: int) -> None:
        g = self.game
        spec = g.units[t]
        h = self.hex[t]
        self._casualty(t, True)
        self.strength[t] = 2
        self.lost[spec.side] += 0 if spec.is_hq else 1
        if not spec.is_hq:
            self._sw_loss(t)
        if (spec.is_vehicle or spec.is_heli or spec.is_hq) and h is not None:
            self.wrecks.add(h)                 # 1.3.4.2, 6.1.7, 9.3: one Wreck per hex
        for p in self._passengers(t):
            self.carrier[p] = -1
            if self.dice.roll(6, "passengers") % 2 == 0:
                self.strength[p] = 2
                self.lost[spec.side] += 1
            else:
                self.disr[p] = True
                if self.strength[p] == 0:
                    self.strength[p] = 1
                else:
                    self.strength[p] = 2
                    self.lost[spec.side] += 1
        self.hex[t] = None

    def _sw_loss(self, t: int) -> None:
        """1.3.5: a platoon destroyed while the side has unplaced SWs: d6 - (infantry platoons lost - 1) <= 1."""
        g = self.game
        spec = g.units[t]
        if spec.is_infantry:
            self.inf_lost[spec.side] += 1
        elif g.option("c62_sw_loss_trigger") == "infantry_only":
            return                             # option c62: only infantry platoons trigger the roll
        unplaced = [h for h in sorted(g.sw_of) if g.units[h].side == spec.side and h not in self.sw_placed
                    and h not in self.sw_lost and h != t and self.strength[h] < 2]
        if not unplaced:
            return
        mod = max(0, self.inf_lost[spec.side] - 1)
        if self.dice.roll(6, "sw-loss") - mod <= 1:
            self.sw_lost.add(unplaced[0])      # the enemy picks which (automated: the first)

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
        hits = self.attack_roll(af, hit, v.assault_augmented)
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
        """WaW 6.3: the attackers (one unit or a stack) enter ``h``; both sides roll; Hits spread 1-each-first."""
        g = self.game
        if isinstance(attackers, int):
            attackers = [attackers]
        side = g.units[attackers[0]].side
        src = self.hex[attackers[0]]
        costs = {a: (self._terrain_cost(a, src, h) or 1.0) for a in attackers}
        defenders = self._ground_enemies_at(h, side)
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
        applied_a = hits_d
        self._distribute(attackers, hits_d, saves)
        d_destroyed = any(self.strength[d] >= 2 for d in defenders)
        self._hq_check(h, 1 - side, self._hq_trigger(applied_d > 0, defenders, d_before), d_destroyed)
        self._hq_check(src, side, self._hq_trigger(hits_d > 0, attackers, a_before),
                       any(self.strength[a] >= 2 for a in attackers))
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
                self.oc[d] = True
        for a in alive:
            self.oc[a] = True
            self.mp_used[a] += costs[a]
        for a in attackers:
            self._after_act(a)

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
        before = (self.disr[u], self.strength[u])
        self.resolve_hits(u, hits_d, "assault", defenders[0] if defenders else u)
        self._after_act(u)
        if self.strength[u] >= 2:
            return
        if (self.disr[u], self.strength[u]) != before:
            self.oc[u] = True                  # returns to the hex it came from
            return
        self._relocate(u, src, x)              # continues through to the exit hex
        self.mp_used[u] += self._terrain_cost(u, h, x) or 1.0
        if self.strength[u] < 2:
            self._open_opfire(u)

    # ------------------------------------------------------------------ artillery (8.0, 8.1)
    def _call(self, caller: int, ai: int, target) -> None:
        g = self.game
        a = g.assets[ai]
        self.missions[ai] -= 1
        self.calls[caller] = self.calls.get(caller, 0) + 1
        side = g.units[caller].side
        h = target
        if self.dice.roll(6, "accuracy") >= g.const("artillery_drift_roll"):
            # drift: the opponent picks an adjacent hex (automated: the one with fewest of his units)
            opts = sorted(g.nbrs[target])
            h = min(opts, key=lambda n: (len(self.units_at(n, 1 - side)) - len(self.units_at(n, side)), n))
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
        """1.3.4.3 / 8.7: enemy hexes out of the unit's LOS but in LOS of a friendly HQ, recon unit or Leader."""
        g = self.game
        spec = g.units[u]
        v = self.values(u)
        spotters = [i for i in self._alive(spec.side) if self.carrier[i] < 0 and (
            g.units[i].is_hq or g.units[i].body.recon or i in g.leader_of) and not self.disr[i]
            and (spec.body.mortar or g.units[i].formation == spec.formation)]
        if not spotters:
            return []
        if spec.cls == "on_map_artillery":
            if v.artillery is None or v.artillery.unlimited is None:
                return []
            reach = 999
        else:
            reach = (v.range or 0) * (1 if v.range_underlined else g.const("extended_range_factor"))
        out = set()
        for e in self._targets(u):
            h = self.hex[e]
            if g.units[e].is_heli or distance(self.hex[u], h) > reach or distance(self.hex[u], h) <= 1:
                continue
            if g.los.clear(self.hex[u], h, self.level(u), g.level.get(h, 0), self.wrecks):
                fixed = v.artillery.fixed if spec.cls == "on_map_artillery" and v.artillery else None
                if fixed is not None and fixed.range is not None and distance(self.hex[u], h) > fixed.range:
                    out.add(h)                 # 8.7 (b): in LOS beyond the fixed range: resolved per 8.1
                continue
            if any(distance(self.hex[sp], h) <= 1 or g.los.clear(self.hex[sp], h, self.level(sp),
                                                                   g.level.get(h, 0), self.wrecks) for sp in spotters):
                out.add(h)
        return sorted(out)

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
        self.artillery_he(h, fp, hit)
        self.oc[u] = True

    def _strike(self, k: int, h) -> None:
        """WaW 9.5: AA interception, then the attack on the hex (target class chosen first, digest C42)."""
        g = self.game
        a, side = g.airstrikes[k]
        if k in self.air_back:
            self.air_back.discard(k)           # Chaos 4: this counter makes only one attack
            self.air_out.add(k)
        if h is None:
            return
        aa = 0
        if (1 - side) in self.cover and g.air_cover_fp[0]:
            self.cover.discard(1 - side)       # 9.6: Air Cover attacks first, then leaves the game
            self.cover.add(("used", 1 - side))
            aa += self.attack_roll(*g.air_cover_fp)
        for e in self._alive(1 - side):
            v = self.values(e)
            if v is None or not v.aa_fp or self.oc[e] or self.disr[e] or self.carrier[e] >= 0:
                continue
            if distance(self.hex[e], h) <= (v.range or 0):
                aa += self.attack_roll(v.aa_fp, v.to_hit.aa or 6)
                self.oc[e] = True
        if aa:
            saved = sum(1 for d in self.dice.pool(a.armor, 6, "save") if d >= a.save)
            net = max(0, aa - saved)
            if net >= 2 or (net == 1 and self.dice.roll(6, "abort") <= g.const("airstrike_abort_roll")):
                self.air_out.add(k)
                return
            if net == 1:
                return                         # aborted; back in the cup next turn
        units = [i for i in self.units_at(h, 1 - side) if not g.units[i].is_hq and not g.units[i].is_heli
                 and self.carrier[i] < 0]
        armored = [i for i in units if g.units[i].target_class(self.strength[i]) in ("afv", "thin")]
        targets, fp = (armored, a.ap_fp) if armored else (units, a.he_fp)
        scored = self.attack_roll(fp, a.to_hit)
        if targets and scored:
            row = g.tec_row(h)
            n = g.const("city_artillery_db") if row["code"] in g.built_up else (row["db_infantry"] or 0)
            saved = sum(1 for d in self.dice.pool(n, 6, "save") if d >= g.const("soft_save")) if n else 0
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

    def artillery_he(self, h, fp: int, hit: int, dpicm: bool = False, nato: bool = True,
                     hits: int | None = None) -> int:
        """WaW 8.1: Hits (rolled, or ``hits`` shared by an MLRS strike), then terrain infantry DB (city: 2)
        saves at 5+; combat vehicles only Disrupted."""
        g = self.game
        units = [i for i in self.units_at(h) if not g.units[i].is_hq and not g.units[i].is_heli
                 and self.carrier[i] < 0]
        if hits is None:
            hits = self.attack_roll(fp, hit)
        if not units or not hits:
            return 0
        row = g.tec_row(h)
        n = g.const("city_artillery_db") if row["code"] in g.built_up else (row["db_infantry"] or 0)
        saved = sum(1 for d in self.dice.pool(n, 6, "save") if d >= g.const("soft_save")) if n else 0
        net = max(0, hits - saved)
        if dpicm:
            units = [i for i in units if g.units[i].is_vehicle]
        base, rem = divmod(net, len(units)) if units else (0, 0)
        pool = list(units)
        extra = {pool.pop(self.dice.randrange(len(pool))) for _ in range(rem)}
        sides_hit = set()
        before = self._snap(units)
        for i in units:
            k = base + (1 if i in extra else 0)
            if not k:
                continue
            sides_hit.add(g.units[i].side)
            tc = g.units[i].target_class(self.strength[i])
            if tc in ("afv", "thin") and not dpicm:
                self._disrupt(i)               # combat vehicles cannot be Reduced by HE fire
            elif dpicm and not (nato or g.option("c18_dpicm") == "all_reduce") or \
                    (dpicm and g.option("c18_dpicm") == "disrupt_only"):
                self._disrupt(i)               # note 2 / digest C18: only NATO DPICM Reduces
            else:
                self.apply_hits(i, k)
        for s in sorted(sides_hit):
            mine = [i for i in units if g.units[i].side == s]
            self._hq_check(h, s, self._hq_trigger(True, mine, tuple(b for i, b in zip(units, before)
                                                                    if g.units[i].side == s)),
                           any(self.strength[i] >= 2 for i in mine))
        return net

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
                if self.oc[i]:
                    self.oc[i] = False
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
            sides = 6 if n <= g.const("chaos_berserk_d6_max") else 10
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

    def _after_opfire(self, ret: int) -> None:
        """Back to the impulse of formation ``ret`` after an Opportunity Fire window, or on with the Chaos 3
        move (``ret`` = -1)."""
        if ret >= 0:
            self.pending = ("ops", ret)
        else:
            self.pending = ("none",)
            self._misc_step()

    def _miscommunication(self, nato: int, alliance: int) -> None:
        """Chaos 3 (choices automated): the Alliance moves the NATO unit nearest to it toward its units under
        the normal movement rules, hex by hex, each hex opening Opportunity Fire (6.2); then it is Ops Complete."""
        g = self.game
        mine = [self.hex[e] for e in self._alive(alliance) if not g.units[e].is_hq]
        cands = [i for i in self._alive(nato) if not g.units[i].is_hq and not g.units[i].is_heli
                 and self.carrier[i] < 0 and (not self.oc[i] or g.option("c45_miscommunication_oc"))]
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
            if self.strength[u] < 2 and any(self._can_opfire(e) and self._fire_types(e, u, "opfire")
                                            for e in self._alive(alliance)):
                self.pending = ("opfire", u, -1)
                return
        self.mp_used[u], self.mp_cap[u], self.one_hex[u], self.locked[u] = saved
        if self.strength[u] < 2:
            self.oc[u] = True
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
            if g.units[u].is_hq or self.carrier[u] >= 0 or self.disr[u] or self.oc[u]:
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
