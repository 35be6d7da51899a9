"""World at War game state: the state record, the Game/State API and the queries every chapter uses.

The rules live in one module per rule chapter, each a mixin of :class:`WawState` (a rule number finds its code
in one hop: ``grep -rn "WaW 6.3" studio/rulesets/waw``):

* ``sequence.py`` - the cup, formation impulses, Marker Removal, the legal actions of an impulse (3.0-4.4);
* ``command.py`` - HQs, Leaders, Heroes, Morale, command and rally (1.3.3, 1.3.6, 1.3.7, 1.6, 4.2, 4.3);
* ``movement.py`` - movement, transport, water, mines (5.0-5.3, 12.2);
* ``fire.py`` - ranged combat, Opportunity Fire, LOS in play, results, SWs, snipers, Volley Fire (6.1, 6.2, 7.0);
* ``assault.py`` - Assault and Overrun (6.3, 6.4);
* ``artillery.py`` - artillery calls and missions, mortars, on-map artillery (8.0-8.7);
* ``air.py`` - Pop-Up, airstrikes, Air Cover, jamming (9.2.1, 9.5, 9.6, 10.0);
* ``events.py`` - Battlefield Chaos (11.0).

Sequence (WaW 3.0): each turn the cup holds the formation markers (1 or 2 per formation), the End Turn markers
and any Chaos! marker. Markers are drawn at random (seeded); a formation marker gives its owner the choice to
activate the formation or set it aside (``skip``, digest C13). A formation impulse (4.0) runs housekeeping,
command and rally automatically, then the owner acts unit by unit until ``end``. Every hex a unit enters opens an
Opportunity Fire window (6.2) for the other side when some unit of it could fire at the mover.

Choices the rules give to a player but that this engine makes automatically (documented in COVERAGE.md): the
defender's retreat hex, the opponent's drift hex for artillery, the HQ restore hex, and the targets of Chaos
results; Hit distribution remainders are random as the rules say.
"""
from __future__ import annotations

import random
from functools import partial
from contextlib import contextmanager

from studio.rules.api import TERMINAL, LogEntry, Outcome, RulesError, State
from studio.rules.dice import Dice, LazyDice, text_seed

from .actions import Action
from .air import AirRules
from .artillery import ArtilleryRules
from .cache import ListingCache, build_occupancy
from .assault import AssaultRules
from .command import CommandRules
from .events import EventRules
from .fire import FireRules
from .movement import INF, MovementRules
from .sequence import SequenceRules


