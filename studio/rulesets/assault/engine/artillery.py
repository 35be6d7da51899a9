"""Artillery and indirect fire (Assault 19), the Soviet fire timetable (21), CLGP (22, optional) and smoke
missions (19.D.3, 20), as a mixin of ``AssaultState``.

The artillery phase (ESoP) has two steps, each played by the Soviet player and then the U.S. player:

- ``plot``: ``plot <firer> <hex> <ammo>`` (``... max`` for the once-per-scenario max ROF, 19.D.1) writes a mission
  arriving after the delay of the quickest observer able to call fire (19.B.2-3: table indirect-delay, plus the
  Soviet command levels of table soviet-command-levels, option c33), ``cancel <firer>`` strikes its pending
  missions (19.B.4), ``abort-timetable`` ends the Soviet timetable (21). Then missions due this turn are
  resolved (19.C) with the smoke adjusted before or after the plotting (option c13).
- ``deploy``: ``deploy <unit>`` puts an on-board indirect fire unit in deployment (19.E).

A firer is an on-board counter with an indirect fire row, or one battery of a scenario's off-board artillery
(``<id>/<n>``, always full strength, deployed, its on-map range reduced by its hexes off board: 19.C.2, 19.E,
19.F). Each firer has at most one mission per arrival turn; a smoke mission is one line per screen.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from studio.hexgrid import coords

from ..designations import parse
from .dice import d10

ICM_BANNED = ("town", "urban-strip", "woods", "full-lake", "swamp")     # Assault 19.D.2
SMOKE = {"smoke-chemical": "chemical", "smoke-incendiary": "incendiary"}
BEARING = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}


@dataclass(frozen=True, slots=True)
class Battery:
    """An off-board firing unit (Assault 19.C.2, 19.F): one battery of a scenario ``off_board_artillery`` entry."""

    id: str
    group: str          # the scenario entry's id (what the fire timetable names)
    side: int
    card: str
    hexes_off_board: int
    level: str          # Soviet command level (Assault 19.B.3)


@dataclass(frozen=True, slots=True)
class Mission:
    """One line of a fire mission sheet (Assault 19.B.1): its arrival turn, not the turn it was written."""

    side: int
    firer: str
    hex: tuple
    ammo: str
    arrival: int
    max_rof: bool = False
    timetable: bool = False      # pre-planned (Assault 21): cancelled only by aborting the timetable
    written: int = 0             # the turn it was written (19.B.4: cancelled at the start of a later phase)


@dataclass(frozen=True, slots=True)
class FireMarker:
    """A numbered fire mission marker (Assault 19.C.1): in place until the next artillery phase."""

    number: int
    hex: tuple
    value: int           # the HE/ICM fire value, for pass-through fire (19.D.4)


@dataclass(frozen=True, slots=True)
class Screen:
    """A smoke marker (Assault 20.A.3-4): blocks the two hexsides of its vertex; removed at the start of the
    artillery phase of turn ``removed_at``; ``drifts``: a moderate-wind chemical screen that adds one downwind."""

    hex: tuple
    kind: str            # incendiary or chemical
    vertex: int
    placed: int
    removed_at: int
    drifts: bool = False


def batteries(game) -> list[Battery]:
    """The off-board batteries of the scenario (Assault 19.F, 24)."""
    out = []
    for art in game.scenario.extension.off_board_artillery:
        if art.side not in game.sides:
            continue
        for n in range(art.count):
            out.append(Battery(f"{art.id}/{n + 1}", art.id, game.sides.index(art.side), art.unit,
                               art.hexes_off_board, art.command_level or "battery"))
    return out


def wind(game, dice) -> tuple[int, str]:
    """Assault 20.A.1-2: (bearing the wind blows from, velocity): the scenario's wind, or rolled on tables
    wind-direction and wind-velocity when the scenario says ``wind_rolled``."""
    if game.scenario.extension.wind_rolled:
        faces = game.data.constant("die-faces")
        direction = game.wind_direction.get(dice.roll(faces, "wind direction"), "none")
        roll = dice.roll(faces, "wind velocity")
        speed = next((v for top, v in game.wind_velocity if roll <= top), game.wind_velocity[-1][1])
        return BEARING.get(direction, -1), speed
    w = game.scenario.environment.wind
    return BEARING.get(w.direction, -1), "light" if w.strength == "calm" else w.strength


def downwind(bearing: int) -> int:
    """The hexside nearest the way the wind blows to (flat-top hexside k faces 60k degrees; ties: lower k)."""
    to = (bearing + 180) % 360
    return min(range(6), key=lambda k: (abs(math.remainder(math.radians(60 * k - to), 2 * math.pi)), k))


#: plot action lists kept per game (``Artillery._plot_actions``; emptied beyond it)
PLOT_KEYS = 512

#: decimals kept when comparing the vertices' squareness to the wind (ties of 20.A.3 are exact up to float noise)
TIE_DIGITS = 6


def axis_vertices(bearing: int) -> list[int]:
    """Assault 20.A.3 (option c15 'wind-axis'): the vertices whose two blocked hexsides lie along the wind, i.e.
    the vertex (bearing 60k + 30) as near square to the wind as the hex allows."""
    if bearing < 0:
        return list(range(6))
    score = [round(abs(math.cos(math.radians(60 * k + 30 - bearing))), TIE_DIGITS) for k in range(6)]
    return [k for k in range(6) if score[k] == min(score)]


class Artillery:
    """Methods of ``AssaultState`` for Assault 19-22 (needs counters, missions, smoke, dice and fire helpers)."""

    # ------------------------------------------------------------------ the phase
    def _artillery_start(self) -> None:
        """Start of an artillery phase: last turn's mission markers go (19.C.1); option c13 'adjust-first'
        adjusts the smoke before the missions are written."""
        self.markers, self.art_step, self.timetable_aborted_now = [], "plot", False
        for c in self.counters:
            c.fired_mission = False
        if self.game.options.get("c13-smoke-removal") == "adjust-first":
            self._adjust_smoke()

    def _artillery_actions(self) -> list[str]:
        if self.art_step == "deploy":
            return sorted(f"deploy {c.id}" for c in self.counters if self._may_deploy(c))
        if self.actor == self.game.sides.index("soviet") and self.timetable_aborted_now:
            return []                                                   # Assault 21: no missions this phase
        out = [f"cancel {f}" for f in sorted({m.firer for m in self.missions if m.side == self.actor
                                              and not m.timetable and m.written < self.turn})]
        if self._timetable_active() and self.actor == self.game.sides.index("soviet"):
            out.append("abort-timetable")
        for firer in self._firers(self.actor):
            out += self._plot_actions(firer)
        return sorted(out)

    def _artillery_step_done(self) -> None:
        """``end`` in the artillery phase: the other player's turn at the step, then resolution (after the
        plotting) or the next phase (after deployment)."""
        if self.actor == 0:
            self.actor = 1
            return
        if self.art_step == "plot":
            if self.game.options.get("c13-smoke-removal", "record-first") == "record-first":
                self._adjust_smoke()                                    # Assault 20.A.4, ESoP step 2
            self._resolve_missions()                                    # Assault 19.C
            self.art_step, self.actor = "deploy", 0
            return
        self._advance()

    def _apply_artillery(self, parts: list[str]) -> None:
        if parts[0] == "plot":
            self._plot(parts[1], self.game.map.hex(parts[2]), parts[3], len(parts) > 4)
        elif parts[0] == "cancel":
            self.missions = [m for m in self.missions if not (m.firer == parts[1] and not m.timetable
                                                              and m.written < self.turn)]   # Assault 19.B.4
            self.narrate(f"{parts[1]}'s missions are cancelled (19.B.4)")
        elif parts[0] == "abort-timetable":
            self._abort_timetable()
        elif parts[0] == "deploy":
            self._by_id(parts[1]).deployed = True                       # Assault 19.E
            self.narrate(f"{parts[1]} deploys (19.E)")

    # ------------------------------------------------------------------ firers (Assault 19.A, 19.F)
    def _firers(self, side: int) -> list:
        """The side's firers: deployed on-board indirect fire counters not carried, and its batteries."""
        out = [c for c in self.counters if c.side == side and c.deployed and not c.carrier and not c.dummy
               and self.game.card(c.card).body.indirect_fire is not None]
        return out + [b for b in self.game.batteries if b.side == side]

    def _firer(self, fid: str):
        return next((b for b in self.game.batteries if b.id == fid), None) or \
            next((c for c in self.counters if c.id == fid), None)

    def _in_range(self, firer, h) -> bool:
        return self._range_test(firer)(h)

    def _range_test(self, firer):
        """Assault 19.F, as a test hex -> bool: on-board from the firer's hex; off-board the printed range less
        the hexes off board, counted from the side's map edge (Soviet east, U.S. west: 24.A)."""
        rng = self.game.card(firer.card).body.indirect_fire.range_hexes
        if isinstance(firer, Battery):
            edge = self.game.edge_distance("east" if self.game.sides[firer.side] == "soviet" else "west")
            limit = rng - firer.hexes_off_board
            return lambda h: edge.get(h, 0) + 1 <= limit
        origin = firer.hex
        return lambda h: coords.distance(origin, h) <= rng

    # ------------------------------------------------------------------ observation and delay (19.B.2-3)
    def _observers(self, side: int) -> list:
        """Units able to call fire (Assault 19.B.2): U.S. every unit, Soviet HQs and OPs (or as the card
        says), not suppressed (11.A.1), not broken (17.A.2), not carried."""
        out = []
        for c in self.counters:
            body = self.game.card(c.card).body
            if c.side != side or c.suppressed or c.carrier or c.dummy or self._company(c).state == "broken":
                continue                                                # (a dummy calls no fire, 10.F)
            calls = body.can_call_fire
            if calls is None:
                calls = self.game.sides[side] == "us" or body.role in ("hq", "op")
            if calls:
                out.append(c)
        return out

    def _level_of(self, firer) -> str:
        """A firer's Soviet command level (19.B.3): the scenario's for off-board batteries, the card's, else
        battalion for a counter with a battalion designation, else battery."""
        if isinstance(firer, Battery):
            return firer.level
        fire = self.game.card(firer.card).body.indirect_fire
        return fire.command_level or _designation_level(firer) or "battery"

    def _delay(self, firer, observer) -> int:
        """Assault 19.B.3: the indirect-delay row of the observer, plus for the Soviets the command levels
        between firer and an HQ/OP observer other than itself (option c33 'any-observer': any observer)."""
        side = self.game.sides[firer.side]
        body = self.game.card(observer.card).body
        kind = "firing-unit" if observer is firer else body.role if body.role in ("hq", "op") else "other"
        turns = self.game.delay[kind][side]
        other = observer is not firer and (body.role in ("hq", "op")
                                           or self.game.options.get("c33-soviet-delay") == "any-observer")
        if side == "soviet" and other:
            levels = self.game.command_levels
            turns += abs(levels.get(self._level_of(firer), 0) - levels.get(_designation_level(observer) or
                                                                          "battalion", 1))
        return turns

    def _observed_delay(self, firer, h) -> int | None:
        """The least delay of any observer with an unobstructed LOS to ``h`` (smoke blocks: only full thermal
        sights see through chemical smoke to observe, 20.B.2); None when nobody observes it."""
        return self._observed(firer).get(h)

    def _observed(self, firer) -> dict:
        """Hex -> least delay for ``firer`` (``_observed_delay``), kept per game for the same observers, firer
        and smoke (the plotting step changes none of them)."""
        observers = self._observers(firer.side)
        if not isinstance(firer, Battery) and firer not in observers and not firer.suppressed \
                and self._company(firer).state != "broken":
            observers.append(firer)                                     # Assault 19.B.2: observes for itself
        key = (firer.id, getattr(firer, "hex", None), tuple((o.id, o.hex) for o in observers), tuple(self.smoke))
        cache = self.game.observed
        if key not in cache:
            if len(cache) > 256:
                cache.clear()
            best: dict = {}
            for o in observers:
                thermal = self.game.card(o.card).body.thermal_sights == "full"
                d = self._delay(firer, o)
                for h in self.game.visible(o.hex):
                    if (h not in best or d < best[h]) and (not self.smoke or self.has_los(o.hex, h, thermal=thermal)):
                        best[h] = d
            cache[key] = best
        return cache[key]

    # ------------------------------------------------------------------ plotting (19.B)
    def _ammo_choices(self, firer) -> list[str]:
        fire = self.game.card(firer.card).body.indirect_fire
        out = ["HE"] if "HE" in fire.fire_value else []
        if fire.icm_multiplier and self.game.sides[firer.side] == "us":
            out.append("ICM")                                           # Assault 19.D.2
        if self.wind_speed != "strong":
            out += [f"smoke-{k}" for k in fire.smoke]                   # Assault 20.A.2
        if fire.clgp and self.game.options.get("clgp") == "on" and self._ammo_left(firer, "CLGP"):
            out.append("CLGP")                                          # Assault 22.A
        return [a for a in out if self._ammo_left(firer, a)]

    def _plot_actions(self, firer) -> list[str]:
        """``_plot_actions_now``, kept per game while nothing it reads changes: the firer (hex, steps, its card's
        range, max ROF multiplier and screens), the turn, its ammunition, max ROF used, the timetable, its mission
        lines and the observation (``_observed``: the same table object while observers and smoke stay put)."""
        ammo = self._ammo_choices(firer)
        if not ammo:
            return []
        if not self.game.caches:
            return self._plot_actions_now(firer, ammo)
        observed = self._observed(firer)
        fire = self.game.card(firer.card).body.indirect_fire
        key = (firer.id, getattr(firer, "hex", None), self._steps(firer), fire.range_hexes, fire.max_rof_multiplier,
               fire.smoke_screens, self.turn, tuple(ammo), firer.id in self.max_rof_used, self._timetable_active(),
               id(observed), tuple(m for m in self.missions if m.firer == firer.id))
        cache = self.game.plots
        hit = cache.get(key)
        if hit is None or hit[0] is not observed:
            if len(cache) > PLOT_KEYS:
                cache.clear()
            hit = cache[key] = (observed, self._plot_actions_now(firer, ammo))
        return list(hit[1])

    def _plot_actions_now(self, firer, ammo: list) -> list[str]:
        fire = self.game.card(firer.card).body.indirect_fire
        out = []
        in_range = self._range_test(firer)
        picks: dict = {}                    # arrival turn -> ``_arrival_ammo``, None: not writable (21)
        for h, delay in self._observed(firer).items():
            arrival = self.turn + delay
            if arrival not in picks:
                picks[arrival] = self._arrival_ammo(firer, ammo, arrival) if self._may_write(firer, arrival) \
                    else None
            if picks[arrival] is None or not in_range(h):
                continue
            label = self.game.map.label_of[h]
            for a in picks[arrival](h):
                out.append(f"plot {firer.id} {label} {a}")
                if a in ("HE", "ICM") and fire.max_rof_multiplier > 1 and firer.id not in self.max_rof_used:
                    out.append(f"plot {firer.id} {label} {a} max")      # Assault 19.D.1
        return out

    def _hex_ammo(self, firer, h, ammo: list, arrival: int) -> list[str]:
        """The ammunition ``firer`` may still plot at ``h`` for ``arrival`` (``_arrival_ammo``)."""
        return self._arrival_ammo(firer, ammo, arrival)(h)

    def _arrival_ammo(self, firer, ammo: list, arrival: int):
        """A function hex -> the ammunition ``firer`` may still plot there for ``arrival``: one mission per arrival
        turn, a smoke mission up to its screens (19.D.3, option c12), no ICM on the banned terrains (option c8)."""
        lines = [m for m in self.missions if m.firer == firer.id and m.arrival == arrival]
        if lines:
            kind = lines[0].ammo
            if kind not in SMOKE or len(lines) >= self._screens(firer):
                return lambda h: []
            taken = {m.hex for m in lines}
            return lambda h: [] if h in taken else [kind]
        banned = ICM_BANNED + (("marsh",) if self.game.options.get("c8-marsh-swamp") == "same" else ())
        by_terrain: dict = {}

        def pick(h) -> list[str]:
            terrain = self._terrain(h)
            if terrain not in by_terrain:
                by_terrain[terrain] = [a for a in ammo if not (a == "ICM" and terrain in banned)]
            return by_terrain[terrain]
        return pick

    def _screens(self, firer) -> int:
        """Assault 19.D.3: screens per step per turn; option c12 'per-step' times the steps, 'per-unit' not."""
        fire = self.game.card(firer.card).body.indirect_fire
        n = fire.smoke_screens or 1
        if self.game.options.get("c12-smoke-screens", "per-step") == "per-step":
            n *= self._steps(firer)
        return n

    def _steps(self, firer) -> int:
        return self.game.data.constant("offboard-steps") if isinstance(firer, Battery) else firer.steps

    def _plot(self, fid: str, h, ammo: str, max_rof: bool) -> None:
        firer = self._firer(fid)
        arrival = self.turn + self._observed_delay(firer, h)
        self.missions.append(Mission(firer.side, fid, h, ammo, arrival, max_rof, written=self.turn))
        if max_rof:
            self.max_rof_used = tuple(sorted(self.max_rof_used + (fid,)))  # Assault 19.D.1: once per scenario
        self.narrate(f"{fid} plots {ammo}{' at max ROF' if max_rof else ''} on {self.game.map.label_of[h]}, "
                  f"arriving turn {arrival} (19.B.3)")

    # ------------------------------------------------------------------ the fire timetable (Assault 21)
    def _timetable_active(self) -> bool:
        return self.game.scenario.extension.fire_timetable.enabled and not self.timetable_aborted

    def _may_write(self, firer, arrival: int) -> bool:
        """Assault 21: while the timetable runs, a unit it covers is written only on its 'on call' lines."""
        if not self._timetable_active() or firer.side != self.game.sides.index("soviet"):
            return True
        entries = [e for e in self.game.scenario.extension.fire_timetable.entries if self._names(e.unit, firer)]
        return not entries or any(e.on_call and e.turn == arrival for e in entries)

    def _names(self, unit: str, firer) -> bool:
        """Whether a timetable line's unit (an off-board artillery id or a counter designation) is ``firer``."""
        if isinstance(firer, Battery):
            return unit in (firer.group, firer.id)
        return unit in (firer.designation, firer.id)

    def _abort_timetable(self) -> None:
        """Assault 21: aborted at the start of an artillery phase; its missions go and none is written now."""
        self.timetable_aborted = self.timetable_aborted_now = True
        self.missions = [m for m in self.missions if not m.timetable]
        self.narrate("the Soviet fire timetable is aborted (21)")

    def timetable_missions(self) -> list[Mission]:
        """The written lines of the Soviet timetable (Assault 21), for the initial state."""
        tt = self.game.scenario.extension.fire_timetable
        side = self.game.sides.index("soviet") if "soviet" in self.game.sides else -1
        out = []
        if not tt.enabled or side < 0:
            return out
        for e in tt.entries:
            if e.on_call or e.hex is None or e.hex not in self.game.map.hex_of:
                continue
            for b in self.game.batteries:
                if b.side == side and self._names(e.unit, b):
                    out.append(Mission(side, b.id, self.game.map.hex_of[e.hex], e.ammo, e.turn, timetable=True))
            for c in self.counters:
                if c.side == side and self.game.card(c.card).body.indirect_fire and self._names(e.unit, c):
                    out.append(Mission(side, c.id, self.game.map.hex_of[e.hex], e.ammo, e.turn, timetable=True))
        return out

    # ------------------------------------------------------------------ resolution (Assault 19.C-D)
    def _mission_value(self, firer, m: Mission) -> int:
        """Assault 19.C.2, 19.D.1-2: HE per step times steps, times the max ROF and ICM multipliers."""
        fire = self.game.card(firer.card).body.indirect_fire
        value = fire.fire_value.get("HE", 0) * self._steps(firer)
        if m.max_rof:
            value *= fire.max_rof_multiplier
        if m.ammo == "ICM":
            value *= fire.icm_multiplier or 1
        return value

    def _live(self, m: Mission):
        """The firer of an arriving mission, None when it can no longer fire it (gone, not deployed, carried)."""
        firer = self._firer(m.firer)
        if firer is None or (not isinstance(firer, Battery) and (not firer.deployed or firer.carrier
                                                                 or firer.steps == 0)):
            return None
        return firer

    def _resolve_missions(self) -> None:
        """Assault 19.C: every mission due this turn; the fire on a hex is added up (incendiary smoke 10 per
        screen, 19.D.3) and attacks each unit in it, enemy and friendly, not carried ones (8.C)."""
        due = [m for m in self.missions if m.arrival == self.turn]
        self.missions = [m for m in self.missions if m.arrival > self.turn]
        totals: dict = {}
        passing: dict = {}                                              # HE/ICM only pass through (option c35)
        for m in due:
            firer = self._live(m)
            if firer is None:
                continue
            if not isinstance(firer, Battery):
                firer.fired_mission = True
            self._use_ammo(firer, m.ammo, m.max_rof)
            value = self._arrive(firer, m)
            if value:
                totals[m.hex] = totals.get(m.hex, 0) + value
                if m.ammo not in SMOKE:
                    passing[m.hex] = passing.get(m.hex, 0) + value
        for n, (h, value) in enumerate(sorted(totals.items())):
            if passing.get(h):
                self.markers.append(FireMarker(n + 1, h, passing[h]))   # Assault 19.C.1
            self._bombard(h, value, self._terrain(h))
        self.counters = [c for c in self.counters if c.steps > 0]
        self._check_morale()

    def _arrive(self, firer, m: Mission) -> int:
        """One arriving mission: its smoke screen, a directed CLGP shot, or its fire value for the hex."""
        label = self.game.map.label_of[m.hex]
        if m.ammo in SMOKE:
            kind = SMOKE[m.ammo]
            self._place_smoke(m.hex, kind, firer.side, kind)
            self.narrate(f"{m.firer}: {kind} smoke screen on {label} (20.A)")
            return self.game.data.constant("incendiary-fire-per-screen") if kind == "incendiary" else 0
        if m.ammo == "CLGP" and self._clgp(firer, m):
            return 0
        value = self._mission_value(firer, m)
        self.narrate(f"{m.firer}: {m.ammo} mission on {label}, fire value {value} (19.C)")
        return value

    def _indirect_defence(self, c, terrain: str) -> int:
        """Assault 19.C.3, 18: the indirect-defence chart; an entrenched unit uses the entrenchment row of the
        conventional defence table (option c28 'conventional') or of this chart ('indirect')."""
        body = self.game.card(c.card).body
        if c.entrenched:
            if self.game.options.get("c28-entrenched-indirect", "conventional") == "conventional":
                row = self.game.data.defence.get("entrenchment", {})
                return row.get(f"{body.defence_class}_{'cover' if c.cover else 'open'}", 1)
            terrain = "entrenchment"
        return self.game.indirect_defence.get(terrain, {}).get(body.defence_class, 1)

    def _bombard(self, h, value: int, terrain: str, units: list | None = None) -> None:
        """Assault 19.C.4-5: the same fire value against each unit's defence, one CRT roll each; option c34
        'suppress' turns no effect into suppression."""
        for c in list(units if units is not None else [c for c in self.counters if c.hex == h and not c.carrier
                                                         and not c.dummy]):
            d = self._indirect_defence(c, terrain)
            result = self._crt(value, d, f"indirect fire {c.id}")
            if result == "NE" and self.game.options.get("c34-indirect-no-effect") == "suppress":
                result = "S"
            self.narrate(f"indirect fire {value} on {c.id} ({self.game.card(c.card).body.defence_class}, defence {d}):"
                      f" {result}")
            self._apply_result(c, result, None, weapon="indirect fire")
            self._company_record(c).fired_at = True                     # Assault 17.A

    def _pass_through(self, c) -> None:
        """Assault 19.D.4: a unit entering a marked hex in a movement phase is attacked by the mission as in
        clear terrain; option c35: on each entry, or once per phase per mission."""
        once = self.game.options.get("c35-pass-through") == "once-per-phase"
        for mk in self.markers:
            if mk.hex != c.hex or (once and (mk.number, c.id) in self.passed):
                continue
            self.passed = self.passed + ((mk.number, c.id),)
            self.narrate(f"{c.id} moves through fire mission {mk.number} (19.D.4)")
            self._bombard(c.hex, mk.value, "clear", [c])
            self.counters = [o for o in self.counters if o.steps > 0]
            self._check_morale()

    # ------------------------------------------------------------------ CLGP (Assault 22, optional)
    def _clgp(self, firer, m: Mission) -> bool:
        """Assault 22.B-C: a designator of the firer's side with a clear LOS (smoke always blocks) to an AFV
        within 4 hexes of the target hex directs the round: one anti-armour shot at base 8 (option c29 adds
        the 13.A modifiers), hits penetrate without confirmation; the HE attack is not run."""
        reach = self.game.data.constant("clgp-designator-range")
        names = set(self.game.scenario.extension.designators.values())
        for d in self.counters:
            if d.side != firer.side or d.designation not in names or d.carrier \
                    or d.steps < self.game.card(d.card).body.steps:
                continue                                                # Assault 22.C: any casualty ends it
            targets = [t for t in self.counters if t.side != firer.side and not t.carrier and not t.dummy
                       and self.game.card(t.card).body.defence_class == "afv"
                       and coords.distance(t.hex, m.hex) <= reach and self.has_los(d.hex, t.hex)]
            if targets:
                t = min(targets, key=lambda t: (coords.distance(t.hex, m.hex), t.id))
                self._clgp_shot(d, t)
                return True
        return False

    def _clgp_shot(self, designator, t) -> None:
        from . import fire
        n = self.game.data.constant("clgp-hit")
        if self.game.options.get("c29-clgp-modifiers") == "modifiers":
            n = fire.hit_number(self.game.data, n, self._hit_situation(designator, t, "CLGP"), self.game.options)
        roll = d10(self.dice, f"CLGP hit {t.id}")
        hits = fire.hits_scored(self.game.data, n, roll)
        result = "NE" if hits == 0 else "H" if hits == 1 else "E"      # hits penetrate, no confirmation (22.B)
        self.narrate(f"CLGP directed by {designator.id} at {t.id}: hit number {n}, roll {roll}: {result} (22.B)")
        self._apply_result(t, result, None, weapon="CLGP")
        self._company_record(t).fired_at = True

    # ------------------------------------------------------------------ deployment (Assault 19.E)
    def _may_deploy(self, c) -> bool:
        body = self.game.card(c.card).body
        return c.side == self.actor and body.indirect_fire is not None and not c.deployed and not c.carrier \
            and not c.dummy

    def _undeploy_actions(self) -> list[str]:
        """Assault 19.E: leaving deployment pays the whole movement allowance in a friendly movement phase,
        self-propelled units in either, towed ones in the second only, never in a turn it fired a mission."""
        out = []
        side = self.phasing()
        for c in self.counters:
            if c.side != side or not c.deployed or c.moved or c.fired_mission:
                continue
            fire = self.game.card(c.card).body.indirect_fire
            if fire is not None and (fire.self_propelled or self.phase.endswith("move-2")):
                out.append(f"undeploy {c.id}")
        return out

    def _undeploy(self, c) -> None:
        c.deployed, c.moved = False, True
        c.mp_used = self.game.card(c.card).body.movement_allowance or 0
        self._counts_as_moved(c)
        self.narrate(f"{c.id} leaves deployment (19.E)")

    # ------------------------------------------------------------------ ammunition supply (Assault 23, optional)
    def _tracked(self, card: str, ammo: str) -> int | None:
        """The basic load of ``ammo`` when option ammo-supply tracks it ('limited': loads of 3 or fewer)."""
        mode = self.game.options.get("ammo-supply", "off")
        if mode == "off":
            return None
        body = self.game.card(card).body
        if ammo in ("HE", "ICM", "CLGP", "smoke-chemical", "smoke-incendiary") and body.indirect_fire is not None \
                and self._indirect_row(card):
            load = body.indirect_fire.ammo_supply
        else:
            load = next((r.ammo_supply for r in body.direct_fire if r.ammo == ammo), None)
        if load is None or (mode == "limited" and load > self.game.data.constant("ammo-tier-shots")):
            return None
        return load

    def _indirect_row(self, card: str) -> bool:
        return self.game.card(card).body.indirect_fire is not None

    def _pool(self, card: str, ammo: str) -> str:
        """Assault 12.C.2.a, 23: rows sharing a pool (the M-1's TP and HE) count one total; indirect fire one."""
        body = self.game.card(card).body
        row = next((r for r in body.direct_fire if r.ammo == ammo), None)
        if row is None:
            return "indirect"
        return row.ammo_pool or ammo

    def _ammo_left(self, firer, ammo: str) -> bool:
        load = self._tracked(firer.card, ammo)
        return load is None or self.ammo_used.get((firer.id, self._pool(firer.card, ammo)), 0) < load

    def _use_ammo(self, firer, ammo: str, max_rof: bool = False) -> None:
        """Assault 23.A: one unit per direct fire or per turn of indirect fire; max ROF uses its multiplier."""
        if self._tracked(firer.card, ammo) is None:
            return
        n = self.game.card(firer.card).body.indirect_fire.max_rof_multiplier if max_rof else 1
        key = (firer.id, self._pool(firer.card, ammo))
        self.ammo_used = {**self.ammo_used, key: self.ammo_used.get(key, 0) + n}


def _designation_level(c) -> str | None:
    """A Soviet counter's command level by its designation (Assault 3.C, 19.B.3): regiment when it names a
    regiment (9x), battalion when it names a battalion."""
    if not getattr(c, "designation", ""):
        return None
    d = parse("soviet", c.designation)
    if d is None:
        return None
    if d.regiment is not None or (d.battalion or 0) >= 90:
        return "regiment"
    return "battalion" if d.battalion is not None else None
