"""Man-portable air-defense systems (MBT 5.1.3.6), Advanced Game: a crew-served MANPADS card (``stinger-a``,
``stinger-c``, ``sa-7``, ``sa-14``) attached to a squad, half-squad or section (its card's ``attached_weapons`` or
the scenario's / position's ``attachments``) gives the leg unit an AA row: a GP row with the weapon's SAM data
(aspect MT/MA, guidance, CM rating) read from the crew-served card (``air_data.row_profile`` by the row's
``ApRow.card``). With an Overwatch command the squad tracks and fires at aircraft like any AA unit (6.7.8): the
SAM Track requirement x2, MT only from the aircraft's rear 120 degrees, minimum range, all-round field of fire
(6.7.8.1.2), and an Effective result may be spoofed on roll (10) at or under its CM rating (6.7.8.2.1).

- Not while transported (5.1.3.6): a passenger is not on the map as a unit (``CARRIED``), so it never tracks or
  fires AA; the card's ``no_fire_transported`` says so too.
- Surface-to-air only (``ENGINE_POLICIES['manpads']``): a SAM row fires at flying aircraft only, never at
  ground targets or landed helicopters (the rules give SAM rows no ground use).
- From upper floors (5.1.3.6: not unless the card's notes allow it): building stories for leg units are
  ``leg_levels.py``'s, which bars attached ``no_fire_upper_floor`` weapons from the top floor in ``weapon_ok``
  (AA fire at helicopters goes through it); AA fire at fixed-wing aircraft (``fixed_wing._aa_shot_ok``) does not.
"""
from __future__ import annotations

from .air_data import row_profile


class ManpadsRules:
    """Rules of MBT 5.1.3.6, mixed into :class:`~.air.AirRules`."""

    __slots__ = ()

    def sam_row(self, s: int, row) -> bool:
        """Is ``row`` of unit ``s`` a SAM or MANPADS row (an AA row with SAM data, MBT 5.1.3.6, 5.4.3)?"""
        return row.aa and row_profile(self.game, s, row).sam is not None

    def weapon_ok(self, s: int, t: int, row) -> bool:
        """A SAM row fires only at a flying helicopter (``ENGINE_POLICIES['manpads']``); AA fire at fixed-wing
        aircraft is ``fixed_wing._aa_units`` / ``_aa_shot_ok``'s."""
        if self.sam_row(s, row) and not (self.is_heli(t) and self.heli_alt[t] != "landed"):
            return False
        return super().weapon_ok(s, t, row)


__all__ = ["ManpadsRules"]