class WawState(SequenceRules, CommandRules, MovementRules, FireRules, AssaultRules, ArtilleryRules, AirRules,
               EventRules, State):
    """The state record: per-unit lists indexed like ``game.units`` and the markers of the game (named slots)."""

    __slots__ = ("game", "dice", "turn", "cup", "et_drawn", "held", "held_marker", "activated", "pending",
                 "hex", "strength", "disr", "ops_complete", "out_of_command", "mp_used", "mp_cap", "mfired", "depleted",
                 "carrier",
                 "hover", "mode_changed", "heli_moves", "acted", "breakdown", "fresh", "locked", "one_hex",
                 "lead_used", "calls", "missions", "wrecks", "smoke", "control", "lost", "thor", "comms",
                 "impulse_first", "overrun_done", "log", "steps", "entered_f", "reason", "mines", "_occ",
                 "chem", "jammed", "hallowed", "air_out", "air_back", "hand", "xleaders", "berserk",
                 "sw_placed", "sw_lost", "inf_lost", "snipers", "cover", "drill", "misc", "ip", "_lc", "events")

    # ------------------------------------------------------------------ construction
    @classmethod
    def initial(cls, game, seed: int) -> "WawState":
        s = cls.__new__(cls)
        s.game = game
        s.dice = Dice(seed, record=False)      # batch play records nothing; the replay walk and test-play set it
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
        s.ops_complete = [False] * n
        s.out_of_command = [False] * n
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
        s._lc = ListingCache()
        s.events = []                          # narration (only while dice.record; COMMON narration contract)
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
        for name in ("hex", "strength", "disr", "ops_complete", "out_of_command", "mp_used", "mp_cap", "mfired",
                     "depleted", "carrier",
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
        s._lc = ListingCache()
        s.events = []
        return s

    #: slots fingerprint() leaves out on purpose (the conformance check perturbs every other one)
    DERIVED_SLOTS = {"_occ": "occupancy cache, rebuilt from hex/strength while legal actions are listed",
                     "log": "the record of what happened, not what happens next",
                     "steps": "count of actions applied (numbering for logs)",
                     "_lc": "legal-action lists per unit, checked against the unit signatures at every listing",
                     "events": "narration of rolls and results for the replay viewer (only while dice.record)"}

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
        from the visible position (never the real dice, so neither the view nor its clone predicts a roll).

        The view shares the state's listing cache too: it reads the same unit lists, and the cache checks every
        unit's signature and the global one at each use, so a view kept after the state moved on only causes
        recomputation (cache.py)."""
        view = WawState.__new__(WawState)
        for name in self.__slots__:
            setattr(view, name, getattr(self, name))
        view._occ = None
        view.events = []                       # no narration in a view
        view.dice = LazyDice(partial(text_seed, f"{self.turn}|{self.steps}|{self.pending}|{len(self.cup)}"))
        return view

    def scramble_hidden(self, player: int, seed: int) -> "WawState":
        """A clone whose hidden parts (the dice: seed and forced rolls) are randomized."""
        rng = random.Random(seed)
        other = self.clone()
        other.dice = Dice(rng.randrange(1 << 30), record=False)   # a bot's guess: nothing narrated
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
        lc = self._lc
        self._occ = lc.refresh(self) if lc is not None else self._occupancy()
        try:
            if p[0] in ("opfire", "popup"):
                mover = p[1]
                target = g.units[mover].uid
                return [Action("pass")] + [Action("opfire", g.units[u].uid, target, fp)
                                           for u, fps in self._opfire_shots(mover) for fp in fps]
            if lc is not None:
                lc.live = True
            return self._ops_actions(p[1])
        finally:
            self._occ = None
            if lc is not None:
                lc.live = False

    def legal_actions_uncached(self) -> list[Action]:
        """The legal actions computed from scratch (the reference the listing cache is tested against)."""
        lc, self._lc = self._lc, None
        try:
            return self.legal_actions()
        finally:
            self._lc = lc

    # ------------------------------------------------------------------ public queries (bots, tools)
    def targets_of(self, u: int) -> list[int]:
        """The enemy units ``u`` may pick as a target (not HQs, carried units, SWs, snipers, Leaders, Heroes)."""
        return self._targets(u)

    def ground_enemies_at(self, h, side: int) -> list[int]:
        """Enemy ground units of ``side`` in hex ``h`` that an Assault or Overrun would meet."""
        return self._ground_enemies_at(h, side)

    @contextmanager
    def cached(self):
        """Cache the occupancy of hexes while the state is only read (a bot deciding)."""
        lc = self._lc
        self._occ = lc.refresh(self) if lc is not None else self._occupancy()
        try:
            yield self
        finally:
            self._occ = None

    def _occupancy(self) -> dict:
        """The per-hex occupancy while listing or deciding (``cache.build_occupancy``)."""
        return build_occupancy(self)

    def apply(self, action: Action) -> None:
        """Apply a legal action (``_do_<kind>``), log it with its dice, then draw on until a decision."""
        mark = len(self.dice.history)
        pending = self.pending
        player = self.current_player()
        handler = getattr(self, f"_do_{action.kind}", None)
        if handler is None:
            raise RulesError(f"unknown action '{action}'")
        handler(action, pending)
        self.steps += 1
        self.log.append(LogEntry(self.turn, pending[0], player, str(action), self.dice.history[mark:]))
        self._advance()

    # ------------------------------------------------------------------ one handler per action kind
    def _do_activate(self, action: Action, pending) -> None:
        self._activate(pending[1])

    def _do_skip(self, action: Action, pending) -> None:
        if self.game.option("c13_skip_marker") == "back_to_cup" and any(m[0] == "E" for m in self.cup):
            self.cup.append(("F", pending[1]))     # 3.1 (option c13): the marker may be drawn again
        self.pending = ("none",)

    def _do_end(self, action: Action, pending) -> None:
        self._end_impulse(pending[1])

    def _do_move(self, action: Action, pending) -> None:
        self._move(self.game.by_uid[action.unit], self.game.map.hex_of[action.hex])

    def _do_fire(self, action: Action, pending) -> None:
        g = self.game
        u = g.by_uid[action.unit]
        mode = "moving" if self.mp_used[u] > 0 and not g.units[u].is_heli else "normal"
        self._fire(u, g.by_uid[action.target], action.fire, mode)
        self._after_act(u)

    def _do_popup(self, action: Action, pending) -> None:
        g = self.game
        u, t = g.by_uid[action.unit], g.by_uid[action.target]
        self.pending = ("popup", u, t, action.fire, pending[1])
        if not self._opfire_shots(u, first=True):
            self._popup_resolve(None)

    def _do_opfire(self, action: Action, pending) -> None:
        g = self.game
        if pending[0] == "popup":
            self._popup_resolve((g.by_uid[action.unit], action.fire))
            return
        u, t = g.by_uid[action.unit], g.by_uid[action.target]
        before = (self.disr[t], self.strength[t])
        self._fire(u, t, action.fire, "opfire")
        if (self.disr[t], self.strength[t]) != before:
            self.mp_used[t] = INF              # a unit that becomes Disrupted or Reduced must stop (6.2)
        self._after_opfire(pending[2])

    def _do_pass(self, action: Action, pending) -> None:
        if pending[0] == "popup":
            self._popup_resolve(None)
        else:
            self._after_opfire(pending[2])

    def _do_assault(self, action: Action, pending) -> None:
        g = self.game
        self._assault([g.by_uid[x] for x in action.unit.split("+")], g.map.hex_of[action.hex])

    def _do_overrun(self, action: Action, pending) -> None:
        g = self.game
        self._overrun(g.by_uid[action.unit], g.map.hex_of[action.hex], g.map.hex_of[action.exit])

    def _do_load(self, action: Action, pending) -> None:
        self._load(self.game.by_uid[action.unit], self.game.by_uid[action.carrier])

    def _do_unload(self, action: Action, pending) -> None:
        self._unload(self.game.by_uid[action.unit])

    def _do_call(self, action: Action, pending) -> None:
        g = self.game
        self._call(g.by_uid[action.unit], [a.id for a in g.assets].index(action.asset), g.map.hex_of[action.hex])

    def _do_strike(self, action: Action, pending) -> None:
        self._strike(pending[1], None if action.hex == "none" else self.game.map.hex_of[action.hex])
        self.pending = ("none",)

    def _do_indirect(self, action: Action, pending) -> None:
        self._indirect(self.game.by_uid[action.unit], self.game.map.hex_of[action.hex])
        self._after_act(self.game.by_uid[action.unit])

    def _do_volley(self, action: Action, pending) -> None:
        g = self.game
        self._volley(g.by_uid[action.unit], [g.by_uid[x] for x in action.supports.split("+")], g.by_uid[action.target])

    def _do_cover(self, action: Action, pending) -> None:
        self._air_cover_attack(self.game.by_uid[action.target])

    def _do_snipe(self, action: Action, pending) -> None:
        self._snipe(int(action.unit[6:]) - 1, self.game.by_uid[action.target])

    def _do_mode(self, action: Action, pending) -> None:
        u = self.game.by_uid[action.unit]
        self.hover[u] = not self.hover[u]      # 9.1: Flying <-> Hovering, once, as the first action
        self.mode_changed[u] = True
        self.acted[u] = True
        self.impulse_first = False

    def explain_illegal(self, action) -> RulesError:
        g = self.game
        k = getattr(action, "kind", "")
        p = self.pending
        if p[0] == "decide" and k not in ("activate", "skip"):
            return RulesError("a drawn formation marker must first be activated or set aside", "WaW 3.1")
        if p[0] == "opfire" and k not in ("opfire", "pass"):
            return RulesError("the other side may make Opportunity Fire at the moving unit first", "WaW 6.2")
        if k in ("move", "fire", "assault") and action.unit in g.by_uid:
            u = g.by_uid[action.unit]
            if p[0] == "ops" and g.units[u].formation != p[1]:
                return RulesError(f"{action.unit} is not in the active formation", "WaW 4.0")
            if self.out_of_command[u]:
                return RulesError(f"{action.unit} is Out of Command: it may not move or fire", "WaW 4.2")
            if self.ops_complete[u]:
                return RulesError(f"{action.unit} is Ops Complete", "WaW 5.0, 6.1")
            if k == "fire" and self.disr[u]:
                return RulesError(f"{action.unit} is Disrupted and cannot fire", "WaW 6.1.7")
            if k == "fire" and self.mp_used[u] > 0:
                return RulesError(f"{action.unit} has moved: only Moving Fire within half its MP", "WaW 6.1.3")
            if k == "fire":
                return RulesError(f"{action.target} is not a legal target (range, LOS or Targeting Table)",
                                  "WaW 6.1, 7.0, Targeting Table")
            if k == "move":
                return RulesError(f"{action.unit} cannot enter {action.hex} (MP, stacking, enemy or terrain)",
                                  "WaW 5.0, 1.4")
        return RulesError(f"'{action}' is not a legal action now")

    def fingerprint(self) -> str:
        g = self.game
        parts = [f"t{self.turn}", f"p{self.pending}", f"cup{self.cup}", f"et{self.et_drawn}",
                 f"h{sorted(map(sorted, self.held))}{self.held_marker}", f"a{sorted(self.activated)}",
                 f"w{sorted(self.wrecks)}", f"c{sorted(self.control.items())}", f"l{self.lost}",
                 f"m{self.missions}", f"th{self.thor}{self.comms}", f"s{sorted(self.smoke.items())}",
                 f"mi{sorted(self.mines)}",
                 f"lu{sorted(self.lead_used)}", f"ca{sorted(self.calls.items())}", f"if{self.impulse_first}",
                 f"ov{sorted(self.overrun_done)}", f"ef{sorted(self.entered_f)}", f"ch{sorted(self.chem)}",
                 f"j{sorted(self.jammed.items())}", f"hg{sorted(self.hallowed)}", f"ai{sorted(self.air_out)}"
                 f"{sorted(self.air_back)}", f"hd{sorted(self.hand)}", f"xl{sorted(self.xleaders)}",
                 f"bz{sorted(self.berserk.items())}", f"sw{sorted(self.sw_placed)}{sorted(self.sw_lost)}"
                 f"{self.inf_lost}", f"sn{self.snipers}", f"cv{sorted(map(repr, self.cover))}", f"dr{self.drill}",
                 f"mc{self.misc}", f"r{self.reason}", f"ip{sorted(self.ip)}",
                 self.dice.fingerprint()]
        for i in range(len(g.units)):
            parts.append(f"{i}:{self.hex[i]}:{self.strength[i]}{self.disr[i]:d}{self.ops_complete[i]:d}"
                         f"{self.out_of_command[i]:d}"
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
        """The living units on the map (of ``side``), in unit order (kept in the occupancy while listing)."""
        occ = self._occ
        if occ is None:
            return self._alive_scan(side)
        key = ("alive", side)
        hit = occ.get(key)
        if hit is None:
            hit = occ[key] = self._alive_scan(side)
        return list(hit)

    def _alive_scan(self, side: int | None) -> list[int]:
        hx, st = self.hex, self.strength
        units = range(len(hx)) if side is None else self.game.units_of_side[side]
        return [i for i in units if st[i] < 2 and hx[i] is not None]

    def units_at(self, h, side: int | None = None) -> list[int]:
        g = self.game
        occ = self._occ
        if occ is not None:
            return list(occ.get(h if side is None else (h, side), ()))
        return [i for i in range(len(g.units)) if self.hex[i] == h and self.strength[i] < 2
                and (side is None or g.units[i].side == side)]

    def _has_units(self, h, side: int) -> bool:
        """Does hex ``h`` hold a (living) unit of ``side``?"""
        occ = self._occ
        if occ is not None:
            return (h, side) in occ
        return bool(self.units_at(h, side))

    def _ground_enemies_at(self, h, side: int) -> list[int]:
        g = self.game
        return [i for i in self.units_at(h, 1 - side) if not g.units[i].is_heli and not g.units[i].is_hq
                and self.carrier[i] < 0]

    def _stack_count(self, h, side: int) -> int:
        """Units of ``side`` in ``h`` that count for stacking (1.4: not carried, helicopters, HQs, SWs, snipers,
        Leaders or Heroes)."""
        occ = self._occ
        if occ is not None:
            return occ.get(("s", h, side), 0)
        flags = self.game.stacking_unit
        return sum(1 for i in self.units_at(h, side) if self.carrier[i] < 0 and flags[i])

    def _ground_enemy_near(self, h, side: int) -> bool:
        """Does a hex next to ``h`` hold an enemy ground unit of ``side``'s enemy (what 6.3 and 6.4 meet)?"""
        occ = self._occ
        if occ is not None:                    # the enemy's hexes with ground units (cache.build_occupancy)
            return not self.game.nbr_set[h].isdisjoint(occ[("G", 1 - side)])
        return any(self._ground_enemies_at(n, side) for n in self.game.nbrs[h])

    def values(self, i: int):
        return self.game.vals[i][min(self.strength[i], 1)][self.hover[i]]

    def level(self, i: int) -> int:
        if self.game.units[i].is_heli:
            return 1
        return self.game.level.get(self.hex[i], 0)

    def _passengers(self, c: int) -> list[int]:
        """The living units carried by ``c`` (5.2), in unit order."""
        carrier = self.carrier
        if c not in carrier:
            return []
        return [i for i, x in enumerate(carrier) if x == c and self.strength[i] < 2]

    def _targets(self, u: int) -> list[int]:
        g = self.game
        side = g.units[u].side
        occ = self._occ
        if occ is not None:
            hit = occ.get(("targets", side))
            if hit is None:
                hit = occ[("targets", side)] = self._targets_of_side(side)
            return list(hit)
        return self._targets_of_side(side)

    def _targets_of_side(self, side: int) -> list[int]:
        g = self.game
        return [t for t in self._alive(1 - side) if not g.units[t].is_hq and self.carrier[t] < 0
                and g.units[t].cls not in ("support_weapon", "sniper", "leader", "hero")]
