"""Fixed-wing aircraft (MBT 6.7.1-6.7.3) and AA fire at them (6.7.8), in the Air Phases of the Advanced Game.

A side's aircraft (scenario extension ``aircraft``: card, count, loads, PGM fits, first/last turn) fly one at a
time, before its helicopters, in either Air Phase, at most once a turn, for the loiter limit (5 turns from the
first appearance, +3 per Drop Tank load, 6.7.2.1). Actions of the owning side::

    sortie A-10A-1 slow low          announce speed and altitude (6.7.2.2); ``pass`` = no more sorties this phase
    arrive A-10A-1 2A5 SE            the entry hex on an allowed edge (any edge, or last turn's exit edge) + facing
    wing A-10A-1 ahead|left|right    one hex straight ahead; Slow aircraft may turn one hexside once (6.7.2.3.1)
    attack A-10A-1 strafe|LOAD T     an attack on an acquired target (6.7.3): pattern from the hex in front

Acquisition (6.7.3.1.1): a target counts the hexes flown with it continuously in the Front 60 (Crew 2: 120) field
of fire and in the aircraft's LOS (6.7.3.1.3: blocked within 1 + (obstacle height - base) hexes of an obstacle);
the requirement is the Acquire column by speed and altitude (Crew 2 half, Suppressed double, limited visibility
x|m| for m <= -2); targets in view within the requirement of the entry hex are acquired on entry. Targets in
woods or buildings need a friendly FO on Overwatch that spots them (6.7.3.1.2). After an attack every count
restarts (one acquired target at a time).

AA (6.7.8): after each hex flown and each attack, enemy AA units on Overwatch that tracked the aircraft (Track
column; active radar half, at least 2; SAM double, radar SAM half; Suppressed double; MT SAMs only from the
aircraft's rear 120) and have it in range and field of fire may fire (``ow Z at A-10A-1 guns:HEI``) or ``pass``;
one AA shot per unit per turn. GP fire at the aircraft's GP Defense with the card AA modifier and the
aa-modifiers rows; Suppressed, Damaged (5s and 10s; Slow from now on; a second damage eliminates), shot down
(crash roll (10) hexes ahead, halved at Low; GP 15 at every ground unit there). ECM Pods spoof Effective
results of SAMs with a CM rating and of radar-tracked guns (option ``aa-radar-gun-spoofing``).

Readings: AA radars are all optical or all active (option ``aa-radar-state``: the 6.8.2 visualization step is not
modelled); the sign of the Fast Speed attack modifier is option ``fw-fast-speed-sign`` (Z1); the bomb patterns are
table ``fw-bomb-patterns`` (placeholder: the diagrams are not in the text); FASCAM loads are dropped only with
Optional Rule 7.31 (Mines) in force: a FASCAM minefield on their pattern (``lay_fascam``, 6.7.3.6); a Suppressed
aircraft recovers at the end of the turn.
"""
from __future__ import annotations

import random

from studio.hexgrid.coords import FLAT_DIRECTION_NAMES as FACINGS, distance, neighbour
from studio.hexgrid.facing import in_arc

from .actions import Action
from .air_data import LOAD_ALTITUDES, row_profile
from .codes import MFIRE, MOVE, ON, OW, SH

FW_VERBS = ("sortie", "arrive", "wing", "attack")
#: bomb kinds that may scatter (Optional Rule 7.26.2), by ``opt_scatter.fw_scatter``'s load names
SCATTER_KINDS = {"bomb": "iron", "cluster_bomb": "cluster", "incendiary_bomb": "incendiary", "FASCAM": "FASCAM"}
TRACKED = 99            # hexes credited to an aircraft or AA track that is complete at once (6.7.3.1.1, 6.7.8.1.1)


