"""Optional Rule 7.5 Staggered Initiative: Direct Fire formation by formation (7.5.1), Direct Fire morale checks
held until all fire at the unit is resolved (7.5.1.2), and the Movement Phase in reverse Direct Fire order
(7.5.2, option ``staggered-movement: reverse-order``) or streamlined (7.5.3: the initial Second Player, then the
initial First Player, as in the Advanced Game).

- The Initiative Phase roll (Force Grade modifiers, ties rerolled) makes the initial First Player; its first
  formation fires first. After each formation's fire each force with formations left rolls (100) + its Force
  Grade modifier; the higher fires its next formation; a force alone left fires the rest in order.
- The force to fire names its formation (``formation FORCE``, a legal action of that force) among its formations
  with units still to fire; a force with one such formation fires it without a decision. Reading of 7.5.1 /
  7.5.1.1: each force names a formation and then both roll; only the winner's named formation fires, so naming
  it after the roll (the winner alone) is the same decision. Formations without Direct Fire are not called.
- Overwatch after all Direct Fire and the Close Assault / Hand-to-Hand step run as in the Advanced Game (initial
  First Player first, 7.5.1.3, 7.5.2).

State: ``sgf`` the formations in Direct Fire order this turn, ``sgc`` the formation firing (-1 none), ``sgp`` the
units with a pending Direct Fire morale check (unit, event), ``sg1`` the initial First Player (-1 not set), ``sgq``
the side that must name its next formation (-1 none)."""
from __future__ import annotations

from studio.rules.api import RulesError

from .actions import Action
from .codes import FIRE, ON, P_DF, P_MOVE, SH
from .morale import MoraleRules

#: the verb of the formation choice (MBT 7.5.1, 7.5.1.1)
FORMATION = "formation"


