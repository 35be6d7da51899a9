"""The Assault game, registered as the plugin's ``game_factory``.

What it plays: the force-level draw and reinforcements (Assault 24.B), the sequence of play (2), command
control with HQ/TOC ratings and operations points (4-6, ``command.py``), vehicle movement with march/combat
costs from table terrain-effects and leg movement with its entry roll and fatigue (7.B, 7.D, 7.E), formation
changes and cover (7.C, 7.G), spotting at the end of each movement and fire phase with its unspotting and
autospot during movement (10), direct fire declared by both players and resolved together (12.D, 9.B):
anti-armour fire with hits, front/flank armour, penetration and confirmation (13), conventional fire on the CRT
(14), opportunity fire during enemy movement (15, ``opportunity.py``), close assault after movement (16),
company morale (17), transport and entrenchments (8, 18, ``transport.py``), artillery, the fire timetable,
CLGP and ammunition (19, 21-23, ``artillery.py``), smoke and wind (20, ``smoke.py``), HQ replacement (4.C.3) and
victory points with the drawn multiplier (24.E); steep slopes (7.E.2), dummies (10.F), battle drill (4.D.2), the
missile-firer spotting step (ESoP fire phase 1-2). What it does not play: see ``../COVERAGE.md``.

Action texts: ``move <unit> <hex>``, ``form <unit> march|combat``, ``cover <unit>``, ``rally <unit>``,
``rally-company <company>`` (17.B, with OPs), ``toc <unit> plan|execute`` (6.A), ``face <unit> <0-5>`` (7.F), ``fire <unit> <ammo> <target> [roof]`` (fire phase, opportunity fire and close assault; ``roof``: from the
rooftops, 12.B.2), ``exit <unit>`` (off the
side's exit edge, Assault 24.E), ``mount <unit> <carrier>``, ``dismount <unit>`` (8), ``entrench <unit>`` (18),
``undeploy <unit>`` (19.E), ``replace <HQ designation> <unit>`` (4.C.3), ``attach <unit> <HQ designation>`` (4.C.4),
``drill <company|bnN> march|combat|<direction>`` (Soviet battle drill, 4.D.2, ``drill.py``), ``stack <unit>
march|combat|<direction>`` (one order for a hex's stack, free with an HQ, 4.C, 4.D.1), ``dummy <unit>`` (a
dummy returns, 10.F, ``dummies.py``); in the artillery phase ``plot <firer> <hex>
<ammo> [max]``, ``cancel <firer>``, ``abort-timetable``, ``deploy <unit>`` (19, 21); ``end``.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from operator import attrgetter

from studio.hexgrid import coords
from studio.model.forces import expand_force
from studio.model.maps import assemble_scenario, edge_key
from studio.rules.api import TERMINAL, Game, Outcome, RulesError, State
from studio.rules.dice import Dice

from ..cards import ANTI_ARMOUR, AssaultCounter
from ..designations import parse
from . import fire, spotting
from .data import compile_ruleset
from .dice import d10
from .command import CommandControl, Replacement, receiving_company, roll_ratings
from .artillery import Artillery, batteries, wind
from .caches import Caches
from .drill import BattleDrill
from .dummies import Dummies
from .opportunity import OpportunityFire
from .sequence import PHASES, next_phase
from .smoke import Smoke
from .transport import Transport

SPOT_COLUMNS = {"personnel": "personnel", "weapon": "weapon", "vehicle": "vehicle"}


@dataclass(frozen=True, slots=True)
class FireRowData:
    ammo: str
    rof: int
    cells: tuple          # per range column: None (X), (hit, pen) or a fire value


@dataclass(frozen=True, slots=True)
class CardData:
    id: str
    body: AssaultCounter
    rows: tuple[FireRowData, ...]


def _cell(ammo: str, cell):
    if cell == "X":
        return None
    if ammo in ANTI_ARMOUR:
        hit, pen = str(cell).split(":")
        return int(hit), int(pen)
    return int(cell)


@dataclass(slots=True)
class Counter:
    """One counter in play (Assault 1.C): steps, formation, facing, spotted and suppressed state."""

    id: str
    card: str
    side: int
    hex: tuple
    steps: int
    formation: str = "combat"
    facing: int = 0
    spotted: bool = False
    suppressed: bool = False
    moved: bool = False          # moved in the current movement phase
    moved_first: bool = False    # moved in its side's first movement phase this turn (Assault 12.B.4)
    mp_used: int = 0
    fired: dict = field(default_factory=dict)   # ammo -> fires this phase (Assault 12.D)
    company: str = ""                           # the company it checks morale with (Assault 17.A)
    fatigued: bool = False                      # leg unit that moved in movement phase 2 (Assault 7.D)
    failed: tuple = ()                          # hexes whose leg entry roll failed this phase (option c18)
    rally_tried: bool = False                   # tried to rally from suppression this phase (Assault 17.B)
    cover: bool = False                         # in cover, covering the two hexsides of its vertex (7.G)
    changed: bool = False                       # changed formation this phase (Assault 7.C)
    opp_fired: dict = field(default_factory=dict)   # ammo -> opportunity fires this phase (12.D, 15)
    seen_start: tuple = ()                      # enemy ids that saw it when its move began (Assault 15.A)
    seen_run: dict = field(default_factory=dict)    # enemy id -> consecutive hexes of its move in view (15.A)
    designation: str = ""                       # its TO&E designation (Assault 3): company, superiors
    paid: bool = False                          # its combat-formation move is paid this phase (Assault 4.C.2)
    toc_mode: str = "command"                   # a TOC's order this player turn: command, plan, execute (6.A)
    toc_bank: int = 0                           # a TOC's planning track (Assault 6.A.2)
    road_used: bool = False                     # moved along a road this phase (Assault 9.A)
    refaced: bool = False                       # changed facing after its last hex this phase (Assault 7.F)
    carrier: str = ""                           # the id of the counter carrying it (Assault 8.C)
    deployed: bool = False                      # an indirect fire unit in deployment (Assault 19.E)
    entrenched: bool = False                    # under an entrenchment marker (Assault 18)
    fired_mission: bool = False                 # fired an indirect fire mission this turn (Assault 19.E)
    attached: str = ""                          # the HQ it is cross-attached to (Assault 4.C.4)
    climbed: bool = False                       # climbed a steep slope this phase (Assault 7.E.2)
    dummy: bool = False                         # a dummy counter imitating its card (Assault 10.F)
    drill: str = ""                             # the battle-drill group it moved with this phase (4.D.2)
    spot_tried: bool = False                    # an enemy spotting attempt against it this phase (10.C)
    roof: bool = False                          # fired from the rooftops: one level up until it moves (12.B.2)
    DERIVED_SLOTS = {}

    def copy(self) -> "Counter":
        out = Counter(*_COUNTER_FIELDS(self))                         # every field, in order (fast: no reduce)
        out.fired, out.opp_fired, out.seen_run = dict(self.fired), dict(self.opp_fired), dict(self.seen_run)
        return out


#: reads every field of a Counter in declaration order (``Counter.copy``)
_COUNTER_FIELDS = attrgetter(*(f.name for f in dataclasses.fields(Counter)))


@dataclass(slots=True)
class Morale:
    """A company's morale (Assault 17): initial level, steps lost, state, fired at this phase."""

    initial: int
    lost: int = 0
    state: str = "normal"        # normal, shaken, broken (Assault 17.A.2)
    fired_at: bool = False
    rally_tried: bool = False    # tried a company rally this phase (Assault 17.B)
    DERIVED_SLOTS = {}

    @property
    def level(self) -> int:
        return self.initial - self.lost                             # Assault 17.A.1


@dataclass(frozen=True, slots=True)
class Declared:
    firer: str
    ammo: str
    target: str


