"""Optional Rule 7.2 Hidden Units: HIDDEN UNIT counters from the scenario extension (``hidden_units``), each
standing for units of one formation or for nothing (a fake). Per unit ``hid``: the index of the counter hiding it
(-1 visible); per counter ``hcs``: 0 hidden, 1 revealed.

- Spotting (7.2.2.1): a counter is spotted like a ground unit at its hex, with the greatest spotting range of the
  types it stands for; spotted, all its units are revealed (they stand where the scenario set them up: the owner's
  placement choice around the counter is that set-up). A fake is revealed once an opposing unit is within the
  range at which a leg unit (the smallest size column) would be spotted there.
- Moving (7.2.2.2): moving hidden units are spotted with their Spot/Move range after every step.
- Revealing (7.2.2.3): firing (direct, overwatch, close combat) reveals the counter; observing or firing Indirect
  Fire does not; being the target of Indirect Fire or of an aircraft attack (helicopter or fixed-wing) reveals it.
- Observation: the opponent sees the counters' hexes, never which units they hide (hidden units are off the board
  in its view, ``HIDDEN``) nor which counters are fakes; bots read only observations.
Not modelled: adding counters during play (7.2.3) and fakes that move."""
from __future__ import annotations

import random

from studio.hexgrid.coords import distance

from .codes import ON

#: the status a hidden enemy unit has in an observation (neither on the map nor off it)
HIDDEN = 6


class HiddenRules:
    """Rules of this module, mixed into :class:`~.advanced.AdvState`; inert unless ``hidden-units`` is on."""

    __slots__ = ()

    def counter_hex(self, c: int):
        """The hex of counter ``c``: a fake's set-up hex; a real counter's first unit on the map (MBT 7.2.2)."""
        spec = self.game.ocs.hidden[c]
        for i in spec.units:
            if self.st[i] == ON:
                return self.hex[i]
        return spec.hex

    def hidden_counters(self, side: int | None = None) -> list[tuple[str, str]]:
        """Unrevealed counters (id, hex label), of ``side`` or all: what every player sees on the map."""
        g = self.game
        return [(spec.id, g.label(self.counter_hex(c))) for c, spec in enumerate(g.ocs.hidden)
                if self.hcs[c] == 0 and (side is None or spec.side == side)]

    def reveal(self, c: int, why: str) -> None:
        """Reveal counter ``c``: its units are placed on the map (MBT 7.2.2.1, 7.2.2.3)."""
        if c < 0 or self.hcs[c]:
            return
        g = self.game
        self.hcs[c] = 1
        spec = g.ocs.hidden[c]
        for i in spec.units:
            self.hid[i] = -1
        what = ", ".join(g.units[i].name for i in spec.units) or "a fake"
        self.narrate(f"hidden counter {spec.id} at {g.label(self.counter_hex(c))} revealed ({why}): {what}")

    def _counter_range(self, c: int) -> int:
        """Spotting range of counter ``c``: the greatest of its units' (MBT 7.2.2.1); a fake: the leg range."""
        spec = self.game.ocs.hidden[c]
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

    def _leg_range(self, h) -> int:
        """The range at which even a leg unit (the smallest size column) would be spotted in hex ``h``."""
        g = self.game
        tb = g.tables
        mod = tb.cover_spot.get(self.cover_of(h, spotting=True), 0) + g.turn_spot_mod.get(self.turn, 0)
        lo, hi = tb.spot_clamp
        size = min(g.ag.spot_size, key=lambda k: g.ag.spot_size[k][0])
        r = g.ag.spot_size[size][max(lo, min(hi, mod))]
        return min(r, g.visibility) if g.visibility is not None else r

    def _counter_seen(self, c: int, rng: int) -> bool:
        """Does an opposing unit spot counter ``c`` at range ``rng``, or an active Ground-Based Radar reach one
        of its units (MBT 7.46)?"""
        g = self.game
        h = self.counter_hex(c)
        side = g.ocs.hidden[c].side
        if g.oc_radar and any(self._radar_reaches(s, i) for s in g.ocs.radar if g.units[s].side != side
                              for i in g.ocs.hidden[c].units):
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
        for c, spec in enumerate(g.ocs.hidden):
            if self.hcs[c] == 0:
                rng = self._counter_range(c) if spec.units else self._leg_range(self.counter_hex(c))
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
        super()._after_step(i)

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
        """Close combat reveals the attacker (MBT 7.2.2.3)."""
        g = self.game
        if g.oc_hidden and action[0] != "pass":
            self.reveal(self.hid[g.uindex[action[1]]], "close combat")
        super().apply_assault(action)

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

    def hide_in_view(self, view, player: int) -> None:
        """The opponent's hidden units leave ``view``'s map (status ``HIDDEN``, no hex, every other field at its
        set-up value); which counter hides which unit, and which counters are fakes, is not in it (MBT 7.2)."""
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
        """Place the opponent's hidden units at random among its unrevealed counters' hexes, with their set-up
        statuses (the true ones are unknown)."""
        g = self.game
        units = self.hidden_from(player)
        if not units:
            return
        self._blank_units(other, units)
        for i in units:
            other.st[i], other.carrier[i], other.hid[i] = self.st[i], self.carrier[i], self.hid[i]
            choices = [c for c, spec in enumerate(g.ocs.hidden) if self.hcs[c] == 0 and
                       spec.side == g.units[i].side]
            other.hex[i] = self.counter_hex(rng.choice(choices)) if choices else self.hex[i]
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
