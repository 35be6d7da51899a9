"""Direct fire (MBT 4.4.1) and AP fire (MBT 4.4.3): fields of fire, range factors, hit modifiers, the hit table,
hit aspect, penetration and damage, wrecks and Brew-Up Smoke."""
from __future__ import annotations

from typing import Any

from studio.hexgrid.coords import distance
from studio.hexgrid.coords import DIRECTIONS
from studio.hexgrid.facing import _angle_num, Aspect, hit_aspect, in_arc
from studio.hexgrid.lines import hex_line

from .codes import DEAD, FIRE, MFIRE, MOVE, ON, P_DF, SH
from .data import BANDS


class GameMemo:
    """A dictionary of results derived from one game's data, kept on the game object itself (one attribute
    lookup, no weak-dictionary call on the hot path); a derived cache of the game (``MbtGame.derived_caches``:
    ``clear_caches`` drops it through :meth:`pop`)."""

    __slots__ = ("attr",)

    def __init__(self, attr: str):
        self.attr = attr

    def of(self, game) -> dict:
        found = game.__dict__.get(self.attr)
        if found is None:
            found = game.__dict__[self.attr] = {}
            if self not in type(game).derived_caches:
                type(game).derived_caches.append(self)
        return found

    def pop(self, game, default=None):
        return game.__dict__.pop(self.attr, default)


#: (unit type id, shooter hex, facing) -> (type, target hex -> the AP rows in range and field of fire there)
#: (``FireRules.fire_options``: geometry only, so shared by every state of the game)
ROWS = GameMemo("_memo_fire_rows")
#: (a, b) -> the hexes of the line from a to b (``FireRules.brewup_on_line``)
LINES = GameMemo("_memo_lines")


def _offset(dq: int, dr: int, facing: int) -> tuple[int, int]:
    """Signed clockwise offset of the vector (dq, dr) from direction ``facing`` as ``(k, n)`` = k/(2n) hexside
    units (exact on whole and half units, ``studio.hexgrid.facing``)."""
    num, n = _angle_num(dq, dr)
    off = (num - (facing % 6) * n) % (6 * n)
    if off > 3 * n:
        off -= 6 * n
    return 2 * off, n


def in_field(origin, facing: int, target, arc: int, rear: bool, any_part: bool) -> bool:
    """Is ``target`` in a field of fire of ``arc`` degrees (MBT 4.4.3.1.4-5)? Hexes whose centre is inside or on
    the boundary always are; with ``any_part`` (option ``fof-hex-inclusion``, Q15) so is a hex one of whose
    hexsides lies along the boundary, where the 60 and 180 degree boundaries run along hex spines."""
    if in_arc(origin, facing, target, arc, rear):
        return True
    if not any_part or arc == 360:
        return False
    f = facing + 3 if rear else facing
    base = (3 * (target[0] - origin[0]), 3 * (target[1] - origin[1]))
    corners = []  # the six corners of ``target``, scaled by 3 (centroid of the hex and two neighbours)
    for i in range(6):
        a, b = DIRECTIONS[i], DIRECTIONS[(i + 1) % 6]
        corners.append((base[0] + a[0] + b[0], base[1] + a[1] + b[1]))
    on_edge = [abs(k) * 60 == arc * n for k, n in (_offset(q, r, f) for q, r in corners)]
    return any(on_edge[i] and on_edge[(i + 1) % 6] for i in range(6))


def penetration_result(game, difference: int) -> str:
    """Basic AP result for penetration minus armor (table ``ap-penetration-results``, MBT 4.4.3.2.6, Q3)."""
    result = "no-effect"
    for name, lo, hi in game.tables.pen_results:
        if (lo is None or difference >= lo) and (hi is None or difference <= hi):
            result = name
    if difference == 0 and game.options["penetration-zero"] == "no-effect":
        result = "no-effect"
    return result


