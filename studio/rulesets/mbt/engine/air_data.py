"""Compiled data of the MBT air rules: the air tables of ``ruleset.yaml`` (``AirTables``), the fixed-wing aircraft
of the scenario (extension ``aircraft`` with its loads and PGM fits, MBT 6.7.1) and the AA profile of each AA
weapon (radar, SAM, High Altitude, MBT 6.7.8). Every number comes from the ruleset or a card."""
from __future__ import annotations

from dataclasses import dataclass, field

from .air_specs import AA_MOD_IDS, AIR_ALTITUDES, AIR_VALUE_IDS, AIRCRAFT_MOD_IDS, PATTERN_KINDS, RAPPEL_MOD_IDS
from .data import DataError, TableReader

#: the altitudes each load kind is delivered from (MBT 6.7.3.2-6.7.3.7); strafing is Low only (6.7.3.2)
LOAD_ALTITUDES = {"bomb": ("medium", "high"), "high_drag_bomb": ("low",), "incendiary_bomb": ("medium", "high"),
                  "cluster_bomb": ("medium", "high"), "rockets": ("low",), "FASCAM": ("medium", "high"),
                  "ARM": AIR_ALTITUDES}
#: loads that may be fitted as PGMs (iron and cluster bombs, MBT 6.7.3.7)
PGM_KINDS = ("bomb", "cluster_bomb")


@dataclass
class AirTables:
    """The air tables compiled (``MbtGame.data_fingerprint`` covers every field)."""

    spotting: dict            # (speed, altitude) -> (acquire, track); ("helicopter", "noe-low") (MBT 6.7.3.1.1)
    los_base: dict            # altitude -> base height of the aircraft LOS (MBT 6.7.3.1.3)
    fw_mod: dict              # aircraft-modifiers (MBT 6.7.3.8)
    aa_mod: dict              # aa-modifiers rows (MBT 6.7.8.2)
    patterns: dict            # (kind, altitude) -> (length, width) (MBT 6.7.3.3-6.7.3.6)
    values: dict              # air-values
    landing: frozenset        # terrain codes helicopters may land in (MBT 6.7.5.3.1)
    flight: object = None     # heli_manoeuvre.FlightRules: manoeuvre costs, side-slip minimum (MBT 6.7.5.2)
    rappel_mod: dict = field(default_factory=dict)      # rappel-modifiers (MBT 6.7.5.3.4)
    rappel_terrain: dict = field(default_factory=dict)  # terrain code -> modifier, None = no rappelling there
    under_fire: dict = field(default_factory=dict)      # ATGM guidance class -> Under Fire AP modifier (5.1.3.3.6)
    placeholders: list = field(default_factory=list)

    def fingerprint(self) -> str:
        return repr(sorted((k, repr(v)) for k, v in self.__dict__.items() if k != "placeholders"))


def compile_air_tables(ruleset) -> AirTables:
    """The air tables of ``ruleset``; a missing row or a bad cell is a :class:`DataError` with its pointer."""
    rd = TableReader(ruleset)
    tid = "aa-aircraft-spotting"
    rows = rd.rows(tid)
    spotting = {(rd.cell(tid, rows, r, "speed", "str"), rd.cell(tid, rows, r, "altitude", "str")):
                (rd.cell(tid, rows, r, "acquire", "int"), rd.cell(tid, rows, r, "track", "int"))
                for r in range(len(rows))}
    lost = [f"{s}/{a}" for s in ("slow", "fast") for a in AIR_ALTITUDES if (s, a) not in spotting]
    lost += [] if ("helicopter", "noe-low") in spotting else ["helicopter/noe-low"]
    if lost:
        raise DataError(f"table '{tid}' has no row {', '.join(lost)} (MBT 6.7.3.1.1, 6.7.8.1.1)",
                        f"/tables/{rd.where[tid]}/rows")
    tid = "fw-bomb-patterns"
    rows = rd.rows(tid)
    patterns = {(rd.cell(tid, rows, r, "kind", "str"), rd.cell(tid, rows, r, "altitude", "str")):
                (max(1, rd.cell(tid, rows, r, "length", "int")), max(0, rd.cell(tid, rows, r, "width", "int")))
                for r in range(len(rows))}
    lost = [f"{k}/{a}" for k in PATTERN_KINDS for a in LOAD_ALTITUDES[k] if (k, a) not in patterns]
    if lost:
        raise DataError(f"table '{tid}' has no row {', '.join(lost)} (MBT 6.7.3.3-6.7.3.6)",
                        f"/tables/{rd.where[tid]}/rows")
    aa = rd.keyed("aa-modifiers", "id", "modifier", "int")
    missing = [k for k in AA_MOD_IDS if k not in aa]
    if missing:
        raise DataError(f"table 'aa-modifiers' has no row {', '.join(missing)} (MBT 6.7.8.2)", "/tables")
    values = {k: v for k, v in rd.keyed("air-values", "item", "value", "int").items() if k in AIR_VALUE_IDS}
    return AirTables(spotting=spotting, los_base=rd.keyed("aircraft-los", "altitude", "base_height", "int"),
                     fw_mod={k: v for k, v in rd.keyed("aircraft-modifiers", "id", "modifier", "int").items()
                             if k in AIRCRAFT_MOD_IDS},
                     aa_mod={k: aa[k] for k in AA_MOD_IDS}, patterns=patterns, values=values,
                     landing=_landing(rd), flight=_flight(rd, values), rappel_mod=_rappel_mod(rd),
                     rappel_terrain=_rappel_terrain(rd), under_fire=_under_fire(rd), placeholders=rd.placeholders)


