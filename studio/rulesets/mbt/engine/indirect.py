"""Indirect Fire Step (MBT 6.5.1), on-map IF units: called fire of units with a GP-IF row and a FIRE command on a
target point where their observer (an FO, Command or Recon unit with an OW command) spots an enemy unit, First
Player then Second. Fire Response (6.5.1.12): roll (10) plus modifiers at or above the Called Indirect Fire
Response factor (an unmodified 1 fails); the On-Map Closed SHEAF (6.5.1.5) attacks every ground unit in the target
hex, friend or foe, on the GP Combat Results Table at the greater of the firer's and the observer's range
(6.5.1.13), with the indirect-fire modifiers (6.5.4.3). Off-map batteries (scenario extension ``artillery``) fire
once per turn when an observer calls them: response by the observer row and the battery's attachment to the
observer's formation (6.5.1.3), a Closed SHEAF (the target hex and the six around it, ``ENGINE_POLICIES
['sheaf']``) at the observer's range. Planned fire, adjusting, continuous fire, checking, danger close and special
missions are not modelled yet (COVERAGE-ADVANCED.md).

Action: ``call FIRER OBSERVER HEX`` (the text form ``call M106A2-1 by M981-1 at 2I8``); ``pass`` ends the side's
step."""
from __future__ import annotations

from dataclasses import dataclass

from studio.hexgrid.coords import distance, neighbour

from .actions import PASS, Action
from .codes import FIRE, MFIRE, MOVE, ON, OW, SH
from .fire import FireRules

OBSERVER_LABELS = ("fo", "command", "recon")


@dataclass(slots=True)
class Battery:
    """An off-map battery of a side (MBT 5.3, 6.5.1.2): its GP-IF rows and attachment (6.5.1.3)."""

    name: str
    side: int
    card: str
    attachment: str           # attached, organic, unattached
    force: str | None
    rows: tuple


def compile_batteries(game) -> list[Battery]:
    """The scenario's off-map batteries (extension ``artillery``), named after the card (``M109-battery-1``)."""
    from .ag_data import if_rows

    out = []
    for entry in game.extension.get("artillery") or ():
        if entry["side"] not in game.sides:
            continue
        card = game.index.model("unit", entry["battery"])
        if card is None:
            continue
        body = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
        rows = if_rows({"weapons": [body["weapon"]]})
        for k in range(int(entry.get("count", 1))):
            out.append(Battery(f"{entry['battery']}-{len(out) + 1}", game.sides.index(entry["side"]), card.id,
                               entry["attachment"], entry.get("force"), rows))
    return out


class IndirectRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def _step_indirect(self) -> bool:
        """Indirect Fire Step (MBT 6.5.1): the First Player, then the Second; then the Direct Fire Step."""
        if self.if_side == -1:
            self.if_side = self.first
        while self.if_side >= 0:
            if self.if_calls(self.if_side):
                self.cp = self.if_side
                return True
            self._next_if_side()
        self.if_side = -1
        FireRules._begin_df(self)
        return False

    def _next_if_side(self) -> None:
        self.if_side = 1 - self.first if self.if_side == self.first else -2

    def observer_kind(self, i: int) -> str | None:
        """The observer row of unit ``i`` (MBT 6.5.1.1): FO, Command or Recon, by its labels."""
        labels = self.game.units[i].type.ag.labels
        return next((k for k in OBSERVER_LABELS if k in labels), None)

    def if_rows(self, s: int) -> tuple:
        return self.game.units[s].type.ag.if_rows

    def if_calls(self, side: int) -> list[Action]:
        """Legal calls of ``side`` (MBT 6.5.1, 6.5.1.7): FIRE-commanded IF units not fired yet and the side's
        off-map batteries not fired yet, by OW observers not observing yet, on hexes with an enemy the observer
        spots, in range; an on-map unit never at a hex it can spot itself."""
        g = self.game
        st, cmd = self.st, self.cmd
        firers = [s for s in g.units_of(side) if st[s] == ON and cmd[s] == FIRE and not self.fired[s] and
                  self.if_rows(s)]
        observers = [o for o in g.units_of(side) if st[o] == ON and cmd[o] == OW and o not in self.observed and
                     self.observer_kind(o)]
        batteries = [b for b, bat in enumerate(g.batteries) if bat.side == side and not self.bat_fired[b]]
        out = []
        for o in observers:
            targets = sorted({self.hex[t] for t in self.spots[o] if st[t] == ON})
            out += self._on_map_calls(firers, o, targets) + self._battery_calls(batteries, o, targets)
        return out + [PASS] if out else []

    def _on_map_calls(self, firers: list, o: int, targets: list) -> list[Action]:
        g = self.game
        return [Action(("call", g.units[s].name, g.units[o].name, g.label(h))) for s in firers for h in targets
                if self._if_band(s, o, h) is not None and not self._firer_spots(s, h)]

    def _battery_calls(self, batteries: list, o: int, targets: list) -> list[Action]:
        g = self.game
        return [Action(("call", g.batteries[b].name, g.units[o].name, g.label(h))) for b in batteries
                for h in targets if self._battery_band(b, o, h) is not None]

    def _battery_band(self, b: int, o: int, h):
        """An off-map battery's row and range factor at the observer's range (MBT 6.5.1.13)."""
        r = distance(self.hex[o], h)
        for row in self.game.batteries[b].rows:
            if row.min_range <= r <= row.max_range:
                band, factor = self.gp_factor(row, r)
                if band is not None:
                    return row, band, factor
        return None

    def attachment(self, b: int, o: int) -> str:
        """Attached or Organic to the observer's formation, else Unattached (MBT 6.5.1.3)."""
        bat = self.game.batteries[b]
        if bat.attachment != "unattached" and bat.force == self.game.units[o].force:
            return bat.attachment
        return "unattached"

    def _firer_spots(self, s: int, h) -> bool:
        """IF may not be used against a target the firer can spot itself (MBT 6.5.1)."""
        return any(self.hex[t] == h for t in self.spots[s])

    def _if_band(self, s: int, o: int, h):
        """The GP-IF row and range factor at the greater of the firer's and the observer's range (MBT 6.5.1.13)."""
        r = max(distance(self.hex[s], h), distance(self.hex[o], h))
        for row in self.if_rows(s):
            if row.min_range <= r <= row.max_range:
                band, factor = self.gp_factor(row, r)
                if band is not None:
                    return row, band, factor
        return None

    def apply_if(self, action) -> None:
        """``call`` or ``pass`` in the Indirect Fire Step."""
        if action[0] == "pass":
            self._next_if_side()
            return
        g = self.game
        o, h = g.uindex[action[2]], g.map.hex(action[3])
        if action[1] in g.battery_index:
            self._call_battery(g.battery_index[action[1]], o, h)
            return
        s = g.uindex[action[1]]
        self.fired[s] = True
        self.mk[s] = MFIRE  # the firer is marked Spot/Fire at once; the observer is not (MBT 6.5.1)
        self.observed.append(o)
        if self.fire_response(s, o, h):
            self._impact(s, o, h)

    def _call_battery(self, b: int, o: int, h) -> None:
        """An off-map battery's mission (MBT 6.5.1.7, 6.5.1.12-13): Closed SHEAF around the target point."""
        g = self.game
        self.bat_fired[b] = True
        self.observed.append(o)
        bat = g.batteries[b]
        if not self.fire_response(-1, o, h, self.attachment(b, o), bat.name):
            return
        row, band, factor = self._battery_band(b, o, h)
        sheaf = {h} | {neighbour(h, d) for d in range(6)}
        if self.dice.record:
            self.events.append(f"artillery lands at {g.label(h)} ({bat.name}, Closed SHEAF, GP {factor}, {band})")
        for t in [t for t in range(g.n) if self.st[t] == ON and self.hex[t] in sheaf]:
            self.attacked[t] = True
            self._if_attack(-1, t, row, band, factor, o)

    def fire_response(self, s: int, o: int, h, attachment: str = "attached", source: str = "") -> bool:
        """Fire Response (MBT 6.5.1.12): roll (10) + modifiers >= the response factor by observer row and
        attachment (on-map units are Attached, 6.5.1.3); an unmodified 1 fails (``ENGINE_POLICIES
        ['danger-close']``)."""
        g = self.game
        ag = g.ag
        factor = ag.if_response[(self.observer_kind(o), attachment)]
        source = source or g.units[s].name
        roll = self.dice.roll(10, f"IF response {source} by {g.units[o].name}")
        m = ag.if_grade[self.unit_grade(o)]
        if self.sup[o]:
            m += ag.if_mod["observer-suppressed"]
        if self.tdmg[o]:
            m += ag.if_mod["observer-turret-damaged"]
        ok = roll != 1 and roll + m >= factor
        if self.dice.record:
            self.events.append(f"{g.units[o].name} calls {source} on {g.label(h)}: response roll {roll}"
                               f"{m:+d} vs {factor}: {'responds' if ok else 'no response'}")
        return ok

    def _impact(self, s: int, o: int, h) -> None:
        """The On-Map Closed SHEAF: every ground unit in the target hex is attacked individually (6.5.1.5)."""
        g = self.game
        row, band, factor = self._if_band(s, o, h)
        if self.dice.record:
            self.events.append(f"artillery lands at {g.label(h)} ({g.units[s].name}, GP {factor}, {band})")
        for t in [t for t in range(g.n) if self.st[t] == ON and self.hex[t] == h]:
            self.attacked[t] = True
            self._if_attack(s, t, row, band, factor)

    def _if_attack(self, s: int, t: int, row, band: str, factor: int, observer: int = -1) -> None:
        """One unit in the SHEAF (MBT 6.5.4.4): GP Defense (legs by overhead protection only), IF modifiers;
        ``s`` -1 for an off-map battery (no Unit Grade: the observer's, MBT 5.8)."""
        g = self.game
        ag = g.units[t].type.ag
        fmax, dmax = g.ag.gp_max
        defense = self.if_leg_defense(t) if ag.leg else ag.gp_value
        defense = max(1, min(dmax, defense))
        n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, factor)), defense)]
        net = self.if_modifiers(s if s >= 0 else observer, t, band)
        roll = self.dice.roll(100, f"IF {g.units[s].name if s >= 0 else 'battery'}>{g.units[t].name}")
        x = roll + net
        effect = "N" if x <= n_eff else ("S" if x <= s_eff else "E")
        if ag.leg:
            result = self.apply_leg_result(t, effect)
        else:
            result = self.gp_vehicle_result(row, band, factor, defense, x, effect, ag.target_type)
        if self.dice.record:
            self.events.append(f"IF at {g.units[t].name} (GPD {defense}{ag.target_type}): roll {roll}{net:+d} = {x} "
                               f"vs N {n_eff} / S {s_eff}: {effect}-Effect -> {result}")
        if not ag.leg:
            self.apply_gp_result(s, t, row, result)
            self.passenger_gp(s, t, row, factor, net - self._if_vehicle_mods(t))

    def if_leg_defense(self, t: int) -> int:
        """Leg GP Defense against IF: only overhead protection counts as cover (MBT 6.5.4.3: inside a building
        Medium, else None), -2 when moving."""
        ag = self.game.units[t].type.ag
        overhead = self.game.building_hexes
        d = ag.gpd_cover["medium" if self.hex[t] in overhead else "none"]
        if self.cmd[t] in (MOVE, SH) and self.rev[t]:
            d -= 2
        return max(1, min(10, d))

    def _if_vehicle_mods(self, t: int) -> int:
        m = self.game.ag.gp_mod
        net = {"A": m["target-a-type"], "P": m["target-p-type"]}.get(self.game.units[t].type.ag.target_type, 0)
        if self.cmd[t] in (MOVE, SH) and self.rev[t]:
            net += self.game.ag.if_mod["target-moving-if"]
        return net

    def if_modifiers(self, s: int, t: int, band: str) -> int:
        """GP modifiers of indirect fire (MBT 6.5.4.3): target type and moving (-20 IF) for vehicles; the firer's
        Unit Grade by range factor; no cover, smoke or sight modifiers."""
        g = self.game
        net = 0 if g.units[t].type.ag.leg else self._if_vehicle_mods(t)
        return net + g.ag.grade_gp[self.unit_grade(s)][band]
