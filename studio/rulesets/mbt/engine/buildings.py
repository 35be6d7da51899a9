"""Vehicle building movement (MBT 6.6.3), Advanced Game. A vehicle in a building hex is inside its building (the
engine's convention: indirect fire, aircraft and AA read building hexes so).

- Barred: open-topped and AA vehicles, vehicles without overhead protection (card flags) and a vehicle not Under
  Armor carrying any passenger may not enter a building hex; no vehicle reverses into one.
- Check: a tracked vehicle entering a building hex, or leaving one for a hex that is not a building, rolls (100) +
  ``building-gpd-multiplier`` (5) x its GP Defense against the HIT# range of the building's construction (table
  ``building-vehicle-into``; construction from extension ``building_construction``, else the default of table
  ``building-cover``). Within it a second roll (100) at or under ``track_max`` is a Track hit, above it Damaged: roll
  (10) at or under ``building-turret-max`` (4) Turret, else Hull Damaged.
- A Track hit stops the vehicle where it was (outside when entering, inside when leaving); a Damaged vehicle still
  makes the step if the allowance it has left (halved at once by the damage, ``fire._damage``: MBT 4.4.3.2.6, Q27)
  or the one-hex move allows, else stops where it was.
- Rubble (6.1.4.3.9): a destroyed building hex (``razed``, by GP fire at terrain or engineers) is no building: no
  check; wheeled and half-tracked vehicles and towed units may not enter it.
Only tracked vehicles check (the rule names them; ``ENGINE_POLICIES['building-entry']``). Not modelled: alleys
as distinct from the building (a vehicle in a building hex is inside). Leg units on building levels:
``leg_levels.py``."""
from __future__ import annotations

from studio.hexgrid.coords import neighbour

from .adv_move_data import adv_move, building_bar
from .codes import ON


class BuildingMoveRules:
    """Rules of MBT 6.6.3, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def building_barred(self, i: int) -> str:
        """Why vehicle ``i`` may not enter a building now (MBT 6.6.3), or ""."""
        g = self.game
        ag = g.units[i].type.ag
        if ag is None or ag.leg or ag.heli:
            return ""
        why = building_bar(g, i)
        if not why and ag.protection != "under_armor" and self.passengers(i):
            why = "carrying passengers without Under Armor protection"
        return why

    def rubble(self, h) -> bool:
        """Is ``h`` a destroyed building, now Rubble (MBT 6.1.4.3.9)?"""
        return h in self.razed and h in self.game.building_hexes

    def step_cost(self, i: int, a, b, reverse: bool = False) -> int | None:
        """No entering a building hex when barred or in reverse (MBT 6.6.3); no wheeled or half-tracked vehicle
        or towed unit into Rubble (6.1.4.3.9)."""
        c = super().step_cost(i, a, b, reverse)
        g = self.game
        if c is None or b not in g.building_hexes:
            return c
        ut = g.units[i].type
        if self.razed and self.rubble(b):
            return None if ut.traction in ("w", "h") or self.is_towed(i) else c
        if a in g.building_hexes and not self.rubble(a):
            return c
        if ut.ag is None or ut.ag.leg or ut.ag.heli:
            return c
        return None if reverse or self.building_barred(i) else c

    def _building_check_due(self, i: int, a, b) -> str:
        """"enter", "exit" or "" for the step ``a`` -> ``b`` of vehicle ``i`` (tracked vehicles only)."""
        g = self.game
        ut = g.units[i].type
        if ut.traction != "t" or ut.ag is None or ut.ag.leg or ut.ag.heli:
            return ""
        inside_a = a in g.building_hexes and not self.rubble(a)
        inside_b = b in g.building_hexes and not self.rubble(b)
        if inside_b and not inside_a:
            return "enter"
        if inside_a and not inside_b:
            return "exit"
        return ""

    def _move_step(self, i: int, a) -> None:
        rev = a[0] == "rev"
        h = self.hex[i]
        b = neighbour(h, (self.fac[i] + 3) % 6 if rev else self.fac[i])
        how = self._building_check_due(i, h, b)
        if how:
            c = self.step_cost(i, h, b, rev) or 0
            result = self.building_check(i, how, self.hex[i] if how == "exit" else b)  # Damaged halves what is left
            if result == "TK" or self.st[i] != ON or \
                    (result == "DM" and c > self.mv_left and not self._exception_ok()):
                self.mv_left = 0
                self.mv_end = True
                return
        super()._move_step(i, a)

    def building_check(self, i: int, how: str, building) -> str:
        """The 6.6.3 damage check of vehicle ``i`` entering or leaving ``building``: "", "TK" or "DM"."""
        g = self.game
        d = adv_move(g)
        kind = d.construction.get(building, "brick")
        hit_max, track_max = d.into[kind]
        gpd = g.units[i].type.ag.gp_value
        add = d.val["building-gpd-multiplier"] * gpd
        name = g.units[i].name
        roll = self.dice.roll(100, f"building {how} {name}")
        if roll + add > hit_max:
            self.narrate(f"{name} {how}s the {kind} building at {g.label(building)}: roll {roll}+{add} = "
                         f"{roll + add} vs HIT# 01-{hit_max}: no damage")
            return ""
        second = self.dice.roll(100, f"building damage {name}")
        if second <= track_max:
            self.narrate(f"{name} {how}s the {kind} building at {g.label(building)}: roll {roll}+{add} = "
                         f"{roll + add} within 01-{hit_max}; {second} vs TK 01-{track_max}: Track hit")
            self.track_hit(i)
            return "TK"
        r = self.dice.roll(10, f"building damage location {name}")
        turret = r <= d.val["building-turret-max"]
        self.narrate(f"{name} {how}s the {kind} building at {g.label(building)}: roll {roll}+{add} = {roll + add} "
                     f"within 01-{hit_max}; {second} Damaged; roll (10) {r}: {'Turret' if turret else 'Hull'} Damaged")
        self.apply_damage(i, "DM", "TF" if turret else "HF")
        return "DM"


__all__ = ["BuildingMoveRules"]
