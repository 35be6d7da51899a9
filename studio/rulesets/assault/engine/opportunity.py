"""Opportunity fire (Assault 15) and spotting during movement (10.E), as a mixin of ``AssaultState``.

Each time the phasing player moves a unit into a hex, the non-phasing player decides (15): a sub-step in which
they declare opportunity fires at the mover (text ``fire <firer> <ammo> <mover>``, the same form as fire-phase
fire) and end it with ``end``; the fires are resolved at once with their morale checks (15.B) and movement goes
on. The decision point is offered whenever the mover is a legal kind of target as the rules make public (a
spotted mover under option c26 'spotted', every mover under 'in-los'), so its presence never tells the moving
player where hidden units are.
"""
from __future__ import annotations

from studio.hexgrid import coords

from ..cards import ANTI_ARMOUR
from . import fire

SECOND_HEX, THIRD_HEX = 2, 3      # Assault 15.A: 'the second (third) or later consecutive hex' under observation


class OpportunityFire:
    """Methods of ``AssaultState`` for Assault 15 (needs its counters, game, options and fire methods)."""

    def _begin_move(self, c) -> None:
        """Assault 15.A: which enemies saw the unit when its move began."""
        c.seen_start = tuple(sorted(e.id for e in self.counters if e.side != c.side
                                    and self.has_los(e.hex, c.hex, thermal=self._thermal(e, "spot"))))
        c.seen_run = {}

    def _after_move(self, c, old) -> None:
        """After each hex entered: consecutive observed hexes per enemy, autospot (10.E), then the
        non-phasing player's opportunity-fire decision (15)."""
        c.seen_run = {e.id: c.seen_run.get(e.id, 0) + 1 for e in self.counters
                      if e.side != c.side and self.has_los(e.hex, c.hex, thermal=self._thermal(e, "spot"))}
        spotters = [e for e in self.counters if e.side != c.side and not e.suppressed
                    and self._company(e).state != "broken"]
        if not c.spotted and self._best_spot(spotters, c, moving=True) == "Auto":
            c.spotted = True                                          # Assault 10.E: spotted at once
            if c.dummy:
                self._purge_dummies()                                 # Assault 10.F
                return
        in_los = self.game.options.get("c26-opp-fire-spotted") == "in-los"
        if c.spotted or in_los:
            self.opp_target, self.opp_from, self.actor = c.id, old, 1 - c.side
            self.narrate(f"{c.id} enters {self.game.map.label_of[c.hex]}: the enemy may fire (15)")

    def _opp_firer(self, f) -> bool:
        """Assault 15: a non-phasing unit in cover (so in combat formation), not broken; suppression bars
        personnel and weapons only (11.A.1)."""
        body = self.game.card(f.card).body
        if f.dummy or not f.cover or f.formation != "combat" or self._company(f).state == "broken":
            return False
        return not (f.suppressed and body.defence_class in ("personnel", "weapons"))

    def _opp_range_ok(self, f, m, ammo: str) -> bool:
        """Assault 15.A: missiles to 4 hexes; any hex to 4; to 12 at a mover seen when its move began; to 8
        from the second consecutive observed hex, to 12 from the third; always at units entering or leaving
        the firer's hex."""
        d = coords.distance(f.hex, m.hex)
        k = self.game.data.constant
        if (ammo == "Msl" and d > k("opp-fire-missile-max-range")) or d > k("opp-fire-max-range"):
            return False
        if d <= k("opp-fire-any-hex-range") or f.hex in (m.hex, self.opp_from) or f.id in m.seen_start:
            return True
        run = m.seen_run.get(f.id, 0)
        return run >= (SECOND_HEX if d <= k("opp-fire-second-hex-range") else THIRD_HEX)

    def _opp_actions(self) -> list[str]:
        m = next((c for c in self.counters if c.id == self.opp_target), None)
        if m is None:
            return []
        in_los = self.game.options.get("c26-opp-fire-spotted") == "in-los"
        afv = self.game.card(m.card).body.defence_class == "afv"
        out = []
        for f in self.counters:
            if f.side != self.actor or not self._opp_firer(f) or self._fire_stack_full(f):
                continue
            if not self.has_los(f.hex, m.hex) or not (m.spotted or in_los) or f.carrier:
                continue                                              # Assault 10, option c26; 8.D
            col = fire.range_column(self.game.data, coords.distance(f.hex, m.hex))
            out += [f"fire {f.id} {row.ammo} {m.id}" for row in self.game.card(f.card).rows
                    if self._opp_row_ok(f, m, row, col, afv)]
        return out

    def _opp_row_ok(self, f, m, row, col, afv: bool) -> bool:
        """One fire row of ``f`` at the mover: a cell at this range, the right target class, no friendly or
        blocking hex in the way (12.B.5), usable now (20.A.2, 23), a sight line through smoke (20.B), the range
        of 15.A and the ROF budget (12.D)."""
        cell = row.cells[col] if col is not None and col < len(row.cells) else None
        if cell is None or row.rof < 1 or (row.ammo in ANTI_ARMOUR and not afv):
            return False
        if self._fires_through(f, m.hex, row.ammo in ANTI_ARMOUR) or not self._row_usable(f, row):
            return False
        if not self.has_los(f.hex, m.hex, thermal=self._thermal(f, row.ammo)):
            return False
        return self._opp_range_ok(f, m, row.ammo) and self._rof_allows(f, row)

    def _end_opportunity(self) -> None:
        """Assault 15.B: resolve the declared opportunity fires and their morale checks, then movement goes on."""
        if self.declared:
            self._resolve_fire(opportunity=True)
        self.opp_target, self.opp_from = "", ()
        self.actor = self.phasing()
        if self.pending_mount:
            self._board_after_fire()                                  # Assault 8.C
        self._drill_continue()                                        # Assault 4.D.2