def _flight(rd: TableReader, values: dict):
    """Helicopter manoeuvre costs (table heli-movement-costs) and the side-slip minimum (MBT 6.7.5.2)."""
    from .heli_manoeuvre import MANOEUVRES, FlightRules

    costs = rd.keyed("heli-movement-costs", "manoeuvre", "cost", "int")
    missing = [k for k in MANOEUVRES if k not in costs]
    if missing or "heli-slip-min" not in values:
        raise DataError(f"table 'heli-movement-costs' has no row {', '.join(missing)} or air-values no "
                        "heli-slip-min (MBT 6.7.5.2)", "/tables")
    return FlightRules({k: max(1, costs[k]) for k in MANOEUVRES}, max(1, values["heli-slip-min"]))


def _rappel_mod(rd: TableReader) -> dict:
    mods = rd.keyed("rappel-modifiers", "item", "modifier", "int")
    missing = [k for k in RAPPEL_MOD_IDS if k not in mods]
    if missing:
        raise DataError(f"table 'rappel-modifiers' has no row {', '.join(missing)} (MBT 6.7.5.3.4)", "/tables")
    return {k: mods[k] for k in RAPPEL_MOD_IDS}


def _rappel_terrain(rd: TableReader) -> dict:
    tid = "rappel-terrain"
    rows = rd.rows(tid)
    return {rd.cell(tid, rows, r, "terrain", "str"): rd.cell(tid, rows, r, "modifier", "int?")
            for r in range(len(rows))}


def _under_fire(rd: TableReader) -> dict:
    tid = "atgm-under-fire"
    rows = rd.rows(tid)
    return {rd.cell(tid, rows, r, "cl", "int"): rd.cell(tid, rows, r, "ap", "int") for r in range(len(rows))}


def _landing(rd: TableReader) -> frozenset:
    tid = "heli-landing-terrain"
    rows = rd.rows(tid)
    return frozenset(rd.cell(tid, rows, r, "terrain", "str") for r in range(len(rows)))


# ------------------------------------------------------------------ fixed-wing aircraft of the scenario

@dataclass(frozen=True, slots=True)
class Load:
    """One weapon load carried (MBT 6.7.1): ``key`` the load id (``+pgm`` when fitted as a PGM, 6.7.3.7)."""

    key: str
    kind: str
    name: str
    gp: int
    attacks: int
    pgm: bool
    rng: tuple | None         # rockets (min, max) hexes (MBT 6.7.3.4)
    modifier: int             # data-card load modifier (MBT 6.7.3.8)


@dataclass(frozen=True, slots=True)
class Aircraft:
    """A fixed-wing aircraft of the scenario (``A-10A-1``) with the loads it carries for the whole scenario."""

    name: str
    side: int
    card: str
    crew: int
    gpd: int
    target_type: str
    strafe_name: str
    strafe_gp: int
    strafe_attacks: int
    loads: tuple              # Load per load carried
    ecm: bool                 # an ECM Pod load (spoofing, MBT 6.7.8.2.1)
    drop_tanks: int           # +3 loiter turns each (MBT 6.7.2.1)
    first_turn: int
    last_turn: int | None
    speeds: tuple
    altitudes: tuple


