"""The MBT Basic Game (MBT 3.0-4.6) as a Game of ``studio.rules.api``: compiled scenario data, options and the
factory. The state and the sequence of play are ``state.py``; each rule chapter has its module (see
``studio/rulesets/README.md``). Engine policies for points the rules leave open are ruleset options
(``ruleset.yaml``), read by id; the few engine-only choices are listed in ``ENGINE_POLICIES``.

Bots may use macro actions (``bots.macro_move``) that expand into primitive actions, each applied through the
same legality code.
"""
from __future__ import annotations

from studio.rules.api import Game

from .actions import PASS, Action, _parse
from .codes import (CMD_CODES, CMD_NAMES, DEAD, EXITED, FIRE, MFIRE, MMOVE, MOVE, NC, NOMARK, ON, OW, P_CMD, P_DF,
                    P_INIT, P_MOVE, P_OVER, P_OWC, PHASES, SH, WAIT)
from .data import (BANDS, DataError, building_cover, check_costs, compile_map, compile_tables, compile_units,
                   edge_key, edge_of, engine_options)
from .adjustment import compile_victory
from .fire import penetration_result
from .los import build_los
from .advanced import AdvState
from .ag_data import compile_ag_tables
from .codes import ADV_PHASES
from .grades import compile_grades
from .opt_move_data import move_opt, used_placeholders
from .adv_move_data import adv_move
from .opt_fire_data import fire_data
from .opt_command import attach_opt_command
from .transport import initial_mounts
from .towed import towed_data
from .indirect import compile_batteries
from .if_data import if_data
from .opt_dismounted_fo import add_fo_sections, seat_fo_sections
from .air_data import compile_air_tables, compile_aircraft
from .state import MbtState

