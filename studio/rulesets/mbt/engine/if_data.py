"""Indirect-fire data: the tables of ``if_specs.IF_TABLES`` compiled, and what the cards and the scenario say about
smoke, special missions, Pre-Registered Points, Planned Fire plots and counter-battery assets (MBT 5.16.2, 6.5.1,
6.1.4.3.10, 7.9, 7.22, 7.28). Every number comes from the ruleset, a card or the scenario."""
from __future__ import annotations

from dataclasses import dataclass, field

from .data import DataError, TableReader
from .if_specs import HINDRANCE_IDS, IF_VALUE_IDS, OBSERVER_GRADES, OPT_VALUE_IDS

#: special fire mission -> ammo limit prefix (MBT 5.16.2.4)
MISSION_PREFIX = {"smoke": "S", "illumination": "I", "ICM": "C", "FASCAM": "M", "CLGP": "P"}
#: the SHEAFs each mission type may use (MBT 6.5.1.6.1-4; CLGP the one-hex On-Map/CLGP SHEAF)
MISSION_SHEAFS = {"GP": ("closed", "open", "linear"), "smoke": ("closed", "open", "linear"),
                  "illumination": ("closed",), "FASCAM": ("closed",), "ICM": ("open",), "CLGP": ("onmap",)}


@dataclass(frozen=True, slots=True)
class PlanSegment:
    """One part of a Planned Fire plot (MBT 6.5.1.11.1)."""

    mission: str
    sheaf: str                # closed, open, linear
    hex: tuple
    turns: int
    direction: int = 0        # the Closed Linear SHEAF's hexside


@dataclass(frozen=True, slots=True)
class Plan:
    """A Planned Fire plot of one off-map battery (MBT 6.5.1.11): arrives on ``turn`` (announced 1 turn early or
    late, 6.5.1.11.2), then its segments in order."""

    side: int
    battery: int
    turn: int
    segments: tuple

    @property
    def length(self) -> int:
        return sum(s.turns for s in self.segments)

    def segment_at(self, k: int) -> PlanSegment | None:
        """The segment of the plot's ``k``-th turn (0 = arrival), or None past its end."""
        for seg in self.segments:
            if k < seg.turns:
                return seg
            k -= seg.turns
        return None


@dataclass(frozen=True, slots=True)
class BatteryFacts:
    """What an off-map battery's card and assignment give (MBT 5.16.2.4, 6.5.1.6, 7.28.2)."""

    missions: frozenset
    limits: dict             # ammo limit prefix -> value
    specials: dict           # prefix -> special fire missions allocated by the scenario (absent = unlimited)
    self_propelled: bool
    location_max: int | None  # counter-battery location range (None: the card gives no counter-battery data)
    victory_points: int = 0   # awarded to the opposing side when Knocked Out by counter battery (MBT 7.28.2)


@dataclass(frozen=True, slots=True)
class CbAsset:
    """A dedicated counter-battery unit of a side (MBT 7.28) with its card's facts: location range when an
    opposing asset tries to locate it (7.28.3), self-propelled, victory points when eliminated."""

    name: str
    side: int
    location_max: int | None = None
    self_propelled: bool = False
    victory_points: int = 0


@dataclass
class IfData:
    """Compiled indirect-fire data of a game (``MbtGame.ifd``)."""

    hind: dict                # hindrance id -> (ap, gp) (MBT 6.5.2.5, 6.5.4.3, 7.36.4.3)
    val: dict                 # indirect-fire-values
    capacity: dict            # (observer row, grade) -> distinct sources (MBT 6.5.1.1.1)
    opt: dict                 # artillery-optional-values (MBT 7.x); air-burst-terrain: terrain codes (7.38)
    smoke_units: frozenset    # unit indices whose weapons fire smoke (SMK, MBT 6.1.4.3.10)
    smoke_limit: dict         # unit index -> S ammo limit of its smoke weapon (MBT 5.16.2.2)
    ds_limit: dict            # unit index -> Smoke Discharger limit D (MBT 7.9)
    smoke_reach: dict         # unit index -> (range, arc) of its direct-fire smoke (MBT 6.1.4.3.10)
    designators: frozenset    # unit indices with a Laser Designator (D) sight (CLGP, MBT 6.5.1.13.3)
    batteries: tuple          # BatteryFacts per game.batteries entry
    pre_registered: frozenset  # (side, hex, battery card id or '') (MBT 6.5.1.4)
    plans: tuple              # Plan per scenario plot (MBT 6.5.1.11)
    cb_assets: tuple          # CbAsset (MBT 7.28)
    placeholders: list = field(default_factory=list)

    def fingerprint(self) -> str:
        return repr(sorted((k, repr(v)) for k, v in self.__dict__.items() if k != "placeholders"))