def compile_aircraft(game) -> list[Aircraft]:
    """The scenario's fixed-wing aircraft (extension ``aircraft``): ``count`` copies named after the card's short
    name; the ``pgm`` ids fit that many of the listed loads as PGMs (MBT 6.7.3.7)."""
    out: list[Aircraft] = []
    counters: dict[str, int] = {}
    for e, entry in enumerate(game.extension.get("aircraft") or ()):
        if entry["side"] not in game.sides:
            continue
        card = game.index.model("unit", entry["aircraft"])
        if card is None or getattr(card, "category", "") != "fixed_wing":
            raise DataError(f"scenario aircraft '{entry['aircraft']}' is not a fixed_wing card",
                            f"/extension/aircraft/{e}/aircraft")
        body = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
        loads = _loads(body, entry, e)
        prefix = (card.short_name or card.name).split()[0]
        for _ in range(int(entry.get("count", 1))):
            counters[prefix] = counters.get(prefix, 0) + 1
            out.append(Aircraft(
                f"{prefix}-{counters[prefix]}", game.sides.index(entry["side"]), card.id, int(body.get("crew", 1)),
                int(body["gp_defense"]["value"]), body["gp_defense"]["target_type"], body["strafe"]["name"],
                int(body["strafe"]["gp_factor"]), int(body["strafe"]["attacks"]), loads,
                any(x.kind == "ECM_pod" for x in loads), sum(1 for x in loads if x.kind == "drop_tank"),
                int(entry.get("first_turn", 1)), entry.get("last_turn"), tuple(body.get("speeds") or ("slow", "fast")),
                tuple(body.get("altitudes") or AIR_ALTITUDES)))
    return out


def _loads(body: dict, entry: dict, e: int) -> tuple:
    by_id = {x["id"]: x for x in body.get("loads") or ()}
    pgm_left = list(entry.get("pgm") or ())
    out = []
    for j, lid in enumerate(entry.get("loads") or ()):
        x = by_id.get(lid)
        if x is None:
            raise DataError(f"load '{lid}' is not on card '{entry['aircraft']}'", f"/extension/aircraft/{e}/loads/{j}")
        pgm = lid in pgm_left
        if pgm:
            pgm_left.remove(lid)
            if x["kind"] not in PGM_KINDS or x.get("pgm_points") is None:
                raise DataError(f"load '{lid}' ({x['kind']}) cannot be fitted as a PGM (iron and cluster bombs with "
                                "PGM points, MBT 6.7.3.7)", f"/extension/aircraft/{e}/pgm")
        rng = tuple(int(v) for v in x["range"].split("-")) if x.get("range") else None
        out.append(Load(lid + ("+pgm" if pgm else ""), x["kind"], x.get("name") or lid, int(x.get("gp_factor") or 0),
                        int(x.get("attacks", 1)), pgm, rng, int(x.get("modifier", 0))))
    if pgm_left:
        raise DataError(f"PGM fit(s) {', '.join(pgm_left)} name no load carried", f"/extension/aircraft/{e}/pgm")
    return tuple(out)


# ------------------------------------------------------------------ AA weapons

@dataclass(frozen=True, slots=True)
class AaProfile:
    """What the AA rules read of an AA weapon (MBT 6.7.8.1): radar tracking, Limited Radar Tracking, N/A vs High
    Altitude, and the SAM data (aspect MT/MA, guidance, CM rating)."""

    radar: bool
    limited: bool
    high_na: bool
    sam: tuple | None         # (aspect, guidance, cm rating or None)


def aa_profile(game, card_id: str, weapon: str) -> AaProfile:
    """The AA profile of ``weapon`` on card ``card_id``: a unit card's weapon or a crew-served card's (cached on
    the game)."""
    cache = game.__dict__.setdefault("_aa_profiles", {})
    key = (card_id, weapon)
    if key not in cache:
        card = game.index.model("unit", card_id)
        body = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
        weapons = list(body.get("weapons") or ()) + ([body["weapon"]] if body.get("weapon") else [])
        w = next(x for x in weapons if x["id"] == weapon)
        aa = w.get("aa") or {}
        sight = w.get("sight") or {}
        sam = aa.get("sam")
        cache[key] = AaProfile(bool(aa.get("radar")) and "R" in (sight.get("primary"), sight.get("secondary")),
                               bool(aa.get("limited_radar_tracking")), bool(aa.get("high_altitude_na")),
                               (sam["aspect"], sam["guidance"], sam.get("cm_rating")) if sam else None)
    return cache[key]


def row_profile(game, s: int, row) -> AaProfile:
    """The AA profile of unit ``s``'s fire row ``row``: its own card's weapon, or for an attached crew-served weapon
    (a MANPADS of a squad, MBT 5.1.3.6) the crew-served card's (``ApRow.card``)."""
    return aa_profile(game, row.card or game.units[s].type.id, row.weapon)


__all__ = ["AirTables", "compile_air_tables", "Aircraft", "Load", "compile_aircraft", "AaProfile", "aa_profile",
           "row_profile",
           "LOAD_ALTITUDES", "PGM_KINDS"]
