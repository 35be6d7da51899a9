"""Air Phases, helicopters (MBT 6.4, 6.7.5-6.7.8): helicopters get no commands and act in both Air Phases, the
First Player's, then the Second Player's. Each activation: ``fly HELI HEX`` (a hex within its NOE allowance,
terrain ignored, no other flying helicopter there; its own hex is a hover), then one attack ``fire HELI at TARGET
ROW`` at a ground unit it spots (AP, ATGM or GP rows, as direct fire) or ``hold HELI``. After each activation the
enemy's Overwatch units with AA weapons may fire at the helicopter (``ow``; MBT 6.7.8: GP fire with the AA
modifiers, +10 at a hovering helicopter); a Suppressed result suppresses it, an Effective one ending in 5 or 0
damages it (allowance halved; a second damage eliminates it), any other Effective result shoots it down.

Simplified (``ENGINE_POLICIES['helicopters']``): always at NOE (no Low altitude, pop-up, side-slip, landing or
transport), spotting and LOS as a ground vehicle from its hex, AA fire without tracking, no crash attack; ground
units fire at helicopters only with AA weapons. Fixed-wing aircraft are not modelled."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .actions import Action
from .codes import DEAD, ON

HELI_SUPPRESSED, HELI_DAMAGED = "SUP", "DAMAGE"


def heli_type(card):
    """The engine record of a helicopter card (MBT 5.4.2): traction ``air``, the NOE allowance, its weapons."""
    from .ag_data import AgDefense, ag_rows
    from .data import UnitType

    b = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
    gp = b["gp_defense"]
    noe = int(b["movement"]["noe"])
    ag = AgDefense(int(gp["value"]), gp["target_type"], None, None, {}, False, False, labels=tuple(b.get("labels") or ()),
                   heli=True)
    return UnitType(card.id, card.name, "air", noe, noe, noe, 0, 0, 0, 0, bool(b.get("is_combat_unit", True)), False,
                    ag_rows(b), ag)


class AirRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def is_heli(self, i: int) -> bool:
        return self.game.units[i].type.ag.heli

    def _step_air(self) -> bool:
        """An Air Phase (MBT 6.4, 6.7): the First Player's helicopters, then the Second's; True when one acts."""
        if self._ow_active() and self._step_overwatch():
            return True
        if self.air_side == -1:
            self.air_side = self.first
        while self.air_side >= 0:
            if self.air_u >= 0 or self._air_ready(self.air_side):
                self.cp = self.air_side
                return True
            self.air_side = 1 - self.first if self.air_side == self.first else -2
        self.air_side, self.air_done = -1, []
        return False

    def _air_ready(self, side: int) -> list[int]:
        return [i for i in self.game.units_of(side) if self.st[i] == ON and self.is_heli(i) and
                i not in self.air_done]

    def air_actions(self) -> list[Action]:
        """``fly`` for each helicopter still to act; then the active one's attacks or ``hold``."""
        g = self.game
        if self.air_u >= 0:
            i = self.air_u
            out = [Action(("fire", g.units[i].name, g.units[t].name, row.key))
                   for t, row in self.fire_options(i, self._heli_spots(i))]
            return out + [Action(("hold", g.units[i].name))]
        out = []
        taken = {self.hex[j] for j in range(g.n) if self.st[j] == ON and self.is_heli(j)}
        for i in self._air_ready(self.air_side):
            rng = self.msa(i, g.units[i].type.cc)
            for h in g.hexes:
                if distance(h, self.hex[i]) <= rng and (h == self.hex[i] or h not in taken):
                    out.append(Action(("fly", g.units[i].name, g.label(h))))
        return out

    def _heli_spots(self, i: int) -> tuple:
        """Ground units the helicopter spots now (NOE spotting as vehicles: LOS and spotting range, 6.7.6.1)."""
        g = self.game
        side, h = g.units[i].side, self.hex[i]
        return tuple(t for t in g.enemies_of(side) if self.st[t] == ON and not self.is_heli(t) and
                     distance(h, self.hex[t]) <= self.spot_range(t) and g.los.clear(h, self.hex[t]))

    def apply_air(self, action) -> None:
        g = self.game
        i = g.uindex[action[1]]
        if action[0] == "fly":
            h = g.map.hex(action[2])
            self.hover[i] = h == self.hex[i]
            self.hex[i] = h
            self.air_u = i
            self.air_done.append(i)
            return
        self.air_u = -1
        if action[0] == "fire":
            t = g.uindex[action[2]]
            row = next(r for r in g.units[i].type.ap if r.key == action[3])
            if self.dice.record:
                self.events.append(f"helicopter {g.units[i].name} attacks {g.units[t].name} from "
                                   f"{g.label(self.hex[i])}{' (hovering)' if self.hover[i] else ''}")
            self._shoot(i, t, row, overwatch=False)
        self._open_ow(1 - g.units[i].side, [i], "air")  # AA fire at the helicopter (MBT 6.7.8)

    def heli_result(self, t: int, x: int, effect: str) -> str:
        """AA results against a helicopter (MBT 6.7.8): Suppressed; Effective ending in 5 or 0 Damaged (a second
        damage eliminates), otherwise shot down."""
        if effect == "N":
            return "no effect"
        if effect == "S":
            self.suppress(t, "AA fire")
            return "Suppressed"
        if x % 10 in (0, 5) and not self.dmg[t]:
            self.dmg[t] = True
            return "Damaged"
        self.st[t] = DEAD
        self.lost[self.game.units[t].side] += 1
        return "shot down"

    def weapon_ok(self, s: int, t: int, row) -> bool:
        """Only AA weapons fire at helicopters (MBT 6.7.8, 6.7.9: not landed)."""
        if self.is_heli(t) and not row.aa:
            return False
        return super().weapon_ok(s, t, row)

    def fire_options(self, s: int, targets, df: bool = True) -> list:
        """AA fire at helicopters is Overwatch fire only (MBT 6.7.8): no helicopter targets for Fire/SH."""
        out = super().fire_options(s, targets, df)
        return [(t, row) for t, row in out if not self.is_heli(t)] if df and self.air_u != s else out

    def _needs_cmd(self, i: int) -> bool:
        """Aircraft get no commands (MBT 6.7)."""
        return not self.is_heli(i) and super()._needs_cmd(i)

    def _enemy_hexes(self, side: int) -> set:
        """Flying helicopters do not stop ground movement."""
        st, hexes, g = self.st, self.hex, self.game
        return {hexes[j] for j in g.enemies_of(side) if st[j] == ON and not g.units[j].type.ag.heli}

    def enemies_in(self, h, side: int) -> bool:
        return h in self._enemy_hexes(side)
