"""Compiled data of the movement optional rules (MBT 7.29-7.34) and Advanced quickmarch (6.6.4.2): the ruleset
tables of ``opt_move_specs``, the scenario's minefield plots and weight limits, and the movement facts of the unit
cards (weight, Bog modifier, amphibious, dual driving controls, mine plow, quickmarch factor). Every number comes
from the ruleset, the scenario or a card."""
from __future__ import annotations

from dataclasses import dataclass, field

from studio.hexgrid import coords
from studio.model.maps import edge_key

from .data import DataError, TableReader
from .opt_move_specs import MINE_COLUMNS, MINE_FIELDS


@dataclass(frozen=True, slots=True)
class Minefield:
    """One minefield (MBT 7.31.1): its hexes, Hasty/Deliberate/FASCAM, mines AV/AP/both, the owning side, whether
    the scenario shows it to the enemy, and its GP Defense (7.31.3)."""

    hexes: frozenset
    field: str            # hasty, deliberate, fascam
    mines: str            # av, ap, both
    owner: int            # side index (FASCAM: the side that laid it)
    visible: bool
    gp_defense: int

    def attacks(self, side: int) -> bool:
        """FASCAM attacks both sides; other fields only the enemy's units (MBT 7.31.2)."""
        return self.field == "fascam" or side != self.owner

    def has(self, kind: str) -> bool:
        return self.mines in (kind, "both")


@dataclass(slots=True)
class CardMove:
    """Movement facts of a card for the optional rules (MBT 7.29-7.34, 7.31.3.4, 6.6.4.2)."""

    weight: float | None = None
    bog: int = 0
    amphibious: bool = False
    dual: bool = False
    plow: bool = False
    quickmarch: int = 0
    long_gun: bool = False
    avlb: float | None = None     # an AVLB's bridge weight limit (MBT 7.49)
    ca_c: bool = False            # the 'C' Close Assault indicator (MBT 6.6.1.1.2)


@dataclass
class MoveOpt:
    mine_effects: dict            # (field, column) -> (damage_max, track_max, effective_max) (MBT 7.31.2)
    mine_values: dict             # minefield-values (MBT 7.31.3)
    bog_max: dict                 # terrain code -> bog range 01..max (MBT 7.29)
    bog_mod: dict                 # bog-modifiers
    qm_supp: dict                 # grade -> Suppression range 01..max after a quickmarch (MBT 6.6.4.2)
    qm_terrain: frozenset         # terrain codes a quickmarch may cross (MBT 6.6.4.2)
    minefields: tuple             # Minefield plots of the scenario (MBT 7.31.1)
    bridge_limit: dict            # edge -> tons (MBT 7.32)
    ice_limit: dict               # frozen stream edge -> tons (MBT 7.32)
    overrun: dict                 # overrun-values: modifier, max-gp (MBT 6.6.10)
    hd_max: dict                  # terrain code -> Hull Down search range 01..max (MBT 6.6.9)
    hd_terrain: frozenset         # terrain codes that are Partial Hull Down from all angles (MBT 6.1.4.1.2)
    hd_mod: dict                  # hull-down-modifiers (MBT 6.6.9)
    hd_grade: dict                # grade -> search modifier (MBT 6.6.9)
    hd_front_side: dict           # hd/phd -> location rolls (tens) that miss at Front/Side (MBT 6.5.2.2.3)
    fire_start: tuple             # (construction, gp_min, gp_max, roll_max) rows (MBT 7.35.1)
    long_gun_terrain: frozenset   # terrain codes where a long gun must point fore or aft (MBT 7.20)
    cover_slots: dict             # assault-cover-slots: vehicle, squad, half, section (MBT 7.41)
    spot_fc: dict                 # spotting-modifiers target-full-cover, spotter-full-cover (MBT 6.1.3.2)
    push: dict                    # push-values: success-min, per-5-tons (MBT 7.30)
    narrow: frozenset             # the scenario's narrow road and path hexes (MBT 7.30)
    avlb_span: frozenset          # hexside features an AVLB bridge spans (MBT 7.49)
    mine_forbidden: dict          # terrain code -> FASCAM allowed there (MBT 7.31.1.1-2); other fields never
    ca_extra: dict                # close-combat-extra (MBT 6.6.1.1.2, 6.6.1.2)
    support_terrain: frozenset    # terrain codes subject to support (MBT 6.6.1.1.2)
    cards: dict = field(default_factory=dict)   # card id -> CardMove (filled on first use)
    placeholders: list = field(default_factory=list)
    xc_cache: dict = field(default_factory=dict)  # (traction, weight) -> step table with the limits applied
    avlb_hex: frozenset = frozenset()           # terrain codes whose hexes an AVLB bridge spans (MBT 7.49)
    avlb_values: dict = field(default_factory=dict)  # avlb-values: gpd (MBT 7.49)

    def fingerprint(self) -> str:
        return repr(sorted((k, repr(v)) for k, v in self.__dict__.items()
                           if k not in ("placeholders", "cards", "xc_cache")))