def _pairs(rd: TableReader, tid: str, col: str = "value") -> dict:
    rows = rd.rows(tid)
    return {rd.cell(tid, rows, r, "id", "str"): rd.cell(tid, rows, r, col, "int") for r in range(len(rows))}


def compile_if_tables(ruleset) -> tuple[dict, dict, dict, dict, list]:
    """The four tables of ``IF_TABLES`` (raises :class:`DataError` with the table's pointer)."""
    rd = TableReader(ruleset)
    tid = "hindrance-modifiers"
    rows = rd.rows(tid)
    hind = {rd.cell(tid, rows, r, "id", "str"): (rd.cell(tid, rows, r, "ap", "int"), rd.cell(tid, rows, r, "gp", "int"))
            for r in range(len(rows))}
    val = _pairs(rd, "indirect-fire-values")
    tid = "observer-capacity"
    rows = rd.rows(tid)
    capacity = {(rd.cell(tid, rows, r, "observer", "str"), g): rd.cell(tid, rows, r, g, "int")
                for r in range(len(rows)) for g in OBSERVER_GRADES}
    opt = _pairs(rd, "artillery-optional-values")
    tid = "air-burst-terrain"
    rows = rd.rows(tid)
    opt["air-burst-terrain"] = frozenset(rd.cell(tid, rows, r, "terrain", "str") for r in range(len(rows)))
    assert set(HINDRANCE_IDS) <= set(hind) and set(IF_VALUE_IDS) <= set(val) and set(OPT_VALUE_IDS) <= set(opt)
    return hind, val, capacity, opt, list(rd.placeholders)


def _body(game, card_id: str) -> dict:
    card = game.index.model("unit", card_id)
    if card is None:
        return {}
    body = card.body
    return body.model_dump() if hasattr(body, "model_dump") else dict(body)


def _smoke_reach(weapons: list) -> tuple[int, int] | None:
    """(longest GP range, Field-of-Fire arc) of the first SMK weapon, or None (MBT 6.1.4.3.10: as GP)."""
    for w in weapons:
        if w.get("smoke_capable"):
            reach = [v for a in w.get("ammo") or () if a.get("kind") in ("GP", "GP-DF")
                     for v in (a.get("range") or {}).values() if v is not None]
            return (max(reach) if reach else 0, int(w.get("tt_factor") or 360))
    return None


def _unit_smoke(game) -> tuple[frozenset, dict, dict, dict]:
    """Per unit: fires smoke (a weapon marked SMK), its S limit, its Smoke Discharger D limit (MBT 5.16.2), and
    the direct-fire smoke reach (range, arc) of its SMK weapon."""
    smoke, s_limit, d_limit, reach, seen = set(), {}, {}, {}, {}
    for i, u in enumerate(game.units):
        key = u.type.id
        if key not in seen:
            weapons = _body(game, key).get("weapons") or []
            lim = {a["prefix"]: a["value"] for w in weapons for a in w.get("ammo_limits") or ()}
            seen[key] = (_smoke_reach(weapons), lim.get("S"), lim.get("D"))
        smk, s, d = seen[key]
        if smk is not None:
            smoke.add(i)
            reach[i] = smk
            if s is not None:
                s_limit[i] = s
        if d is not None:
            d_limit[i] = d
    return frozenset(smoke), s_limit, d_limit, reach


def _designator(game, card_id: str) -> bool:
    """A Laser Designator: the card's flag or a D sight on a weapon (MBT 6.5.1.13.3)."""
    body = _body(game, card_id)
    if body.get("laser_designator"):
        return True
    sights = [w.get("sight") or {} for w in body.get("weapons") or ()]
    return any("D" in (s.get("primary") or "") + (s.get("secondary") or "") for s in sights)


def _battery_facts(game) -> tuple:
    out = []
    entries = {e["battery"]: e for e in game.extension.get("artillery") or ()}
    for bat in game.batteries:
        body = _body(game, bat.card)
        lim = {a["prefix"]: a["value"] for a in (body.get("weapon") or {}).get("ammo_limits") or ()}
        cb = body.get("counter_battery") or None
        entry = entries.get(bat.card, {})
        out.append(BatteryFacts(frozenset(body.get("missions") or ("GP",)), lim,
                                dict(entry.get("special_missions") or {}), bool(body.get("self_propelled")),
                                cb["location_max"] if cb else None, int((cb or {}).get("victory_points") or 0)))
    return tuple(out)


