"""Compiled data of the direct-fire optional rules (MBT 7.8-7.25, 7.44-7.50) and of the Ammo Limits (MBT 5.16):
which rules the scenario switches on, the ruleset tables of ``opt_fire_specs`` (and ``ammo-limits``) and the fire
facts of the unit cards (turret TT, BU notation, Small Turret, installations, nation, calibres, secondary sights,
attached weapons, ammo limits). Every number comes from the ruleset
or a card. Compiled once per game, whether or not a rule is on, so ``Game.data_fingerprint`` covers the tables
(``fire_data``; a derived cache of the game, ``MbtGame.derived_caches``); a bad table is refused at load."""
from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field

from .data import DataError, TableReader
from .opt_fire_specs import COLLATERAL_EFFECTS, FUEL_EFFECTS, PEN_ITEMS

#: optional rule id -> the flag of ``FireData.on``
RULES = {"turrets": "turrets", "bu-modifier": "bu", "variable-ap-penetration": "varpen",
         "lower-hull-hits": "lower_hull", "fire-priority": "priority", "defensive-fire": "defensive",
         "platform-gun-mounts": "platform", "attached-weapon-loss": "attached", "pinning-fire": "pinning",
         "variable-track-damage": "vtrack", "vehicle-collateral-damage": "collateral",
         "weapon-malfunction": "malfunction", "quickdraw": "quickdraw", "small-turrets": "small_turrets",
         "installation-damage": "installation", "commander-independent-sight": "cis",
         "nato-target-acquisition": "nato"}

TURRET_TT = (1, 2, 3)                 # MBT 4.4.3.1: TT 1-3 are turreted (360 is turretless 360)
_CALIBRE = re.compile(r"^\s*(\d+)\s*mm")


@dataclass(slots=True)
class CardFire:
    """Fire facts of one card for the optional rules."""

    tt: int = 0                       # turret TT factor (MBT 7.8.1); 0: no turret
    turret_weapons: frozenset = frozenset()
    bu: bool = False                  # BU notation (MBT 7.11)
    small_turret: bool = False        # MBT 7.45
    open_required: bool = False       # must be Open to fire (Notes, MBT 7.8.3)
    installations: frozenset = frozenset()   # radar, sam, atgm (MBT 7.47)
    nation: str = ""
    calibre: dict = field(default_factory=dict)      # weapon id -> mm (card, else the name's "NNmm")
    mortars: frozenset = frozenset()  # weapon ids of mortars (MBT 7.50)
    hand_held: frozenset = frozenset()               # hand-held AT weapons (MBT 7.21)
    sam: frozenset = frozenset()      # SAM weapon ids (MBT 7.47)
    radar: frozenset = frozenset()    # radar-tracked AA weapon ids (MBT 7.47)
    secondary: dict = field(default_factory=dict)    # weapon id -> secondary sight or None (MBT 7.23.1)
    coax: bool = False                # has a Coax MG (MBT 7.23.1)
    attached: tuple = ()              # attached weapon ids of a leg unit (MBT 7.17)
    gpe_max: int = 0                  # max GP Effectiveness of its non-small-arms GP weapons (MBT 7.21)
    limits: dict = field(default_factory=dict)       # weapon id -> {Ammo Limit prefix: value} (MBT 5.16.2)


@dataclass(slots=True)
class FireData:
    """The fire optional rules of one game: switches and compiled tables."""

    on: dict                          # flag -> bool (RULES values)
    values: dict                      # opt-fire-values
    collateral: dict                  # (location, roll) -> effect (MBT 7.23)
    fuel: dict                        # roll -> effect (MBT 7.23.4)
    pen_rows: tuple                   # ((pen_min, {die: adjustment}, max), ...) ascending (MBT 7.12)
    small_turret: dict                # tens -> tens read instead (MBT 7.45)
    nato: frozenset                   # NATO nations (MBT 7.50)
    cards: dict                       # card id -> CardFire
    ammo: dict = field(default_factory=dict)         # ammo-limits (MBT 5.16.2.1, 5.16.2.6), Advanced Game
    placeholders: list = field(default_factory=list)

    @property
    def any(self) -> bool:
        return any(self.on.values())

    def add_cards(self, game) -> None:
        """Fire facts of the game's unit types not compiled yet."""
        for u in game.units:
            if u.type.id not in self.cards:
                self.cards[u.type.id] = card_fire(game.index, u.type)

    def fingerprint(self) -> str:
        return repr((sorted(self.values.items()), sorted(self.collateral.items()), sorted(self.fuel.items()),
                     self.pen_rows, sorted(self.small_turret.items()), sorted(self.nato), sorted(self.ammo.items())))


_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def fire_data(game) -> FireData:
    """The compiled fire optional rules of ``game`` (``on``: which of them the scenario switches on; the Basic
    Game plays none)."""
    if game in _CACHE:
        return _CACHE[game]
    on = {flag: bool(game.advanced and rid in game.optional_rules) for rid, flag in RULES.items()}
    data = compile_fire_data(game, on)
    _CACHE[game] = data
    if _CACHE not in type(game).derived_caches:
        type(game).derived_caches.append(_CACHE)
    return data