def move_opt(game) -> MoveOpt:
    """The compiled movement optional-rule data of ``game`` (compiled on first use, kept on the game)."""
    mo = game.__dict__.get("_move_opt")
    if mo is None:
        mo = game.__dict__["_move_opt"] = compile_move_opt(game)
    return mo


def used_placeholders(game) -> list:
    """The placeholder tables of the movement rules this game reads: a table of an optional rule that is off is
    not used (the ruleset's ``optional_rules[].tables``)."""
    owner = {t: r.id for r in game.ruleset.optional_rules for t in r.tables}
    return [t for t in move_opt(game).placeholders if t not in owner or game.optional_on(owner[t])]


def compile_move_opt(game) -> MoveOpt:
    rd = TableReader(game.ruleset)
    rows = rd.rows("minefield-effects")
    tid = "minefield-effects"
    eff = {}
    for r in range(len(rows)):
        key = (rd.cell(tid, rows, r, "field", "str"), str(rows[r]["column"]))
        if key[0] not in MINE_FIELDS or key[1] not in MINE_COLUMNS:
            raise DataError(f"table '{tid}' row {r}: field {key[0]!r} / column {key[1]!r} (fields "
                            f"{', '.join(MINE_FIELDS)}; columns GP Defense 1-10 or leg)",
                            f"/tables/{rd.where[tid]}/rows/{r}")
        eff[key] = tuple(rd.cell(tid, rows, r, c, "int") for c in ("damage_max", "track_max", "effective_max"))
    values = rd.keyed("minefield-values", "item", "value", "int")
    brows = rd.rows("bog-ranges")
    bog = {str(b["terrain"]): rd.cell("bog-ranges", brows, r, "bog_max", "int") for r, b in enumerate(brows)}
    qrows = rd.rows("quickmarch-terrain")
    forbidden = _mine_forbidden(rd)
    mo = MoveOpt(eff, values, bog, rd.keyed("bog-modifiers", "item", "value", "int"),
                 rd.keyed("quickmarch-suppression", "grade", "roll_max", "int"),
                 frozenset(str(q["terrain"]) for q in qrows), _minefields(game, values, forbidden=forbidden),
                 *_limits(game),
                 rd.keyed("overrun-values", "item", "value", "int"), *_hull_down(rd), _fire_start(rd),
                 frozenset(str(x["terrain"]) for x in rd.rows("long-gun-terrain")),
                 rd.keyed("assault-cover-slots", "item", "value", "int"), _spot_fc(rd),
                 rd.keyed("push-values", "item", "value", "int"),
                 frozenset(_hex(game, h, "narrow_roads") for h in game.extension.get("narrow_roads") or ()),
                 _avlb_span(rd, "hexside"), forbidden,
                 rd.keyed("close-combat-extra", "item", "value", "int"),
                 frozenset(str(x["terrain"]) for x in rd.rows("support-terrain")))
    mo.avlb_hex = _avlb_span(rd, "hex")
    mo.avlb_values = rd.keyed("avlb-values", "item", "value", "int")
    mo.placeholders = rd.placeholders
    return mo