class FwState:
    """The fixed-wing part of the state, per aircraft: first appearance turn, last turn flown, exit edge of the
    last flight, Damaged, Suppressed, eliminated, attacks left (strafe first, then each load); and the flight in
    progress: aircraft ``k`` (-1 none), hex (None before it arrives), facing, speed, altitude, turned,
    acquisition counts (target -> hexes), AA tracks (unit -> hexes; MT SAMs in ``rear``), AA shots ``pending``,
    the AA results of this flight (``aa_log``: hex, result) and the sides done for this Air Phase."""

    __slots__ = ("first", "last", "exit", "dmg", "sup", "dead", "ammo", "done", "k", "hex", "face", "speed",
                 "alt", "turned", "acq", "track", "rear", "pending", "aa_log", "aa_fired", "aa_shot", "fo")

    def __init__(self, aircraft: list) -> None:
        n = len(aircraft)
        self.first, self.last, self.exit = [0] * n, [0] * n, [""] * n
        self.dmg, self.sup, self.dead = [False] * n, [False] * n, [False] * n
        self.ammo = [[a.strafe_attacks] + [x.attacks for x in a.loads] for a in aircraft]
        self.done = [False, False]
        self.aa_fired: list[int] = []
        self.aa_shot = None     # (AA unit, row key) of the AA shot at a helicopter being resolved
        self.fo: dict = {}      # FO -> the target it spots for aircraft this turn (MBT 6.7.3.1.2)
        self._land()

    def _land(self) -> None:
        self.k, self.hex, self.face, self.speed, self.alt, self.turned = -1, None, 0, "", "", False
        self.acq: dict = {}
        self.track: dict = {}
        self.rear: dict = {}
        self.pending: list = []
        self.aa_log: list = []

    def copy(self) -> "FwState":
        o = FwState.__new__(FwState)
        o.first, o.last, o.exit = self.first[:], self.last[:], self.exit[:]
        o.dmg, o.sup, o.dead = self.dmg[:], self.sup[:], self.dead[:]
        o.ammo = [a[:] for a in self.ammo]
        o.done, o.aa_fired = self.done[:], self.aa_fired[:]
        o.k, o.hex, o.face, o.speed, o.alt, o.turned = self.k, self.hex, self.face, self.speed, self.alt, self.turned
        o.acq, o.track, o.rear = dict(self.acq), dict(self.track), dict(self.rear)
        o.pending, o.aa_log, o.aa_shot, o.fo = self.pending[:], self.aa_log[:], self.aa_shot, dict(self.fo)
        return o

    def key(self) -> str:
        return (f"{self.first}{self.last}{self.exit}{self.dmg}{self.sup}{self.dead}{self.ammo}{self.done}"
                f"{self.aa_fired}|{self.k}{self.hex}{self.face}{self.speed}{self.alt}{self.turned}"
                f"{sorted(self.acq.items())}{sorted(self.track.items())}{sorted(self.rear.items())}"
                f"{[(s, r.key) for s, r in self.pending]}{self.aa_log}{self.aa_shot}{sorted(self.fo.items())}")


class FixedWingRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState` (state in the slot ``fw``)."""

    __slots__ = ()

    # ---------------------------------------------------------------- availability (MBT 6.7.2.1)
    def fw_loiter(self, k: int) -> int:
        """Turns an aircraft may loiter from its first appearance: 5, +3 per Drop Tank load (MBT 6.7.2.1)."""
        v = self.game.air.values
        return v["loiter-turns"] + v["loiter-per-drop-tank"] * self.game.aircraft[k].drop_tanks

    def fw_available(self, k: int) -> bool:
        """May aircraft ``k`` fly now: alive, not flown this turn, inside the scenario's turns and its loiter
        limit (skipped turns count, MBT 6.7.2.1)."""
        a, f = self.game.aircraft[k], self.fw
        if f.dead[k] or f.last[k] == self.turn or self.turn < a.first_turn:
            return False
        if a.last_turn is not None and self.turn > a.last_turn:
            return False
        return not f.first[k] or self.turn < f.first[k] + self.fw_loiter(k)

    def fw_sorties(self, side: int) -> list[int]:
        return [k for k, a in enumerate(self.game.aircraft) if a.side == side and self.fw_available(k)]

    def fw_wants(self, side: int) -> bool:
        """Does the fixed-wing part of the Air Phase need a decision now (sets ``cp``)?"""
        f = self.fw
        if f.pending:
            self.cp = 1 - self.game.aircraft[f.k].side
            return True
        if f.k >= 0:
            self.cp = self.game.aircraft[f.k].side
            return True
        if not f.done[side] and self.fw_sorties(side):
            self.cp = side
            return True
        return False

    def fw_phase_start(self) -> None:
        self.fw.done = [False, False]

    def fw_end_turn(self) -> None:
        """A Suppressed aircraft recovers at the end of the turn; AA shots are counted per turn (MBT 6.7.8.1.1)."""
        self.fw.sup = [False] * len(self.fw.sup)
        self.fw.aa_fired, self.fw.fo = [], {}

    # ---------------------------------------------------------------- actions
    def fw_actions(self) -> list[Action]:
        f, g = self.fw, self.game
        if f.pending:
            name = g.aircraft[f.k].name
            return [Action(("ow", g.units[s].name, name, row.key)) for s, row in f.pending] + [Action(("pass",))]
        if f.k < 0:
            out = []
            for k in self.fw_sorties(self.cp):
                a = g.aircraft[k]
                alts = [x for x in a.altitudes]
                speeds = ["slow"] if f.dmg[k] else list(a.speeds)
                out += [Action(("sortie", a.name, s, x)) for s in speeds for x in alts]
            return out + [Action(("pass",))]
        name = g.aircraft[f.k].name
        if f.hex is None:
            return [Action(("arrive", name, g.label(h), FACINGS[d])) for h, d in self.fw_entries(f.k)]
        out = [Action(("attack", name, key, g.units[t].name)) for key, t in self.fw_attacks()]
        out += [Action(("wing", name, w)) for w in self.fw_turns()]
        return out

    def fw_entries(self, k: int) -> list[tuple]:
        """Entry hexes and facings (MBT 6.7.2.1): any map edge, or last turn's exit edge if it flew last turn; the
        facing must lead onto the map."""
        g, f = self.game, self.fw
        edge = f.exit[k] if f.last[k] and f.last[k] == self.turn - 1 and f.exit[k] else None
        out = []
        for h in g.hexes:
            edges = g.edges.get(h)
            if not edges or (edge is not None and edge not in edges):
                continue
            for d in range(6):
                nxt = neighbour(h, d)
                if nxt in g.map.label_of and not g.edges.get(nxt, set()) >= edges:
                    out.append((h, d))
        return out

    def fw_turns(self) -> list[str]:
        f = self.fw
        out = ["ahead"]
        if f.speed == "slow" and not f.turned:  # MBT 6.7.2.3.1: one single-hexside turn at Slow speed
            out += ["left", "right"]
        return out

    def apply_fw(self, action) -> None:
        g, f = self.game, self.fw
        verb = action[0]
        if f.pending:
            if verb == "ow":
                s = g.uindex[action[1]]
                row = next(r for r in g.units[s].type.ap if r.key == action[3])
                self.fw_aa_fire(s, row)
            else:
                f.pending = []
            return
        if verb == "pass":
            f.done[self.cp] = True
            return
        if verb == "sortie":
            k = next(k for k, a in enumerate(g.aircraft) if a.name == action[1])
            f.k, f.speed, f.alt = k, action[2], action[3]
            if not f.first[k]:
                f.first[k] = self.turn
            f.last[k] = self.turn
            self.narrate(f"{action[1]} flies at {f.speed.capitalize()} speed, {f.alt.capitalize()} altitude")
            return
        if verb == "arrive":
            f.hex, f.face = g.map.hex(action[2]), FACINGS.index(action[3])
            self.narrate(f"{action[1]} enters at {action[2]} heading {action[3]}")
            self._fw_look(entry=True)
            self._fw_aa_update(entry=True)
            return
        if verb == "wing":
            self._fw_wing(action[2])
            return
        self.fw_attack(action[2], g.uindex[action[3]])

    # ---------------------------------------------------------------- flight (MBT 6.7.2.3)
    def _fw_wing(self, way: str) -> None:
        g, f = self.game, self.fw
        if way != "ahead":
            f.face = (f.face + (1 if way == "right" else -1)) % 6
            f.turned = True
        nxt = neighbour(f.hex, f.face)
        if nxt not in g.map.label_of or (f.alt == "low" and self._low_heli_in(nxt)):
            self._fw_exit()
            return
        f.hex = nxt
        self._fw_look()
        self._fw_aa_update()

    def _low_heli_in(self, h) -> bool:
        """A Low aircraft may not enter a hex with a Low helicopter (MBT 6.7.2.3); it leaves the map instead."""
        return any(self.st[j] == ON and self.hex[j] == h and self.is_heli(j) and self.heli_alt[j] == "low"
                   for j in range(self.game.n))

    def _fw_exit(self) -> None:
        g, f = self.game, self.fw
        edges = sorted(g.edges.get(f.hex) or ())
        f.exit[f.k] = edges[0] if edges else ""
        self.narrate(f"{g.aircraft[f.k].name} leaves the map at {g.label(f.hex)}")
        f._land()

    # ---------------------------------------------------------------- spotting and acquisition (MBT 6.7.3.1)
    def air_los(self, alt: str, h) -> bool:
        """Aircraft LOS to a ground hex (MBT 6.7.3.1.3): blocked when ``h`` is within 1 + (top - base) hexes of an
        obstacle whose terrain top reaches the altitude's base height (its own hex excepted)."""
        g = self.game
        cache = g.__dict__.setdefault("_air_los", {})
        key = (alt, h)
        if key not in cache:
            base = g.air.los_base[alt]
            tops = g.los.terrain_top
            cache[key] = not any(0 < distance(o, h) <= 1 + top - base for o, top in tops.items() if top >= base)
        return cache[key]

    def fw_requirement(self, k: int) -> int:
        """Hexes to acquire (MBT 6.7.3.1.1, 6.7.3.1.4): Acquire by speed and altitude; Crew 2 half; limited
        visibility m <= -2 times |m|; Suppressed double."""
        g, f = self.game, self.fw
        req = g.air.spotting[(f.speed, f.alt)][0]
        if g.aircraft[k].crew == 2:
            req //= 2
        m = g.turn_spot_mod.get(self.turn, 0)
        if m <= -2:
            req *= -m
        return req * (2 if f.sup[k] else 1)

    def _fw_in_view(self, t: int) -> bool:
        g, f = self.game, self.fw
        arc = 120 if g.aircraft[f.k].crew == 2 else 60
        h = self.hex[t]
        return h != f.hex and in_arc(f.hex, f.face, h, arc) and self.air_los(f.alt, h)

    def _fw_targets(self) -> list[int]:
        """Enemy ground units the aircraft may acquire: on the map, not helicopters, in view; in woods or a
        building only with an FO spotting it (MBT 6.7.3.1.1-2)."""
        g = self.game
        side = g.aircraft[self.fw.k].side
        out = []
        for t in g.enemies_of(side):
            if self.st[t] != ON or self.is_heli(t) or not self._fw_in_view(t):
                continue
            if self.hex[t] in g.los.blocking and not self.fw_fo_spots(side, t):
                continue
            out.append(t)
        return out

    def fw_fo_spots(self, side: int, t: int) -> bool:
        return self.fw_spotter(side, t) >= 0

    def fw_spotter(self, side: int, t: int) -> int:
        """A friendly FO that spots ``t`` for aircraft (MBT 6.7.3.1.2, 6.7.7): an observer helicopter, or a ground
        FO with an Overwatch command that has neither fired nor observed for indirect fire, unless it already
        spots this very target for aircraft (one FO serves many aircraft for one target); -1 none."""
        g, fo = self.game, self.fw.fo
        for o in g.units_of(side):
            if self.st[o] != ON or "fo" not in g.units[o].type.ag.labels or self.radio_damaged(o):
                continue  # a damaged radio may not observe for aircraft (optional rule 7.23.5.3)
            free = fo.get(o) == t or (o not in self.observed and o not in fo and
                                      (self.is_heli(o) or (self.cmd[o] == OW and not self.fired[o])))
            if free and distance(self.hex[o], self.hex[t]) <= self.spot_range(t) and \
                    self.sight_clear(o, t):  # the line of sight (INB hedgerows aside, optional rule 7.10)
                return o
        return -1

    def _fw_look(self, entry: bool = False) -> None:
        """Count one hex of flight for every target in view; a break in view restarts its count. On entry the
        off-map approach counts: targets within the requirement of the entry hex are acquired (6.7.3.1.1)."""
        f = self.fw
        req = self.fw_requirement(f.k)
        seen = self._fw_targets()
        acq = {}
        for t in seen:
            if entry:
                acq[t] = TRACKED if distance(f.hex, self.hex[t]) < req else 0
            else:
                acq[t] = f.acq.get(t, 0) + 1
        f.acq = acq

    def _use_spotter(self, side: int, t: int) -> None:
        """The FO that spotted the target has used its Overwatch: no other Overwatch action and no indirect-fire
        observation this turn (MBT 6.7.3.1.2)."""
        o = self.fw_spotter(side, t)
        if o < 0 or self.fw.fo.get(o) == t:
            return
        self.fw.fo[o] = t
        if not self.is_heli(o):
            self.fired[o] = True
        self.narrate(f"{self.game.units[o].name} spots {self.game.units[t].name} for the aircraft")

    def fw_acquired(self) -> list[int]:
        req = self.fw_requirement(self.fw.k)
        return [t for t, n in self.fw.acq.items() if n >= req and self.st[t] == ON]

    # ---------------------------------------------------------------- attacks (MBT 6.7.3.2-6.7.3.7)
    def _ammo_slots(self):
        """(slot, key, kind) of the loads with attacks left; slot 0 is the strafe."""
        f, a = self.fw, self.game.aircraft[self.fw.k]
        if f.ammo[f.k][0] > 0:
            yield 0, "strafe", "strafe"
        seen = set()
        for j, x in enumerate(a.loads, start=1):
            fascam = x.kind == "FASCAM" and self.game.optional_on("mines")  # MBT 6.7.3.6 with optional rule 7.31
            if f.ammo[f.k][j] > 0 and x.key not in seen and ((x.gp and x.kind != "FASCAM") or fascam):
                seen.add(x.key)
                yield j, x.key, x.kind

    def fw_attacks(self) -> list[tuple[str, int]]:
        """(load key, target) of the attacks possible now: strafe and bombs on an acquired target in the hex in
        front, rockets straight ahead at 6-30/40, PGMs anywhere in the field of fire at the stand-off range, ARMs at
        enemy AA units with active radar (no acquisition)."""
        f, g = self.fw, self.game
        acquired = self.fw_acquired()
        out = []
        front = neighbour(f.hex, f.face)
        for j, key, kind in self._ammo_slots():
            if kind == "ARM":
                out += [(key, t) for t in self._arm_targets()]
                continue
            if kind != "strafe" and f.alt not in LOAD_ALTITUDES[kind] and not (self._load(j).pgm and f.alt != "low"):
                continue
            if kind == "strafe" and f.alt != "low":
                continue  # MBT 6.7.3.2: strafing from Low altitude only
            for t in acquired:
                if self._fw_can_hit(j, kind, t, front):
                    out.append((key, t))
        return out

    def _load(self, j: int):
        return self.game.aircraft[self.fw.k].loads[j - 1]

    def _fw_can_hit(self, j: int, kind: str, t: int, front) -> bool:
        f, v = self.fw, self.game.air.values
        h = self.hex[t]
        if kind == "rockets":  # MBT 6.7.3.4: FOF 0, range 6-30 or 6-40
            lo, hi = self._load(j).rng or (6, 30)
            d = distance(f.hex, h)
            return lo <= d <= hi and _straight_ahead(f.hex, f.face, h, d)
        if j and self._load(j).pgm:  # MBT 6.7.3.7: stand-off 6-10 at Medium, 11-20 at High
            lo, hi = v[f"pgm-{f.alt}-min"], v[f"pgm-{f.alt}-max"]
            return lo <= distance(f.hex, h) <= hi
        return h == front

    def _arm_targets(self) -> list[int]:
        """Enemy AA units with active radar (MBT 6.7.3.5; radar state by option ``aa-radar-state``)."""
        g = self.game
        if g.options["aa-radar-state"] != "active":
            return []
        side = g.aircraft[self.fw.k].side
        return [t for t in g.enemies_of(side) if self.st[t] == ON and not self.is_heli(t) and
                any(r.aa and row_profile(g, t, r).radar for r in g.units[t].type.ap)]

    def fw_pattern(self, j: int, kind: str, t: int) -> list:
        """The hexes an attack hits (MBT 6.7.3.2-6.7.3.7): strafe 3 hexes at Slow, 5 at Fast from the hex in front;
        bombs the ``fw-bomb-patterns`` length along the flight line (width: the hexes to each side of it) from the
        hex in front, or from the target for a PGM; rockets and ARMs the target hex."""
        f, g = self.fw, self.game
        if kind in ("rockets", "ARM"):
            return [self.hex[t]]
        if kind == "strafe":
            length, width = g.air.values[f"strafe-{f.speed}-hexes"], 0
            start = neighbour(f.hex, f.face)
        else:
            length, width = g.air.patterns[(kind, f.alt)]
            start = self.hex[t] if self._load(j).pgm else neighbour(f.hex, f.face)
        return _line(start, f.face, length, width)

    def fw_attack(self, key: str, t: int) -> None:
        """One attack (one use of ammo): every ground unit in the pattern, friend or foe, is attacked individually
        (MBT 6.7.3.2-6.7.3.3); then every acquisition restarts and AA may fire."""
        g, f = self.game, self.fw
        a = g.aircraft[f.k]
        j, kind = next((j, kind) for j, k2, kind in self._ammo_slots() if k2 == key)
        f.ammo[f.k][j] -= 1
        hexes = self.fw_pattern(j, kind, t)
        if kind in SCATTER_KINDS and not self._load(j).pgm and g.optional_on("scatter"):
            hexes = self._fw_scatter(kind, hexes, a.name)
        if self.hex[t] in g.los.blocking and kind != "ARM":
            self._use_spotter(a.side, t)
        if kind == "FASCAM":  # MBT 6.7.3.6: a FASCAM minefield on the pattern (optional rule 7.31: lay_fascam)
            self.narrate(f"{a.name} drops {self._load(j).name or 'FASCAM'} at {g.units[t].name}")
            self.lay_fascam(hexes, a.side)
            f.acq = {}
            self._fw_aa_update(moved=False)
            return
        gp = a.strafe_gp if kind == "strafe" else self._load(j).gp
        self.narrate(f"{a.name} attacks {g.units[t].name} with {'its ' + a.strafe_name if kind == 'strafe' else self._load(j).name}"
                     f" (GP {gp}) on {', '.join(g.label(h) for h in hexes if h in g.map.label_of)}")
        if kind != "ARM":  # optional rules 7.31.3.2 (bombs and rockets vs visible minefields) and 7.35 (fires)
            self.mines_pattern_attack(kind, hexes, gp, a.name)
            self.terrain_pattern_attack(kind, hexes, gp, a.name)  # MBT 6.5.4.2.5 (terrain_targets)
            self.note_fire_pattern(kind, hexes, gp)
        victims = [t] if kind == "ARM" else [u for u in range(g.n) if self.st[u] == ON and self.hex[u] in hexes and
                                             (not self.is_heli(u) or self.heli_in_pattern(u, kind))]  # MBT 6.7.9.1
        for u in victims:
            self.attacked[u] = True
            self.fw_gp_attack(u, gp, self._fw_net(j, kind, u), f"{a.name}>{g.units[u].name}", kind)
        f.acq = {}
        self._fw_aa_update(moved=False)

    def _fw_net(self, j: int, kind: str, u: int) -> int:
        """Net modifier of an aircraft attack on unit ``u`` (MBT 6.7.3.8, 6.5.4.3): altitude (Low strafe/bomb +20,
        Medium bomb +10), rockets at Low +20, Fast speed (sign by option), incendiary vs soft targets +20, the
        load's card modifier, aircraft Damaged/Suppressed, Unit Grade at Extreme range (strafing; bombs too under
        Optional Rule 7.26), air bursts in woods (Optional Rule 7.38), the target's modifiers."""
        g, f = self.game, self.fw
        m, gm = g.air.fw_mod, g.ag.gp_mod
        net = 0
        if kind == "rockets":
            net += m["rocket"]
        elif kind != "ARM":
            net += m["low-altitude"] if f.alt == "low" else (m["medium-altitude"] if f.alt == "medium" else 0)
        if f.speed == "fast":
            net += m["fast-speed"] * (-1 if g.options["fw-fast-speed-sign"] == "minus" else 1)
        if kind == "incendiary_bomb" and self._soft(u):
            net += m["incendiary-leg"] if g.units[u].type.ag.leg else m["incendiary-soft"]
        net += 0 if kind == "strafe" else self._load(j).modifier
        net += gm["shooter-damaged"] if f.dmg[f.k] else 0
        net += gm["shooter-suppressed"] if f.sup[f.k] else 0
        if kind == "strafe" or (g.optional_on("scatter") and kind != "ARM"):
            net += g.ag.grade_gp[g.force_grades[g.aircraft[f.k].side]]["E"]
        if kind in ("bomb", "high_drag_bomb", "cluster_bomb", "rockets"):
            net += self.air_burst(u)  # Optional Rule 7.38 (opt_air_bursts): shrapnel in the trees
        return net + self._fw_target_mods(u, kind, j)

    def _soft(self, u: int) -> bool:
        """Incendiary targets (MBT 6.7.3.8): dismounted leg and towed units, S- and P-Type vehicles, Open A-Types
        (optional rule 7.8: an unbuttoned A-Type, ``open_a_type``)."""
        ag = self.game.units[u].type.ag
        return ag.leg or ag.target_type in ("S", "P") or self.open_a_type(u)

    def _fw_target_mods(self, u: int, kind: str, j: int) -> int:
        """Vehicle target type (not vs cluster, incendiary or PGM bombs, nor ARMs: MBT 6.5.4.3) and moving."""
        g = self.game
        ag = g.units[u].type.ag
        if ag.leg or self.is_heli(u):
            return 0
        m = g.ag.gp_mod
        net = 0
        exempt = kind in ("cluster_bomb", "incendiary_bomb", "ARM") or (j and self._load(j).pgm)
        if not exempt:
            net += {"A": m["target-a-type"], "P": m["target-p-type"]}.get(ag.target_type, 0)
        if self.cmd[u] in (MOVE, SH) and self.rev[u]:
            net += m["target-moving"]
        return net

    def fw_gp_attack(self, u: int, gp: int, net: int, label: str, kind: str, crash: bool = False) -> None:
        """One GP attack from the air at ground unit ``u`` (MBT 6.5.4.4): leg units by overhead cover only, vehicles
        by their GP Defense (a crash is non-small-arms at any GP Defense, 6.7.8.2.2); passengers of a carrier
        that is not Under Armor too. An incendiary Knock Out is a Brew Up (6.7.3.3.3)."""
        g = self.game
        ag = g.units[u].type.ag
        fmax, dmax = g.ag.gp_max
        defense = max(1, min(dmax, self.if_leg_defense(u) if ag.leg else ag.gp_value))
        n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, gp)), defense)]
        roll = self.dice.roll(100, f"air GP {label}")
        x = roll + net
        effect = "N" if x <= n_eff else ("S" if x <= s_eff else "E")
        if self.is_heli(u):
            result = self.heli_result(u, x, effect, "air attack")
        elif ag.leg:
            result = self.apply_leg_result(u, effect)
        else:
            row = _AirRow(10 if crash else gp, gp)
            result = self.gp_vehicle_result(row, "E", gp, defense, x, effect, ag.target_type)
            if self.ofire is not None:  # MBT 7.8.3 Open Turret, 7.47 installation damage (optional)
                result = self.opt_gp_vehicle_result(-1, u, row, "E", effect, result, x, s_eff)
        self.narrate(f"{label} (GPD {defense}{ag.target_type}): roll {roll}{net:+d} = {x} vs N {n_eff} / S {s_eff}: "
                     f"{effect}-Effect -> {result}")
        if not ag.leg and not self.is_heli(u):
            if kind == "incendiary_bomb" and result == "KILL":
                self.apply_damage(u, "BU", "HF")
            else:
                self.apply_gp_result(-1, u, _AirRow(10 if crash else gp, gp), result)
            if not (kind == "incendiary_bomb" and g.units[u].type.ag.protection == "under_armor"):
                self._fw_passengers(u, gp, net, label)

    def _fw_passengers(self, c: int, gp: int, net: int, label: str) -> None:
        """Passengers of a carrier that is not Under Armor are attacked too (MBT 6.5.4.2.3): the ground rule's
        passenger attack (``TransportRules.passenger_gp``) with the air attack's label."""
        self.passenger_gp(-1, c, None, gp, net, label=f"air GP {label}")

    def _fw_scatter(self, kind: str, hexes: list, label: str) -> list:
        """Optional Rule 7.26.2 (``opt_scatter.fw_scatter``): a bomb dropped from Medium or High may scatter when
        AA fired at the aircraft within ``scatter-aa-range`` (5) hexes of the drop hex (the worst such result
        counts); the whole pattern moves with its first hex (off the map: nothing is hit)."""
        from .opt_scatter import fw_scatter

        g, f = self.game, self.fw
        near = [res for h, res in f.aa_log if distance(h, f.hex) <= g.air.values["scatter-aa-range"]]
        if not near:
            return hexes
        aa = "NE" if all(r == "no effect" for r in near) else ("D" if "Damaged" in near else "S")
        first = fw_scatter(self, hexes[0], SCATTER_KINDS.get(kind, kind), f.alt, aa,
                           g.force_grades[g.aircraft[f.k].side], label)
        if first == hexes[0]:
            return hexes
        if first is None:
            return []
        shift = (first[0] - hexes[0][0], first[1] - hexes[0][1])
        return [(h[0] + shift[0], h[1] + shift[1]) for h in hexes]

    # ---------------------------------------------------------------- AA fire at aircraft (MBT 6.7.8)
    def _aa_units(self, side: int) -> list[int]:
        """Units of ``side`` that may track and fire at aircraft: AA rows, Overwatch, not fired, not inside a
        building or an Improved Position (MBT 6.7.8, 6.7.8.1.1: so a MANPADS never fires from an upper floor)."""
        g = self.game
        return [s for s in g.units_of(side) if self.st[s] == ON and self.cmd[s] == OW and not self.fired[s] and
                s not in self.fw.aa_fired and not self.aa_sheltered(s) and any(r.aa for r in g.units[s].type.ap)]

    def aa_sheltered(self, s: int) -> bool:
        """Is ``s`` inside a building or in an Improved Position, where AA units may not track or fire at aircraft
        (MBT 6.7.8.1.1)?"""
        return self.hex[s] in self.game.building_hexes or self.in_improved_position(s)

    def aa_requirement(self, s: int, row, speed: str, alt: str) -> int:
        """Hexes of flight to track (MBT 6.7.8.1.1): Track by speed and altitude; active radar half (at least 2,
        not for Limited Radar Tracking); SAM double, radar SAM half; Suppressed double."""
        g = self.game
        p = row_profile(g, s, row)
        req = g.air.spotting[(speed, alt)][1]
        radar = p.radar and g.options["aa-radar-state"] == "active"
        if radar and not p.limited:
            req = max(g.air.values["radar-track-min"], req // 2)
        if p.sam is not None:
            req *= 2
            if p.sam[1] == "radar":
                req //= 2
        return req * (2 if self.sup[s] else 1)

    def _fw_aa_update(self, entry: bool = False, moved: bool = True) -> None:
        """Tracks after a hex flown (an aircraft entering in LOS is tracked at once), then the AA shots now
        possible (``pending``)."""
        g, f = self.game, self.fw
        side = 1 - g.aircraft[f.k].side
        units = self._aa_units(side)
        if moved:
            track, rear = {}, {}
            for s in units:
                if not self.air_los(f.alt, self.hex[s]):
                    continue
                track[s] = TRACKED if entry else f.track.get(s, 0) + 1
                behind = in_arc(f.hex, f.face, self.hex[s], 120, True)
                rear[s] = (TRACKED if entry else f.rear.get(s, 0) + 1) if behind else 0
            f.track, f.rear = track, rear
        f.pending = [(s, row) for s in units for row in g.units[s].type.ap if self._aa_shot_ok(s, row)]

    def _aa_shot_ok(self, s: int, row) -> bool:
        g, f = self.game, self.fw
        if not row.aa or s not in f.track:
            return False
        p = row_profile(g, s, row)
        if p.high_na and f.alt == "high":
            return False
        done = f.rear.get(s, 0) if p.sam is not None and p.sam[0] == "MT" else f.track[s]
        if done < self.aa_requirement(s, row, f.speed, f.alt):
            return False
        r = distance(self.hex[s], f.hex)
        band, _ = self.gp_factor(row, r)
        if band is None or r < row.min_range:
            return False
        return row.arc == 360 or in_arc(self.hex[s], self.fac[s], f.hex, row.arc, row.rear)

    def fw_aa_fire(self, s: int, row) -> None:
        """One AA shot at the flying aircraft (MBT 6.7.8.2): GP fire, the card AA modifier, High/Fast -10 each,
        Low +10, the AA unit's grade by range factor and its Suppressed/Damaged modifiers; results 6.7.8.2.2."""
        g, f = self.game, self.fw
        k, a = f.k, g.aircraft[f.k]
        self.fired[s] = True
        self.rev[s] = True
        self.mk[s] = MFIRE  # the AA unit fired: revealed with Spot/Fire (MBT 4.4.1)
        f.aa_fired.append(s)
        f.pending = [(u, r) for u, r in f.pending if u != s]
        band, factor = self.gp_factor(row, distance(self.hex[s], f.hex))
        m = g.air.aa_mod
        net = row.aa_mod + g.ag.grade_gp[self.unit_grade(s)][band]
        net += (m["high-altitude"] if f.alt == "high" else 0) + (m["low-altitude"] if f.alt == "low" else 0)
        net += m["fast-speed"] if f.speed == "fast" else 0
        net += (g.ag.gp_mod["shooter-suppressed"] if self.sup[s] else 0) + \
            (g.ag.gp_mod["shooter-damaged"] if self.tdmg[s] else 0)
        fmax, dmax = g.ag.gp_max
        n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, factor)), max(1, min(dmax, a.gpd)))]
        roll = self.dice.roll(100, f"AA {g.units[s].name}>{a.name}")
        x = roll + net
        effect = "N" if x <= n_eff else ("S" if x <= s_eff else "E")
        if effect == "E" and self._spoofed(s, row):
            effect = "N"
        result = self._fw_result(x, effect)
        f.aa_log.append((f.hex, result))
        self.narrate(f"{g.units[s].name} AA fire ({row.ammo}, GP {factor}, {band}) at {a.name} ({f.speed}, {f.alt}, "
                     f"GPD {a.gpd}{a.target_type}): roll {roll}{net:+d} = {x} vs N {n_eff} / S {s_eff}: "
                     f"{effect}-Effect -> {result}")
        if result in ("shot down", "eliminated"):
            self._fw_crash(k)

    def _spoofed(self, s: int, row) -> bool:
        """MBT 6.7.8.2.1: an aircraft with an ECM Pod rolls (10) at or under the CM rating of a SAM, or of a
        radar-tracked gun (option ``aa-radar-gun-spoofing``: its card's rating only, or the air-values one)."""
        g, f = self.game, self.fw
        if not g.aircraft[f.k].ecm:
            return False
        return self.spoof_roll(s, row, g.aircraft[f.k].name, radar=True)

    def spoof_roll(self, s: int, row, name: str, radar: bool) -> bool:
        """MBT 6.7.8.2.1: roll (10) at or under the CM rating of AA unit ``s``'s weapon: a SAM's card rating, or
        for a radar-tracked gun (``radar``: the radar tracked this target; option ``aa-radar-gun-spoofing``) the
        air-values one; True = spoofed (No Effect)."""
        g = self.game
        p = row_profile(g, s, row)
        rating = p.sam[2] if p.sam is not None else None
        if rating is None and p.sam is None and radar and p.radar and g.options["aa-radar-state"] == "active" and \
                g.options["aa-radar-gun-spoofing"] == "table":
            rating = g.air.values["radar-gun-cm-rating"]
        if rating is None:
            return False
        roll = self.dice.roll(10, f"spoof {name}<{g.units[s].name}")
        self.narrate(f"{name} countermeasures roll {roll} vs CM {rating}: "
                     f"{'spoofed (No Effect)' if roll <= rating else 'fails'}")
        return roll <= rating

    def _fw_result(self, x: int, effect: str) -> str:
        """MBT 6.7.8.2.2: Suppressed; Effective ending in 5 or 0 Damaged (Slow at once and from now on; a second
        damage eliminates); any other Effective shoots it down."""
        f = self.fw
        if effect == "N":
            return "no effect"
        if effect == "S":
            f.sup[f.k] = True
            return "Suppressed"
        if x % 10 in (0, 5):
            if f.dmg[f.k]:
                return "eliminated"
            f.dmg[f.k] = True
            f.speed = "slow"
            return "Damaged"
        return "shot down"

    def _fw_crash(self, k: int) -> None:
        """A shot-down aircraft crashes roll (10) hexes ahead (half at Low); every ground unit in that hex is
        attacked at GP 15 (MBT 6.7.8.2.2). The loss counts for victory, not for morale."""
        g, f = self.game, self.fw
        a = g.aircraft[k]
        f.dead[k] = True
        self.lost[a.side] += 1
        n = self.dice.roll(10, f"crash {a.name}")
        if f.alt == "low":
            n //= g.air.values["crash-low-divisor"]
        h = f.hex
        for _ in range(n):
            h = neighbour(h, f.face)
        self.air_crash(h, f"{a.name} crash")
        f._land()

    def air_crash(self, h, label: str) -> None:
        """GP 15 (crash-gp) at every ground unit in crash hex ``h`` (none off the map, MBT 6.7.8.2.2)."""
        g = self.game
        on_map = h in g.map.label_of
        self.narrate(f"{label} at {g.label(h) if on_map else 'off the map'}")
        if not on_map:
            return
        for u in [u for u in range(g.n) if self.st[u] == ON and self.hex[u] == h and not self.is_heli(u)]:
            self.fw_gp_attack(u, g.air.values["crash-gp"], 0, f"{label}>{g.units[u].name}", "crash", crash=True)
        self.mines_crash(h, g.air.values["crash-gp"], label)  # optional rule 7.31.3.2: a crash into a minefield

    # ---------------------------------------------------------------- observation
    def fw_view(self, player: int) -> FwState:
        """What ``player`` sees: the flying aircraft (announced speed and altitude), the enemy's attacks left
        hidden (-1, MBT 6.7.1: the load-out is kept secret)."""
        v = self.fw.copy()
        for k, a in enumerate(self.game.aircraft):
            if a.side != player:
                v.ammo[k] = [-1] * len(v.ammo[k])
        if v.k >= 0 and self.game.aircraft[v.k].side == player:
            v.pending, v.track, v.rear = [], {}, {}  # the enemy's AA tracks would show its Overwatch commands
        return v

    def fw_scramble(self, player: int, rng: random.Random) -> FwState:
        """The fixed-wing state with what ``player`` cannot know randomized: the enemy's attacks left and, while
        ``player``'s aircraft flies, the enemy's AA tracks."""
        v = self.fw.copy()
        for k, a in enumerate(self.game.aircraft):
            if a.side != player:
                v.ammo[k] = [rng.randint(0, max(1, n)) for n in v.ammo[k]]
        if v.k >= 0 and self.game.aircraft[v.k].side == player:
            v.track = {s: rng.randint(0, 3) for s in v.track}
        return v


class _AirRow:
    """The row fields the GP vehicle results read for an air attack (MBT 6.5.4.4.2): not Small Arms; GP
    Effectiveness the attack's GP factor capped at 10 (a crash: 10, any GP Defense)."""

    __slots__ = ("gpe", "small_arms", "gp_factor")

    def __init__(self, gpe: int, gp: int) -> None:
        self.gpe, self.small_arms, self.gp_factor = min(10, gpe), False, gp


def _line(start, face: int, length: int, width: int) -> list:
    out = []
    h = start
    for _ in range(length):
        out.append(h)
        if width:
            out += [neighbour(h, (face + 1) % 6), neighbour(h, (face - 1) % 6)]
        h = neighbour(h, face)
    return list(dict.fromkeys(out))


def _straight_ahead(origin, face: int, target, d: int) -> bool:
    h = origin
    for _ in range(d):
        h = neighbour(h, face)
    return h == target


__all__ = ["FixedWingRules", "FwState", "FW_VERBS"]
