"""Optional rule 7.27 Illumination: illumination missions (indirect fire, Closed non-linear SHEAF only, placed by
``indirect.resolve_fire``) light their SHEAF: a unit inside is spotted with ``illumination-spotting`` (+2) added to
the turn's limited-visibility modifier, never above Spotting Level 0 (MBT 7.27; the Brew-Up Wreck's +1 is the
Basic engine's ``brew-up-illumination``). Counters turn Off and go in the Adjustment Phase (6.8.6,
``smoke._smoke_adjust``)."""
from __future__ import annotations

from .if_data import if_data


class IlluminationRules:
    """Mixed into :class:`~.advanced.AdvState` (overrides ``light_modifier`` of the spotting chapter)."""

    __slots__ = ()

    def light_modifier(self, t: int) -> int:
        light = super().light_modifier(t)
        if light >= 0 or not self.arty.clouds or not self.illuminated(self.hex[t]):
            return light
        return min(0, light + if_data(self.game).opt["illumination-spotting"])


__all__ = ["IlluminationRules"]
