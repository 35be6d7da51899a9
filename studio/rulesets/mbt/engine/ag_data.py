"""Advanced Game data: the Advanced tables of ``ruleset.yaml`` compiled (``AgTables``) and the Advanced fields of a
vehicle card (``AgDefense``, the AP/ATGM/GP rows). Every number comes from the ruleset or the card."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .ag_specs import AP_RESULTS, BANDS, COUNTS, GP_MOD_IDS, GRADES, AG_HIT_IDS, IF_MOD_IDS
from .data import ApRow, DataError, TableReader

ANGLES = ("front", "front_side", "rear_side", "rear")
LOCATIONS = ("TF", "TS", "TR", "HF", "HS", "HR", "TK", "DK")
SPOT_AG_IDS = ("spotter-suppressed", "target-spot-fire-small-arms")


@dataclass
class AgTables:
    """The Advanced Game tables the engine reads, compiled (``Game.data_fingerprint`` covers every field)."""

    init_mod: dict            # grade -> initiative modifier (MBT 6.3.2)
    cmd_range: dict           # grade -> command range (MBT 6.2.1.1)
    available: dict           # grade -> (c1..c9, tens) (MBT 6.2.1.1.1)
    hits_known: dict          # (hit number, rof) -> [(hits, lo, hi)] (MBT 6.5.2.1)
    hits_frac: dict           # rof -> [(hits, fraction)] most hits first (placeholder)
    locations: dict           # (angle, tens) -> (location, hull_star) (MBT 6.5.2.2)
    special: dict             # type -> (operation, value) (MBT 6.5.2.4)
    row_step: int
    era: dict                 # (era, energy, tandem) -> roll_max (MBT 6.5.2.4.2)
    damage_default: dict      # digit -> ND/DM/KO/BU (MBT 6.5.2.6)
    damage_mod: dict          # s-type, minimum
    bail: dict                # ND/DM/TK -> crew value (MBT 6.5.2.7.1)
    grade_ap: dict            # grade -> band -> AP modifier (MBT 6.5.2.5)
    grade_gp: dict            # grade -> band -> GP modifier (MBT 6.5.4.3)
    grade_bail: dict          # grade -> Bail Out modifier
    grade_recovery: dict      # grade -> recovery_max (MBT 6.8.4)
    sight_ap: dict            # sight -> band -> AP modifier
    sight_gp: dict
    sight_range: dict         # sight -> the longest range it works at (MBT 6.5.2.2.5: Ranging MG 20); no row: any
    hit_mod: dict             # ag-hit-modifiers
    gp_mod: dict              # gp-fire-modifiers
    gp_crt: dict              # (gp factor, gp defense) -> (N, S) (MBT 6.5.4.4)
    gp_max: tuple             # (largest factor, largest defense)
    turret_max: int           # gp-vehicle-effects damage-turret-max
    recovery_mod: dict        # suppression-recovery
    suppressed_msa: float     # damage-effects suppressed-msa-fraction (MBT 6.6.2)
    atgm_bands: tuple         # bands in ATGM reading order (MBT 5.1.3.3.2)
    spot_mod: dict            # spotter-suppressed, target-spot-fire-small-arms (MBT 6.1.3)
    spot_size: dict           # S / L -> net modifier -> spotting range (MBT 6.1.3)
    bail_pass: dict           # passenger Bail Out values by carrier result (MBT 6.5.2.7.2)
    passenger_gpd: dict       # passenger GP Defense by transport protection (MBT 6.5.4.2.3)
    if_response: dict         # (observer row, attachment) -> Called IF Response factor (MBT 6.5.1.12)
    if_grade: dict            # grade -> IF RSP modifier (MBT 6.5.1.12.1)
    if_mod: dict              # if-response-modifiers
    grade_hth: dict           # grade -> HTH CA modifier (MBT 6.6.1)
    close: dict               # close-combat values (MBT 6.6.1.1-2)
    aa_mod: dict              # aa-modifiers (MBT 6.7.8.2)
    placeholders: list = field(default_factory=list)

    def fingerprint(self) -> str:
        return repr(sorted((k, repr(v)) for k, v in self.__dict__.items() if k != "placeholders"))


def _grade_rows(rd: TableReader, tid: str, cols: tuple) -> dict:
    rows = rd.rows(tid)
    return {rd.cell(tid, rows, r, "grade", "str"): tuple(rd.cell(tid, rows, r, c, "int") for c in cols)
            for r in range(len(rows))}


def _hits(rd: TableReader) -> tuple[dict, dict]:
    tid = "ap-number-of-hits"
    rows = rd.rows(tid)
    known: dict = {}
    for r in range(len(rows)):
        key = (rd.cell(tid, rows, r, "hit_number", "int"), rd.cell(tid, rows, r, "rof", "str"))
        known.setdefault(key, []).append((rd.cell(tid, rows, r, "hits", "int"),
                                          rd.cell(tid, rows, r, "roll_min", "int"),
                                          rd.cell(tid, rows, r, "roll_max", "int")))
    tid = "ap-hits-by-rof"
    rows = rd.rows(tid)
    frac: dict = {}
    for r in range(len(rows)):
        frac.setdefault(rd.cell(tid, rows, r, "rof", "str"), []).append(
            (rd.cell(tid, rows, r, "hits", "int"), float(rd.cell(tid, rows, r, "max_fraction", "num"))))
    return known, {k: sorted(v, reverse=True) for k, v in frac.items()}


def _locations(rd: TableReader) -> dict:
    """Every angle needs the tens 1..10 exactly once (MBT 6.5.2.2)."""
    tid = "ap-hit-locations"
    rows = rd.rows(tid)
    out: dict = {}
    for r in range(len(rows)):
        angle = rd.cell(tid, rows, r, "angle", "str")
        tens = rd.cell(tid, rows, r, "tens", "int")
        loc = rd.cell(tid, rows, r, "location", "str")
        if angle not in ANGLES or loc not in LOCATIONS or (angle, tens) in out:
            raise DataError(f"table '{tid}' row {r}: angle {angle!r}, tens {tens!r}, location {loc!r} (angles "
                            f"{', '.join(ANGLES)}; each tens 1-10 once per angle; locations {', '.join(LOCATIONS)})",
                            f"/tables/{rd.where[tid]}/rows/{r}")
        out[(angle, tens)] = (loc, rd.cell(tid, rows, r, "hull_star", "bool"))
    lost = [f"{a} {t}" for a in ANGLES for t in range(1, 11) if (a, t) not in out]
    if lost:
        raise DataError(f"table '{tid}' has no row for {', '.join(lost[:4])}", f"/tables/{rd.where[tid]}/rows")
    return out


def _era(rd: TableReader) -> dict:
    tid = "era-effect"
    rows = rd.rows(tid)
    return {(rd.cell(tid, rows, r, "era", "str"), rd.cell(tid, rows, r, "energy", "str"),
             rd.cell(tid, rows, r, "tandem", "bool")): rd.cell(tid, rows, r, "roll_max", "int")
            for r in range(len(rows))}


def _damage_default(rd: TableReader) -> dict:
    tid = "ap-damage-default"
    rows = rd.rows(tid)
    return {rd.cell(tid, rows, r, "digit", "int"): rd.choice(tid, rows, r, "result", AP_RESULTS)
            for r in range(len(rows))}


def _gp_crt(rd: TableReader) -> dict:
    tid = "gp-combat"
    rows = rd.rows(tid)
    return {(rd.cell(tid, rows, r, "gp_factor", "int"), rd.cell(tid, rows, r, "gp_defense", "int")):
            (rd.cell(tid, rows, r, "n_effect", "int"), rd.cell(tid, rows, r, "s_effect", "int"))
            for r in range(len(rows))}


def _keyed_ids(rd: TableReader, tid: str, ids: tuple, col: str = "modifier") -> dict:
    return {k: v for k, v in rd.keyed(tid, "id", col, "int").items() if k in ids}


def _by_band(rows: dict, start: int) -> dict:
    return {k: dict(zip(BANDS, v[start:start + 5])) for k, v in rows.items()}


def compile_ag_tables(ruleset) -> AgTables:
    """The Advanced Game tables of ``ruleset`` (compiled for every game, so the data fingerprint covers them)."""
    rd = TableReader(ruleset)
    known, frac = _hits(rd)
    grade = _grade_rows(rd, "unit-grade-modifiers", tuple(f"ap_{b}" for b in BANDS) +
                        tuple(f"gp_{b}" for b in BANDS) + ("bail_out", "recovery_max", "if_response", "hth_ca"))
    sight = _sight_rows(rd)
    crt = _gp_crt(rd)
    sa = "special-armor"
    sa_rows = rd.rows(sa)
    special = {rd.cell(sa, sa_rows, r, "type", "str"): (rd.cell(sa, sa_rows, r, "operation", "str"),
                                                        float(rd.cell(sa, sa_rows, r, "value", "num")))
               for r in range(len(sa_rows))}
    order = rd.keyed("range-factors", "band", "read_order_atgm", "int")
    spot = {k: v for k, v in rd.keyed("spotting-modifiers", "id", "modifier", "int").items() if k in SPOT_AG_IDS}
    if len(spot) != len(SPOT_AG_IDS):
        raise DataError(f"table 'spotting-modifiers' needs rows {', '.join(SPOT_AG_IDS)} (Advanced Game, MBT "
                        "6.1.3)", "/tables")
    return AgTables(
        init_mod=rd.keyed("initiative", "grade", "modifier", "int"),
        cmd_range=rd.keyed("command-range", "grade", "range", "int"),
        available=_grade_rows(rd, "available-commands", COUNTS),
        hits_known=known, hits_frac=frac, locations=_locations(rd), special=special,
        row_step=max(1, rd.value("special-armor-rows", "row-step", "value", "int")), era=_era(rd),
        damage_default=_damage_default(rd), damage_mod=rd.keyed("ap-damage-modifiers", "id", "value", "int"),
        bail=rd.keyed("bail-out", "result", "crew", "int"),
        grade_ap=_by_band(grade, 0), grade_gp=_by_band(grade, 5),
        grade_bail={k: v[10] for k, v in grade.items()}, grade_recovery={k: v[11] for k, v in grade.items()},
        sight_ap=_by_band(sight, 0), sight_gp=_by_band(sight, 5),
        sight_range={k: v for k, v in rd.keyed("weapon-sight-modifiers", "sight", "max_range", "int?").items()
                     if v is not None},
        hit_mod=_keyed_ids(rd, "ag-hit-modifiers", AG_HIT_IDS), gp_mod=_keyed_ids(rd, "gp-fire-modifiers", GP_MOD_IDS),
        gp_crt=crt, gp_max=(max(f for f, _ in crt), max(d for _, d in crt)),
        turret_max=rd.value("gp-vehicle-effects", "damage-turret-max", "value", "int"),
        recovery_mod=rd.keyed("suppression-recovery", "id", "modifier", "int"),
        suppressed_msa=float(rd.value("damage-effects", "suppressed-msa-fraction", "value", "num")),
        atgm_bands=tuple(sorted((b for b in order if b in BANDS), key=lambda b: order[b])),
        spot_mod=spot, spot_size=_spot_sizes(rd),
        bail_pass=rd.keyed("bail-out-passengers", "result", "value", "int"),
        passenger_gpd=rd.keyed("passenger-gp-defense", "protection", "gp_defense", "int"),
        if_response=_if_response(rd),
        if_grade={k: v[12] for k, v in grade.items()}, grade_hth={k: v[13] for k, v in grade.items()},
        close=rd.keyed("close-combat", "item", "value", "int"),
        aa_mod=rd.keyed("aa-modifiers", "id", "modifier", "int"),
        if_mod=_keyed_ids(rd, "if-response-modifiers", IF_MOD_IDS),
        placeholders=rd.placeholders)


def _spot_sizes(rd: TableReader) -> dict:
    """Spotting ranges of leg and towed units by size (columns L and S, MBT 6.1.3), every clamped modifier."""
    from .data import _by_net

    tid = "spotting-ranges"
    rows = rd.rows(tid)
    sm = rd.keyed("spotting-modifiers", "id", "modifier", "int")
    lo, hi = min(sm["net-min"], sm["net-max"]), max(sm["net-min"], sm["net-max"])
    out = {}
    for size in ("L", "S"):
        if size not in rows[0]:
            raise DataError(f"table '{tid}' needs column {size} (Advanced Game, MBT 6.1.3)",
                            f"/tables/{rd.where[tid]}/columns")
        col = {rd.cell(tid, rows, r, "modifier", "int"): rd.cell(tid, rows, r, size, "int") for r in range(len(rows))}
        out[size] = _by_net(col, lo, hi)
    return out


def _if_response(rd: TableReader) -> dict:
    """(observer row, attachment) -> Called IF Response factor (MBT 6.5.1.12)."""
    tid = "called-if-response"
    rows = rd.rows(tid)
    return {(rd.cell(tid, rows, r, "observer", "str"), col): rd.cell(tid, rows, r, col, "int")
            for r in range(len(rows)) for col in ("attached", "organic", "unattached")}


def _sight_rows(rd: TableReader) -> dict:
    tid = "weapon-sight-modifiers"
    rows = rd.rows(tid)
    cols = tuple(f"ap_{b}" for b in BANDS) + tuple(f"gp_{b}" for b in BANDS)
    return {rd.cell(tid, rows, r, "sight", "str"): tuple(rd.cell(tid, rows, r, c, "int") for c in cols)
            for r in range(len(rows))}


# ------------------------------------------------------------------ cards

@dataclass(slots=True)
class AgDefense:
    """The Advanced defensive data of a vehicle card (MBT 6.5.2.3-6.5.2.4, 6.5.4.2.1)."""

    gp_value: int
    target_type: str                  # A, P, S
    armor: dict | None                # angle -> elevation -> location -> value (None = not on the card)
    deck: int | None
    special: dict                     # location -> (ce multiplier or None, era or None, front only)
    recon: bool
    unarmed: bool
    leg: bool = False                 # a leg unit (MBT 5.1): GP Defense by cover, spotted by size
    size: str = "V"                   # spotting size: V vehicles, S or L leg units (MBT 6.1.3)
    gpd_cover: dict | None = None     # leg GP Defense by cover (MBT 6.5.4.2.2)
    squad: bool = False               # a squad with a half-squad to be reduced to (MBT 5.1.1)
    capacity_leg: int = 0             # leg Transport Capacity of a vehicle (TR t-l, MBT 6.6.7.1)
    passenger_leg: int = 0            # leg component a leg unit needs as a passenger
    protection: str = "none"          # under_armor, under_cover or none (MBT 6.5.4.2.3)
    labels: tuple = ()                # Command, Recon, Engineer, FO (MBT 5.9)
    leg_size: str = ""                # squad, half_squad, section (MBT 5.1)
    if_rows: tuple = ()               # GP-IF rows (on-map indirect fire, MBT 6.5.1)
    heli: bool = False                # a helicopter (MBT 5.4.2, 6.7)
    flamethrower: str = ""            # weapon id of an attached flamethrower, "" none (MBT 5.1.3.7)


@dataclass(slots=True)
class AtgmSpec:
    penetration: int
    tandem: bool
    gp: int
    cl: int
    speed: int


def ag_defense(body: dict) -> AgDefense:
    d = body["defensive"]
    gp = d.get("gp_defense") or {"value": 1, "target_type": "A"}
    armor = d.get("armor_ag")
    table = None
    if armor:
        table = {a: {e: dict(armor[a][e]) for e in ("level", "rising", "falling")} for a in ANGLES}
    special = {loc: (s.get("ce_multiplier"), s.get("era"), bool(s.get("era_front_only")))
               for loc, s in (d.get("special_armor") or {}).items()}
    general = body.get("general") or {}
    return AgDefense(int(gp["value"]), gp["target_type"], table, armor.get("deck") if armor else None, special,
                     "recon" in (body.get("labels") or ()), bool(body.get("unarmed", False)),
                     capacity_leg=int((general.get("transport") or {}).get("leg", 0)),
                     protection=general.get("transport_protection") or "none",
                     labels=tuple(body.get("labels") or ()), if_rows=if_rows(body))


def _bands(values) -> tuple:
    return tuple((values or {}).get(b) for b in BANDS)


def ag_rows(body: dict) -> tuple:
    """AP, ATGM and GP rows of a vehicle card (MBT 6.5.2, 5.1.3.3, 6.5.4.1): the Basic row fields plus kind,
    energy, ROF, sight, GP factors, ATGM factors and AP Damage (the row's; ``card_damage`` the card-level AP
    Damage, else the weapon's first row that gives one, for option ap-damage-source). Rows without ranges are
    skipped."""
    rows = []
    card_level = tuple(body["ap_damage"]) if body.get("ap_damage") else None
    for w in body.get("weapons", []):
        tt = int(w["tt_factor"])
        turreted = tt in (1, 2, 3, 360)
        gpe = (w.get("gp_effectiveness") or {}).get("max", 0)
        card_damage = card_level or next((tuple(a["ap_damage"]) for a in w["ammo"] if a.get("ap_damage")), None)
        for a in w["ammo"]:
            row = _ag_row(w, a, tt, turreted, gpe, card_damage)
            if row is not None:
                rows.append(row)
    return tuple(rows)


def if_rows(body: dict) -> tuple:
    """The GP-IF rows of a card's weapons (MBT 5.1.3.1, 6.5.1), as GP rows of kind ``IF``."""
    out = []
    for w in body.get("weapons", []):
        gpe = (w.get("gp_effectiveness") or {}).get("max", 0)
        for a in w["ammo"]:
            if a["kind"] != "GP-IF":
                continue
            row = _ag_row(w, dict(a, kind="GP"), int(w["tt_factor"]), True, gpe, None)
            if row is not None:
                out.append(dataclasses.replace(row, kind="IF", key=row.key + ":IF", arc=360))
    return tuple(out)


def _pens(kind: str, a: dict) -> tuple | None:
    """Penetration per band: AP rows by band, ATGMs their fixed factor (MBT 5.1.3.3.1), GP rows none (0)."""
    if kind == "AP":
        pens = _bands(a.get("penetration"))
        return None if all(v is None for v in pens) else pens
    if kind == "ATGM":
        return (int(a["atgm"]["penetration"]),) * 5 if a.get("atgm") else None
    return None if all(v is None for v in _bands(a.get("gp_factor"))) else (0,) * 5


def _atgm_spec(a: dict) -> AtgmSpec:
    atgm = a["atgm"]
    return AtgmSpec(int(atgm["penetration"]), bool(atgm.get("tandem")), int(atgm.get("gp", 0)),
                    int(atgm["guidance_class"]), int(atgm["speed"]))


def _ag_row(w: dict, a: dict, tt: int, turreted: bool, gpe: int, card_damage) -> ApRow | None:
    rng = _bands(a["range"])
    if all(v is None for v in rng) or a["kind"] == "GP-IF":
        return None  # GP-IF rows are indirect fire (MBT 5.1.3.1, 6.5.1), not a direct-fire row
    kind = {"AP": "AP", "ATGM": "ATGM"}.get(a["kind"], "GP")
    pens = _pens(kind, a)
    if pens is None:
        return None
    sight = (a.get("sight") or w.get("sight") or {}).get("primary", "O")
    spec = _atgm_spec(a) if kind == "ATGM" else None
    restr = w.get("restrictions") or {}
    no_sh = bool(restr.get("no_short_halt")) or (spec is not None and spec.cl >= 3)  # MBT 5.1.3.3.3
    return ApRow(f"{w['id']}:{a['ammo_type'].replace(' ', '_')}", w["id"], a["ammo_type"], rng, pens,
                 max(v for v in rng if v is not None), int(w.get("min_range", 1)), 360 if turreted else tt,
                 a.get("fof_side") == "rear", turreted, bool(w.get("cis", False)), kind=kind,
                 energy=a.get("energy") or ("CE" if kind == "ATGM" else None), rof=w.get("rof", "N"), sight=sight,
                 small_arms=bool(w.get("small_arms")) and w.get("weapon_type") != "mortar",  # MBT 5.1.3.1
                 spot_small_arms=bool(w.get("small_arms")), coax=bool(w.get("coax_mg")), gp=_bands(a.get("gp_factor")),
                 gpe=int(gpe or 0), atgm=spec, ap_damage=tuple(a["ap_damage"]) if a.get("ap_damage") else None,
                 card_damage=card_damage, no_short_halt=no_sh, aa=bool(w.get("aa")),
                 aa_mod=int((w.get("aa") or {}).get("modifier", 0)), sb=w.get("stabilization"))


__all__ = ["AgTables", "compile_ag_tables", "AgDefense", "AtgmSpec", "ag_defense", "ag_rows", "ANGLES", "GRADES"]
