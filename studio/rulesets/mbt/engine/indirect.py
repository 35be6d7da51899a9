"""Indirect Fire Step (MBT 6.5.1): on-map IF units (a GP-IF row and a FIRE command) and off-map batteries (scenario
extension ``artillery``), First Player then Second.

* Called fire (6.5.1.7): an observer (FO, Command or Recon unit with an OW command, 6.5.1.1) calls sources on one
  Target Point where it spots an enemy, up to its capacity (table ``observer-capacity``); an on-map unit never at a
  hex it spots itself. Each source chooses its mission type and SHEAF (6.5.1.5-6: GP and smoke Closed, Open or
  Closed Linear; ICM Open; Illumination (7.27) and FASCAM (7.31) Closed; on-map fire and CLGP one hex: CLGP needs
  an observer with a Laser Designator, no smoke on its line and a spotted vehicle in the hex, 6.5.1.13.3), within
  the card's missions, the special-mission allocation and the ammo limit roll (5.16.2.4).
* Fire Response (6.5.1.12): roll (10) + modifiers at or above the Called Indirect Fire Response factor by observer
  row and attachment (6.5.1.3); modifiers: Pre-Registered Point of the battery (6.5.1.4), Command Recon observer,
  adjusted fire, observer Suppressed or Turret Damaged, each unique hindrance on the observer's line, heat haze,
  the observer's IF RSP grade. An unmodified 1 with spotted friendly units within 5 hexes of the Target Point is
  Danger Close (6.5.1.10): the impact lands on one of them (``ENGINE_POLICIES['danger-close']``); without, it fails.
* Running missions (6.5.1.8-9): next turn a mission continues (no response roll) while its observer still spots a
  target in or next to the Target Point, is adjusted up to 3 hexes (new response rolls, +1), or is checked; it
  checks automatically when Danger Close, when the observer is gone, off OW or loses sight of the Target Point.
* Planned fire (6.5.1.11, scenario ``planned_fire``): no observer, no response, band M; announced on its turn or
  one turn early, else it arrives one turn late; then runs its plot; the battery rests a turn after it.
* Resolution (6.5.1.13): GP attacks every ground unit (and visible minefield, 7.31.3) in the SHEAF on the GP CRT at
  the greater of the firer's and observer's range (off-map: the observer's), with the IF modifiers (6.5.4.3:
  target type, moving only in the Target Point hex, off-map Open SHEAF -20, ICM +20; no grade, cover, smoke);
  smoke and illumination place their clouds (``smoke.py``); each impact area is a Barrage for the rest of the turn.

Actions: ``call FIRER by OBSERVER at HEX`` (GP, Closed; on-map one hex) or ``call FIRER by OBSERVER at HEX MISSION
SHEAF`` (``smoke open``, ``GP linear-2`` ...); ``continue OBSERVER``, ``adjust OBSERVER at HEX``, ``check
OBSERVER``; ``planned BATTERY`` (announce a plot); ``pass`` ends the side's step (running missions not continued
are checked).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from studio.hexgrid.coords import distance

from .actions import PASS, Action
from .codes import CARRIED, FIRE, MFIRE, MOVE, ON, OW, SH
from .fire import FireRules
from .if_data import MISSION_PREFIX, MISSION_SHEAFS, if_data
from .smoke import Barrage, sheaf_hexes

OBSERVER_LABELS = ("fo", "command", "recon")
SIZE_OF = {"S": "heat-haze-s", "L": "heat-haze-l", "V": "heat-haze-v"}


@dataclass(slots=True)
class Battery:
    """An off-map battery of a side (MBT 5.3, 6.5.1.2): its GP-IF rows and attachment (6.5.1.3)."""

    name: str
    side: int
    card: str
    attachment: str           # attached, organic, unattached
    force: str | None
    rows: tuple


class Fire(NamedTuple):
    """One source of a mission: its name (unit or battery), mission type, SHEAF (onmap, closed, open, linear) and
    the Closed Linear direction."""

    source: str
    mission: str
    sheaf: str
    direction: int = 0


class Mission(NamedTuple):
    """A Called mission (MBT 6.5.1.7-6.5.1.10): its side, observer, Target Point, sources, turns fired, Danger
    Close, reconnaissance by fire (7.37) and the turn it last fired."""

    side: int
    observer: int
    tp: tuple
    fires: tuple
    turns: int
    danger: bool
    recon: bool
    turn: int
    called: int = 0


def compile_batteries(game) -> list[Battery]:
    """The scenario's off-map batteries (extension ``artillery``), named after the card (``M109-battery-1``)."""
    from .ag_data import if_rows

    out = []
    for entry in game.extension.get("artillery") or ():
        if entry["side"] not in game.sides:
            continue
        card = game.index.model("unit", entry["battery"])
        if card is None:
            continue
        body = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
        rows = if_rows({"weapons": [body["weapon"]]})
        for k in range(int(entry.get("count", 1))):
            out.append(Battery(f"{entry['battery']}-{len(out) + 1}", game.sides.index(entry["side"]), card.id,
                               entry["attachment"], entry.get("force"), rows))
    return out


