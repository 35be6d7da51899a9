"""Optional rule 7.38 Air Bursts: indirect GP and ICM fire, mortar direct GP fire, bombs and rockets at a target in
Light Woods, Woods or Heavy Woods (table ``air-burst-terrain``) get ``air-burst-gp`` (+10) against S- and P-Types
and Open A-Types (Open: optional rule 7.8, FIRE's ``open_a_type``). :meth:`AirBurstRules.air_burst` is the one
function for the indirect-fire, direct-fire (mortars) and air chapters."""
from __future__ import annotations

from .if_data import if_data


class AirBurstRules:
    """Mixed into :class:`~.advanced.AdvState` before ``IndirectRules`` (overrides its ``air_burst``)."""

    __slots__ = ()

    def air_burst(self, t: int) -> int:
        """The 7.38 GP modifier against unit ``t`` (0 when the rule is off or the target does not qualify)."""
        g = self.game
        if not g.optional_on("air-bursts"):
            return 0
        opt = if_data(g).opt
        if g.map.terrain.get(self.hex[t], "") not in opt["air-burst-terrain"]:
            return 0
        ag = g.units[t].type.ag
        kind = "S" if ag.leg else ag.target_type
        is_open = kind == "A" and hasattr(self, "open_a_type") and g.optional_on("turrets") and self.open_a_type(t)
        return opt["air-burst-gp"] if kind in ("S", "P") or is_open else 0


__all__ = ["AirBurstRules"]
