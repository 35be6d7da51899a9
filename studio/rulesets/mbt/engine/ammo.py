"""Ammo Limits of direct fire (MBT 5.16), Advanced Game, mixed into :class:`~.advanced.AdvState` (slots ``ammo``,
``short``).

- MBT 5.16.2, 5.16.2.1: a weapon row whose weapon lists a limit for its prefix (A: AP, APDS, APFSDS and ATGMs;
  G: GP; H: HEAT, HESH, by the ammo name) rolls (10) before the combat; above the limit the shot still resolves,
  at ROF N with the Ammo Limit modifier (table ``ammo-limits``: AP -3, GP -10).
- MBT 5.16.2.6: a vehicle's ATGM limit is the number of missiles carried: limits above ``atgm-roll-max`` (9) are
  counted (``ammo``: missiles fired per unit and weapon; none left, the row may not fire); 9 or less are rolled
  like the others, or counted too by option ``atgm-ammo-limits: count`` (Q31).
- MBT 5.16.2.3: a leg unit's weapons have unlimited ammo while it stands in its set-up hex (its ammo dump) or
  its original carrier is within 1 hex; towed units are not played yet.
- Not here: smoke, illumination and artillery limits (S, I, P, C, M: indirect fire), smoke dischargers (D, 7.9),
  aircraft and SAMs (5.16.2.5, 5.16.2.7: the air chapter); the Command 'K' variant's own limits (no unit is
  fielded as that variant)."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .codes import ON
from .opt_fire_data import fire_data

AMMO_SLOTS = ("ammo", "short")
_H = ("HEAT", "HESH")


def prefix_of(row) -> str:
    """The Ammo Limit prefix of a row (MBT 5.16.2)."""
    if row.ammo.upper().startswith(_H):
        return "H"
    return "G" if row.kind == "GP" else "A"


class AmmoRules:
    """MBT 5.16 for direct fire (AP, ATGM and GP rows)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.ammo = {}
        self.short = None

    def _copy(self, dice):
        o = super()._copy(dice)
        o.ammo, o.short = dict(self.ammo), self.short
        return o

    def fingerprint(self) -> str:
        base = super().fingerprint()
        if not self.ammo and self.short is None:
            return base
        return f"{base}|am{sorted(self.ammo.items())}{self.short}"

    # ---------------------------------------------------------------- limits
    def ammo_limit(self, s: int, row) -> int | None:
        """The limit of ``row``'s prefix on its weapon (None: unlimited, or a leg unit at its supply)."""
        card = fire_data(self.game).cards.get(self.game.units[s].type.id)
        if card is None:
            return None
        value = card.limits.get(row.weapon, {}).get(prefix_of(row))
        if value is None or (self.game.units[s].type.ag.leg and self._supplied(s)):
            return None
        return value

    def _supplied(self, s: int) -> bool:
        """MBT 5.16.2.3: in its set-up hex (the ammo dump) or within 1 hex of its original carrier."""
        g = self.game
        if g.units[s].setup_hex is not None and self.hex[s] == g.units[s].setup_hex:
            return True
        c = g.initial_carrier[s] if s < len(g.initial_carrier) else -1
        return c >= 0 and self.st[c] == ON and self.hex[s] is not None and self.hex[c] is not None and \
            distance(self.hex[s], self.hex[c]) <= 1

    def atgm_counted(self, s: int, row) -> int | None:
        """The ATGMs carried when they are counted (MBT 5.16.2.6, option ``atgm-ammo-limits``), else None."""
        if row.kind != "ATGM":
            return None
        value = self.ammo_limit(s, row)
        if value is None:
            return None
        rolled = value <= fire_data(self.game).ammo["atgm-roll-max"] and self.game.options["atgm-ammo-limits"] == "roll"
        return None if rolled else value

    def weapon_ok(self, s: int, t: int, row) -> bool:
        """No missile left: the ATGM row may not fire (MBT 5.16.2.6)."""
        if not super().weapon_ok(s, t, row):
            return False
        if row.kind != "ATGM":
            return True
        carried = self.atgm_counted(s, row)
        return carried is None or self.ammo.get((s, row.weapon), 0) < carried

    def ammo_check(self, s: int, t: int, row):
        """Before a shot: count a counted missile, or roll (10) against the limit; above it the shot fires at
        ROF N with the Ammo Limit modifier (``short``). Returns the row to fire."""
        self.short = None
        carried = self.atgm_counted(s, row)
        if carried is not None:
            self.ammo[(s, row.weapon)] = self.ammo.get((s, row.weapon), 0) + 1
            self.narrate(f"{self.game.units[s].name} fires missile {self.ammo[(s, row.weapon)]} of {carried} "
                         "(MBT 5.16.2.6)")
            return row
        value = self.ammo_limit(s, row)
        if value is None:
            return row
        roll = self.dice.roll(10, f"Ammo limit {self.game.units[s].name} {prefix_of(row)}")
        if roll <= value:
            return row
        self.short = (s, t)
        self.narrate(f"{self.game.units[s].name} ammo limit {prefix_of(row)}{value}: roll {roll}: ROF N, "
                     "Ammo Limit modifier (MBT 5.16.2.1)")
        if row.rof == "N":
            return row
        import dataclasses

        return dataclasses.replace(row, rof="N")

    def ammo_modifier(self, s: int, t: int, gp: bool) -> int:
        """The Ammo Limit modifier of the shot being resolved (MBT 5.16.2.1: AP -3, GP -10)."""
        if self.short != (s, t):
            return 0
        return fire_data(self.game).ammo["gp-modifier" if gp else "ap-modifier"]


__all__ = ["AmmoRules", "AMMO_SLOTS", "prefix_of"]
