"""Compiled data of the Advanced movement chapter (MBT 6.6.1.2, 6.6.3, 6.6.4.3, 6.6.6-6.6.8): the tables of
``adv_move_specs``, the building construction of each building hex, the scenario's Hasty Entrenchments and
Improved Positions, and the card facts that bar a vehicle from buildings. Every number comes from the ruleset, the
scenario or a card."""
from __future__ import annotations

from dataclasses import dataclass, field

from .data import DataError, TableReader, building_cover
from .adv_move_specs import CONSTRUCTIONS

#: Hasty Entrenchment counter sides (MBT 6.6.8) as construction turns done; "hasty" is complete
HASTY_SIDES = {"1": 1, "2": 2, "3": 3, "hasty": None}


@dataclass
class AdvMoveData:
    val: dict                     # advanced-movement: item -> value
    into: dict                    # construction -> (hit_max, track_max) (building-vehicle-into, MBT 6.6.3)
    construction: dict            # building hex -> wood / brick / stone (extension building_construction)
    hasty: dict                   # hex -> construction turns done at the start (extension hasty_entrenchments)
    improved: frozenset           # hexes with an Improved Position (extension improved_positions, 6.1.4.3.7)
    mc_hexsides: frozenset = frozenset()         # hexside features motorcycle units never cross (MBT 6.6.4.4)
    barred: dict = field(default_factory=dict)   # card id -> why it may not enter buildings, or "" (filled on use)
    placeholders: list = field(default_factory=list)

    def fingerprint(self) -> str:
        return repr(sorted((k, repr(v)) for k, v in self.__dict__.items() if k not in ("placeholders", "barred")))

    def hasty_complete(self) -> int:
        """Construction turns of a complete Hasty Entrenchment (MBT 6.6.8: 4)."""
        return self.val["hasty-turns"]


def adv_move(game) -> AdvMoveData:
    """The compiled data of ``game`` (compiled on first use, kept on the game)."""
    d = game.__dict__.get("_adv_move")
    if d is None:
        d = game.__dict__["_adv_move"] = compile_adv_move(game)
    return d


def _hex(game, label: str, where: str):
    if label not in game.map.hex_of:
        raise DataError(f"scenario extension {where}: hex {label!r} is not on the scenario's boards",
                        f"/extension/{where}")
    return game.map.hex(label)


def compile_adv_move(game) -> AdvMoveData:
    rd = TableReader(game.ruleset)
    val = rd.keyed("advanced-movement", "item", "value", "int")
    tid = "building-vehicle-into"
    rows = rd.rows(tid)
    into = {}
    for r in range(len(rows)):
        kind = rd.cell(tid, rows, r, "construction", "str")
        if kind not in CONSTRUCTIONS:
            raise DataError(f"table '{tid}' row {r}: construction {kind!r} ({', '.join(CONSTRUCTIONS)})",
                            f"/tables/{rd.where[tid]}/rows/{r}")
        into[kind] = (rd.cell(tid, rows, r, "hit_max", "int"), rd.cell(tid, rows, r, "track_max", "int"))
    _, default = building_cover(game.ruleset)
    given = game.extension.get("building_construction") or {}
    terrain = game.map.terrain
    construction = {h: given.get(game.map.label_of[h], default.get(terrain.get(h, ""), "brick"))
                    for h in game.building_hexes}
    hasty = {}
    full = val["hasty-turns"]
    for label, side in (game.extension.get("hasty_entrenchments") or {}).items():
        if str(side) not in HASTY_SIDES:
            raise DataError(f"scenario extension hasty_entrenchments: {label}: {side!r} (1, 2, 3 or hasty)",
                            "/extension/hasty_entrenchments")
        done = HASTY_SIDES[str(side)]
        hasty[_hex(game, label, "hasty_entrenchments")] = full if done is None else done
    improved = frozenset(_hex(game, h, "improved_positions") for h in game.extension.get("improved_positions") or ())
    mc = feature_set(rd, game.ruleset, "motorcycle-prohibited-hexsides")
    return AdvMoveData(val, into, construction, hasty, improved, mc, placeholders=rd.placeholders)


def feature_set(rd: TableReader, ruleset, tid: str) -> frozenset:
    """The hexside feature ids of table ``tid`` (column ``feature``), each one the ruleset defines."""
    rows = rd.rows(tid)
    sides = frozenset(rd.cell(tid, rows, r, "feature", "str") for r in range(len(rows)))
    lost = sorted(sides - {f.id for f in ruleset.hexside_features})
    if lost:
        raise DataError(f"table '{tid}' names hexside feature(s) {', '.join(lost)} the ruleset does not define",
                        f"/tables/{rd.where[tid]}/rows")
    return sides


def building_bar(game, i: int) -> str:
    """Why vehicle ``i`` may not enter a building (MBT 6.6.3: open-topped, AA vehicle; a card without overhead
    protection), or "" (the passengers' rule is the state's)."""
    d = adv_move(game)
    cid = game.units[i].type.id
    why = d.barred.get(cid)
    if why is None:
        card = game.index.model("unit", cid)
        body = card.body if card is not None else None
        b = body.model_dump() if hasattr(body, "model_dump") else (body or {})
        why = "open-topped" if b.get("open_topped") else "an AA vehicle" if b.get("aa_vehicle") else \
            "without overhead protection" if b.get("overhead_protection", True) is False else ""
        d.barred[cid] = why
    return why


__all__ = ["AdvMoveData", "adv_move", "building_bar", "compile_adv_move", "feature_set", "HASTY_SIDES"]
