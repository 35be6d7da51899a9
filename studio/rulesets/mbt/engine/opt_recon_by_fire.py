"""Optional rule 7.37 Artillery Reconnaissance by Fire: an FO with a clear line of sight to a hex where it spots
no unit calls one off-map battery (never on-map units) for a Closed SHEAF GP mission within the battery's range,
with ``recon-by-fire-response`` (-2) on its Fire Response; the mission checks next turn (no continue or adjust).
Action ``call BATTERY by FO at HEX recon``. The hexes offered are those with cover (where unseen units hide) within
the unmodified vehicle spotting range (``ENGINE_POLICIES['recon-by-fire']``: every hex in sight would swamp the
action list)."""
from __future__ import annotations

from studio.hexgrid.coords import distance, within

from .actions import Action
from .if_data import if_data


class ReconByFireRules:
    """Mixed into :class:`~.advanced.AdvState` before ``IndirectRules``."""

    __slots__ = ()

    def recon_calls(self, batteries: list, o: int) -> list[Action]:
        g = self.game
        if not g.optional_on("recon-by-fire") or self.observer_kind(o) != "fo" or self.mission_of(o) is not None:
            return []
        seen = {self.hex[t] for t in self.spots[o]}
        ho = self.hex[o]
        reach = g.spot_range_of(0)
        hexes = [h for h in within(ho, reach) if h in g.map.label_of and h != ho and h not in seen and
                 g.cover.get(h, "none") != "none" and g.los.clear(ho, h)]
        out = []
        for b in batteries:
            out += [Action(("call", g.batteries[b].name, g.units[o].name, g.label(h), "recon"))
                    for h in sorted(hexes) if self._battery_band(b, o, h) is not None]
        return out

    def _call_recon(self, source: str, o: int, h) -> None:
        """MBT 7.37: response with -2, then a Closed SHEAF GP mission that checks next turn."""
        from .indirect import Fire, Mission

        g = self.game
        self._mark_fired(source)
        m = Mission(g.units[o].side, o, h, (), 1, False, True, self.turn, 1)
        self._set_mission(o, m)
        extra = if_data(g).opt["recon-by-fire-response"]
        fire = Fire(source, "GP", "closed")
        impact = self.fire_response(source, o, h, extra=extra)
        if impact is None:
            return
        self._set_mission(o, m._replace(fires=(fire,)))
        self.narrate(f"{g.units[o].name} calls reconnaissance by fire on {g.label(h)} (7.37, range "
                     f"{distance(self.hex[o], h)})")
        self.resolve_fire(fire, o, impact)


__all__ = ["ReconByFireRules"]