class AssaultGame(Game):
    """Compiled scenario, ruleset tables and cards; ``new_initial_state`` draws the force levels."""

    ruleset_id = "assault"
    phases = PHASES

    def __init__(self, scenario, index, options):
        rs = index.model("ruleset", scenario.ruleset)
        self.ruleset_version = rs.version
        self.scenario_id = scenario.id
        self.sides = [s.id for s in scenario.sides]
        self.max_turns = scenario.turns
        self.options = dict(options or {})
        self.data = compile_ruleset(rs)
        self.map = assemble_scenario(scenario, index)
        self._compile_tables(rs)
        self.regiment_of = {b.battalion: b.regiment for b in scenario.extension.battalions.get("soviet", [])
                            if b.battalion is not None and b.regiment is not None}             # Assault 4.B.2
        self.cards = {}
        self._compile_map(rs)
        self.chains: dict = {}             # (side, designation) -> superiors that may pay for it (Assault 4.C)
        self.scenario = scenario
        self.index = index
        self.victory = list(scenario.victory)
        self.exit_edges = {self.sides.index(v.side): set(self._edge_hexes(v.edge)) for v in scenario.victory
                           if v.type == "exit_units" and v.edge and v.side in self.sides}         # Assault 24.E
        self.levels = {side: sorted(scenario.extension.force_levels.get(side, []), key=lambda lv: lv.level)
                       for side in self.sides}
        self.batteries = batteries(self)                                                    # Assault 19.F
        w = scenario.environment.wind
        self.environment_rules_applied = (
            ("wind rolled on tables wind-direction and wind-velocity at the start (Assault 20.A.1-2, 24)",)
            if scenario.extension.wind_rolled else
            (f"wind from {w.direction}, {w.strength}: smoke screens face along it and drift downwind, no smoke "
             "missions in a strong wind (Assault 20.A)",))
        self.entrenched = {self.map.hex_of[h] for e in scenario.extension.entrenchments.values()
                           for h in e.hexes if h in self.map.hex_of}                         # Assault 18
        self.edges: dict = {}
        self.observed: dict = {}           # observation caches of the plotting step (artillery.Artillery)
        self.seen_from: dict = {}          # hex -> hexes in range with a clear LOS graph (static map)
        self.caches = True                 # False: every cache of ``caches.py`` off (tests compare both ways)
        self.entry_cells: dict = {}        # (card, formation, from, to, road) -> terrain-effects cell (7.B-7.E)
        self.entry_signature: tuple = ()   # the terrain-effects rows entry_cells was filled from
        self.smoke_los: dict = {}          # screens -> {(from, to, thermal): blocked} (20.B, caches.py)
        self.smoke_last = None             # (the smoke list last asked about, its table) (caches.py)
        self.drill_keys: dict = {}         # Soviet designation -> its battle-drill group keys (4.D.2)
        self.plots: dict = {}              # what a firer's plot actions depend on -> (observed, actions) (19.B)
        self.phasing_of = {p.id: -1 if p.id == "artillery" else self.sides.index(p.id.split("-")[0])
                           for p in PHASES if p.id == "artillery" or p.id.split("-")[0] in self.sides}
        # ^ phase -> the side whose player turn it is (Assault 2)

    def entry_table(self) -> dict:
        """``entry_cells``, emptied first when a terrain-effects row was edited since it was filled (the rows are
        plain dicts: tests edit them in place)."""
        signature = tuple(tuple(row.items()) for row in self.effects.values())
        if signature != self.entry_signature:
            self.entry_cells, self.entry_signature = {}, signature
        return self.entry_cells

    def visible(self, h) -> list:
        """The hexes within spotting range of ``h`` with a clear LOS graph (terrain only; smoke aside)."""
        if h not in self.seen_from:
            probe = AssaultState(self, Dice(0), [], [0, 0])
            self.seen_from[h] = [t for t in self.map.label_of if probe.has_los(h, t)]
        return self.seen_from[h]

    def edge_distance(self, edge: str) -> dict:
        """Hex -> its distance in hexes from the map edge ``edge`` (off-board artillery range, 19.F)."""
        if edge not in self.edges:
            line = self._edge_hexes(edge)
            self.edges[edge] = {h: min(coords.distance(h, e) for e in line) for h in self.map.label_of}
        return self.edges[edge]

    def _compile_tables(self, rs) -> None:
        """The ruleset tables read beside ``AssaultData`` (by column name; ENGINE_TABLES fixes their shape)."""
        def keyed(table_id: str) -> dict:
            t = rs.table(table_id)
            return {r[0]: dict(zip(t.columns, r)) for r in t.rows}

        self.effects = keyed("terrain-effects")                                            # Assault 7.B
        self.terrain_spot = keyed("terrain-spotting")                                       # Assault 10.D
        self.status_mod = {r[0]: r[1] for r in rs.table("target-status").rows}
        self.spotter_mod = {r[0]: r[1] for r in rs.table("spotter-status").rows}
        self.command_ratings = keyed("command-ratings")                                     # Assault 4.B.1
        self.indirect_defence = keyed("indirect-defence")                                   # Assault 19.C.3
        self.delay = keyed("indirect-delay")                                                # Assault 19.B.3
        self.command_levels = {r[0]: r[1] for r in rs.table("soviet-command-levels").rows}   # Assault 19.B.3
        self.smoke_duration = {(r[0], r[1]): (r[2], bool(r[3])) for r in rs.table("smoke-duration").rows}  # 20.A.4
        self.wind_direction = {r[0]: r[1] for r in rs.table("wind-direction").rows}          # Assault 20.A.1
        self.wind_velocity = sorted((r[0], r[1]) for r in rs.table("wind-velocity").rows)   # Assault 20.A.2
        crt = rs.table("conventional-crt")
        self.crt_columns = [(i, _ratio(c)) for i, c in enumerate(crt.columns) if i]         # Assault 14.C
        self.crt = {r[0]: r for r in crt.rows}

    def _compile_map(self, rs) -> None:
        """Terrain, LOS heights, neighbours and caches of the static map (Assault 10.B)."""
        self.terrain_id = {t.code: t.id for t in rs.terrain}
        self.los_height = {t.id: t.los.height for t in rs.terrain}
        if self.options.get("c7-urban-strip-los") == "plus-one":
            self.los_height["urban-strip"] = self.los_height.get("town", 1)     # Assault 10.B.2, option c7
        self.los_cache: dict = {}          # (from, to[, lift, up]) -> (in spotting range, LOS graph clear), for
        #                                    pairs in range or asked at any range; the map is static (Assault 10.B)
        self.terrain_of = {h: self.terrain_id.get(t, "clear") for h, t in self.map.terrain.items()}
        self.neighbours = {h: [n for n in coords.neighbours(h) if self.map.on_map(n)] for h in self.map.label_of}
        self.obstacle = {h: self.map.elevation.get(h, 0) + self.los_height.get(t, 0)
                         for h, t in self.terrain_of.items()}          # Assault 10.B.2: level + terrain height
        self.lines: dict = {}              # (dq, dr) -> the hexes between, as offsets: lines are translation-free
        self.spines: dict = {}             # (dq, dr) -> the hexes between nudged both ways (option c21)
        drop = self.data.constant("steep-slope-drop")
        elevation = self.map.elevation
        self.steep = {h for h, ns in self.neighbours.items()                  # Assault 7.E.2, reading steep-slope-map
                      if any(elevation.get(h, 0) - elevation.get(n, 0) >= drop for n in ns)}

    def data_fingerprint(self) -> str:
        return self.data.fingerprint() + repr((sorted(self.effects.items()), sorted(self.terrain_spot.items()),
                                               sorted(self.status_mod.items()), sorted(self.spotter_mod.items()),
                                               sorted(self.crt.items()), sorted(self.command_ratings.items()),
                                               sorted(self.indirect_defence.items()), sorted(self.delay.items()),
                                               sorted(self.command_levels.items()), sorted(self.smoke_duration.items()),
                                               sorted(self.wind_direction.items()), self.wind_velocity))

    def card(self, unit_id: str) -> CardData:
        got = self.cards.get(unit_id)
        if got is None:
            body = self.index.model("unit", unit_id).body
            rows = tuple(FireRowData(r.ammo, r.rof, tuple(_cell(r.ammo, c) for c in r.cells))
                         for r in body.direct_fire)
            got = self.cards[unit_id] = CardData(unit_id, body, rows)
        return got

    def new_initial_state(self, seed: int) -> "AssaultState":
        dice = Dice(seed)
        drawn = [dice.randrange(len(self.levels[s])) + 1 if self.levels[s] else 0 for s in self.sides]  # 24.B
        counters = self.all_counters(drawn)
        bearing, speed = wind(self, dice)                                                    # Assault 20.A, 24
        state = AssaultState(self, dice, self.initial_counters(drawn), drawn, morale=self.initial_morale(counters),
                             ratings=roll_ratings(self, dice), wind_bearing=bearing, wind_speed=speed)
        state._place_dummies()                                                               # Assault 10.F
        state.missions = state.timetable_missions()                                          # Assault 21
        state._artillery_start()
        dice.record = False        # the set-up rolls are kept; batch play narrates nothing (the replay walk sets it)
        return state

    def all_counters(self, drawn: list) -> list[Counter]:
        """Set-up counters and every reinforcement of the drawn levels (for the companies' morale)."""
        return self.initial_counters(drawn) + [c for s in range(len(self.sides)) for t in range(self.max_turns)
                                               for c in self.reinforcements(s, drawn[s], t + 1)]

    def level(self, side: int, drawn: int):
        """The drawn force level of ``side`` (None when the scenario gives none)."""
        return self.levels[self.sides[side]][drawn - 1] if drawn else None

    def initial_counters(self, drawn: list) -> list[Counter]:
        """The counters the drawn force levels set up (Assault 24.B); without levels every set-up force."""
        counters = []
        for s, side in enumerate(self.scenario.sides):
            level = self.level(s, drawn[s])
            present = set(level.forces) if level else {f.id for f in side.forces if f.setup}
            for force in side.forces:
                if force.id in present and force.setup and force.setup.hexes:
                    counters += self._place(force, s)
        return counters

    def reinforcements(self, side: int, drawn: int, turn: int) -> list[Counter]:
        """Counters the drawn level brings in on ``turn``, on the side's entry edge (Assault 24.A-B): the
        force's entry hexes, else the edge's hexes from the middle outward."""
        level = self.level(side, drawn)
        out = []
        for rf in (level.reinforcements if level else []):
            if rf.turn != turn:
                continue
            for force in self.scenario.sides[side].forces:
                if force.id in rf.forces:
                    edge = rf.edge or ("east" if self.sides[side] == "soviet" else "west")
                    out += self._enter(force, side, edge)
        return out

    def _edge_hexes(self, edge: str) -> list:
        """The hexes of a map edge (the outermost column or row), from the middle outward."""
        axis = 0 if edge in ("east", "west") else 1
        cols = {h: self.map.offset(h) for h in self.map.label_of}
        values = [v[axis] for v in cols.values()]
        target = max(values) if edge in ("east", "south") else min(values)
        hexes = sorted((h for h, v in cols.items() if v[axis] == target), key=lambda h: cols[h][1 - axis])
        mid = len(hexes) // 2
        return sorted(hexes, key=lambda h: abs(hexes.index(h) - mid))

    def _enter(self, force, side: int, edge: str) -> list[Counter]:
        hexes = [self.map.hex(h) for h in force.entry.hexes] if force.entry and force.entry.hexes else \
            self._edge_hexes(edge)
        out = self._counters_of(force, side)
        for n, c in enumerate(out):
            c.hex = hexes[n % len(hexes)]
        return out

    def _place(self, force, side: int) -> list[Counter]:
        """The force's counters on its set-up hexes, one hex per counter in order (checks d.29), in their set-up
        state (extension ``counters``: formation, facing, cover; Assault 7.C, 7.F, 7.G)."""
        out = self._counters_of(force, side)
        keys = self._setup_keys(force)
        for n, c in enumerate(out):
            c.hex = self.map.hex(force.setup.hexes[min(n, len(force.setup.hexes) - 1)])
            st = self.scenario.extension.counters.get(keys[n])
            if st is not None:
                c.formation, c.facing, c.cover = st.formation, st.facing, st.cover and st.formation == "combat"
                c.deployed = st.deployed and self.card(c.card).body.indirect_fire is not None     # Assault 19.E
                c.entrenched = st.entrenched and c.hex in self.entrenched                          # Assault 18
        self._board(out, keys)
        return out

    def _board(self, out: list, keys: list) -> None:
        """Set-up passengers (extension ``counters.<key>.carrier``: the carrier's designation, Assault 8, d.28):
        under the first counter of that designation with a transport circle and room."""
        for n, c in enumerate(out):
            st = self.scenario.extension.counters.get(keys[n])
            if st is None or not st.carrier:
                continue
            for t in out:
                body = self.card(t.card).body
                load = sum(p.steps for p in out if p.carrier == t.id)
                if t.designation == st.carrier and body.transport != "none" and load + c.steps <= t.steps:
                    c.carrier, c.hex = t.id, t.hex
                    break

    def _counters_of(self, force, side: int) -> list[Counter]:
        facing = 5 if self.sides[side] == "us" else 2
        companies = self._companies(force, side)
        texts = self._slot_designations(force)
        attached = self.scenario.extension.cross_attachments                                # Assault 4.C.4
        out = [Counter(f"{force.id}.{n + 1}", fu.unit, side, None, self.card(fu.unit).body.steps, facing=facing,
                       company=companies[n], designation=texts[n] or "")
               for n, fu in enumerate(expand_force(force, self.index))]
        for c in out:
            if attached.get(c.designation):
                c.attached = attached[c.designation]
                c.company = receiving_company(self.sides[side], c.attached)                  # Assault 17.A
        return out

    def _setup_keys(self, force) -> list[str]:
        """The extension key of each counter: '<force>/<slot path>', with '/<n>' for a slot of several."""
        units = expand_force(force, self.index)
        counts: dict[str, int] = {}
        for fu in units:
            counts[fu.path] = counts.get(fu.path, 0) + 1
        return [f"{force.id}/{fu.path.split('/', 1)[-1]}" + (f"/{fu.copy + 1}" if counts[fu.path] > 1 else "")
                for fu in units]

    def _slot_designations(self, force) -> list[str | None]:
        """The slot designation of each counter of ``force`` (Assault 3), None where the TO&E gives none."""
        toe = self.index.model("toe", force.toe)
        slots = {}
        stack = [(toe.root, "")] if toe else []
        while stack:
            ech, prefix = stack.pop()
            here = f"{prefix}{ech.id}"
            slots.update({f"{here}/{sl.id}": sl.designation for sl in ech.slots})
            stack += [(child, here + "/") for child in ech.children]
        return [slots.get(fu.path) for fu in expand_force(force, self.index)]

    def _companies(self, force, side: int) -> list[str]:
        """The company key of each counter of ``force`` from its slot designation (Assault 3, 17.A): U.S. line
        platoons share their company (C1); HQs, TOCs, battalion platoons and Soviet company codes (A3, AT91)
        are companies of their own designation; a counter without designation checks alone."""
        out = []
        for n, text in enumerate(self._slot_designations(force)):
            d = parse(self.sides[side], text) if text else None
            if d is None:
                out.append(f"{force.id}.{n + 1}")
            elif d.side == "us" and d.role == "line":
                out.append(f"{d.company}{d.battalion}")
            else:
                out.append(text.replace("-", ""))
        return out

    def initial_morale(self, counters: list) -> dict:
        """Company -> Morale (Assault 17.A.1, 17.C): HQs and TOCs 8, mechanized infantry (infantry and APCs)
        12, other companies 10, from the ruleset's constants."""
        members: dict[str, list] = {}
        for c in counters:
            if not c.dummy:                                          # a dummy is nobody's company (10.F)
                members.setdefault(c.company, []).append(self.card(c.card).body)
        out = {}
        for company, bodies in sorted(members.items()):
            if all(b.role in ("hq", "toc") for b in bodies):
                key = "morale-hq-toc"
            elif any(b.infantry for b in bodies) and any(b.apc for b in bodies):
                key = "morale-mech-inf"
            else:
                key = "morale-company"
            out[company] = Morale(self.data.constant(key))
        return out

    def state_from_position(self, position) -> "AssaultState":
        from .positions import state_from_position
        return state_from_position(self, position)

    def bot_names(self) -> list[str]:
        return ["heuristic"]

    def make_bot(self, name: str, side: int, seed: int):
        from ..bots import HeuristicBot

        return HeuristicBot(self, side, seed) if name == "heuristic" else None

    def parse_action(self, text: str):
        parts = tuple(text.split())
        if not parts or parts[0] not in VERBS:
            raise ValueError(f"unknown action '{text}'")
        return text


