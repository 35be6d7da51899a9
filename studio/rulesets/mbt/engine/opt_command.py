"""The Optional Rules of morale, hidden units, spotting and command mixed into the Advanced Game state as one
mixin (:class:`OptCommandRules`), with the command rules themselves: 7.3 Platoon and Section Command Control,
7.40 Delayed Reaction, 7.42 Disrupted Communications, 7.43 Command Span and the movement factors of 7.36
Terrain, Time of Day and Weather (cautious movement, snow, mud). Morale is ``morale.py``, hidden units
``hidden.py``, the spotting rules ``opt_spotting.py``.

State (``OPT_COMMAND_SLOTS``): ``mor`` per unit (morale counter), ``cpn`` per formation (Numeric Cohesion Point),
``hid`` per unit and ``hsp``/``hcs``/``hmv``/``hkd`` per counter (hidden units, ``hidden.py``), ``camo`` per unit
and ``camk`` (its camouflage announced to the opponent, 7.24), ``dcom`` per formation (disrupted this turn),
``msh`` per formation (Move/Short Halt counters it may still take under Command Span, -1 no limit), ``sg*``
(staggered initiative, ``opt_stagger.py``), ``lit``/``lq`` (active searchlights and the Visualization step's
next unit, 7.36.4.1), ``dsp`` per unit (the turn a delayed unit first spotted an enemy, 7.40).
Every switch is a cached bool on the game (``attach_opt_command``), so a scenario without them pays nothing."""
from __future__ import annotations

import math
import random

from studio.hexgrid.coords import distance

from .ag_specs import GRADES
from .codes import DEAD, MOVE, NC, ON, SH
from .hidden import HiddenRules
from .morale import MOR_NAMES, MoraleRules
from .opt_command_data import check_options, compile_opt_command_scenario, compile_opt_command_tables
from .opt_spotting import OptSpottingRules
from .opt_stagger import StaggerRules

OPT_COMMAND_SLOTS = ("mor", "cpn", "hid", "hcs", "camo", "dcom", "msh", "sgf", "sgc", "sgp", "sg1", "sgq", "camk",
                     "hsp", "hmv", "hkd", "lit", "lq", "dsp")
RULE_FLAGS = {"oc_morale": "morale", "oc_hidden": "hidden-units", "oc_platoon": "platoon-command-control",
              "oc_removal": "spot-removal", "oc_fright": "tank-fright", "oc_limited": "limited-spotting",
              "oc_camo": "camouflage", "oc_night": "terrain-time-weather", "oc_delay": "delayed-reaction",
              "oc_disrupt": "disrupted-communications", "oc_span": "command-span", "oc_radar": "ground-radar",
              "oc_stagger": "staggered-initiative"}


def attach_opt_command(game) -> None:
    """Compile these rules' tables and scenario data onto ``game`` with one cached bool per switch."""
    for flag, rule in RULE_FLAGS.items():
        setattr(game, flag, rule in game.optional_rules)
    game.oc_spotting = game.oc_limited or game.oc_camo or game.oc_night or game.oc_radar
    game.optc = compile_opt_command_tables(game.ruleset)
    game.ocs = compile_opt_command_scenario(game)
    game.oc_snow = game.oc_night and game.ocs.ground == "snow"  # hot path of movement (step_cost)
    if game.oc_morale or game.oc_stagger:
        check_options(game.options)


