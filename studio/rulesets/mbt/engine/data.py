"""Compile a scenario, the MBT ruleset document and the unit cards into plain engine data.

Every number comes from ``ruleset.yaml`` (tables read by id) or from the unit cards; nothing here is a table
value. Pydantic models are read once; the hot loop sees only slots objects, tuples, dicts and sets.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from studio.hexgrid import coords
from studio.model.forces import expand_force
from studio.model.maps import AssembledMap, assemble_scenario, edge_key

BANDS = ("P", "S", "M", "L", "E")
FLAT_NAMES = coords.FLAT_DIRECTION_NAMES


class DataError(ValueError):
    pass


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
    msa_fraction: list            # [(command, damaged, sb, fraction)]
    height_change: dict           # levels -> (added, road_added, {traction: allowed})
    turn_cost: dict               # terrain code -> turn cost (None = prohibited)
    overstack: int
    bu_move_cost: int
    initiative_mod: dict
    placeholders: list = field(default_factory=list)


def _rows(ruleset, table_id):
    t = ruleset.table(table_id)
    return t, [dict(zip(t.columns, row)) for row in t.rows]


def compile_tables(ruleset) -> Tables:
    used = []

    def rows(tid):
        t, r = _rows(ruleset, tid)
        if t.placeholder or t.placeholder_rows:
            used.append(tid)
        return r

    sr = rows("spotting-ranges")
    spot_range = {int(r["modifier"]): int(r["V"]) for r in sr}
    sm = {r["id"]: r["modifier"] for r in rows("spotting-modifiers")}
    cov = rows("cover-types")
    hit = rows("ap-hit")
    ap_hit = {}
    for r in hit:
        for b in BANDS:
            ap_hit[(int(r["modifier"]), b)] = int(r[b] or 0)
    am = {r["id"]: r["modifier"] for r in rows("ap-hit-modifiers")}
    pen = [(r["result"], r["min_difference"], r["max_difference"]) for r in rows("ap-penetration-results")]
    de = {r["effect"]: r["value"] for r in rows("damage-effects")}
    msa = [(r["command"], bool(r["damaged"]), r["stabilization"], float(r["fraction"])) for r in rows("msa-fractions")]
    hc = {}
    for r in rows("height-change"):
        hc[int(r["levels"])] = (int(r["added_cost"]), int(r["road_path_added_cost"]),
                                {"t": bool(r["allowed_T"]), "h": bool(r["allowed_H"]), "w": bool(r["allowed_W"])})
    te = {r["code"]: r["turn"] for r in rows("terrain-effects")}
    stack = {r["item"]: r["value"] for r in rows("stacking")}
    ini = {r["grade"]: int(r["modifier"]) for r in rows("initiative")}
    return Tables(spot_range, sm, (int(sm["net-min"]), int(sm["net-max"])),
                  {r["cover"]: int(r["spotting_modifier"]) for r in cov},
                  {r["cover"]: int(r["ap_hit_modifier"]) for r in cov},
                  ap_hit, am, (int(am["net-min"]), int(am["net-max"])), pen,
                  float(de.get("damaged-msa-fraction", 0.5)), msa, hc, te, int(stack["over-stacked-vehicles"]),
                  int(de.get("brew-up-smoke-move-cost", 1)), ini, used)


def unit_type(card) -> UnitType:
    b = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
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


def force_units(force, index) -> list[str]:
    """Unit card ids of a force, in TO&E order (``studio.model.forces`` defines paths and substitutions)."""
    if index.model("toe", force.toe) is None:
        raise DataError(f"TO&E '{force.toe}' is missing")
    return [u.unit for u in expand_force(force, index)]


def facing_of(name: str | None, default: int) -> int:
    if name and name in FLAT_NAMES:
        return FLAT_NAMES.index(name)
    return default


ENTRY_FACING = {"north": 3, "south": 0, "west": 2, "east": 5}


def compile_units(scenario, index, amap: AssembledMap) -> tuple[list[UnitSpec], dict]:
    types: dict[str, UnitType] = {}
    units: list[UnitSpec] = []
    counters: dict[str, int] = {}
    centre_q = sum(h[0] for h in amap.label_of) / max(1, len(amap.label_of))
    for side_i, side in enumerate(scenario.sides):
        for force in side.forces:
            cards = force_units(force, index)
            for k, card_id in enumerate(cards):
                if card_id not in types:
                    card = index.model("unit", card_id)
                    if card is None:
                        raise DataError(f"unit card '{card_id}' is missing")
                    types[card_id] = unit_type(card)
                ut = types[card_id]
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
    return units, types


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


__all__ = ["ApRow", "UnitType", "UnitSpec", "Tables", "compile_tables", "compile_units", "compile_map", "edge_of",
           "edge_key", "BANDS", "DataError"]
