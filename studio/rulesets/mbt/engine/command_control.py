"""Command Control (MBT 6.2.1): Available Commands per formation by grade and the number of active units, Command
Range, and shared commands.

- Determine Available Commands Step (6.2.1.1.1): active units = combat units on the map (and those due to enter
  this turn, ``ENGINE_POLICIES['entering-active']``), not Recon; unarmed units count only within Command Range of
  a combat unit of the formation, at most one per combat unit. Commands = tens x the ``tens`` column + the column
  of the units digit, never fewer than 1.
- Unique commands (FIRE, MOVE, SH, OW) cost one each; NC is free. Units of a formation all within Command Range
  of one another share one unique counter (6.2.1.1.2): a command joins the first shared counter of the same
  command whose every unit is in range, else it takes a new one. Recon units get free commands and never share
  (6.2.1.1.3); activated unarmed units share like combat units, inactive ones take their own. Range 0: option
  ``command-range-zero`` - the same hex (the text, default), or no sharing at all. Executing shared commands
  (6.2.1.1.4): ``shared_commands.py``.
"""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .codes import FIRE, MOVE, NC, OW, ON, SH, WAIT

UNIQUE = (FIRE, MOVE, SH, OW)


class CommandControlRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def _available_commands(self) -> None:
        """Determine Available Commands Step (MBT 6.2.1.1.1): ``budget`` per formation; shared counters cleared."""
        g = self.game
        members: list[list[int]] = [[] for _ in g.formation_side]
        for i, f in enumerate(g.formation_of):
            members[f].append(i)
        for f, units in enumerate(members):
            row = g.ag.available[self.available_grade(f)]
            n = self._active_units(f, units)
            value = (n // 10) * row[9] + (row[n % 10 - 1] if n % 10 else 0)
            self.budget[f] = max(1, value)  # never less than 1 (MBT 6.2.1.1.1)
        self.grp = [-1] * g.n

    def available_grade(self, f: int) -> str:
        """The Available Commands Table row of formation ``f``: its grade (Command Span may lower it, MBT 7.43)."""
        return self.formation_grade(f)

    def _is_active(self, i: int) -> bool:
        st = self.st[i]
        return st == ON or (st == WAIT and self.game.units[i].entry_turn <= self.turn)

    def _active_units(self, f: int, units: list[int]) -> int:
        """Active units of formation ``f`` (MBT 6.2.1.1.1)."""
        combat, unarmed = self._active_lists(f, units)
        return len(combat) + len(unarmed)

    def _active_lists(self, f: int, units: list[int]) -> tuple[list[int], list[int]]:
        """The active combat units of ``units`` (formation ``f``) and its activated unarmed units: those within
        Command Range of a combat unit, at most one per combat unit, in unit order (MBT 6.2.1.1.1)."""
        g = self.game
        combat = [i for i in units if self._is_active(i) and g.units[i].type.combat and not g.units[i].type.ag.recon
                  and not g.units[i].type.ag.heli]
        unarmed = [i for i in units if self._is_active(i) and not g.units[i].type.combat and
                   not g.units[i].type.ag.recon and any(self.in_command_range(i, c, f) for c in combat)]
        return combat, unarmed[:len(combat)]

    def command_range(self, f: int) -> int:
        """Command Range of formation ``f`` by its grade (MBT 6.2.1.1, table ``command-range``)."""
        return self.game.ag.cmd_range[self.formation_grade(f)]

    def in_command_range(self, a: int, b: int, f: int) -> bool:
        """Are units ``a`` and ``b`` within the formation's Command Range (on the map; range 0 by option)?"""
        ha, hb = self.hex[a], self.hex[b]
        if ha is None or hb is None or self.st[a] != ON or self.st[b] != ON:
            return False
        rng = self.command_range(f)
        if rng == 0 and self.game.options["command-range-zero"] == "no-spreading":
            return False
        return distance(ha, hb) <= rng

    def _may_share(self, i: int) -> bool:
        """Combat units and activated unarmed units share counters; Recon units and inactive unarmed units never
        do (MBT 6.2.1.1.2: the A4 example, an unarmed unit in Command Range of A3; 'Commanding Inactive Unarmed
        Units'; road and path columns are not modelled)."""
        ut = self.game.units[i].type
        if ut.ag.recon:
            return False
        if ut.combat:
            return True
        g = self.game
        f = g.formation_of[i]
        return i in self._active_lists(f, [j for j, x in enumerate(g.formation_of) if x == f])[1]

    def may_share_with(self, i: int, j: int) -> bool:
        """May ``i`` and ``j`` (of one formation, in range) share a counter? Always, unless Platoon Command
        Control says otherwise (MBT 7.3)."""
        return True

    def share_group(self, i: int, c: int) -> int:
        """The shared counter (its first unit) that unit ``i`` may join with command ``c``, or -1 (6.2.1.1.2)."""
        if not self._may_share(i):
            return -1
        g = self.game
        f = g.formation_of[i]
        groups: dict = {}
        for j, grp in enumerate(self.grp):
            if grp >= 0 and j != i and self.cmd[j] == c and g.formation_of[j] == f:
                groups.setdefault(grp, []).append(j)
        for grp, units in sorted(groups.items()):
            if all(self._may_share(j) and self.in_command_range(i, j, f) and self.may_share_with(i, j)
                   for j in units):
                return grp
        return -1

    def cmd_options(self, i: int) -> list[int]:
        """Legal commands (MBT 4.2.1) within the formation's Available Commands (6.2.1); a Track-hit vehicle may
        not move (6.5.2.2.1), so it gets neither MOVE nor Short Halt; on-map IF units may take FIRE (6.5.1)."""
        base = super().cmd_options(i)
        if self.game.units[i].type.ag.if_rows and FIRE not in base and self.st[i] == ON:
            base = base + [FIRE]  # on-map IF units fire with a FIRE command, no spotted target needed (6.5.1)
        if self.track[i]:
            base = [c for c in base if c not in (MOVE, SH)]
        if self.game.units[i].type.ag.recon:
            return base  # Recon units: a free unique command (MBT 6.2.1.1.3)
        f = self.game.formation_of[i]
        if self.budget[f] > 0:
            return base
        return [c for c in base if c == NC or self.share_group(i, c) >= 0]

    def _place_command(self, i: int, c: int) -> None:
        """Place command ``c`` on unit ``i``: joins a shared counter or spends one Available Command."""
        self.cmd[i] = c
        if c not in UNIQUE or self.game.units[i].type.ag.recon:
            return
        grp = self.share_group(i, c)
        if grp < 0:
            grp = i
            self.budget[self.game.formation_of[i]] -= 1
        self.grp[i] = grp