VERBS = ("move", "fire", "end", "pass", "rally", "rally-company", "cover", "form", "exit", "toc", "face", "mount",
         "dismount", "entrench", "undeploy", "plot", "cancel", "abort-timetable", "deploy", "replace",
         "attach", "drill", "dummy", "stack")


#: action verbs whose first argument is a counter id and whose other arguments (text) go to the method as they are
_UNIT_VERBS = {"dismount": "_dismount", "entrench": "_entrench", "undeploy": "_undeploy", "attach": "_attach",
               "dummy": "_return_dummy", "rally": "_rally", "toc": "_toc_order", "exit": "_exit",
               "cover": "_take_cover", "form": "_form"}


def _ratio(column: str) -> float:
    a, b = str(column).split(":")
    return int(a) / int(b)


@dataclass
class AssaultState(Caches, CommandControl, Replacement, OpportunityFire, Artillery, Smoke, Transport, Dummies,
                   BattleDrill, State):
    """The whole state of an Assault game as named fields (fingerprint covers them all)."""

    game: AssaultGame
    dice: Dice
    counters: list
    force_level: list
    turn: int = 1
    phase: str = PHASES[0].id
    actor: int = 0                 # side to act within a phase where both act (artillery, fire)
    declared: list = field(default_factory=list)
    lost_steps: list = field(default_factory=lambda: [0, 0])
    morale: dict = field(default_factory=dict)      # company -> Morale (Assault 17)
    assault_step: bool = False                      # close assault declarations after movement (Assault 16)
    opp_target: str = ""                            # the mover the non-phasing player may fire at (15)
    opp_from: tuple = ()                            # the hex it left (15.A: fire at units leaving a hex)
    ratings: dict = field(default_factory=dict)     # (side, HQ/TOC designation) -> (command, planning) (4.B)
    ops: list = field(default_factory=lambda: [{}, {}])   # per side: source -> OPs left this phase (4.B)
    exited: list = field(default_factory=lambda: [0, 0])  # steps each side moved off its exit edge (24.E)
    casualty_log: list = field(default_factory=list)     # one record per step lost, for reports only
    wind_bearing: int = -1                          # where the wind blows from, degrees; -1 none (20.A.1)
    wind_speed: str = "light"                       # light, moderate, strong (Assault 20.A.2)
    missions: list = field(default_factory=list)    # Mission lines not yet arrived (Assault 19.B, 21)
    markers: list = field(default_factory=list)     # FireMarkers of this turn (Assault 19.C.1, 19.D.4)
    smoke: list = field(default_factory=list)       # Screens on the map (Assault 20)
    art_step: str = "plot"                          # artillery phase step: plot, deploy (ESoP)
    timetable_aborted: bool = False                 # Assault 21
    timetable_aborted_now: bool = False             # aborted in this artillery phase (21: nothing written)
    max_rof_used: tuple = ()                        # firers that used their max ROF (Assault 19.D.1)
    passed: tuple = ()                              # (marker, unit) pass-through attacks this phase (c35)
    ammo_used: dict = field(default_factory=dict)   # (unit, pool) -> units of ammunition used (Assault 23)
    dead_hqs: tuple = ()                            # (side, designation, card) of eliminated HQs (4.C.3)
    events: list = field(default_factory=list)      # narration for the replay viewer (dice.record only)
    dummy_pool: list = field(default_factory=lambda: [0, 0])    # removed dummies that may return (10.F)
    dummies_made: list = field(default_factory=lambda: [0, 0])  # dummies placed so far per side (their ids)
    drill_queue: tuple = ()                         # (counter, direction) still to step in a drill (4.D.2)
    pending_mount: tuple = ()                       # (unit, carrier) boarding after opportunity fire (8.C, 15)
    missile_spotted: tuple = ()                     # non-phasing missile firers spotted this fire phase (10.A)
    missile_round: bool = False                     # the phasing player's declarations at them (ESoP fire 1-3)
    orphan_banks: dict = field(default_factory=dict)    # (side, TOC) -> planning track of an eliminated TOC (6.B.3)
    road_closed: tuple = ()                         # hexes where a march unit took an opp-fire loss (9.A)
    dummy_closed: bool = False                      # a unit of the phasing side has moved this phase (10.F)
    applied: int = 0                                # actions applied to this state (stale observations)
    DERIVED_SLOTS = {"casualty_log": "a record of the losses for play reports; the rules never read it",
                     "events": "narration of the results for the replay viewer; the rules never read it",
                     "applied": "a count of the actions applied, so a lazy observation read late is refused"}

    # ------------------------------------------------------------------ the API
    def phase_id(self) -> str:
        return self.phase

    def phasing(self) -> int:
        """The side whose player turn it is (Assault 2); -1 in the artillery phase."""
        return self.game.phasing_of[self.phase]

    def current_player(self) -> int:
        if self.turn > self.game.max_turns:
            return TERMINAL
        if self.phase.endswith(("move-1", "move-2")) and not self.assault_step and not self.opp_target:
            return self.phasing()
        return self.actor

    def fingerprint(self) -> str:
        units = [(c.id, c.card, c.side, c.hex, c.steps, c.formation, c.facing, c.spotted, c.suppressed, c.moved,
                  c.moved_first, c.mp_used, sorted(c.fired.items()), c.company, c.fatigued, c.failed,
                  c.rally_tried, c.cover, c.changed, sorted(c.opp_fired.items()), c.seen_start,
                  sorted(c.seen_run.items()), c.designation, c.paid, c.toc_mode, c.toc_bank,
                  c.road_used, c.refaced, c.carrier, c.deployed, c.entrenched, c.fired_mission, c.attached,
                  c.climbed, c.dummy, c.drill, c.spot_tried, c.roof) for c in self.counters]
        morale = [(k, m.initial, m.lost, m.state, m.fired_at, m.rally_tried) for k, m in sorted(self.morale.items())]
        return repr((self.turn, self.phase, self.actor, self.assault_step, self.opp_target, self.opp_from,
                     sorted(self.ratings.items()), [sorted(p.items()) for p in self.ops], self.exited,
                     self.force_level, self.declared, self.wind_bearing, self.wind_speed, self.missions,
                     self.markers, self.smoke, self.art_step, self.timetable_aborted, self.timetable_aborted_now,
                     self.max_rof_used, self.passed, sorted(self.ammo_used.items()), self.dead_hqs,
                     self.lost_steps, units, morale, self.dummy_pool, self.dummies_made, self.drill_queue,
                     self.pending_mount, self.missile_spotted, self.missile_round,
                     sorted(self.orphan_banks.items()), self.road_closed, self.dummy_closed,
                     self.dice.fingerprint(), list(self.dice._forced)))

    def clone(self) -> "AssaultState":
        other = AssaultState(self.game, self.dice.clone(), [], list(self.force_level), self.turn, self.phase,
                             self.actor, list(self.declared), list(self.lost_steps),
                             {k: Morale(m.initial, m.lost, m.state, m.fired_at, m.rally_tried)
                              for k, m in self.morale.items()},
                             self.assault_step, self.opp_target, self.opp_from, dict(self.ratings),
                             [dict(p) for p in self.ops], list(self.exited), list(self.casualty_log),
                             self.wind_bearing, self.wind_speed, list(self.missions), list(self.markers),
                             list(self.smoke), self.art_step, self.timetable_aborted, self.timetable_aborted_now,
                             self.max_rof_used, self.passed, dict(self.ammo_used), self.dead_hqs, list(self.events),
                             list(self.dummy_pool), list(self.dummies_made), self.drill_queue, self.pending_mount,
                             self.missile_spotted, self.missile_round, dict(self.orphan_banks), self.road_closed,
                             self.dummy_closed)
        other.counters = [c.copy() for c in self.counters]
        return other

    def _legal_actions(self) -> list[str]:
        """The legal actions (``legal_actions`` of ``caches.Caches`` calls this inside one decision cache)."""
        if self.is_terminal():
            return []
        if self.phase == "artillery":
            return self._artillery_actions() + ["end"]                  # Assault 19
        if self.opp_target:
            return sorted(self._opp_actions()) + ["end"]
        if self.phase.endswith("fire") or self.assault_step:
            return sorted(self._fire_actions(close=self.assault_step)) + ["end"]
        moves = self._move_actions()
        out = sorted(moves + self._rally_actions() + self._posture_actions()
                     + self._toc_actions() + self._facing_actions() + self._transport_actions()
                     + self._entrench_actions() + self._undeploy_actions() + self._replace_actions()
                     + self._attach_actions() + self._drill_actions() + self._stack_actions()
                     + self._dummy_actions())
        return out if self._must_retreat(moves) else out + ["end"]

    def _must_retreat(self, moves: list[str]) -> bool:
        """Assault 17.A.2: a broken unit must move away from the nearest spotted enemy as far as it can, so the
        movement phase does not end while one of them still has a retreat move."""
        return self._any_broken() and any(a.startswith("move ") and
                                          self._company(self._by_id(a.split()[1])).state == "broken" for a in moves)

    def explain_illegal(self, action) -> RulesError:
        rule = "Assault 12" if self.phase.endswith("fire") else "Assault 7"
        return RulesError(f"'{action}' is not legal in phase {self.phase}", rule)

    def apply(self, action) -> None:
        self.applied += 1
        parts = str(action).split()
        if parts[0] in ("plot", "cancel", "abort-timetable", "deploy"):
            self._apply_artillery(parts)
        elif parts[0] in _UNIT_VERBS:
            getattr(self, _UNIT_VERBS[parts[0]])(self._by_id(parts[1]), *parts[2:])
        elif parts[0] == "mount":
            self._mount(self._by_id(parts[1]), self._by_id(parts[2]))
        elif parts[0] == "drill":
            self._drill(parts[1], parts[2])
        elif parts[0] == "stack":
            self._stack(parts[1], parts[2])
        elif parts[0] == "replace":
            self._replace(parts[1], self._by_id(parts[2]))
        elif parts[0] == "face":
            self._reface(self._by_id(parts[1]), int(parts[2]))
        elif parts[0] == "rally-company":
            self._rally_company(parts[1])
        elif parts[0] == "move":
            self._move(self._by_id(parts[1]), self.game.map.hex(parts[2]))
        elif parts[0] == "fire":
            if len(parts) > 4:
                self._by_id(parts[1]).roof = True                     # Assault 12.B.2: from the rooftops
            self._declare(parts[1], parts[2], parts[3])
        else:
            self._finish_step()

    def outcome(self) -> Outcome:
        vp = [self._victory_points(s) for s in range(2)]
        if vp[0] == vp[1]:
            winner = None if self.game.options.get("c30-victory-tie", "draw") == "draw" else self.game.sides.index("us")
        else:
            winner = 0 if vp[0] > vp[1] else 1
        return Outcome(winner, vp, "victory points times the drawn multiplier (Assault 24.E)", self.turn - 1,
                       list(self.lost_steps))

    def observation(self, player: int):
        """What ``player`` may see (``positions.observation``), built on first read (``positions.LazyView``)."""
        from .positions import LazyView
        return LazyView(self, player)

    def scramble_hidden(self, player: int, seed: int) -> "AssaultState":
        from .positions import scramble_hidden
        return scramble_hidden(self, player, seed)

    # ------------------------------------------------------------------ sequence (Assault 2)
    def _finish_step(self) -> None:
        if self.opp_target:
            self._end_opportunity()
            return
        if self.phase == "artillery":
            self._artillery_step_done()
            return
        if self.phase.endswith("fire"):
            if self.actor == self.phasing() and not self.missile_round:
                self.actor = 1 - self.actor
                return
            if self.missile_spotted and not self.missile_round:
                self.missile_round, self.actor = True, self.phasing()      # ESoP fire phase 1-2 (Assault 10.A)
                return
            self._resolve_fire()
        elif not self._movement_done():
            return
        self._advance()

    def _movement_done(self) -> bool:
        """End of movement: spotting, then close assault in contested hexes, both players declaring, the
        phasing player first (Assault 16, ESoP). False while the phase goes on."""
        if not self.assault_step:
            self._end_movement()
            if not any(self._enemy_at(c.hex, c.side) for c in self.counters):
                return True
            self.assault_step, self.actor = True, self.phasing()
            for c in self.counters:
                c.fired = {}                                          # Assault 12.D: a separate full ROF
            return False
        if self.actor == self.phasing():
            self.actor = 1 - self.actor
            return False
        self._resolve_fire(close=True)
        self.assault_step = False
        return True

    def _advance(self) -> None:
        if self.phase.endswith("move-2"):
            self._drain_orphan_banks(self.phasing())                                        # Assault 6.B.3, ESoP
        self.phase, new_turn = next_phase(self.phase)
        if new_turn:
            self.turn += 1
        for c in self.counters:
            c.moved, c.mp_used, c.fired, c.failed, c.rally_tried = False, 0, {}, (), False
            c.changed, c.opp_fired, c.seen_start, c.seen_run, c.paid = False, {}, (), {}, False
            c.road_used = c.refaced = c.climbed = c.spot_tried = False
            c.drill = ""
            if self.phase.endswith("move-1") and c.side == self.phasing():
                c.moved_first = False                                     # Assault 12.B.4: a new player turn
        self.passed, self.missile_spotted, self.missile_round, self.road_closed = (), (), False, ()
        self.dummy_closed = False
        if self.phase == "artillery":
            self._artillery_start()                                                         # Assault 19, 20.A.4
        for m in self.morale.values():
            m.rally_tried = False
        self.actor = self.phasing() if self.phase.endswith("fire") else 0
        if self.phase.endswith("move-1") and self.turn <= self.game.max_turns:
            side = self.phasing()
            self.counters += self.game.reinforcements(side, self.force_level[side], self.turn)   # Assault 24.B
        if self.phase.endswith(("move-1", "move-2")) and self.turn <= self.game.max_turns:
            self._grant_ops()                                                               # Assault 4.B

    def _by_id(self, cid: str) -> Counter:
        return next(c for c in self.counters if c.id == cid)

    def _present(self, c: Counter) -> bool:
        """Whether ``c`` itself is still in play (identity: no field-by-field comparison of counters)."""
        return any(o is c for o in self.counters)

    def _terrain(self, h) -> str:
        return self.game.terrain_of.get(h, "clear")

    # ------------------------------------------------------------------ movement (Assault 7)
    def _entry(self, c: Counter, h):
        """The terrain-effects cell for ``c`` entering ``h`` (``_entry_of``)."""
        return self._entry_of(c)(h)

    def _entry_of(self, c: Counter):
        """A function hex -> the terrain-effects cell for ``c`` entering it (``_entry_cell``; kept per game by
        card, formation, hexes and road: the map and the cards never change)."""
        body = self.game.card(c.card).body
        if body.mobility == "L":
            formation, march = "", False                              # leg units: one roll, no formation
        else:
            formation = "march" if self._company(c).state == "broken" else c.formation     # Assault 17.A.2
            march = formation == "march"
        start = c.hex
        if not self.game.caches:
            return lambda h: self._entry_cell(body, formation, start, h, march and self._on_road(c, h))
        d = self._decision()
        table = d.entries if d is not None else self.game.entry_table()
        cells = table.get((c.card, formation, start))                 # -> (to-hex, road) -> cell
        if cells is None:
            cells = table[(c.card, formation, start)] = {}

        def cell(h):
            key = (h, march and self._on_road(c, h))
            got = cells.get(key, _UNSEEN)
            if got is _UNSEEN:
                got = cells[key] = self._entry_cell(body, formation, start, h, key[1])
            return got
        return cell

    def _entry_cell(self, body, formation: str, start, h, road: bool):
        """The terrain-effects cell for a unit of ``body`` in ``formation`` entering ``h`` from ``start`` (Assault
        7.B, 7.E; amphibious 7.E.1; ``road``: along a road it may use, 7.C), with the steep-slope row's climbing
        cost added (7.E.2): 'P' when either is prohibited."""
        row = self.game.effects.get(self._terrain(h), {})
        climb = self._climb_of(body, formation, start, h)
        if body.mobility == "L":
            return "P" if climb == "P" else row.get("leg_roll")
        if road:
            row = self.game.effects.get("road", row)                  # Assault 7.C: roads in march formation
        cell = row.get(f"{body.mobility.lower()}_{formation}")
        cell = None if cell == "P" and body.amphibious and row.get("amphibious") is True else cell
        if climb is None or cell is None:
            return cell
        return "P" if "P" in (cell, climb) else cell + climb if isinstance(cell, int) and isinstance(climb, int) \
            else cell

    def _climbs(self, c: Counter, h) -> bool:
        """Assault 7.E.2: entering a steep-slope hex from a hex of lower elevation."""
        return h in self.game.steep and self._level(c.hex) < self._level(h)

    def _climb_cell(self, c: Counter, h):
        """The steep-slope row's cell for ``c`` climbing into ``h`` (None when it does not climb): an MP cost,
        'P', or for leg units 'F' (fatigued, 7.E.2)."""
        if not self._climbs(c, h):
            return None
        body = self.game.card(c.card).body
        formation = "" if body.mobility == "L" else "march" if self._company(c).state == "broken" else c.formation
        return self._climb_of(body, formation, c.hex, h)

    def _climb_of(self, body, formation: str, start, h):
        """``_climb_cell`` for a unit of ``body`` in ``formation`` entering ``h`` from ``start``."""
        if not (h in self.game.steep and self._level(start) < self._level(h)):
            return None                                               # Assault 7.E.2: no climb
        row = self.game.effects.get("steep-slope", {})
        if body.mobility == "L":
            return row.get("leg_roll")
        return row.get(f"{body.mobility.lower()}_{formation}")

    def _on_road(self, c: Counter, h) -> bool:
        """Assault 7.C, 9.A: a road joins the two hexes, and no unit in ``h`` has used road movement this phase
        (one road stack per hex; units move one at a time, so a stack is never above the 6-step limit)."""
        if edge_key(c.hex, h) not in self.game.map.roads or h in self.road_closed:
            return False                                              # Assault 9.A: closed by a march unit's loss
        return not any(o.road_used and o is not c for o in self._here(h))

    def _can_enter(self, c: Counter, h) -> bool:
        return bool(self._enterable(c, (h,)))

    def _enterable(self, c: Counter, hexes) -> list:
        """The hexes of ``hexes`` that ``c`` may enter now (Assault 7.B, 7.D, 7.E), in order."""
        body = self.game.card(c.card).body
        if body.mobility == "S":
            return []                                                 # Assault 7.D: static units do not move
        leg = body.mobility == "L"
        if leg and (c.moved or (c.fatigued and self.phase.endswith("move-1"))):
            return []                                                 # Assault 7.D: one hex; fatigued
        entry = self._entry_of(c)
        second = self.phase.endswith("move-2")
        no_move = c.fatigued and self.game.options.get("c32-slope-fatigue", "may-move") == "no-move"
        out = []
        for h in hexes:
            cost = entry(h)
            if cost == "P" or cost is None:
                continue
            if leg:
                if second and (no_move or self._climb_of(body, "", c.hex, h) is not None):
                    continue                                          # Assault 7.E.2: climbs in phase 1 only; c32
                if h not in c.failed:                                 # Assault 7.D: one hex per phase
                    out.append(h)
            elif isinstance(cost, int) and (c.mp_used + cost <= body.movement_allowance or not c.moved):
                out.append(h)                                         # Assault 7.B: always one hex
        return out

    def _rally_actions(self) -> list[str]:
        """Assault 17.B (ESoP steps 3-4): before any movement, each suppressed unit may try once, free, to
        rally on its company's morale level."""
        side = self.phasing()
        if any(c.moved for c in self.counters if c.side == side):
            return []
        units = [f"rally {c.id}" for c in self.counters if c.side == side and c.suppressed and not c.rally_tried
                 and self._company(c).state != "broken"]
        if any(c.rally_tried for c in self.counters if c.side == side):
            return units                                              # company rallies come first (17.B)
        return units + self._company_rally_actions(side)

    def _company_rally_actions(self, side: int) -> list[str]:
        """Assault 17.B: a shaken or broken company may try to rally once, paying 1 OP if any of its units is
        visible to the paying HQ or TOC, else 2 (4.C); a broken HQ or TOC is rallied by a superior, off-board or
        default OPs (option c27 'superior') or never ('never', 17.C)."""
        out = []
        never = self.game.options.get("c27-broken-hq-rally", "superior") == "never"
        for key, m in sorted(self.morale.items()):
            units = [c for c in self.counters if c.side == side and c.company == key]
            if m.state == "normal" or m.rally_tried or not units:
                continue
            if never and m.state == "broken" and all(self.game.card(c.card).body.role in ("hq", "toc") for c in units):
                continue                                              # Assault 17.C, option c27: no recovery
            if self._payment(units[0], [c.hex for c in units]) is not None:
                out.append(f"rally-company {key}")
        return out

    def _rally_company(self, key: str) -> None:
        """Assault 17.B: roll at or under the level: broken becomes shaken (its units take combat formation),
        shaken becomes normal, and every suppressed unit of the company rallies."""
        m = self.morale[key]
        units = [c for c in self.counters if c.side == self.phasing() and c.company == key]
        self._pay(units[0], [c.hex for c in units])
        m.rally_tried = True
        roll = d10(self.dice, f"rally company {key}")
        self.narrate(f"company {key} ({m.state}) rallies on {m.level}: roll {roll}: {'fails' if roll > m.level else 'rallies'}")
        if roll > m.level:
            return
        if m.state == "broken":
            for c in units:
                c.formation = "combat"
        m.state = "shaken" if m.state == "broken" else "normal"
        for c in units:
            c.suppressed = False

    def _rally(self, c: Counter) -> None:
        c.rally_tried = True
        roll, level = d10(self.dice, f"rally {c.id}"), self._company(c).level
        self.narrate(f"{c.id} rallies from suppression on {level}: roll {roll}: {'rallied' if roll <= level else 'fails'}")
        if roll <= level:                                             # Assault 17.B
            c.suppressed = False

    def _move_actions(self) -> list[str]:
        out = []
        side = self.phasing()
        game = self.game
        exits, label_of, neighbours = game.exit_edges.get(side, ()), game.map.label_of, game.neighbours
        for c in self.counters:
            if c.side != side or c.drill or not self._may_move(c):
                continue                                              # Assault 4.D.2: drilled units keep together
            if c.hex in exits and self._can_leave(c) and not c.dummy:
                out.append(f"exit {c.id}")                            # Assault 24.E: off the exit edge
            state = self._company(c).state
            limited = c.suppressed and game.card(c.card).body.defence_class == "personnel" or state == "shaken"
            broken = state == "broken"
            for h in self._enterable(c, neighbours.get(c.hex, ())):
                if limited and self._toward_spotted(c, h):
                    continue
                if broken and not self._retreats(c, h):
                    continue
                out.append(f"move {c.id} {label_of[h]}")
        return out

    def _may_move(self, c: Counter) -> bool:
        """Whether ``c`` may still move this phase (suppression 11.A.1, cover 7.G, enemies 7.B, OPs 4.C.2, a
        planning TOC 6.A.2)."""
        if c.toc_mode == "plan" or c.carrier or c.deployed:
            return False                                              # Assault 6.A.2, 8.C, 19.E
        if c.suppressed and self.game.card(c.card).body.defence_class in ("weapons", "nav"):
            return False                                              # Assault 11.A.1
        if c.moved and (self._enemy_at(c.hex, c.side) or c.cover):
            return False                                              # Assault 7.B; 7.G: cover takes the phase
        return not (self._needs_orders(c) and self._payment(c) is None)   # Assault 4.C.2: no OPs to move it

    def _can_leave(self, c: Counter) -> bool:
        """Leaving the map counts as one more hex: static units never, leg units only if they have not moved."""
        body = self.game.card(c.card).body
        if body.mobility == "S" or (body.mobility == "L" and (c.moved or c.fatigued and self.phase.endswith("move-1"))):
            return False
        return not c.moved or c.mp_used < (body.movement_allowance or 0)

    def _exit(self, c: Counter) -> None:
        if self._needs_orders(c):
            self._pay(c)
        self.dummy_closed = True                                      # Assault 10.F: a unit has moved
        riders = self._passengers(c)
        self.exited[c.side] += c.steps + sum(p.steps for p in riders)  # Assault 24.E (8.C: with its passengers)
        self.counters = [o for o in self.counters if o is not c and o not in riders]

    def _retreats(self, c: Counter, h) -> bool:
        """Assault 17.A.2 (A102): a broken unit moves only away from the nearest spotted enemy, never within two
        hexes of another spotted enemy; with no spotted enemy it stays."""
        enemies = sorted((coords.distance(c.hex, e.hex), e.hex) for e in self.counters if e.side != c.side
                         and e.spotted)
        if not enemies:
            return False
        nearest = enemies[0][1]
        if coords.distance(h, nearest) <= coords.distance(c.hex, nearest):
            return False
        return all(coords.distance(h, e) > 2 for _, e in enemies[1:])

    def _toward_spotted(self, c: Counter, h) -> bool:
        """Assault 11.A.1, 17.A.2: suppressed personnel and shaken units may not move toward a spotted enemy;
        option c37: closer to any spotted enemy ('any-closer') or to the nearest one ('nearest-closer')."""
        enemies = [e.hex for e in self.counters if e.side != c.side and e.spotted]
        if not enemies:
            return False
        if self.game.options.get("c37-toward") == "nearest-closer":
            near = min(enemies, key=lambda e: (coords.distance(c.hex, e), e))
            enemies = [near]
        return any(coords.distance(h, e) < coords.distance(c.hex, e) for e in enemies)

    def _posture_actions(self) -> list[str]:
        """Assault 7.C, 7.G: before it moves, a unit may change formation (march <-> combat); a unit in combat
        formation may enter cover instead of moving. Broken units have no formation (17.A.2)."""
        out = []
        side = self.phasing()
        for c in self.counters:
            if c.side != side or c.moved or self._company(c).state == "broken":
                continue
            if not c.changed and self._payment(c) is not None:          # Assault 4.C.1
                out.append(f"form {c.id} {'combat' if c.formation == 'march' else 'march'}")
            if c.formation == "combat" and not c.cover:
                out.append(f"cover {c.id}")
        return out

    def _facing_actions(self) -> list[str]:
        """Assault 7.F: after its last hex a unit keeps its facing unless it spends 1 MP (the constant
        facing-change-mp) to change it; a leg unit re-faces free (option c19 'free') or not at all ('keep')."""
        out = []
        leg_free = self.game.options.get("c19-leg-facing", "free") == "free"
        side = self.phasing()
        for c in self.counters:
            if c.side != side or not c.moved or c.refaced or c.cover or c.hex in c.failed or c.drill:
                continue                                              # Assault 4.D.2: the group's facing
            body = self.game.card(c.card).body
            if body.mobility == "L":
                if not leg_free:
                    continue
            elif body.mobility == "S" or c.mp_used + self.game.data.constant("facing-change-mp") > \
                    (body.movement_allowance or 0):
                continue
            out += [f"face {c.id} {d}" for d in range(6) if d != c.facing]
        return out

    def _reface(self, c: Counter, facing: int) -> None:
        if self.game.card(c.card).body.mobility != "L":
            c.mp_used += self.game.data.constant("facing-change-mp")   # Assault 7.F
        c.facing, c.refaced = facing, True

    def _counts_as_moved(self, c: Counter) -> None:
        """Option c43: 'any-movement' makes a formation change or entering cover count as moving for own-turn
        fire (Assault 12.B.4); 'hex-change' only leaving the hex."""
        if self.phase.endswith("move-1") and self.game.options.get("c43-moved", "any-movement") == "any-movement":
            c.moved_first = True

    def _form(self, c: Counter, formation: str) -> None:
        self._pay(c)                                                  # Assault 4.C.1
        c.formation, c.changed = formation, True                      # Assault 7.C
        if formation == "march":
            c.cover = False                                           # Assault 7.G: cover in combat only
        self._counts_as_moved(c)

    def _take_cover(self, c: Counter) -> None:
        """Assault 7.G: cover takes the whole movement phase and counts as movement for spotting; the marker
        points at the unit's vertex (its facing)."""
        c.cover, c.moved = True, True
        self._counts_as_moved(c)

    def _move(self, c: Counter, h) -> None:
        body = self.game.card(c.card).body
        cost = self._entry(c, h)
        if self._needs_orders(c):
            self._pay(c)                                              # Assault 4.C.2
            c.paid = True
        if not c.moved:
            self._begin_move(c)
        c.facing = coords.direction_between(c.hex, h)                 # Assault 7.F: face before entering
        if body.mobility == "L":
            roll = d10(self.dice, f"leg entry {c.id}") if cost != "F" else 0
            if cost != "F":
                self.narrate(f"{c.id} enters {self.game.map.label_of[h]} on {cost}: roll {roll}")
            if cost != "F" and roll > cost:                            # Assault 7.E
                if self.game.options.get("c18-leg-roll-fail") == "retry":
                    c.failed += (h,)                                  # option c18: may try another hex
                else:
                    c.moved = True                                    # option c18 'stay': its move is over
                return
            c.climbed = c.climbed or self._climb_cell(c, h) == "F"    # Assault 7.E.2: fatigued by the climb
        else:
            c.mp_used += cost
            c.road_used = c.road_used or (c.formation == "march" and self._on_road(c, h))
        c.moved = self.dummy_closed = True                            # Assault 10.F: no dummy returns now
        if self.phase.endswith("move-1"):
            c.moved_first = True
        old, c.hex, c.cover, c.entrenched = c.hex, h, False, False   # Assault 7.G, 18: leaving removes them
        c.roof = False                                                # Assault 12.B.2: down from the rooftops
        self._carry_along(c)                                          # Assault 8.C
        self._purge_dummies()                                         # Assault 10.F: found in an enemy's hex
        if not self._present(c):
            return
        if self.markers and not c.dummy:
            self._pass_through(c)                                     # Assault 19.D.4
            if c.steps == 0 or not self._present(c):
                return
        self._after_move(c, old)

    def _fatigue(self) -> None:
        """Assault 7.D, 7.E.2 (ESoP): leg units that moved in the second movement phase are fatigued; the first
        movement phase removes the markers, except of units that climbed a steep slope in it, which it marks."""
        for c in self.counters:
            if c.side != self.phasing() or self.game.card(c.card).body.mobility != "L":
                continue
            if self.phase.endswith("move-2") and c.moved:
                c.fatigued = True
            elif self.phase.endswith("move-1"):
                c.fatigued = c.climbed

    def _end_movement(self) -> None:
        """Assault 10.A: spotting attempts at the end of the movement phase (option c44: both players, or the
        non-phasing player only); 10.G unspotting."""
        self._fatigue()
        sides = (1 - self.phasing(),) if self.game.options.get("c44-spotting-side") == "non-phasing" else (0, 1)
        for side in sides:
            self._spot(side, [c for c in self.counters if c.side != side and not c.spotted], moving=True)
        self._unspot(movement=True)

    # ------------------------------------------------------------------ spotting (Assault 10)
    def _level(self, h) -> int:
        return self.game.map.elevation.get(h, 0)

    def _line(self, a, b) -> list:
        """(range, hex) of the hexes strictly between ``a`` and ``b`` (kept per offset: a hex line is the same
        wherever it starts)."""
        delta = (b[0] - a[0], b[1] - a[1])
        lines = self.game.lines
        if delta not in lines:
            lines[delta] = self._line_from_origin(delta)
        return [(i, (a[0] + d[0], a[1] + d[1])) for i, d in lines[delta]]

    @staticmethod
    def _line_from_origin(b, nudge: float = 1e-6) -> list:
        a = (0, 0)
        n = coords.distance(a, b)
        ca, cb = coords.to_cube(a), coords.to_cube(b)
        out = []
        for i in range(1, n):
            t = i / n
            x, y, z = (ca[k] + (cb[k] - ca[k]) * t + nudge * (k + 1) for k in range(3))
            rx, ry, rz = round(x), round(y), round(z)
            dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
            if dx > dy and dx > dz:
                rx = -ry - rz
            elif dy > dz:
                ry = -rx - rz
            else:
                rz = -rx - ry
            out.append((i, coords.from_cube((rx, ry, rz))))
        return out

    def has_los(self, a, b, any_range: bool = False, thermal: bool = False, lift: int = 0, up: int = 0) -> bool:
        """Assault 10.B: within the maximum spotting range (unless ``any_range``) and not blocked on the LOS
        graph (terrain and elevation never change in play, so that answer is kept per game) nor by smoke (20.B;
        ``thermal``: the viewer ignores chemical smoke); ``lift``: levels the viewer stands above its hex
        (10.B.1: a dismounted non-vehicle spotter in a town or urban strip), ``up``: levels the seen unit stands
        above its hex (12.B.2: it fired from the rooftops)."""
        cache = self.game.los_cache
        key = (a, b) if not (lift or up) else (a, b, lift, up)
        line = cache.get(key)             # (within the maximum spotting range, LOS graph clear)
        if line is None:
            near = coords.distance(a, b) <= spotting.max_spotting_range(self.game.data, self._level(a) + lift,
                                                                       self._level(b) + up)
            if not (near or any_range):
                return False                                          # (not kept: far pairs are many)
            line = cache[key] = (near, self._trace_los(a, b, lift, up))
        elif not (any_range or line[0]):
            return False
        if not line[1]:
            return False
        if not self.smoke:
            return True
        table = self._smoke_table()
        if table is None:
            return not self._smoke_blocks(a, b, thermal)
        seen = (a, b, thermal)
        if seen not in table:
            table[seen] = self._smoke_blocks(a, b, thermal)
        return not table[seen]

    def _lift(self, c: Counter) -> int:
        """Assault 10.B.1 (A54): a dismounted non-vehicle unit in a town or urban strip spots from one level
        above its hex (constant spotter-town-levels)."""
        if c.carrier or c.dummy or self._terrain(c.hex) not in ("town", "urban-strip"):
            return 0
        vehicle = self.game.card(c.card).body.defence_class in ("afv", "nav")
        return 0 if vehicle else self.game.data.constant("spotter-town-levels")

    def _roof(self, c: Counter) -> int:
        """Assault 12.B.2: a unit that fired from the rooftops is seen, and fired at, one level up."""
        return self.game.data.constant("rooftop-levels") if c.roof else 0

    def _may_roof(self, c: Counter) -> bool:
        """Assault 12.B.2: dismounted personnel-class units in a town or urban strip may fire from the rooftops."""
        return not c.carrier and not c.dummy and self._terrain(c.hex) in ("town", "urban-strip") \
            and self.game.card(c.card).body.defence_class == "personnel"

    def _trace_los(self, a, b, lift: int = 0, up: int = 0) -> bool:
        """Assault 10.B.2: the LOS graph rule over the hexes between ``a`` and ``b`` (any range). Where the line
        runs along a hexside (a hex spine: nudged one way and the other it meets two hexes), option c21 blocks it
        when either flanking hex blocks ('either') or only when both do ('both')."""
        hs, ht = self._level(a) + lift, self._level(b) + up
        rng = coords.distance(a, b)
        height = self.game.obstacle
        pick = min if self.game.options.get("c21-los-spine", "either") == "both" else max
        ax, ay = a
        obstacles = ((i, pick(height.get((ax + h[0], ay + h[1]), 0), height.get((ax + g[0], ay + g[1]), 0)))
                     for i, h, g in self._spine_offsets((b[0] - ax, b[1] - ay)))
        return not spotting.los_blocked(hs, ht, rng, obstacles)      # (a generator: stops at the first block)

    def _spine_line(self, a, b) -> list:
        """(range, hex, other hex) between ``a`` and ``b``: the two hexes the line meets when nudged either way
        (the same hex twice off a spine)."""
        return [(i, (a[0] + h[0], a[1] + h[1]), (a[0] + g[0], a[1] + g[1]))
                for i, h, g in self._spine_offsets((b[0] - a[0], b[1] - a[1]))]

    def _spine_offsets(self, delta) -> list:
        """``_spine_line`` from the origin to ``delta`` (kept per offset: a hex line is translation-free)."""
        lines = self.game.spines
        if delta not in lines:
            lines[delta] = [(i, h, g) for (i, h), (_, g) in zip(self._line_from_origin(delta),
                                                               self._line_from_origin(delta, -1e-6))]
        return lines[delta]

    def _spot_number(self, spotter: Counter, target: Counter, moving: bool, missile: bool = False) -> int | str:
        """Assault 10.D: base by range + terrain (or 'Auto') + target status + spotter status."""
        tb = self.game.card(target.card).body
        row = self.game.terrain_spot.get(self._terrain(target.hex), {})
        covered = target.cover or target.entrenched                   # Assault 18: entrenched is covered
        mod = row.get(f"{SPOT_COLUMNS[tb.spotting_type]}_{'cover' if covered else 'open'}", 0)   # 10.D
        if mod == "Auto":
            return "Auto"
        n = spotting.base_spotting_number(self.game.data, coords.distance(spotter.hex, target.hex)) + mod
        if moving and target.moved:
            n += self.game.status_mod.get("moving", 0)
        if missile:
            n += self.game.status_mod.get("firing-missiles", 0)        # Assault 10.D: a missile firer
        if not moving and target.fired:
            n += self.game.status_mod.get("just-fired", 0)
        sb = self.game.card(spotter.card).body
        if spotter.dummy:
            n += self.game.spotter_mod.get("armored-vehicle", 0)     # Assault 10.F: as a non-recon AFV
        elif sb.role == "recon":
            n += self.game.spotter_mod.get("recon", 0)               # recon armoured: no penalty (10.D)
        elif sb.armoured:
            n += self.game.spotter_mod.get("armored-vehicle", 0)
        return n

    def _best_spot(self, spotters: list, t: Counter, moving: bool, missile: bool = False):
        """The best spotting number any spotter has against ``t`` ('Auto' best of all; None: no LOS). Autospot
        (Assault 10.E) needs LOS within the maximum range under option c22 'max-range', at any range else."""
        any_range = moving and self.game.options.get("c22-autospot-range", "any-range") == "any-range"
        best = None
        for s in spotters:
            thermal, lift = self._thermal(s, "spot"), self._lift(s)
            up = self._roof(t)
            if self.has_los(s.hex, t.hex, any_range=any_range, thermal=thermal, lift=lift, up=up):
                n = self._spot_number(s, t, moving, missile)
                if n != "Auto" and not self.has_los(s.hex, t.hex, thermal=thermal, lift=lift, up=up):
                    continue                                          # only autospot waives the range
                if n == "Auto" and not moving:
                    n = spotting.base_spotting_number(self.game.data, coords.distance(s.hex, t.hex))
                best = n if n == "Auto" or best is None or (best != "Auto" and n > best) else best
        return best

    def _spot(self, side: int, targets: list, moving: bool, missile: bool = False) -> None:
        spotters = [c for c in self.counters if c.side == side and not c.suppressed   # Assault 11.A.1
                    and self._company(c).state != "broken"]                        # Assault 17.A.2
        for t in targets:
            if t.carrier:
                continue                                              # Assault 8.C: under its carrier
            best = self._best_spot(spotters, t, moving, missile)
            if best == "Auto":
                t.spotted = True
                self.narrate(f"{t.id} is spotted automatically (10.E)")
            elif best is not None and not t.spot_tried:
                t.spot_tried = True                                   # Assault 10.C: one attempt a phase
                roll = d10(self.dice, f"spotting {t.id}")
                t.spotted = roll <= best
                self.narrate(f"spotting {t.id}: roll {roll} vs {best}: {'spotted' if t.spotted else 'not spotted'}")
        self._purge_dummies()                                         # Assault 10.F: a spotted dummy is removed

    def _unspot(self, movement: bool) -> None:
        """Assault 10.G: a spotted unit no enemy sees is flipped; option c20 'friendly-movement' does it only at
        the end of its own side's movement phase (introduction of 10)."""
        friendly_only = self.game.options.get("c20-unspot-timing") == "friendly-movement"
        if friendly_only and not movement:
            return
        for c in self.counters:
            if friendly_only and c.side != self.phasing():
                continue
            far = self._autospottable(c) and self.game.options.get("c22-autospot-range", "any-range") == "any-range"
            if c.spotted and not any(e.side != c.side and self.has_los(e.hex, c.hex, any_range=far,
                                                                          thermal=self._thermal(e, "spot"),
                                                                          lift=self._lift(e), up=self._roof(c))
                                     for e in self.counters):
                c.spotted = False
                self.narrate(f"{c.id} is no longer seen (10.G)")

    def _autospottable(self, c: Counter) -> bool:
        """Assault 10.E: a unit not in cover in terrain marked 'Auto' for its target type."""
        row = self.game.terrain_spot.get(self._terrain(c.hex), {})
        column = f"{SPOT_COLUMNS[self.game.card(c.card).body.spotting_type]}_{'cover' if c.cover or c.entrenched else 'open'}"
        return row.get(column) == "Auto"

    # ------------------------------------------------------------------ direct fire (Assault 12-14)
    def _enemy_at(self, h, side: int) -> bool:
        """An enemy unit in ``h`` (a dummy is none, 10.F)."""
        return any(c.side != side and not c.dummy for c in self._here(h))

    def _can_fire(self, c: Counter, close: bool = False) -> bool:
        """Who may fire (Assault 12.A-B); in close assault every unit of a contested hex, march included (16)."""
        body = self.game.card(c.card).body
        if c.dummy or close != self._enemy_at(c.hex, c.side):
            return False                                              # Assault 10.F; 16
        if c.formation != "combat" and not close:
            return False                                              # Assault 12.B.3
        if c.suppressed and body.defence_class in ("personnel", "weapons"):
            return False                                              # Assault 11.A.1
        if self._company(c).state == "broken" or c.toc_mode == "plan":
            return False                                              # Assault 17.A.2, 6.B.2
        if c.deployed and c.fired_mission:
            return False                                              # Assault 19.E
        return close or not (c.side == self.phasing() and c.moved_first)   # Assault 12.B.4

    def _rof_allows(self, c: Counter, row: FireRowData) -> bool:
        """Assault 12.D: personnel fire every type up to its ROF; others at most the lowest ROF used in all."""
        body = self.game.card(c.card).body
        used = self._budget(c)
        if body.defence_class == "personnel":
            return used.get(row.ammo, 0) < row.rof
        rofs = [r.rof for r in self.game.card(c.card).rows if r.ammo in used or r.ammo == row.ammo]
        return sum(used.values()) + 1 <= min(rofs)

    def _budget(self, c: Counter) -> dict:
        """Assault 12.D: the fires used this phase; opportunity fire has a full ROF of its own."""
        return c.opp_fired if self.opp_target else c.fired

    def _fire_stack_full(self, c: Counter) -> bool:
        """Assault 9.B: at most ten steps fire from one hex (the constant fire-stack-steps); option c41
        'fire-phase' does not limit opportunity fire."""
        if self.opp_target and self.game.options.get("c41-fire-stack-scope") == "fire-phase":
            return False
        if self._budget(c):
            return False
        steps = sum(o.steps for o in self.counters if o.hex == c.hex and o.side == c.side and self._budget(o))
        return steps + c.steps > self.game.data.constant("fire-stack-steps")

    def _fire_actions(self, close: bool = False) -> list[str]:
        out = []
        for c in self.counters:
            if c.side != self.actor or not self._can_fire(c, close) or self._fire_stack_full(c):
                continue
            for row in self.game.card(c.card).rows:
                if row.rof < 1 or not self._rof_allows(c, row) or not self._row_usable(c, row):
                    continue
                out += [f"fire {c.id} {row.ammo} {t.id}" for t in self._targets(c, row, close)
                        if not self.missile_round or t.id in self.missile_spotted]     # ESoP fire phase 1-3
                out += self._roof_actions(c, row, close)
        return out

    def _roof_actions(self, c: Counter, row: FireRowData, close: bool) -> list[str]:
        """Assault 12.B.2: ``fire <unit> <ammo> <target> roof`` at the targets only the rooftops reach."""
        if close or c.roof or not self._may_roof(c):
            return []
        seen = {t.id for t in self._targets(c, row)}
        return [f"fire {c.id} {row.ammo} {t.id} roof" for t in self._targets(c, row, roof=True)
                if t.id not in seen and (not self.missile_round or t.id in self.missile_spotted)]

    def _row_usable(self, c: Counter, row: FireRowData) -> bool:
        """Carried units fire SA only (8.D); option c36 'all-smoke' bans IS in a strong wind (20.A.2); no
        ammunition left under option ammo-supply (23.B)."""
        if not self._transport_fire(c, row):
            return False
        if row.ammo == "IS" and self.wind_speed == "strong" and \
                self.game.options.get("c36-strong-wind-is", "missions-only") == "all-smoke":
            return False
        return self._ammo_left(c, row.ammo)

    def _thermal(self, c: Counter, use: str) -> bool:
        """Assault 20.B.2: whether ``c`` sees through chemical smoke for ``use`` ('spot', an ammunition, or
        'observe'): full thermal sights always, Dragon infantry to spot and to fire Msl only."""
        sight = self.game.card(c.card).body.thermal_sights
        return sight == "full" or (sight == "dragon-only" and use in ("spot", "Msl"))

    def _targets(self, c: Counter, row: FireRowData, close: bool = False, roof: bool = False) -> list:
        """The spotted enemies ``c`` may fire ``row`` at (12.B); ``roof``: from the rooftops (12.B.2)."""
        out = []
        lift = self.game.data.constant("rooftop-levels") if roof else self._roof(c)
        for t in self.counters:
            if t.side == c.side or not t.spotted or (close and t.hex != c.hex) or t.carrier:
                continue                                              # Assault 10; 16; 8.C: not the carried
            col = fire.range_column(self.game.data, coords.distance(c.hex, t.hex))
            cell = row.cells[col] if col is not None and col < len(row.cells) else None
            afv = self.game.card(t.card).body.defence_class == "afv"
            if cell is None or (row.ammo in ANTI_ARMOUR and not afv) or \
                    not self.has_los(c.hex, t.hex, thermal=self._thermal(c, row.ammo), lift=lift, up=self._roof(t)):
                continue
            if self._fires_through(c, t.hex, row.ammo in ANTI_ARMOUR):
                continue
            out.append(t)
        return out

    def _fires_through(self, c: Counter, target_hex, anti_armour: bool) -> bool:
        """Assault 12.B.5 (A73): no fire through a hex holding friendly units, no conventional fire through one
        holding enemy units, no anti-armour fire through one holding enemy AFVs; a firer higher than such a hex
        fires over it when the sight line passes above the hex's ground (the LOS graph)."""
        rng = coords.distance(c.hex, target_hex)
        hs, ht = self._level(c.hex), self._level(target_hex)
        for i, h in self._line(c.hex, target_hex):
            blockers = [o for o in self._here(h) if not o.dummy]
            if not blockers:
                continue
            ground = self._level(h)
            if hs > ground and hs * rng + (ht - hs) * i > ground * rng:
                continue                                              # fires over it
            for o in blockers:
                if o.side == c.side or not anti_armour or self.game.card(o.card).body.defence_class == "afv":
                    return True
        return False

    def _declare(self, firer: str, ammo: str, target: str) -> None:
        c = self._by_id(firer)
        if ammo == "Msl" and not c.spotted and self.phase.endswith("fire") and not self.assault_step:
            self._spot(1 - c.side, [c], moving=False, missile=True)   # ESoP fire phase 1-2 (Assault 10.A, 10.D)
            if c.spotted and c.side != self.phasing():
                self.missile_spotted = self.missile_spotted + (c.id,)
        used = self._budget(c)
        used[ammo] = used.get(ammo, 0) + 1
        self._use_ammo(c, ammo)                                       # Assault 23.A
        self.declared.append(Declared(firer, ammo, target))           # Assault 12.D: resolved together
        if self.opp_target and ammo == "Msl" and not c.spotted and \
                self.game.options.get("c45-missile-opp-unspotted", "spot-first") == "spot-first":
            self._spot(1 - c.side, [c], moving=False, missile=True)   # Assault 10.D, 15 (option c45)

    def _resolve_fire(self, close: bool = False, opportunity: bool = False) -> None:
        """Assault 12.D, option c2: 'simultaneous' resolves every declared fire and then applies the losses;
        'sequential' applies each anti-armour result at once, so a unit lost earlier does not fire. Conventional
        fire on a target is added up over the phase (14.B) and resolved last."""
        sequential = self.game.options.get("c2-fire-resolution") == "sequential"
        separate = opportunity and self.game.options.get("c40-opp-fire-aggregation") == "separate"
        results, conventional, sources = [], {}, {}
        self._unmask([self._by_id(d.target) for d in self.declared])                  # Assault 10.F
        for n, d in enumerate(self.declared):
            firer, target = self._by_id(d.firer), self._by_id(d.target)
            if firer.steps == 0 or target.steps == 0 or target.dummy:
                continue                                              # only under 'sequential'; 10.F
            row = next(r for r in self.game.card(firer.card).rows if r.ammo == d.ammo)
            cell = row.cells[fire.range_column(self.game.data, coords.distance(firer.hex, target.hex))]
            if d.ammo not in ANTI_ARMOUR:
                key = (d.target, n if separate else 0)                # option c40: one attack or each alone
                value = self._conventional_value(firer, target, cell)
                conventional[key] = conventional.get(key, 0) + value  # Assault 14.B
                sources.setdefault(key, d)
            else:
                results += self._anti_armour_shots(firer, target, d, cell, sequential)
        results += [self._conventional(self._by_id(key[0]), f) + (sources[key],)
                    for key, f in sorted(conventional.items()) if self._by_id(key[0]).steps > 0]
        for target, result, source in results:
            self._apply_result(target, result, source)
        self._after_fire()
        if close or opportunity:
            return                                                    # Assault 16: no end-of-fire spotting
        for side in range(2):
            self._spot(side, [c for c in self.counters if c.side != side and c.fired and not c.spotted], False)
        self._unspot(movement=False)

    def _after_fire(self) -> None:
        """After the results: every company fired at checks morale (17.A), direct IS leaves its screen (20.C),
        the eliminated and the dummies found (10.F) go."""
        for d in self.declared:
            target = self._by_id(d.target)
            if target.dummy:
                continue
            self._company_record(target).fired_at = True              # any fire at it (Assault 17.A)
            if d.ammo == "IS":
                self._place_smoke(target.hex, "incendiary", self._by_id(d.firer).side, "incendiary-direct")  # 20.C
                self.narrate(f"IS fire leaves an incendiary screen on {self.game.map.label_of[target.hex]} (20.C)")
        self.declared = []
        self.counters = [c for c in self.counters if c.steps > 0]
        self._purge_dummies()
        self._check_morale()

    def _anti_armour_shots(self, firer: Counter, target: Counter, d: Declared, cell, sequential: bool) -> list:
        """One anti-armour attack per firing step (Assault 12.E); under option c2 'sequential' applied at once
        (nothing left to apply later), else returned to be applied with the others."""
        shots = [self._anti_armour(firer, target, d.ammo, cell) + (d,) for _ in range(firer.steps)]
        if not sequential:
            return shots
        for t, result, source in shots:
            self._apply_result(t, result, source)
        return []

    def _conventional_value(self, firer: Counter, target: Counter, cell: int) -> int:
        """Assault 12.E, 14.B: the cell times the firer's steps; a suppressed AFV fires half at ranges 0-1
        (11.A.1), infantry from transport half (8.D), rounded down or up by option c11."""
        value = cell * firer.steps
        close = coords.distance(firer.hex, target.hex) <= self.game.data.constant("suppressed-afv-close-range")
        if firer.carrier or (firer.suppressed and close and self.game.card(firer.card).body.defence_class == "afv"):
            half, odd = divmod(value, 2)
            value = half + (1 if odd and self.game.options.get("c11-halving") == "up" else 0)
        return value

    def _front(self, target: Counter, firer: Counter) -> bool:
        """Assault 13.B.2: frontal armour when the LOS crosses a faced hexside (march: one, combat: the two of
        the faced vertex); same hex: flank."""
        if target.hex == firer.hex or self._company(target).state == "broken":
            return False                                              # Assault 13.B.2, 17.A.2
        faced = {target.facing} if target.formation == "march" else {target.facing, (target.facing + 1) % 6}
        return self._crosses(target.hex, firer.hex, faced)

    def _crosses(self, target_hex, firer_hex, sides: set) -> bool:
        """Whether the line from the firer enters the target's hex across one of ``sides``; a line exactly
        through a vertex between one of them and another hexside counts by option c39: as crossing it
        ('target-favour') or the other one ('firer-favour', Assault 13.A.1)."""
        crossed = _hexsides_towards(target_hex, firer_hex)
        if self.game.options.get("c39-vertex-boundary", "target-favour") == "firer-favour":
            return all(x in sides for x in crossed)
        return any(x in sides for x in crossed)

    def _covered_side(self, target: Counter, firer: Counter) -> bool:
        """Assault 13.A.1: the LOS crosses one of the two hexsides of the cover marker's vertex."""
        if not target.cover or target.hex == firer.hex:
            return False
        return self._crosses(target.hex, firer.hex, {target.facing, (target.facing + 1) % 6})

    def _anti_armour(self, firer: Counter, target: Counter, ammo: str, cell) -> tuple[Counter, str]:
        """Assault 13: hit number, hits, then per hit penetration and confirmation (option c24 'each-hit')."""
        hit, pen = cell
        tb = self.game.card(target.card).body
        n = fire.hit_number(self.game.data, hit, self._hit_situation(firer, target, ammo), self.game.options)
        roll = d10(self.dice, f"{ammo} hit {firer.id}>{target.id}")
        hits = fire.hits_scored(self.game.data, n, roll)
        front = self._front(target, firer)
        armour = tb.armour.front if front else tb.armour.flank
        kind = tb.armour.front_type if front else tb.armour.flank_type
        say = f"{firer.id} fires {ammo} at {target.id}, range {coords.distance(firer.hex, target.hex)}, " \
              f"{'front' if front else 'flank'}: hit roll {roll} vs {n}" if self.dice.record else ""
        if hits == 0:
            self.narrate(f"{say}: miss")
            return target, "NE"
        if not fire.penetrates(pen, armour):
            self.narrate(f"{say}: {hits} hit(s), penetration {pen} < armour {armour}: suppressed")
            return target, "S"                                             # Assault 13.B: suppressed only
        one_check = self.game.options.get("c24-two-hits") == "one-check"
        need = fire.confirmation_number(self.game.data, ammo, pen, armour, kind)
        losses = 0
        for _ in range(1 if one_check else hits):
            if need is None or d10(self.dice, f"confirmation {target.id}") <= need:
                losses += hits if one_check else 1
        result = "S" if losses == 0 else "H" if losses == 1 else "E"   # two step losses remove it
        self.narrate(f"{say}: {hits} hit(s), penetration {pen} vs armour {armour} ({kind}), confirm on "
                  f"{need if need is not None else 'no roll'}: {result}")
        return target, result

    def _hit_situation(self, firer: Counter, target: Counter, ammo: str) -> fire.HitSituation:
        """What modifies the hit number (Assault 13.A.1-4, 11.A.1); carried units do not count (8.C)."""
        tb = self.game.card(target.card).body
        afv_steps = sum(c.steps for c in self.counters if c.hex == target.hex and c.side == target.side
                        and not c.carrier and not c.dummy and self.game.card(c.card).body.defence_class == "afv")
        return fire.HitSituation(afv_steps=afv_steps, covered_side=self._covered_side(target, firer),
                                 missile_in_woods=ammo == "Msl" and self._terrain(target.hex) == "woods",
                                 firer_suppressed_afv=firer.suppressed and self.game.card(firer.card).body.armoured,
                                 cover_divisor=tb.cover_divisor)

    def _conventional(self, target: Counter, fire_value: int) -> tuple[Counter, str]:
        """Assault 14: defence by class, terrain and stacking; odds rounded for the target; CRT row by roll."""
        tb = self.game.card(target.card).body
        terrain = "entrenchment" if target.entrenched else self._terrain(target.hex)              # Assault 18
        row = self.game.data.defence.get(terrain, {})
        chart = row.get(f"{tb.defence_class}_{'cover' if target.cover else 'open'}", 1)     # Assault 14.A
        everyone = self.game.options.get("c25-defence-steps") == "all"
        steps = sum(c.steps for c in self.counters if c.hex == target.hex and not c.carrier and not c.dummy
                    and (everyone or c.side == target.side))                           # 8.C: carried don't count
        d = fire.defence_value(self.game.data, chart, steps, self.game.options)
        result = self._crt(fire_value, d, f"CRT {target.id}")
        if tb.defence_class == "afv" and result != "NE":
            result = "S"                                                   # Assault 14.C
        self.narrate(f"conventional fire {fire_value} at {target.id} (defence {d}): {result}")
        return target, result

    def _crt(self, fire_value: int, defence: int, label: str) -> str:
        """Assault 14.C, 19.C.4: the odds column (rounded for the target) and one roll; below the first column
        no effect."""
        column = None
        for i, ratio in self.game.crt_columns:
            if fire_value / max(defence, 1) >= ratio:
                column = i
        roll = d10(self.dice, label)
        result = self.game.crt[roll][column] if column is not None else "NE"
        self.narrate(f"{label}: {fire_value} vs {defence}, roll {roll}: {result}")
        return result

    def _apply_result(self, c: Counter, result: str, source: Declared | None = None, weapon: str = "") -> None:
        """Assault 11: S suppresses, H removes a step and suppresses, E eliminates; a carrier's passengers share
        its losses (8.E)."""
        if result == "NE":
            return
        before = c.steps
        c.suppressed = True
        if self.game.card(c.card).body.defence_class == "personnel" and c.formation == "combat":
            c.cover = True                                            # Assault 11.A.1: suppressed personnel
        lost = c.steps if result == "E" else 1 if result == "H" else 0
        lost = min(lost, c.steps)
        if lost and self.opp_target and c.formation == "march" and c.hex not in self.road_closed:
            self.road_closed = self.road_closed + (c.hex,)           # Assault 9.A (A50): no road movement in
        c.steps -= lost
        self.lost_steps[c.side] += lost
        self._record_loss(c, lost, source, weapon)
        self._carrier_loss(c, before, result)
        if c.steps == 0:
            self._note_eliminated(c)
        toc = self.game.card(c.card).body.role == "toc" and self.game.options.get("c46-toc-morale-loss") != "lowers"
        self._company_record(c).lost += 0 if toc else lost             # Assault 17.A.1, 6.B.3 (option c46)

    def _record_loss(self, c: Counter, lost: int, source: Declared | None, weapon: str = "") -> None:
        """One casualty record per step lost (``casualties()``, for play reports; never read by the rules)."""
        firer = next((f for f in self.counters if source and f.id == source.firer), None)
        for _ in range(lost):
            self.casualty_log.append({
                "side": c.side, "unit": c.id, "unit_type": c.card, "turn": self.turn,
                "weapon": f"{firer.card} {source.ammo}" if firer else weapon or None,
                "range": coords.distance(firer.hex, c.hex) if firer else None, "by": firer.id if firer else None})

    def casualties(self) -> list[dict]:
        """The steps lost so far, one record each (studio.sim.casualties)."""
        return [dict(r) for r in self.casualty_log]

    # ------------------------------------------------------------------ morale (Assault 17)
    def _company(self, c: Counter) -> Morale:
        """The counter's company morale (read only: a company unknown to the state reads as fresh)."""
        if c.dummy:
            return DUMMY_MORALE                                       # Assault 10.F: nobody's company
        m = self.morale.get(c.company)
        return m if m is not None else self.game.initial_morale([c])[c.company]

    def _company_record(self, c: Counter) -> Morale:
        """The counter's company morale, kept in the state (for changes)."""
        if c.dummy:
            return Morale(0)                                          # never kept: a dummy has no company
        if c.company not in self.morale:
            self.morale[c.company] = self._company(c)
        return self.morale[c.company]

    def _check_morale(self) -> None:
        """Assault 17.A: once per phase each company fired at rolls at or under its level; a failure makes it
        shaken, a shaken one broken (17.A.2); a broken unit in a hex with an enemy surrenders."""
        for company, m in sorted(self.morale.items()):
            if not m.fired_at:
                continue
            m.fired_at = False
            roll = d10(self.dice, f"morale {company}")
            self.narrate(f"company {company} checks morale on {m.level}: roll {roll}: "
                      f"{'holds' if roll <= m.level else 'fails'}")
            if roll > m.level and m.state != "broken":
                m.state = "shaken" if m.state == "normal" else "broken"
        broken = [c for c in self.counters if self._company(c).state == "broken" and self._enemy_at(c.hex, c.side)]
        for c in broken:
            self.lost_steps[c.side] += c.steps                          # Assault 17.A.2: surrenders
            self._record_loss(c, c.steps, None, "surrender")
            self._note_eliminated(c)
        self.counters = [c for c in self.counters if c not in broken]

    # ------------------------------------------------------------------ victory (Assault 24.E)
    def _victory_points(self, side: int) -> float:
        sid = self.game.sides[side]
        raw = 0
        for v in self.game.victory:
            if v.side != sid:
                continue
            if v.type == "destroy_units":
                raw += v.points * self.lost_steps[1 - side]
            elif v.type == "hold_hexes" and self._holds(side, v.hexes):
                raw += v.points
            elif v.type == "exit_units":
                raw += v.points * self.exited[side]                  # Assault 24.E: per step exited
        level = self.force_level[side]
        levels = self.game.levels[sid]
        return raw * (levels[level - 1].vp_multiplier if level else 1)

    def _holds(self, side: int, labels) -> bool:
        hexes = [self.game.map.hex_of[h] for h in labels if h in self.game.map.hex_of]
        return bool(hexes) and all(any(c.hex == h and c.side == side and not c.dummy for c in self.counters)
                                   and not self._enemy_at(h, side) for h in hexes)


