"""Compiled data of the Optional Rules of morale, hidden units, spotting and command (MBT 7.1-7.7, 7.24, 7.36,
7.40, 7.42, 7.43, 7.46): the tables of ``ruleset.yaml`` (``OptCommandTables``, every value read by table id) and
what the scenario extension and the unit cards give per formation and per unit (``OptCommandScenario``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .ag_specs import COUNTS, GRADES
from .data import DataError, TableReader
from .opt_command_specs import (COHESION_LEVELS, DEPLOYMENTS, GROUND_IDS, MORALE_EFFECTS, MORALE_MOD_IDS,
                                NIGHT_AIDS, SPAN_LEVELS, SPOT_REMOVAL_MOD_IDS, VALUE_IDS)

#: the rule options these rules read (``ruleset.yaml`` options)
OPT_COMMAND_OPTIONS = ("cohesion-timing", "hesitation-if-response", "staggered-movement")


@dataclass(slots=True)
class SpotRemovalRow:
    cover: str
    count_min: int
    count_max: int | None
    near: int
    far: int


@dataclass
class OptCommandTables:
    """The tables of these rules, compiled (``Game.data_fingerprint`` covers every field)."""

    cp_levels: dict           # level -> (min_roll or None, (c1..c9), tens), best first (MBT 7.1.1.1)
    cp_nation: dict           # nation -> deployment -> modifier
    grade_cohesion: dict      # grade -> Cohesion Point modifier (formation grade)
    grade_check: dict         # grade -> Morale Check modifier (unit grade, MBT 7.1.4)
    break_point: dict         # nation -> (break_max, hesitate_max) (MBT 7.1.4)
    morale_mod: dict          # morale-check-modifiers id -> value
    hesitating: dict          # morale-effects effect -> value (MBT 7.1.5.1)
    broken: dict              # (MBT 7.1.5.2)
    spot_removal: list        # [SpotRemovalRow] (MBT 7.4)
    spot_removal_mod: dict    # grade / recon -> modifier
    spotting: dict            # grade -> (near, far, max) (MBT 7.7)
    values: dict              # command-optional-values id -> value
    disrupted: dict           # level -> (dif, range_max) (MBT 7.42)
    span: dict                # CHQ/BHQ/RHQ -> (span, row_drop) (MBT 7.43)
    night: dict               # aid -> range (MBT 7.36.4)
    ground: dict              # ground-conditions id -> value (MBT 7.36.2-3)
    placeholders: list = field(default_factory=list)

    def fingerprint(self) -> str:
        return repr(sorted((k, repr(v)) for k, v in self.__dict__.items() if k != "placeholders"))


def _pairs(rd: TableReader, tid: str, key: str, col: str, kind: str = "int") -> dict:
    rows = rd.rows(tid)
    return {rd.cell(tid, rows, r, key, "str"): rd.cell(tid, rows, r, col, kind) for r in range(len(rows))}


def _cohesion(rd: TableReader) -> dict:
    tid = "numeric-cohesion-point"
    rows = rd.rows(tid)
    out = {}
    for r in range(len(rows)):
        cells = tuple(rd.cell(tid, rows, r, c, "num") for c in COUNTS)
        out[rd.cell(tid, rows, r, "level", "str")] = (rd.cell(tid, rows, r, "min_roll", "int?"), cells[:9], cells[9])
    return {lv: out[lv] for lv in COHESION_LEVELS}


def _rows(rd: TableReader, tid: str, key: str, cols: tuple, kind: str = "int") -> dict:
    rows = rd.rows(tid)
    return {rd.cell(tid, rows, r, key, "str"): tuple(rd.cell(tid, rows, r, c, kind) for c in cols)
            for r in range(len(rows))}


def _spot_removal(rd: TableReader) -> list:
    tid = "spot-removal"
    rows = rd.rows(tid)
    return [SpotRemovalRow(rd.cell(tid, rows, r, "cover", "str"), rd.cell(tid, rows, r, "count_min", "int"),
                           rd.cell(tid, rows, r, "count_max", "int?"), rd.cell(tid, rows, r, "near", "int"),
                           rd.cell(tid, rows, r, "far", "int")) for r in range(len(rows))]


def compile_opt_command_tables(ruleset) -> OptCommandTables:
    """Read every table of these rules (a missing table, column or row is a :class:`DataError`)."""
    rd = TableReader(ruleset)
    grades = _rows(rd, "morale-grade-modifiers", "grade", ("cohesion", "check"))
    effects = _rows(rd, "morale-effects", "effect", ("hesitating", "broken"), "num")
    mods = _pairs(rd, "morale-check-modifiers", "id", "modifier")
    values = _pairs(rd, "command-optional-values", "id", "value", "num")
    out = OptCommandTables(
        cp_levels=_cohesion(rd),
        cp_nation={k: dict(zip(DEPLOYMENTS, v)) for k, v in
                   _rows(rd, "cohesion-point-modifiers", "nation", DEPLOYMENTS).items()},
        grade_cohesion={g: grades[g][0] for g in GRADES}, grade_check={g: grades[g][1] for g in GRADES},
        break_point=_rows(rd, "break-point", "nation", ("break_max", "hesitate_max")),
        morale_mod={k: mods[k] for k in MORALE_MOD_IDS},
        hesitating={k: effects[k][0] for k in MORALE_EFFECTS}, broken={k: effects[k][1] for k in MORALE_EFFECTS},
        spot_removal=_spot_removal(rd),
        spot_removal_mod={k: v for k, v in _pairs(rd, "spot-removal-modifiers", "id", "modifier").items()
                          if k in SPOT_REMOVAL_MOD_IDS},
        spotting=_rows(rd, "spotting-table", "grade", ("near", "far", "max")),
        values={k: values[k] for k in VALUE_IDS},
        disrupted=_rows(rd, "disrupted-communications", "level", ("dif", "range_max")),
        span={k: v for k, v in _rows(rd, "command-span", "level", ("span", "row_drop")).items() if k in SPAN_LEVELS},
        night={k: v for k, v in _pairs(rd, "night-aids", "aid", "range").items() if k in NIGHT_AIDS},
        ground={k: v for k, v in _pairs(rd, "ground-conditions", "id", "value", "num").items() if k in GROUND_IDS})
    out.placeholders = list(rd.placeholders)
    return out


# ---------------------------------------------------------------- the scenario's part
@dataclass(frozen=True)
class HiddenSpec:
    """A HIDDEN UNIT counter (MBT 7.2): its owner, hex and units (empty: a fake)."""

    id: str
    side: int
    hex: tuple
    units: tuple


@dataclass
class OptCommandScenario:
    """Per formation and per unit facts of these rules, from the scenario extension and the cards."""

    nation: list                  # per side: the side's nation (Break Point and Cohesion Point rows)
    formation_cp: list            # per formation: (level or None, numeric CP or None, deployment)
    hq: list                      # per unit: "CHQ" / "BHQ" / "RHQ" or "" (cards: command_level, label command)
    platoon: list                 # per unit: platoon id or "" (MBT 7.3)
    camouflaged: frozenset        # unit indices (MBT 7.24)
    delayed: dict                 # unit -> first turn it may take a command other than N/C (MBT 7.40)
    disrupted: tuple              # (level, frozenset of side indices) or () (MBT 7.42)
    company_span: dict            # formation -> CHQ span override (MBT 7.43)
    radar: frozenset              # units with an active Ground-Based Radar (MBT 7.46)
    aids: list                    # per unit: frozenset of night aids (cards: spotting_aids)
    lights_on: frozenset          # units starting with an active searchlight (MBT 7.36.4.1)
    ground: str                   # normal / snow / mud (MBT 7.36.3)
    cautious: bool                # MBT 7.36.2
    hidden: list                  # [HiddenSpec]
    hidden_limit: dict            # side -> most counters
    loss_offset: list             # per formation: losses recorded before the position (positions only)
    superior: list = field(default_factory=list)  # per formation: its superior formation or -1 (MBT 7.43)
    ground_hexes: frozenset | None = None  # hexes of the ground conditions, None = the whole map (MBT 7.36.3)
    very_limited: bool = False    # limited visibility is very limited (MBT 7.36.2)
    delay_after: dict = field(default_factory=dict)  # unit -> turns of N/C after it first spots an enemy (7.40)


def _unit_indices(game, names, where: str) -> list[int]:
    out = []
    for name in names:
        if name not in game.uindex:
            raise DataError(f"{where}: no unit '{name}' in the scenario (unit names are the engine's, e.g. "
                            f"'{game.units[0].name if game.units else 'M1-1'}')", "/extension")
        out.append(game.uindex[name])
    return out


def _card_facts(game, command_units: dict) -> tuple[list, list]:
    """Command level (the scenario's ``command_units``, else the card's) and night aids of each unit's card
    (MBT 5.9, 7.36.4)."""
    by_type: dict = {}
    for u in game.units:
        if u.type.id in by_type:
            continue
        card = game.index.model("unit", u.type.id)
        body = card.body if card is not None else None
        labels = getattr(body, "labels", None) or ()
        level = getattr(body, "command_level", None) or ("CHQ" if "command" in labels else "")
        by_type[u.type.id] = (level, frozenset(getattr(body, "spotting_aids", None) or ()))
    return ([command_units.get(u.name) or by_type[u.type.id][0] for u in game.units],
            [by_type[u.type.id][1] for u in game.units])


def _formation_cp(game, ext: dict, position: bool) -> list:
    if position:  # a position's formations are its sides (``cohesion_point``: side -> Numeric CP)
        given = ext.get("cohesion_point") or {}
        return [(None, given.get(game.sides[side]), "int") if game.sides[side] in given else (None, None, "int")
                for side in game.formation_side]
    forces = {}
    for f, (side, force) in enumerate(_formation_keys(game)):
        forces.setdefault(force, []).append(f)
    out = [(None, None, "int")] * len(game.formation_side)
    for m in ext.get("morale") or ():
        if m["force"] not in forces:
            raise DataError(f"morale: no force '{m['force']}' in the scenario", "/extension/morale")
        for f in forces[m["force"]]:
            out[f] = (m.get("cohesion"), m.get("cohesion_point"), m.get("deployment") or "int")
    return out


def _formation_keys(game) -> list:
    keys: dict = {}
    for i, u in enumerate(game.units):
        keys.setdefault(game.formation_of[i], (u.side, u.force))
    return [keys[f] for f in range(len(game.formation_side))]


def _hidden(game, ext: dict) -> list:
    out = []
    for c in ext.get("hidden_units") or ():
        if c["side"] not in game.sides:
            raise DataError(f"hidden unit counter '{c['id']}': no side '{c['side']}'", "/extension/hidden_units")
        if c["hex"] not in game.map.hex_of:
            raise DataError(f"hidden unit counter '{c['id']}': hex {c['hex']} is not on the map",
                            "/extension/hidden_units")
        units = tuple(_unit_indices(game, c.get("units") or (), f"hidden unit counter '{c['id']}'"))
        side = game.sides.index(c["side"])
        if any(game.units[i].side != side for i in units) or len({game.formation_of[i] for i in units}) > 1:
            raise DataError(f"hidden unit counter '{c['id']}': its units must be of one formation of side "
                            f"'{c['side']}' (MBT 7.2.1)", "/extension/hidden_units")
        out.append(HiddenSpec(c["id"], side, game.map.hex(c["hex"]), units))
    for side, limit in (ext.get("hidden_limit") or {}).items():
        n = sum(1 for c in out if game.sides[c.side] == side)
        if n > limit:
            raise DataError(f"{n} hidden unit counters of side '{side}' exceed its limit {limit} (MBT 7.2.2)",
                            "/extension/hidden_units")
    return out


def _delayed(game, ext: dict) -> tuple[dict, dict]:
    """(unit -> first turn it may take a command other than N/C, unit -> turns of N/C after it first spots an
    opposing unit) (MBT 7.40)."""
    delayed: dict = {}
    after: dict = {}
    for d in ext.get("delayed_reaction") or ():
        for i in _unit_indices(game, d["units"], "delayed_reaction"):
            delayed[i] = max(delayed.get(i, 0), int(d.get("until_turn") or 1))
            if d.get("after_spotting"):
                after[i] = max(after.get(i, 0), int(d["after_spotting"]))
    return delayed, after


def _disrupted(game, ext: dict) -> tuple:
    """(level, side indices subject to it) or () (MBT 7.42)."""
    dc = ext.get("disrupted_communications")
    if not dc:
        return ()
    sides = frozenset(game.sides.index(s) for s in dc.get("sides") or () if s in game.sides) or \
        frozenset(range(len(game.sides)))
    return dc["level"], sides


def _superior(game, ext: dict, force_f: dict) -> list:
    """Per formation: the formation above it in the scenario's ``command_tree`` (-1 none), of the same side and
    without cycles (MBT 7.43: an HQ commands its own formation and every formation below it)."""
    out = [-1] * len(game.formation_side)
    for child, parent in (ext.get("command_tree") or {}).items():
        for name in (child, parent):
            if name not in force_f:
                raise DataError(f"command_tree: no force '{name}' in the scenario", "/extension/command_tree")
        c, p = force_f[child], force_f[parent]
        if game.formation_side[c] != game.formation_side[p] or c == p:
            raise DataError(f"command_tree: '{child}' -> '{parent}': a formation's superior is another formation "
                            "of its side", "/extension/command_tree")
        out[c] = p
    for f in range(len(out)):
        seen, x = set(), f
        while x >= 0:
            if x in seen:
                raise DataError("command_tree: the tree has a cycle", "/extension/command_tree")
            seen.add(x)
            x = out[x]
    return out


def _ground_hexes(game, ext: dict) -> frozenset | None:
    """The hexes the ground conditions cover (MBT 7.36.3), None for the whole map."""
    labels = ext.get("ground_hexes") or ()
    for label in labels:
        if label not in game.map.hex_of:
            raise DataError(f"ground_hexes: hex {label} is not on the map", "/extension/ground_hexes")
    return frozenset(game.map.hex(label) for label in labels) if labels else None


def compile_opt_command_scenario(game, ext: dict | None = None, position: bool = False) -> OptCommandScenario:
    """What the scenario (or a position's ``ext``) gives these rules (unknown unit names, forces, sides or hexes:
    :class:`DataError`)."""
    ext = game.extension if ext is None else ext
    hq, aids = _card_facts(game, ext.get("command_units") or {})
    names = {u.name: i for i, u in enumerate(game.units)}
    force_f = {force: f for f, (_, force) in enumerate(_formation_keys(game))}
    return OptCommandScenario(
        nation=[s.nation for s in game.scenario.sides],
        formation_cp=_formation_cp(game, ext, position), hq=hq,
        platoon=[(ext.get("platoons") or {}).get(u.name, "") for u in game.units],
        camouflaged=frozenset(_unit_indices(game, ext.get("camouflaged") or (), "camouflaged")),
        delayed=_delayed(game, ext)[0], delay_after=_delayed(game, ext)[1], disrupted=_disrupted(game, ext),
        company_span={force_f[k]: int(v) for k, v in (ext.get("command_span") or {}).items() if k in force_f},
        radar=frozenset(_unit_indices(game, ext.get("ground_radar") or (), "ground_radar")),
        aids=aids, lights_on=frozenset(names[n] for n in ext.get("searchlights_on") or () if n in names),
        ground=ext.get("ground_conditions") or "normal", cautious=bool(ext.get("cautious_movement")),
        hidden=_hidden(game, ext), hidden_limit=dict(ext.get("hidden_limit") or {}),
        loss_offset=[int((ext.get("morale_losses") or {}).get(game.sides[side], 0)) if position else 0
                     for side in game.formation_side],
        superior=_superior(game, ext, force_f), ground_hexes=_ground_hexes(game, ext),
        very_limited=bool(ext.get("very_limited_visibility")))


def check_options(options: dict) -> None:
    lost = [o for o in OPT_COMMAND_OPTIONS if o not in options]
    if lost:
        raise DataError(f"the engine reads rule option(s) {', '.join(lost)}, which the ruleset does not define",
                        "/options")
