"""Optional Rule 7.10, Hedgerow Spotting (id ``hedgerow-spotting``).

A dismounted leg unit with a Move command that has not moved, in a hex with a hedgerow hexside, may spend its
move to take the Location INB on that hexside (``inb UNIT HEXSIDE``): it stays in its hex, spots and is spotted
as if that hedgerow were absent (a line of sight without it), counts as Heavy Cover for spotting and Medium Cover
for its GP Defense. It leaves INB at the start of its next move (a Move or Short Halt command); where it then
stands is option ``hedgerow-exit`` (AMBIG: the text says it "now occupies the hex adjacent to the Hedgerow
hexside it started from"): its own hex (``own-hex``) or the hex across the hedgerow (``far-side``).

Lines of sight outside the Spotting Phase see through an INB unit's hedgerow the same way: Overwatch shots at or
by an INB unit (``_ow_shots``), an INB observer keeping sight of its Target Point (``sight_clear_to``, indirect
fire's check) and spotting for aircraft (``sight_clear``, fixed-wing FOs). Crawling out of INB is not modelled
(the engine has no crawling)."""
from __future__ import annotations

import copy

from studio.hexgrid.coords import distance, neighbour
from studio.model.maps import edge_key

from .actions import Action
from .codes import MMOVE, MOVE, ON

HEDGEROW = "hedgerow"


def los_without(game, edge, *more):
    """The game's line of sight with the hedgerow on ``edge`` (and on ``more`` edges) removed (cached per set of
    edges on the game)."""
    cache = game.__dict__.setdefault("_los_without", {})
    key = edge if not more else frozenset((edge,) + more)
    los = cache.get(key)
    if los is None:
        gone = {edge, *more}
        los = copy.copy(game.los)
        los.hexside_top = {k: v for k, v in game.los.hexside_top.items() if k not in gone}
        los.cache, los._arrays = {}, None
        cache[key] = los
    return los


