"""Optional Rule 7.2 Hidden Units: HIDDEN UNIT counters from the scenario extension (``hidden_units``) and added
in play (7.2.3), each standing for units of one formation or for nothing (a fake). State: per unit ``hid`` the
index of the counter hiding it (-1 visible); per counter ``hsp`` its spec (id, owner, hex, units; a fake's hex
moves), ``hcs`` 0 hidden / 1 revealed, ``hmv`` hexes a fake moved this turn, ``hkd`` 1 once a fake moved at a
vehicle's rate (7.2.2.2).

- Spotting (7.2.2.1): a counter is spotted like a ground unit at its hex, with the greatest spotting range of the
  types it stands for; spotted, all its units are revealed (they stand where their owner moved them: see
  ``_keep_together`` for the Command Range they keep around the counter). A fake is revealed once an opposing
  unit is within the range at which a leg unit would be spotted there (a vehicle once it moved like one).
- Moving (7.2.2.2): moving hidden units are spotted with their Spot/Move range after every step, and keep within
  Command Range of their counter's hex; fakes move ``fake COUNTER HEX`` one hex at a time in the Close Assault /
  Hand-to-Hand step that opens the Movement Phase, up to the side's greatest leg movement factor (leg-like) or
  vehicle factor (then vehicle-like for good), checked like a moving unit after each hex.
- Adding (7.2.3): in the Command Phase the unit to command, if no opposing unit spots it, may hide: ``hide UNIT``
  (a new counter at its hex), ``hide UNIT COUNTER`` (into a counter of its formation within Command Range) or
  ``hide UNIT fake`` (a new fake at its hex), within the side's ``hidden_limit`` of counters on the map.
- Revealing (7.2.2.3): firing (direct, overwatch, close combat, AA) reveals the counter; observing or firing
  Indirect Fire does not; being the target of Indirect Fire or of an aircraft attack (helicopter or fixed-wing)
  reveals it.
- Observation: the opponent sees the counters' hexes, never which units they hide (hidden units are off the board
  in its view, ``HIDDEN``, with their set-up statuses) nor which counters are fakes; bots read only observations."""
from __future__ import annotations

import dataclasses
import random

from studio.hexgrid.coords import distance, neighbour

from .actions import PASS, Action
from .codes import DEAD, EXITED, ON, P_CMD
from .opt_command_data import HiddenSpec

#: the status a hidden enemy unit has in an observation (neither on the map nor off it)
HIDDEN = 6


