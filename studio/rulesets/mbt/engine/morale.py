"""Optional Rule 7.1 Morale (with 7.6 Tank Fright): each formation's Numeric Cohesion Point (7.1.1), its losses
(7.1.1.2), Normal and Forced Morale Checks (7.1.2-7.1.4) on the Break Point Table, the Hesitating and Broken
effects (7.1.5) and recovery in the Advanced Adjustment Phase (6.8.5-6.8.6).

Per unit ``mor``: 0 none, Hesitation/On, Hesitation/Off, Break/On, Break/Off (``MOR_*``); per formation ``cpn``:
its Numeric Cohesion Point (-1 not determined yet). Losses are read from the state (combat units of the formation
eliminated, Bailed Out, Knocked Out or Brewed Up; helicopters never count). Every number is read from the
tables ``numeric-cohesion-point``, ``cohesion-point-modifiers``, ``morale-grade-modifiers``, ``break-point``,
``morale-check-modifiers`` and ``morale-effects`` (``opt_command_data``)."""
from __future__ import annotations

import math

from studio.hexgrid.coords import distance

from .codes import DEAD, NC, ON

MOR_NONE, HES_ON, HES_OFF, BRK_ON, BRK_OFF = 0, 1, 2, 3, 4
MOR_NAMES = {MOR_NONE: "none", HES_ON: "hesitation-on", HES_OFF: "hesitation-off", BRK_ON: "break-on",
             BRK_OFF: "break-off"}
MOR_CODES = {v: k for k, v in MOR_NAMES.items()}
#: events that call for a Forced Morale Check before the Cohesion Point is reached (MBT 7.1.3)
FORCED_EVENTS = frozenset({"command-unit-lost", "hexmate-lost", "overrun", "flame"})


