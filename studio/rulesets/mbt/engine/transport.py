"""Transporting (MBT 6.6.7): passengers ride in their carrier's hex (status ``CARRIED``: no command, no spotting,
not a target except through fire at the carrier), mount and dismount in the Movement Phase, and take the
carrier's fate (Bail Out of passengers, MBT 6.5.2.7.2) and GP fire through it (transport protection, 6.5.4.2.3).

- ``dismount CARRIER PASSENGER``: during the carrier's move (Move or Short Halt command), once per hex it costs
  half the carrier's allowance for the move (round down, MBT 6.6.7), then any number of passengers leave it: each
  is placed in the carrier's hex (``ENGINE_POLICIES['dismount-hex']``) with a revealed Move command and Spot/Move,
  its whole allowance spent.
- ``mount PASSENGER CARRIER``: a leg unit with a Move command that has not moved yet boards a friendly vehicle in
  its hex with room left (its whole allowance).
- ``bailout CARRIER PASSENGER``: Emergency Bail Out (MBT 6.6.7.1.2): during its carrier's move (Move or Short Halt
  command), at no cost, an unsuppressed passenger leaves it into the carrier's hex with Suppression/On.
"""
from __future__ import annotations

from .actions import Action
from .codes import CARRIED, DEAD, EXITED, MMOVE, MOVE, ON, SH
from .suppression import SUP_ON


def initial_mounts(game) -> list[int]:
    """The carrier of each unit at the start (scenario extension ``mounted``): the leg units of a force are seated,
    in TO&E order, on the first vehicle of the carrier force (default the same force) with room (MBT 6.6.7.1)."""
    out = [-1] * game.n
    for entry in game.extension.get("mounted") or ():
        force, carriers = entry["force"], entry.get("carriers") or entry["force"]
        legs = [i for i, u in enumerate(game.units) if u.force == force and u.type.ag and u.type.ag.leg]
        vehicles = [i for i, u in enumerate(game.units) if u.force == carriers and u.type.ag and not u.type.ag.leg
                    and u.type.ag.capacity_leg > 0]
        room = {c: game.units[c].type.ag.capacity_leg for c in vehicles}
        tows, towing = _tow_room(game, vehicles), dict.fromkeys(vehicles, 0)
        for p in legs:
            need = game.units[p].type.ag.passenger_leg
            towed = getattr(game.units[p].type.ag, "passenger_towed", 0)  # MBT 6.6.7.1: one towed unit each
            c = next((c for c in vehicles if room[c] >= need > 0 and game.units[c].side == game.units[p].side and
                      (not towed or (tows[c] >= towed and towing[c] < tows["max"]))), -1)
            if c >= 0:
                room[c] -= need
                out[p] = c
                if towed:
                    towing[c] += 1
    return out


def _tow_room(game, vehicles: list[int]) -> dict:
    """Towed capacity of each vehicle (its card's TR towed value, MBT 6.6.7.1); "max": units one vehicle tows."""
    from .towed import towed_data

    out = {"max": towed_data(game).tow_max}
    for c in vehicles:
        card = game.index.model("unit", game.units[c].type.id)
        body = card.body.model_dump() if card is not None and hasattr(card.body, "model_dump") else {}
        out[c] = int(((body.get("general") or {}).get("transport") or {}).get("towed", 0))
    return out


class TransportRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def passengers(self, c: int) -> list[int]:
        return [p for p, x in enumerate(self.carrier) if x == c and self.st[p] == CARRIED]

    def room(self, c: int) -> int:
        """Leg capacity left on carrier ``c`` (MBT 6.6.7.1: the sum of the passengers' leg components)."""
        g = self.game
        used = sum(g.units[p].type.ag.passenger_leg for p in self.passengers(c))
        return g.units[c].type.ag.capacity_leg - used

    def move_options(self, i: int) -> list[Action]:
        out = super().move_options(i)
        g = self.game
        name = g.units[i].name
        if self.st[i] != ON:
            return out
        if self.passengers(i) and self.cmd[i] in (MOVE, SH) and self._transfer_cost(i) <= self.mv_left:
            out += [Action(("dismount", name, g.units[p].name)) for p in self.passengers(i)]
        if self.cmd[i] in (MOVE, SH):
            out += [Action(("bailout", name, g.units[p].name)) for p in self.passengers(i) if not self.sup[p]]
        if g.units[i].type.ag.leg and self.mv_steps == 0 and not self.mv_spent and self.mv_turned == 0:
            need = g.units[i].type.ag.passenger_leg
            side, h = g.units[i].side, self.hex[i]
            for c in g.units_of(side):
                if c != i and self.st[c] == ON and self.hex[c] == h and not g.units[c].type.ag.leg and \
                        self.room(c) >= need > 0:
                    out.append(Action(("mount", name, g.units[c].name)))
        return out

    def _transfer_cost(self, c: int) -> int:
        """Half the carrier's allowance for this move, once per hex (MBT 6.6.7)."""
        if self.xfer == self.hex[c]:
            return 0
        return self.msa(c, self.game.units[c].type.cc) // 2

    def _apply_move(self, i: int, a: Action) -> None:
        verb = a[0]
        if verb == "dismount":
            self._dismount(i, self.game.uindex[a[2]])
            return
        if verb == "mount":
            self._mount(i, self.game.uindex[a[2]])
            return
        if verb == "bailout":
            self._emergency_bail_out(i, self.game.uindex[a[2]])
            return
        if verb == "move":
            self.xfer = None
        super()._apply_move(i, a)
        self._carry(i)

    def _carry(self, c: int) -> None:
        """Passengers move, enter and leave the map with their carrier."""
        for p in self.passengers(c):
            self.hex[p] = self.hex[c]
            self.fac[p] = self.fac[c]
            if self.st[c] == EXITED:
                self.st[p] = EXITED
                self.exits.append((p, self.exits[-1][1] if self.exits else None))

    def _dismount(self, c: int, p: int) -> None:
        """Dismount (MBT 6.6.7): the carrier pays once in this hex; the passenger has spent its move."""
        g = self.game
        cost = self._transfer_cost(c)
        self.mv_left -= cost
        if cost:
            self.mv_spent = True
        self.xfer = self.hex[c]
        self._unload(p, c, suppressed=False)
        if self.dice.record:
            self.events.append(f"{g.units[p].name} dismounts from {g.units[c].name} in {g.label(self.hex[c])}"
                               f"{f' ({cost} of its allowance)' if cost else ''}")
        self._into_minefield(p)

    def _into_minefield(self, p: int) -> None:
        """A passenger dismounting or bailing out into an AP minefield is attacked at once; mounting there is
        not (MBT 7.31.2.2)."""
        if self.mines:
            self.mine_attack(p, quickmarch=False)

    def _emergency_bail_out(self, c: int, p: int) -> None:
        """Emergency Bail Out (MBT 6.6.7.1.2): no cost to the carrier; the passenger is Suppressed in the hex."""
        self._unload(p, c, suppressed=True)
        self.narrate(f"{self.game.units[p].name} makes an Emergency Bail Out from {self.game.units[c].name} in "
                     f"{self.game.label(self.hex[c])}")
        self._into_minefield(p)

    def _unload(self, p: int, c: int, suppressed: bool) -> None:
        self.carrier[p] = -1
        self.st[p] = ON
        self.hex[p] = self.hex[c]
        self.fac[p] = self.fac[c]
        self.cmd[p] = MOVE
        self.rev[p] = True
        self.moved[p] = True
        self.mk[p] = MMOVE
        if suppressed:
            self.suppress(p, f"bailed out of {self.game.units[c].name}")

    def _mount(self, p: int, c: int) -> None:
        """Mount (MBT 6.6.7): the leg unit's whole move."""
        g = self.game
        self.carrier[p] = c
        self.st[p] = CARRIED
        self.moved[p] = True
        self.mv_u = -1
        if self.dice.record:
            self.events.append(f"{g.units[p].name} mounts {g.units[c].name} in {g.label(self.hex[c])}")

    # ---------------------------------------------------------------- the carrier's fate
    def lose_aboard(self, p: int) -> None:
        """Passenger ``p`` is eliminated aboard its carrier (a loss of its side; no bail-out, no wreck)."""
        self.st[p] = DEAD
        self.carrier[p] = -1
        self.lost[self.game.units[p].side] += 1

    def lose_with_passengers(self, i: int) -> None:
        """Unit ``i`` is eliminated with everyone aboard (e.g. sunk or burnt: no bail-out, no wreck)."""
        for p in self.passengers(i):
            self.lose_aboard(p)
        self.st[i] = DEAD
        self.lost[self.game.units[i].side] += 1

    def passengers_bail(self, c: int, result: str) -> None:
        """Passengers of a hit carrier (MBT 6.5.2.7.2): after ND, DM or TK each may bail out (roll (100) + grade
        at or under the value; not from Under Armor or Under Cover carriers); after KO or BU each survives on a
        roll at or above the value, else it is eliminated. Survivors are placed in the hex, Suppressed."""
        g = self.game
        protected = g.units[c].type.ag.protection in ("under_armor", "under_cover")
        for p in self.passengers(c):
            if result in ("ND", "DM", "TK") and protected:
                continue
            roll = self.dice.roll(100, f"Bail Out {g.units[p].name}")
            net = roll + g.ag.grade_bail[self.unit_grade(p)] + self.morale_bail_mod(p)  # 7.1.5 Hesitating/Broken
            if result in ("KO", "BU"):
                out = net >= self.bail_value(p, result)
                if not out:
                    self.lose_aboard(p)
            else:
                out = net <= self.bail_value(p, result)
            if out:
                self._unload(p, c, suppressed=True)
            if self.dice.record:
                fate = "bails out, Suppressed" if out else ("eliminated" if result in ("KO", "BU") else "stays")
                self.events.append(f"{g.units[p].name} (passenger, {result}) Bail Out roll {roll}: {fate}")
            if out:
                self._into_minefield(p)

    def bail_value(self, p: int, result: str) -> int:
        """The Bail Out Table value of passenger ``p`` for its carrier's ``result`` (MBT 6.5.2.7.2; the towed
        rows in ``towed.TowedRules``)."""
        return self.game.ag.bail_pass[result]

    def crew_bailed(self, c: int) -> None:
        """The crew bailed out: every passenger bails out automatically, Suppressed (MBT 6.5.2.7.1)."""
        for p in self.passengers(c):
            self._unload(p, c, suppressed=True)
            self._into_minefield(p)

    def passenger_gp(self, s: int, c: int, row, factor: int, net: int, label: str = "", direct: bool = True) -> None:
        """GP fire at a carrier also attacks each passenger with its own roll (MBT 6.5.4.2.3): GPD 3 Under Cover,
        1 otherwise; none Under Armor. ``net``: the shot's modifiers without the vehicle-target ones; ``label``
        names the attack in the dice labels (default: the shooter, or 'battery' when ``s`` is -1); ``direct``:
        direct fire (False: indirect), for the Bail Out row of a Suppressed passenger (:meth:`gp_bail_out`)."""
        g = self.game
        protection = g.units[c].type.ag.protection
        if protection == "under_armor":
            return
        fmax, dmax = g.ag.gp_max
        defense = g.ag.passenger_gpd["under_cover" if protection == "under_cover" else "none"]
        for p in self.passengers(c):
            n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, factor)), max(1, min(dmax, defense)))]
            roll = self.dice.roll(100, f"{label} (passenger {g.units[p].name})" if label else
                                  f"GP {g.units[s].name if s >= 0 else 'battery'}>{g.units[p].name} (passenger)")
            x = roll + net
            effect = "N" if x <= n_eff else ("S" if x <= s_eff else "E")
            was_on = self.sup[p] == SUP_ON
            result = self.apply_leg_result(p, effect)
            if self.dice.record:
                self.events.append(f"{g.units[p].name} (passenger of {g.units[c].name}, GPD {defense}S): roll {roll}"
                                   f"{net:+d} = {x} vs N {n_eff} / S {s_eff}: {result}")
            if self.st[p] == DEAD:
                self.carrier[p] = -1  # eliminated aboard (no wreck)
            elif effect != "N" and not was_on:
                self.gp_bail_out(p, c, direct)

    def gp_bail_out(self, p: int, c: int, direct: bool) -> None:
        """A passenger Suppressed by GP fire (a new Suppression/On: one already On does not check) may bail out
        (MBT 6.5.4.5, 5.15): roll (100) + its grade modifier at or under the Suppressed row of the Bail Out Table
        (DF or IF); it is placed in the carrier's hex, Suppressed; otherwise it stays aboard, Suppressed."""
        g = self.game
        value = g.ag.bail_pass["SUP-DF" if direct else "SUP-IF"]
        roll = self.dice.roll(100, f"Bail Out {g.units[p].name}")
        out = roll + g.ag.grade_bail[self.unit_grade(p)] + self.morale_bail_mod(p) <= value
        if self.dice.record:
            self.events.append(f"{g.units[p].name} (passenger, Suppressed {'DF' if direct else 'IF'}) Bail Out "
                               f"roll {roll} vs {value}: {'bails out, Suppressed' if out else 'stays aboard'}")
        if out:
            self._unload(p, c, suppressed=False)
            self._into_minefield(p)


__all__ = ["TransportRules", "initial_mounts"]