class HiddenRules:
    """Rules of this module, mixed into :class:`~.advanced.AdvState`; inert unless ``hidden-units`` is on."""

    __slots__ = ()

    def counter_hex(self, c: int):
        """The hex of counter ``c``: a fake's own (it moves); a real counter's first vehicle on the map, else its
        first unit (MBT 7.2.2.1: a unit of the type with the greatest spotting range stands at the counter)."""
        spec = self.hsp[c]
        lead = None
        for i in spec.units:
            if self.st[i] == ON:
                if not self.game.units[i].type.ag.leg:
                    return self.hex[i]
                lead = self.hex[i] if lead is None else lead
        return spec.hex if lead is None else lead

    def hidden_counters(self, side: int | None = None) -> list[tuple[str, str]]:
        """Unrevealed counters (id, hex label), of ``side`` or all: what every player sees on the map."""
        g = self.game
        return [(spec.id, g.label(self.counter_hex(c))) for c, spec in enumerate(self.hsp)
                if self.hcs[c] == 0 and (side is None or spec.side == side)]

    def reveal(self, c: int, why: str) -> None:
        """Reveal counter ``c``: its units are placed on the map (MBT 7.2.2.1, 7.2.2.3)."""
        if c < 0 or self.hcs[c]:
            return
        g = self.game
        self.hcs[c] = 1
        spec = self.hsp[c]
        for i in spec.units:
            self.hid[i] = -1
        what = ", ".join(g.units[i].name for i in spec.units) or "a fake"
        self.narrate(f"hidden counter {spec.id} at {g.label(self.counter_hex(c))} revealed ({why}): {what}")

    def _counter_range(self, c: int) -> int:
        """Spotting range of counter ``c``: the greatest of its units' (MBT 7.2.2.1); a fake: the leg range."""
        spec = self.hsp[c]
        h = self.counter_hex(c)
        ranges = [self._range_at(i, h) for i in spec.units if self.st[i] == ON]
        return max(ranges) if ranges else self._leg_range(h)

    def _range_at(self, i: int, h) -> int:
        """The spotting range unit ``i`` would have in hex ``h`` (the counter's hex stands for its units)."""
        own = self.hex[i]
        self.hex[i] = h
        try:
            return self.spot_range(i, df=True)
        finally:
            self.hex[i] = own

    def _leg_range(self, h, moving: bool = False) -> int:
        """The range at which even a leg unit (the smallest size column) would be spotted in hex ``h`` (with the
        Spot/Move modifier when ``moving``)."""
        g = self.game
        tb = g.tables
        mod = self._counter_mod(h, moving)
        lo, hi = tb.spot_clamp
        size = min(g.ag.spot_size, key=lambda k: g.ag.spot_size[k][0])
        r = g.ag.spot_size[size][max(lo, min(hi, mod))]
        return min(r, g.visibility) if g.visibility is not None else r

    def _counter_mod(self, h, moving: bool) -> int:
        tb = self.game.tables
        return tb.cover_spot.get(self.cover_of(h, spotting=True), 0) + self.game.turn_spot_mod.get(self.turn, 0) + \
            (tb.spot_mod["target-spot-move"] if moving else 0)

    def _fake_range(self, c: int) -> int:
        """A fake's spotting range (MBT 7.2.2.1-2): a leg unit's at its hex, a vehicle's once it moved like one;
        with the Spot/Move modifier after a turn it moved."""
        h = self.counter_hex(c)
        if not self.hkd[c]:
            return self._leg_range(h, self.hmv[c] > 0)
        g = self.game
        lo, hi = g.tables.spot_clamp
        return g.spot_range_of(max(lo, min(hi, self._counter_mod(h, self.hmv[c] > 0))))

    def _counter_seen(self, c: int, rng: int) -> bool:
        """Does an opposing unit spot counter ``c`` at range ``rng``, or an active Ground-Based Radar reach one
        of its units (MBT 7.46)?"""
        g = self.game
        h = self.counter_hex(c)
        side = self.hsp[c].side
        if g.oc_radar and any(self._radar_reaches(s, i) for s in g.ocs.radar if g.units[s].side != side
                              for i in self.hsp[c].units):
            return True
        return any(self.st[s] == ON and g.units[s].type.combat and self.hex[s] is not None and
                   distance(self.hex[s], h) <= rng and g.los.clear(self.hex[s], h) for s in g.enemies_of(side))

    def _radar_reaches(self, s: int, t: int) -> bool:
        g = self.game
        if self.st[s] != ON or self.st[t] != ON:
            return False
        v = g.optc.values
        rng = v["radar-leg-range"] if g.units[t].type.ag.leg else v["radar-vehicle-range"]
        return distance(self.hex[s], self.hex[t]) <= rng and g.los.clear(self.hex[s], self.hex[t])

    def _spot_counters(self) -> None:
        """Spotting Phase (MBT 7.2.2.1): every unrevealed counter an opposing unit spots is revealed."""
        g = self.game
        for c, spec in enumerate(self.hsp):
            if self.hcs[c] == 0 and spec.units and all(self.st[i] in (DEAD, EXITED) for i in spec.units):
                self.hcs[c] = 1  # nothing left under it: the counter leaves the map
                continue
            if self.hcs[c] == 0:
                rng = self._counter_range(c) if spec.units else self._fake_range(c)
                if self._counter_seen(c, rng):
                    self.reveal(c, "spotted")

    def _spot_targets(self) -> list[set]:
        """Counters spotted are revealed first; units still hidden are spotted by no one (MBT 7.2.2.1)."""
        g = self.game
        if not g.oc_hidden:
            return super()._spot_targets()
        self._spot_counters()
        out = super()._spot_targets()
        if any(x >= 0 for x in self.hid):
            for s in range(g.n):
                if self.spots[s] and any(self.hid[t] >= 0 for t in self.spots[s]):
                    self.spots[s] = tuple(t for t in self.spots[s] if self.hid[t] < 0 or
                                          self._radar_sees(s, t))
            out = [set() for _ in g.sides]
            for s in range(g.n):
                out[g.units[s].side].update(self.spots[s])
        return out

    def _radar_sees(self, s: int, t: int) -> bool:
        """A Ground-Based Radar spotting a hidden unit reveals its counter (MBT 7.46)."""
        if self.game.oc_radar and s in self.game.ocs.radar:
            self.reveal(self.hid[t], "ground radar")
            return True
        return False

    def _after_step(self, i: int) -> None:
        """A moving hidden unit is spotted with its Spot/Move range after each step (MBT 7.2.2.2)."""
        g = self.game
        if g.oc_hidden and self.hid[i] >= 0 and self.st[i] == ON:
            if any(self.st[s] == ON and self.hex[s] is not None and g.units[s].type.combat and
                   distance(self.hex[s], self.hex[i]) <= self.spot_range(i) and
                   g.los.clear(self.hex[s], self.hex[i]) for s in g.enemies_of(g.units[i].side)):
                self.reveal(self.hid[i], "spotted moving")
            if self.hid[i] >= 0:
                self._keep_together(self.hid[i])
        super()._after_step(i)

    def _keep_together(self, c: int) -> None:
        """A counter's units stand within Command Range of its hex (MBT 7.2.2.1: where they are placed when it is
        revealed): a unit beyond it leaves the counter for a new one of its own, or, with no room for one under
        the limit, is revealed alone (an engine policy)."""
        g = self.game
        h = self.counter_hex(c)
        for i in self.hsp[c].units:
            if self.st[i] == ON and self.hid[i] == c and not self.in_command_range_of(i, h, g.formation_of[i]):
                self._split(c, i)

    def _split(self, c: int, i: int) -> None:
        g = self.game
        side = g.units[i].side
        units = tuple(u for u in self.hsp[c].units if u == i or (self.carrier[u] == i and self.hid[u] == c))
        self.hsp[c] = dataclasses.replace(self.hsp[c], units=tuple(u for u in self.hsp[c].units if u not in units))
        if self._counter_room(side):
            k = self._add_counter(HiddenSpec(self._new_id(side), side, self.hex[i], units))
            for u in units:
                self.hid[u] = k
            self.narrate(f"hidden unit counter {self.hsp[k].id} splits from {self.hsp[c].id}")
            return
        for u in units:
            self.hid[u] = -1
        self.narrate(f"{g.units[i].name} leaves hidden unit counter {self.hsp[c].id}: revealed (no counter left)")

    def _ow_shots(self, side: int) -> list:
        """Hidden units cannot be fired at (MBT 7.2)."""
        shots = super()._ow_shots(side)
        if self.game.oc_hidden and shots and any(x >= 0 for x in self.hid):
            return [x for x in shots if self.hid[x[1]] < 0]
        return shots

    def _heli_spots(self, i: int) -> tuple:
        """Helicopters spot hidden units only through their counters (the Spotting Phase, MBT 7.2.2.1)."""
        spots = super()._heli_spots(i)
        if self.game.oc_hidden and any(self.hid[t] >= 0 for t in spots):
            return tuple(t for t in spots if self.hid[t] < 0)
        return spots

    def _fw_targets(self) -> list[int]:
        """Aircraft acquire no hidden unit (MBT 7.2)."""
        out = super()._fw_targets()
        return [t for t in out if self.hid[t] < 0] if self.game.oc_hidden else out

    def fw_acquired(self) -> list[int]:
        """No hidden unit stays acquired (MBT 7.2: the counter hides it from the aircraft too)."""
        out = super().fw_acquired()
        return [t for t in out if self.hid[t] < 0] if self.game.oc_hidden else out

    def _arm_targets(self) -> list[int]:
        """Anti-radiation missiles home on AA radars on the map only: not on hidden units (MBT 7.2, 6.7.3.5)."""
        out = super()._arm_targets()
        return [t for t in out if self.hid[t] < 0] if self.game.oc_hidden else out

    def fw_aa_fire(self, s: int, row) -> None:
        """AA fire at an aircraft is combat: it reveals the hidden AA unit (MBT 7.2.2.3)."""
        if self.game.oc_hidden:
            self.reveal(self.hid[s], "AA fire")
        super().fw_aa_fire(s, row)

    def _shoot(self, s: int, t: int, row, overwatch: bool) -> None:
        """Direct combat reveals the shooter; an aircraft attack reveals its target (MBT 7.2.2.3)."""
        g = self.game
        if g.oc_hidden:
            self.reveal(self.hid[s], "fires")
            if g.units[s].type.ag.heli:
                self.reveal(self.hid[t], "aircraft attack")
        super()._shoot(s, t, row, overwatch)

    def _if_attack(self, s: int, t: int, *args, **kw) -> None:
        """The target of Indirect Fire is revealed (MBT 7.2.2.3)."""
        if self.game.oc_hidden:
            self.reveal(self.hid[t], "indirect fire")
        super()._if_attack(s, t, *args, **kw)

    def fw_gp_attack(self, u: int, *args, **kw) -> None:
        """The target of a fixed-wing attack is revealed (MBT 7.2.2.3)."""
        if self.game.oc_hidden:
            self.reveal(self.hid[u], "aircraft attack")
        super().fw_gp_attack(u, *args, **kw)

    def apply_assault(self, action) -> None:
        """Close combat reveals the attacker (MBT 7.2.2.3); ``fake`` moves a fake counter (7.2.2.2)."""
        g = self.game
        if action[0] == "fake":
            self._move_fake(action)
            return
        if g.oc_hidden and action[0] != "pass":
            self.reveal(self.hid[g.uindex[action[1]]], "close combat")
        super().apply_assault(action)

    def _start_turn(self) -> None:
        """The Spotting Phase sees last turn's fake moves (Spot/Move); then they move afresh."""
        super()._start_turn()
        if self.hsp:
            self.hmv = [0] * len(self.hsp)

    # ---------------------------------------------------------------- adding counters (MBT 7.2.3)
    def _spotted(self, i: int) -> bool:
        return any(i in self.spots[s] for s in self.game.enemies_of(self.game.units[i].side))

    def _counter_room(self, side: int) -> bool:
        """May ``side`` put one more counter on the map (its ``hidden_limit``, none = no limit, MBT 7.2.3)?"""
        limit = self.game.ocs.hidden_limit.get(self.game.sides[side])
        return limit is None or sum(1 for c, spec in enumerate(self.hsp)
                                    if spec.side == side and self.hcs[c] == 0) < limit

    def hide_actions(self) -> list:
        """Command Phase, for the unit to command now if no opposing unit spots it (MBT 7.2.3): ``hide UNIT``,
        ``hide UNIT COUNTER`` (a counter of its formation within Command Range), ``hide UNIT fake``."""
        g = self.game
        i = self.cq
        if i >= g.n or self.st[i] != ON or self.hid[i] >= 0 or self.carrier[i] >= 0 or self._spotted(i):
            return []
        side, f, name = g.units[i].side, g.formation_of[i], g.units[i].name
        room = self._counter_room(side)
        out = [Action(("hide", name))] if room else []
        for c, spec in enumerate(self.hsp):
            if self.hcs[c] == 0 and spec.side == side and spec.units and g.formation_of[spec.units[0]] == f and \
                    self.in_command_range_of(i, self.counter_hex(c), f):
                out.append(Action(("hide", name, spec.id)))
        if room and not any(self.hcs[c] == 0 and not spec.units and spec.hex == self.hex[i]
                            for c, spec in enumerate(self.hsp)):
            out.append(Action(("hide", name, "fake")))
        return out

    def apply_hide(self, action) -> None:
        """Hide the unit (with its passengers) under a new or an existing counter, or add a fake at its hex."""
        g = self.game
        i = g.uindex[action[1]]
        side = g.units[i].side
        if len(action) == 3 and action[2] == "fake":
            self._add_counter(HiddenSpec(self._new_id(side), side, self.hex[i], ()))
            self.narrate(f"{g.sides[side]} adds a hidden unit counter at {g.label(self.hex[i])}")
            return
        units = (i,) + tuple(p for p in range(g.n) if self.carrier[p] == i and self.hid[p] < 0 and
                             g.formation_of[p] == g.formation_of[i])
        if len(action) == 2:
            c = self._add_counter(HiddenSpec(self._new_id(side), side, self.hex[i], units))
        else:
            c = next(k for k, spec in enumerate(self.hsp) if spec.id == action[2])
            self.hsp[c] = dataclasses.replace(self.hsp[c], units=self.hsp[c].units + units)
        for u in units:
            self.hid[u] = c
        self.narrate(f"{g.units[i].name} hides under hidden unit counter {self.hsp[c].id} "
                     f"at {g.label(self.counter_hex(c))}")

    def _new_id(self, side: int) -> str:
        ids = {spec.id for spec in self.hsp}
        k = len(self.hsp) + 1
        while f"{self.game.sides[side]}-H{k}" in ids:
            k += 1
        return f"{self.game.sides[side]}-H{k}"

    def _add_counter(self, spec) -> int:
        self.hsp.append(spec)
        self.hcs.append(0)
        self.hmv.append(0)
        self.hkd.append(0)
        return len(self.hsp) - 1

    def legal_actions(self) -> list:
        out = super().legal_actions()
        if self.game.oc_hidden and self.phase == P_CMD:
            return out + self.hide_actions()
        return out

    # ---------------------------------------------------------------- moving fakes (MBT 7.2.2.2)
    def _fake_budgets(self, side: int) -> tuple:
        """The side's greatest cross-country movement factor of its leg units, of its vehicles and of its
        helicopters: how far a fake may move in a turn as each (it moves 'as if any unit type', MBT 7.2.2.2)."""
        g = self.game
        cached = g.hidden_fake_budgets = getattr(g, "hidden_fake_budgets", None) or {}
        if side not in cached:
            mine = [g.units[i].type for i in range(g.n) if g.units[i].side == side]
            legs = max([t.cc for t in mine if t.ag.leg] or [0])
            cars = max([t.cc for t in mine if not t.ag.leg and not t.ag.heli] or [0])
            helis = max([t.cc for t in mine if t.ag.heli] or [0])
            cached[side] = (legs, max(cars, legs), max(helis, cars, legs))
        return cached[side]

    def _fake_step(self, c: int, nb) -> tuple | None:
        """(cost, vehicle-like) of fake ``c`` entering ``nb``, or None when it may not: a leg's cost within the leg
        factor, else a tracked vehicle's within the vehicle factor, else one per hex within the helicopter
        (NOE) factor; a vehicle or helicopter pace makes it a vehicle for spotting (NOE helicopters are spotted
        as ground vehicles, MBT 6.7.6.1.1)."""
        g = self.game
        costs = g.cost.get(nb)
        if costs is None or self.enemies_in(nb, self.hsp[c].side):
            return None
        leg_max, car_max, heli_max = self._fake_budgets(self.hsp[c].side)
        spent = self.hmv[c]
        leg, car = costs.get("l"), costs.get("t")
        if not self.hkd[c] and leg is not None and spent + leg <= leg_max:
            return leg, False
        if car is not None and spent + car <= car_max:
            return car, True
        if heli_max > car_max and spent + 1 <= heli_max:
            return 1, True
        return None

    def fake_moves(self, side: int) -> list:
        """``fake COUNTER HEX``: one hex for each of ``side``'s unrevealed fakes with allowance left."""
        g = self.game
        out = []
        for c, spec in enumerate(self.hsp):
            if self.hcs[c] or spec.units or spec.side != side:
                continue
            for d in range(6):
                nb = neighbour(spec.hex, d)
                if self._fake_step(c, nb) is not None:
                    out.append(Action(("fake", spec.id, g.label(nb))))
        return out

    def assaults(self, side: int) -> list:
        """The Close Assault / Hand-to-Hand step also moves the side's fakes (MBT 7.2.2.2), then ``pass``."""
        out = super().assaults(side)
        if not self.game.oc_hidden or not self.hsp:
            return out
        fakes = self.fake_moves(side)
        if not fakes:
            return out
        return [a for a in out if a[0] != "pass"] + fakes + [PASS]

    def _move_fake(self, action) -> None:
        g = self.game
        c = next(k for k, spec in enumerate(self.hsp) if spec.id == action[1])
        nb = g.map.hex(action[2])
        cost, car = self._fake_step(c, nb)
        self.hsp[c] = dataclasses.replace(self.hsp[c], hex=nb)
        self.hmv[c] += cost
        self.hkd[c] = self.hkd[c] or int(car)
        self.narrate(f"hidden unit counter {action[1]} moves to {action[2]}")
        if self._counter_seen(c, self._fake_range(c)):
            self.reveal(c, "spotted moving")

    # ---------------------------------------------------------------- the views
    def hidden_from(self, player: int) -> list[int]:
        """The units ``player`` may not see: the opponent's units under unrevealed counters and their passengers
        (MBT 7.2.2: the counter stands for everything it hides)."""
        g = self.game
        hid, car = self.hid, self.carrier
        return [i for i in range(g.n) if g.units[i].side != player and
                (hid[i] >= 0 or (car[i] >= 0 and hid[car[i]] >= 0))]

    def _blank_units(self, other, units: list[int]) -> None:
        """Every per-unit field of ``units`` in ``other`` takes its set-up value (facing, commands, statuses,
        spots ...), so nothing of the true state of a hidden unit is in a view."""
        blank, names = _blank_of(self.game)
        for name in names:
            mine, theirs = getattr(other, name), getattr(blank, name)
            for i in units:
                mine[i] = theirs[i]

    def _public_counters(self, other, player: int) -> list[int]:
        """The opponent's unrevealed counters in ``other`` as the player sees them: id and hex, no units, no moves
        (a fake's moves would tell it from a real counter); returns their indices."""
        out = []
        for c, spec in enumerate(self.hsp):
            if spec.side != player and self.hcs[c] == 0:
                other.hsp[c] = HiddenSpec(spec.id, spec.side, self.counter_hex(c), ())
                other.hmv[c] = other.hkd[c] = 0
                out.append(c)
        return out

    def hide_in_view(self, view, player: int) -> None:
        """The opponent's hidden units leave ``view``'s map (status ``HIDDEN``, no hex, every other field at its
        set-up value); which counter hides which unit, and which counters are fakes, is not in it (MBT 7.2)."""
        if self.hsp:
            self._public_counters(view, player)
        units = self.hidden_from(player)
        if not units:
            return
        self._blank_units(view, units)
        for i in units:
            view.st[i] = HIDDEN
            view.hex[i] = None
            view.hid[i] = -2
            view.mk[i] = view.mkdf[i] = 0
            view.carrier[i] = -1

    def scramble_counters(self, other, player: int, rng: random.Random) -> None:
        """Place the opponent's hidden units at random among its unrevealed counters (their hexes), with their
        set-up statuses (the true ones are unknown); the counters' contents follow the draw."""
        g = self.game
        counters = self._public_counters(other, player) if self.hsp else []
        units = self.hidden_from(player)
        if not units:
            return
        self._blank_units(other, units)
        for i in units:
            other.st[i], other.carrier[i] = self.st[i], self.carrier[i]
            choices = [c for c in counters if self.hsp[c].side == g.units[i].side]
            c = rng.choice(choices) if choices else self.hid[i]
            other.hid[i] = c
            if c >= 0 and choices:
                other.hex[i] = self.counter_hex(c)
                other.hsp[c] = dataclasses.replace(other.hsp[c], units=other.hsp[c].units + (i,))
        for i in units:
            if other.carrier[i] >= 0:
                other.hex[i] = other.hex[other.carrier[i]]


