"""The MBT Basic Game (MBT 3.0-4.6) as a Game/State of ``studio.rules.api``.

Sequence of play (``PHASES``, MBT 4.0): Spotting (automatic) -> Command (every vehicle gets one of FIRE, MOVE,
SH (Short Halt), OW (Overwatch), NC, placed face down: ``observation`` hides unrevealed enemy commands) ->
Initiative (roll (100) per side, ties rerolled, the winner chooses First or Second Player) -> Combat (Direct
Fire: First Player announces all Fire/Short Halt shots, then they resolve; then the Second Player; then
Overwatch fire at units that fired, alternating from the First Player, cascading) -> Movement (Second Player
first, then First; after every hex entered or turn made the other side may Overwatch-fire, cascading) ->
Adjustment (unused Fire/SH -> Spot/Fire, unused Move -> Spot/Move, commands removed, objectives, end of turn).

Primitive actions (tuples with a text form; ``MbtGame.parse_action`` inverts ``str``)::

    command M1-1 FIRE|MOVE|SH|OW|NC     initiative first|second
    fire M1-1 at T-80B-2 main:APFSDS    hold M1-1 (no target left)     reveal T-80B-2 | conceal T-80B-2
    ow M1-1 at T-80B-2 main:APFSDS      pass
    move M1-1 (select the next vehicle to move)  road M1-1 (road/path rate)  fwd M1-1  rev M1-1
    turn M1-1 left|right  enter M1-1 2A8  exit M1-1  done M1-1

Bots may use macro actions (``macro_move``) that expand into these primitives, each applied through the same
legality code. Engine policies for points the rules leave open are ruleset options (``ruleset.yaml``), read by
id; the few engine-only choices are listed in ``ENGINE_POLICIES``.
"""
from __future__ import annotations

from typing import Any

from studio.hexgrid.coords import distance, neighbour
from studio.hexgrid.facing import Aspect, hit_aspect, in_arc
from studio.hexgrid.lines import hex_line
from studio.model.maps import edge_key
from studio.rules.api import TERMINAL, Game, Outcome, PhaseSpec, RulesError, State
from studio.rules.dice import Dice

from .data import BANDS, DataError, check_costs, compile_map, compile_tables, compile_units, edge_of
from .los import build_los

NC, FIRE, MOVE, SH, OW = 1, 2, 3, 4, 5
CMD_NAMES = {NC: "NC", FIRE: "FIRE", MOVE: "MOVE", SH: "SH", OW: "OW"}
CMD_CODES = {v: k for k, v in CMD_NAMES.items()}
WAIT, ON, EXITED, DEAD = 0, 1, 2, 3
NOMARK, MFIRE, MMOVE = 0, 1, 2
P_CMD, P_INIT, P_DF, P_OWC, P_MOVE, P_OVER = 1, 2, 3, 4, 5, 9

PHASES = (
    PhaseSpec("spotting", "Spotting Phase", "MBT 4.1", "none"),
    PhaseSpec("command", "Command Phase: place commands face down", "MBT 4.2.1", "both"),
    PhaseSpec("initiative", "Initiative Phase", "MBT 4.3", "both"),
    PhaseSpec("direct-fire-first", "Combat Phase: First Player Direct Fire", "MBT 4.4.1", "first"),
    PhaseSpec("direct-fire-second", "Combat Phase: Second Player Direct Fire", "MBT 4.4.1", "second"),
    PhaseSpec("overwatch", "Combat Phase: Overwatch Fire", "MBT 4.4.2", "both"),
    PhaseSpec("move-second", "Movement Phase: Second Player moves", "MBT 4.5", "second"),
    PhaseSpec("move-first", "Movement Phase: First Player moves", "MBT 4.5", "first"),
    PhaseSpec("adjustment", "Adjustment Phase", "MBT 4.6", "none"),
)

ENGINE_POLICIES = {
    "hit-aspect-owner-choice": "On a line of fire exactly along the front/rear divide the target's owner takes the "
                               "higher armor (a dominant choice, MBT 4.4.3.2.4).",
    "unmarked-level-change": "A hill level change without a slope/crest hexside: option 'unmarked-level-change' "
                             "(engine default 'slope'; 'cliff' = impassable per MBT 4.1.4.1.5).",
    "entry": "Off-map units enter with a MOVE command: 'enter' places them in an entry hex facing into the map and "
             "pays that hex's cost (MBT 4.5.1.1.9 exception).",
    "stuck": "A vehicle that cannot leave a hex holding opposing vehicles is returned to the last hex of its move "
             "without opposing vehicles (MBT 4.5.1.1.10 forbids ending there).",
    "objectives": "hold_hexes points need every listed hex controlled (MBT 3.6).",
    "visibility": "A scenario's environment.visibility caps every spotting range (scenario data; no Basic Game "
                  "rule). Night turns are not modelled in the Basic Game.",
    "owner-reveal": "The target's owner decides to reveal or conceal an unrevealed Move/Short Halt command when "
                    "it is fired on (MBT 4.4.3.2.2) with the 'reveal'/'conceal' actions.",
}


class Action(tuple):
    """An action: a tuple of strings whose ``str`` is its text form."""

    __slots__ = ()

    def __str__(self) -> str:
        k = self[0]
        if k in ("fire", "ow"):
            return f"{k} {self[1]} at {self[2]} {self[3]}"
        return " ".join(self)

    def __repr__(self) -> str:
        return f"<{self}>"


PASS = Action(("pass",))


def _parse(text: str) -> Action:
    t = text.split()
    if not t:
        raise ValueError("empty action")
    if t[0] in ("fire", "ow"):
        if len(t) != 5 or t[2] != "at":
            raise ValueError(f"cannot read '{text}': expected '{t[0]} UNIT at TARGET WEAPON:AMMO'")
        return Action((t[0], t[1], t[3], t[4]))
    if t[0] not in ("command", "initiative", "hold", "reveal", "conceal", "pass", "move", "road", "fwd", "rev", "turn",
                    "enter", "exit", "done"):
        raise ValueError(f"unknown action '{text}'")
    return Action(tuple(t))


# ===================================================================================================== game