def _avlb_span(rd: TableReader, kind: str) -> frozenset:
    """The hexside features (``hexside``) or hex terrain codes (``hex``) an AVLB spans (MBT 7.49)."""
    tid = "avlb-span"
    rows = rd.rows(tid)
    out = set()
    for r in range(len(rows)):
        k = rd.cell(tid, rows, r, "kind", "str")
        if k not in ("hexside", "hex"):
            raise DataError(f"table '{tid}' row {r}: kind {k!r} (hexside or hex)", f"/tables/{rd.where[tid]}/rows/{r}")
        if k == kind:
            out.add(rd.cell(tid, rows, r, "feature", "str"))
    return frozenset(out)


def _hull_down(rd: TableReader) -> tuple:
    """The Hull Down tables (MBT 6.1.4.1, 6.5.2.2.3, 6.6.9)."""
    rows = rd.rows("hull-down-ranges")
    ranges = {str(x["terrain"]): rd.cell("hull-down-ranges", rows, r, "hd_max", "int") for r, x in enumerate(rows)}
    terrain = frozenset(str(x["terrain"]) for x in rd.rows("hull-down-terrain"))
    tid = "hull-down-front-side"
    rows = rd.rows(tid)
    front_side: dict = {}
    for r in range(len(rows)):
        front_side.setdefault(rd.cell(tid, rows, r, "position", "str"), set()).add(rd.cell(tid, rows, r, "tens", "int"))
    return (ranges, terrain, rd.keyed("hull-down-modifiers", "item", "value", "int"),
            rd.keyed("hull-down-grade", "grade", "modifier", "int"), {k: frozenset(v) for k, v in front_side.items()})


def _spot_fc(rd: TableReader) -> dict:
    """The Full Cover rows of table spotting-modifiers (MBT 6.1.3.2)."""
    rows = rd.keyed("spotting-modifiers", "id", "modifier", "int")
    want = ("target-full-cover", "spotter-full-cover")
    lost = [k for k in want if k not in rows]
    if lost:
        raise DataError(f"table 'spotting-modifiers' needs rows {', '.join(lost)} (Full Cover, MBT 6.1.3.2)",
                        f"/tables/{rd.where['spotting-modifiers']}/rows")
    return {k: rows[k] for k in want}


def _mine_forbidden(rd: TableReader) -> dict:
    tid = "minefield-terrain"
    rows = rd.rows(tid)
    return {rd.cell(tid, rows, r, "terrain", "str"): rd.cell(tid, rows, r, "fascam", "bool") for r in range(len(rows))}


def plot_problem(game, hexes, forbidden: dict, contiguous: bool = True) -> str:
    """Why a plotted (Hasty or Deliberate) minefield is illegal, or "" (MBT 7.31.1.1): a hex of forbidden terrain,
    or hexes that are not contiguous (unless the scenario says otherwise: ``contiguous`` False)."""
    from studio.hexgrid.coords import distance

    for h in sorted(hexes):
        code = game.map.terrain.get(h, "")
        if code in forbidden:
            return f"hex {game.label(h)} is {code} terrain, where minefields may not be plotted (MBT 7.31.1.1)"
    if not contiguous:
        return ""
    todo, seen = [min(hexes)], {min(hexes)}
    while todo:
        h = todo.pop()
        for x in hexes:
            if x not in seen and distance(h, x) == 1:
                seen.add(x)
                todo.append(x)
    if seen != set(hexes):
        return "its hexes are not contiguous (MBT 7.31.1.1)"
    return ""