ENGINE_POLICIES = {
    "hit-spread": "Advanced Game: the additional hits of a ROF Q/R/F shot are spread (MBT 6.5.2.1) by option "
                  "'hit-spread' (stay on the original target, or one each to the eligible vehicles nearest it), "
                  "not by a question to the firer in the middle of the shot.",
    "hit-angle-owner-choice": "Advanced Game: on a boundary between two Hit Angles the owner takes the more frontal "
                              "one (MBT 6.5.2.2).",
    "ag-armor-fallback": "Advanced Game: a card without the Advanced armor table (or without the location) uses its "
                         "Basic Front factor through the Front and Front/Side angles, else its Rear factor; Deck "
                         "without a value reads Rear (MBT 6.5.2.3).",
    "shared-move": "Advanced Game: a unit given the same unique command as a formation-mate within Command Range "
                   "joins its counter (MBT 6.2.1.1.2); a sharer ends its move only within Command Range of the "
                   "sharers that finished theirs (6.2.1.1.4) while such a hex is within its reach (its allowance "
                   "over the cheapest path, turns not counted), else where it is (the earlier moves cannot be "
                   "undone); shared Overwatch keeps to the first sharer's target, not to its moment.",
    "entering-active": "Advanced Game: units due to enter this turn count as active for Available Commands "
                       "(MBT 6.2.1.1.1 counts units on the map; an entering formation would get one command).",
    "dismount-hex": "Advanced Game: a dismounting passenger is placed in its carrier's hex (the rules also allow an "
                    "adjacent hex, MBT 6.6.7); a leg unit mounts a vehicle in its own hex only; the carrier pays "
                    "for mounting passengers nothing (it pays half its allowance per hex for dismounting).",
    "danger-close": "Advanced Game: a Danger Close impact (an unmodified response roll of 1 with spotted friendly "
                    "units within 5 hexes, MBT 6.5.1.12) lands on the spotted friendly unit nearest the Target Point "
                    "(then in unit order): the opposing player's choice is not offered.",
    "close-combat": "Advanced Game: a Close Assault or Hand-to-Hand attack is one attacker, or ('assault A T all') "
                    "it and every eligible unit of its hex against the same target (MBT 6.6.1.1: hex-mates attacking "
                    "one vehicle combine); an eliminated Hand-to-Hand primary hands over to the largest remaining "
                    "attacker; a passenger's Dismount Attack ('dismount C P T') and an Advancing Attack ('assault A T "
                    "advance HEX') are alone at -10; an attached flamethrower modifies each side's roll "
                    "(MBT 5.1.3.7; its fire and morale effects follow the attackers' flamethrower); the attackers take "
                    "an eliminated target's hex if no other enemy is there.",
    "manpads": "Advanced Game: a SAM or MANPADS row (an AA weapon with SAM data, MBT 5.1.3.6, 5.4.3) fires only at "
               "flying aircraft, never at ground targets or landed helicopters; an attached MANPADS reads its SAM "
               "data from its crew-served card.",
    "building-entry": "Advanced Game: a vehicle in a building hex is inside the building (no alleys); a tracked "
                      "vehicle entering a building hex from outside, or leaving one for a hex that is not a "
                      "building, makes the MBT 6.6.3 damage check (moving between building hexes makes none); "
                      "wheeled and half-tracked vehicles enter without a check (the rule names tracked vehicles).",
    "entrenchment-occupant": "Advanced Game: a Hasty Entrenchment or Improved Position holds one unit, the first "
                             "eligible unit of its hex in unit order (leg or towed for a Hasty Entrenchment, any "
                             "ground unit for an Improved Position; MBT 6.1.4.3.6-7); a hex's construction advances "
                             "one turn (an engineer's: its rate) however many units dig there (6.6.8).",
    "sheaf": "Advanced Game: each source of a called mission chooses its type and SHEAF at the call; a continued "
             "or adjusted mission keeps them (the free GP <-> smoke switch of MBT 6.5.1.8 is not offered); a Planned "
             "plot is fired as plotted (re-plotting up to 5 hexes, 6.5.1.11.3, is not offered); two on-map IF units "
             "in Command Range of each other count as two sources (6.5.1.1.4).",
    "scatter": "Optional rule 7.26: the roll (6) of a scatter reads as the Directional Hex direction k = hexside "
               "k-1 of the engine's hex grid; an impact scattered off the map lands nowhere.",
    "counter-battery": "Optional rule 7.28: counter-battery fire is always announced (it is free and unlimited), by "
                       "the first unused asset, at each enemy battery that fires; lost batteries' victory points are "
                       "not scored.",
    "recon-by-fire": "Optional rule 7.37: the hexes offered are those with cover within the unmodified vehicle "
                     "spotting range, in the FO's clear line of sight, where it spots no unit.",
    "df-smoke": "Advanced Game: direct-fire smoke (MBT 6.1.4.3.10) is offered on the hexes of the enemies the unit "
                "may fire on (the rules allow any hex in line of sight and range without friendly units).",
    "dischargers": "Optional rule 7.9: vehicles try their smoke dischargers in command order, before their command "
                   "(not all of the previous First Player's first).",
    "helicopters": "Advanced Game: a helicopter flight is its end hex and facing, charged its cheapest manoeuvres "
                   "(forward, reverse, side slips, pylon and funnel turns), with its combat and rappels at the end "
                   "hex; tracking counts the hexes from start to end; no Hellfire designation or mast-mounted "
                   "sight; no stabilization modifier for helicopter guns (the cards give no factor); a landed "
                   "helicopter takes the helicopter AA results (destroyed, a wreck) without the +2 Size of AP fire "
                   "(MBT 6.7.5-6.7.9).",
    "fixed-wing": "Advanced Game: a side's fixed-wing sorties come before its helicopters in each Air Phase; loads "
                  "have no GP Effectiveness on the card, so an air attack's is its GP factor (at most 10); a "
                  "Suppressed aircraft recovers at the end of the turn; a second Damaged result crashes it like a "
                  "shot-down one; FASCAM loads are not dropped (MBT 6.7.2-6.7.3, 6.7.8).",
    "default-grade": "Advanced Game: a side without a Force Grade is Seasoned, the rules' baseline (MBT 6.5.2.5); "
                     "the check mbt.force-grade reports it.",
    "hit-aspect-owner-choice": "On a line of fire exactly along the front/rear divide the target's owner takes the "
                               "higher armor (a dominant choice, MBT 4.4.3.2.4).",
    "entry": "Off-map units enter with a MOVE command: 'enter' places them in an entry hex facing into the map and "
             "pays that hex's cost (MBT 4.5.1.1.9 exception).",
    "stuck": "A vehicle that cannot leave a hex holding opposing vehicles is returned to the last hex of its move "
             "without opposing vehicles (MBT 4.5.1.1.10 forbids ending there).",
    "objectives": "hold_hexes points need every listed hex controlled (MBT 3.6).",
    "visibility": "A scenario's environment.visibility caps every spotting range (scenario data; no Basic Game "
                  "rule). Its light and night turns apply Optional Rule 7.36 (table limited-visibility).",
    "owner-reveal": "The target's owner decides to reveal or conceal an unrevealed Move/Short Halt command when "
                    "it is fired on (MBT 4.4.3.2.2) with the 'reveal'/'conceal' actions.",
}


