"""Optional Rule 7.49, Armored Vehicle Launched Bridge (id ``avlb``).

An AVLB vehicle (card ``avlb_tons``: its bridge's weight limit) carries one bridge. It spans what table
``avlb-span`` lists in front of it: a hexside feature (``hexside``: streams run along hexsides on these boards) or a
hex of a listed terrain (``hex``: Gully / ford, G).
- Launch (``launch AVLB``): in the Movement Step, an AVLB with a Move command that started the turn in its hex
  facing the span and has not moved spends its move there (it stays adjacent for the turn); the bridge is usable
  from the next turn. A hex is spanned only if no unit or wreck is in it (reading: the text names no case).
  Recover (``recover AVLB``): the same, from either side (a hex span: from either end), not while a unit or a
  wreck is on a bridged hex, nor once it is broken; then it may launch again.
- A usable bridged hexside costs nothing for the stream. A usable bridged hex is entered and left only through
  its ends (the hexes in front of and behind it, along the AVLB's facing at launch); a step onto it costs the
  Clear terrain's cost, a step off it the next hex's terrain cost (the bridge is level with the banks: no height
  change or hexside cost; reverse multiplies as usual). A unit heavier than the bridge's limit may not cross (a
  card without a weight crosses); the bots' step table applies the same costs.
- A vehicle knocked out, brewed up or track-hit on a bridged hex breaks the bridge: it may no longer be crossed
  or recovered (the hex is its terrain again). A bridge over a hex is terrain with GP Defense 6 (table
  ``avlb-values``, 6.5.4.2.5): non-small-arms direct GP fire at a unit on it and indirect GP fire with it in the
  SHEAF attack it (roll (100) on the GP CRT, an Effective result destroys it; no modifiers, as minefields), and
  engineers may attack it (7.19, their Close Assault capped GPD); destroyed, it is broken too.
- The AVLB's mine plow (7.31.3.4) works only once its bridge is launched.
Not modelled: pushing a wreck, immobile vehicle or towed unit off a bridge (7.30): every way a wreck or an immobile
vehicle comes to stand on a bridged hex here breaks the bridge first, and the engine plays no towed units.
"""
from __future__ import annotations

from typing import NamedTuple

from studio.hexgrid.coords import neighbour
from studio.model.maps import edge_key

from .actions import Action
from .codes import MOVE, ON


class HexBridge(NamedTuple):
    """An AVLB bridge over a hex (MBT 7.49): the AVLB, the turn it was laid, the direction from the AVLB's hex to
    the bridged hex (its axis), broken (no longer crossed or recovered)."""

    unit: int
    turn: int
    axis: int
    broken: bool = False


def bridge_ends(h, axis: int) -> tuple:
    """The two hexes a bridge over ``h`` along ``axis`` is entered from and left to."""
    return neighbour(h, (axis + 3) % 6), neighbour(h, axis)


