"""The Battlefield Ops! Game: static facts of a scenario on a measured table (cards, geometry, tables, options).

Turn (reconstructed, digest a.3; counts from table ``sequence``): the Command step draws Command Cards until the
Fog of War card and each side issues one order per card it drew (alternately; the side with more cards first,
BfOps p.23); the Move Phase executes the standing orders on the table geometry; spotting; the Weapon Priority
sequence (priorities from table ``weapon-priority``) where each side declares one shot (or hold) per eligible
unit and the shots of a priority resolve together, higher Unit Ratings first (BfOps p.16).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import shapely

from studio.geometry import footprint
from studio.model.forces import expand_force
from studio.model.table import table_geometry
from studio.rules.api import Game, PhaseSpec

from ..cards import BfopsCard, BfopsScenario
from .data import Tables

PHASES = (PhaseSpec("command", "Command step", "BfOps p.17", "active"),
          PhaseSpec("fire", "Weapon Priority sequence", "BfOps p.7", "active"))
MACROS = ("hold", "advance", "cover", "crest")


@dataclass(frozen=True, slots=True)
class Element:
    """What receives a command: one TO&E slot (a platoon or section of one card)."""

    id: str
    side: int
    card: str
    units: tuple[str, ...]


def create_game(scenario, index, options) -> "BfopsGame":
    return BfopsGame(scenario, index, options)


class BfopsGame(Game):
    ruleset_id = "bfops"
    phases = PHASES
    range_unit = "inches"                  # casualty ranges are measured on the table (studio.sim.report)

    def __init__(self, scenario, index, options):
        rs = index.model("ruleset", scenario.ruleset)
        self.ruleset_version = rs.version
        self.scenario = scenario
        self.scenario_id = scenario.id
        self.sides = [s.id for s in scenario.sides]
        self.max_turns = scenario.turns
        self.options = {o.id: o.default for o in rs.options}
        self.options.update(scenario.options)
        self.options.update(options or {})
        self.tables = Tables.compile(rs)
        self.ext = BfopsScenario.model_validate(scenario.extension)
        self.map = index.model("map", scenario.boards[0].map)
        self.table = self.map.table
        if self.ext.prepared.features:          # BfOps 5.3: the scenario's prepared works join the table
            self.table = self.table.model_copy(update={"features": [*self.table.features,
                                                                    *self.ext.prepared.features]})
        self.terrain_defaults = self._terrain_defaults(rs)
        self.geometry = table_geometry(self.table, self.terrain_defaults)
        self.cards: dict[str, BfopsCard] = {}
        self.setup_units: list[dict] = []
        self.elements: list[Element] = []
        self._build_forces(index)
        for uid in index.ids("unit"):   # every card of the ruleset, so positions may place any of them
            doc = index.model("unit", uid)
            if doc is not None and doc.ruleset == rs.id and uid not in self.cards:
                self.cards[uid] = BfopsCard.model_validate(doc.body)
        self.side_blocs = [self._bloc(s) for s in range(len(self.sides))]
        from .command import build_deck

        self.deck = build_deck(self)
        #: Recon-In-Force elements (scenario ``recon_in_force``, BfOps p.18)
        self.rif = frozenset(e.replace("/", ".").lower() for e in self.ext.recon_in_force)
        self._nav: dict = {}
        self._feet: dict = {}   # footprint cache (game.footprint)
        self._dists: dict = {}  # unit-to-unit distances by both bases' card, position and facing (game.distance)
        #: macro moves: the fixed ones and one 'to-<objective>' per scenario objective
        self.macros = MACROS + tuple(f"to-{o.id}" for o in self.ext.objectives)
        self.cover_spots, self.crest_spots = self._spots()
        self.placeholder_tables = tuple(t.id for t in rs.tables if t.placeholder)
        self.environment_rules_applied = tuple(self._environment_rules())

    # ------------------------------------------------------------------ set-up
    def _terrain_defaults(self, rs) -> dict:
        rows = {str(r[0]): dict(zip(rs.table("terrain").columns, r)) for r in rs.table("terrain").rows}
        out = {}
        for t in rs.terrain:
            row = rows.get(t.id, {})
            out[t.id] = {"blocks": t.los.blocks, "height_in": float(row.get("height_in") or 0.0),
                         "cover": float(row.get("cover") or 0.0), "solid": t.id in ("building", "wall")}
        return out

    def _build_forces(self, index) -> None:
        placements = {(p.force, p.unit): p for p in self.ext.placements}
        for s, side in enumerate(self.scenario.sides):
            zone = next((z for z in self.ext.deployment if z.side == side.id), None)
            n = 0
            for force in side.forces:
                slots: dict[str, list[str]] = {}
                for fu in expand_force(force, index):
                    card = index.model("unit", fu.unit)
                    self.cards[fu.unit] = BfopsCard.model_validate(card.body)
                    uid = f"{side.id[0]}{len(self.setup_units) + 1}"
                    key = fu.path if fu.copy == 0 else f"{fu.path}#{fu.copy}"
                    p = placements.get((force.id, key)) or placements.get((force.id, fu.path))
                    x, y, facing = self._place(zone, n) if p is None or fu.copy else (*p.at, p.facing)
                    if p is not None and fu.copy:
                        x, y, facing = p.at[0] + 0.8 * fu.copy, p.at[1], p.facing
                    self.setup_units.append({"id": uid, "card": fu.unit, "side": s, "x": x, "y": y,
                                             "facing": facing, "element": f"{force.id}/{fu.path}"})
                    slots.setdefault(f"{force.id}/{fu.path}", []).append(uid)
                    n += 1
                for path, units in slots.items():
                    card = next(u["card"] for u in self.setup_units if u["id"] == units[0])
                    self.elements.append(Element(path.replace("/", ".").lower(), s, card, tuple(units)))

    def _place(self, zone, n: int) -> tuple[float, float, float]:
        """The n-th unit of a side in its deployment zone: rows of 2" spacing from the zone's corner."""
        if zone is None:
            return 1.0 + n, 1.0, 0.0
        x0, y0, x1, y1 = zone.rect
        per_row = max(1, int((x1 - x0 - 1) // 2))
        return x0 + 1 + 2 * (n % per_row), y0 + 1 + 2 * ((n // per_row) % max(1, int((y1 - y0) // 2))), zone.facing

    def _bloc(self, s: int) -> str:
        own = [u["card"] for u in self.setup_units if u["side"] == s]
        return self.cards[own[0]].side if own else "NATO"

    def _spots(self):
        """Candidate goals for the 'cover' and 'crest' macros: points just inside woods edges and behind
        buildings, and points just inside the highest height polygons."""
        cover, crest = [], []
        for a in self.geometry.areas:
            if a.kind in ("woods", "building"):
                inner = a.geom.buffer(-0.5 if a.kind == "woods" else 0.4)
                ring = (inner if a.kind == "woods" else a.geom.buffer(0.4)).exterior if not inner.is_empty else None
                if ring is not None:
                    cover += [ring.interpolate(d) for d in _steps(ring.length, 2.0)]
        if self.geometry.heights:
            top = max(h.level for h in self.geometry.heights)
            for h in self.geometry.heights:
                if h.level == top:
                    inner = h.geom.buffer(-0.3)
                    if not inner.is_empty:
                        ring = shapely.get_exterior_ring(inner) if inner.geom_type == "Polygon" else None
                        if ring is not None:
                            crest += [ring.interpolate(d) for d in _steps(ring.length, 2.0)]
        board = self.geometry.bounds.buffer(-0.5)
        keep = lambda pts: tuple((p.x, p.y) for p in pts if board.covers(p))  # noqa: E731
        return keep(cover), keep(crest)

    def _environment_rules(self):
        light = self.scenario.environment.light
        if light == "dusk":
            yield f"Low light: {self.tables.spot_mod['low_light']:+g} to all Spot checks (BfOps p.12)"
        elif light == "night":
            yield f"Pitch dark: {self.tables.spot_mod['pitch_dark']:+g} to all Spot checks (BfOps p.12)"
        weather = self.scenario.environment.weather
        if weather in ("flood", "deep_snow"):
            yield f"{weather}: ground types one step worse (BfOps p.12)"

    # ------------------------------------------------------------------ static services
    def card_of(self, unit) -> BfopsCard:
        return self.cards[unit.card]

    def footprint(self, unit):
        """The unit's base on the table (cached by card, position and facing: the same polygon every time)."""
        key = (unit.card, unit.x, unit.y, unit.facing)
        foot = self._feet.get(key)
        if foot is None:
            if len(self._feet) > 4096:
                self._feet.clear()
            b = self.card_of(unit).base
            foot = self._feet[key] = footprint(unit.x, unit.y, unit.facing, b.width_in, b.length_in)
        return foot

    def distance(self, a, b) -> float:
        """Unit to unit, by option ``distance-mode`` (digest f.3); memoized by the two bases (card, position and
        facing: the same footprints, the same distance)."""
        mode = "centre" if self.options.get("distance-mode") == "centre" else "edge"
        key = (a.card, a.x, a.y, a.facing, b.card, b.x, b.y, b.facing, mode)
        hit = self._dists.get(key)
        if hit is None:
            if len(self._dists) > 65536:
                self._dists.clear()
            hit = self._dists[key] = self.geometry.distance(self.footprint(a), self.footprint(b), mode)
        return hit

    def depth(self, unit, area, los) -> float:
        """Depth of a unit inside ``area``: shortest distance to its edge, or along the line (option depth-mode)."""
        if self.options.get("depth-mode") == "along-los":
            return next((c.exit for c in los.crossings if c.area is area and c.at_observer), 0.0)
        return self.geometry.depth_inside(unit.x, unit.y, area)

    def prepared_cover(self, unit) -> set[str]:
        """Kinds of prepared cover the unit sits in (camouflage, foxhole, trench: BfOps p.9)."""
        return {a.kind for a in self.geometry.areas_at(unit.x, unit.y)
                if a.kind in ("camouflage", "foxhole", "trench")}

    def night_spot_modifier(self, observer, through_fire: bool = False) -> float:
        """Low light -4 / pitch dark -8 (BfOps p.12), offset by the observer's night vision (table
        ``night-vision`` by generation and bloc; the offset only cancels the penalty, reading ``night-vision``),
        nullified looking through a burning oil slick (p.10)."""
        light = self.scenario.environment.light
        if light == "dusk":
            mod = self.tables.spot_mod["low_light"]                       # BfOps p.12
        elif light == "night":
            mod = self.tables.spot_mod["pitch_dark"]                      # BfOps p.12
        else:
            return 0.0
        card = self.card_of(observer)
        offsets = self.tables.night_vision.get(card.night_vision) if self.tables.night_vision else None
        if offsets is None or through_fire:
            return mod
        return min(0.0, mod + float(offsets[card.side]))                  # BfOps p.12: NV offsets

    def ground_of(self, x: float, y: float, areas=None, weather: bool = True) -> str:
        """Ground type at a point (BfOps p.11), worsened one step by flood or deep snow (p.12) unless ``weather``
        is False. ``areas``: the areas at the point when the caller has them (``geometry.areas_at_points``)."""
        ground = "normal"
        for a in self.geometry.areas_at(x, y) if areas is None else areas:
            f = a.data.get("feature")
            g = (f.ground if f is not None and f.ground else "") or {"rough": "rough", "extreme": "extreme",
                                                                    "woods": "rough"}.get(a.kind, "")
            if g == "extreme" or (g == "rough" and ground == "normal"):
                ground = g
        weather = self.scenario.environment.weather if weather else "clear"
        if weather in ("flood", "deep_snow") and ground != "extreme":
            ground = "rough" if ground == "normal" else "extreme"
        return ground

    def cell_cost(self, mobility: str, fording_in: float, x: float, y: float, areas=None) -> float:
        """Movement cost per inch at a point for a mobility class: 1 / the slowest terrain's move factor; water
        deeper than the fording depth (fords excepted) and structures are impassable (BfOps p.11). ``areas`` as
        for :meth:`ground_of`."""
        factor = 1.0
        for a in self.geometry.areas_at(x, y) if areas is None else areas:
            f = a.data.get("feature")
            if f is not None and f.depth_in is not None:
                depth = _ford_depth(f, x, y)
                if depth > fording_in and mobility != "foot" or depth > 2 * max(fording_in, 0.25):
                    return math.inf
            row = self.tables.terrain.get(a.kind)
            if row is not None:
                mf = float(row["move_factor"])
                if mf <= 0:
                    return math.inf
                if a.kind == "road" and mobility != "foot":
                    return 1.0 / max(mf, 1e-6) * 0.75
                factor = min(factor, mf)
        return 1.0 / factor

    def nav(self, card: BfopsCard):
        from .movement import NavGrid

        mobility = "foot" if card.propulsion == "foot" else ("wheeled" if card.propulsion == "wheeled" else "tracked")
        key = (mobility, card.fording_depth_in)
        if key not in self._nav:
            self._nav[key] = NavGrid(self, mobility, card.fording_depth_in)
        return self._nav[key]

    # ------------------------------------------------------------------ API
    def data_fingerprint(self) -> str:
        return self.tables.fingerprint() + repr(sorted(self.options.items()))

    def new_initial_state(self, seed: int):
        from .state import new_state

        return new_state(self, seed)

    def parse_action(self, text: str):
        from .state import parse_action

        return parse_action(text, self.macros)

    def state_from_position(self, position):
        from .positions import state_from_position

        return state_from_position(self, position)

    def bot_names(self) -> list[str]:
        return ["heuristic"]

    def make_bot(self, name: str, side: int, seed: int):
        from ..bots import HeuristicBot

        return HeuristicBot(self, side, seed) if name == "heuristic" else None


def _steps(length: float, every: float):
    n = max(1, int(length // every))
    return [length * (k + 0.5) / n for k in range(n)]


def _ford_depth(feature, x: float, y: float) -> float:
    """Water depth at a point: a ford's depth within its width of the ford point, else the feature's depth."""
    for ford in feature.fords:
        if math.hypot(x - ford.at[0], y - ford.at[1]) <= max(ford.width_in, 1.0):
            return ford.depth_in
    return float(feature.depth_in)
