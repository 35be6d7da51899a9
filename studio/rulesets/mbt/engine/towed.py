"""Towed units (MBT 5.2, 6.6.5, 6.6.7): guns with a built-in crew, played in the Advanced Game as leg-type units
(MBT 6.6.4: "leg-type units are squads, half-squads, sections and towed units") with their own rules.

- Card (``TowedBody``): traction L, the manhandling allowance for every rate, S/L spotting size, GP Defense by
  cover, target type S, passenger capacity ``t-l``; the weapons fire through their front 60 degree field of fire
  (MBT 5.2; 7.16 Platform Gun Mounts widens it, ``opt_platform``). AP and ATGM fire never targets them; GP fire
  does, and an Effective result eliminates them (6.5.4.4.3: gun and crew are one unit).
- Manhandling (MBT 6.6.5): one hex per turn (table ``towed-units`` manhandle-hexes), at most one Height
  (manhandle-heights), never across the hexsides of ``towed-prohibited-hexsides`` (Hedgerow, Wall), only terrain
  a leg unit may enter; the one-hex move beyond the allowance is allowed (as for vehicles); a card without
  ``manhandle`` (very large guns) never moves on its own. No Short Halt commands; in Full Cover no Move command
  (6.1.4.2). Towed units never initiate Close Assault or Hand-to-Hand combat (6.6.1.1, 6.6.1.2); as defenders in
  Hand-to-Hand they take hth-defender-towed (-40) instead of a size modifier.
- Transport (MBT 6.6.7.1): a towed unit mounts a vehicle in its own hex and dismounts into it. A towed unit with
  a towed component in its passenger capacity is towed: the vehicle needs the towed capacity and tows at most
  tow-max-units unit(s); a towing vehicle may not move in reverse. A towed unit with towed component 0 (the NSV
  HMG and SPG-9) rides like a leg unit. Passengers of a Knocked Out or Brewed Up carrier survive on the towed
  rows (bail-ko-towed 61+, MBT 6.5.2.7.2).
- A dismounted towed unit in a path or road hex stops a vehicle using the path/road rate there (MBT 6.6.4).
- A towed unit set up in a building hex is inside the building: while there it only pivots (MBT 6.1.4.3.1, the
  static check V54 ``mbt.towed-building``); one that moves into a building hex is in the alleys between them.
- Optional rules: a vehicle towing bogs with the ``towing`` modifier (7.29); in snow or mud a transporting vehicle
  takes the weather modifier per unit of its passengers' towed components (7.36.3); an amphibious vehicle that
  tows may not swim (7.34); narrow roads (7.30) in ``opt_narrow``.
"""
from __future__ import annotations

from dataclasses import dataclass

from studio.model.maps import edge_key

from .ag_data import AgDefense
from .codes import MOVE, ON, SH
from .data import DataError, TableReader, UnitType

BAIL_ITEMS = {"KO": "bail-ko-towed", "BU": "bail-bu-towed"}


@dataclass(slots=True)
class TowedDefense(AgDefense):
    """The Advanced data of a towed unit: a leg-type unit (``leg`` True) and its towed facts."""

    passenger_towed: int = 0          # towed component of its passenger capacity (MBT 6.6.7.1)
    manhandle: bool = True            # may move 1 hex without transport (MBT 6.6.5)
    platform: bool = False            # a Platform Gun Mount (optional rule 7.16)


@dataclass
class TowedData:
    """Table ``towed-units`` and ``towed-prohibited-hexsides`` compiled."""

    hexes: int                        # manhandling: hexes per turn
    heights: int                      # manhandling: Heights per hex
    tow_max: int                      # towed units one vehicle tows
    hth_towed: int                    # Hand-to-Hand: defender is a towed unit
    bail: dict                        # KO/BU -> the passenger survives at or above (towed rows)
    hexsides: frozenset               # hexside feature ids towed units may not cross
    capacity: dict                    # card id -> towed capacity of a vehicle card (filled on use)
    placeholders: list

    def fingerprint(self) -> str:
        """Every compiled table value (``Game.data_fingerprint``)."""
        return repr((self.hexes, self.heights, self.tow_max, self.hth_towed, sorted(self.bail.items()),
                     sorted(self.hexsides)))


def towed_data(game) -> TowedData:
    """The compiled towed-unit data of ``game`` (compiled on first use, kept on the game)."""
    td = game.__dict__.get("_towed_data")
    if td is None:
        td = game.__dict__["_towed_data"] = compile_towed(game.ruleset)
    return td