class MbtGame(Game):
    ruleset_id = "mbt"
    phases = PHASES

    def __init__(self, scenario, index, options: dict | None = None):
        ruleset = index.model("ruleset", scenario.ruleset)
        self.ruleset = ruleset
        self.index = index
        self.ruleset_version = ruleset.version
        self.scenario = scenario
        self.scenario_id = scenario.id
        self.sides = [s.id for s in scenario.sides]
        self.max_turns = scenario.turns
        self.options = engine_options(ruleset, scenario, options)
        self.optional_rules = frozenset(scenario.optional_rules)  # MBT 7.x switches (Game.optional_on)
        ext = scenario.extension
        self.extension = ext.model_dump() if hasattr(ext, "model_dump") else dict(ext or {})
        self.advanced = self.extension.get("game") == "advanced"  # MBT 1.0: the rule layer
        self.phases = ADV_PHASES if self.advanced else PHASES
        self.state_class = AdvState if self.advanced else MbtState
        self.tables = compile_tables(ruleset)
        self.ag = compile_ag_tables(ruleset)
        check_costs(ruleset)
        self.placeholder_tables = list(self.tables.placeholders) + (list(self.ag.placeholders) if self.advanced
                                                                    else [])
        amap, terrain, features, stories = compile_map(scenario, index, ruleset)
        self.map = amap
        self.units, self.types, self.unmodelled = compile_units(scenario, index, amap, self.advanced)
        self.uindex = {u.name: i for i, u in enumerate(self.units)}
        self.n = len(self.units)
        add_fo_sections(self)  # optional rule 7.39: the crew FO sections, aboard their vehicles (opt_dismounted_fo)
        compile_grades(self)
        self.initial_carrier = initial_mounts(self) if self.advanced else [-1] * self.n
        seat_fo_sections(self)
        self.batteries = compile_batteries(self) if self.advanced else []
        self.battery_index = {b.name: k for k, b in enumerate(self.batteries)}
        if self.advanced:
            if_data(self)  # indirect-fire data compiled now: bad data refuses the scenario (if_data.py)
        self.air = compile_air_tables(ruleset)  # MBT 6.7: air tables; the scenario's fixed-wing aircraft
        self.aircraft = compile_aircraft(self) if self.advanced else []
        if self.advanced:
            self.placeholder_tables += list(self.air.placeholders)
        self.objective_turns = int(self.extension.get("objective_turns", 1))
        self._environment(scenario.environment)
        self.first_fixed = self.sides.index(scenario.first_player) if scenario.first_player in self.sides else None
        self._hex_facts(terrain)
        self.features = {k: features.get(v) for k, v in amap.hexsides.items()}
        self.roads = dict(amap.roads)
        self.road_hexes = {h for k in self.roads for h in k}
        self.los = build_los(amap, terrain, features, stories, self.options)
        self.edge_costs: dict = {}   # (traction, from, to) -> (height row, hexside cost) or None (movement.py)
        self.xc_costs: dict = {}     # (traction, from, to, reverse) -> static cross-country cost or None
        self.xc_tables: dict = {}    # traction -> hex -> six (neighbour, static cost) (MovementRules.xc_steps)
        self.edges = edge_of(amap)
        self.victory_rules = compile_victory(self)
        self.objectives = sorted({amap.hex(h) for v in scenario.victory if v.type == "hold_hexes" for h in v.hexes
                                  if h in amap.hex_of})
        if self.advanced:  # movement optional rules and quickmarch (MBT 6.6.4.2, 7.29-7.34): refused here if bad
            self.placeholder_tables += used_placeholders(self)
            self.placeholder_tables += adv_move(self).placeholders  # MBT 6.6.3-6.6.8 (adv_move_data)
        attach_opt_command(self)  # optional rules of morale, hidden units, spotting, command (MBT 7.1-7.46)
        fire = fire_data(self)  # fire optional rules (MBT 7.8-7.50): bad tables refused here
        if self.advanced:
            self.placeholder_tables += self.optc.placeholders + fire.placeholders
            self.placeholder_tables += towed_data(self).placeholders  # towed units (MBT 5.2, 6.6.5)
        self.placeholder_tables = tables_in_force(self, self.placeholder_tables)  # only rules in force (issue 13)

    def _environment(self, env) -> None:
        """The scenario environment the rules use: the light of each turn (day, dusk, night; night turns) for
        limited visibility (MBT 7.36.1-2, 7.27) and the visibility cap; ``environment_rules_applied`` says which
        applied, for play reports."""
        self.environment = env
        self.visibility = env.visibility
        self.turn_light = {t: "night" if t in env.night_turns else env.light for t in range(1, self.max_turns + 2)}
        self.turn_spot_mod = {t: self.tables.light[light][0] for t, light in self.turn_light.items()}
        applied = []
        by_light: dict[str, list[int]] = {}
        for t in range(1, self.max_turns + 1):
            by_light.setdefault(self.turn_light[t], []).append(t)
        for light, turns in by_light.items():
            mod, frac = self.tables.light[light]
            if mod or frac != 1:
                applied.append(f"MBT 7.36.1 limited visibility ({light}, turns {_turns(turns)}): spotting modifier "
                               f"{mod:+d}; MBT 7.36.2 path/road movement factors x{frac:g}; MBT 7.27 a Brew-Up "
                               "Wreck lights its hex")
        if env.visibility is not None:
            applied.append(f"scenario visibility: spotting ranges at most {env.visibility} hexes")
        self.environment_rules_applied = applied

    def _hex_facts(self, terrain: dict) -> None:
        """Per-hex cover (AP fire and spotting), movement costs and Turn costs from the terrain catalogue."""
        amap = self.map
        self.hexes = list(amap.label_of)
        self.elev = dict(amap.elevation)
        self.cover: dict = {}
        self.spot_cover: dict = {}   # cover for spotting: building hexes by option building-spotting-cover
        self.cost: dict = {}         # hex -> {traction: cost or None}
        self.turn_cost: dict = {}
        by_kind, default = building_cover(self.ruleset)
        self.building_hexes = {h for h in self.hexes if amap.terrain.get(h, "") in default}  # MBT 6.5.4.3
        construction = self.extension.get("building_construction") or {}
        by_construction = self.options["building-spotting-cover"] == "by-construction"
        for h in self.hexes:
            t = terrain.get(amap.terrain.get(h, ""))
            if t is None:
                self.cover[h] = self.spot_cover[h] = "none"
                self.cost[h], self.turn_cost[h] = {}, None
                continue
            self.cover[h] = self.spot_cover[h] = t.cover
            if by_construction and t.code in default:  # MBT 6.1.4.3.9 (Q8)
                kind = construction.get(amap.label_of[h], default[t.code])
                self.spot_cover[h] = by_kind.get((t.code, kind), t.cover)
            self.cost[h] = t.move_cost
            if t.code not in self.tables.turn_cost:
                raise DataError(f"terrain '{t.code}' has no row in table 'terrain-effects' (its Turn cost, "
                                "MBT 4.5.1.1.4)", "/tables")
            self.turn_cost[h] = self.tables.turn_cost[t.code]

    # ---- Game API
    def new_initial_state(self, seed: int) -> MbtState:
        return self.state_class(self, seed)

    def parse_action(self, text: str) -> Action:
        return _parse(text)

    def state_from_position(self, position) -> MbtState:
        """The state of a position document (``studio.rules.position``; keys in ``engine/positions.py``)."""
        from .positions import state_from_position

        return state_from_position(self, position)

    def bot_names(self) -> list[str]:
        return ["heuristic", "passive"]

    def make_bot(self, name: str, side: int, seed: int):
        from ..bots import HeuristicBot, PassiveBot

        if name == "heuristic" and self.advanced:
            from ..bots_advanced import AdvancedHeuristicBot

            return AdvancedHeuristicBot(self, side, seed)
        if name == "heuristic":
            return HeuristicBot(self, side, seed)
        if name == "passive":
            return PassiveBot(self, side, seed)
        return None

    def data_fingerprint(self) -> str:
        """A hash of every compiled value the engine reads from the ruleset and the scenario (tables, options,
        per-hex terrain facts); a changed table cell changes it (conformance ``check_tables_read``)."""
        import hashlib

        parts = (self.tables.fingerprint(), self.ag.fingerprint(), move_opt(self).fingerprint(), adv_move(self).fingerprint(), if_data(self).fingerprint(),
                 fire_data(self).fingerprint(), towed_data(self).fingerprint(),
                 self.air.fingerprint(), self.optc.fingerprint(), repr(self.ocs), sorted(self.options.items(), key=repr),
                 sorted(self.optional_rules), sorted(self.cost.items()),
                 sorted(self.cover.items()), sorted(self.turn_cost.items()),
                 sorted((k, f.id, sorted(f.move_cost.items())) for k, f in self.features.items() if f is not None))
        return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:32]

    def units_of(self, side: int) -> tuple:
        """The indices of ``side``'s units (in unit order); recomputed when the unit list is replaced."""
        cached = self._units_of
        if cached is None or cached[0] is not self.units:
            by_side = [[] for _ in self.sides]
            for i, u in enumerate(self.units):
                by_side[u.side].append(i)
            cached = self._units_of = (self.units, [tuple(x) for x in by_side])
        return cached[1][side]

    def enemies_of(self, side: int) -> tuple:
        """The indices of every unit not of ``side`` (in unit order)."""
        cached = self._enemies_of
        if cached is None or cached[0] is not self.units:
            cached = self._enemies_of = (self.units, [tuple(i for i, u in enumerate(self.units) if u.side != s)
                                                      for s in range(len(self.sides))])
        return cached[1][side]

    _units_of = _enemies_of = None

    def clear_caches(self) -> None:
        """Drop what was compiled from the map and the cards (step costs, step tables, the bots' plans): for a
        caller that edits the game's data after play started (tests, editors)."""
        self.edge_costs.clear()
        self.xc_costs.clear()
        self.xc_tables.clear()
        for cache in self.derived_caches:
            cache.pop(self, None)

    #: weak dictionaries keyed by game that hold results derived from its data (``bots._PLANS``)
    derived_caches: list = []

    # ---- static helpers
    def label(self, h) -> str:
        return self.map.label_of.get(h, "?")

    def spot_range_of(self, mod: int) -> int:
        lo, hi = self.tables.spot_clamp
        r = self.tables.spot_range[max(lo, min(hi, mod))]
        return min(r, self.visibility) if self.visibility is not None else r


