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
                    out += [Action(("assault", g.units[a].name, g.units[t].name, "advance", g.label(b)))
                            for b in self.advance_hexes(a, t)]
        return out + [PASS] if out else []

    def apply_assault(self, action) -> None:
        if len(action) == 5 and action[3] == "advance":
            self._advance_attack(self.game.uindex[action[1]], self.game.uindex[action[2]], self.game.map.hex(action[4]))
            return
        super().apply_assault(action)

    def _advance_attack(self, a: int, t: int, b) -> None:
        """Move next to the target and let the enemy's Overwatch fire first (MBT 6.6.1.2)."""
        g = self.game
        h = self.hex[a]
        self.hex[a] = b
        self.fac[a] = next(f for f in range(6) if neighbour(h, f) == b)
        self.moved[a] = self.rev[a] = True
        self.mk[a] = MMOVE
        self.narrate(f"{g.units[a].name} advances to {g.label(b)} to attack {g.units[t].name}")
        self.adv_pend = (a, t, self.ca_side)
        self.ca_side = ADVANCING
        self._open_ow(1 - g.units[a].side, [a], "move")
        self.barrage_entry(a)  # MBT 6.6.6

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
        a, t, side = self.adv_pend
        self.adv_pend = None
        self.ca_side = side
        if self.st[a] != ON or self.sup[a] or self.st[t] != ON or distance(self.hex[a], self.hex[t]) != 1:
            self.narrate(f"{g.units[a].name}'s advancing attack does not take place")
            return
        self.attacked[t] = True
        mod = adv_move(g).val["advance-attack"]
        if g.units[t].type.ag.leg:
            self.hand_to_hand(a, t, (), mod)
        else:
            self.close_assault(a, t, (), mod)
        if self.st[t] != ON and self.st[a] == ON and not self.enemies_in(self.hex[t], g.units[a].side):
            self.hex[a] = self.hex[t]


__all__ = ["AdvancingRules", "ADVANCING"]