class StaggerRules:
    """Rules of this module, mixed into :class:`~.advanced.AdvState`; inert unless ``staggered-initiative`` is on."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.sgf, self.sgc, self.sgp, self.sg1, self.sgq = [], -1, [], -1, -1

    def _start_turn(self) -> None:
        super()._start_turn()
        self.sgf, self.sgc, self.sgp, self.sg1, self.sgq = [], -1, [], -1, -1

    # ---------------------------------------------------------------- Direct Fire (MBT 7.5.1)
    def _formation_shooters(self, f: int) -> list[int]:
        g = self.game
        announced = {s for s, _, _ in self.shots}
        return [i for i in range(g.n) if g.formation_of[i] == f and self.st[i] == ON and
                self.cmd[i] in (FIRE, SH) and not self.fired[i] and i not in announced]

    def _candidates(self, side: int) -> list[int]:
        """The side's formations, not yet called this turn, with units to fire (MBT 7.5.1.1)."""
        g = self.game
        return [f for f, fs in enumerate(g.formation_side)
                if fs == side and f not in self.sgf and f != self.sgc and self._formation_shooters(f)]

    def _next_formation(self, side: int) -> int:
        """The side's first candidate formation (-1 none)."""
        c = self._candidates(side)
        return c[0] if c else -1

    def _df_shooters(self) -> list[int]:
        """Only the firing formation announces (MBT 7.5.1.2: all its fire at a unit before any resolves)."""
        if not self.game.oc_stagger or self.phase != P_DF:
            return super()._df_shooters()
        if self.sgc < 0:
            return []
        return [i for i in super()._df_shooters() if self.game.formation_of[i] == self.sgc]

    def df_pending(self) -> bool:
        """The Direct Fire step opens with the initial First Player's formation (MBT 7.5.1): a force with several
        candidates names it (``cp`` the naming side)."""
        if super().df_pending():
            return True
        g = self.game
        if not g.oc_stagger or self.phase != P_DF or self._ow_active():
            return False
        if self.sgq < 0 and self.sgc < 0 and not self.sgf:
            side = self.first if self._candidates(self.first) else 1 - self.first
            self._choose_formation(side)
        if self.sgq >= 0:
            self.cp = self.sgq
            return True
        return False

    def _choose_formation(self, side: int) -> None:
        """``side`` fires next: its one candidate at once, else it names one (MBT 7.5.1.1)."""
        cands = self._candidates(side)
        if len(cands) == 1:
            self._call_formation(cands[0])
        elif cands:
            self.sgq = side
            self.df_side = side

    def formation_name(self, f: int) -> str:
        """The name of formation ``f`` in actions: its force id (unique within its side)."""
        g = self.game
        return g.units[g.formation_of.index(f)].force

    def formation_actions(self) -> list:
        """``formation FORCE`` for each candidate of the naming side (MBT 7.5.1, 7.5.1.1)."""
        return [Action((FORMATION, self.formation_name(f))) for f in self._candidates(self.sgq)]

    def legal_actions(self) -> list:
        if self.sgq >= 0 and self.phase == P_DF and not self._ow_active():
            return self.formation_actions()
        return super().legal_actions()

    def apply(self, action) -> None:
        if self.sgq >= 0 and self.phase == P_DF and not self._ow_active():
            f = next((f for f in self._candidates(self.sgq) if self.formation_name(f) == action[1]), -1) \
                if len(action) == 2 and action[0] == FORMATION else -1
            if f < 0:
                raise RulesError(f"'{action}' is illegal: the force names one of its formations with units to fire "
                                 "(formation FORCE)", "MBT 7.5.1.1")
            self.history += 1
            self.sgq = -1
            self._call_formation(f)
            self._advance()
            return
        super().apply(action)

    def _call_formation(self, f: int) -> None:
        if f < 0:
            return
        g = self.game
        if self.sg1 < 0:
            self.sg1 = self.first
        self.sgc = f
        self.df_side = g.formation_side[f]
        self.shots, self.res_i = [], 0
        self.narrate(f"{g.sides[self.df_side]} formation {f + 1} fires (staggered initiative)")
        self._flush_morale(f)

    def _resolve_shots(self) -> bool:
        """After a formation's fire: the next formation by roll (MBT 7.5.1.1); none left: Overwatch."""
        if super()._resolve_shots():
            return True
        g = self.game
        if not g.oc_stagger or self.phase != P_DF:
            return False
        if self.sgc < 0:  # no formation had fire
            self.df_side = 1 - self.first
            return False
        self.sgf.append(self.sgc)
        self.sgc = -1
        nxt = [self._next_formation(s) for s in range(len(g.sides))]
        live = [s for s, f in enumerate(nxt) if f >= 0]
        if not live:
            self._flush_morale(None)
            self.df_side = 1 - self.first  # the Direct Fire step ends: Overwatch (MBT 7.5.1.3)
            return False
        side = live[0] if len(live) == 1 else self._stagger_roll()
        self._choose_formation(side)
        return True

    def _stagger_roll(self) -> int:
        """Each force rolls (100) + its Force Grade modifier; ties are rerolled (MBT 7.5.1.1)."""
        g = self.game
        while True:
            a = self.dice.roll(100, "staggered initiative") + self.initiative_mod(0)
            b = self.dice.roll(100, "staggered initiative") + self.initiative_mod(1)
            if a != b:
                return 0 if a > b else 1

    # ---------------------------------------------------------------- morale (MBT 7.5.1.2)
    def morale_event(self, i: int, event: str) -> None:
        """Direct Fire morale checks wait until all formations fired at the unit, or its own formation fires."""
        g = self.game
        if g.oc_stagger and self.phase == P_DF and not self._ow_active() and g.oc_morale:
            if all(u != i for u, _ in self.sgp):
                self.sgp.append((i, event))
            return
        super().morale_event(i, event)

    def _flush_morale(self, f: int | None) -> None:
        """The pending checks of formation ``f``'s units (all when ``f`` is None), once each."""
        if not self.sgp:
            return
        g = self.game
        due = [(i, e) for i, e in self.sgp if f is None or g.formation_of[i] == f]
        self.sgp = [(i, e) for i, e in self.sgp if (i, e) not in due]
        for i, e in due:
            MoraleRules.morale_event(self, i, e)  # taken now, not held again

    # ---------------------------------------------------------------- Movement (MBT 7.5.2)
    def _move_order(self) -> list[int]:
        """Formations in reverse Direct Fire order; formations never called move first (they fired last)."""
        g = self.game
        fired = list(self.sgf)
        rest = [f for f in range(len(g.formation_side)) if f not in fired]
        return rest + list(reversed(fired))

    def _reverse_order(self) -> bool:
        return self.game.oc_stagger and self.game.options["staggered-movement"] == "reverse-order"

    def _moving_formation(self) -> int:
        for f in self._move_order():
            if self._formation_movers(f):
                return f
        return -1

    def _formation_movers(self, f: int) -> list[int]:
        side = self.game.formation_side[f]
        return [i for i in super()._movers(side) if self.game.formation_of[i] == f]

    def mover_side(self) -> int:
        """The side to move: with reverse-order movement the side of the formation moving (MBT 7.5.2)."""
        if not self._reverse_order():
            return super().mover_side()
        f = self._moving_formation()
        return self.game.formation_side[f] if f >= 0 else super().mover_side()

    def _movers(self, side: int) -> list[int]:
        if not self._reverse_order() or self.phase != P_MOVE:
            return super()._movers(side)
        f = self._moving_formation()
        return self._formation_movers(f) if f >= 0 and self.game.formation_side[f] == side else []



def formation_choice(state, legal: list):
    """The heuristic bots' formation (MBT 7.5.1): the one with the most units that have a target to fire at
    (ties: the first named)."""
    g = state.game
    by_name = {state.formation_name(f): f for f in range(len(g.formation_side))}

    def armed(a) -> int:
        f = by_name[a[1]]
        return sum(1 for s in state._formation_shooters(f) if state.fire_options(s, state.df_targets(s)))

    return max(legal, key=armed)
