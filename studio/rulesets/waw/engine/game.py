"""Compiling a scenario into a World at War :class:`Game` (static facts) and creating states.

Static facts: the assembled map with the Terrain Effect Chart of the ruleset data, the units (one per TO&E slot
instance, ids ``<force>.<n>`` counting from 1), formations with their markers and Morale, artillery assets,
victory conditions, rule options (ruleset defaults overridden by the scenario, then by the caller) and the LOS
cache.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from studio.hexgrid.coords import distance
from studio.model.maps import assemble_scenario
from studio.rules.api import Game, PhaseSpec, RulesError

from ..cards import INFANTRY_CLASSES, VEHICLE_CLASSES, Morale, WawCounter
from ..forces import scenario_units
from .actions import Action, parse_action
from .los import los_for_map
from .tables import compile_tables

PHASES = (
    PhaseSpec("operations", "Operations Phase: draw markers, formation impulses", "WaW 3.1", "both"),
    PhaseSpec("impulse", "Formation impulse: housekeeping, command, rally, operations", "WaW 4.0", "active"),
    PhaseSpec("opfire", "Opportunity Fire window", "WaW 6.2", "second"),
    PhaseSpec("marker_removal", "Marker Removal Phase", "WaW 3.2", "none"),
)


@dataclass
class UnitSpec:
    uid: str
    idx: int
    side: int
    formation: int
    card: str
    name: str
    body: WawCounter
    cls: str
    nation: str
    category: str = ""
    towed_class: str = "thin"          # 1.3.9 vs 6.1 (option c57): the target class of towed 'T' units

    @property
    def is_vehicle(self) -> bool:
        return self.cls in VEHICLE_CLASSES or self.cls == "towed_gun"

    @property
    def is_infantry(self) -> bool:
        return self.cls in INFANTRY_CLASSES

    @property
    def is_heli(self) -> bool:
        return self.cls == "helicopter"

    @property
    def is_hq(self) -> bool:
        return self.cls == "hq"

    def values(self, strength: int, hovering: bool = False):
        b = self.body
        if self.is_heli:
            return b.hovering if hovering else b.flying
        if strength and b.reduced is not None:
            return b.reduced
        return b.full

    def target_class(self, strength: int) -> str:
        """afv | thin | unarmored | soft | helicopter (WaW 1.3.4, Targeting Table; digest C56, C57)."""
        if self.is_heli:
            return "helicopter"
        if self.cls == "towed_gun":
            return self.towed_class
        if self.cls == "aa_vehicle":
            return "thin"
        if self.is_vehicle:
            v = self.values(strength)
            if v is None or v.armor is None or v.save is None:
                return "unarmored"
            if v.armor == 1 and v.save in (5, 6):
                return "thin"
            return "afv"
        return "soft"


@dataclass
class FormationInfo:
    id: str
    name: str
    side: int
    kind: str
    markers: int
    morale: Morale | None
    units: list[int] = field(default_factory=list)
    hq: int = -1
    hq_type_units: frozenset = frozenset()
    hq_company: frozenset = frozenset()


@dataclass
class Asset:
    id: str
    side: int
    type: str
    missions: int
    fp: int
    to_hit: int
    usable: bool = True



FORMULA = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d)(\d)\s*$")


class WawGame(Game):
    ruleset_id = "waw"
    phases = PHASES

    def __init__(self, scenario, index, options: dict[str, Any] | None = None):
        self.scenario = scenario
        self.scenario_id = scenario.id
        rs = index.model("ruleset", scenario.ruleset)
        self.ruleset = rs
        self.ruleset_version = rs.version if rs else ""
        self.placeholder_tables = [t.id for t in rs.tables if t.placeholder or t.placeholder_rows] if rs else []
        self.options = {o.id: o.default for o in rs.options} if rs else {}
        self.options.update(scenario.options)
        self.options.update(options or {})
        self.sides = [s.id for s in scenario.sides]
        self.side_names = [s.name for s in scenario.sides]
        self.max_turns = scenario.turns
        ext = scenario.extension
        roles = {r.side: r.role for r in ext.roles}
        self.roles = [roles.get(s, "NATO" if i == 0 else "Alliance") for i, s in enumerate(self.sides)]
        self.side_index = {s: i for i, s in enumerate(self.sides)}
        self._setup_map(scenario, index)
        self._setup_units(scenario, index)
        self._setup_attachments(scenario, index)
        self._setup_air(scenario, index)
        self._setup_markers(scenario, index)
        self._setup_chaos_counters(scenario, index)
        self._setup_cup_and_victory(scenario, index)
        self._setup_caches(scenario, index)

    def _setup_map(self, scenario, index) -> None:
        """Set-up: the assembled map, the compiled ruleset data, LOS and the terrain kinds rules name."""
        rs = self.ruleset
        self.map = assemble_scenario(scenario, index)
        amap = self.map
        self.tables = tables = compile_tables(self.ruleset)
        self.constants = tables.const
        self.tec = tables.tec
        # terrain kinds the rules name (TEC terrain_class): built-up 6.3.1/8.1/1.3.8, open 1.3.8, 6.4, 5.3, Chaos 9
        self.built_up = tables.codes_of("city", "ruins", "skyscrapers")
        self.open_codes = tables.codes_of("open")
        self.overrun_codes = tables.codes_of("open", "hill")
        self.water_codes = tables.codes_of("water")
        self.mob_codes = tables.codes_of("city", "skyscrapers")
        self.woods_codes = tables.codes_of("woods")
        self.scrub_codes = tables.codes_of("scrub")
        self.hexes = sorted(amap.label_of)
        self.terrain = amap.terrain
        self.level = {h: (1 if amap.elevation.get(h, 0) > 0 else 0) for h in self.hexes}
        self.los = los_for_map(amap, rs, tables)
        self.nbrs = {h: amap.neighbours(h) for h in self.hexes}
        self.nbr_set = {h: frozenset(n) for h, n in self.nbrs.items()}
        # the hexes within 1 and at exactly 2 of each hex (the listing cache's locality rules, engine/cache.py)
        self.within1 = {h: _within(h, 1, self.nbrs) for h in self.hexes}
        self.ring2 = {h: [x for x in _within(h, 2, self.nbrs) if distance(x, h) == 2] for h in self.hexes}
        self.near_pair: dict = {}               # (old hex, new hex) -> hexes within 1, at 2 (engine/cache.py)

    def _setup_units(self, scenario, index) -> None:
        """Set-up: one unit per TO&E slot instance (ids <force>.<n>), formations (markers, Morale, entry)."""
        ext = scenario.extension
        amap = self.map
        side_index = self.side_index
        force_side = {f.id: side_index[s.id] for s in scenario.sides for f in s.forces}
        self.formations: list[FormationInfo] = []
        f_of_force: dict[str, int] = {}
        for spec in ext.formations:
            f_of_force[spec.force] = len(self.formations)
            self.formations.append(FormationInfo(spec.id, spec.name or spec.id, force_side.get(spec.force, 0),
                                                 spec.kind, spec.markers, spec.morale))
        self.units: list[UnitSpec] = []
        self.by_uid: dict[str, int] = {}
        self.start_hex: list[Any] = []
        placed = scenario_units(scenario, index)
        self.entry: dict[int, tuple[int, list]] = {}
        forces = {f.id: f for s in scenario.sides for f in s.forces}
        for fid, fus in placed.items():
            if fid not in f_of_force:
                f_of_force[fid] = len(self.formations)
                self.formations.append(FormationInfo(fid, fid, force_side[fid], "ground", 1, None))
            fi = f_of_force[fid]
            for fu in fus:
                self._add_unit(index, fid, fu, force_side[fid], fi)
            force = forces[fid]
            if force.entry is not None:
                hexes = [amap.hex_of[h] for h in force.entry.hexes if h in amap.hex_of] or \
                    amap.edge_hexes(force.entry.edge or "west")
                self.entry[fi] = (force.entry.turn, hexes)
        for f in self.formations:
            if f.kind == "ground" and f.units and all(self.units[i].is_heli for i in f.units):
                f.kind = "helicopter"

    def _add_unit(self, index, fid: str, fu, side: int, fi: int) -> None:
        """One unit of force ``fid`` (placed ``fu``) in formation ``fi``; an HQ gives its formation the Morale."""
        card = index.model("unit", fu.unit)
        body = card.body
        u = UnitSpec(f"{fid}.{fu.index + 1}", len(self.units), side, fi, fu.unit, card.name, body, body.unit_class,
                     card.nation, card.category)
        self.by_uid[u.uid] = u.idx
        self.units.append(u)
        self.formations[fi].units.append(u.idx)
        if u.is_hq:
            self.formations[fi].hq = u.idx
            if self.formations[fi].morale is None:
                self.formations[fi].morale = body.morale
        self.start_hex.append(self.map.hex_of.get(fu.hex) if fu.hex else None)

    def _setup_attachments(self, scenario, index) -> None:
        """Set-up: SWs (1.3.5), passengers (5.2), units starting Disrupted, Leaders and Heroes (1.3.6, 1.3.7)."""
        ext = scenario.extension
        self.sw_of: dict[int, int] = {}        # host unit -> SW card index in self.sw_cards
        self.sw_cards: list[WawCounter] = []
        for a in ext.support_weapons:
            host = self.by_uid.get(f"{a.force}.{a.index + 1}")
            card = index.model("unit", a.unit)
            if host is not None and card is not None:
                self.sw_of[host] = len(self.sw_cards)
                self.sw_cards.append(card.body)
        self.passengers = []
        for p in ext.passengers:
            pu, cu = self.by_uid.get(f"{p.force}.{p.index + 1}"), self.by_uid.get(f"{p.carrier_force}."
                                                                                 f"{p.carrier_index + 1}")
            if pu is not None and cu is not None:
                self.passengers.append((pu, cu, p.disrupted))
        self.start_disrupted = [self.by_uid[f"{a.force}.{a.index + 1}"] for a in ext.disrupted
                                if f"{a.force}.{a.index + 1}" in self.by_uid]
        # Leaders and Heroes attached to platoons (WaW 1.3.6, 1.3.7)
        self.leader_of: dict[int, WawCounter] = {}
        self.hero_of: dict[int, WawCounter] = {}
        for group, target in ((ext.leaders, self.leader_of), (ext.heroes, self.hero_of)):
            for a in group:
                host = self.by_uid.get(f"{a.force}.{a.index + 1}")
                card = index.model("unit", a.unit)
                if host is not None and card is not None:
                    target[host] = card.body

    def _setup_air(self, scenario, index) -> None:
        """Set-up: airstrikes (9.5), Jammed (10.0) and Air Cover (9.6) markers, snipers (1.3.8), the Chaos 18
        sniper."""
        ext = scenario.extension
        amap = self.map
        side_index = self.side_index
        self.airstrikes = [(a, side_index[a.side]) for a in ext.airstrikes if a.side in side_index
                           and None not in (a.ap_fp, a.he_fp, a.to_hit, a.armor, a.save)]
        self.jammers = [side_index[s] for s in ext.cup.jammed if s in side_index]
        self.air_cover = [side_index[s] for s in ext.cup.air_cover if s in side_index]
        self.air_cover_fp = (ext.cup.air_cover_aa_fp or 0, ext.cup.air_cover_to_hit or 5)
        # snipers (WaW 1.3.8): (card, host unit, start hex); Chaos 18 adds the project's NATO sniper
        self.snipers = []
        for a in ext.snipers:
            host = self.by_uid.get(f"{a.force}.{a.index + 1}")
            card = index.model("unit", a.unit)
            if host is not None and card is not None and a.hex in amap.hex_of:
                self.snipers.append((card.body, host, amap.hex_of[a.hex]))
        self.chaos_sniper = None
        for card_id in sorted(index.ids("unit")):
            body = getattr(index.model("unit", card_id), "body", None)
            if isinstance(body, WawCounter) and body.unit_class == "sniper" and body.side == "NATO":
                self.chaos_sniper = body
                break

    def _setup_markers(self, scenario, index) -> None:
        """Set-up: Improved Positions, Mines, Wrecks, artillery assets (8.0) and the Chaos 4 HE mission."""
        ext = scenario.extension
        amap = self.map
        side_index = self.side_index
        self.ip = {amap.hex_of[h] for h in ext.fortifications.improved_positions if h in amap.hex_of}
        self.mines = {amap.hex_of[h] for h in ext.fortifications.mines if h in amap.hex_of}
        self.start_wrecks = {amap.hex_of[h] for h in ext.wrecks if h in amap.hex_of}
        self.assets: list[Asset] = []
        for a in ext.artillery:
            m = FORMULA.match(a.formula)
            if m and a.side in side_index:
                nation = a.nationality or scenario.sides[side_index[a.side]].nation
                # 8.4 (option c40): Chemical missions only for the Soviets, or for any Alliance side
                usable = a.type != "Chemical" or (nation == "Soviet Union" if self.option("c40_chemical") ==
                                                  "soviet_only" else self.roles[side_index[a.side]] == "Alliance")
                self.assets.append(Asset(a.id, side_index[a.side], a.type, int(m.group(1)), int(m.group(2)),
                                         int(m.group(3)), usable))
        # Chaos 4: the 3-4 HE support NATO receives when no airstrike can be added (asset with no missions yet)
        if "NATO" in self.roles:
            self.assets.append(Asset("chaos-he-34", self.roles.index("NATO"), "HE", 0, self.const("chaos_cas_he_fp"),
                                     self.const("chaos_cas_he_to_hit")))

    def _setup_chaos_counters(self, scenario, index) -> None:
        """Set-up: Leaders for Chaos 11/13 and the Mob formation of Chaos 9."""
        ext = scenario.extension
        self.chaos_leaders: dict[int, WawCounter] = {}
        for card_id in sorted(index.ids("unit")):
            card = index.model("unit", card_id)
            body = getattr(card, "body", None)
            if isinstance(body, WawCounter) and body.unit_class == "leader":
                for i, s in enumerate(scenario.sides):
                    if s.nation == card.nation and self.roles[i] == body.side:
                        self.chaos_leaders.setdefault(i, body)
        # Chaos 9: a Mob counter and its formation (no HQ, no markers until the insurrection)
        self.mob = None
        if "NATO" in self.roles and ext.cup.chaos:
            nato = self.roles.index("NATO")
            nation = scenario.sides[nato].nation
            for card_id in sorted(index.ids("unit")):
                card = index.model("unit", card_id)
                body = getattr(card, "body", None)
                if isinstance(body, WawCounter) and body.type_label == "Mob" and card.nation == nation:
                    fi = len(self.formations)
                    self.formations.append(FormationInfo("mob", "Mob", nato, "mob", 0,
                                                         Morale(value=self.const("unit_morale_default"))))
                    u = UnitSpec("mob.1", len(self.units), nato, fi, card_id, card.name, body, body.unit_class,
                                 card.nation)
                    self.by_uid[u.uid] = u.idx
                    self.units.append(u)
                    self.formations[fi].units.append(u.idx)
                    self.start_hex.append(None)
                    self.mob = u.idx
                    break

    def _setup_cup_and_victory(self, scenario, index) -> None:
        """Set-up: HQ companions, the cup's End Turn and Chaos markers, control (13.0) and victory conditions."""
        ext = scenario.extension
        amap = self.map
        side_index = self.side_index
        self._hq_companions()
        # 1.7.2: the scenario's End Turn markers, else the rules' number
        self.end_turn_markers = ext.cup.end_turn if ext.cup.end_turn is not None else self.const("end_turn_markers")
        self.chaos_markers = ext.cup.chaos
        # control (WaW 13.0): set-up areas, else the hexes each side sets up in
        self.initial_control: dict = {}
        for s, labels in ext.setup_areas.items():
            for label in labels:
                if label in amap.hex_of and s in side_index:
                    self.initial_control[amap.hex_of[label]] = side_index[s]
        if not ext.setup_areas:
            for u in self.units:
                h = self.start_hex[u.idx]
                if h is not None and not u.is_heli:
                    self.initial_control[h] = u.side
        self.victory = []
        for vc in scenario.victory:
            self.victory.append((vc.type, side_index.get(vc.side, 0), vc.points,
                                 [amap.hex_of[h] for h in vc.hexes if h in amap.hex_of], vc.percent))
        self.label = amap.label_of

    def _setup_caches(self, scenario, index) -> None:
        """Set-up: per-unit value caches (values by strength and mode, target class, maximum reach)."""
        self.vals = [[[u.values(st, bool(hv)) for hv in (0, 1)] for st in (0, 1)] for u in self.units]
        self.side_of = [u.side for u in self.units]
        self.units_of_side = {s: [u.idx for u in self.units if u.side == s] for s in range(len(self.sides))}
        # ground units (not helicopters or HQs: what 6.3/6.4 meet) and those that count for stacking (1.4)
        self.ground_unit = [not u.is_heli and not u.is_hq for u in self.units]
        self.stacking_unit = [g and u.cls not in ("support_weapon", "sniper", "leader", "hero")
                              for g, u in zip(self.ground_unit, self.units)]
        towed = "soft" if self.option("c57_towed_target") == "soft" else "thin"
        for u in self.units:
            u.towed_class = towed
        self.tclass = [[u.target_class(st) for st in (0, 1)] for u in self.units]
        self.mobility = [[(u.values(st).movement.type if u.values(st) is not None else None) for st in (0, 1)]
                         for u in self.units]
        # 5.0 step costs per (terrain code, mobility class): terrain[].move_cost; Texas Scrub vehicles only along
        # a trail (roads are costed apart) under option c61 "trail_only"
        trail_only = self.option("c61_texas_scrub_vehicles") == "trail_only"
        self.step_cost = {(code, mt): (None if trail_only and code in self.scrub_codes and mt != "foot" else cost)
                          for code, costs in self.tables.move_cost.items() for mt, cost in costs.items()}
        self.step_static: dict = {}             # (mobility, a, b) -> (terrain code, fixed step cost): movement.py
        self.step_rows: dict = {}               # (mobility, hex) -> (neighbours' terrain codes, fixed costs): movement.py
        self.action_memo: dict = {}             # move and fire actions made once per game: action_of
        self.fire_memo: dict = {}               # fire legality before LOS per firer state and target class: fire.py
        factor = self.const("extended_range_factor")
        self.reach = []
        for u in self.units:
            r = 1
            single = u.cls == "on_map_artillery"          # 8.7: no extended-range direct fire
            for st in (0, 1):
                for hv in (0, 1):
                    v = u.values(st, bool(hv))
                    if v is not None and v.range:
                        r = max(r, v.range * (1 if v.range_underlined or single else factor))
            self.reach.append(r)

    def _hq_companions(self) -> None:
        """Per formation, the units "of the HQ's type" (WaW 1.3.3.1, 1.3.3.3; V24 matching: the HQ card's
        ``hq_type`` against unit class, card category, card id or type label; no ``hq_type`` = any ground unit).

        ``hq_type_units``: units of the appropriate type and formation (restore, 1.3.3.3).
        ``hq_company``: the units the HQ must stay with (1.3.3.1): per option c23 the whole formation
        (``formation``) or only the units of its type (``formation_and_type``)."""
        by_type = self.option("c23_hq_type") == "formation_and_type"
        for f in self.formations:
            ground = [i for i in f.units if i != f.hq and not self.units[i].is_heli and not self.units[i].is_hq]
            want = self.units[f.hq].body.hq_type if f.hq >= 0 else None
            typed = [i for i in ground if want is None or want in (
                self.units[i].cls, self.units[i].category, self.units[i].card, self.units[i].body.type_label)]
            f.hq_type_units = frozenset(typed)
            f.hq_company = frozenset(typed if by_type else ground)

    # ------------------------------------------------------------------ API
    def new_initial_state(self, seed: int):
        from .state import WawState

        return WawState.initial(self, seed)

    def state_from_position(self, position):
        """A state set up from a position document (see ``engine/position.py`` for the keys)."""
        from .position import state_from_position

        return state_from_position(self, position)

    def parse_action(self, text: str) -> Action:
        try:
            return parse_action(text)
        except ValueError as exc:
            raise RulesError(str(exc)) from None

    def bot_names(self) -> list[str]:
        return ["heuristic"]

    def make_bot(self, name: str, side: int, seed: int):
        from ..bots import BOTS

        factory = BOTS.get(name)
        return factory(self, side, seed) if factory else None

    # ------------------------------------------------------------------ helpers
    def data_fingerprint(self) -> str:
        """A hash of the compiled ruleset data the engine reads (tables, constants, costs, features) and the
        options in force: any cell the engine uses changes it."""
        return f"{self.tables.fingerprint()}:{sorted((k, str(v)) for k, v in self.options.items())}"

    def tec_row(self, h) -> dict:
        return self.tec.get(self.terrain.get(h, "C")) or self.tec["C"]

    def action_of(self, key: tuple) -> Action:
        """The move or fire action of ``key`` (``("move", unit, hex)`` or ``("fire", unit, target, fire)``), made
        once per game (actions are immutable values: the listings share them)."""
        hit = self.action_memo.get(key)
        if hit is None:
            if key[0] == "move":
                hit = Action("move", self.units[key[1]].uid, self.label[key[2]])
            else:
                hit = Action("fire", self.units[key[1]].uid, self.units[key[2]].uid, key[3])
            self.action_memo[key] = hit
        return hit

    def option(self, name: str):
        return self.options.get(name)

    def const(self, name: str):
        """A value of the ruleset's ``constants`` table (declared in ``engine_tables``, so it exists)."""
        return self.constants[name]


def _within(h, r: int, on_map) -> list:
    """The map hexes at distance <= ``r`` of ``h`` (``h`` included), whatever lies between."""
    q, s = h
    return [(q + dq, s + dr) for dq in range(-r, r + 1) for dr in range(-r, r + 1)
            if abs(dq) <= r and abs(dr) <= r and abs(dq + dr) <= r and (q + dq, s + dr) in on_map]


def create_game(scenario, index, options: dict[str, Any] | None = None) -> WawGame:
    return WawGame(scenario, index, options)