def _turns(turns: list[int]) -> str:
    """``1-10`` or ``11, 12``: a compact list of turn numbers."""
    if len(turns) > 2 and turns == list(range(turns[0], turns[-1] + 1)):
        return f"{turns[0]}-{turns[-1]}"
    return ", ".join(map(str, turns))


def percentile(tens: int, units: int) -> int:
    """Read roll (100) from the coloured (tens) and white (units) d10 faces 0-9 (MBT 3.2).

    >>> percentile(2, 7), percentile(0, 1), percentile(0, 0)
    (27, 1, 100)
    """
    value = 10 * tens + units
    return 100 if value == 0 else value


def read_d10(face: int) -> int:
    """Read roll (10): face 0 counts 10 (MBT 3.2).

    >>> read_d10(0), read_d10(7)
    (10, 7)
    """
    return 10 if face == 0 else face


def create_game(scenario, index, options: dict | None = None) -> MbtGame:
    """The game of ``scenario``; ruleset data the engine cannot use is refused with diagnostics
    (:class:`studio.rules.load.ScenarioRefused`), never a traceback."""
    from studio.model.diagnostics import Diagnostic, Severity
    from studio.rules.load import ScenarioRefused

    doc = index.get("ruleset", scenario.ruleset)
    if doc is None or doc.model is None:
        diags = list(doc.diagnostics) if doc is not None else []
        raise ScenarioRefused(f"scenario '{scenario.id}' cannot be played: ruleset '{scenario.ruleset}' is missing "
                              "or invalid", diags or [Diagnostic(Severity.ERROR, "mbt.engine-data",
                                                                 f"ruleset '{scenario.ruleset}' is not loaded")])
    try:
        return MbtGame(scenario, index, options)
    except DataError as exc:
        if doc is not None and exc.pointer:
            diag = doc.diag(Severity.ERROR, "mbt.engine-data", str(exc), exc.pointer)
        else:
            diag = Diagnostic(Severity.ERROR, "mbt.engine-data", str(exc), doc.display if doc else "")
        raise ScenarioRefused(f"scenario '{scenario.id}' cannot be played: {exc}", [diag]) from None


def tables_in_force(game, tables: list) -> list:
    """``tables`` without those only optional rules that are off list as theirs (``optional_rules[].tables``):
    a play report's "placeholder tables used" names only tables the game reads; each table once."""
    owners: dict = {}
    for r in game.ruleset.optional_rules:
        for t in r.tables:
            owners.setdefault(t, []).append(r.id)
    return list(dict.fromkeys(t for t in tables if t not in owners or any(game.optional_on(o) for o in owners[t])))


__all__ = ["MbtGame", "MbtState", "Action", "PASS", "create_game", "percentile", "read_d10",
           "penetration_result", "BANDS", "edge_key", "CMD_CODES", "CMD_NAMES", "DEAD", "EXITED", "FIRE", "MFIRE",
           "MMOVE", "MOVE", "NC", "NOMARK", "ON", "OW", "P_CMD", "P_DF", "P_INIT", "P_MOVE", "P_OVER", "P_OWC",
           "PHASES", "SH", "WAIT", "_parse"]
