"""Terrain, hexside-feature and road catalogues of a ruleset document (raw data), for editors and LOS.

Built from possibly invalid data without raising: entries without a usable code or id are skipped, and codes a
map uses that the catalogue lacks still get a stable colour (``colour_of``) so the map can be drawn.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class Terrain:
    code: str
    name: str
    colour: str
    los_height: int = 0
    los_blocks: bool = False
    hindrance: int = 0
    prohibits: frozenset[str] = frozenset()  # mobility classes that cannot enter (move_cost null)


@dataclass(frozen=True)
class Feature:
    id: str
    name: str
    colour: str
    los_height: int = 0
    los_blocks: bool = False


@dataclass
class Catalogue:
    terrain: dict[str, Terrain] = field(default_factory=dict)
    hexside_features: dict[str, Feature] = field(default_factory=dict)
    road_types: dict[str, Feature] = field(default_factory=dict)
    elevation_min: int = 0
    elevation_max: int = 9

    @classmethod
    def from_ruleset(cls, data: Any) -> "Catalogue":
        data = data if isinstance(data, dict) else {}
        cat = cls()
        for item in _dicts(data.get("terrain")):
            code = item.get("code")
            if isinstance(code, str) and code:
                los = item.get("los") if isinstance(item.get("los"), dict) else {}
                costs = item.get("move_cost") if isinstance(item.get("move_cost"), dict) else {}
                cat.terrain[code] = Terrain(code, str(item.get("name") or code), _colour(item.get("colour"), code),
                                            _int(los.get("height")), bool(los.get("blocks")),
                                            _int(los.get("hindrance")),
                                            frozenset(str(k) for k, v in costs.items() if v is None))
        for key, target in (("hexside_features", cat.hexside_features), ("road_types", cat.road_types)):
            for item in _dicts(data.get(key)):
                ident = item.get("id")
                if isinstance(ident, str) and ident:
                    los = item.get("los") if isinstance(item.get("los"), dict) else {}
                    target[ident] = Feature(ident, str(item.get("name") or ident), _colour(item.get("colour"), ident),
                                            _int(los.get("height")), bool(los.get("blocks")))
        elevation = data.get("elevation") if isinstance(data.get("elevation"), dict) else {}
        cat.elevation_min = _int(elevation.get("min"), 0)
        cat.elevation_max = max(cat.elevation_min, _int(elevation.get("max"), 9))
        return cat

    def colour_of(self, code: str) -> str:
        t = self.terrain.get(code)
        return t.colour if t else _colour(None, code)

    def name_of(self, code: str) -> str:
        t = self.terrain.get(code)
        return t.name if t else f"unknown terrain '{code}'"

    def open_to_all(self, code: str) -> bool:
        """Whether every mobility class can enter terrain ``code`` (unknown codes count as open)."""
        t = self.terrain.get(code)
        return t is None or not t.prohibits

    def first_code(self) -> str:
        return next(iter(self.terrain), "C")


def _dicts(value: Any) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _colour(value: Any, key: str) -> str:
    if isinstance(value, str) and _COLOUR.match(value):
        return value
    digest = hashlib.md5(key.encode()).digest()  # noqa: S324 - a colour, not security
    return "#%02x%02x%02x" % tuple(120 + b % 120 for b in digest[:3])