class FireRules:
    """Rules of this chapter, mixed into :class:`~.state.MbtState` (they read and write its fields)."""

    __slots__ = ()

    def weapon_ok(self, s: int, t: int, row) -> bool:
        """Range (MBT 3.5.2, 5.6) and field of fire (4.4.3.1) of an AP row."""
        r = distance(self.hex[s], self.hex[t])
        if r > row.max_range or r < row.min_range:
            return False
        if row.arc != 360 and not self.in_field(s, t, row.arc, row.rear):
            return False
        return True

    def in_field(self, s: int, t: int, arc: int, rear: bool) -> bool:
        """``t`` in the ``arc`` of ``s`` (MBT 4.4.3.1.4-5, option ``fof-hex-inclusion``)."""
        return in_field(self.hex[s], self.fac[s], self.hex[t], arc, rear,
                        self.game.options["fof-hex-inclusion"] == "any-part")

    def fire_options(self, s: int, targets, df: bool = True) -> list[tuple[int, Any]]:
        """``(target, AP row)`` of every row of ``s`` that may fire at each live enemy of ``targets``
        (``weapon_ok``), in target then row order."""
        out = []
        units, st = self.game.units, self.st
        side = units[s].side
        rows_at = self._rows_at(s)
        for t in targets:
            if st[t] != ON or units[t].side == side:
                continue
            out.extend((t, row) for row in self.ok_rows(s, t, rows_at))
        return out

    def ok_rows(self, s: int, t: int, rows_at: dict | None) -> tuple:
        """The AP rows of ``s`` that ``weapon_ok`` allows at ``t``, in row order; ``rows_at`` is ``_rows_at(s)``
        (the remembered answers by target hex, or None: every row asked)."""
        if rows_at is None:
            return tuple(row for row in self.game.units[s].type.ap if self.weapon_ok(s, t, row))
        ht = self.hex[t]
        rows = rows_at.get(ht)
        if rows is None:
            rows = rows_at[ht] = tuple(row for row in self.game.units[s].type.ap if self.weapon_ok(s, t, row))
        return rows

    def _rows_at(self, s: int) -> dict | None:
        """Target hex -> the rows of ``s`` that ``weapon_ok`` allows there, remembered per game by unit type, hex
        and facing (range and field of fire are geometry); None when not caching or when a rule module
        overrides ``weapon_ok``/``in_field`` (its answer may read more than geometry)."""
        cls = type(self)
        if not self.caching or cls.weapon_ok is not FireRules.weapon_ok or cls.in_field is not FireRules.in_field:
            return None
        memo = ROWS.of(self.game)
        ut = self.game.units[s].type
        key = (id(ut), self.hex[s], self.fac[s])
        found = memo.get(key)
        if found is None or found[0] is not ut:  # the type kept with its rows: its id is not reused meanwhile
            if len(memo) > 50_000:
                memo.clear()
            found = memo[key] = (ut, {})
        return found[1]

    def band_of(self, row, r: int) -> str | None:
        """AP range factor: the first band in reading order (table ``range-factors``) whose range is at least the
        range (MBT 4.4.3.2.1)."""
        for b in self.game.tables.bands:
            v = row.ranges[BANDS.index(b)]
            if v is not None and v >= r:
                return b
        return None

    def _begin_df(self) -> None:
        self.phase = P_DF
        self.df_side = self.first
        self.shots = []
        self.res_i = 0

    def _df_shooters(self) -> list[int]:
        announced = {s for s, _, _ in self.shots}
        st, cmd, fired = self.st, self.cmd, self.fired
        return [i for i in self.game.units_of(self.df_side) if st[i] == ON and cmd[i] in (FIRE, SH) and not fired[i]
                and i not in announced]

    def _resolve_shots(self) -> bool:
        """Resolve announced shots in order; True when the target's owner must first decide to reveal."""
        while self.res_i < len(self.shots):
            s, t, row = self.shots[self.res_i]
            if row is None:
                self.res_i += 1
                continue
            if self.st[t] == ON and self.cmd[t] in (MOVE, SH) and not self.rev[t] and not self.conceal_once:
                self.reveal_for = t
                return True
            self.conceal_once = False
            if self._before_resolve(s, t, row):
                return True  # a decision before this shot (optional rules, e.g. MBT 7.44)
            self.res_i += 1
            self._shoot(s, t, row, overwatch=False)
            if self._after_resolve(s, t, row):
                return True  # a decision after this shot (optional rules, e.g. MBT 7.48)
        return False

    def _before_resolve(self, s: int, t: int, row) -> bool:
        """Hook: True when a player must decide before the shot ``s`` -> ``t`` resolves (the Advanced Game's
        optional rules override it)."""
        return False

    def _after_resolve(self, s: int, t: int, row) -> bool:
        """Hook: True when a player must decide after the shot ``s`` -> ``t`` resolved."""
        return False

    def df_pending(self) -> bool:
        """Hook: True (with ``cp`` set) while a Direct Fire decision of an optional rule waits."""
        return False

    def _shoot(self, s: int, t: int, row, overwatch: bool) -> None:
        """AP fire (MBT 4.4.3): the shooter is revealed and gets Spot/Fire (4.4.1; for Fire/SH targets from the
        next Spotting Phase, Q2); a shot at a target already eliminated is spent; a roll (100) at or under the hit
        number hits (4.4.3.2.3)."""
        self.fired[s] = True
        self.rev[s] = True
        self.mk[s] = MFIRE
        if self.st[t] != ON:
            return
        net, band = self.hit_modifiers(s, t, row, overwatch)
        if band is None:
            return
        roll = self.dice.roll(100, "AP hit")
        number = self.game.tables.ap_hit[(net, band)]
        if self.dice.record:
            self._say_shot(s, t, row, band, net, roll, number)
        if roll <= number:
            self._penetrate(s, t, row, band)

    def _say_shot(self, s: int, t: int, row, band: str, net: int, roll: int, number: int) -> None:
        """Narration of a Basic AP shot (replay viewer)."""
        u = self.game.units
        self.events.append(f"{u[s].name} fires {row.ammo} at {u[t].name}, range {distance(self.hex[s], self.hex[t])} "
                           f"({band}), net {net:+d}: hit roll {roll} vs {number}: {'hit' if roll <= number else 'miss'}")

    def hit_modifiers(self, s: int, t: int, row, overwatch: bool) -> tuple[int, str | None]:
        """Net AP hit modifier and range factor (MBT 4.4.3.2.1-3)."""
        g = self.game
        tb = g.tables
        am = tb.ap_mod
        r = distance(self.hex[s], self.hex[t])
        band = self.band_of(row, r)
        ut, st = g.units[t].type, g.units[s].type
        net = ut.target_size
        if self.cmd[t] in (MOVE, SH) and self.rev[t]:
            net += am["target-moving"]
        net += tb.cover_ap.get(self.cover_of(self.hex[t]), 0)
        if self.cmd[s] == SH and not overwatch:
            net += am[f"short-halt-sb{st.sb}"]
        if self.dmg[s]:
            net += am["shooter-damaged"]
        net += am["brew-up-smoke"] * self.brewup_on_line(self.hex[s], self.hex[t])
        if overwatch:
            inside = self.ow_inside(s, t, row)
            if row.cis:
                net += am["overwatch-cis"] if inside else am["overwatch-adjust-cis"]
            else:
                net += am["overwatch"] if inside else am["overwatch-adjust"]
        lo, hi = tb.ap_clamp
        return max(lo, min(hi, net)), band

    def ow_inside(self, s: int, t: int, row) -> bool:
        """Overwatch at ``t`` inside the shooter's front/rear arc, so without Overwatch Adjust (MBT 4.4.3.2.2;
        turreted weapons by option ``ow-arc``)."""
        arc = row.arc if not row.turreted else int(self.game.options["ow-arc"])
        return row.arc != 360 or self.in_field(s, t, arc, row.rear)

    def brewup_on_line(self, a, b) -> int:
        """Unique Brew-Up Smoke hexes the LOS starts from, passes through or enters (MBT 4.4.3.2.2); smoke
        created in the current player step does not count yet."""
        if not self.wreck:
            return 0
        if self.caching:  # the line's hexes, remembered per game: a walk along the line, not over every wreck
            memo = LINES.of(self.game)
            line = memo.get((a, b))
            if line is None:
                if len(memo) > 200_000:
                    memo.clear()
                line = memo[(a, b)] = tuple(set(hex_line(a, b)))
            wreck, new = self.wreck, self.bu_new
            return sum(1 for h in line if wreck.get(h) == 2 and h not in new)
        smoke = [h for h, w in self.wreck.items() if w == 2 and h not in self.bu_new]
        if not smoke:
            return 0
        line = set(hex_line(a, b))
        return sum(1 for h in smoke if h in line)

    def armor_hit(self, s: int, t: int) -> int:
        """The armor factor of the aspect of ``t`` that ``s`` hits (MBT 4.4.3.2.4): Front or Rear; along the divide
        (or from the same hex) the target's owner chooses, and takes the higher (ENGINE_POLICIES)."""
        ut = self.game.units[t].type
        asp = hit_aspect(self.hex[t], self.fac[t], self.hex[s]) if self.hex[s] != self.hex[t] else Aspect.OWNER_CHOOSES
        if asp is Aspect.FRONT:
            return ut.armor_front
        if asp is Aspect.REAR:
            return ut.armor_rear
        return max(ut.armor_front, ut.armor_rear)

    def penetration(self, row, band: str) -> int:
        """The penetration of ``row`` at the range factor ``band`` (MBT 4.4.3.2.5): the same band, or the next one
        in reading order (option ``penetration-band``); a skipped band reads the first band given."""
        g = self.game
        order = g.tables.bands
        if g.options["penetration-band"] == "next":
            band = order[min(len(order) - 1, order.index(band) + 1)]
        pen = row.pens[BANDS.index(band)]
        return pen if pen is not None else next(p for p in row.pens if p is not None)

    def _penetrate(self, s: int, t: int, row, band: str) -> None:
        """Penetration and damage (MBT 4.4.3.2.4-6): a Damaged target takes the table's ``if_damaged`` result."""
        g = self.game
        pen, armor = self.penetration(row, band), self.armor_hit(s, t)
        result = penetration_result(g, pen - armor)
        if self.dmg[t]:
            result = g.tables.if_damaged[result]  # a second Damaged result knocks out (4.4.3.2.6)
        if self.dice.record:
            self.events.append(f"{g.units[t].name}: penetration {pen} vs armor {armor}: {result}")
        if result == "damaged" and not self.dmg[t]:
            self._damage(t)
        elif result in ("knocked-out", "brewed-up"):
            self._eliminate(t, brew=result == "brewed-up")

    def _damage(self, t: int) -> None:
        """Damaged: a moving vehicle's remaining allowance is halved at once (MBT 4.4.3.2.6, Q27)."""
        self.dmg[t] = True
        self.cut_remaining(t, self.game.tables.damaged_fraction)

    def cut_remaining(self, t: int, fraction: float) -> None:
        """Unit ``t``, if it is moving now, keeps ``fraction`` of its remaining allowance (round down; option
        ``msa-remaining-floor``, Q27): Damage (MBT 4.4.3.2.6) or a new Suppression (6.6.2) during the move."""
        g = self.game
        if self.mv_u != t:
            return
        left = int(self.mv_left * fraction)
        if g.options["msa-remaining-floor"] == "one":
            left = max(1, left)
        if self.mv_mode != "xc":
            r, p_, nr, np_, used = self.mv_mode
            self.mv_mode = (r, p_, nr, np_, used + self.mv_left - left)
        self.mv_left = left

    def _eliminate(self, t: int, brew: bool) -> None:
        h = self.hex[t]
        self.st[t] = DEAD
        self.lost[self.game.units[t].side] += 1
        old = self.wreck.get(h)
        if brew:
            if old != 2:
                self.wreck[h] = 2
                self.bu_new.add(h)
        elif old is None:
            self.wreck[h] = 1