class HedgerowRules:
    """Rules of MBT 7.10, mixed into :class:`~.advanced.AdvState` (slot ``inb``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.inb = [-1] * self.game.n  # the hedgerow hexside a unit is INB on, -1 none

    def _copy(self, dice):
        o = super()._copy(dice)
        o.inb = self.inb[:]
        return o

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}|inb{self.inb}"

    def _inb_edge(self, i: int):
        return edge_key(self.hex[i], neighbour(self.hex[i], self.inb[i]))

    def _inb_edges(self, *units: int) -> tuple:
        return tuple(self._inb_edge(u) for u in units if u >= 0 and self.inb[u] >= 0)

    def sight_clear(self, u: int, t: int) -> bool:
        """A line of sight between units ``u`` and ``t``, without the hedgerow either is INB on (MBT 7.10)."""
        return self.sight_clear_to(u, self.hex[t], t)

    def sight_clear_to(self, u: int, h, t: int = -1) -> bool:
        """A line of sight from unit ``u`` to hex ``h`` (holding unit ``t``, -1 none), without the hedgerow ``u``
        or ``t`` is INB on (MBT 7.10)."""
        g = self.game
        edges = self._inb_edges(u, t) if g.optional_on("hedgerow-spotting") else ()
        los = los_without(g, *edges) if edges else g.los
        return los.clear(self.hex[u], h)

    def _ow_shots(self, side: int) -> list:
        """Overwatch at or by an INB unit sees through its hedgerow (MBT 7.10): the shots the hedgerow alone
        blocked are added (range, weapons as in ``overwatch._ow_shots``)."""
        out = super()._ow_shots(side)
        g = self.game
        if self.ow_ctx == "air" or not g.optional_on("hedgerow-spotting") or not any(x >= 0 for x in self.inb):
            return out
        have = {(s, t) for s, t, _ in out}
        trig = [t for t in self.ow_trig if self.st[t] == ON and g.units[t].side != side]
        for s in self._ow_shooters(side):
            for t in trig:
                if (s, t) in have or not self._inb_edges(s, t) or \
                        distance(self.hex[s], self.hex[t]) > self.spot_range(t) or not self.sight_clear(s, t):
                    continue
                out += [(s, t, row) for row in g.units[s].type.ap if self.weapon_ok(s, t, row)]
        return out

    def _hedgerow_sides(self, i: int) -> list[int]:
        g = self.game
        h = self.hex[i]
        return [f for f in range(6) if (g.features.get(edge_key(h, neighbour(h, f))) or _NONE).id == HEDGEROW]

    def move_options(self, i: int) -> list:
        out = super().move_options(i)
        g = self.game
        if g.optional_on("hedgerow-spotting") and self.st[i] == ON and self.mv_u == i and self.is_leg(i) and \
                self.cmd[i] == MOVE and self.mv_steps == 0 and not self.mv_spent and self.inb[i] < 0:
            out += [Action(("inb", g.units[i].name, str(f))) for f in self._hedgerow_sides(i)]
        return out

    def _apply_move(self, i: int, a) -> None:
        if a[0] == "inb" and self.mv_u == i:
            self.inb[i] = int(a[2])
            self.mk[i] = MMOVE
            self.mv_left, self.mv_spent, self.mv_end = 0, True, True
            self.narrate(f"{self.game.units[i].name} takes position in the hedgerow (INB) on hexside {a[2]}")
            self._after_step(i)
            return
        super()._apply_move(i, a)

    def _begin_move(self, i: int) -> None:
        """A Move or Short Halt command ends INB at the start of the move (option hedgerow-exit)."""
        super()._begin_move(i)
        if self.inb[i] >= 0:
            if self.game.options["hedgerow-exit"] == "far-side":
                self.hex[i] = neighbour(self.hex[i], self.inb[i])
                self.mv_trail = [self.hex[i]]
            self.inb[i] = -1

    def leg_gp_defense(self, t: int) -> int:
        """INB: Medium Cover for the GP Defense (MBT 7.10)."""
        if self.inb[t] < 0:
            return super().leg_gp_defense(t)
        from .leg import GPD_RANGE, MOVE_PENALTY
        from .codes import SH

        ag = self.game.units[t].type.ag
        d = ag.gpd_cover["medium"] - (MOVE_PENALTY if self.cmd[t] in (MOVE, SH) and self.rev[t] else 0)
        return max(GPD_RANGE[0], min(GPD_RANGE[1], d))

    def _spot_targets(self) -> list[set]:
        """INB units spot and are spotted as if their hedgerow were absent (MBT 7.10)."""
        out = super()._spot_targets()
        g = self.game
        if not any(x >= 0 for x in self.inb):
            return out
        for u in range(g.n):
            if self.inb[u] < 0 or self.st[u] != ON:
                continue
            los = los_without(g, self._inb_edge(u))
            side = g.units[u].side
            for s in range(g.n):
                if self.st[s] != ON or not g.units[s].type.combat:
                    continue
                if s == u:
                    seen = [t for t in g.enemies_of(side) if self.st[t] == ON and t not in self.spots[u] and
                            distance(self.hex[u], self.hex[t]) <= self.spot_range(t, df=True) and
                            los.clear(self.hex[u], self.hex[t])]
                    self.spots[u] = self.spots[u] + tuple(seen)
                elif g.units[s].side != side and u not in self.spots[s] and \
                        distance(self.hex[s], self.hex[u]) <= self.spot_range(u, df=True) and \
                        los.clear(self.hex[s], self.hex[u]):
                    self.spots[s] = self.spots[s] + (u,)
        by_side = [set() for _ in g.sides]
        for s in range(g.n):
            by_side[g.units[s].side].update(self.spots[s])
        return by_side


class _NoFeature:
    id = None


_NONE = _NoFeature()

__all__ = ["HedgerowRules", "los_without"]