def _fire_start(rd: TableReader) -> tuple:
    tid = "fire-start"
    rows = rd.rows(tid)
    return tuple((rd.cell(tid, rows, r, "construction", "str"), rd.cell(tid, rows, r, "gp_min", "int"),
                  rd.cell(tid, rows, r, "gp_max", "int"), rd.cell(tid, rows, r, "roll_max", "int"))
                 for r in range(len(rows)))


def _hex(game, label: str, where: str):
    if label not in game.map.hex_of:
        raise DataError(f"scenario extension {where}: hex {label!r} is not on the scenario's boards")
    return game.map.hex(label)


def _minefields(game, values: dict, plots=None, forbidden=None) -> tuple:
    """The scenario's minefield plots (extension ``minefields``, MBT 7.31.1), or ``plots`` in that form; an illegal
    plot is refused (``plot_problem``)."""
    out = []
    for k, plot in enumerate(game.extension.get("minefields") or () if plots is None else plots):
        where = f"minefields[{k}]"
        if plot["side"] not in game.sides:
            raise DataError(f"scenario extension {where}: side {plot['side']!r} is not a side of the scenario")
        hexes = frozenset(_hex(game, h, where) for h in plot["hexes"])
        why = plot_problem(game, hexes, forbidden, plot.get("contiguous", True)) if forbidden is not None else ""
        if why:
            raise DataError(f"scenario extension {where}: the minefield plot is illegal: {why}")
        gpd = plot.get("gp_defense") or values[f"{plot['field']}-gpd"]
        out.append(Minefield(hexes, plot["field"], plot.get("mines", "both"), game.sides.index(plot["side"]),
                             bool(plot.get("visible", False)), int(gpd)))
    return tuple(out)


def _limits(game, limits=None) -> tuple[dict, dict]:
    """Bridge and ice weight limits by hexside (extension ``weight_limits``, MBT 7.32), or ``limits``."""
    bridge, ice = {}, {}
    for k, lim in enumerate(game.extension.get("weight_limits") or () if limits is None else limits):
        where = f"weight_limits[{k}]"
        a = _hex(game, lim["hex"], where)
        names = coords.FLAT_DIRECTION_NAMES
        if lim["side"] not in names:
            raise DataError(f"scenario extension {where}: hexside {lim['side']!r} (one of {', '.join(names)})")
        b = coords.neighbour(a, names.index(lim["side"]))
        (ice if lim.get("kind") == "ice" else bridge)[edge_key(a, b)] = float(lim["tons"])
    return bridge, ice


def card_move(game, i: int) -> CardMove:
    """The movement facts of unit ``i``'s card (cached per card id)."""
    mo = move_opt(game)
    ut = game.units[i].type
    cm = mo.cards.get(ut.id)
    if cm is None:
        cm = mo.cards[ut.id] = _card_move(game.index.model("unit", ut.id))
    return cm


def _card_move(card) -> CardMove:
    if card is None:
        return CardMove()
    b = card.body.model_dump() if hasattr(card.body, "model_dump") else dict(card.body)
    general = b.get("general") or {}
    leg_mv = (b.get("movement_with_weapons") if b.get("attached_weapons") else None) or b.get("movement")
    mv = general.get("movement") or leg_mv or {}  # a section with attached weapons: quickmarch 0 (MBT 6.6.4.1)
    return CardMove(weight=b.get("weight_tons"), avlb=b.get("avlb_tons"), ca_c=bool(b.get("close_assault_c", False)),
                    bog=int(general.get("bog_modifier") or 0),
                    amphibious=bool(mv.get("amphibious", False)), dual=bool(mv.get("dual_driving", False)),
                    plow=bool(general.get("mine_plow", False)), quickmarch=int(mv.get("quickmarch", 0) or 0),
                    long_gun=bool((b.get("notes") or {}).get("long_gun", False)) if isinstance(b.get("notes"), dict)
                    else False)


__all__ = ["Minefield", "MoveOpt", "CardMove", "move_opt", "compile_move_opt", "card_move", "used_placeholders"]
