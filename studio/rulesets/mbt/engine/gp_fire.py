"""GP direct fire at vehicles (MBT 6.5.4): GP Factor by range (6.5.4.1), the vehicle's GP Defense (6.5.4.2.1),
the GP Fire Modifiers (6.5.4.3), the GP Combat Results Table (6.5.4.4) and the vehicle results (6.5.4.4.2): the
Rule of 5s and 10s, GP Effectiveness, DAMAGE and TRACK, Small Arms limits by range factor."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .codes import MOVE, SH
from .opt_fire_data import fire_data

#: GP Effectiveness-limited results: Small Arms by target type -> (range factors at which an S-Effect
#: suppresses, range factors at which an E-Effect suppresses, range factors at which an E-Effect damages)
SMALL_ARMS = {"A": (("P",), ("P", "S"), ()), "P": (("P", "S"), ("S",), ("P",))}


def _mortar(game, s: int, row) -> bool:
    """Is ``row`` a mortar's (``weapon_type: mortar`` on the card)?"""
    card = fire_data(game).cards.get(game.units[s].type.id)
    return card is not None and row.weapon in card.mortars


class GpFireRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def gp_factor(self, row, r: int) -> tuple[str | None, int]:
        """GP Range Factor and GP Factor: the first band left to right whose range is at least ``r`` (6.5.4.1)."""
        for b in self.game.tables.bands:
            i = "PSMLE".index(b)
            v = row.ranges[i]
            if v is not None and v >= r and row.gp[i] is not None:
                return b, row.gp[i]
        return None, 0

    def gp_modifiers(self, s: int, t: int, row, band: str, overwatch: bool) -> int:
        """Net GP Fire modifier of a direct-fire shot at a vehicle (MBT 6.5.4.3, table ``gp-fire-modifiers``)."""
        g = self.game
        m = g.ag.gp_mod
        ut = g.units[t].type
        net = self._gp_target_modifiers(t) if not (ut.ag.leg or ut.ag.heli) else 0
        if self.short is not None:
            net += self.ammo_modifier(s, t, gp=True)  # MBT 5.16.2.1 (AA fire too)
        if not ut.ag.heli:
            net += self.heat_haze(s, t, "gp")  # MBT 6.5.4.3 (direct fire only: not indirect fire)
        if ut.ag.heli:  # AA fire (MBT 6.7.8): the card's AA modifier, +10 at a hovering helicopter, no OW modifiers
            return net + row.aa_mod + (g.ag.aa_mod["hovering"] if self.hover[t] else 0) + \
                g.ag.grade_gp[self.unit_grade(s)][band]
        if self.cmd[s] == SH and not overwatch:
            net += m[f"short-halt-sb{g.units[s].type.sb}"]
        if self.tdmg[s]:
            net += m["shooter-damaged"]
        if self.sup[s]:
            net += m["shooter-suppressed"]
        net += m["brew-up-smoke"] * self.brewup_on_line(self.hex[s], self.hex[t])
        net += self.hindrance_modifier(s, t, "gp")  # Smoke and Barrages (MBT 6.5.2.5, 6.5.4.3; smoke.py)
        if overwatch:
            key = "overwatch" if self.ow_inside(s, t, row) else "overwatch-adjust"
            net += m[key + "-cis" if row.cis else key]
        if row.coax and band == "P" and (ut.ag.leg or ut.ag.target_type in ("P", "S")) and not self.coax_lost(s):
            net += m["coax-pointblank"]  # not with a damaged Coax MG (MBT 7.23.1, optional)
        if self.ofire is not None:
            net += self.opt_gp_modifier(s, t, row, overwatch)  # MBT 7.15, 7.18, 7.23.1, 7.50 (optional)
        if g.optional_on("air-bursts") and _mortar(g, s, row):
            net += self.air_burst(t)  # MBT 7.38: mortar direct GP fire bursts in the trees (opt_air_bursts)
        sight = self.sight_of(s, row, t)  # MBT 6.5.2.2.5: the secondary sight where the primary is unavailable
        net += g.ag.grade_gp[self.unit_grade(s)][band] + g.ag.sight_gp.get(sight, g.ag.sight_gp["O"])[band]
        return net

    def _gp_target_modifiers(self, t: int) -> int:
        """Vehicle target modifiers (MBT 6.5.4.3): type P/A, moving (revealed), Medium/Heavy cover."""
        m = self.game.ag.gp_mod
        net = {"A": m["target-a-type"], "P": m["target-p-type"]}.get(self.game.units[t].type.ag.target_type, 0)
        if self.cmd[t] in (MOVE, SH) and self.rev[t]:
            net += m["target-moving"]
        cover = self.cover_of(self.hex[t])
        if cover in ("medium", "heavy"):
            net += m[f"target-cover-{cover}"]
        return net

    def gp_fire(self, s: int, t: int, row, overwatch: bool) -> None:
        """GP fire at a vehicle (MBT 6.5.4.4): roll (100) + modifiers against the N- and S-Effect numbers."""
        g = self.game
        band, factor = self.gp_factor(row, distance(self.hex[s], self.hex[t]))
        if band is None:
            return
        ag = g.units[t].type.ag
        fmax, dmax = g.ag.gp_max
        defense = max(1, min(dmax, self.leg_gp_defense(t) if ag.leg else ag.gp_value))
        n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, factor)), defense)]
        net = self.gp_modifiers(s, t, row, band, overwatch)
        roll = self.dice.roll(100, f"GP {g.units[s].name}>{g.units[t].name}")
        x = roll + net
        effect = "N" if x <= n_eff else ("S" if x <= s_eff else "E")
        if self.ofire is not None:
            self.malfunction(s, row, roll, gp=True)  # MBT 7.25: the unmodified roll (optional)
            if effect == "E" and self.pinning(s, t):
                effect = "S"  # Pinning Fire never achieves an Effective result (MBT 7.18)
        if ag.heli:
            result = self.heli_result(t, x, effect)
        elif ag.leg:
            result = self.apply_leg_result(t, effect)
        else:
            result = self.gp_vehicle_result(row, band, factor, defense, x, effect, ag.target_type)
            if self.ofire is not None:
                result = self.opt_gp_vehicle_result(s, t, row, band, effect, result, x, s_eff)
            if result == "TRACK" and self.hull_down_track_no_effect(s, t):
                result = "NE"  # a Track hit on a Hull Down vehicle is No Effect (MBT 6.5.4.4.2; MOVE: hull_down.py)
        if self.dice.record:
            self.events.append(f"{g.units[s].name} fires {row.ammo} (GP {factor}, {band}) at {g.units[t].name} "
                               f"(GPD {defense}{ag.target_type}): roll {roll}{net:+d} = {x} vs N {n_eff} / S "
                               f"{s_eff}: {effect}-Effect -> {result}")
        if not ag.leg and not ag.heli:
            self.apply_gp_result(s, t, row, result)
            self.passenger_gp(s, t, row, factor, net - self._gp_target_modifiers(t))

    def gp_vehicle_result(self, row, band: str, factor: int, defense: int, x: int, effect: str,
                          ttype: str) -> str:
        """Vehicle result of a GP effect (MBT 6.5.4.4.2): NE, SUP, DAMAGE, TRACK or KILL (KO or BU rolled)."""
        if effect == "N":
            return "NE"
        if row.small_arms and ttype in SMALL_ARMS:
            sup_s, sup_e, dmg_e = SMALL_ARMS[ttype]
            if effect == "S":
                return "SUP" if band in sup_s else "NE"
            if band in dmg_e:
                return "DAMAGE"
            return "SUP" if band in sup_e else "NE"
        if effect == "S":
            return "SUP"
        if not row.small_arms and ttype in ("A", "P") and row.gpe < defense:
            return "SUP"  # Effective only if the max GP Effectiveness reaches the GP Defense
        if x % 10 == 5:
            return "DAMAGE"  # the Rule of 5s and 10s
        if x % 10 == 0:
            return "TRACK"
        return "KILL"

    def apply_gp_result(self, s: int, t: int, row, result: str) -> None:
        """Apply a GP vehicle result (MBT 6.5.4.4.2): DAMAGE roll (10) at or under damage-turret-max is Turret
        (unarmed vehicles Hull); KILL roll (10) at or under the max GP Effectiveness (Small Arms: half the GP
        Factor, at least 1) is BU, else KO."""
        g = self.game
        name = g.units[t].name
        if result == "SUP":
            self.suppress(t, "GP fire")
        elif result == "TRACK":
            if not self.track[t] and (self.ofire is None or self.track_stands(s, t, row)):  # MBT 7.21 (optional)
                self.track_hit(t)
                self.bail_out(t, "TK")
        elif result == "TURRET":
            self.apply_damage(t, "DM", "TF")  # Open A-Type turret damage (MBT 7.8.3, optional)
        elif result == "DAMAGE":
            self.apply_damage(t, "DM", self.damage_location(t, self.dice.roll(10, f"GP damage {name}")))
        elif result == "KILL":
            row_limit = self._kill_limit(s, t, row)
            r = self.dice.roll(10, f"GP KO/BU {name}")
            self.apply_damage(t, "BU" if r <= row_limit else "KO", "HF")
            if self.dice.record:
                self.events.append(f"{name} KO/BU roll {r} vs {row_limit}: {'BU' if r <= row_limit else 'KO'}")

    def damage_location(self, t: int, roll: int) -> str:
        """Where a GP or Close Assault Damaged result hits (MBT 6.5.4.4.2, 6.6.1.1.3): the shooter's roll (10) at
        or under damage-turret-max is the turret (TF), else the hull (HF); an unarmed vehicle always the hull."""
        return "TF" if roll <= self.game.ag.turret_max and self.game.units[t].type.armed else "HF"

    def opt_gp_vehicle_result(self, s: int, t: int, row, band: str, effect: str, result: str, x: int,
                              s_eff: int) -> str:
        """Optional rules on a GP vehicle result: an Open A-Type's turret is damaged by an Effective result that
        only suppresses otherwise (MBT 7.8.3: non-small arms short of the GP Defense; small arms at Point Blank);
        a Suppressed result may damage a radar, SAM or ATGM installation (7.47)."""
        if effect == "E" and result == "SUP" and self.open_a_type(t) and (not row.small_arms or band == "P"):
            result = "TURRET"
        if result == "SUP":
            self.installation_hit(s, t, row, x, s_eff)
        return result

    def _kill_limit(self, s: int, t: int, row) -> int:
        if row.small_arms:
            _, factor = self.gp_factor(row, distance(self.hex[s], self.hex[t]))
            return max(1, factor // 2)
        return row.gpe