class AvlbRules:
    """Rules of MBT 7.49, mixed into :class:`~.advanced.AdvState` (slots ``avlb``, ``avlbc``, ``avlbh``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.avlb = {}                                # edge -> (AVLB unit, turn laid)
        self.avlbh = {}                               # hex -> HexBridge
        self.avlbc = [self._avlb_limit(i) is not None for i in range(self.game.n)]  # carrying its bridge

    def _copy(self, dice):
        o = super()._copy(dice)
        o.avlb, o.avlbh, o.avlbc = dict(self.avlb), dict(self.avlbh), self.avlbc[:]
        return o

    def fingerprint(self) -> str:
        lab = self.game.label
        bridges = sorted((lab(a), lab(b), v, t) for (a, b), (v, t) in self.avlb.items())
        spans = sorted((lab(h), tuple(b)) for h, b in self.avlbh.items())
        return f"{super().fingerprint()}|avlb{bridges}{spans}{''.join('1' if c else '0' for c in self.avlbc)}"

    def _avlb_limit(self, i: int):
        from .opt_move_data import card_move

        return card_move(self.game, i).avlb if self.game.optional_on("avlb") else None

    # ---------------------------------------------------------------- what is in front of the AVLB
    def _span_edge(self, i: int):
        """The spannable hexside in front of vehicle ``i``, or None."""
        from .opt_move_data import move_opt

        g = self.game
        h = self.hex[i]
        key = edge_key(h, neighbour(h, self.fac[i]))
        feat = g.features.get(key)
        return key if feat is not None and feat.id in move_opt(g).avlb_span else None

    def _span_hex(self, i: int):
        """The spannable hex in front of vehicle ``i`` (a terrain of table avlb-span, kind hex), or None."""
        from .opt_move_data import move_opt

        g = self.game
        h = neighbour(self.hex[i], self.fac[i])
        ok = h in g.map.label_of and g.map.terrain.get(h, "") in move_opt(g).avlb_hex
        return h if ok else None

    def _occupied(self, h) -> bool:
        """A unit or a wreck in hex ``h`` (MBT 7.49: no recovery then)."""
        return bool(self.wreck.get(h)) or any(self.st[u] == ON and self.hex[u] == h for u in range(self.game.n))

    def bridge_usable(self, h) -> HexBridge | None:
        """The bridge over hex ``h`` if it may be crossed now: laid before this turn, not broken (MBT 7.49)."""
        b = self.avlbh.get(h) if self.avlbh else None
        if b is None or b.broken or b.turn >= self.turn:
            return None
        return b

    def _avlb_ready(self, i: int) -> bool:
        return (self.st[i] == ON and self.mv_u == i and self.cmd[i] == MOVE and self.mv_steps == 0 and
                not self.mv_spent and self.mv_turned == 0 and not self.mv_end and self.hex[i] == self.cov0[i])

    def move_options(self, i: int) -> list:
        out = super().move_options(i)
        if self._avlb_limit(i) is None or not self._avlb_ready(i):
            return out
        verb = self._avlb_verb(i)
        if verb:
            out.append(Action((verb, self.game.units[i].name)))
        return out

    def _avlb_verb(self, i: int) -> str:
        """'launch', 'recover' or '' for AVLB ``i`` facing its span (MBT 7.49)."""
        edge = self._span_edge(i)
        if edge is not None:
            if self.avlbc[i] and edge not in self.avlb:
                return "launch"
            return "recover" if not self.avlbc[i] and self.avlb.get(edge, (-1, 0))[0] == i else ""
        h = self._span_hex(i)
        if h is None:
            return ""
        b = self.avlbh.get(h)
        if self.avlbc[i]:
            return "launch" if b is None and not self._occupied(h) else ""
        ok = b is not None and b.unit == i and not b.broken and self.hex[i] in bridge_ends(h, b.axis) and \
            not self._occupied(h)
        return "recover" if ok else ""

    def _apply_move(self, i: int, a) -> None:
        if a[0] in ("launch", "recover") and self.mv_u == i:
            self._launch_or_recover(i, a[0] == "launch")
            self.mv_left, self.mv_spent, self.mv_end = 0, True, True
            self._after_step(i)
            return
        super()._apply_move(i, a)

    def _launch_or_recover(self, i: int, launch: bool) -> None:
        g = self.game
        edge = self._span_edge(i)
        if edge is not None:
            if launch:
                self.avlb[edge] = (i, self.turn)
            else:
                del self.avlb[edge]
            where = f"the {g.label(edge[0])}/{g.label(edge[1])} hexside"
        else:
            h = self._span_hex(i)
            if launch:
                self.avlbh[h] = HexBridge(i, self.turn, self.fac[i])
            else:
                del self.avlbh[h]
            where = g.label(h)
        self.avlbc[i] = not launch
        self.narrate(f"{g.units[i].name} {'launches' if launch else 'recovers'} its bridge over {where}")

    # ---------------------------------------------------------------- crossing
    def _too_heavy(self, i: int, avlb: int) -> bool:
        from .opt_move_data import card_move

        weight = card_move(self.game, i).weight
        return weight is not None and weight > self._avlb_limit(avlb)

    def step_cost(self, i: int, a, b, reverse: bool = False):
        if self.avlbh and self.mv_mode == "xc":
            over = self._hex_bridge_cost(i, a, b, reverse)
            if over is not False:
                return over
        c = super().step_cost(i, a, b, reverse)
        if c is None or not self.avlb:
            return c
        key = edge_key(a, b)
        laid = self.avlb.get(key)
        if laid is None or laid[1] >= self.turn:
            return c  # usable from the turn after the launch (MBT 7.49)
        if self._too_heavy(i, laid[0]):
            return None
        feat = self.game.features.get(key)
        side = int(feat.move_cost.get(self.game.units[i].type.traction) or 0) if feat is not None else 0
        return max(0, c - side)  # the bridge spans the stream: no crossing cost

    def _hex_bridge_cost(self, i: int, a, b, reverse: bool):
        """The cost of a step onto or off a usable bridged hex (None: prohibited), or False when neither ``a``
        nor ``b`` is one (MBT 7.49)."""
        on, off = self.bridge_usable(b), self.bridge_usable(a)
        if (on is None and off is None) or self.game.units[i].type.ag.heli:
            return False
        if on is not None:  # onto the bridge: only from its ends, within its weight limit
            if a not in bridge_ends(b, on.axis) or self._too_heavy(i, on.unit):
                return None
            return self._bridge_terrain_cost(i, None, reverse)
        if b not in bridge_ends(a, off.axis):  # off the bridge: only to its ends
            return None
        return self._bridge_terrain_cost(i, b, reverse)

    def _bridge_terrain_cost(self, i: int, h, reverse: bool):
        """Clear terrain's cost for a step onto a bridge (``h`` None), the terrain cost of ``h`` for a step off."""
        g = self.game
        tr = g.units[i].type.traction
        if h is None:
            clear = g.__dict__.get("_clear_cost")
            if clear is None:
                clear = g.__dict__["_clear_cost"] = next(t.move_cost for t in g.ruleset.terrain if t.code == "C")
            c = clear.get(tr)
        else:
            c = g.cost.get(h, {}).get(tr)
        if c is None:
            return None
        return int(c) * (g.tables.movement["reverse-multiplier"] if reverse else 1)

    def xc_steps(self, i: int) -> dict:
        """The step table with the usable bridged hexes' steps (bots plan with it, MBT 7.49)."""
        table = super().xc_steps(i)
        live = [h for h in self.avlbh if self.bridge_usable(h) is not None] if self.avlbh else ()
        if not live or self.game.units[i].type.ag.heli:
            return table
        table = dict(table)
        for h in live:
            for x in (h,) + tuple(neighbour(h, f) for f in range(6)):
                if x in table:
                    table[x] = tuple((nb, self._planned(i, x, nb, c)) for nb, c in table[x])
        return table

    def _planned(self, i: int, a, b, c):
        over = self._hex_bridge_cost(i, a, b, False)
        return c if over is False else over

    # ---------------------------------------------------------------- bridges broken
    def _break_bridge(self, t: int, why: str) -> None:
        b = self.avlbh.get(self.hex[t]) if self.avlbh else None
        if b is not None and not b.broken:
            self.avlbh[self.hex[t]] = b._replace(broken=True)
            self.narrate(f"the bridge in {self.game.label(self.hex[t])} can no longer be crossed ({why})")

    def apply_damage(self, t: int, result: str, loc: str) -> None:
        """A vehicle knocked out or brewed up on a bridged hex breaks the bridge (MBT 7.49)."""
        if result in ("KO", "BU"):
            self._break_bridge(t, result)
        super().apply_damage(t, result, loc)

    def track_hit(self, t: int) -> None:
        """A track hit on a bridged hex breaks the bridge (MBT 7.49)."""
        self._break_bridge(t, "Track hit")
        super().track_hit(t)

    def _terrain_gpd(self, h) -> int | None:
        """A bridged hex is terrain with GP Defense 6 for engineers (MBT 7.49, 7.19)."""
        b = self.avlbh.get(h) if self.avlbh else None
        if b is not None and not b.broken and h not in self.razed:
            from .opt_move_data import move_opt

            return move_opt(self.game).avlb_values["gpd"]
        return super()._terrain_gpd(h)

    def attack_bridge(self, h, gp: int, source: str) -> None:
        """A GP attack of ``gp`` factors on the bridge over hex ``h`` (MBT 7.49 GP Defense 6, 6.5.4.2.5): an
        Effective result on the GP CRT destroys it."""
        b = self.avlbh.get(h) if self.avlbh else None
        if b is None or b.broken or gp <= 0:
            return
        from .opt_move_data import move_opt

        g = self.game
        gpd = move_opt(g).avlb_values["gpd"]
        fmax, dmax = g.ag.gp_max
        s_eff = g.ag.gp_crt[(max(1, min(fmax, gp)), max(1, min(dmax, gpd)))][1]
        roll = self.dice.roll(100, f"{source} vs AVLB bridge {g.label(h)}")
        hit = roll > s_eff
        self.narrate(f"{source} attacks the AVLB bridge in {g.label(h)} (GP {gp} vs GPD {gpd}): roll {roll} vs S "
                     f"{s_eff}: {'destroyed' if hit else 'no effect'}")
        if hit:
            self.avlbh[h] = b._replace(broken=True)

    def gp_fire(self, s: int, t: int, row, overwatch: bool) -> None:
        """Non-small-arms direct GP fire at a unit on a bridged hex attacks the bridge too (MBT 6.5.4.2.5)."""
        if self.avlbh and not row.small_arms and self.hex[t] in self.avlbh:
            from studio.hexgrid.coords import distance

            band, factor = self.gp_factor(row, distance(self.hex[s], self.hex[t]))
            if band is not None:
                self.attack_bridge(self.hex[t], factor, self.game.units[s].name)
        super().gp_fire(s, t, row, overwatch)

    def _gp_impact(self, fire, o: int, h, hexes, planned: bool) -> None:
        """Indirect GP fire attacks the bridged hexes of its SHEAF (MBT 6.5.4.2.5)."""
        if self.avlbh and fire.mission == "GP" and self.avlbh.keys() & set(hexes):
            band_row = self._fire_band(fire, o, h, planned)
            if band_row is not None:
                for x in sorted(self.avlbh.keys() & set(hexes)):
                    self.attack_bridge(x, band_row[2], f"IF {fire.source}")
        super()._gp_impact(fire, o, h, hexes, planned)

    def _after_razed(self) -> None:
        """Bridged hexes the engineers destroyed are broken (MBT 7.49)."""
        for h in self.razed & self.avlbh.keys():
            if not self.avlbh[h].broken:
                self.avlbh[h] = self.avlbh[h]._replace(broken=True)

    def engineer_attack(self, a: int, h) -> None:
        super().engineer_attack(a, h)
        if self.avlbh:
            self._after_razed()

    def plow_ready(self, i: int) -> bool:
        """An AVLB's mine plow works once its bridge is launched (MBT 7.31.3.4)."""
        return self._avlb_limit(i) is None or not self.avlbc[i]


__all__ = ["AvlbRules", "HexBridge", "bridge_ends"]