def _hex(game, label: str, where: str):
    h = game.map.hex_of.get(label)
    if h is None:
        raise DataError(f"{where}: hex {label!r} is not on the map", "/extension")
    return h


def _check_plot(k: int, segs: tuple, values: dict) -> None:
    """MBT 6.5.1.11.1 (M145, M146): at most planned-max-turns turns, no CLGP, each type in a SHEAF it may use."""
    where = f"/extension/planned_fire/{k}"
    total = sum(s.turns for s in segs)
    if total > values["planned-max-turns"]:
        raise DataError(f"planned_fire {k}: {total} turns (a plot runs at most {values['planned-max-turns']}, "
                        "MBT 6.5.1.11.1)", where)
    for j, seg in enumerate(segs):
        if seg.mission == "CLGP" or seg.mission not in MISSION_SHEAFS or seg.sheaf not in MISSION_SHEAFS[seg.mission]:
            raise DataError(f"planned_fire {k} segment {j}: {seg.mission} in a {seg.sheaf} SHEAF (CLGP is never "
                            "planned; ICM only Open; illumination and FASCAM only Closed, MBT 6.5.1.6, 6.5.1.11.1)",
                            f"{where}/segments/{j}")


def _plans(game, values: dict) -> tuple:
    """Planned Fire plots (MBT 6.5.1.11.1): each names a battery of its side; at most planned-max-turns turns."""
    out = []
    for k, p in enumerate(game.extension.get("planned_fire") or ()):
        if p["side"] not in game.sides:
            continue
        side = game.sides.index(p["side"])
        bats = [b for b, bat in enumerate(game.batteries) if bat.side == side and bat.card == p["battery"]]
        if not bats:
            raise DataError(f"planned_fire {k}: the side {p['side']!r} has no battery {p['battery']!r} "
                            "(extension.artillery)", f"/extension/planned_fire/{k}")
        used = sum(1 for q in out if q.side == side and q.battery in bats)
        segs = tuple(PlanSegment(s["mission"], "linear" if s["sheaf"] == "closed_linear" else s["sheaf"],
                                 _hex(game, s["hex"], f"planned_fire {k}"), s["turns"], s.get("direction", 0))
                     for s in p["segments"])
        _check_plot(k, segs, values)
        out.append(Plan(side, bats[min(used, len(bats) - 1)], p["turn"], segs))
    return tuple(out)


def _cb_assets(game) -> tuple:
    """Counter-battery assets of the scenario (MBT 7.28; extension ``counter_battery``)."""
    out = []
    for entry in game.extension.get("counter_battery") or ():
        if entry["side"] not in game.sides:
            continue
        body = _body(game, entry["battery"])
        cb = body.get("counter_battery") or {}
        for _ in range(int(entry.get("count", 1))):
            out.append(CbAsset(f"CB-{entry['battery']}-{len(out) + 1}", game.sides.index(entry["side"]),
                               cb.get("location_max"), bool(body.get("self_propelled")),
                               int(cb.get("victory_points") or 0)))
    return tuple(out)


def compile_if_data(game) -> IfData:
    """The indirect-fire data of an Advanced game."""
    hind, val, capacity, opt, placeholders = compile_if_tables(game.ruleset)
    smoke, s_limit, d_limit, reach = _unit_smoke(game)
    designators = frozenset(i for i, u in enumerate(game.units) if _designator(game, u.type.id))
    pre = frozenset((game.sides.index(p["side"]), _hex(game, p["hex"], "pre_registered"), b)
                    for p in game.extension.get("pre_registered") or () if p["side"] in game.sides
                    for b in (p.get("batteries") or [""]))
    return IfData(hind, val, capacity, opt, smoke, s_limit, d_limit, reach, designators, _battery_facts(game), pre,
                  _plans(game, val), _cb_assets(game), placeholders)


def if_data(game) -> IfData:
    """The compiled indirect-fire data of ``game`` (compiled on first use, kept on the game with its unit list:
    a position's copy of the game with other units compiles its own)."""
    cached = game.__dict__.get("_ifd")
    if cached is None or cached[0] is not game.units:
        cached = game.__dict__["_ifd"] = (game.units, compile_if_data(game))
    return cached[1]


__all__ = ["if_data", "IfData", "Plan", "PlanSegment", "BatteryFacts", "CbAsset", "compile_if_data", "MISSION_PREFIX",
           "MISSION_SHEAFS"]