def numeric_cp(level_row: tuple, n: int) -> int:
    """Numeric Cohesion Point of ``n`` combat units on a level row (MBT 7.1.1.1, read like the Available
    Commands Table: tens x the tens column + the column of the units digit, rounded down).

    >>> numeric_cp((46, (0.5, 1, 2, 2, 3, 3, 4, 4.5, 5), 5.5), 17), numeric_cp((46, (0.5, 1, 2, 2, 3, 3, 4, 4.5, 5), 5.5), 24)
    (9, 13)
    """
    _, cols, tens = level_row
    return math.floor((n // 10) * tens + (cols[n % 10 - 1] if n % 10 else 0))


def cohesion_level(levels: dict, net: int) -> str:
    """The Cohesion Point level of a net roll (MBT 7.1.1.1): the first level, best first, whose minimum it
    reaches; the last level (Poor) takes everything lower."""
    names = list(levels)
    for name in names[:-1]:
        if levels[name][0] is not None and net >= levels[name][0]:
            return name
    return names[-1]


class MoraleRules:
    """Optional Rule 7.1 (and 7.6), mixed into :class:`~.advanced.AdvState`; inert unless ``morale`` (or
    ``tank-fright``) is on (``game.oc_morale``, ``game.oc_fright``)."""

    __slots__ = ()

    # ---------------------------------------------------------------- status
    def hesitating(self, i: int) -> bool:
        return self.mor[i] in (HES_ON, HES_OFF)

    def broken(self, i: int) -> bool:
        return self.mor[i] in (BRK_ON, BRK_OFF)

    def _morale_effect(self, i: int, effect: str):
        """The value of ``effect`` (table ``morale-effects``) for unit ``i``: Hesitating or Broken, else None."""
        m = self.mor[i]
        if m in (HES_ON, HES_OFF):
            return self.game.optc.hesitating[effect]
        if m in (BRK_ON, BRK_OFF):
            return self.game.optc.broken[effect]
        return None

    def morale_fire_mod(self, i: int, kind: str) -> int:
        """AP (-3/-5) or GP (-10/-20) modifier on the fire of a Hesitating/Broken unit (MBT 7.1.5); ``kind``
        "ap" or "gp"."""
        v = self._morale_effect(i, f"{kind}-fire") if self.game.oc_morale else None
        return int(v) if v is not None else 0

    def morale_bail_mod(self, i: int) -> int:
        """Bail Out modifier of a Hesitating (-10) or Broken (-20) crew (MBT 7.1.5)."""
        v = self._morale_effect(i, "bail-out") if self.game.oc_morale else None
        return int(v) if v is not None else 0

    def morale_if_response_mod(self, o: int) -> int:
        """Called/Continuous Fire Response modifier of a Hesitating or Broken observer (MBT 7.1.5; the
        Hesitating value by option ``hesitation-if-response``)."""
        g = self.game
        if not g.oc_morale:
            return 0
        if self.hesitating(o) and g.options["hesitation-if-response"] == "none":
            return 0
        v = self._morale_effect(o, "if-response")
        return int(v) if v is not None else 0

    # ---------------------------------------------------------------- Cohesion Point (MBT 7.1.1)
    def _combat_member(self, i: int) -> bool:
        """Counted toward the Cohesion Point: combat units, never helicopters (MBT 7.1.1, 7.1.1.2)."""
        ut = self.game.units[i].type
        return ut.combat and not ut.ag.heli

    def _determine_cp(self, f: int) -> None:
        """Numeric Cohesion Point of formation ``f`` (MBT 7.1.1): listed, or from the listed level, or rolled
        (roll (100) + nationality/deployment + Formation Grade modifier, 7.1.1.1)."""
        g = self.game
        oc = g.optc
        level, listed, deployment = g.ocs.formation_cp[f]
        if listed is not None:
            self.cpn[f] = listed
            return
        n = sum(1 for i, ff in enumerate(g.formation_of) if ff == f and self._combat_member(i))
        how = "listed"
        if level is None:
            side = g.formation_side[f]
            nation = oc.cp_nation.get(g.ocs.nation[side])
            mod = (nation[deployment] if nation else 0) + oc.grade_cohesion[self.formation_grade(f)]
            r = self.dice.roll(100, f"Cohesion Point {g.sides[side]} formation {f + 1}")
            level = cohesion_level(oc.cp_levels, r + mod)
            how = f"roll {r}{mod:+d}"
        self.cpn[f] = numeric_cp(oc.cp_levels[level], n)
        self.narrate(f"{g.sides[g.formation_side[f]]} formation {f + 1}: Cohesion Point {level} ({how}), "
                     f"{n} combat units: CP {self.cpn[f]}")

    def formation_losses(self, f: int) -> int:
        """Recorded losses (MBT 7.1.1.2): combat units eliminated, Bailed Out, KO or BU (not reductions,
        Track or Damaged results; never helicopters)."""
        g = self.game
        return g.ocs.loss_offset[f] + sum(1 for i, ff in enumerate(g.formation_of) if ff == f and
                                          self.st[i] == DEAD and self._combat_member(i))

    def cohesion_reached(self, f: int) -> bool:
        if self.cpn[f] < 0 and self.formation_losses(f) > 0:
            self._determine_cp(f)  # option cohesion-timing: first-loss (MBT 7.1.1.1)
        return 0 <= self.cpn[f] <= self.formation_losses(f)

    # ---------------------------------------------------------------- Morale Check (MBT 7.1.4)
    def _sees(self, i: int, t: int) -> bool:
        """Can ``i`` spot ``t`` now, with its own limits (a Suppressed unit only to its front, MBT 7.1.4)?"""
        g = self.game
        extra = g.ag.spot_mod["spotter-suppressed"] if self.sup[i] else 0
        if self.broken(i):
            extra += int(g.optc.broken["spotting-rows"])
        if distance(self.hex[i], self.hex[t]) > self.ag_spot_range(t, self.mk[t], extra):
            return False
        if self.sup[i] and not self.in_field(i, t, 60, False):
            return False
        return g.los.clear(self.hex[i], self.hex[t])

    def _command_near(self, i: int, f: int) -> bool:
        """An unbroken command unit of the formation in Command Range (in the same hex for a unit with a damaged
        radio, MBT 7.23.5.4)."""
        g = self.game
        radio = hasattr(self, "radio_damaged") and self.radio_damaged(i)
        return any(g.ocs.hq[j] and j != i and self.st[j] == ON and g.formation_of[j] == f and not self.broken(j)
                   and (self.hex[j] == self.hex[i] if radio else self.in_command_range(i, j, f))
                   for j in range(g.n))

    def _broken_near(self, i: int, f: int) -> bool:
        g = self.game
        return any(j != i and self.st[j] == ON and g.formation_of[j] == f and self.broken(j) and
                   self.in_command_range(i, j, f) for j in range(g.n))

    def _enemy_mod(self, i: int) -> int:
        """Spotted opposing unit within 1-2 hexes, else within 3-5 (MBT 7.1.4; the nearer one applies)."""
        g = self.game
        m = g.optc.morale_mod
        side = g.units[i].side
        near = None
        for t in g.enemies_of(side):
            if self.st[t] != ON or self.hex[t] is None:
                continue
            d = distance(self.hex[i], self.hex[t])
            if d <= m["enemy-far-range"] and (near is None or d < near) and self._sees(i, t):
                near = d
        if near is None:
            return 0
        return m["enemy-near"] if near <= m["enemy-near-range"] else m["enemy-far"]

    def morale_modifiers(self, i: int, forced: bool, spotted: bool = True) -> int:
        """Net Morale Check modifier of unit ``i`` (MBT 7.1.4, table ``morale-check-modifiers``)."""
        g = self.game
        m = g.optc.morale_mod
        f = g.formation_of[i]
        net = g.optc.grade_check[self.unit_grade(i)]
        cover = self.cover_of(self.hex[i])
        if cover in ("medium", "heavy"):
            net += m[f"cover-{cover}"]
        if self._command_near(i, f):
            net += m["command-unit-in-range"]  # at most once (MBT 7.1.4)
        if self.sup[i]:
            net += m["suppressed"]
        if self.dmg[i] or self.tdmg[i]:
            net += m["damaged"]
        if forced:
            net += m["forced"]
        if self._broken_near(i, f):
            net += m["broken-in-range"]
        if spotted:
            net += self._enemy_mod(i)
        if self.cmd[i] not in (0, NC):
            net += m["command-not-nc"]
        return net

    def morale_roll(self, i: int, forced: bool, why: str, spotted: bool = True) -> str:
        """Roll a Morale Check: "break", "hesitate" or "pass" on the Break Point row of the unit's nationality."""
        g = self.game
        net = self.morale_modifiers(i, forced, spotted)
        r = self.dice.roll(100, f"Morale check {g.units[i].name}")
        nation = g.ocs.nation[g.units[i].side]
        bp = g.optc.break_point.get(nation) or next(iter(g.optc.break_point.values()))
        x = r + net
        result = "break" if x <= bp[0] else ("hesitate" if x <= bp[1] else "pass")
        self.narrate(f"{g.units[i].name} {'Forced ' if forced else ''}Morale Check ({why}): roll {r}{net:+d} = {x} "
                     f"vs {nation} Break 01-{bp[0]}, Hesitate -{bp[1]}: {result}")
        return result

    def morale_check(self, i: int, forced: bool, why: str) -> None:
        """Take a Morale Check and mark the result (MBT 7.1.4): Break/On, or Hesitation/On unless Broken."""
        result = self.morale_roll(i, forced, why)
        if result == "break":
            self.mor[i] = BRK_ON
        elif result == "hesitate" and not self.broken(i):
            self.mor[i] = HES_ON

    def morale_event(self, i: int, event: str) -> None:
        """Unit ``i`` met a trigger (MBT 7.1.2 Normal past the Cohesion Point; 7.1.3 Forced before it)."""
        if not self.game.oc_morale or self.st[i] != ON:
            return
        f = self.game.formation_of[i]
        if self.cohesion_reached(f):
            self.morale_check(i, False, event)
        elif event in FORCED_EVENTS:
            self.morale_check(i, True, event)

    # ---------------------------------------------------------------- triggers
    def _after_losses(self, before: list, attacked: tuple, how: str = "", event: str = "attacked") -> None:
        """Checks after a combat event: each attacked unit still on the map (``event``: "flame" for a flame
        attack, 7.1.3); a formation vehicle's Brew Up in the hex; a command unit of the formation lost within
        Command Range; a leg/towed hex-mate eliminated in Hand-to-Hand (MBT 7.1.2, 7.1.3)."""
        g = self.game
        events: dict = {}
        for t in attacked:
            if self.st[t] == ON:
                events.setdefault(t, event)
        for j in range(g.n):
            if before[j] == ON and self.st[j] == DEAD:
                self._loss_events(j, how, events)
        for k in sorted(events):
            self.morale_event(k, events[k])

    def _loss_events(self, j: int, how: str, events: dict) -> None:
        """The checks the loss of unit ``j`` calls for, into ``events`` (unit -> event)."""
        g = self.game
        f, h = g.formation_of[j], self.hex[j]
        brew = self.wreck.get(h) == 2 and not g.units[j].type.ag.leg
        for k in range(g.n):
            if k == j or self.st[k] != ON or g.formation_of[k] != f:
                continue
            if g.ocs.hq[j] and self.in_command_range_of(k, h, f):
                events[k] = "command-unit-lost"
            elif how == "hth" and g.units[j].type.ag.leg and g.units[k].type.ag.leg and self.hex[k] == h:
                events[k] = "hexmate-lost"
            elif brew and self.hex[k] == h:
                events.setdefault(k, "brew-up")

    def in_command_range_of(self, k: int, h, f: int) -> bool:
        """Is unit ``k`` within the formation's Command Range of hex ``h``?"""
        if self.hex[k] is None or h is None:
            return False
        rng = self.command_range(f)
        if rng == 0 and self.game.options["command-range-zero"] == "no-spreading":
            return False
        return distance(self.hex[k], h) <= rng

    def _shoot(self, s: int, t: int, row, overwatch: bool) -> None:
        """Direct, Overwatch or helicopter fire: checks at its completion (MBT 7.1.2)."""
        if not self.game.oc_morale:
            super()._shoot(s, t, row, overwatch)
            return
        before = self.st[:]
        super()._shoot(s, t, row, overwatch)
        self._after_losses(before, (t,))

    def _if_attack(self, s: int, t: int, *args, **kw) -> None:
        """Indirect fire on one unit: a check at its completion (MBT 7.1.2)."""
        if not self.game.oc_morale:
            super()._if_attack(s, t, *args, **kw)
            return
        before = self.st[:]
        super()._if_attack(s, t, *args, **kw)
        self._after_losses(before, (t,))

    def fw_gp_attack(self, u: int, *args, **kw) -> None:
        """A fixed-wing attack on one unit: a check at its completion (MBT 7.1.2)."""
        if not self.game.oc_morale:
            super().fw_gp_attack(u, *args, **kw)
            return
        before = self.st[:]
        super().fw_gp_attack(u, *args, **kw)
        self._after_losses(before, (u,))

    def apply_assault(self, action) -> None:
        """Close Assault / Hand-to-Hand: Tank Fright first (MBT 7.6); checks after the combat (7.1.2-7.1.3)."""
        g = self.game
        if action[0] == "pass" or not (g.oc_morale or g.oc_fright) or action[2] not in g.uindex:
            super().apply_assault(action)  # not a combat against a unit (e.g. 7.27 engineers clearing a hex)
            return
        a, t = g.uindex[action[1]], g.uindex[action[2]]
        if g.oc_fright and not self._passes_fright(a):
            self.moved[a] = True
            return
        before = self.st[:]
        combined = len(action) > 3 and action[3] == "all"
        flame = self.flame_in([a, *(self._hex_mates(a, t) if combined else ())])  # a flame attack (MBT 7.1.3)
        super().apply_assault(action)
        if g.oc_morale:
            how = "hth" if g.units[t].type.ag.leg else ""
            self._after_losses(before, (t,), how, "flame" if flame else "attacked")

    def _passes_fright(self, a: int) -> bool:
        """Tank Fright (MBT 7.6): a Green or Raw leg unit passes a Forced Morale Check without the spotted-unit
        modifiers before a Close Assault; Break -> Suppression/On, Hesitate -> Suppression/Off instead."""
        g = self.game
        if not g.units[a].type.ag.leg or self.unit_grade(a) not in ("green", "raw"):
            return True
        result = self.morale_roll(a, True, "tank fright", spotted=False)
        if result == "pass":
            return True
        self.sup[a] = 1 if result == "break" else 2  # suppression.SUP_ON / SUP_OFF
        self.narrate(f"{g.units[a].name} does not close assault (tank fright): Suppression/"
                     f"{'On' if result == 'break' else 'Off'}")
        return False

    def _move_done(self, i: int, a) -> None:
        """A unit that moved from its hex checks when its move is complete (MBT 7.1.2)."""
        left = len(self.mv_trail) > 1
        super()._move_done(i, a)
        if left and self.game.oc_morale:
            self.morale_event(i, "moved")

    def _begin_move(self, i: int) -> None:
        """A moving Hesitation/Off or Break/Off unit turns On (MBT 7.1.5)."""
        super()._begin_move(i)
        if self.game.oc_morale:
            if self.mor[i] == HES_OFF:
                self.mor[i] = HES_ON
            elif self.mor[i] == BRK_OFF:
                self.mor[i] = BRK_ON

    # ---------------------------------------------------------------- effects (MBT 7.1.5)
    def hit_modifiers(self, s: int, t: int, row, overwatch: bool):
        net, band = super().hit_modifiers(s, t, row, overwatch)
        mod = self.morale_fire_mod(s, "ap") if self.mor[s] else 0
        if not mod or band is None:
            return net, band
        lo, hi = self.game.tables.ap_clamp
        return max(lo, min(hi, net + mod)), band

    def gp_modifiers(self, s: int, t: int, row, band: str, overwatch: bool) -> int:
        net = super().gp_modifiers(s, t, row, band, overwatch)
        return net + self.morale_fire_mod(s, "gp") if self.mor[s] else net

    def response_modifier(self, source: str, o: int, h, adjusted: bool = False) -> int:
        """Called/Continuous Fire Response of a Hesitating or Broken observer (MBT 7.1.5)."""
        return super().response_modifier(source, o, h, adjusted) + self.morale_if_response_mod(o)

    def if_modifiers(self, t: int, fire, tp) -> int:
        """Indirect GP fire of a Hesitating or Broken on-map unit: -10 / -20 (MBT 7.1.5)."""
        net = super().if_modifiers(t, fire, tp)
        s = self.game.uindex.get(fire.source, -1)
        return net + self.morale_fire_mod(s, "gp") if s >= 0 and self.mor[s] else net

    def msa(self, i: int, rate: int) -> int:
        """A Broken unit moves at 1/2, rounded down, cumulative with the other modifiers (MBT 7.1.5.2)."""
        base = super().msa(i, rate)
        if self.game.oc_morale and self.broken(i):
            return int(base * self.game.optc.broken["move-fraction"])
        return base

    def _may_assault(self, a: int) -> bool:
        """Hesitating and Broken units may not initiate Close Assault or Hand-to-Hand (MBT 7.1.5)."""
        return super()._may_assault(a) and not (self.game.oc_morale and self.mor[a])

    def quickmarch_ok(self, i: int) -> bool:
        """Hesitating and Broken units may not quickmarch (MBT 6.6.4.2, 7.1.5)."""
        return super().quickmarch_ok(i) and not (self.game.oc_morale and self.mor[i])

    def _vehicle_mods(self, t: int) -> int:
        """A Close Assault at a Hesitating vehicle +10, a Broken one +20 (MBT 6.6.1.1.2, 7.1)."""
        m = super()._vehicle_mods(t)
        v = self._morale_effect(t, "close-assault") if self.game.oc_morale else None
        return m + int(v) if v is not None else m

    def _hth_mod(self, i: int, attacker: bool, other: int) -> int:
        """Hand-to-Hand -10 Hesitating, -20 Broken (MBT 7.1.5)."""
        m = super()._hth_mod(i, attacker, other)
        v = self._morale_effect(i, "hth") if self.game.oc_morale else None
        return m + int(v) if v is not None else m

    def _active_units(self, f: int, units: list[int]) -> int:
        """Broken units are not active for commands (MBT 7.1.5.2)."""
        if self.game.oc_morale:
            units = [i for i in units if not self.broken(i)]
        return super()._active_units(f, units)

    def _spot_targets(self) -> list[set]:
        """A Broken spotter moves two rows down the Spotting Ranges table (MBT 7.1.5.2)."""
        out = super()._spot_targets()
        g = self.game
        if not g.oc_morale or not any(self.mor):
            return out
        rows = int(g.optc.broken["spotting-rows"])
        sup = g.ag.spot_mod["spotter-suppressed"]
        changed = False
        for s in range(g.n):
            if self.spots[s] and self.broken(s):
                extra = rows + (sup if self.sup[s] else 0)
                self.spots[s] = tuple(t for t in self.spots[s] if distance(self.hex[s], self.hex[t]) <=
                                      self.ag_spot_range(t, self.mkdf[t], extra))
                changed = True
        if changed:
            out = [set() for _ in g.sides]
            for s in range(g.n):
                out[g.units[s].side].update(self.spots[s])
        return out

    # ---------------------------------------------------------------- recovery (MBT 6.8.5-6.8.6)
    def _recover(self) -> None:
        """After Suppression recovery (6.8.4): Hesitation/Off removed, Break/Off recovers at a net roll of 51-00
        with the Morale Check modifiers (6.8.5); then Hesitation/On and Break/On turn Off (6.8.6)."""
        super()._recover()
        g = self.game
        if not g.oc_morale or not any(self.mor):
            return
        low = g.optc.morale_mod["break-recovery-min"]
        for i in range(g.n):
            m = self.mor[i]
            if m == HES_OFF:
                self.mor[i] = MOR_NONE
            elif m == BRK_OFF and self.st[i] == ON:
                net = self.morale_modifiers(i, False)
                r = self.dice.roll(100, f"Break recovery {g.units[i].name}")
                if r + net >= low:
                    self.mor[i] = MOR_NONE
                self.narrate(f"{g.units[i].name} Break recovery: roll {r}{net:+d} = {r + net} vs {low}-00: "
                             f"{'recovers' if r + net >= low else 'stays Broken'}")
        for i in range(g.n):
            if self.mor[i] in (HES_ON, BRK_ON):
                self.mor[i] += 1