def compile_fire_data(game, on: dict) -> FireData:
    rd = TableReader(game.ruleset)
    values = rd.keyed("opt-fire-values", "id", "value", "int")
    return FireData(on=on, values=values, collateral=_collateral(rd), fuel=_fuel(rd), pen_rows=_pen_rows(rd),
                    small_turret=_pairs(rd, "small-turret-locations", "tens", "reads"),
                    nato=frozenset(rd.cell("nato-nations", rows, r, "nation", "str")
                                   for rows in (rd.rows("nato-nations"),) for r in range(len(rows))),
                    cards={ut.id: card_fire(game.index, ut) for ut in {u.type.id: u.type for u in game.units}.values()},
                    ammo=rd.keyed("ammo-limits", "id", "value", "int"), placeholders=rd.placeholders)


def _collateral(rd: TableReader) -> dict:
    tid = "collateral-damage"
    rows = rd.rows(tid)
    return {(rd.cell(tid, rows, r, "location", "str"), rd.cell(tid, rows, r, "roll", "int")):
            rd.choice(tid, rows, r, "effect", COLLATERAL_EFFECTS) for r in range(len(rows))}


def _fuel(rd: TableReader) -> dict:
    tid = "fuel-damage"
    rows = rd.rows(tid)
    return {rd.cell(tid, rows, r, "roll", "int"): rd.choice(tid, rows, r, "effect", FUEL_EFFECTS)
            for r in range(len(rows))}


def _pen_rows(rd: TableReader) -> tuple:
    """AP Penetration Table rows (MBT 7.12): per lowest penetration factor, the adjustment of each die and the
    Max; every row needs all ten dice and the Max."""
    tid = "ap-penetration-variation"
    rows = rd.rows(tid)
    by_min: dict = {}
    for r in range(len(rows)):
        item = rd.cell(tid, rows, r, "item", "str")
        if item not in PEN_ITEMS:
            raise DataError(f"table '{tid}' row {r}: item {item!r} is not d1..d10 or max",
                            f"/tables/{rd.where[tid]}/rows/{r}")
        by_min.setdefault(rd.cell(tid, rows, r, "pen_min", "int"), {})[item] = rd.cell(tid, rows, r, "value", "int")
    out = []
    for lo in sorted(by_min):
        cells = by_min[lo]
        lost = [i for i in PEN_ITEMS if i not in cells]
        if lost:
            raise DataError(f"table '{tid}': the row of penetration {lo} has no {', '.join(lost)}",
                            f"/tables/{rd.where[tid]}/rows")
        out.append((lo, {d: cells[f"d{d}"] for d in range(1, 11)}, abs(cells["max"])))
    return tuple(out)


def _pairs(rd: TableReader, tid: str, a: str, b: str) -> dict:
    rows = rd.rows(tid)
    return {rd.cell(tid, rows, r, a, "int"): rd.cell(tid, rows, r, b, "int") for r in range(len(rows))}


def _body(model) -> dict:
    return model.body.model_dump() if hasattr(model.body, "model_dump") else dict(model.body)


def card_fire(index, ut) -> CardFire:
    """The fire facts of the card of unit type ``ut`` (vehicles and leg units; others have none)."""
    model = index.model("unit", ut.id)
    if model is None or getattr(model, "category", "vehicle") not in ("vehicle", "leg", "towed"):
        return CardFire()
    b = _body(model)
    weapons = list(b.get("weapons", []))
    attached = []
    for cid in b.get("attached_weapons", []) or ():
        crew = index.model("unit", cid)
        if crew is not None and "weapon" in _body(crew):
            weapons.append(_body(crew)["weapon"])
            attached.append(_body(crew)["weapon"]["id"])
    turret = [w for w in weapons if int(w.get("tt_factor", 0)) in TURRET_TT]
    notes = b.get("notes") if isinstance(b.get("notes"), dict) else {}
    return CardFire(
        tt=max((int(w["tt_factor"]) for w in turret), default=0),
        turret_weapons=frozenset(w["id"] for w in turret),
        bu=bool((b.get("general") or {}).get("bu_notation")),
        small_turret=bool(notes.get("small_turret")),
        open_required=bool(notes.get("open_turret_required")),
        installations=frozenset(b.get("installations") or ()),
        nation=getattr(model, "nation", "") or "",
        calibre={w["id"]: _calibre(w) for w in weapons},
        mortars=frozenset(w["id"] for w in weapons if w.get("weapon_type") == "mortar"),
        hand_held=frozenset(w["id"] for w in weapons if w.get("weapon_type") == "hhatw"),
        sam=frozenset(w["id"] for w in weapons if (w.get("aa") or {}).get("sam")),
        radar=frozenset(w["id"] for w in weapons if (w.get("aa") or {}).get("radar")),
        secondary={w["id"]: (w.get("sight") or {}).get("secondary") for w in weapons},
        coax=any(w.get("coax_mg") for w in weapons),
        attached=tuple(attached),
        gpe_max=max((r.gpe for r in ut.ap if r.kind == "GP" and not r.small_arms), default=0),
        limits={w["id"]: {a["prefix"]: int(a["value"]) for a in w.get("ammo_limits") or ()} for w in weapons})


def _calibre(w: dict) -> int | None:
    """The weapon's calibre: ``calibre_mm`` on the card, else the leading "NNmm" of its name (MBT 7.50)."""
    if w.get("calibre_mm"):
        return int(w["calibre_mm"])
    m = _CALIBRE.match(w.get("name", ""))
    return int(m.group(1)) if m else None


__all__ = ["FireData", "CardFire", "fire_data", "RULES"]