def compile_towed(ruleset) -> TowedData:
    rd = TableReader(ruleset)
    v = rd.keyed("towed-units", "item", "value", "int")
    from .adv_move_data import feature_set

    sides = feature_set(rd, ruleset, "towed-prohibited-hexsides")
    if v["manhandle-hexes"] < 0 or v["manhandle-heights"] < 0 or v["tow-max-units"] < 0:
        raise DataError("table 'towed-units': manhandle-hexes, manhandle-heights and tow-max-units must not be "
                        "negative", f"/tables/{rd.where['towed-units']}/rows")
    return TowedData(v["manhandle-hexes"], v["manhandle-heights"], v["tow-max-units"], v["hth-defender-towed"],
                     {k: v[item] for k, item in BAIL_ITEMS.items()}, sides, {}, list(rd.placeholders))


def towed_type(card) -> UnitType:
    """The engine record of a towed card (MBT 5.2): traction L, the manhandling rate for every rate, no armor,
    its weapons' rows (front 60 degrees from the card's TT factor), GP Defense by cover, target type S."""
    from .ag_data import ag_rows

    b = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
    gpd = b["gp_defense"]
    pc = b.get("passenger_capacity") or {}
    labels = tuple(b.get("labels") or ())
    ag = TowedDefense(0, "S", None, None, {}, "recon" in labels, False, leg=True, size=b.get("size", "S"),
                      gpd_cover={k: int(gpd[k]) for k in ("none", "light", "medium", "heavy")},
                      passenger_leg=int(pc.get("leg", 1)), labels=labels, leg_size="towed",
                      passenger_towed=int(pc.get("towed", 0)), manhandle=bool(b.get("manhandle", True)),
                      platform=bool(b.get("platform_gun_mount", False)))
    cc = int(b["movement"]["cross_country"])
    rows = ag_rows({"weapons": b.get("weapons", [])})
    return UnitType(card.id, card.name, "l", cc, cc, cc, 0, 0, 0, 0, bool(b.get("is_combat_unit", True)), True,
                    tuple(rows), ag)


