"""Hasty Entrenchments (MBT 6.6.8, 6.1.4.3.6) and Improved Positions (6.1.4.3.7), Advanced Game.

- Construction (6.6.8): in the Adjust Full Cover Step (6.8.3), before the units choose their Full Cover, each hex
  holding an unsuppressed dismounted leg or towed unit that was in Full Cover this turn with an N/C command adds a
  turn of construction to its Hasty Entrenchment counter (table ``advanced-movement``: ``hasty-turns`` 4); an
  engineer builds in ``hasty-turns-engineer`` (2) turns and completes a started counter in
  ``hasty-finish-engineer`` (1). A started counter stays (abandoned or not) for any unit to continue; a complete
  one is never removed. Scenario extension ``hasty_entrenchments`` (hex -> counter side 1, 2, 3 or hasty) places
  counters at the start.
- Effect (6.1.4.3.6, 6.5.4.3): GP direct and indirect fire at the leg or towed unit occupying a complete Hasty
  Entrenchment takes ``hasty-gp`` (-10). Improved Positions (extension ``improved_positions``, 6.1.4.3.7) give
  their occupant Heavy Cover for GP fire and (leg units) spotting, and may not be overrun.
- Occupant: one unit per counter, the first eligible unit of the hex in unit order (leg or towed for a Hasty
  Entrenchment, any ground unit for an Improved Position; ``ENGINE_POLICIES['entrenchment-occupant']``).
Not modelled: an Improved Position's Hull Down for vehicles, its destruction by GP fire (terrain targets), vehicle
spotting in it, AA units in it.
"""
from __future__ import annotations

from .adv_move_data import adv_move
from .codes import NC, ON


class EntrenchRules:
    """Rules of MBT 6.6.8 and 6.1.4.3.6-7, mixed into :class:`~.advanced.AdvState` (slot ``hasty``: hex ->
    construction turns done)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.hasty = dict(adv_move(self.game).hasty)

    def _copy(self, dice):
        o = super()._copy(dice)
        o.hasty = dict(self.hasty)
        return o

    def fingerprint(self) -> str:
        g = self.game
        return f"{super().fingerprint()}|he{sorted((g.label(h), n) for h, n in self.hasty.items())}"

    # ---------------------------------------------------------------- occupants
    def occupant(self, h, hasty: bool) -> int:
        """The unit occupying the counter in ``h`` (the first eligible unit in unit order), or -1."""
        g = self.game
        for i in range(g.n):
            if self.st[i] == ON and self.hex[i] == h and (self.is_leg(i) if hasty else not g.units[i].type.ag.heli):
                return i
        return -1

    def entrenched(self, t: int) -> bool:
        """Does ``t`` occupy a complete Hasty Entrenchment (MBT 6.1.4.3.6)?"""
        h = self.hex[t]
        return self.hasty.get(h, 0) >= adv_move(self.game).hasty_complete() and self.occupant(h, True) == t

    def in_improved_position(self, t: int) -> bool:
        h = self.hex[t]
        return h in adv_move(self.game).improved and self.occupant(h, False) == t

    def hasty_modifier(self, t: int) -> int:
        """GP fire at a unit in a complete Hasty Entrenchment: -10 (``hasty-gp``, MBT 6.5.4.3)."""
        return adv_move(self.game).val["hasty-gp"] if self.is_leg(t) and self.entrenched(t) else 0

    # ---------------------------------------------------------------- construction (MBT 6.6.8)
    def _fc_step(self) -> bool:
        if self.fcq < 0:
            self._dig()
        return super()._fc_step()

    def _builders(self) -> dict:
        g = self.game
        out: dict = {}
        for i in range(g.n):
            if self.st[i] == ON and self.is_leg(i) and self.fc[i] and self.cmd[i] == NC and not self.sup[i]:
                out.setdefault(self.hex[i], []).append(i)
        return out

    def _dig(self) -> None:
        """One turn of construction in each hex with a builder (MBT 6.6.8)."""
        g = self.game
        val = adv_move(g).val
        full = val["hasty-turns"]
        for h, units in sorted(self._builders().items()):
            done = self.hasty.get(h, 0)
            if done >= full:
                continue
            engineer = any("engineer" in g.units[i].type.ag.labels for i in units)
            if engineer:
                turns = val["hasty-finish-engineer"] if done else val["hasty-turns-engineer"]
                step = -(-(full - done) // max(1, turns))
            else:
                step = 1
            self.hasty[h] = min(full, done + step)
            who = g.units[units[0]].name
            state = "complete" if self.hasty[h] >= full else f"side {self.hasty[h]}"
            self.narrate(f"{who} digs in at {g.label(h)}: Hasty Entrenchment {state}")

    # ---------------------------------------------------------------- effects
    def leg_gp_defense(self, t: int) -> int:
        """An Improved Position is Heavy Cover for its occupant (MBT 6.1.4.3.7, 6.5.4.2.2: the higher cover)."""
        d = super().leg_gp_defense(t)
        return self._improved_gpd(t, d, self.leg_gp_cover(self.hex[t]))

    def if_leg_defense(self, t: int) -> int:
        d = super().if_leg_defense(t)
        return self._improved_gpd(t, d, "medium" if self.hex[t] in self.game.building_hexes else "none")

    def _improved_gpd(self, t: int, d: int, cover: str) -> int:
        if not self.in_improved_position(t):
            return d
        ag = self.game.units[t].type.ag
        gain = ag.gpd_cover["heavy"] - ag.gpd_cover.get(cover, ag.gpd_cover["none"])
        return min(10, d + max(0, gain))

    def _gp_target_modifiers(self, t: int) -> int:
        """A vehicle in an Improved Position is a target in Heavy Cover (MBT 6.1.4.3.7, 6.5.4.3)."""
        net = super()._gp_target_modifiers(t)
        if not self.in_improved_position(t):
            return net
        m = self.game.ag.gp_mod
        cover = self.cover_of(self.hex[t])
        return net + m["target-cover-heavy"] - (m.get(f"target-cover-{cover}", 0) if cover in ("medium", "heavy") else 0)

    def ag_spot_range(self, t: int, mark: int, extra: int) -> int:
        """A leg or towed unit in an Improved Position is spotted as in Heavy Cover (MBT 6.1.4.3.7)."""
        if self.game.units[t].type.ag.leg and self.in_improved_position(t) and self.inb[t] < 0:
            spot = self.game.tables.cover_spot
            extra += spot.get("heavy", 0) - spot.get(self.cover_of(self.hex[t], spotting=True), 0)
        return super().ag_spot_range(t, mark, extra)

    def overrun_targets(self, i: int) -> list[int]:
        """Vehicles may not overrun Improved Positions (MBT 6.1.4.3.7)."""
        return [t for t in super().overrun_targets(i) if not self.in_improved_position(t)]


__all__ = ["EntrenchRules"]
