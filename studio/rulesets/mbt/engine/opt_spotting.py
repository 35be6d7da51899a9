"""Optional Rules of spotting: 7.4 Removing Spot Counters, 7.7 Limited Spotting (spot rolls, hand-offs, Maximum
Spots), 7.24 Camouflage, 7.36.4 Night Fighting aids and 7.46 Ground-Based Radar. Every number is read from the
tables ``spot-removal``, ``spot-removal-modifiers``, ``spotting-table``, ``command-optional-values`` and
``night-aids`` (``opt_command_data``). Per unit ``camo``: still camouflaged (MBT 7.24)."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .actions import Action
from .codes import MFIRE, MFIRE_SA, MMOVE, MOVE, NOMARK, ON, P_AIR2, SH


class OptSpottingRules:
    """Rules of this module, mixed into :class:`~.advanced.AdvState`; each inert unless its switch is on."""

    __slots__ = ()

    # ---------------------------------------------------------------- helpers
    def _spotter_ok(self, s: int) -> bool:
        """An unsuppressed, unbroken combat unit on the map, not in Full Cover (MBT 7.4, 6.1.4.2)."""
        g = self.game
        return self.st[s] == ON and g.units[s].type.combat and not self.sup[s] and not self.fc[s] and \
            not (g.oc_morale and self.broken(s))

    def _can_spot_now(self, s: int, t: int) -> bool:
        h = self.hex[s]
        return h is not None and distance(h, self.hex[t]) <= self.spot_range(t) and \
            self.game.los.clear(h, self.hex[t])

    # ---------------------------------------------------------------- 7.4 Removing Spot Counters
    def _spotting_phase(self) -> None:
        """Spot counters are checked for removal before the Spotting Phase's spots (MBT 7.4)."""
        if self.game.oc_removal:
            self._remove_spot_counters()
        super()._spotting_phase()

    def _removal_cover(self, t: int) -> str:
        """Spotting cover of the target for 7.4: the hex's spotting cover (Brush light, Crops medium and
        buildings heavy come from the terrain and building-cover data)."""
        return self.cover_of(self.hex[t], spotting=True)

    def _remove_spot_counters(self) -> None:
        """MBT 7.4: a Spot/Fire or Spot/Move counter of a unit in Light/Medium/Heavy cover with no eligible
        opposing unit adjacent is removed on roll (100) + modifiers at or under the table value."""
        g = self.game
        for t in range(g.n):
            if self.st[t] != ON or self.mk[t] not in (MFIRE, MMOVE, MFIRE_SA):
                continue
            cover = self._removal_cover(t)
            eligible = [s for s in g.enemies_of(g.units[t].side) if self._spotter_ok(s) and self.hex[s] is not None]
            if cover == "none" or any(distance(self.hex[s], self.hex[t]) == 1 for s in eligible):
                continue
            spotters = [s for s in eligible if self._can_spot_now(s, t)]
            value = self._removal_value(t, cover, spotters)
            if value is not None:
                self._removal_roll(t, cover, spotters, value)

    def _removal_value(self, t: int, cover: str, spotters: list[int]) -> int | None:
        """The Spot Removal Table value: the row of the cover and the number of spotters; the first value when
        one of them is at half the target's maximum spotting range or less (MBT 7.4)."""
        n = len(spotters)
        row = next((r for r in self.game.optc.spot_removal if r.cover == cover and r.count_min <= n and
                    (r.count_max is None or n <= r.count_max)), None)
        if row is None:
            return None
        half = self.spot_range(t) // 2
        return row.near if any(distance(self.hex[s], self.hex[t]) <= half for s in spotters) else row.far

    def _removal_roll(self, t: int, cover: str, spotters: list[int], value: int) -> None:
        """Roll (100) + the highest spotter grade's modifier (+ Recon): at or under ``value`` removes (MBT 7.4)."""
        g = self.game
        oc = g.optc
        mod = max((oc.spot_removal_mod[self.unit_grade(s)] for s in spotters), default=0)
        if any(g.units[s].type.ag.recon for s in spotters):
            mod += oc.spot_removal_mod["recon"]
        r = self.dice.roll(100, f"Spot removal {g.units[t].name}")
        gone = r + mod <= value
        self.narrate(f"{g.units[t].name} Spot counter removal ({cover} cover, {len(spotters)} spotter(s)): "
                     f"roll {r}{mod:+d} vs {value}: {'removed' if gone else 'stays'}")
        if gone:
            self.mk[t] = NOMARK

    # ---------------------------------------------------------------- spotting pipeline
    def _spot_targets(self) -> list[set]:
        """The Spotting Phase's spots with the optional rules on: night aids add targets (7.36.4), radar spots
        hidden and camouflaged units (7.46), camouflage (7.24) and limited spotting (7.7) roll, Maximum Spots
        (7.7.2) trims."""
        out = super()._spot_targets()
        g = self.game
        if not g.oc_spotting:
            return out
        if g.oc_night and g.turn_spot_mod.get(self.turn, 0):
            self._night_spots()
        radar = self._radar_spots() if g.oc_radar else {}
        if g.oc_camo and any(self.camo):
            self._camouflage_rolls(radar)
        if g.oc_limited:
            self._limited_rolls(radar)
        out = [set() for _ in g.sides]
        for s in range(g.n):
            out[g.units[s].side].update(self.spots[s])
        return out

    # ---------------------------------------------------------------- 7.36.4.1 the Visualization step
    def _searchlight(self, i: int) -> bool:
        return self.st[i] == ON and bool({"IR", "WL"} & self.night_aids(i))

    def _start_turn(self) -> None:
        super()._start_turn()
        self.lq = -1

    def light_step_active(self) -> bool:
        return self.phase == P_AIR2 and 0 <= self.lq < self.game.n

    def _step_air(self) -> bool:
        """After the 2nd Air Phase and the Adjustment Phase's turret and Full Cover decisions: each unit with a
        working IR or WL searchlight sets it active or inactive for the next turn (MBT 7.36.4.1, 6.8.2), in a
        scenario with limited-visibility turns."""
        if self.phase == P_AIR2 and self.lq >= 0:
            return self._light_step()
        if super()._step_air():
            return True
        g = self.game
        return self.phase == P_AIR2 and g.oc_night and any(g.turn_spot_mod.values()) and self._light_step()

    def _light_step(self) -> bool:
        g = self.game
        self.lq = max(self.lq, 0)
        while self.lq < g.n and not self._searchlight(self.lq):
            self.lq += 1
        if self.lq < g.n:
            self.cp = g.units[self.lq].side
            return True
        return False

    def air_actions(self) -> list:
        """``light UNIT on|off``: the likelier choice first (on when the next turn has limited visibility)."""
        if self.light_step_active():
            name = self.game.units[self.lq].name
            first = "on" if self.game.turn_spot_mod.get(self.turn + 1, 0) else "off"
            return [Action(("light", name, first)), Action(("light", name, "off" if first == "on" else "on"))]
        return super().air_actions()

    def apply_air(self, action) -> None:
        if self.light_step_active() and action[0] == "light":
            i = self.lq
            self.lit[i] = action[2] == "on"
            self.lq += 1
            self.narrate(f"{self.game.units[i].name} searchlight {'active' if self.lit[i] else 'inactive'} "
                         "for the next turn")
            return
        super().apply_air(action)

    # ---------------------------------------------------------------- 7.36.4 Night Fighting
    def night_aids(self, i: int) -> frozenset:
        """The working night-fighting aids of unit ``i`` (MBT 7.36.4): its card's, none once its night-fighting
        equipment is damaged (7.23.1 collateral damage; every aid, the searchlights too)."""
        if self.night_equipment_lost(i):
            return frozenset()
        return self.game.ocs.aids[i]

    def _aid_range(self, s: int) -> tuple[int, bool]:
        """The night aid range of spotter ``s`` and whether it sees only its front 60 degrees (MBT 7.36.4):
        Thermal Imager 20, Image Intensifier 15, an active IR/WL searchlight 10/15."""
        g = self.game
        aids = self.night_aids(s)
        best = 0
        for aid in ("T", "I2"):
            if aid in aids:
                best = max(best, g.optc.night[aid])
        for aid in ("IR", "WL"):
            if aid in aids and self.lit[s]:
                best = max(best, g.optc.night[aid])
        return best, True

    def _day_range(self, t: int) -> int:
        """The target's spotting range without the limited visibility modifier (aids ignore it, 7.36.4)."""
        return self.ag_spot_range(t, self.mkdf[t], -self.game.turn_spot_mod.get(self.turn, 0))

    def _night_spots(self) -> None:
        """Night aids (MBT 7.36.4): within its aid's range and front 60 degrees a unit spots at the day range;
        friendly Passive-IR units (and IR-equipped units) spot inside an active IR searchlight's arc; units
        with an active searchlight are spotted by opposing IR/Passive-IR units (IR) or by all (WL)."""
        g = self.game
        clear = g.los.clear
        on = [i for i in range(g.n) if self.st[i] == ON]
        for s in on:
            if not g.units[s].type.combat:
                continue
            side = g.units[s].side
            rng, _ = self._aid_range(s)
            extra = []
            for t in on:
                if g.units[t].side == side or t in self.spots[s]:
                    continue
                d = distance(self.hex[s], self.hex[t])
                if d > self._day_range(t):
                    continue
                if (d <= rng and self.in_field(s, t, 60, False)) or self._lit(s, t, d):
                    if clear(self.hex[s], self.hex[t]):
                        extra.append(t)
            if extra:
                self.spots[s] = self.spots[s] + tuple(extra)

    def _lit(self, s: int, t: int, d: int) -> bool:
        """Searchlight spotting of ``t`` by ``s`` (MBT 7.36.4.1): ``t`` inside a friendly active IR arc (``s``
        with Passive IR or IR) or WL arc (anyone); or ``t`` itself showing an active IR (to opposing IR/Passive
        IR units) or WL searchlight (to all), 360 degrees."""
        g = self.game
        night = g.optc.night
        passive = bool({"P", "IR"} & self.night_aids(s))
        taids = self.night_aids(t) if self.lit[t] else frozenset()
        if ("IR" in taids and passive and d <= night["IR"]) or ("WL" in taids and d <= night["WL"]):
            return True
        side = g.units[s].side
        for j in range(g.n):
            if not self.lit[j] or j == s or self.st[j] != ON or g.units[j].side != side:
                continue
            for aid in ("IR", "WL"):
                if aid in self.night_aids(j) and (aid == "WL" or passive) and \
                        distance(self.hex[j], self.hex[t]) <= night[aid] and self.in_field(j, t, 60, False) and \
                        g.los.clear(self.hex[j], self.hex[t]):
                    return True
        return False

    def hindrance_modifier(self, s: int, t: int, kind: str = "ap", thermal: bool = False) -> int:
        """A Thermal Imager shooter takes the Thermal Imager smoke modifiers (MBT 7.36.4.3: -1/-2 AP, -5/-10 GP
        for the first / each further smoke on the line)."""
        g = self.game
        if g.oc_night and "T" in self.night_aids(s):
            thermal = True
        return super().hindrance_modifier(s, t, kind, thermal)

    # ---------------------------------------------------------------- 7.46 Ground-Based Radar
    def _radar_spots(self) -> dict:
        """Active Ground-Based Radars (MBT 7.46) spot hidden and camouflaged units that terrain does not block
        (fire and smoke do not): leg/towed units to 20 hexes, vehicles to 70. Returns target -> radar units."""
        g = self.game
        v = g.optc.values
        found: dict = {}
        for s in g.ocs.radar:
            if self.st[s] != ON:
                continue
            side = g.units[s].side
            for t in g.enemies_of(side):
                if self.st[t] != ON or not (self.camo[t] or self.hid[t] >= 0):
                    continue
                rng = v["radar-leg-range"] if g.units[t].type.ag.leg else v["radar-vehicle-range"]
                if distance(self.hex[s], self.hex[t]) <= rng and g.los.clear(self.hex[s], self.hex[t]):
                    found.setdefault(t, []).append(s)
                    if t not in self.spots[s]:
                        self.spots[s] = self.spots[s] + (t,)
        return found

    # ---------------------------------------------------------------- 7.24 Camouflage
    def _camouflage_rolls(self, radar: dict) -> None:
        """MBT 7.24: a camouflaged target beyond 1 hex is spotted on roll (10) + modifiers (Recon -1, Thermal
        Imager -2) at or under its spotting range; the rolling spotter hands it to friends at its range or less."""
        g = self.game
        v = g.optc.values
        auto = v["automatic-spot-range"]
        for t in range(g.n):
            if not self.camo[t] or self.st[t] != ON or t in radar:
                continue
            spotters = [s for s in range(g.n) if t in self.spots[s]]
            if not spotters:
                continue
            self.camk[t] = True  # announced to the spotting player (MBT 7.24)
            ht = self.hex[t]
            if any(distance(self.hex[s], ht) <= auto for s in spotters):
                continue
            best = min(spotters, key=lambda s: (self._camo_mod(s), distance(self.hex[s], ht), s))
            r = self.dice.roll(int(v["camouflage-die"]), f"Camouflage spot {g.units[best].name}>{g.units[t].name}")
            mod = self._camo_mod(best)
            limit = self.spot_range(t, df=True)
            ok = r + mod <= limit
            self.narrate(f"{g.units[best].name} tries to spot camouflaged {g.units[t].name}: roll {r}{mod:+d} vs "
                         f"{limit}: {'spotted' if ok else 'not spotted'}")
            reach = distance(self.hex[best], ht) if ok else -1
            if not ok:
                self.spots[best] = tuple(x for x in self.spots[best] if x != t)
            for s in spotters:
                if s != best and (distance(self.hex[s], ht) > reach or self._no_hand_off(s)):
                    self.spots[s] = tuple(x for x in self.spots[s] if x != t)

    def _camo_mod(self, s: int) -> int:
        g = self.game
        v = g.optc.values
        return int((v["camouflage-recon"] if g.units[s].type.ag.recon else 0) +
                   (v["camouflage-thermal"] if "T" in self.night_aids(s) else 0))

    def _lose_camouflage(self, i: int) -> None:
        if self.camo[i]:
            self.camo[i] = False
            self.narrate(f"{self.game.units[i].name} loses its camouflage")

    def _fired_camouflage(self, s: int) -> None:
        """Fire/OW: camouflage lost if an opposing unit meets the normal spotting range (MBT 7.24)."""
        g = self.game
        if any(self.st[e] == ON and self.hex[e] is not None and self._can_spot_now(e, s)
               for e in g.enemies_of(g.units[s].side)):
            self._lose_camouflage(s)

    # ---------------------------------------------------------------- 7.7 Limited Spotting
    def _limited_rolls(self, radar: dict) -> None:
        """MBT 7.7: beyond 1 hex one roll (100) per target and side by its best spotter: the Spotting Table
        value (near at half the maximum spotting range or less, else far) + 10 per further spotter; success
        hands the target to every friendly unit that has it in range, except to units with a damaged radio,
        which roll alone (7.23.5.1). Then Maximum Spots (7.7.2)."""
        g = self.game
        auto = g.optc.values["automatic-spot-range"]
        for t in range(g.n):
            if self.st[t] != ON:
                continue
            spotters = [s for s in range(g.n) if t in self.spots[s] and s not in radar.get(t, ())]
            if not spotters or any(distance(self.hex[s], self.hex[t]) <= auto for s in spotters):
                continue
            alone = [s for s in spotters if self._no_hand_off(s)]  # damaged radio: its own roll (MBT 7.23.5.1)
            groups = [[s for s in spotters if s not in alone]] + [[s] for s in alone]
            for group in groups:
                if group:
                    self._spot_roll(t, group)
        self._max_spots()

    def _no_hand_off(self, s: int) -> bool:
        return hasattr(self, "radio_damaged") and self.radio_damaged(s)

    def _spot_roll(self, t: int, group: list[int]) -> None:
        """One spot roll of ``group`` at ``t``: the best value + 10 per further unit; failure drops the spot."""
        g = self.game
        oc = g.optc
        ht = self.hex[t]
        half = self.spot_range(t, df=True) // 2

        def value(s: int) -> int:
            near, far, _ = oc.spotting[self.unit_grade(s)]
            return near if distance(self.hex[s], ht) <= half else far
        best = max(group, key=lambda s: (value(s), -s))
        target = value(best) + int(oc.values["additional-spotter"]) * (len(group) - 1)
        r = self.dice.roll(100, f"Spot roll {g.units[best].name}>{g.units[t].name}")
        self.narrate(f"{g.units[best].name} (+{len(group) - 1} more) tries to spot {g.units[t].name}: roll "
                     f"{r} vs {target}: {'spotted' if r <= target else 'not spotted'}")
        if r > target:
            for s in group:
                self.spots[s] = tuple(x for x in self.spots[s] if x != t)

    def _max_spots(self) -> None:
        """Maximum Spots (MBT 7.7.2): a unit keeps at most its grade's Max spots (hand-offs included)."""
        g = self.game
        oc = g.optc
        for s in range(g.n):
            cap = oc.spotting[self.unit_grade(s)][2]
            if len(self.spots[s]) > cap:  # Maximum Spots (MBT 7.7.2): the nearest are kept
                keep = sorted(self.spots[s], key=lambda t: (distance(self.hex[s], self.hex[t]), t))[:cap]
                self.spots[s] = tuple(t for t in self.spots[s] if t in keep)

    # ---------------------------------------------------------------- camouflage lost (MBT 7.24)
    def _begin_move(self, i: int) -> None:
        super()._begin_move(i)
        if self.game.oc_camo and self.camo[i] and self.cmd[i] in (MOVE, SH):
            self._lose_camouflage(i)

    def _shoot(self, s: int, t: int, row, overwatch: bool) -> None:
        g = self.game
        if g.oc_camo and self.camo[s]:
            if self.cmd[s] == SH:
                self._lose_camouflage(s)
            else:
                self._fired_camouflage(s)
        super()._shoot(s, t, row, overwatch)
