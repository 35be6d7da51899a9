"""Advancing attacks (MBT 6.6.1.2, 6.6.1.1), Advanced Game: in the Close Assault / Hand-to-Hand Combat Step an
unsuppressed squad or half-squad, or a section without attached weapons, with a Move command that has not moved may
spend 1 of its allowance to move next to an enemy it spots two hexes away and attack it there:
``assault ATTACKER TARGET advance HEX``. HEX is adjacent to both, enterable by the attacker, without enemies and
less than 2 Heights from the target. The advance triggers Overwatch (and barrages, 6.6.6), resolved before the
attack; then the Hand-to-Hand (leg or towed target) or Close Assault (vehicle) takes the Advance Attack modifier
(table ``advanced-movement`` row ``advance-attack``, -10), the attacker alone. An attacker eliminated or
Suppressed by the Overwatch fire does not attack."""
from __future__ import annotations

from studio.hexgrid.coords import distance, neighbour

from .actions import PASS, Action
from .adv_move_data import adv_move
from .codes import MMOVE, ON

ADVANCING = -3  # ``ca_side`` while the Overwatch fire at an advancing attacker is open


class AdvancingRules:
    """Rules of MBT 6.6.1.2's Advancing Attack, mixed into :class:`~.advanced.AdvState` (slot ``adv_pend``: the
    advancing (attacker, target, side in the step) waiting for its Overwatch, or None)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.adv_pend = None

    def _copy(self, dice):
        o = super()._copy(dice)
        o.adv_pend = self.adv_pend
        return o

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}|ad{self.adv_pend}"

    def may_advance(self, a: int) -> bool:
        """A squad or half-squad, or a section without attached weapons (MBT 6.6.1.2)."""
        from .opt_move_data import card_move

        if self.is_towed(a) or self.qm == a:
            return False
        return self.leg_size(a) != "section" or card_move(self.game, a).quickmarch > 0

    def advance_hexes(self, a: int, t: int) -> list:
        """Hexes next to both ``a`` and target ``t`` that ``a`` may advance into (MBT 6.6.1.2)."""
        g = self.game
        ha, ht = self.hex[a], self.hex[t]
        if distance(ha, ht) != 2:
            return []
        enemy = self._enemy_hexes(g.units[a].side)
        out = []
        for f in range(6):
            b = neighbour(ha, f)
            if b in g.map.label_of and distance(b, ht) == 1 and b not in enemy and \
                    self.xc_static(a, ha, b) is not None and abs(g.elev.get(ht, 0) - g.elev.get(b, 0)) < 2:
                out.append(b)
        return out

    def assaults(self, side: int) -> list[Action]:
        out = [x for x in super().assaults(side) if x != PASS]
        g = self.game
        for a in g.units_of(side):
            if not (self._may_assault(a) and self.may_advance(a)):
                continue
            for t in self.spots[a]:
                if self.st[t] == ON and not g.units[t].type.ag.heli:
                    out += self._advance_actions(a, t)
        return out + [PASS] if out else []

    def _advance_actions(self, a: int, t: int) -> list[Action]:
        """``assault A T advance HEX`` for each hex, and ``... all`` with the hex-mates that may advance there too."""
        g = self.game
        out = []
        for b in self.advance_hexes(a, t):
            head = ("assault", g.units[a].name, g.units[t].name, "advance", g.label(b))
            out.append(Action(head))
            if self._advancing_mates(a, t, b):
                out.append(Action(head + ("all",)))
        return out

    def _advancing_mates(self, a: int, t: int, b) -> list[int]:
        """The other units in ``a``'s hex that spot ``t`` and may advance into ``b`` with it: they combine as
        additional attackers (MBT 6.6.1.1, 6.6.1.2: attackers of one hex against one target combine)."""
        g = self.game
        return [m for m in g.units_of(g.units[a].side) if m != a and self.hex[m] == self.hex[a] and
                t in self.spots[m] and self._may_assault(m) and self.may_advance(m) and b in self.advance_hexes(m, t)]

    def apply_assault(self, action) -> None:
        if len(action) in (5, 6) and action[3] == "advance":
            a, t, b = self.game.uindex[action[1]], self.game.uindex[action[2]], self.game.map.hex(action[4])
            mates = self._advancing_mates(a, t, b) if len(action) == 6 and action[5] == "all" else []
            self._advance_attack(a, t, b, mates)
            return
        super().apply_assault(action)

    def _advance_attack(self, a: int, t: int, b, mates: list | tuple = ()) -> None:
        """Move next to the target (with the hex-mates that combine) and let the enemy's Overwatch fire first (MBT
        6.6.1.2)."""
        g = self.game
        h = self.hex[a]
        group = [a] + list(mates)
        for m in group:
            self.hex[m] = b
            self.fac[m] = next(f for f in range(6) if neighbour(h, f) == b)
            self.moved[m] = self.rev[m] = True
            self.mk[m] = MMOVE
        names = ", ".join(g.units[m].name for m in group)
        self.narrate(f"{names} advance{'s' if not mates else ''} to {g.label(b)} to attack {g.units[t].name}")
        self.adv_pend = (a, t, self.ca_side, tuple(mates))
        self.ca_side = ADVANCING
        self._open_ow(1 - g.units[a].side, group, "move")
        for m in group:
            self.barrage_entry(m)  # MBT 6.6.6

    def _step_close_combat(self) -> bool:
        while self.adv_pend is not None:
            if self._ow_active():
                if self._step_overwatch():
                    return True
                continue
            self._resolve_advance()
        return super()._step_close_combat()

    def _resolve_advance(self) -> None:
        """The attack after the Overwatch fire, at the Advance Attack modifier (MBT 6.6.1.2)."""
        g = self.game
        first, t, side, mates = self.adv_pend
        self.adv_pend = None
        self.ca_side = side
        able = [m for m in (first,) + mates if self.st[m] == ON and not self.sup[m] and
                distance(self.hex[m], self.hex[t]) == 1]
        if not able or self.st[t] != ON:
            self.narrate(f"{g.units[first].name}'s advancing attack does not take place")
            return
        a, extra = able[0], able[1:]  # an attacker lost meanwhile hands the lead to the next (MBT 6.6.1.2)
        self.attacked[t] = True
        mod = adv_move(g).val["advance-attack"]
        if g.units[t].type.ag.leg:
            self.hand_to_hand(a, t, extra, mod)
        else:
            self.close_assault(a, t, extra, mod)
        if self.st[t] != ON and not self.enemies_in(self.hex[t], g.units[a].side):
            for m in able:
                if self.st[m] == ON:
                    self.hex[m] = self.hex[t]


__all__ = ["AdvancingRules", "ADVANCING"]