class MbtGame(Game):
    ruleset_id = "mbt"
    phases = PHASES

    def __init__(self, scenario, index, options: dict | None = None):
        ruleset = index.model("ruleset", scenario.ruleset)
        self.ruleset = ruleset
        self.ruleset_version = ruleset.version
        self.scenario = scenario
        self.scenario_id = scenario.id
        self.sides = [s.id for s in scenario.sides]
        self.max_turns = scenario.turns
        opts = {o.id: o.default for o in ruleset.options}
        opts.setdefault("unmarked-level-change", "slope")
        opts.update(scenario.options or {})
        opts.update(options or {})
        self.options = opts
        self.tables = compile_tables(ruleset)
        check_costs(ruleset)
        self.placeholder_tables = list(self.tables.placeholders)
        amap, terrain, features, stories = compile_map(scenario, index, ruleset)
        self.map = amap
        self.units, self.types = compile_units(scenario, index, amap)
        self.uindex = {u.name: i for i, u in enumerate(self.units)}
        self.n = len(self.units)
        ext = scenario.extension
        ext = ext.model_dump() if hasattr(ext, "model_dump") else (ext or {})
        self.objective_turns = int(ext.get("objective_turns", 1))
        self.visibility = scenario.environment.visibility
        self.first_fixed = self.sides.index(scenario.first_player) if scenario.first_player in self.sides else None
        # ---- per-hex terrain facts
        self.hexes = list(amap.label_of)
        self.elev = dict(amap.elevation)
        self.cover: dict = {}
        self.cost: dict = {}        # hex -> {traction: cost or None}
        self.turn_cost: dict = {}
        for h in self.hexes:
            t = terrain.get(amap.terrain.get(h, ""))
            if t is None:
                self.cover[h], self.cost[h], self.turn_cost[h] = "none", {}, None
                continue
            self.cover[h] = t.cover
            self.cost[h] = t.move_cost
            if t.code not in self.tables.turn_cost:
                raise DataError(f"terrain '{t.code}' has no row in table 'terrain-effects' (its Turn cost, "
                                "MBT 4.5.1.1.4)", "/tables")
            self.turn_cost[h] = self.tables.turn_cost[t.code]
        self.features = {k: features.get(v) for k, v in amap.hexsides.items()}
        self.roads = dict(amap.roads)
        self.road_hexes = {h for k in self.roads for h in k}
        self.los = build_los(amap, terrain, features, stories, opts)
        self.edges = edge_of(amap)
        self.objectives = sorted({amap.hex(h) for v in scenario.victory if v.type == "hold_hexes" for h in v.hexes
                                  if h in amap.hex_of})

    # ---- Game API
    def new_initial_state(self, seed: int) -> "MbtState":
        return MbtState(self, seed)

    def parse_action(self, text: str) -> Action:
        return _parse(text)

    def bot_names(self) -> list[str]:
        return ["heuristic", "passive"]

    def make_bot(self, name: str, side: int, seed: int):
        from .bots import HeuristicBot, PassiveBot

        if name == "heuristic":
            return HeuristicBot(self, side, seed)
        if name == "passive":
            return PassiveBot(self, side, seed)
        return None

    # ---- static helpers
    def label(self, h) -> str:
        return self.map.label_of.get(h, "?")

    def spot_range_of(self, mod: int) -> int:
        lo, hi = self.tables.spot_clamp
        r = self.tables.spot_range[max(lo, min(hi, mod))]
        return min(r, self.visibility) if self.visibility is not None else r


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


def penetration_result(game: MbtGame, difference: int) -> str:
    """Basic AP result for penetration minus armor (table ``ap-penetration-results``, MBT 4.4.3.2.6, Q3)."""
    result = "no-effect"
    for name, lo, hi in game.tables.pen_results:
        if (lo is None or difference >= lo) and (hi is None or difference <= hi):
            result = name
    if difference == 0 and game.options.get("penetration-zero") == "no-effect":
        result = "no-effect"
    return result


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


# ===================================================================================================== state