#: what a dummy reads as its company's morale: never shaken or broken (it is never fired at, Assault 10.F)
DUMMY_MORALE = Morale(0)
_UNSEEN = object()          # a cache miss (a cached answer may be None)


def _severity(result: str) -> int:
    return "NE S H E".split().index(result)


def _hexside_towards(a, b) -> int:
    """One hexside of ``a`` that the line to ``b`` crosses (the lower of two at a vertex: smoke, 20.B.1)."""
    return _hexsides_towards(a, b)[0]


def _hexsides_towards(a, b) -> tuple:
    """The hexside(s) of ``a`` that the line to ``b`` crosses (flat-top axial directions of studio.hexgrid): one,
    or the two either side of the vertex the line passes exactly through."""
    def xy(h):
        return 1.5 * h[0], math.sqrt(3) * (h[1] + h[0] / 2)
    ax, ay = xy(a)
    bx, by = xy(b)
    angle = math.atan2(by - ay, bx - ax)
    diffs = []
    for i, d in enumerate(coords.DIRECTIONS):
        dx, dy = xy(d)
        diffs.append((abs(math.remainder(angle - math.atan2(dy, dx), 2 * math.pi)), i))
    best = min(diffs)[0]
    return tuple(i for diff, i in diffs if diff < best + 1e-9)


def create_game(scenario, index, options) -> AssaultGame:
    return AssaultGame(scenario, index, options)
