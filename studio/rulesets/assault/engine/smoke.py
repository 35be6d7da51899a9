"""Smoke (Assault 20) as a mixin of ``AssaultState``: placing screens faced to a vertex, their duration and
drift downwind (table smoke-duration), and their effect on lines of sight.

Reading of 20.B.1 for the LOS graph: a screen in a hex between the two ends is an obstacle one level above that
hex's ground, at its centre, and blocks only when the sight line enters or leaves the hex through one of its two
blocked hexsides; a screen in the viewer's or the target's own hex blocks when the line leaves (enters) through
a blocked hexside. Chemical smoke does not block a viewer with thermal sights (20.B.2).

The vertex a screen faces is chosen by the engine: the one facing the enemy's map edge (the U.S. defend the
west, the Soviets come from the east: 24.A) among the vertices option c15 allows ('wind-axis': blocked
hexsides along the wind, 20.A.3; 'any-vertex': all six); ties go to the lower vertex number.
"""
from __future__ import annotations

import math

from studio.hexgrid import coords

from . import spotting
from .artillery import Screen, axis_vertices, downwind


class Smoke:
    """Methods of ``AssaultState`` for Assault 20."""

    def _smoke_vertex(self, side: int) -> int:
        """The vertex a new screen of ``side`` faces (module docstring; option c15)."""
        toward = 90 if self.game.sides[side] == "us" else 270        # the enemy's edge: east / west
        allowed = axis_vertices(self.wind_bearing) if self.game.options.get("c15-smoke-orientation",
                                                                            "wind-axis") == "wind-axis" \
            else list(range(6))
        return min(allowed, key=lambda k: (abs(math.remainder(math.radians(60 * k + 30 - toward), 2 * math.pi)), k))

    def _duration(self, kind: str) -> tuple[int, bool]:
        """(turns until removal, drifts) from table smoke-duration for ``kind`` in this wind (Assault 20.A.4)."""
        rows = self.game.smoke_duration
        row = rows.get((kind, self.wind_speed)) or rows.get((kind, "any"))
        if row is None:
            row = rows.get(("chemical", "light"), (2, False)) if kind == "chemical" else (1, False)
        return row

    def _place_smoke(self, h, kind: str, side: int, table_kind: str) -> None:
        """A new screen on ``h`` (Assault 20.A.3-4, 20.C): a drifting chemical screen is removed one turn
        before the table's last turn, when its downwind screen goes."""
        turns, drifts = self._duration(table_kind)
        end = self.turn + turns - (1 if drifts else 0)
        self.smoke = self.smoke + [Screen(h, kind, self._smoke_vertex(side), self.turn, end, drifts)]

    def _adjust_smoke(self) -> None:
        """Assault 20.A.4 (ESoP step 2): remove the screens due now; a moderate-wind chemical screen placed
        last turn adds a screen one hex downwind, removed when the table's turns are over."""
        kept = []
        for s in self.smoke:
            if s.removed_at <= self.turn:
                self.narrate(f"{s.kind} smoke on {self.game.map.label_of.get(s.hex, s.hex)} is removed (20.A.4)")
                continue
            kept.append(s)
            if s.drifts and s.placed == self.turn - 1 and self.wind_bearing >= 0:
                d = coords.DIRECTIONS[downwind(self.wind_bearing)]
                h = (s.hex[0] + d[0], s.hex[1] + d[1])
                turns, _ = self._duration(s.kind)
                if self.game.map.on_map(h):
                    kept.append(Screen(h, s.kind, s.vertex, self.turn, s.placed + turns))
                    self.narrate(f"chemical smoke drifts downwind to {self.game.map.label_of.get(h, h)} (20.A.4)")
        self.smoke = kept

    def _smoke_blocks(self, a, b, thermal: bool) -> bool:
        """Whether a screen blocks the line from ``a`` to ``b`` (module docstring; 20.B)."""
        from .game import _hexside_towards
        if a == b:
            return False
        line = None
        for s in self.smoke:
            if thermal and s.kind == "chemical":
                continue                                             # Assault 20.B.2: thermal sights
            blocked = (s.vertex, (s.vertex + 1) % 6)
            if s.hex == b:
                if _hexside_towards(b, a) in blocked:
                    return True
                continue
            if s.hex == a:
                if _hexside_towards(a, b) in blocked:
                    return True
                continue
            line = self._line(a, b) if line is None else line
            i = next((i for i, h in line if h == s.hex), None)
            if i is None:
                continue
            if _hexside_towards(s.hex, a) not in blocked and _hexside_towards(s.hex, b) not in blocked:
                continue
            rng = coords.distance(a, b)
            if spotting.los_blocked(self._level(a), self._level(b), rng, [(i, self._level(s.hex) + 1)]):
                return True
        return False
