"""Compile a scenario, the MBT ruleset document and the unit cards into plain engine data.

Every number comes from ``ruleset.yaml`` (tables read by id) or from the unit cards; nothing here is a table
value. Pydantic models are read once; the hot loop sees only slots objects, tuples, dicts and sets.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from studio.hexgrid import coords
from studio.model.forces import expand_force
from studio.model.maps import AssembledMap, assemble_scenario, edge_key

from .ag_specs import AG_TABLES
from .if_specs import IF_TABLES  # indirect fire, smoke, artillery optional rules
from .opt_command_specs import OPT_COMMAND_TABLES  # Optional Rules of morale, spotting and command
from .opt_move_specs import MOVE_OPT_TABLES
from .adv_move_specs import ADV_MOVE_TABLES
from .air_specs import AIR_TABLES
from .towed_specs import TOWED_TABLES  # towed units (MBT 5.2, 6.6.5)

BANDS = ("P", "S", "M", "L", "E")
FLAT_NAMES = coords.FLAT_DIRECTION_NAMES


class DataError(ValueError):
    """Ruleset or scenario data the engine cannot use; ``pointer`` locates it in the ruleset file."""

    def __init__(self, message: str, pointer: str = ""):
        super().__init__(message)
        self.pointer = pointer


@dataclass(slots=True)
class ApRow:
    """One AP ammunition row of a weapon (Basic Game fires AP rows only, MBT 4.4.3)."""

    key: str                      # "weapon:AMMO", the text form in actions
    weapon: str
    ammo: str
    ranges: tuple                 # P..E thresholds (None = skipped band)
    pens: tuple                   # P..E penetration
    max_range: int
    min_range: int
    arc: int                      # 360 for TT 1/2/3/360, else 60/120/180 (MBT 4.4.3.1)
    rear: bool                    # overscored ammo: rear arc
    turreted: bool                # TT 1/2/3 or 360: may fire overwatch outside the arc
    cis: bool
    # Advanced Game fields (``ag_data.ag_rows``); the Basic Game rows keep the defaults
    kind: str = "AP"              # AP, ATGM or GP (MBT 6.5.2, 5.1.3.3, 6.5.4)
    energy: str | None = None     # KE or CE (MBT 6.5.2.4)
    rof: str = "N"                # N, Q, R, F (MBT 6.5.2.1)
    sight: str = "O"              # primary sight (MBT 6.5.2.2.5)
    small_arms: bool = False      # MBT 5.7 (in combat; a mortar is not, 5.1.3.1)
    spot_small_arms: bool = False  # fires as Small Arms for spotting (MBT 5.7; mortars too, 5.1.3.1)
    coax: bool = False
    gp: tuple = ()                # GP factor per band (MBT 6.5.4.1)
    gpe: int = 0                  # maximum GP Effectiveness of the weapon (MBT 6.5.4.4.2)
    atgm: Any = None              # ag_data.AtgmSpec (MBT 5.1.3.3.1)
    ap_damage: tuple | None = None    # AP Damage by units result 1..10 of this ammo row (MBT 6.5.2.6, Q22)
    card_damage: tuple | None = None  # the first AP Damage row of the weapon (option ap-damage-source: card)
    no_short_halt: bool = False   # CL 3/4 ATGMs and restricted weapons (MBT 5.1.3.3.3)
    half: bool | None = None      # leg rows: the squad's (False) or its half-squad's (True); None: any size
    aa: bool = False              # an AA weapon's row (MBT 6.7.8)
    aa_mod: int = 0               # its data-card AA modifier
    card: str = ""                # the crew-served card of an attached weapon's row, "" the unit's own (MBT 5.1.3)
    sb: int | None = None         # a helicopter gun's SB factor (MBT 6.7.6.2), None: not listed


@dataclass(slots=True)
class UnitType:
    id: str
    name: str
    traction: str                 # "t", "h", "w"
    cc: int
    path: int
    road: int
    sb: int
    target_size: int
    armor_front: int
    armor_rear: int
    combat: bool                  # may spot / receive FIRE, SH, OW (MBT 4.1.1, 4.2.1)
    armed: bool                   # may capture objectives (MBT 3.6)
    ap: tuple = ()
    ag: Any = None                # ag_data.AgDefense in the Advanced Game


@dataclass(slots=True)
class UnitSpec:
    name: str
    side: int
    type: UnitType
    force: str
    setup_hex: tuple | None
    facing: int
    entry_turn: int               # 0 = on the map at the start
    entry_hexes: tuple = ()
    entry_facing: int = 0


@dataclass
class Tables:
    """The ruleset tables the engine reads, compiled (every value from ``ruleset.yaml``, read by table id)."""

    bands: tuple                  # range bands in gun reading order (range-factors, MBT 4.4.3.2.1)
    band_order: dict              # band -> read_order_gun
    spot_range: dict              # net modifier -> range (V column)
    spot_mod: dict                # id -> modifier
    spot_clamp: tuple
    cover_spot: dict
    cover_ap: dict
    ap_hit: dict                  # (net, band) -> hit number
    ap_mod: dict
    ap_clamp: tuple
    pen_results: list             # [(result, lo, hi)]
    damaged_fraction: float
    if_damaged: dict              # result -> result for an already Damaged target (MBT 4.4.3.2.6)
    msa_fraction: list            # [(command, damaged, sb, fraction)]
    height_change: dict           # levels -> (added, road_added, {traction: allowed})
    turn_cost: dict               # terrain code -> turn cost (None = prohibited)
    overstack: int
    wrecks_stack: bool            # do wrecks count toward over-stacking (MBT 3.8)
    bu_move_cost: int
    light: dict                   # light -> (spotting modifier, road/path fraction) (limited-visibility)
    movement: dict                # item -> value (movement-rules: road rate, reverse, hexside turns)
    placeholders: list = field(default_factory=list)

    def fingerprint(self) -> str:
        """A canonical text of every compiled value (``Game.data_fingerprint``)."""
        return repr(sorted((k, repr(v)) for k, v in self.__dict__.items() if k != "placeholders"))


@dataclass(frozen=True)
class _TableSpec:
    """Fallback with the fields of ``studio.model.requirements.TableSpec`` (the core's declaration type)."""

    id: str
    rule: str = ""
    columns: tuple = ()
    numeric: tuple = ()
    integer: tuple = ()
    min_rows: int = 1
    keys: tuple = ()
    nullable: tuple = ()


try:  # the core's type when it exists (RulesetPlugin.engine_tables)
    from studio.model.requirements import TableSpec
except ImportError:  # pragma: no cover - older core
    TableSpec = _TableSpec

AP_MODIFIER_IDS = ("target-moving", "short-halt-sb0", "short-halt-sb1", "short-halt-sb2", "short-halt-sb3",
                   "shooter-damaged", "brew-up-smoke", "overwatch", "overwatch-adjust", "overwatch-cis",
                   "overwatch-adjust-cis", "net-max", "net-min")
SPOT_MODIFIER_IDS = ("target-spot-move", "target-spot-fire", "brew-up-illumination", "net-max", "net-min")
MOVEMENT_RULES = ("road-hex", "road-hex-reverse", "reverse-multiplier", "free-hexsides-per-hex",
                  "max-hexsides-per-hex")
PEN_RESULTS = ("no-effect", "damaged", "knocked-out", "brewed-up")

#: The ruleset tables the engine reads, with what it needs of each (validation rejects anything else).
ENGINE_TABLES = (
    TableSpec("spotting-ranges", "MBT 4.1.3", ("modifier", "V"), ("modifier", "V"), ("modifier", "V"), keys=("0",)),
    TableSpec("spotting-modifiers", "MBT 4.1.3", ("id", "modifier"), ("modifier",), ("modifier",),
              keys=SPOT_MODIFIER_IDS),
    TableSpec("limited-visibility", "MBT 7.36.1", ("light", "spotting_modifier", "road_path_fraction"),
              ("spotting_modifier", "road_path_fraction"), ("spotting_modifier",), keys=("day", "dusk", "night")),
    TableSpec("cover-types", "MBT 4.1.3", ("cover", "spotting_modifier", "ap_hit_modifier"),
              ("spotting_modifier", "ap_hit_modifier"), ("spotting_modifier", "ap_hit_modifier"), keys=("none",)),
    TableSpec("range-factors", "MBT 4.4.3.2.1", ("band", "read_order_gun"), ("read_order_gun",),
              ("read_order_gun",), keys=BANDS),
    TableSpec("ap-hit", "MBT 4.4.3.2.3", ("modifier",) + BANDS, ("modifier",) + BANDS, ("modifier",) + BANDS,
              keys=("0",)),
    TableSpec("ap-hit-modifiers", "MBT 4.4.3.2.2", ("id", "modifier"), ("modifier",), ("modifier",),
              keys=AP_MODIFIER_IDS),
    TableSpec("ap-penetration-results", "MBT 4.4.3.2.6", ("result", "min_difference", "max_difference",
                                                          "if_damaged"),
              ("min_difference", "max_difference"), ("min_difference", "max_difference"), keys=PEN_RESULTS,
              nullable=("min_difference", "max_difference")),
    TableSpec("damage-effects", "MBT 4.4.3.2.6", ("effect", "value"), ("value",),
              keys=("damaged-msa-fraction", "brew-up-smoke-move-cost")),
    TableSpec("msa-fractions", "MBT 4.5.1.1.1", ("command", "damaged", "stabilization", "fraction"),
              ("stabilization", "fraction"), ("stabilization",), keys=("move", "short-halt"),
              nullable=("stabilization",)),
    TableSpec("height-change", "MBT 4.5.1.1.2", ("levels", "added_cost", "road_path_added_cost", "allowed_T",
                                                 "allowed_H", "allowed_W", "allowed_L"),
              ("levels", "added_cost", "road_path_added_cost"), ("levels", "added_cost", "road_path_added_cost"),
              keys=("0",)),
    TableSpec("building-cover", "MBT 6.1.4.3.9", ("terrain", "construction", "cover", "default"), min_rows=0),
    TableSpec("movement-rules", "MBT 4.5.1.1", ("item", "value"), ("value",), ("value",), keys=MOVEMENT_RULES),
    TableSpec("terrain-effects", "MBT 4.5.1.1.4", ("code", "turn"), ("turn",), ("turn",), nullable=("turn",)),
    TableSpec("stacking", "MBT 3.8", ("limit", "vehicles", "wrecks_count"), ("vehicles",), ("vehicles",),
              keys=("over-stacked",)),
) + AG_TABLES + MOVE_OPT_TABLES + OPT_COMMAND_TABLES + AIR_TABLES + IF_TABLES + TOWED_TABLES + ADV_MOVE_TABLES
SPECS = {s.id: s for s in ENGINE_TABLES}


class TableReader:
    """Reads engine tables by id, checking what ``ENGINE_TABLES`` declares and each cell's type, so a bad ruleset
    raises :class:`DataError` (message, JSON pointer) instead of failing later in play."""

    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.where = {t.id: i for i, t in enumerate(ruleset.tables)}
        self.placeholders: list[str] = []

    def rows(self, tid: str) -> list[dict]:
        spec = SPECS[tid]
        if tid not in self.where:
            raise DataError(f"the engine needs table '{tid}' ({spec.rule})", "/tables")
        i = self.where[tid]
        t = self.ruleset.tables[i]
        missing = [c for c in spec.columns if c not in t.columns]
        if missing:
            raise DataError(f"table '{tid}' has no column {', '.join(missing)}", f"/tables/{i}/columns")
        if len(t.rows) < spec.min_rows:
            raise DataError(f"table '{tid}' needs at least {spec.min_rows} row(s)", f"/tables/{i}/rows")
        out = []
        for r, row in enumerate(t.rows):
            if len(row) != len(t.columns):
                raise DataError(f"table '{tid}' row {r} has {len(row)} cells for {len(t.columns)} columns",
                                f"/tables/{i}/rows/{r}")
            cells = dict(zip(t.columns, row))
            for c in spec.numeric:
                self._check(tid, i, r, t.columns.index(c), cells[c], integer=c in spec.integer,
                            nullable=c in spec.nullable)
            out.append(cells)
        keys = {str(row[0]) for row in t.rows if row and not isinstance(row[0], bool)}
        lost = [k for k in spec.keys if k not in keys]
        if lost:
            raise DataError(f"table '{tid}' has no row {', '.join(map(str, lost))}", f"/tables/{i}/rows")
        if t.placeholder or t.placeholder_rows:
            self.placeholders.append(tid)
        return out

    def _check(self, tid, i, r, c, value, integer: bool = False, nullable: bool = False):
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or \
                (integer and not isinstance(value, int)):
            kind = "an integer" if integer else "a finite number"
            raise DataError(f"table '{tid}' row {r} column '{self.ruleset.tables[i].columns[c]}': {value!r} is "
                            f"not {kind}", f"/tables/{i}/rows/{r}/{c}")
        return value

    def cell(self, tid: str, rows: list[dict], r: int, col: str, kind: str):
        """One cell of a row read by :meth:`rows`, checked as ``int``, ``int?`` (null allowed), ``num``,
        ``bool``, ``bool?`` or ``str``."""
        i = self.where[tid]
        value = rows[r][col]
        c = self.ruleset.tables[i].columns.index(col)
        base = kind.rstrip("?")
        if base in ("int", "num"):
            return self._check(tid, i, r, c, value, integer=base == "int", nullable=kind.endswith("?"))
        want = {"bool": bool, "str": str}[base]
        if not isinstance(value, want) and not (value is None and kind.endswith("?")):
            raise DataError(f"table '{tid}' row {r} column '{col}': {value!r} is not a {base}",
                            f"/tables/{i}/rows/{r}/{c}")
        return value

    def choice(self, tid: str, rows: list[dict], r: int, col: str, allowed, what: str = "") -> str:
        """A ``str`` cell that must be one of ``allowed`` (e.g. a damage result); ``what`` names the cell in the
        message (default: the column)."""
        value = self.cell(tid, rows, r, col, "str")
        if value not in allowed:
            raise DataError(f"table '{tid}' row {r}: {what or col} {value!r} is not one of {', '.join(allowed)}",
                            f"/tables/{self.where[tid]}/rows/{r}")
        return value

    def column(self, tid: str, col: str) -> int:
        return self.ruleset.tables[self.where[tid]].columns.index(col)

    def keyed(self, tid: str, key_col: str, col: str, kind: str) -> dict:
        rows = self.rows(tid)
        return {self.cell(tid, rows, r, key_col, "str"): self.cell(tid, rows, r, col, kind) for r in range(len(rows))}

    def value(self, tid: str, key: str, col: str, kind: str):
        """The ``col`` cell of the row whose first column is ``key``."""
        rows = self.rows(tid)
        first = self.ruleset.tables[self.where[tid]].columns[0]
        r = next(r for r, row in enumerate(rows) if row[first] == key)
        return self.cell(tid, rows, r, col, kind)


def _spotting(rd: TableReader) -> dict:
    sr = rd.rows("spotting-ranges")
    out = {int(r["modifier"]): int(r["V"]) for r in sr}
    return out


def _bands(rd: TableReader) -> tuple[tuple, dict]:
    """Band letters in the gun reading order (MBT 4.4.3.2.1; ties keep the table's row order), and the orders."""
    tid = "range-factors"
    rows = rd.rows(tid)
    order = {rd.cell(tid, rows, r, "band", "str"): rd.cell(tid, rows, r, "read_order_gun", "int")
             for r in range(len(rows))}
    return tuple(sorted((b for b in order if b in BANDS), key=lambda b: order[b])), order


def _pen_results(rd: TableReader) -> tuple[list, dict]:
    """``[(result, lo, hi)]`` and result -> result for an already Damaged target (MBT 4.4.3.2.6)."""
    tid = "ap-penetration-results"
    rows = rd.rows(tid)
    bands = [(rd.cell(tid, rows, r, "result", "str"), rd.cell(tid, rows, r, "min_difference", "int?"),
              rd.cell(tid, rows, r, "max_difference", "int?")) for r in range(len(rows))]
    again = {}
    for r, row in enumerate(rows):
        value = rd.cell(tid, rows, r, "if_damaged", "str")
        if value not in PEN_RESULTS:
            raise DataError(f"table '{tid}' row {r} if_damaged must be one of {', '.join(PEN_RESULTS)}, not "
                            f"{value!r}", f"/tables/{rd.where[tid]}/rows/{r}/{rd.column(tid, 'if_damaged')}")
        again[row["result"]] = value
    return bands, again


def _msa(rd: TableReader) -> list:
    tid = "msa-fractions"
    rows = rd.rows(tid)
    return [(rd.cell(tid, rows, r, "command", "str"), rd.cell(tid, rows, r, "damaged", "bool"),
             rd.cell(tid, rows, r, "stabilization", "int?"), float(rd.cell(tid, rows, r, "fraction", "num")))
            for r in range(len(rows))]


def _height(rd: TableReader) -> dict:
    tid = "height-change"
    rows = rd.rows(tid)
    out = {}
    for r, row in enumerate(rows):
        allowed = {k: rd.cell(tid, rows, r, f"allowed_{k.upper()}", "bool") for k in ("t", "h", "w", "l")}
        out[int(row["levels"])] = (int(row["added_cost"]), int(row["road_path_added_cost"]), allowed)
    return out


def _by_net(rows: dict, lo: int, hi: int) -> dict:
    """``rows`` (net modifier -> value) for every net modifier lo..hi; a modifier beyond the table's rows reads
    the nearest row (the static checks ``mbt.spotting-table``/``mbt.ap-hit-table`` ask for every row)."""
    have = sorted(rows)
    return {m: rows[min(have, key=lambda k: (abs(k - m), k))] for m in range(lo, hi + 1)}


def compile_tables(ruleset) -> Tables:
    """The engine tables of ``ruleset``; raises :class:`DataError` (with a pointer) for anything the engine
    cannot use."""
    rd = TableReader(ruleset)
    sm = {k: v for k, v in rd.keyed("spotting-modifiers", "id", "modifier", "int").items() if k in SPOT_MODIFIER_IDS}
    spot_clamp = (min(sm["net-min"], sm["net-max"]), max(sm["net-min"], sm["net-max"]))
    spot_range = _by_net(_spotting(rd), *spot_clamp)
    cov_rows = rd.rows("cover-types")
    cover_spot = {rd.cell("cover-types", cov_rows, r, "cover", "str"): int(row["spotting_modifier"])
                  for r, row in enumerate(cov_rows)}
    cover_ap = {row["cover"]: int(row["ap_hit_modifier"]) for row in cov_rows}
    bands, order = _bands(rd)
    am = {k: v for k, v in rd.keyed("ap-hit-modifiers", "id", "modifier", "int").items() if k in AP_MODIFIER_IDS}
    ap_clamp = (min(am["net-min"], am["net-max"]), max(am["net-min"], am["net-max"]))
    hit_rows = rd.rows("ap-hit")
    by_band = {b: _by_net({int(r["modifier"]): int(r[b]) for r in hit_rows}, *ap_clamp) for b in BANDS}
    ap_hit = {(m, b): v for b, col in by_band.items() for m, v in col.items()}
    de = "damage-effects"
    pen, again = _pen_results(rd)
    turn = rd.keyed("terrain-effects", "code", "turn", "int?")
    lv = "limited-visibility"
    light = {k: (v, float(rd.value(lv, k, "road_path_fraction", "num")))
             for k, v in rd.keyed(lv, "light", "spotting_modifier", "int").items()}
    return Tables(bands, order, spot_range, sm, spot_clamp, cover_spot, cover_ap, ap_hit, am, ap_clamp, pen,
                  float(rd.value(de, "damaged-msa-fraction", "value", "num")), again, _msa(rd), _height(rd), turn,
                  rd.value("stacking", "over-stacked", "vehicles", "int"),
                  rd.value("stacking", "over-stacked", "wrecks_count", "bool"),
                  rd.value(de, "brew-up-smoke-move-cost", "value", "int"), light,
                  {k: v for k, v in rd.keyed("movement-rules", "item", "value", "int").items() if k in MOVEMENT_RULES},
                  rd.placeholders)


def building_cover(ruleset) -> tuple[dict, dict]:
    """Table ``building-cover``: ``{(terrain code, construction): cover}`` and ``{terrain code: default
    construction}`` (option ``building-spotting-cover``, MBT 6.1.4.3.9, Q8)."""
    rd = TableReader(ruleset)
    tid = "building-cover"
    rows = rd.rows(tid)
    cover, default = {}, {}
    for r in range(len(rows)):
        code = rd.cell(tid, rows, r, "terrain", "str")
        kind = rd.cell(tid, rows, r, "construction", "str")
        cover[(code, kind)] = rd.cell(tid, rows, r, "cover", "str")
        if rd.cell(tid, rows, r, "default", "bool"):
            default[code] = kind
    lost = sorted({c for c, _ in cover} - set(default))
    if lost:
        raise DataError(f"table '{tid}' gives no default construction for terrain {', '.join(lost)}",
                        f"/tables/{rd.where[tid]}/rows")
    return cover, default


#: the rule options the engine reads (each must be an option of the ruleset)
ENGINE_OPTIONS = ("penetration-zero", "penetration-band", "spot-pending", "blind-zone-n", "gully-two-up",
                  "los-along-hexside", "overwatch-order", "ow-arc", "fof-hex-inclusion", "msa-remaining-floor",
                  "brew-up-turn-cost", "reverse-cost", "hedgerow-crossing", "los-obstacles",
                  "hexside-obstacle-distance", "initiative-winner", "initiative-ties", "building-spotting-cover",
                  "unmarked-level-change")


def engine_options(ruleset, scenario, options: dict | None) -> dict:
    """Defaults <- scenario <- ``options``; every option the engine reads must be defined by the ruleset."""
    merged = {o.id: o.default for o in ruleset.options}
    lost = [o for o in ENGINE_OPTIONS if o not in merged]
    if lost:
        raise DataError(f"the engine reads rule option(s) {', '.join(lost)}, which the ruleset does not define",
                        "/options")
    merged.update(scenario.options or {})
    merged.update(options or {})
    return merged


def check_costs(ruleset) -> None:
    """Terrain and hexside movement costs must be finite and not negative (null = prohibited)."""
    for part in ("terrain", "hexside_features"):
        for i, t in enumerate(getattr(ruleset, part)):
            for cls, cost in t.move_cost.items():
                if cost is not None and not (math.isfinite(cost) and cost >= 0):
                    raise DataError(f"{part} '{t.id}' move cost {cls} {cost!r} is not a finite cost",
                                    f"/{part}/{i}/move_cost/{cls}")


def unit_type(card, advanced: bool = False) -> UnitType:
    """The engine record of a vehicle card; ``advanced``: AP, ATGM and GP rows and the Advanced defensive data
    (``ag_data``), else the Basic Game's AP rows."""
    b = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
    if advanced:
        return _ag_type(card, b)
    g = b["general"]
    mv = g["movement"]
    armor = (b.get("notes") or {}).get("basic_armor") or {"front": 0, "rear": 0}
    unarmed = bool(b.get("unarmed", False))
    rows = []
    for w in b.get("weapons", []):
        tt = int(w["tt_factor"])
        turreted = tt in (1, 2, 3, 360)
        for a in w["ammo"]:
            if a["kind"] != "AP" or not a.get("penetration"):
                continue  # Basic Game: AP rows only, no ATGMs (MBT 4.4.3)
            rng = tuple(a["range"].get(x) for x in BANDS)
            pen = tuple(a["penetration"].get(x) for x in BANDS)
            if all(v is None for v in rng) or all(v is None for v in pen):
                continue
            max_r = max(v for v in rng if v is not None)
            rows.append(ApRow(f"{w['id']}:{a['ammo_type'].replace(' ', '_')}", w["id"], a["ammo_type"], rng, pen,
                              max_r, int(w.get("min_range", 1)), 360 if turreted else tt,
                              a.get("fof_side") == "rear", turreted, bool(w.get("cis", False))))
    combat = bool(b.get("is_combat_unit", True)) and not unarmed
    return UnitType(card.id, card.name, mv["traction"].lower(), int(mv["cross_country"]), int(mv["path"]),
                    int(mv["road"]), int(g["stabilization"]), int(b["defensive"]["target_size"]),
                    int(armor["front"]), int(armor["rear"]), combat, not unarmed, tuple(rows))


def _ag_type(card, b: dict) -> UnitType:
    from .ag_data import ag_defense, ag_rows

    ut = unit_type(card)
    ut.ap = ag_rows(b)
    ut.ag = ag_defense(b)
    return ut


#: card categories the engine plays; the others are listed in ``MbtGame.unmodelled`` (not in play)
PLAYED = {"vehicle": "basic", "leg": "advanced", "helicopter": "advanced", "towed": "advanced"}


def engine_type(card, index, advanced: bool, attached: tuple[str, ...] | None = None) -> UnitType | None:
    """The engine record of a card, or None for a card the game does not put in play: the Basic Game has
    vehicles only (MBT 1.0, 4.0); the Advanced engine plays vehicles, leg units, towed units and helicopters
    (fixed-wing aircraft come from the scenario's air block, batteries from its artillery block).
    ``attached``: the scenario's crew-served weapons for a leg unit's slot (replacing its card's)."""
    kind = PLAYED.get(getattr(card, "category", "vehicle"))
    if kind is None or (kind == "advanced" and not advanced):
        return None
    if kind == "advanced" and getattr(card, "category", "") == "helicopter":
        from .air import heli_type

        return heli_type(card)
    if kind == "advanced" and getattr(card, "category", "") == "towed":
        from .towed import towed_type

        return towed_type(card)  # MBT 5.2
    if kind == "advanced":
        from .leg import leg_type

        return leg_type(card, index, None if attached is None else list(attached))  # MBT 5.1.3
    return unit_type(card, advanced)


def force_units(force, index) -> list[str]:
    """Unit card ids of a force, in TO&E order (``studio.model.forces`` defines paths and substitutions)."""
    if index.model("toe", force.toe) is None:
        raise DataError(f"TO&E '{force.toe}' is missing")
    return [u.unit for u in expand_force(force, index)]


def attachment_overrides(scenario, force, index) -> list[tuple[str, ...] | None]:
    """Per unit of ``force`` (TO&E order): the crew-served card ids the scenario's ``attachments`` give its slot
    (MBT 5.1.3: they replace the leg card's ``attached_weapons``), or None for the card's own."""
    ext = scenario.extension
    rows = [a for a in getattr(ext, "attachments", None) or [] if a.force == force.id]
    if not rows:
        return [None] * len(force_units(force, index))
    out: list[tuple[str, ...] | None] = []
    for u in expand_force(force, index):
        match = next((a for a in rows if a.slot in (u.path, u.path.split("/", 1)[-1])), None)
        out.append(tuple(match.weapons) if match is not None else None)
    return out


def facing_of(name: str | None, default: int) -> int:
    if name and name in FLAT_NAMES:
        return FLAT_NAMES.index(name)
    return default


ENTRY_FACING = {"north": 3, "south": 0, "west": 2, "east": 5}


def compile_units(scenario, index, amap: AssembledMap, advanced: bool = False) -> tuple[list[UnitSpec], dict]:
    types: dict[str, UnitType | None] = {}
    units: list[UnitSpec] = []
    skipped: list[str] = []
    counters: dict[str, int] = {}
    centre_q = sum(h[0] for h in amap.label_of) / max(1, len(amap.label_of))
    for side_i, side in enumerate(scenario.sides):
        for force in side.forces:
            cards = force_units(force, index)
            attached = attachment_overrides(scenario, force, index) if advanced else [None] * len(cards)
            for k, card_id in enumerate(cards):
                key = card_id if attached[k] is None else f"{card_id}+{'+'.join(attached[k])}"
                if key not in types:
                    card = index.model("unit", card_id)
                    if card is None:
                        raise DataError(f"unit card '{card_id}' is missing")
                    types[key] = engine_type(card, index, advanced, attached[k])
                ut = types[key]
                if ut is None:
                    skipped.append(card_id)
                    continue
                prefix = ut.name.split()[0]
                counters[prefix] = counters.get(prefix, 0) + 1
                name = f"{prefix}-{counters[prefix]}"
                setup_hex, facing, entry_turn, entry_hexes, entry_facing = None, 0, 0, (), 0
                if force.setup is not None and (force.setup.hexes or force.setup.zone):
                    pool = force.setup.hexes or force.setup.zone
                    label = pool[k % len(pool)]
                    setup_hex = amap.hex(label)
                    default = 2 if setup_hex[0] < centre_q else 5
                    facing = facing_of(force.setup.facing, default)
                else:
                    entry = force.entry
                    entry_turn = entry.turn
                    if entry.hexes:
                        entry_hexes = tuple(amap.hex(h) for h in entry.hexes)
                    else:
                        entry_hexes = tuple(amap.edge_hexes(entry.edge))
                    entry_facing = ENTRY_FACING.get(entry.edge or "", 2 if entry_hexes and
                                                    entry_hexes[0][0] < centre_q else 5)
                units.append(UnitSpec(name, side_i, ut, force.id, setup_hex, facing, entry_turn, entry_hexes,
                                      entry_facing))
    return units, {k: v for k, v in types.items() if v is not None}, skipped


def compile_map(scenario, index, ruleset, amap: AssembledMap | None = None):
    amap = amap or assemble_scenario(scenario, index)
    terrain = {t.code: t for t in ruleset.terrain}
    features = {f.id: f for f in ruleset.hexside_features}
    ext = scenario.extension
    ext = ext.model_dump() if hasattr(ext, "model_dump") else (ext or {})
    stories = {amap.hex(k): int(v) for k, v in (ext.get("building_stories") or {}).items() if k in amap.hex_of}
    return amap, terrain, features, stories


def edge_of(amap: AssembledMap) -> dict:
    out: dict = {}
    for e in ("north", "east", "south", "west"):
        for h in amap.edge_hexes(e):
            out.setdefault(h, set()).add(e)
    return out


__all__ = ["ApRow", "UnitType", "UnitSpec", "Tables", "compile_tables", "check_costs", "building_cover", "engine_options", "ENGINE_OPTIONS", "ENGINE_TABLES", "TableSpec", "compile_units", "compile_map", "edge_of",
           "edge_key", "BANDS", "DataError"]
