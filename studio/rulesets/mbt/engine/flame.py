"""Flamethrowers (MBT 5.1.3.7), Advanced Game: a crew-served weapon card of type ``flamethrower`` attached to a
squad, half-squad or section (the card's ``attached_weapons`` or the scenario's ``attachments``). It has no fire
row: it only modifies close combat.

- Close Assault (6.6.1.1.2): +20 when any attacking unit (the primary or an additional attacker) has one; an
  Effective result that Knocks Out the vehicle (6.6.1.1.3: not ending in 5 or 10) Brews it Up without the roll.
- Hand-to-Hand (6.6.1.2.2): +20 to a side's roll when any of its units (the attackers; the defender) has one.
  Like the size modifiers beside it ("the primary attacking unit and/or the defending unit"), each side's own
  flamethrower modifies its own roll.
- Fires (optional rule 7.35.1): a close combat with a flamethrower at a target in a building or rubble hex starts
  a fire there without a roll (in the Adjustment Phase, like incendiary bombs).
- Morale (optional rule 7.1.3): the target of a close combat with a flamethrower has received a flame attack: a
  Forced Morale Check (event ``flame``; past the Cohesion Point a Normal one), taken by ``morale.py``.

An attached weapon lost under optional rule 7.17 (``opt_fire_damage.attached_loss``) is no longer there. The
values are table ``close-combat-extra`` rows ``flamethrower-ca`` and ``flamethrower-hth``."""
from __future__ import annotations

from .opt_fires import AUTO_START


class FlameRules:
    """Rules of MBT 5.1.3.7, mixed into :class:`~.assault.AssaultRules`."""

    __slots__ = ()

    def has_flamethrower(self, i: int) -> bool:
        """Does leg unit ``i`` field an attached flamethrower (MBT 5.1.3.7), not lost under optional rule 7.17?"""
        w = self.game.units[i].type.ag.flamethrower
        if not w:
            return False
        return self.ofire is None or w not in self.ofire.lostw[i]

    def flame_in(self, units) -> bool:
        """Does any of ``units`` have a flamethrower?"""
        return any(self.has_flamethrower(u) for u in units)

    def flame_modifier(self, units, kind: str) -> int:
        """The flamethrower modifier of a side made of ``units``: ``kind`` "ca" (Close Assault, MBT 6.6.1.1.2) or
        "hth" (Hand-to-Hand, 6.6.1.2.2); 0 without one."""
        if not self.flame_in(units):
            return 0
        from .opt_move_data import move_opt

        return move_opt(self.game).ca_extra[f"flamethrower-{kind}"]

    def flame_fire(self, t: int) -> None:
        """A flamethrower attack at a target in a building or rubble hex starts a fire (optional rule 7.35.1)."""
        h = self.hex[t]
        if self.game.optional_on("fires") and h in self.game.building_hexes and h not in self.burning:
            self.fire_gp[h] = AUTO_START
            self.narrate(f"the flamethrower sets {self.game.label(h)} on fire (MBT 7.35.1, in the Adjustment Phase)")


__all__ = ["FlameRules"]
