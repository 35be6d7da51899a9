"""Optional Rule 7.41, Vehicle Assault Cover (id ``vehicle-assault-cover``).

A vehicle covers dismounted leg units worth two slots (a squad 2, a half-squad or a section 1; table
``assault-cover-slots``) that started the turn in its hex and have the same Move or Short Halt command (reading:
the same command is the shared one; units of other formations may join, as the text allows). Covered units get
at least Light Cover and no -2 moving modifier on their GP Defense, and move with the vehicle: they are not moved
on their own, they follow it hex by hex (Overwatch may fire at them with it; minefields attack them), and its
move is theirs. They may still Close Assault or Hand-to-Hand first (then they have moved and are no longer
covered) and are targeted individually. Legs are covered in unit order up to the vehicle's slots.
"""
from __future__ import annotations

from .codes import MMOVE, MOVE, ON, SH

COVER_ORDER = ("none", "light", "medium", "heavy")


class AssaultCoverRules:
    """Rules of MBT 7.41, mixed into :class:`~.advanced.AdvState` (slots ``cov0``, ``escort``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.cov0 = list(self.hex)  # each unit's hex at the start of the turn
        self.escort = []            # the legs moving with the vehicle that moves now

    def _copy(self, dice):
        o = super()._copy(dice)
        o.cov0, o.escort = self.cov0[:], self.escort[:]
        return o

    def fingerprint(self) -> str:
        lab = self.game.label
        return f"{super().fingerprint()}|cov{[lab(h) if h else '-' for h in self.cov0]}{self.escort}"

    def _start_turn(self) -> None:
        super()._start_turn()
        self.cov0 = list(self.hex)

    def covered_by(self, v: int) -> list[int]:
        """The leg units vehicle ``v`` covers now (MBT 7.41), in unit order up to its slots."""
        g = self.game
        if not g.optional_on("vehicle-assault-cover") or self.st[v] != ON or self.is_leg(v) or \
                g.units[v].type.ag.heli or self.cmd[v] not in (MOVE, SH):
            return []
        from .opt_move_data import move_opt

        slots = move_opt(g).cover_slots
        room, out = slots["vehicle"], []
        for t in g.units_of(g.units[v].side):
            if t == v or not self.is_leg(t) or self.st[t] != ON or self.hex[t] != self.hex[v] or \
                    self.cov0[t] != self.cov0[v] or self.cmd[t] != self.cmd[v] or (self.moved[t] and
                                                                                  t not in self.escort):
                continue
            need = slots[self.leg_size(t)]
            if need <= room:
                room -= need
                out.append(t)
        return out

    def _assault_covered(self, t: int) -> bool:
        g = self.game
        return g.optional_on("vehicle-assault-cover") and any(
            t in self.covered_by(v) for v in g.units_of(g.units[t].side) if self.hex[v] == self.hex[t])

    def leg_gp_defense(self, t: int) -> int:
        """Covered legs: at least Light Cover, no -2 for moving (MBT 7.41)."""
        if not self._assault_covered(t):
            return super().leg_gp_defense(t)
        from .leg import GPD_RANGE

        ag = self.game.units[t].type.ag
        cover = self.leg_gp_cover(self.hex[t])  # MBT 6.5.4.2.2
        if COVER_ORDER.index(cover) < COVER_ORDER.index("light"):
            cover = "light"
        return max(GPD_RANGE[0], min(GPD_RANGE[1], ag.gpd_cover.get(cover, ag.gpd_cover["none"])))

    def _movers(self, side: int) -> list[int]:
        """Covered legs move with their vehicle, not on their own."""
        out = super()._movers(side)
        if not self.game.optional_on("vehicle-assault-cover"):
            return out
        covered = {t for v in out if not self.is_leg(v) for t in self.covered_by(v)}
        return [i for i in out if i not in covered]

    def _begin_move(self, i: int) -> None:
        super()._begin_move(i)
        self.escort = self.covered_by(i) if self.game.optional_on("vehicle-assault-cover") else []

    def _open_ow(self, side: int, triggers: list[int], ctx: str) -> None:
        """The covered legs move with the vehicle: Overwatch may fire at them too."""
        if ctx == "move" and self.escort and len(triggers) == 1 and triggers[0] == self.mv_u:
            triggers = triggers + [t for t in self.escort if self.st[t] == ON]
        super()._open_ow(side, triggers, ctx)

    def _after_step(self, i: int) -> None:
        if self.escort and i == self.mv_u:
            for t in self.escort:
                if self.st[t] == ON and self.st[i] == ON:
                    self.hex[t] = self.hex[i]
                    self.mk[t] = MMOVE
                    self.rev[t] = True
                    if self.mines and self.mv_turned == 0:
                        self.mine_attack(t, quickmarch=False)
        super()._after_step(i)

    def _move_done(self, i: int, a) -> None:
        escort = self.escort if i == self.mv_u else []
        super()._move_done(i, a)
        for t in escort:
            if self.st[t] == ON:
                self.hex[t] = self.hex[i]  # the vehicle may have been put back (MBT 4.5.1.1.10)
                self.moved[t] = True
        self.escort = []


__all__ = ["AssaultCoverRules"]