class CommandOptRules:
    """7.3, 7.40, 7.42, 7.43 and the movement factors of 7.36."""

    __slots__ = ()

    # ---------------------------------------------------------------- 7.3 Platoon Command Control
    def may_share_with(self, i: int, j: int) -> bool:
        """MBT 7.3: only units of one platoon/section share a counter; command units share with the platoons of
        their formation (their chain of command); other HQ units share with no platoon."""
        g = self.game
        if not g.oc_platoon:
            return super().may_share_with(i, j)
        pi, pj = g.ocs.platoon[i], g.ocs.platoon[j]
        if g.ocs.hq[i] or g.ocs.hq[j]:
            return True  # command units share within their formation (the formation is the chain here)
        return bool(pi) and pi == pj

    # ---------------------------------------------------------------- 7.40 Delayed Reaction
    def cmd_options(self, i: int) -> list[int]:
        """Delayed units take N/C (MBT 7.40); Command Span's Move/Short Halt limit (MBT 7.43)."""
        g = self.game
        if g.oc_delay and (g.ocs.delayed.get(i, 0) > self.turn or self._still_surprised(i)):
            return [NC]
        base = super().cmd_options(i)
        if g.oc_span and self.msh[g.formation_of[i]] == 0 and not g.units[i].type.ag.recon:
            base = [c for c in base if c not in (MOVE, SH) or self.share_group(i, c) >= 0]
        return base

    def _place_command(self, i: int, c: int) -> None:
        g = self.game
        f = g.formation_of[i]
        counts = g.oc_span and c in (MOVE, SH) and self.msh[f] > 0 and not g.units[i].type.ag.recon and \
            self.share_group(i, c) < 0
        super()._place_command(i, c)
        if counts:
            self.msh[f] -= 1

    def _still_surprised(self, i: int) -> bool:
        """MBT 7.40 'a delay in responding to sighting opposing units': N/C until the unit has spotted an opposing
        unit and ``after_spotting`` turns have passed from that turn (``dsp``: the turn it first spotted one)."""
        delay = self.game.ocs.delay_after.get(i)
        if not delay:
            return False
        return not self.dsp[i] or self.turn < self.dsp[i] + delay

    # ---------------------------------------------------------------- Available Commands (7.42, 7.43)
    def _available_commands(self) -> None:
        """Determine Available Commands (MBT 6.2.1.1.1) with Command Span's row drops (7.43), Disrupted
        Communications halving (7.42) and Command Span's Move/Short Halt limit (7.43)."""
        super()._available_commands()
        g = self.game
        if g.oc_delay:  # after the Spotting Phase: the turn each delayed unit first spotted an enemy (MBT 7.40)
            for i in g.ocs.delay_after:
                if not self.dsp[i] and self.spots[i]:
                    self.dsp[i] = self.turn
        if g.oc_disrupt and g.ocs.disrupted:
            self._disrupt()
        if g.oc_span:
            self._span_limits()

    def _disrupt(self) -> None:
        """MBT 7.42: both forces roll (100) + Force Grade modifier; if the difference exceeds the level's Dif,
        each formation of the lower force (if subject) rolls (100) (-20 with units out of Command Span): within
        the range its Available Commands are halved (rounded down, minimum 1) this turn."""
        g = self.game
        level, sides = g.ocs.disrupted
        dif, top = g.optc.disrupted[level]
        self.dcom = [False] * len(g.formation_side)
        rolls = []
        for side in range(len(g.sides)):
            r = self.dice.roll(100, f"Communications {g.sides[side]}")
            rolls.append(r + g.ag.init_mod[g.force_grades[side]])
        lower = min(range(len(rolls)), key=lambda s: (rolls[s], s))
        gap = max(rolls) - rolls[lower]
        self.narrate(f"communications rolls {', '.join(f'{g.sides[s]} {x}' for s, x in enumerate(rolls))}: "
                     f"difference {gap} vs Dif {dif} ({level})")
        if gap <= dif or lower not in sides:
            return
        for f, side in enumerate(g.formation_side):
            if side != lower:
                continue
            mod = int(g.optc.values["disrupted-span-modifier"]) if g.oc_span and self.out_of_span(f) else 0
            r = self.dice.roll(100, f"Disruption {g.sides[side]} formation {f + 1}")
            if r + mod <= top:
                self.dcom[f] = True
                self.budget[f] = max(1, self.budget[f] // 2)
            self.narrate(f"{g.sides[side]} formation {f + 1} disruption roll {r}{mod:+d} vs 01-{top}: "
                         f"{'disrupted, ' + str(self.budget[f]) + ' commands' if self.dcom[f] else 'not disrupted'}")

    # ---------------------------------------------------------------- 7.43 Command Span
    def _hq_span(self, j: int, level: str) -> int:
        """Command Span of HQ unit ``j``: the table's (a company's from the scenario), 0 when Broken (7.1.5.2)
        or its radio is damaged (7.23.5)."""
        g = self.game
        if (g.oc_morale and self.broken(j)) or (hasattr(self, "radio_damaged") and self.radio_damaged(j)):
            return 0
        if level == "CHQ":
            return g.ocs.company_span.get(g.formation_of[j], g.optc.span["CHQ"][0])
        return g.optc.span[level][0]

    def _hqs(self, side: int, level: str, f: int | None = None) -> tuple[list[int], bool]:
        """The HQ units of ``level`` of ``side`` (of formation ``f``) on the map, and whether any was set up."""
        g = self.game
        had = [j for j in range(g.n) if g.ocs.hq[j] == level and g.units[j].side == side and
               (f is None or g.formation_of[j] == f)]
        return [j for j in had if self.st[j] == ON], bool(had)

    def chain_of(self, f: int) -> list[int]:
        """Formation ``f`` and the formations above it in the scenario's ``command_tree`` (MBT 7.43)."""
        sup = self.game.ocs.superior
        out = [f]
        while sup and sup[out[-1]] >= 0:
            out.append(sup[out[-1]])
        return out

    def _hqs_over(self, f: int, level: str) -> tuple[list[int], bool]:
        """The HQ units of ``level`` that command formation ``f`` (in ``f`` or a formation above it: MBT 7.43)
        on the map, and whether any was set up; none set up = they are off map (in span)."""
        g = self.game
        chain = set(self.chain_of(f))
        had = [j for j in range(g.n) if g.ocs.hq[j] == level and g.formation_of[j] in chain]
        return [j for j in had if self.st[j] == ON], bool(had)

    def _in_span(self, i: int, hqs: list[int], level: str) -> bool:
        return any(self.hex[i] is not None and distance(self.hex[i], self.hex[j]) <= self._hq_span(j, level)
                   for j in hqs)

    def out_of_span(self, f: int) -> bool:
        """Has formation ``f`` a company subordinate (not Recon) beyond every CHQ's span (MBT 7.43)?"""
        g = self.game
        chqs, had = self._hqs(g.formation_side[f], "CHQ", f)
        if not chqs:
            return False
        return any(self.st[i] == ON and g.formation_of[i] == f and g.ocs.hq[i] != "CHQ" and
                   not g.units[i].type.ag.recon and not self._in_span(i, chqs, "CHQ") for i in range(g.n))

    def _span_limits(self) -> None:
        """MBT 7.43: a subordinate out of span caps Move/Short Halt counters at 1/2 of the total (minimum 1); the
        loss of every CHQ takes away 1/2 of the total for good."""
        g = self.game
        frac = g.optc.values["span-move-fraction"]
        self.msh = [-1] * len(g.formation_side)
        for f, side in enumerate(g.formation_side):
            chqs, had = self._hqs(side, "CHQ", f)
            total = self.budget[f]
            if had and not chqs:
                self.msh[f] = max(0, total - math.floor(total * frac))
            elif self.out_of_span(f):
                self.msh[f] = max(1, math.floor(total * frac))

    def _row_drop(self, f: int) -> int:
        """Rows down the Available Commands Table (MBT 7.43): a CHQ of ``f`` beyond every span of the BHQs over
        it, or none of them left (when some were set up); a BHQ over ``f`` beyond every span of the RHQs over
        it, or none of them left; cumulative. HQs over ``f``: in ``f`` or above it in the ``command_tree``."""
        g = self.game
        drop = 0
        chqs, _ = self._hqs(g.formation_side[f], "CHQ", f)
        bhqs, had_b = self._hqs_over(f, "BHQ")
        rhqs, had_r = self._hqs_over(f, "RHQ")
        if had_b and not bhqs:
            drop += g.optc.span["BHQ"][1]
        elif bhqs and any(not self._in_span(c, bhqs, "BHQ") for c in chqs):
            drop += g.optc.span["BHQ"][1]
        if had_r and not rhqs:
            drop += g.optc.span["RHQ"][1]
        elif rhqs and any(not self._in_span(b, rhqs, "RHQ") for b in bhqs):
            drop += g.optc.span["RHQ"][1]
        return drop

    def available_grade(self, f: int) -> str:
        grade = super().available_grade(f)
        if not self.game.oc_span:
            return grade
        drop = self._row_drop(f)
        return GRADES[min(len(GRADES) - 1, GRADES.index(grade) + drop)] if drop else grade

    # ---------------------------------------------------------------- 7.36 movement factors
    def limited_visibility(self) -> bool:
        """Is this turn one of limited visibility (a spotting modifier, MBT 7.36.1)?"""
        return bool(self.game.turn_spot_mod.get(self.turn, 0))

    def cautious(self, i: int) -> bool:
        """Cautious movement applies to vehicles and helicopters (MBT 7.36.2)."""
        g = self.game
        return g.oc_night and g.ocs.cautious and self.limited_visibility() and not g.units[i].type.ag.leg

    def msa(self, i: int, rate: int) -> int:
        """Cautious movement halves vehicle and NOE helicopter movement factors, rounded down (MBT 7.36.2)."""
        base = super().msa(i, rate)
        if self.cautious(i):
            return int(base * self.game.optc.ground["cautious-fraction"])
        return base

    def heli_msa(self, i: int, alt: str) -> int:
        """Cautious movement halves a helicopter's NOE allowance only, not its Low one (MBT 7.36.2)."""
        if alt == "low" and self.cautious(i):
            return super().msa(i, self.game.units[i].type.road)  # the Low rate of ``AirRules.heli_msa``
        return super().heli_msa(i, alt)

    def quickmarch_ok(self, i: int) -> bool:
        """Under cautious movement squads and half-squads may not quickmarch (MBT 7.36.2)."""
        g = self.game
        if g.oc_night and g.ocs.cautious and self.limited_visibility() and \
                g.units[i].type.ag.leg_size in ("squad", "half_squad"):
            return False
        return super().quickmarch_ok(i)

    def snow_cost(self, h=None) -> int:
        """Snow's extra movement cost of entering hex ``h`` (MBT 7.36.3: in the scenario's ``ground_hexes``, every
        hex when it lists none)."""
        g = self.game
        if not g.oc_snow or (h is not None and g.ocs.ground_hexes is not None and h not in g.ocs.ground_hexes):
            return 0
        return int(g.optc.ground["snow-move-cost"])

    def step_cost(self, i: int, a, b, reverse: bool = False):
        """Snow adds to the movement cost of the terrain (MBT 7.36.3)."""
        c = super().step_cost(i, a, b, reverse)
        if c is None or not self.game.oc_snow or self.mv_mode != "xc":
            return c
        return c + self.snow_cost(b)

    def xc_steps(self, i: int) -> dict:
        """The planning step table with snow's extra cost (MBT 7.36.3)."""
        table = super().xc_steps(i)
        if not self.snow_cost():
            return table
        g = self.game
        key = ("snow", id(table))
        cached = g.xc_tables.get(key)
        if cached is None:
            cached = g.xc_tables[key] = {h: tuple((nb, None if c is None else c + self.snow_cost(nb))
                                                  for nb, c in row) for h, row in table.items()}
        return cached

    def _road_ok(self, i: int) -> bool:
        """Cautious movement in very limited visibility: vehicles get no path or road rate (MBT 7.36.2)."""
        g = self.game
        if g.oc_night and g.ocs.very_limited and self.cautious(i):
            return False
        return super()._road_ok(i)

    def weather_bog(self, i: int) -> tuple[float, int]:
        """Mud doubles the bog range; in snow or mud a transporting vehicle takes -5 per unit of its passengers'
        towed capacity (MBT 7.36.3), in the ground conditions' hexes. Returns (range multiplier, modifier) for the
        bog check (MBT 7.29)."""
        g = self.game
        if not g.oc_night or g.ocs.ground == "normal" or \
                (g.ocs.ground_hexes is not None and self.hex[i] not in g.ocs.ground_hexes):
            return 1, 0
        mult = g.optc.ground["mud-bog-multiplier"] if g.ocs.ground == "mud" else 1
        carried = sum(1 for p in range(g.n) if self.carrier[p] == i)
        return mult, int(g.optc.ground["bog-passenger-modifier"]) * carried


class OptCommandRules(StaggerRules, CommandOptRules, OptSpottingRules, HiddenRules, MoraleRules):
    """Every rule of this area; the state fields' life cycle (reset, copy, fingerprint, views)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        g = self.game
        n, nf = g.n, len(g.formation_side)
        self.mor = [0] * n
        self.cpn = [-1] * nf
        self.hid = [-1] * n
        self.hsp = list(g.ocs.hidden) if g.oc_hidden else []
        self.hcs = [0] * len(self.hsp)
        self.hmv, self.hkd = [0] * len(self.hsp), [0] * len(self.hsp)
        self.camo = [g.oc_camo and i in g.ocs.camouflaged and g.units[i].entry_turn == 0 for i in range(n)]
        self.camk = [False] * n
        self.lit, self.lq = [i in g.ocs.lights_on for i in range(n)], -1  # searchlights (MBT 7.36.4.1)
        self.dsp = [0] * n  # the turn a delayed unit first spotted an opposing unit (MBT 7.40)
        self.dcom = [False] * nf
        self.msh = [-1] * nf
        if g.oc_hidden:
            for c, spec in enumerate(self.hsp):
                for i in spec.units:
                    self.hid[i] = c
            for p, v in enumerate(g.initial_carrier):  # passengers of a hidden vehicle are under its counter
                if v >= 0 and self.hid[v] >= 0 and g.formation_of[p] == g.formation_of[v] and self.hid[p] < 0:
                    self.hid[p] = self.hid[v]
        if g.oc_morale and g.options["cohesion-timing"] == "setup":
            for f in range(nf):
                self._determine_cp(f)

    def _copy(self, dice):
        o = super()._copy(dice)
        o.mor, o.cpn, o.hid, o.hcs = self.mor[:], self.cpn[:], self.hid[:], self.hcs[:]
        o.hsp, o.hmv, o.hkd = self.hsp[:], self.hmv[:], self.hkd[:]  # specs are replaced, never changed
        o.lit, o.lq, o.dsp = self.lit[:], self.lq, self.dsp[:]
        o.camo, o.camk, o.dcom, o.msh = self.camo[:], self.camk[:], self.dcom[:], self.msh[:]
        o.sgf, o.sgc, o.sgp, o.sg1, o.sgq = self.sgf[:], self.sgc, self.sgp[:], self.sg1, self.sgq
        return o

    def fingerprint(self) -> str:
        hidden = [(c.id, c.side, c.hex, c.units) for c in self.hsp] if self.hsp else ""
        return (f"{super().fingerprint()}|oc{self.mor}{self.cpn}{self.hid}{self.hcs}{hidden}{self.hmv}{self.hkd}"
                f"{[int(x) for x in self.camo]}{[int(x) for x in self.camk]}{[int(x) for x in self.dcom]}{self.msh}"
                f"s{self.sgf}{self.sgc}{self.sgp}{self.sg1}q{self.sgq}l{[int(x) for x in self.lit]}{self.lq}"
                f"d{self.dsp}")

    def observe(self, player: int):
        """Hidden units of the opponent are not in the view (MBT 7.2), nor the camouflage of its units until it
        is announced to a spotting attempt (MBT 7.24: the Formation Summary lists it); the rest of these rules'
        state is public (morale and span counters are on the map)."""
        view = super().observe(player)
        g = self.game
        if g.oc_hidden:
            self.hide_in_view(view, player)
        if g.oc_camo:
            view.camo = [c if (g.units[i].side == player or self.camk[i]) else False
                         for i, c in enumerate(self.camo)]
        return view

    def scramble_hidden(self, player: int, seed: int):
        other = super().scramble_hidden(player, seed)
        g = self.game
        if g.oc_hidden:
            self.scramble_counters(other, player, random.Random(seed + 7))
        if g.oc_camo:  # unannounced camouflage: any unit set up on the map may have it (MBT 7.24)
            rng = random.Random(seed + 11)
            for i in range(g.n):
                if g.units[i].side != player and not self.camk[i] and self.st[i] == ON:
                    other.camo[i] = g.units[i].entry_turn == 0 and rng.random() < 0.5
        return other

    def replay_hidden(self) -> tuple[set, list]:
        """For the replay viewer (MBT 7.2): the names of the units under unrevealed HIDDEN UNIT counters, and the
        counters themselves as (id, axial hex, side) - drawn in their place until spotted."""
        g = self.game
        if not g.oc_hidden:
            return set(), []
        names = {g.units[i].name for i in range(g.n) if self.hid[i] >= 0}
        counters = [(spec.id, self.counter_hex(c), spec.side) for c, spec in enumerate(self.hsp)
                    if self.hcs[c] == 0]
        return names, counters

    def morale_status(self, i: int) -> str:
        """The morale counter of unit ``i`` (MBT 7.1.4): none, hesitation-on/off, break-on/off."""
        return MOR_NAMES[self.mor[i]]

    def recorded_losses(self) -> list[int]:
        """Per formation: its recorded losses (MBT 7.1.1.2)."""
        return [self.formation_losses(f) for f in range(len(self.game.formation_side))]


__all__ = ["OptCommandRules", "OPT_COMMAND_SLOTS", "attach_opt_command", "RULE_FLAGS", "DEAD"]