class MbtState(State):
    __slots__ = ("game", "dice", "turn", "phase", "first", "cp", "hex", "fac", "st", "dmg", "cmd", "rev", "fired",
                 "moved", "mk", "mkdf", "spots", "wreck", "bu_new", "cq", "df_side", "shots", "res_i", "reveal_for",
                 "conceal_once", "ow_side", "ow_pass", "ow_trig", "ow_ctx", "mv_idx", "mv_u", "mv_mode", "mv_left",
                 "mv_spent", "mv_turned", "mv_paid", "mv_steps", "mv_trail", "mv_end", "occ_start", "held",
                 "control", "lost", "exits", "ended", "init_rolls", "history")

    def __init__(self, game: MbtGame, seed: int | None = None):
        self.game = game
        if seed is None:
            return
        self.dice = Dice(seed, record=False)
        n = game.n
        self.turn = 1
        self.first = 0
        self.cp = 0
        self.hex = [u.setup_hex for u in game.units]
        self.fac = [u.facing for u in game.units]
        self.st = [ON if u.entry_turn == 0 else WAIT for u in game.units]
        self.dmg = [False] * n
        self.cmd = [0] * n
        self.rev = [False] * n
        self.fired = [False] * n
        self.moved = [False] * n
        self.mk = [NOMARK] * n
        self.mkdf = [NOMARK] * n
        self.spots = [()] * n
        self.wreck: dict = {}
        self.bu_new: set = set()
        self.shots: list = []
        self.res_i = 0
        self.reveal_for = -1
        self.conceal_once = False
        self.ow_side = -1
        self.ow_pass = 0
        self.ow_trig: list = []
        self.ow_ctx = ""
        self.mv_idx = 0
        self.mv_u = -1
        self.mv_mode = "xc"
        self.mv_left = 0
        self.mv_spent = False
        self.mv_turned = 0
        self.mv_paid = False
        self.mv_steps = 0
        self.mv_trail: list = []
        self.mv_end = False
        self.occ_start: dict = {}
        self.held: dict = {}
        self.control: dict = {}
        self.lost = [0] * len(game.sides)
        self.exits: list = []
        self.ended = False
        self.init_rolls = ()
        self.df_side = 0
        self.cq = 0
        self.history = 0
        self._start_turn()
        self._advance()

    # ------------------------------------------------------------------ API
    def current_player(self) -> int:
        return TERMINAL if self.phase == P_OVER else self.cp

    def clone(self) -> "MbtState":
        o = MbtState(self.game)
        o.dice = self.dice.clone()
        for k in ("turn", "phase", "first", "cp", "cq", "df_side", "res_i", "reveal_for", "conceal_once", "ow_side",
                  "ow_pass", "ow_ctx", "mv_idx", "mv_u", "mv_mode", "mv_left", "mv_spent", "mv_turned", "mv_paid",
                  "mv_steps", "mv_end", "ended", "init_rolls", "history"):
            setattr(o, k, getattr(self, k))
        for k in ("hex", "fac", "st", "dmg", "cmd", "rev", "fired", "moved", "mk", "mkdf", "spots", "shots",
                  "ow_trig", "mv_trail", "lost", "exits"):
            setattr(o, k, list(getattr(self, k)))
        o.wreck = dict(self.wreck)
        o.bu_new = set(self.bu_new)
        o.occ_start = dict(self.occ_start)
        o.held = dict(self.held)
        o.control = dict(self.control)
        return o

    def fingerprint(self) -> str:
        g = self.game
        units = ";".join(f"{g.units[i].name}:{self.st[i]}:{g.label(self.hex[i]) if self.hex[i] else '-'}:"
                         f"{self.fac[i]}:{int(self.dmg[i])}{self.cmd[i]}{int(self.rev[i])}{int(self.fired[i])}"
                         f"{int(self.moved[i])}{self.mk[i]}{self.mkdf[i]}" for i in range(g.n))
        wrecks = ",".join(f"{g.label(h)}={v}" for h, v in sorted(self.wreck.items()))
        ctrl = ",".join(f"{g.label(h)}={v}" for h, v in sorted(self.control.items()))
        return (f"t{self.turn}p{self.phase}f{self.first}c{self.cp}q{self.cq}d{self.df_side}r{self.res_i}"
                f"o{self.ow_side}/{self.ow_pass}/{self.ow_trig}m{self.mv_idx}/{self.mv_u}/{self.mv_mode}/"
                f"{self.mv_left}/{self.mv_steps}|{units}|{wrecks}|{ctrl}|{self.lost}|{self.exits}|"
                f"{self.dice.fingerprint()}")

    def observation(self, player: int) -> "MbtView":
        return MbtView(self, player)

    def outcome(self) -> Outcome:
        g = self.game
        vp = [0.0] * len(g.sides)
        for v in g.scenario.victory:
            side = g.sides.index(v.side) if v.side in g.sides else None
            if side is None:
                continue
            if v.type == "hold_hexes":
                hexes = [g.map.hex(h) for h in v.hexes if h in g.map.hex_of]
                if hexes and all(self.control.get(h) == side for h in hexes):
                    vp[side] += v.points
            elif v.type == "exit_units":
                vp[side] += v.points * sum(1 for u, e in self.exits if g.units[u].side == side and
                                           (v.edge is None or e == v.edge))
            elif v.type == "destroy_units":
                vp[side] += v.points * sum(self.lost[s] for s in range(len(g.sides)) if s != side)
            elif v.type == "destroy_percent":
                enemy = [i for i in range(g.n) if g.units[i].side != side]
                dead = sum(1 for i in enemy if self.st[i] == DEAD)
                if enemy and 100 * dead >= (v.percent or 100) * len(enemy):
                    vp[side] += v.points
            elif v.type == "survive":
                vp[side] += v.points * sum(1 for i in range(g.n) if g.units[i].side == side and self.st[i] == ON)
        best = max(vp)
        winners = [i for i, x in enumerate(vp) if x == best]
        winner = winners[0] if len(winners) == 1 else None
        reason = "victory points" if self.turn > g.max_turns or not self.ended else "a side has no vehicles left"
        return Outcome(winner, vp, reason, min(self.turn, g.max_turns), list(self.lost))

    # ------------------------------------------------------------------ queries
    def alive_on(self, i: int) -> bool:
        return self.st[i] == ON

    def side_of(self, i: int) -> int:
        return self.game.units[i].side

    def units_in(self, h) -> list[int]:
        return [i for i in range(self.game.n) if self.st[i] == ON and self.hex[i] == h]

    def enemies_in(self, h, side: int) -> bool:
        if h not in self.hex:
            return False
        units = self.game.units
        for i, x in enumerate(self.hex):
            if x == h and self.st[i] == ON and units[i].side != side:
                return True
        return False

    def overstacked(self, h, extra: int = 0) -> bool:
        """6+ vehicle counters in ``h`` (table ``stacking``; wrecks count only if the table says so, MBT 3.8)."""
        tb = self.game.tables
        limit = tb.overstack - extra
        if tb.wrecks_stack and h in self.wreck:
            limit -= 1
        if limit > self.game.n:
            return False
        return self.hex.count(h) >= limit and sum(1 for i, x in enumerate(self.hex)
                                                    if x == h and self.st[i] == ON) >= limit

    def cover_of(self, h) -> str:
        """Target cover (MBT 4.1.3): over-stacked hexes give none (4.1.3.2, 4.4.3.2.2)."""
        if self.overstacked(h):
            return "none"
        return self.game.cover.get(h, "none")

    def spot_range(self, t: int, df: bool = False) -> int:
        """How far ``t`` can be spotted (MBT 4.1.3): cover and Spot counter modifiers, clamped, table V column.
        ``df``: Fire/Short Halt targeting, where a Spot/Fire placed this turn does not yet count (Q2)."""
        g = self.game
        tb = g.tables
        mod = tb.cover_spot.get(self.cover_of(self.hex[t]), 0)
        mark = self.mkdf[t] if df and g.options.get("spot-pending") != "immediate" else self.mk[t]
        if mark == MMOVE:
            mod += tb.spot_mod["target-spot-move"]
        elif mark == MFIRE:
            mod += tb.spot_mod["target-spot-fire"]
        return g.spot_range_of(mod)

    def can_spot(self, s: int, t: int, df: bool = False) -> bool:
        """Does vehicle ``s`` individually spot ``t`` now (MBT 4.1.1, 4.1.3, 4.1.4)?"""
        if not self.game.units[s].type.combat:
            return False  # unarmed vehicles may not spot (4.1.1)
        a, b = self.hex[s], self.hex[t]
        if distance(a, b) > self.spot_range(t, df):
            return False
        return self.game.los.clear(a, b)

    def weapon_ok(self, s: int, t: int, row) -> bool:
        """Range (MBT 3.5.2, 5.6) and field of fire (4.4.3.1) of an AP row."""
        r = distance(self.hex[s], self.hex[t])
        if r > row.max_range or r < row.min_range:
            return False
        if row.arc != 360 and not in_arc(self.hex[s], self.fac[s], self.hex[t], row.arc, row.rear):
            return False
        return True

    def fire_options(self, s: int, targets, df: bool = True) -> list[tuple[int, Any]]:
        out = []
        side = self.game.units[s].side
        for t in targets:
            if self.st[t] != ON or self.game.units[t].side == side:
                continue
            for row in self.game.units[s].type.ap:
                if self.weapon_ok(s, t, row):
                    out.append((t, row))
        return out

    def band_of(self, row, r: int) -> str | None:
        """AP range factor: the first band left to right whose range is at least the range (MBT 4.4.3.2.1)."""
        for b, v in zip(BANDS, row.ranges):
            if v is not None and v >= r:
                return b
        return None

    # ------------------------------------------------------------------ turn structure
    def _start_turn(self) -> None:
        """Spotting Phase (MBT 4.1) and the start of the Command Phase."""
        g = self.game
        n = g.n
        for i in range(n):
            self.mkdf[i] = self.mk[i]
        spotted_by_side = [set() for _ in g.sides]
        units = g.units
        on = [i for i in range(n) if self.st[i] == ON]
        rng = {t: self.spot_range(t, df=True) for t in on}  # depends on the target only (MBT 4.1.3)
        clear = g.los.clear
        for s in on:
            if not units[s].type.combat:
                self.spots[s] = ()
                continue
            hs, side = self.hex[s], units[s].side
            seen = tuple(t for t in on if units[t].side != side and distance(hs, self.hex[t]) <= rng[t] and
                         clear(hs, self.hex[t]))
            self.spots[s] = seen
            spotted_by_side[side].update(seen)
        for i in on:  # extraneous Spot counters (MBT 4.1.5)
            if self.mk[i] and not any(i in spotted_by_side[x] for x in range(len(g.sides)) if x != units[i].side):
                self.mk[i] = self.mkdf[i] = NOMARK
        for i in range(n):
            self.cmd[i] = 0
            self.rev[i] = self.fired[i] = self.moved[i] = False
        self.occ_start = {}
        for h in g.objectives:
            for i in on:
                if self.hex[i] == h and units[i].type.armed:
                    self.occ_start[h] = units[i].side
        self.phase = P_CMD
        self.cq = 0

    def _needs_cmd(self, i: int) -> bool:
        if self.cmd[i]:
            return False
        if self.st[i] == ON:
            return True
        return self.st[i] == WAIT and self.game.units[i].entry_turn <= self.turn

    def cmd_options(self, i: int) -> list[int]:
        """Legal commands (MBT 4.2.1): FIRE/SH need a target this vehicle spotted in the Spotting Phase (4.4.1);
        OW any combat vehicle; MOVE any vehicle; NC always. Off-map units waiting to enter: MOVE or NC."""
        if self.st[i] == WAIT:
            return [NC, MOVE]
        ut = self.game.units[i].type
        out = [NC, MOVE]
        if ut.combat and ut.ap:
            out.append(OW)
            if self.fire_options(i, self.spots[i]):
                out += [FIRE, SH]
        return out

    def _initiative(self) -> None:
        """Initiative Phase (MBT 4.3.1): each side rolls (100), ties rerolled; the winner chooses (Q39)."""
        g = self.game
        if g.first_fixed is not None:
            self.first = g.first_fixed
            self._begin_df()
            return
        prev = self.first
        while True:
            a, b = self.dice.roll(100, "initiative"), self.dice.roll(100, "initiative")
            if a != b:
                break
            if g.options.get("initiative-ties") == "previous-first" and self.turn > 1:
                a, b = (1, 0) if prev == 0 else (0, 1)
                break
        self.init_rolls = (a, b)
        winner = 0 if a > b else 1
        if g.options.get("initiative-winner", "chooses") == "chooses":
            self.phase = P_INIT
            self.cp = winner
        else:
            self.first = winner
            self._begin_df()

    def _begin_df(self) -> None:
        self.phase = P_DF
        self.df_side = self.first
        self.shots = []
        self.res_i = 0

    def _begin_owc(self) -> None:
        trig = [i for i in range(self.game.n) if self.fired[i] and self.st[i] == ON]
        self._open_ow(self.first, trig, "combat")
        self.phase = P_OWC

    def _open_ow(self, side: int, triggers: list[int], ctx: str) -> None:
        self.ow_side = side
        self.ow_pass = 0
        self.ow_trig = list(triggers)
        self.ow_ctx = ctx

    def _ow_active(self) -> bool:
        return self.ow_side >= 0

    def _adjust(self) -> None:
        """Adjustment Phase (MBT 4.6.1) and End Turn (4.6.2)."""
        g = self.game
        for i in range(g.n):
            c = self.cmd[i]
            if self.st[i] == ON:
                if c in (FIRE, SH) and not self.fired[i]:
                    self.mk[i] = MFIRE
                elif c == MOVE and not self.moved[i]:
                    self.mk[i] = MMOVE
            self.cmd[i] = 0
            self.rev[i] = False
        # objectives: a friendly armed vehicle there at the start and at the end of the turn (MBT 3.6)
        for h in g.objectives:
            end = None
            for i in range(g.n):
                if self.st[i] == ON and self.hex[i] == h and g.units[i].type.armed:
                    end = g.units[i].side
            start = self.occ_start.get(h)
            if start is not None and start == end:
                side, count = self.held.get(h, (start, 0))
                count = count + 1 if side == start else 1
                self.held[h] = (start, count)
                if count >= g.objective_turns:
                    self.control[h] = start
            else:
                self.held.pop(h, None)
        alive = [any(self.st[i] in (ON, WAIT) for i in range(g.n) if g.units[i].side == s)
                 for s in range(len(g.sides))]
        if self.turn >= g.max_turns or not all(alive):
            self.ended = not all(alive)
            self.turn += 1 if self.turn >= g.max_turns else 0
            self.phase = P_OVER
            return
        self.turn += 1
        self._start_turn()

    # ------------------------------------------------------------------ the automaton
    def _advance(self) -> None:
        g = self.game
        while True:
            ph = self.phase
            if ph == P_OVER:
                return
            if ph == P_CMD:
                n = g.n
                while self.cq < n and not self._needs_cmd(self.cq):
                    self.cq += 1
                if self.cq < n:
                    self.cp = g.units[self.cq].side
                    return
                self._initiative()
                continue
            if ph == P_INIT:
                return
            if ph == P_DF:
                if self.reveal_for >= 0:
                    self.cp = g.units[self.reveal_for].side
                    return
                if self._df_shooters():
                    self.cp = self.df_side
                    return
                # resolve the announced shots (MBT 4.4.1: all announced before any is resolved)
                if self._resolve_shots():
                    continue  # a reveal decision is pending
                self.bu_new.clear()
                if self.df_side == self.first:
                    self.df_side = 1 - self.first
                    self.shots, self.res_i = [], 0
                    continue
                self._begin_owc()
                continue
            if ph == P_OWC or (ph == P_MOVE and self._ow_active()):
                if self._ow_active():
                    if self._ow_shots(self.ow_side):
                        self.cp = self.ow_side
                        return
                    self._ow_pass()
                    continue
                # combat overwatch closed
                self.bu_new.clear()
                self.phase = P_MOVE
                self.mv_idx = 0
                self.mv_u = -1
                continue
            if ph == P_MOVE:
                if self.mv_u >= 0:
                    u = self.mv_u
                    if self.st[u] in (DEAD, EXITED):
                        self.moved[u] = True
                        self.mv_u = -1
                        continue
                    self.cp = g.units[u].side
                    return
                mover = (1 - self.first) if self.mv_idx == 0 else self.first
                if any(self._is_mover(i, mover) for i in range(g.n)):
                    self.cp = mover
                    return
                self.bu_new.clear()
                if self.mv_idx == 0:
                    self.mv_idx = 1
                    continue
                self._adjust()
                continue
            raise RuntimeError(f"unknown phase {ph}")

    def _ow_pass(self) -> None:
        self.ow_pass += 1
        if self.ow_pass >= 2:
            self.ow_side = -1
            self.ow_trig = []
            return
        self.ow_side = 1 - self.ow_side

    # ------------------------------------------------------------------ direct fire
    def _df_shooters(self) -> list[int]:
        announced = {s for s, _, _ in self.shots}
        return [i for i in range(self.game.n) if self.st[i] == ON and self.game.units[i].side == self.df_side and
                self.cmd[i] in (FIRE, SH) and not self.fired[i] and i not in announced]

    def _resolve_shots(self) -> bool:
        """Resolve announced shots in order; True when the target's owner must first decide to reveal."""
        while self.res_i < len(self.shots):
            s, t, row = self.shots[self.res_i]
            if row is None:
                self.res_i += 1
                continue
            if self.st[t] == ON and self.cmd[t] in (MOVE, SH) and not self.rev[t] and not self.conceal_once:
                self.reveal_for = t
                return True
            self.conceal_once = False
            self.res_i += 1
            self._shoot(s, t, row, overwatch=False)
        return False

    def _shoot(self, s: int, t: int, row, overwatch: bool) -> str:
        """AP fire (MBT 4.4.3): announced shots at a target already eliminated are spent (4.4.1)."""
        self.fired[s] = True
        self.rev[s] = True
        if self.mk[s] != MFIRE:
            self.mk[s] = MFIRE  # new Spot/Fire (4.4.1); counts for Fire/SH from the next Spotting Phase (Q2)
        if self.st[t] != ON:
            return "no target"
        net, band = self.hit_modifiers(s, t, row, overwatch)
        if band is None:
            return "out of range"
        number = self.game.tables.ap_hit.get((net, band), 0)
        roll = self.dice.roll(100, "AP hit")
        if number <= 0 or roll > number:
            return "miss"
        return self._penetrate(s, t, row, band)

    def hit_modifiers(self, s: int, t: int, row, overwatch: bool) -> tuple[int, str | None]:
        """Net AP hit modifier and range factor (MBT 4.4.3.2.1-3)."""
        g = self.game
        tb = g.tables
        am = tb.ap_mod
        r = distance(self.hex[s], self.hex[t])
        band = self.band_of(row, r)
        ut, st = g.units[t].type, g.units[s].type
        net = ut.target_size
        if self.cmd[t] in (MOVE, SH) and self.rev[t]:
            net += am["target-moving"]
        net += tb.cover_ap.get(self.cover_of(self.hex[t]), 0)
        if self.cmd[s] == SH and not overwatch:
            net += am[f"short-halt-sb{st.sb}"]
        if self.dmg[s]:
            net += am["shooter-damaged"]
        net += am["brew-up-smoke"] * self.brewup_on_line(self.hex[s], self.hex[t])
        if overwatch:
            arc = row.arc if not row.turreted else int(g.options.get("ow-arc", 60))
            inside = row.arc != 360 or in_arc(self.hex[s], self.fac[s], self.hex[t], arc, row.rear)
            if row.cis:
                net += am["overwatch-cis"] if inside else am["overwatch-adjust-cis"]
            else:
                net += am["overwatch"] if inside else am["overwatch-adjust"]
        lo, hi = tb.ap_clamp
        return max(lo, min(hi, net)), band

    def brewup_on_line(self, a, b) -> int:
        """Unique Brew-Up Smoke hexes the LOS starts from, passes through or enters (MBT 4.4.3.2.2); smoke
        created in the current player step does not count yet."""
        if not self.wreck:
            return 0
        count = 0
        for h in hex_line(a, b):
            if self.wreck.get(h) == 2 and h not in self.bu_new:
                count += 1
        return count

    def _penetrate(self, s: int, t: int, row, band: str) -> str:
        """Hit aspect, penetration and damage (MBT 4.4.3.2.4-6)."""
        g = self.game
        ut = g.units[t].type
        asp = hit_aspect(self.hex[t], self.fac[t], self.hex[s]) if self.hex[s] != self.hex[t] else Aspect.OWNER_CHOOSES
        if asp is Aspect.FRONT:
            armor = ut.armor_front
        elif asp is Aspect.REAR:
            armor = ut.armor_rear
        else:
            armor = max(ut.armor_front, ut.armor_rear)  # the owner chooses (4.4.3.2.4)
        bi = BANDS.index(band)
        if g.options.get("penetration-band") == "next":
            bi = min(4, bi + 1)
        pen = row.pens[bi]
        if pen is None:
            pen = next(p for p in row.pens if p is not None)
        result = penetration_result(g, pen - armor)
        if result == "damaged":
            if self.dmg[t]:
                result = g.tables.second_damage  # a second Damaged result (4.4.3.2.6)
            else:
                self.dmg[t] = True
                if self.mv_u == t:  # remaining allowance halved at once (Q27)
                    left = int(self.mv_left * g.tables.damaged_fraction)
                    if g.options.get("msa-remaining-floor") == "one":
                        left = max(1, left)
                    if self.mv_mode != "xc":
                        r, p_, nr, np_, used = self.mv_mode
                        self.mv_mode = (r, p_, nr, np_, used + self.mv_left - left)
                    self.mv_left = left
                return result
        if result in ("knocked-out", "brewed-up"):
            self._eliminate(t, brew=result == "brewed-up")
        return result

    def _eliminate(self, t: int, brew: bool) -> None:
        h = self.hex[t]
        self.st[t] = DEAD
        self.lost[self.game.units[t].side] += 1
        old = self.wreck.get(h)
        if brew:
            if old != 2:
                self.wreck[h] = 2
                self.bu_new.add(h)
        elif old is None:
            self.wreck[h] = 1

    # ------------------------------------------------------------------ overwatch
    def _ow_shooters(self, side: int) -> list[int]:
        return [i for i in range(self.game.n) if self.st[i] == ON and self.game.units[i].side == side and
                self.cmd[i] == OW and not self.fired[i]]

    def _ow_shots(self, side: int) -> list[tuple[int, int, Any]]:
        """Legal overwatch shots of ``side`` at the current triggers (MBT 4.4.2): spotting confirmed now."""
        out = []
        trig = [t for t in self.ow_trig if self.st[t] == ON and self.game.units[t].side != side]
        if not trig:
            return out
        shooters = self._ow_shooters(side)
        if not shooters:
            return out
        clear = self.game.los.clear
        ranges = {t: self.spot_range(t) for t in trig}
        for s in shooters:
            ap = self.game.units[s].type.ap
            hs = self.hex[s]
            for t in trig:
                d = distance(hs, self.hex[t])
                if d > ranges[t] or not clear(hs, self.hex[t]):
                    continue
                for row in ap:
                    if self.weapon_ok(s, t, row):
                        out.append((s, t, row))
        return out

    # ------------------------------------------------------------------ movement
    def _is_mover(self, i: int, side: int) -> bool:
        return (self.game.units[i].side == side and self.cmd[i] in (MOVE, SH) and not self.moved[i] and
                self.st[i] in (ON, WAIT))

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
        self.mv_u = i
        self.rev[i] = True
        self.mk[i] = MMOVE  # Spot/Move, even for a No Move move (MBT 4.5.1.1.8)
        self.mv_mode = "xc"
        self.mv_left = self.msa(i, self.game.units[i].type.cc)
        self.mv_spent = False
        self.mv_turned = 0
        self.mv_paid = False
        self.mv_steps = 0
        self.mv_trail = [self.hex[i]]
        self.mv_end = False

    def step_cost(self, i: int, a, b, reverse: bool = False) -> int | None:
        """Cost to move vehicle ``i`` from ``a`` into ``b`` in the current mode, or None when prohibited
        (MBT 4.5.1.1.2, 4.5.1.1.5-7)."""
        g = self.game
        ut = g.units[i].type
        tr = ut.traction
        key = edge_key(a, b)
        feat = g.features.get(key)
        road = g.roads.get(key)
        dl = abs(g.elev.get(b, 0) - g.elev.get(a, 0))
        hc = g.tables.height_change.get(dl)
        if hc is None or not hc[2].get(tr, False):
            return None  # height change limits (4.5.1.1.2)
        fid = feat.id if feat is not None else None
        if dl and fid not in ("slope", "crest") and not road and \
                g.options.get("unmarked-level-change") == "cliff":
            return None  # a hill edge without a slope is a cliff (4.1.4.1.5)
        side_cost = 0
        if feat is not None:
            mc = feat.move_cost.get(tr)
            if mc is None:
                return None
            if fid == "bridge" and road:
                mc = 0
            side_cost = int(mc)
        if self.mv_mode != "xc":
            if road is None:
                return None
            if self.wreck.get(b) or self.enemies_in(b, g.units[i].side) or self.overstacked(b, extra=1):
                return None  # the rate is lost: move cross-country instead (4.5.1.1.5)
            return (2 if reverse else 1) + hc[1]
        if road is not None:
            base = 1  # cross-country along a road or path: 1 per hex, no bonus (4.5.1.1.5)
            height = hc[1]
        else:
            c = g.cost.get(b, {}).get(tr)
            if c is None:
                return None  # prohibited terrain (e.g. heavy woods off the road)
            base = int(c)
            height = hc[0]
        if reverse:
            base *= 2  # reverse: twice the terrain cost (4.5.1.1.7, option reverse-cost)
            if g.options.get("reverse-cost") == "all":
                height *= 2
                side_cost *= 2
        bu = g.tables.bu_move_cost if self.wreck.get(b) == 2 else 0
        return base + height + side_cost + bu

    def _turn_price(self, i: int) -> int | None:
        """Turning one more hexside here (MBT 4.5.1.1.4): one free per hex, 2-3 cost the terrain's Turn once."""
        if self.mv_turned == 0 or self.mv_paid:
            return 0
        h = self.hex[i]
        c = self.game.turn_cost.get(h)
        if c is None:
            return None
        c = int(c)
        if self.wreck.get(h) == 2 and self.game.options.get("brew-up-turn-cost") == "entry-and-turn":
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
        units = self.game.units
        return {self.hex[j] for j in range(self.game.n) if self.st[j] == ON and units[j].side != side}

    def _road_ok(self, i: int) -> bool:
        """Road/path rate: start on a road/path hex facing along it (MBT 4.5.1.1.5)."""
        h = self.hex[i]
        if h not in self.game.road_hexes:
            return False
        f = self.fac[i]
        return edge_key(h, neighbour(h, f)) in self.game.roads

    def _step_options(self, i: int) -> list[Action]:
        g = self.game
        name = g.units[i].name
        out: list[Action] = []
        h = self.hex[i]
        side = g.units[i].side
        enemy = self._enemy_hexes(side)
        in_enemy = h in enemy
        if not in_enemy:
            out.append(Action(("done", name)))
        price = self._turn_price(i)
        if price is not None and price <= self.mv_left and self.mv_turned < 3:  # 1-3 hexsides per hex (4.5.1.1.4)
            ok_dirs = (-1, 1)
            if self.mv_mode != "xc":
                ok_dirs = tuple(d for d in (-1, 1) if edge_key(h, neighbour(h, (self.fac[i] + d) % 6)) in g.roads or
                                edge_key(h, neighbour(h, (self.fac[i] + d + 3) % 6)) in g.roads)
            for d in ok_dirs:
                out.append(Action(("turn", name, "right" if d == 1 else "left")))
        if not self.mv_end:
            for rev in (False, True):
                f = (self.fac[i] + 3) % 6 if rev else self.fac[i]
                b = neighbour(h, f)
                verb = "rev" if rev else "fwd"
                if b not in g.map.label_of:
                    # off the map: pay the cost of the hex being exited (4.5.1.1.9)
                    if self.mv_mode != "xc":
                        c = 2 if rev else 1
                    else:
                        c0 = g.cost.get(h, {}).get(g.units[i].type.traction)
                        c = (int(c0) if c0 is not None else 1) * (2 if rev else 1)
                    if c <= self.mv_left or self._exception_ok():
                        out.append(Action(("exit", name) if not rev else ("exit", name, "rev")))
                    continue
                c = self.step_cost(i, h, b, rev)
                if c is None:
                    continue
                feat = g.features.get(edge_key(h, b))
                whole = feat is not None and feat.id == "hedgerow" and g.units[i].type.traction == "t"
                if whole and g.options.get("hedgerow-crossing", "one-hex-move") == "one-hex-move":
                    if not self._exception_ok():
                        continue
                elif self.mv_mode != "xc":
                    if self._road_left_after(g.roads.get(edge_key(h, b)), c) < 0 and not self._exception_ok():
                        continue
                elif c > self.mv_left and not self._exception_ok():
                    continue
                if b in enemy and not self._can_pass(i, b, f, max(0, self.mv_left - c), rev):
                    continue
                out.append(Action((verb, name)))
        if not out:
            out.append(Action(("done", name)))  # stuck in a hex with opposing vehicles: see ENGINE_POLICIES
        return out

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
        g = self.game
        verb = a[0]
        if verb == "move" or self.mv_u != i:
            if self.mv_u >= 0:
                raise RulesError("another vehicle is still moving; vehicles move one at a time", "MBT 4.5")
            if self.st[i] == WAIT:
                self.mv_u = i
                self.rev[i] = True
                self.mk[i] = MMOVE
                self.mv_mode = "xc"
                self.mv_left = self.msa(i, g.units[i].type.cc)
                self.mv_spent = False
                self.mv_turned = 0
                self.mv_paid = False
                self.mv_steps = 0
                self.mv_end = False
                self.mv_trail = []
            else:
                self._begin_move(i)
            if verb == "move":
                return
        if verb == "done":
            h = self.hex[i]
            if self.st[i] == ON and self.enemies_in(h, g.units[i].side):
                for back in reversed(self.mv_trail):
                    if not self.enemies_in(back, g.units[i].side):
                        self.hex[i] = back
                        break
            self.moved[i] = True
            self.mv_u = -1
            return
        if verb == "road":
            ut = g.units[i].type
            self.mv_mode = (self.msa(i, ut.road), self.msa(i, ut.path), 0, 0, 0)
            self.mv_left = self._road_left_after(None, 0)
            return
        if verb == "enter":
            h = g.map.hex(a[2])
            c = g.cost.get(h, {}).get(g.units[i].type.traction)
            c = int(c) if c is not None else 1
            self.st[i] = ON
            self.hex[i] = h
            self.fac[i] = g.units[i].entry_facing
            self._spend(c)
            self.mv_steps = 1
            self.mv_trail = [h]
            self.mv_turned = 0
            self.mv_paid = False
            self._after_step(i)
            return
        if verb == "turn":
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
            return
        if verb == "exit":
            rev = len(a) > 2
            h = self.hex[i]
            edges = g.edges.get(h, set())
            f = (self.fac[i] + 3) % 6 if rev else self.fac[i]
            off = neighbour(h, f)
            edge = _edge_towards(g, h, off, edges)
            self.st[i] = EXITED
            self.exits.append((i, edge))
            self.moved[i] = True
            self.mv_u = -1
            return
        rev = verb == "rev"
        h = self.hex[i]
        f = (self.fac[i] + 3) % 6 if rev else self.fac[i]
        b = neighbour(h, f)
        c = self.step_cost(i, h, b, rev) or 0
        feat = g.features.get(edge_key(h, b))
        whole = feat is not None and feat.id == "hedgerow" and g.units[i].type.traction == "t"
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

    def _spend(self, c: int) -> None:
        if c > 0:
            self.mv_spent = True
        self.mv_left = max(0, self.mv_left - c)

    def _after_step(self, i: int) -> None:
        """Overwatch may interrupt after every hex entered or turn made (MBT 4.5, 4.4.2)."""
        self._open_ow(1 - self.game.units[i].side, [i], "move")

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        g = self.game
        ph = self.phase
        if ph == P_OVER:
            return []
        if ph == P_CMD:
            name = g.units[self.cq].name
            return [Action(("command", name, CMD_NAMES[c])) for c in self.cmd_options(self.cq)]
        if ph == P_INIT:
            return [Action(("initiative", "first")), Action(("initiative", "second"))]
        if ph == P_DF:
            if self.reveal_for >= 0:
                name = g.units[self.reveal_for].name
                return [Action(("reveal", name)), Action(("conceal", name))]
            out = []
            for s in self._df_shooters():
                opts = self.fire_options(s, self.spots[s])
                if not opts:
                    out.append(Action(("hold", g.units[s].name)))
                for t, row in opts:
                    out.append(Action(("fire", g.units[s].name, g.units[t].name, row.key)))
            return out
        if self._ow_active():
            out = [PASS]
            for s, t, row in self._ow_shots(self.ow_side):
                out.append(Action(("ow", g.units[s].name, g.units[t].name, row.key)))
            return out
        if ph == P_MOVE:
            if self.mv_u >= 0:
                return self.move_options(self.mv_u)
            mover = (1 - self.first) if self.mv_idx == 0 else self.first
            return [Action(("move", g.units[i].name)) for i in range(g.n) if self._is_mover(i, mover)]
        return []

    def explain_illegal(self, action) -> RulesError:
        g = self.game
        k = action[0] if isinstance(action, tuple) and action else ""
        rules = {"command": ("a Fire or Short Halt command needs a target the vehicle spotted; commands that "
                             "cannot be executed may not be given", "MBT 4.2.1"),
                 "fire": ("the target must be spotted by the firing vehicle, in range and in its field of fire; "
                          "each vehicle fires once per turn", "MBT 4.4.1"),
                 "ow": ("overwatch fire needs an unrevealed Overwatch command and a spotted target that fired or "
                        "moved", "MBT 4.4.2"),
                 "fwd": ("the move exceeds the speed allowance, enters prohibited terrain or breaks the height "
                         "limits", "MBT 4.5.1.1"),
                 "rev": ("the reverse move exceeds the speed allowance or enters prohibited terrain",
                         "MBT 4.5.1.1.7"),
                 "turn": ("turning may never exceed the speed allowance", "MBT 4.5.1.1.4"),
                 "done": ("a vehicle may never end its move in a hex with opposing vehicles", "MBT 4.5.1.1.10"),
                 "road": ("road/path rate: start on the road facing along it", "MBT 4.5.1.1.5"),
                 "enter": ("entry hexes must be free of opposing vehicles", "MBT 4.5.1.1.9"),
                 "exit": ("the exit costs more than the remaining allowance", "MBT 4.5.1.1.9")}
        msg, rule = rules.get(k, (f"'{action}' is not legal in this phase", "MBT 4.0"))
        if isinstance(action, tuple) and len(action) > 1 and isinstance(action[1], str) and \
                action[1] not in g.uindex and k not in ("initiative",):
            return RulesError(f"no unit '{action[1]}'", "MBT 4.0")
        return RulesError(f"'{action}' is illegal: {msg}", rule)

    # ------------------------------------------------------------------ apply
    def apply(self, action) -> None:
        g = self.game
        k = action[0]
        ph = self.phase
        self.history += 1
        if ph == P_CMD:
            i = g.uindex[action[1]]
            self.cmd[i] = CMD_CODES[action[2]]
            self.cq += 1
        elif ph == P_INIT:
            winner = self.cp
            self.first = winner if action[1] == "first" else 1 - winner
            self._begin_df()
        elif ph == P_DF:
            if k in ("reveal", "conceal"):
                t = g.uindex[action[1]]
                if k == "reveal":
                    self.rev[t] = True
                else:
                    self.conceal_once = True
                self.reveal_for = -1
            elif k == "hold":
                # a Fire/Short Halt vehicle whose targets are all gone: no fire (unexecuted, MBT 4.6.1)
                self.shots.append((g.uindex[action[1]], -1, None))
            else:
                s, t = g.uindex[action[1]], g.uindex[action[2]]
                row = next(r for r in g.units[s].type.ap if r.key == action[3])
                self.shots.append((s, t, row))
        elif self._ow_active():
            if k == "pass":
                self._ow_pass()
            else:
                s, t = g.uindex[action[1]], g.uindex[action[2]]
                row = next(r for r in g.units[s].type.ap if r.key == action[3])
                self._shoot(s, t, row, overwatch=True)
                if s not in self.ow_trig:
                    self.ow_trig.append(s)  # the overwatch shooter becomes a trigger (cascade)
                self.ow_pass = 0
                if self.ow_ctx != "combat" or self.game.options.get("overwatch-order", "alternate") == "alternate":
                    self.ow_side = 1 - self.ow_side  # Q12: alternate, the First Player first
        elif ph == P_MOVE:
            self._apply_move(g.uindex[action[1]], action)
        else:
            raise RulesError(f"no action is possible now ('{action}')", "MBT 4.0")
        self._advance()


def _edge_towards(g: MbtGame, h, off, edges: set) -> str | None:
    """The map edge a vehicle leaves through when it moves from ``h`` to the off-map hex ``off``."""
    if len(edges) == 1:
        return next(iter(edges))
    dq, dr = off[0] - h[0], off[1] - h[1]
    wanted = ["west" if dq < 0 else "east" if dq > 0 else ("north" if dr < 0 else "south")]
    wanted += ["north" if dr < 0 or (dr == 0 and dq > 0) else "south"]
    for e in wanted:
        if e in edges:
            return e
    return sorted(edges)[0] if edges else None


# ===================================================================================================== view

class MbtView:
    """What one side sees (``State.observation``): enemy commands not yet revealed read as 0 (unknown)."""

    def __init__(self, state: MbtState, player: int):
        self._state = state
        self.player = player
        g = state.game
        self.cmd = [c if (g.units[i].side == player or state.rev[i]) else 0 for i, c in enumerate(state.cmd)]

    def __getattr__(self, name):
        return getattr(self._state, name)