class TowedRules:
    """Rules of towed units, mixed into :class:`~.advanced.AdvState` before the chapters they refine."""

    __slots__ = ()

    # ---------------------------------------------------------------- facts
    def is_towed(self, i: int) -> bool:
        return type(self.game.units[i].type.ag) is TowedDefense

    def is_tow(self, p: int) -> bool:
        """A towed unit whose passenger capacity has a towed component: it is towed, not carried (MBT 6.6.7.1)."""
        ag = self.game.units[p].type.ag
        return type(ag) is TowedDefense and ag.passenger_towed > 0

    def tow_capacity(self, c: int) -> int:
        """The Towed Capacity of vehicle ``c`` (TR: t-l, MBT 6.6.7.1), from its card."""
        td = towed_data(self.game)
        tid = self.game.units[c].type.id
        cap = td.capacity.get(tid)
        if cap is None:
            card = self.game.index.model("unit", tid)
            body = card.body.model_dump() if card is not None and hasattr(card.body, "model_dump") else {}
            cap = td.capacity[tid] = int(((body.get("general") or {}).get("transport") or {}).get("towed", 0))
        return cap

    def towed_by(self, c: int) -> list[int]:
        """The units vehicle ``c`` tows now."""
        return [p for p in self.passengers(c) if self.is_tow(p)]

    def _towing(self, i: int) -> bool:
        """Towing another unit (MBT 7.29: the ``towing`` bog modifier; 6.6.7.1: no reverse)."""
        return self._towed_units()[1] and bool(self.towed_by(i))

    # ---------------------------------------------------------------- commands (MBT 6.6.5, 6.1.4.2)
    def cmd_options(self, i: int) -> list[int]:
        """Towed units never have Short Halt commands (MBT 6.6.5), nor Move commands in Full Cover (6.1.4.2)."""
        out = super().cmd_options(i)
        if not self.is_towed(i):
            return out
        return [c for c in out if c != SH and not (c == MOVE and self.fc[i])]

    # ---------------------------------------------------------------- manhandling (MBT 6.6.5)
    def step_cost(self, i: int, a, b, reverse: bool = False) -> int | None:
        """Manhandling: one hex per turn, one Height, no Hedgerow or Wall hexside, never for a card without
        ``manhandle``; a towing amphibious vehicle may not swim (MBT 7.34)."""
        c = super().step_cost(i, a, b, reverse)
        if c is None:
            return None
        g = self.game
        if self.is_towed(i):
            td = towed_data(g)
            if not g.units[i].type.ag.manhandle or self.mv_steps >= td.hexes or self.set_up_inside(i):
                return None
            if abs(g.elev.get(b, 0) - g.elev.get(a, 0)) > td.heights:
                return None
            feat = g.features.get(edge_key(a, b))
            if feat is not None and feat.id in td.hexsides:
                return None
            return c
        if c >= _swim_cost() and self._towing(i):
            return None  # MBT 7.34: amphibious units may not tow (swim) units
        return c

    def _exit_ok(self, i: int, rev: bool) -> bool:
        """Leaving the map is a manhandled hex too (MBT 6.6.5)."""
        if self.is_towed(i) and (not self.game.units[i].type.ag.manhandle or
                                 self.mv_steps >= towed_data(self.game).hexes or self.set_up_inside(i)):
            return False
        return super()._exit_ok(i, rev)

    def set_up_inside(self, i: int) -> bool:
        """A towed unit set up in a building hex is inside the building: it may only pivot while there (MBT
        6.1.4.3.1; a towed unit moving into a building hex is in its alleys and moves on normally)."""
        u = self.game.units[i]
        return u.setup_hex is not None and self.hex[i] == u.setup_hex and u.setup_hex in self.game.building_hexes

    def _step_options(self, i: int) -> list:
        """A vehicle towing a unit may not move in reverse (MBT 6.6.7.1)."""
        out = super()._step_options(i)
        if self.is_towed(i) or not self._towing(i):
            return out
        return [a for a in out if a[0] != "rev" and not (a[0] == "exit" and len(a) > 2)]

    def _road_step_cost(self, i: int, a, b, reverse: bool):
        """A dismounted towed unit in the path/road hex stops the vehicle's path/road rate (MBT 6.6.4)."""
        if any(self.hex[j] == b and self.st[j] == ON for j in self._towed_units()[0]):
            return None
        return super()._road_step_cost(i, a, b, reverse)

    def _towed_units(self) -> tuple:
        """(the towed units, whether any of them is towed rather than carried) of the game, cached per unit list:
        a scenario without them pays nothing for these rules in its hot paths."""
        g = self.game
        cache = g.__dict__.get("_towed_units")
        if cache is None or cache[0] is not g.units:
            towed = tuple(i for i in range(g.n) if self.is_towed(i))
            cache = g.__dict__["_towed_units"] = (g.units, (towed, any(self.is_tow(i) for i in towed)))
        return cache[1]

    # ---------------------------------------------------------------- transport (MBT 6.6.7.1)
    def move_options(self, i: int) -> list:
        """A towed unit with a towed component mounts only a vehicle with the towed capacity that tows less than
        tow-max-units units (MBT 6.6.7.1); towed units never dig into a hedgerow (7.10 is for leg units)."""
        out = super().move_options(i)
        if not self.is_towed(i):
            return out
        out = [a for a in out if a[0] != "inb"]  # MBT 7.10: only leg units dig into a hedgerow hexside
        if self.set_up_inside(i):
            return [a for a in out if a[0] in ("done", "turn")]  # MBT 6.1.4.3.1: it may still pivot
        if not self.is_tow(i):
            return out
        return [a for a in out if a[0] != "mount" or self._may_tow(self.game.uindex[a[2]], i)]

    def _may_tow(self, c: int, p: int) -> bool:
        need = self.game.units[p].type.ag.passenger_towed
        return self.tow_capacity(c) >= need and len(self.towed_by(c)) < towed_data(self.game).tow_max

    def bail_value(self, p: int, result: str) -> int:
        """A towed passenger of a Knocked Out or Brewed Up carrier reads the Towed rows (MBT 6.5.2.7.2)."""
        if result in BAIL_ITEMS and self.is_towed(p):
            return towed_data(self.game).bail[result]
        return super().bail_value(p, result)

    def weather_bog(self, i: int) -> tuple:
        """In snow or mud the bog modifier counts each unit of the passengers' towed components (MBT 7.36.3)."""
        mult, mod = super().weather_bog(i)
        if not mod:
            return mult, mod
        g = self.game
        per = int(g.optc.ground["bog-passenger-modifier"])
        return mult, per * sum(getattr(g.units[p].type.ag, "passenger_towed", 0) for p in range(g.n)
                               if self.carrier[p] == i)

    # ---------------------------------------------------------------- close combat (MBT 6.6.1)
    def _may_assault(self, a: int) -> bool:
        """Towed units may not initiate Close Assault or Hand-to-Hand combat (MBT 6.6.1.1, 6.6.1.2)."""
        return not self.is_towed(a) and super()._may_assault(a)

    def _hth_mod(self, i: int, attacker: bool, other: int) -> int:
        """A towed defender: its grade, -40 (MBT 6.6.1.2 'Towed') and Suppression; no size modifier."""
        if attacker or not self.is_towed(i):
            return super()._hth_mod(i, attacker, other)
        g = self.game
        m = g.ag.grade_hth[self.unit_grade(i)] + towed_data(g).hth_towed
        return m + (g.ag.close["hth-defender-suppressed"] if self.sup[i] else 0)


def _swim_cost() -> int:
    from .opt_terrain import SWIM_COST

    return SWIM_COST


__all__ = ["TowedDefense", "TowedData", "TowedRules", "towed_data", "compile_towed", "towed_type"]