def sheaf_token(fire: Fire) -> str:
    return f"linear-{fire.direction}" if fire.sheaf == "linear" else fire.sheaf


def read_sheaf(token: str) -> tuple[str, int]:
    if token.startswith("linear-"):
        return "linear", int(token.split("-", 1)[1])
    return token, 0


class IndirectRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    # ---------------------------------------------------------------- the step
    def _step_indirect(self) -> bool:
        """Indirect Fire Step (MBT 6.5.1): the First Player, then the Second; then the Direct Fire Step."""
        if self.if_side == -1:
            self.if_side = self.first
            self._open_if_side()
        while self.if_side >= 0:
            if self.if_calls(self.if_side):
                self.cp = self.if_side
                return True
            self._next_if_side()
        self.if_side = -1
        FireRules._begin_df(self)
        return False

    def _next_if_side(self) -> None:
        """The side's step is over: running missions it did not continue are checked (MBT 6.5.1.9)."""
        side = self.if_side
        for m in [m for m in self.arty.missions if m.side == side and m.turn < self.turn]:
            self._check(m, "not continued")
        self.arty.missions = tuple(m for m in self.arty.missions if m.fires)  # no source responded
        self.if_side = 1 - self.first if self.if_side == self.first else -2
        if self.if_side >= 0:
            self._open_if_side()

    def _open_if_side(self) -> None:
        """The automatic part of a side's step: running missions that must check (MBT 6.5.1.9), then Planned
        fire due this turn (6.5.1.11)."""
        side = self.if_side
        g = self.game
        for m in [m for m in self.arty.missions if m.side == side and m.turn < self.turn]:
            fires = tuple(f for f in m.fires if f.source not in g.battery_index or  # 7.28.2: KO fires no more
                          self.arty.bat[g.battery_index[f.source]] != 3)
            if fires != m.fires:
                m = m._replace(fires=fires)
                self._set_mission(m.observer, m)
            why = self._auto_check(m) if fires else "no source left"
            if why:
                self._check(m, why)
        if if_data(self.game).plans:
            self._planned_due(side)

    def _auto_check(self, m: Mission) -> str:
        """Why a running mission checks by itself, or '' (MBT 6.5.1.9, 6.5.1.10, 7.37)."""
        o = m.observer
        if m.danger:
            return "Danger Close"
        if m.recon:
            return "reconnaissance by fire"
        lost = self.observer_lost(o)
        if lost:
            return lost
        if not self.sight_clear_to(o, m.tp):  # the line of sight (an INB observer's hedgerow aside, MBT 7.10)
            return "observer lost sight of the Target Point"
        return ""

    def _check(self, m: Mission, why: str) -> None:
        """Check (cancel) a mission: its observer and sources join no other IF this turn (MBT 6.5.1.9)."""
        a = self.arty
        a.missions = tuple(x for x in a.missions if x is not m)
        names = {f.source for f in m.fires}
        a.checked = a.checked | {m.observer} | names
        self.narrate(f"{self.game.units[m.observer].name}'s fire mission at {self.game.label(m.tp)} checks ({why})")

    # ---------------------------------------------------------------- who may fire
    def observer_lost(self, o: int) -> str:
        """Why ``o`` may not observe now, or '': an observer is on the map with an Overwatch command (MBT 6.5.1;
        a hook: passengers observe from their carrier, ``transported_observers.py``)."""
        if self.st[o] != ON:
            return "observer gone"
        return "" if self.cmd[o] == OW else "observer not on Overwatch"

    def observer_kind(self, i: int) -> str | None:
        """The observer row of unit ``i`` (MBT 6.5.1.1): FO, Command or Recon, by its labels."""
        labels = self.game.units[i].type.ag.labels
        return next((k for k in OBSERVER_LABELS if k in labels), None)

    def if_rows(self, s: int) -> tuple:
        return self.game.units[s].type.ag.if_rows

    def _busy_sources(self) -> set:
        a = self.arty
        return {f.source for m in a.missions for f in m.fires} | set(a.checked)

    def battery_ready(self, b: int) -> bool:
        """Free to answer a call: not fired this turn, not Knocked Out (7.28), not in a mission, a plot or its rest
        turn (MBT 6.5.1.9, 6.5.1.11.1)."""
        a = self.arty
        if self.bat_fired[b] or a.bat[b] == 3 or a.rest[b] > self.turn:
            return False
        return not any(p.battery == b and 0 < a.plans[k] for k, p in enumerate(if_data(self.game).plans))

    def if_calls(self, side: int) -> list[Action]:
        """Legal actions of ``side`` in its Indirect Fire Step."""
        out = self._mission_actions(side) + self._planned_actions(side) + self._new_calls(side)
        return out + [PASS] if out else []

    def _new_calls(self, side: int) -> list[Action]:
        """New calls (MBT 6.5.1.7): FIRE-commanded IF units not fired yet and ready batteries, by OW observers
        without a running mission (or adding sources to this turn's, up to capacity), on hexes with an enemy the
        observer spots, in range."""
        g = self.game
        st, cmd = self.st, self.cmd
        busy = self._busy_sources()
        firers = [s for s in g.units_of(side) if st[s] == ON and cmd[s] == FIRE and not self.fired[s] and
                  self.if_rows(s) and g.units[s].name not in busy]
        batteries = [b for b, bat in enumerate(g.batteries) if bat.side == side and self.battery_ready(b) and
                     bat.name not in busy]
        out = []
        for o in g.units_of(side):
            if self.observer_lost(o) or not self.observer_kind(o) or o in self.arty.checked:
                continue
            targets = self._observer_targets(o)
            if targets is None:
                continue
            out += self._on_map_calls(firers, o, targets) + self._battery_calls(batteries, o, targets)
            out += self.recon_calls(batteries, o)
        return out

    def _observer_targets(self, o: int) -> list | None:
        """The hexes ``o`` may call on now: its mission's Target Point if it called this turn and has capacity
        left, none if its mission runs from an earlier turn, else each hex with an enemy it spots."""
        m = self.mission_of(o)
        if m is not None:
            if m.turn < self.turn or m.recon or m.called >= self.capacity(o):
                return None
            return [m.tp]
        return sorted({self.hex[t] for t in self.spots[o] if self.st[t] == ON})

    def capacity(self, o: int) -> int:
        """Distinct sources an observer may call (MBT 6.5.1.1.1)."""
        return if_data(self.game).capacity[(self.observer_kind(o), self.unit_grade(o))]

    def mission_of(self, o: int) -> Mission | None:
        return next((m for m in self.arty.missions if m.observer == o), None)

    def _on_map_calls(self, firers: list, o: int, targets: list) -> list[Action]:
        g = self.game
        ifd = if_data(g)
        out = []
        for s in firers:
            for h in targets:
                if self._if_band(s, o, h) is None or self._firer_spots(s, h):
                    continue
                name, oname, hl = g.units[s].name, g.units[o].name, g.label(h)
                out.append(Action(("call", name, oname, hl)))
                if s in ifd.smoke_units:
                    out.append(Action(("call", name, oname, hl, "smoke", "onmap")))
        return out

    def battery_missions(self, b: int) -> list[tuple[str, str]]:
        """(mission, SHEAF token) pairs battery ``b`` may fire now (MBT 6.5.1.6; special missions within the
        scenario's allocation, 5.16.2.4; illumination with 7.27, FASCAM with 7.31)."""
        g = self.game
        facts = if_data(g).batteries[b]
        out = []
        for mission, sheafs in MISSION_SHEAFS.items():
            if mission != "GP" and (mission not in facts.missions or not self._special_left(b, mission)):
                continue
            if (mission == "illumination" and not g.optional_on("illumination")) or \
                    (mission == "FASCAM" and not (g.optional_on("mines") and hasattr(self, "lay_fascam"))):
                continue
            for sh in sheafs:
                for tok in ([f"linear-{d}" for d in range(6)] if sh == "linear" else [sh]):
                    out.append((mission, tok))
        return out

    def clgp_ok(self, o: int, h) -> bool:
        """CLGP (MBT 6.5.1.13.3): the observer has a Laser Designator with no smoke on its line (6.5.2.2.5), and
        it spots a vehicle in the hex that is not inside a building."""
        g = self.game
        if o not in if_data(g).designators or self.laser_blocked(self.hex[o], h):
            return False
        return any(self.hex[t] == h and self.st[t] == ON and not g.units[t].type.ag.leg and
                   h not in g.building_hexes for t in self.spots[o])

    def _special_left(self, b: int, mission: str) -> bool:
        prefix = MISSION_PREFIX[mission]
        cap = if_data(self.game).batteries[b].specials.get(prefix)
        return cap is None or dict(self.arty.specials).get((b, prefix), 0) < cap

    def _battery_calls(self, batteries: list, o: int, targets: list) -> list[Action]:
        g = self.game
        out = []
        for b in batteries:
            kinds = self.battery_missions(b)
            for h in targets:
                if self._battery_band(b, o, h) is None:
                    continue
                head = ("call", g.batteries[b].name, g.units[o].name, g.label(h))
                out += [Action(head) if (m, sh) == ("GP", "closed") else Action(head + (m, sh)) for m, sh in kinds
                        if m != "CLGP" or self.clgp_ok(o, h)]
        return out

    def _battery_band(self, b: int, o: int, h):
        """An off-map battery's row and range factor at the observer's range (MBT 6.5.1.13)."""
        r = distance(self.hex[o], h)
        for row in self.game.batteries[b].rows:
            if row.min_range <= r <= row.max_range:
                band, factor = self.gp_factor(row, r)
                if band is not None:
                    return row, band, factor
        return None

    def attachment(self, b: int, o: int) -> str:
        """Attached or Organic to the observer's formation, else Unattached (MBT 6.5.1.3)."""
        bat = self.game.batteries[b]
        if bat.attachment != "unattached" and bat.force == self.game.units[o].force:
            return bat.attachment
        return "unattached"

    def _firer_spots(self, s: int, h) -> bool:
        """IF may not be used against a target the firer can spot itself (MBT 6.5.1)."""
        return any(self.hex[t] == h for t in self.spots[s])

    def _if_band(self, s: int, o: int, h):
        """The GP-IF row and range factor at the greater of the firer's and the observer's range (MBT 6.5.1.13)."""
        r = max(distance(self.hex[s], h), distance(self.hex[o], h))
        for row in self.if_rows(s):
            if row.min_range <= r <= row.max_range:
                band, factor = self.gp_factor(row, r)
                if band is not None:
                    return row, band, factor
        return None

    # ---------------------------------------------------------------- running missions
    def _mission_actions(self, side: int) -> list[Action]:
        """Continue, adjust or check each running mission of ``side`` (MBT 6.5.1.8-9)."""
        g = self.game
        out = []
        for m in self.arty.missions:
            if m.side != side or m.turn >= self.turn:
                continue
            name = g.units[m.observer].name
            if self._may_continue(m):
                out.append(Action(("continue", name)))
            out += [Action(("adjust", name, "at", g.label(h))) for h in self._adjust_hexes(m)]
            out.append(Action(("check", name)))
        return out

    def _sources_ready(self, m: Mission) -> bool:
        """On-map firers of a continuing mission keep a FIRE command (MBT 6.5.1.8)."""
        g = self.game
        for f in m.fires:
            if f.source in g.uindex:
                s = g.uindex[f.source]
                if self.st[s] != ON or self.cmd[s] != FIRE or self.fired[s]:
                    return False
        return True

    def _may_continue(self, m: Mission) -> bool:
        """The observer still spots a target in or next to the Target Point (MBT 6.5.1.8.1)."""
        o = m.observer
        return self._sources_ready(m) and any(self.st[t] == ON and distance(self.hex[t], m.tp) <= 1
                                              for t in self.spots[o])

    def _adjust_hexes(self, m: Mission) -> list:
        """Hexes within adjust-max-hexes of the Target Point holding a target the observer spots (6.5.1.8.2)."""
        if not self._sources_ready(m):
            return []
        reach = if_data(self.game).val["adjust-max-hexes"]
        return sorted({self.hex[t] for t in self.spots[m.observer] if self.st[t] == ON and
                       distance(self.hex[t], m.tp) <= reach})

    # ---------------------------------------------------------------- applying
    def apply_if(self, action) -> None:
        """An action of the Indirect Fire Step."""
        verb = action[0]
        if verb == "pass":
            self._next_if_side()
            return
        g = self.game
        if verb == "planned":
            self._announce_plan(action[1])
            return
        o = g.uindex[action[1] if verb != "call" else action[2]]
        m = self.mission_of(o)
        if verb == "check":
            self._check(m, "checked by its player")
        elif verb == "continue":
            self._continue(m)
        elif verb == "adjust":
            self._adjust_mission(m, g.map.hex(action[3]))
        elif len(action) == 5 and action[4] == "recon":
            self._call_recon(action[1], o, g.map.hex(action[3]))
        else:
            mission, tok = (action[4], action[5]) if len(action) > 4 else ("GP", "closed")
            if action[1] in g.uindex:
                tok = "onmap"
            sheaf, d = read_sheaf(tok)
            self._call(Fire(action[1], mission, sheaf, d), o, g.map.hex(action[3]))

    def _spotted_friends_near(self, side: int, h) -> list[int]:
        """``side``'s units the enemy spots within danger-close-range of ``h`` (MBT 6.5.1.10), nearest first."""
        g = self.game
        seen = set()
        for e in g.enemies_of(side):
            seen.update(self.spots[e])
        reach = if_data(g).val["danger-close-range"]
        near = [u for u in seen if g.units[u].side == side and self.st[u] == ON and
                distance(self.hex[u], h) <= reach]
        return sorted(near, key=lambda u: (distance(self.hex[u], h), u))

    def _call(self, fire: Fire, o: int, h, adjusted: bool = False) -> None:
        """A new source on observer ``o``'s Target Point ``h`` (MBT 6.5.1.7): response, then resolution."""
        g = self.game
        side = g.units[o].side
        m = self.mission_of(o)
        danger = bool(self._spotted_friends_near(side, h))
        if m is None:
            m = Mission(side, o, h, (), 1, danger, False, self.turn)
        self._mark_fired(fire.source)
        m = m._replace(called=m.called + 1)
        self._set_mission(o, m)
        impact = self.fire_response(fire.source, o, h, adjusted=adjusted)
        if impact is None:
            return
        self._set_mission(o, m._replace(fires=m.fires + (fire,), danger=m.danger or danger))
        self.resolve_fire(fire, o, impact)

    def _set_mission(self, o: int, m: Mission | None) -> None:
        a = self.arty
        rest = tuple(x for x in a.missions if x.observer != o)
        a.missions = rest + ((m,) if m is not None else ())

    def _mark_fired(self, source: str) -> None:
        g = self.game
        if source in g.battery_index:
            self.bat_fired[g.battery_index[source]] = True
            return
        s = g.uindex[source]
        self.fired[s] = True
        self.mk[s] = MFIRE  # the firer is marked Spot/Fire at once; the observer is not (MBT 6.5.1)

    def _continue(self, m: Mission) -> None:
        """Continuous fire (MBT 6.5.1.8.1): same Target Point and SHEAFs, no response roll."""
        m = m._replace(turns=m.turns + 1, turn=self.turn, danger=False)
        self._set_mission(m.observer, m)
        self.narrate(f"{self.game.units[m.observer].name} continues its fire mission at {self.game.label(m.tp)}")
        for f in m.fires:
            self._mark_fired(f.source)
            self.resolve_fire(f, m.observer, m.tp)

    def _adjust_mission(self, m: Mission, h) -> None:
        """Adjusted fire (MBT 6.5.1.8.2): a new Target Point, every source rolls its response again with +1."""
        o = m.observer
        self.narrate(f"{self.game.units[o].name} adjusts its fire mission from {self.game.label(m.tp)} to "
                     f"{self.game.label(h)}")
        danger = bool(self._spotted_friends_near(m.side, h))
        self._set_mission(o, m._replace(tp=h, fires=(), turns=m.turns + 1, turn=self.turn, danger=danger))
        for f in m.fires:
            self._mark_fired(f.source)
            impact = self.fire_response(f.source, o, h, adjusted=True)
            if impact is not None:
                cur = self.mission_of(o)
                self._set_mission(o, cur._replace(fires=cur.fires + (f,)))
                self.resolve_fire(f, o, impact)
        if not self.mission_of(o).fires:
            self._set_mission(o, None)

    # ---------------------------------------------------------------- Fire Response
    def response_modifier(self, source: str, o: int, h, adjusted: bool = False) -> int:
        """Called IF Response modifiers (MBT 6.5.1.12.1, table ``if-response-modifiers`` and
        ``indirect-fire-values``), with the observer's IF RSP grade."""
        g = self.game
        ag, val = g.ag, if_data(g).val
        m = ag.if_grade[self.unit_grade(o)]
        if self.sup[o]:
            m += ag.if_mod["observer-suppressed"]
        if self.tdmg[o]:
            m += ag.if_mod["observer-turret-damaged"]
        labels = g.units[o].type.ag.labels
        if "command" in labels and "recon" in labels:
            m += val["command-recon-observer"]
        if adjusted:
            m += val["adjusted"]
        m += val["observer-hindered"] * self.observer_hindrances(self.hex[o], h)
        if g.extension.get("heat_haze") and self._heat_haze(o, h):
            m += val["heat-haze"]
        if source in g.battery_index:
            b = g.battery_index[source]
            card = g.batteries[b].card
            side = g.batteries[b].side
            if (side, h, card) in if_data(g).pre_registered or (side, h, "") in if_data(g).pre_registered:
                m += val["pre-registered"]
            m += self.battery_response_modifier(b)
        return m

    def battery_response_modifier(self, b: int) -> int:
        """Counter-battery damage (optional rule 7.28: ``opt_counter_battery``); 0 here."""
        return 0

    def _heat_haze(self, o: int, h) -> bool:
        """Heat haze (MBT 6.5.1.12.1): the range reaches the limit of the largest target spotted there."""
        g = self.game
        sizes = {g.units[t].type.ag.size for t in self.spots[o] if self.hex[t] == h}
        size = next((z for z in ("V", "L", "S") if z in sizes), "V")
        return distance(self.hex[o], h) >= if_data(g).val[SIZE_OF[size]]

    def fire_response(self, source: str, o: int, h, attachment: str | None = None, adjusted: bool = False,
                      extra: int = 0):
        """Fire Response (MBT 6.5.1.12): the impact hex, or None when the source does not respond. An unmodified
        1 is Danger Close onto the nearest spotted friendly unit within 5 hexes (``ENGINE_POLICIES
        ['danger-close']``), else a failure; optional rule 7.26.1 scatters an impact whose modified roll equals
        the factor."""
        g = self.game
        if attachment is None:
            attachment = self.attachment(g.battery_index[source], o) if source in g.battery_index else "attached"
        factor = g.ag.if_response[(self.observer_kind(o), attachment)]
        roll = self.dice.roll(10, f"IF response {source} by {g.units[o].name}")
        m = self.response_modifier(source, o, h, adjusted) + extra
        if roll == 1:
            return self._danger_close(source, o, h)
        ok = roll + m >= factor
        if self.dice.record:
            self.narrate(f"{g.units[o].name} calls {source} on {g.label(h)}: response roll {roll}{m:+d} vs "
                         f"{factor}: {'responds' if ok else 'no response'}")
        if not ok:
            return None
        if roll + m == factor and g.optional_on("scatter"):
            return self.scatter(h, source)
        return h

    def _danger_close(self, source: str, o: int, h):
        g = self.game
        near = self._spotted_friends_near(g.units[o].side, h)
        if not near:
            self.narrate(f"{g.units[o].name} calls {source} on {g.label(h)}: response roll 1: no response")
            return None
        hit = self.hex[near[0]]
        self.narrate(f"{g.units[o].name} calls {source} on {g.label(h)}: response roll 1: Danger Close, the fire "
                     f"lands on {g.units[near[0]].name} at {g.label(hit)}")
        return hit

    def scatter(self, h, source: str):
        """Optional rule 7.26.1 (``opt_scatter``); no scatter here."""
        return h

    # ---------------------------------------------------------------- resolution
    def resolve_fire(self, fire: Fire, o: int, h, planned: bool = False) -> None:
        """One source's fire at impact hex ``h`` (MBT 6.5.1.13): special missions roll their ammo limit
        (5.16.2.2, 5.16.2.4); GP and ICM attack the SHEAF, smoke and illumination place clouds, FASCAM lays a
        minefield (7.31); every impact area is a Barrage this turn."""
        g = self.game
        hexes = sheaf_hexes(h, fire.sheaf, fire.direction, if_data(g).val)
        hexes = frozenset(x for x in hexes if x in g.map.label_of)
        if fire.mission != "GP" and not self._ammo_roll(fire):
            return
        kind = "open" if fire.sheaf == "open" else "closed"
        if self.dice.record:
            self.narrate(f"artillery lands at {g.label(h)} ({fire.source}, {fire.mission} {sheaf_token(fire)}, "
                         f"{len(hexes)} hex{'es' if len(hexes) != 1 else ''})")
        if fire.mission == "smoke":
            self.place_cloud("smoke", hexes, kind)
        elif fire.mission == "illumination":
            self.place_cloud("illum", hexes, "closed")
        elif fire.mission == "CLGP":
            self._clgp_impact(fire, o, h)
        elif fire.mission == "FASCAM":
            side = g.batteries[g.battery_index[fire.source]].side
            self.lay_fascam(hexes, side)
        else:
            self.arty.barrages = self.arty.barrages + (Barrage(hexes, kind, self.step_key()),)
            self._gp_impact(fire, o, h, hexes, planned)
        if fire.source in g.battery_index:
            self.after_battery_fire(g.battery_index[fire.source])

    def _clgp_impact(self, fire: Fire, o: int, h) -> None:
        """Each spotted vehicle in the hex (not inside a building) is attacked: roll (100) up to clgp-ko-max KO,
        up to clgp-bu-max BU, else no effect (MBT 6.5.1.13.3; 86-100 is not stated, Q20)."""
        g = self.game
        val = if_data(g).val
        for t in [t for t in self.spots[o] if self.hex[t] == h and self.st[t] == ON and
                  not g.units[t].type.ag.leg and h not in g.building_hexes]:
            roll = self.dice.roll(100, f"CLGP {fire.source}>{g.units[t].name}")
            result = "KO" if roll <= val["clgp-ko-max"] else "BU" if roll <= val["clgp-bu-max"] else "ND"
            self.attacked[t] = True
            self.narrate(f"CLGP at {g.units[t].name}: roll {roll}: {result}")
            if result != "ND":
                self.apply_damage(t, result, "TF")

    def after_battery_fire(self, b: int) -> None:
        """Counter-battery fire at battery ``b`` (optional rule 7.28: ``opt_counter_battery``); nothing here."""

    def _ammo_roll(self, fire: Fire) -> bool:
        """Special missions (MBT 5.16.2.2, 5.16.2.4): roll (10) at or under the ammo limit, else nothing lands;
        a fired special mission counts against the scenario's allocation."""
        g = self.game
        prefix = MISSION_PREFIX[fire.mission]
        if fire.source in g.battery_index:
            b = g.battery_index[fire.source]
            limit = if_data(g).batteries[b].limits.get(prefix)
            if not self._special_left(b, fire.mission):
                self.narrate(f"{fire.source}: no {fire.mission} mission left (scenario allocation, MBT 5.16.2.4)")
                return False
        else:
            b, limit = -1, if_data(g).smoke_limit.get(g.uindex[fire.source]) if prefix == "S" else None
        if limit is not None:
            roll = self.dice.roll(10, f"ammo limit {prefix} {fire.source}")
            if roll > limit:
                self.narrate(f"{fire.source} {fire.mission}: ammo limit roll {roll} > {prefix}{limit}: not fired")
                return False
        if b >= 0:
            used = dict(self.arty.specials)
            used[(b, prefix)] = used.get((b, prefix), 0) + 1
            self.arty.specials = tuple(sorted(used.items()))
        return True

    def _gp_impact(self, fire: Fire, o: int, h, hexes, planned: bool) -> None:
        """GP (or ICM) at every ground unit and visible minefield in the SHEAF (MBT 6.5.1.5, 6.5.1.13, 7.31.3), and at
        helicopters at NOE or landed (ICM: landed only, 6.7.9.1, ``air.heli_in_pattern``)."""
        g = self.game
        band_row = self._fire_band(fire, o, h, planned)
        if band_row is None:
            return
        row, band, factor = band_row
        s = g.uindex.get(fire.source, -1)
        for t in [t for t in range(g.n) if self.st[t] == ON and self.hex[t] in hexes and
                  (not g.units[t].type.ag.heli or self.heli_in_pattern(t, fire.mission))]:
            self.attacked[t] = True
            self._if_attack(s, t, row, band, factor, fire, h)
        if fire.mission == "GP" and getattr(self, "mines", None):
            for x in sorted(hexes):
                self.attack_minefield(x, factor, f"IF {fire.source}")

    def _fire_band(self, fire: Fire, o: int, h, planned: bool):
        """Row, band and GP factor (MBT 6.5.1.13): Planned fire at band M; called on-map fire at the greater
        range, off-map at the observer's."""
        g = self.game
        if fire.source in g.uindex:
            return self._if_band(g.uindex[fire.source], o, h)
        b = g.battery_index[fire.source]
        if planned:
            row = g.batteries[b].rows[0]
            return row, "M", row.gp["PSMLE".index("M")]
        return self._battery_band(b, o, h)

    def _if_attack(self, s: int, t: int, row, band: str, factor: int, fire: Fire, tp) -> None:
        """One unit in the SHEAF (MBT 6.5.4.4): GP Defense (legs by overhead protection only), IF modifiers."""
        g = self.game
        ag = g.units[t].type.ag
        if fire.mission == "ICM" and self.hex[t] in g.building_hexes:
            self.narrate(f"ICM at {g.units[t].name}: no effect inside a building (MBT 6.5.1.13.1)")
            return
        fmax, dmax = g.ag.gp_max
        defense = self.if_leg_defense(t) if ag.leg else ag.gp_value
        defense = max(1, min(dmax, defense))
        n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, factor)), defense)]
        net = self.if_modifiers(t, fire, tp)
        roll = self.dice.roll(100, f"IF {fire.source}>{g.units[t].name}")
        x = roll + net
        effect = "N" if x <= n_eff else ("S" if x <= s_eff else "E")
        if ag.leg:
            result = self.apply_leg_result(t, effect)
        elif ag.heli:
            result = self.heli_result(t, x, effect, "indirect fire")  # MBT 6.7.9.1, 6.7.8.2.2
        else:
            result = self.gp_vehicle_result(row, band, factor, defense, x, effect, ag.target_type)
            if self.ofire is not None:  # MBT 7.8.3 Open Turret damage, 7.47 installation damage (optional)
                result = self.opt_gp_vehicle_result(s, t, row, band, effect, result, x, s_eff)
        if self.dice.record:
            self.narrate(f"IF at {g.units[t].name} (GPD {defense}{ag.target_type}): roll {roll}{net:+d} = {x} "
                         f"vs N {n_eff} / S {s_eff}: {effect}-Effect -> {result}")
        if not ag.leg and not ag.heli:
            self.apply_gp_result(s, t, row, result)
            self.passenger_gp(s, t, row, factor, net - self._if_vehicle_mods(t, tp), direct=False)

    def if_leg_defense(self, t: int) -> int:
        """Leg GP Defense against IF: only overhead protection counts as cover (MBT 6.5.4.3: inside a building
        Medium, else None), -2 when moving."""
        ag = self.game.units[t].type.ag
        overhead = self.game.building_hexes
        d = ag.gpd_cover["medium" if self.hex[t] in overhead else "none"]
        if self.cmd[t] in (MOVE, SH) and self.rev[t]:
            d -= 2
        return max(1, min(10, d))

    def _if_vehicle_mods(self, t: int, tp) -> int:
        """Target type; moving -20 only in the Target Point hex (MBT 6.5.4.3, Q9)."""
        m = self.game.ag.gp_mod
        net = {"A": m["target-a-type"], "P": m["target-p-type"]}.get(self.game.units[t].type.ag.target_type, 0)
        if self.cmd[t] in (MOVE, SH) and self.rev[t] and self.hex[t] == tp:
            net += self.game.ag.if_mod["target-moving-if"]
        return net

    def if_modifiers(self, t: int, fire: Fire, tp) -> int:
        """GP modifiers of indirect fire (MBT 6.5.4.3): target type and moving for vehicles; off-map Open SHEAF
        -20; ICM +20 (6.5.1.13.1); the battery's counter-battery state (7.28.2); air bursts (7.38). No grade
        (6.5.1.12.1: the firer's grade has no effect), cover, smoke or sight modifiers."""
        g = self.game
        val = if_data(g).val
        net = 0 if g.units[t].type.ag.leg else self._if_vehicle_mods(t, tp)
        if fire.sheaf == "open" and fire.source in g.battery_index:
            net += val["open-sheaf-gp"]
        if fire.mission == "ICM":
            net += val["icm-gp"]
        if fire.source in g.battery_index:
            net += self.battery_gp_modifier(g.battery_index[fire.source])
        return net + self.air_burst(t)

    def battery_gp_modifier(self, b: int) -> int:
        """Counter-battery Suppressed/Damaged (optional rule 7.28: ``opt_counter_battery``); 0 here."""
        return 0

    def air_burst(self, t: int) -> int:
        """Air bursts (optional rule 7.38: ``opt_air_bursts``); 0 here."""
        return 0

    def recon_calls(self, batteries: list, o: int) -> list[Action]:
        """Reconnaissance by fire (optional rule 7.37: ``opt_recon_by_fire``); none here."""
        return []

    def _call_recon(self, source: str, o: int, h) -> None:
        raise NotImplementedError  # pragma: no cover - opt_recon_by_fire

    # ---------------------------------------------------------------- planned fire
    def _planned_actions(self, side: int) -> list[Action]:
        """Announce a plot on its turn or one turn early (MBT 6.5.1.11.2)."""
        g = self.game
        ifd = if_data(g)
        if not ifd.plans:
            return []
        out = []
        for k, p in enumerate(ifd.plans):
            if p.side == side and self.arty.plans[k] == 0 and p.turn - 1 <= self.turn <= p.turn and \
                    self._plan_battery_free(p):
                out.append(Action(("planned", f"{g.batteries[p.battery].name}@{p.turn}")))
        return out

    def _plan_battery_free(self, p) -> bool:
        a = self.arty
        b = self.game.batteries[p.battery]
        return not self.bat_fired[p.battery] and a.bat[p.battery] != 3 and a.rest[p.battery] <= self.turn and \
            b.name not in self._busy_sources()

    def _announce_plan(self, token: str) -> None:
        g = self.game
        k = next(k for k, p in enumerate(if_data(g).plans) if f"{g.batteries[p.battery].name}@{p.turn}" == token)
        self._start_plan(k)

    def _start_plan(self, k: int) -> None:
        a = self.arty
        plans = list(a.plans)
        plans[k] = self.turn
        a.plans = tuple(plans)
        self._fire_plan(k)

    def _planned_due(self, side: int) -> None:
        """Plots running from an earlier turn fire their segment; a plot not announced arrives one turn late."""
        for k, p in enumerate(if_data(self.game).plans):
            if p.side != side:
                continue
            start = self.arty.plans[k]
            if start == 0 and self.turn == p.turn + 1 and self._plan_battery_free(p):
                self._start_plan(k)
            elif start > 0 and start < self.turn:
                self._fire_plan(k)

    def _fire_plan(self, k: int) -> None:
        """This turn's segment of plot ``k`` (MBT 6.5.1.11): no observer, no response; after the last turn the
        battery rests one turn."""
        g = self.game
        p = if_data(g).plans[k]
        a = self.arty
        step = self.turn - a.plans[k]
        seg = p.segment_at(step)
        bat = g.batteries[p.battery]
        self.bat_fired[p.battery] = True
        self.narrate(f"planned fire of {bat.name} arrives at {g.label(seg.hex)} (turn {step + 1} of {p.length})")
        self.resolve_fire(Fire(bat.name, seg.mission, seg.sheaf, seg.direction), -1, seg.hex, planned=True)
        if step + 1 >= p.length:
            plans, rest = list(a.plans), list(a.rest)
            plans[k], rest[p.battery] = -1, self.turn + 2
            a.plans, a.rest = tuple(plans), tuple(rest)