#: per-side, per-formation and per-counter lists that may happen to have one entry per unit
_NOT_PER_UNIT = frozenset(("budget", "cpn", "dcom", "msh", "hcs", "bat_fired", "lost", "mines", "sgf", "sgp",
                           "observed", "air_done", "heli_shots", "escort", "shots", "ow_trig", "mv_trail", "exits"))


def _blank_of(game) -> tuple:
    """The set-up state of ``game`` and the names of its per-unit list fields (cached on the game)."""
    cached = getattr(game, "hidden_blank", None)
    if cached is None:
        blank = game.new_initial_state(0)
        names = []
        for cls in type(blank).__mro__:
            for name in getattr(cls, "__slots__", ()):
                value = getattr(blank, name, None)
                if name not in _NOT_PER_UNIT and isinstance(value, list) and len(value) == game.n:
                    names.append(name)
        cached = game.hidden_blank = (blank, tuple(dict.fromkeys(names)))
    return cached


# ---------------------------------------------------------------- the heuristic bots' decisions
def hidden_choice(state, legal: list) -> tuple:
    """(the hidden-unit decision of the heuristic bots or None, the other legal actions): a unit in Medium or
    Heavy Cover hides (into a counter of its formation if one is near, MBT 7.2.3); a fake closes on the nearest
    enemy unit in sight at a leg's pace while more than ``FAKE_STANDOFF`` hexes from it (MBT 7.2.2.2)."""
    mine = [a for a in legal if a[0] in ("hide", "fake")]
    rest = [a for a in legal if a[0] not in ("hide", "fake")]
    if not mine:
        return None, legal
    return (_fake_choice(state, mine) if mine[0][0] == "fake" else _hide_choice(state, mine)), rest


FAKE_STANDOFF = 10


def _hide_choice(state, mine: list):
    g = state.game
    i = g.uindex[mine[0][1]]
    if state.cover_of(state.hex[i], spotting=True) not in ("medium", "heavy"):
        return None
    join = [a for a in mine if len(a) == 3 and a[2] != "fake"]
    return join[0] if join else next((a for a in mine if len(a) == 2), None)


def _fake_choice(state, mine: list):
    g = state.game
    ids = {spec.id: c for c, spec in enumerate(state.hsp)}
    best, gain = None, 0
    for a in mine:
        c = ids[a[1]]
        side = state.hsp[c].side
        enemies = [state.hex[k] for k in g.enemies_of(side) if state.st[k] == ON and state.hex[k] is not None]
        nb = g.map.hex(a[2])
        step = state._fake_step(c, nb)
        if not enemies or step is None or step[1]:
            continue
        here = min(distance(state.hsp[c].hex, e) for e in enemies)
        there = min(distance(nb, e) for e in enemies)
        if there > FAKE_STANDOFF and here - there > gain:
            best, gain = a, here - there
    return best
