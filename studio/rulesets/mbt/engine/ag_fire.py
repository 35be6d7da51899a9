"""Advanced Game AP direct fire (MBT 6.5.2) and ATGMs (MBT 5.1.3.3): the Advanced hit modifiers, number of hits
by Rate of Fire, six hit angles, shot elevation, hit location, armor by angle/elevation/location, special armor
(CE armor, ERA), AP Damage (turret/hull damage, KO, Brew Up), Track hits and crew Bail Out.

A shot's additional hits (ROF Q/R/F) stay on the original target or spread (option ``hit-spread``,
``hit_spread.py``). Every roll is labelled; with ``dice.record`` every result is narrated in ``events``."""
from __future__ import annotations

from studio.hexgrid.coords import distance
from studio.hexgrid.facing import _rel2

from .codes import DEAD, MFIRE, MFIRE_SA, MOVE, ON, SH
from .hit_spread import HitSpreadRules
from .if_data import if_data
from .opt_fire_data import fire_data

FRONTAL = ("front", "front_side")
#: the ``indirect-fire-values`` row of the Heat Haze range by target size (MBT 6.5.2.5, 6.5.4.3)
HEAT_HAZE_RANGE = {"S": "heat-haze-s", "L": "heat-haze-l", "V": "heat-haze-v"}
TURRET_LOCS = ("TF", "TS", "TR", "DK")


def faces(roll: int) -> tuple[int, int]:
    """The tens and units dice of a roll (100), each 1-10 (face 0 counts 10, MBT 3.2, 6.5.2.2).

    >>> faces(76), faces(100), faces(5), faces(70)
    ((7, 6), (10, 10), (10, 5), (7, 10))
    """
    tens, units = (roll // 10) % 10, roll % 10
    return tens or 10, units or 10


def hit_angle(target_hex, facing: int, shooter_hex) -> str:
    """The Hit Angle of a shot from ``shooter_hex`` (MBT 6.5.2.2): six 60-degree sectors centred on the target's
    hexsides (Q16), left and right mirrored. On a sector boundary the target's owner chooses: the more frontal
    angle (``ENGINE_POLICIES['hit-angle-owner-choice']``); from the same hex, Front."""
    if target_hex == shooter_hex:
        return "front"
    k, n = _rel2(target_hex, facing, shooter_hex)
    k = abs(k)  # the offset is k / (2n) hexsides: sector boundaries at 1/2, 3/2 and 5/2
    if k <= n:
        return "front"
    if k <= 3 * n:
        return "front_side"
    if k <= 5 * n:
        return "rear_side"
    return "rear"


class AgFireRules(HitSpreadRules):
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    # ---------------------------------------------------------------- legality and modifiers
    def band_of(self, row, r: int) -> str | None:
        """Range factor; ATGM rows read from E toward P (MBT 5.1.3.3.2, table ``range-factors``)."""
        if row.kind != "ATGM":
            return super().band_of(row, r)
        for b in self.game.ag.atgm_bands:
            v = row.ranges["PSMLE".index(b)]
            if v is not None and v >= r:
                return b
        return None

    def fire_options(self, s: int, targets, df: bool = True) -> list:
        """Legal shots; a Short Halt unit may not fire CL 3/4 ATGMs or no-Short-Halt weapons (MBT 5.1.3.3.3); an
        ATGM whose only sight is unavailable (a Laser sight through smoke) may not fire (MBT 6.5.2.2.5)."""
        out = super().fire_options(s, targets, df)
        if self.cmd[s] == SH:
            out = [(t, row) for t, row in out if not row.no_short_halt]
        out = [(t, row) for t, row in out if not (row.kind == "ATGM" and self.sight_unavailable(s, t, row.sight))]
        if df and self.ofire is not None:
            out = self.priority_filter(s, out)  # MBT 7.14 (optional)
        return out

    def ap_target_size(self, t: int) -> int:
        """The Size modifier of AP fire at ``t`` (MBT 6.5.2.5): its card's (a landed helicopter: ``air.py``)."""
        return self.game.units[t].type.target_size

    def hit_modifiers(self, s: int, t: int, row, overwatch: bool) -> tuple[int, str | None]:
        """Net AP hit modifier (MBT 4.4.3.2.2 and 6.5.2.5) and range factor, clamped."""
        g = self.game
        tb, ag = g.tables, g.ag
        am = tb.ap_mod
        band = self.band_of(row, distance(self.hex[s], self.hex[t]))
        net = self.ap_target_size(t) + tb.cover_ap.get(self.cover_of(self.hex[t]), 0)
        if self.cmd[t] in (MOVE, SH) and self.rev[t]:
            net += ag.hit_mod["target-moving-atgm"] if row.kind == "ATGM" else am["target-moving"]
        if self.cmd[s] == SH and not overwatch:
            sb = 0 if row.kind == "ATGM" else g.units[s].type.sb  # CL 1/2 ATGM Short Halt is SB:0 (5.1.3.3.3)
            net += am[f"short-halt-sb{sb}"]
        if self.tdmg[s]:
            net += am["shooter-damaged"]  # turret damage only (MBT 6.5.2.5)
        if self.sup[s]:
            net += ag.hit_mod["shooter-suppressed"]
        net += am["brew-up-smoke"] * self.brewup_on_line(self.hex[s], self.hex[t])
        net += self.hindrance_modifier(s, t, "ap")  # Smoke and Barrages (MBT 6.5.2.5, 6.5.4.3; smoke.py)
        if overwatch:
            key = "overwatch" if self.ow_inside(s, t, row) else "overwatch-adjust"
            net += am[key + "-cis" if self.has_cis(s, row) else key]
        if self.ofire is not None:
            net += self.opt_ap_modifier(s, t, row, overwatch)  # MBT 7.15, 7.23.1, 7.50 (optional)
        if self.short is not None:
            net += self.ammo_modifier(s, t, gp=False)  # MBT 5.16.2.1
        net += self.heat_haze(s, t, "ap")  # MBT 6.5.2.5
        if band is not None:
            net += ag.grade_ap[self.unit_grade(s)][band]
            if row.kind != "ATGM":  # ATGMs apply no sight modifiers (MBT 6.5.2.5)
                sight = self.sight_of(s, row, t)
                net += ag.sight_ap.get(sight, ag.sight_ap["O"])[band]
        lo, hi = tb.ap_clamp
        return max(lo, min(hi, net)), band

    def heat_haze(self, s: int, t: int, kind: str) -> int:
        """Heat Haze of direct fire (MBT 6.5.2.5 AP, 6.5.4.3 GP; scenario ``heat_haze``): the AP or GP modifier
        (``ag-hit-modifiers`` / ``gp-fire-modifiers`` row ``heat-haze``) at a target at or beyond the range of its
        size (``indirect-fire-values``: every vehicle is V-sized, leg and towed units S or L); else 0."""
        g = self.game
        if not g.extension.get("heat_haze"):
            return 0
        if distance(self.hex[s], self.hex[t]) < if_data(g).val[HEAT_HAZE_RANGE[g.units[t].type.ag.size]]:
            return 0
        return g.ag.hit_mod["heat-haze"] if kind == "ap" else g.ag.gp_mod["heat-haze"]

    def has_cis(self, s: int, row) -> bool:
        """A CIS sight (MBT 4.4.3.2.2, 7.48); lost with turret damage under Optional Rule 7.48."""
        if not row.cis:
            return False
        return self.ofire is None or not self.ofire.d.on["cis"] or not self.tdmg[s]

    def sight_of(self, s: int, row, t: int = -1) -> str:
        """The sight a row fires with (MBT 6.5.2.2.5): its primary sight, or after collateral damage (7.23.1) the
        one left (O when none: such a row cannot fire at all); at target ``t`` a primary sight that is not
        available there (:meth:`sight_unavailable`) gives way to the secondary sight (O when none or when that
        one is not available either)."""
        sight = row.sight if self.ofire is None or not self.ofire.collat[s] else self.effective_sight(s, row) or "O"
        if t < 0 or not self.sight_unavailable(s, t, sight):
            return sight
        second = self.secondary_sight(s, row)
        return "O" if second is None or self.sight_unavailable(s, t, second) else second

    def sight_unavailable(self, s: int, t: int, sight: str) -> bool:
        """A Laser sight has no effect from, into or through Smoke (Brew-Up and DS included); a sight with a range
        limit (``weapon-sight-modifiers`` column ``max_range``: the Ranging MG's 20 hexes) none beyond it
        (MBT 6.5.2.2.5)."""
        limit = self.game.ag.sight_range.get(sight)
        if limit is not None and distance(self.hex[s], self.hex[t]) > limit:
            return True
        return sight == "L" and self.laser_blocked(self.hex[s], self.hex[t], s, t)

    def secondary_sight(self, s: int, row) -> str | None:
        """The secondary sight of ``row``'s weapon on the card (MBT 6.5.2.2.5); ATGMs have none."""
        if row.kind == "ATGM":
            return None
        card = fire_data(self.game).cards.get(self.game.units[s].type.id)
        return None if card is None else card.secondary.get(row.weapon)

    # ---------------------------------------------------------------- the shot
    def _shoot(self, s: int, t: int, row, overwatch: bool) -> None:
        """A shot (MBT 4.4.3, 6.5.2, 6.5.4): the shooter is revealed with Spot/Fire (Small Arms: the sideways
        counter unless it already has the full one, MBT 6.1.3); AP/ATGM or GP resolution."""
        self.fired[s] = True
        self.rev[s] = True
        self.mk[s] = MFIRE_SA if row.spot_small_arms and self.mk[s] != MFIRE else MFIRE  # mortars too (5.1.3.1)
        if self.st[t] != ON:
            return
        self.attacked[t] = True
        if self.ofire is not None:
            row = self.opt_shot_row(s, t, row, overwatch)  # MBT 7.8.4, 7.15, 7.48, 7.50 (optional)
        row = self.ammo_check(s, t, row)  # MBT 5.16 Ammo Limits (ammo.py)
        if row.kind == "GP":
            self.gp_fire(s, t, row, overwatch)
        else:
            self.ap_fire(s, t, row, overwatch)
        self.short = None  # the Ammo Limit effect was this shot's only (MBT 5.16.2.1)
        if self.ofire is not None:
            self.opt_after_shot(s, t, row)  # MBT 7.8.4 (optional)

    def ap_fire(self, s: int, t: int, row, overwatch: bool) -> int:
        """AP or ATGM fire (MBT 6.5.2): one roll (100) for hit and number of hits (6.5.2.1), then each hit.
        Returns the number of hits (0: a miss or no shot; optional rule 7.35.3 reads it)."""
        g = self.game
        net, band = self.hit_modifiers(s, t, row, overwatch)
        if band is None:
            return 0
        number = g.tables.ap_hit[(net, band)]
        names = f"{g.units[s].name}>{g.units[t].name}"
        roll = self.dice.roll(100, f"AP hit {names}")
        hits = self.number_of_hits(number, row.rof, roll) if roll <= number else 0
        if self.ofire is not None:
            self.malfunction(s, row, roll, gp=False)  # MBT 7.25 (optional)
        if self.dice.record:
            self.events.append(f"{g.units[s].name} fires {row.ammo} at {g.units[t].name}, range "
                               f"{distance(self.hex[s], self.hex[t])} ({band}), net {net:+d}: hit roll {roll} vs "
                               f"{number}: {hits} hit(s)" if hits else
                               f"{g.units[s].name} fires {row.ammo} at {g.units[t].name} ({band}, net {net:+d}): "
                               f"hit roll {roll} vs {number}: miss")
        for x, xband in self.hit_targets(s, t, row, band, hits):  # MBT 6.5.2.1: spread (option hit-spread)
            if self.st[x] == ON:
                self.spread_hit(s, x, t, row, xband)
        return hits

    def number_of_hits(self, number: int, rof: str, roll: int) -> int:
        """Hits of a roll at or under the hit number (MBT 6.5.2.1): ROF N one; Q/R/F by table
        ``ap-number-of-hits`` where it has the hit number's row, else the placeholder fractions."""
        if rof == "N":
            return 1
        ag = self.game.ag
        for hits, lo, hi in ag.hits_known.get((number, rof), ()):
            if lo <= roll <= hi:
                return hits
        for hits, frac in ag.hits_frac.get(rof, ()):
            if roll <= int(number * frac):
                return hits
        return 1

    def shot_elevation(self, s: int, t: int) -> str:
        """Level, Falling (firer higher) or Rising (firer lower) by hex height (MBT 6.5.2.3.1)."""
        e = self.game.elev
        hs, ht = e.get(self.hex[s], 0), e.get(self.hex[t], 0)
        return "level" if hs == ht else ("falling" if hs > ht else "rising")

    def _ap_hit(self, s: int, t: int, row, band: str) -> None:
        """One hit: location roll (tens: location, units: damage digit, MBT 6.5.2.2), Track, armor, penetration
        and damage."""
        g = self.game
        opt = self.ofire
        angle = hit_angle(self.hex[t], self.fac[t], self.hex[s])
        elev = self.shot_elevation(s, t)
        pen = row.atgm.penetration if row.kind == "ATGM" else self.penetration(row, band)
        if opt is not None and opt.d.on["varpen"] and row.kind == "AP":
            pen = self.varied_penetration(s, t, pen)  # MBT 7.12: before the location roll (optional)
        roll = self.dice.roll(100, f"AP location {g.units[s].name}>{g.units[t].name}")
        tens, digit = faces(roll)
        if opt is not None:
            tens = self.small_turret_tens(s, t, tens, angle)  # MBT 7.45 (optional)
        loc = "DK" if elev == "falling" and tens == 1 else g.ag.locations[(angle, tens)][0]  # MBT 6.5.2.2.2
        if opt is not None:
            loc = self.turret_location(s, t, tens, loc)  # MBT 7.8.2 (optional)
        if self.hull_down_miss(s, t, angle, tens, loc):  # MBT 6.5.2.2.3 (MOVE: hull_down.py)
            self.narrate(f"{g.units[t].name} hit {angle} {elev}, roll {roll}: {loc} masked by hull down: a miss")
            return
        say = self.dice.record
        if loc == "TK":  # MBT 6.5.2.2.1: immediate damage; later Track hits are ignored
            if say:
                self.events.append(f"{g.units[t].name} hit {angle} {elev}, roll {roll}: Track"
                                   f"{' (already tracked)' if self.track[t] else ''}")
            if not self.track[t] and (opt is None or self.track_stands(s, t, row)):  # MBT 7.21 (optional)
                self.track_hit(t)
                self.bail_out(t, "TK")
            return
        lower = self.lower_hull(s, t, angle) if opt is not None and loc == "HF" else None  # MBT 7.13
        if lower is not None:
            armor = lower  # the lower hull: no ERA (MBT 7.13)
        else:
            armor = self.special_armor(t, loc, angle, row, self.armor_at(t, angle, elev, loc))
        if pen < armor:
            if say:
                self.events.append(f"{g.units[t].name} hit {angle} {elev} at {loc} (roll {roll}): penetration "
                                   f"{pen} vs armor {armor}{' (lower hull)' if lower is not None else ''}: "
                                   "no penetration")
            return
        result = self.ap_damage(s, t, row, digit)
        if say:
            self.events.append(f"{g.units[t].name} hit {angle} {elev} at {loc} (roll {roll}): penetration {pen} "
                               f"vs armor {armor}{' (lower hull)' if lower is not None else ''}: damage digit "
                               f"{digit} -> {result}")
        self.apply_damage(t, result, loc)
        if result == "ND" and opt is not None:
            self.collateral(t, loc)  # MBT 7.23 (optional)

    # ---------------------------------------------------------------- armor
    def armor_at(self, t: int, angle: str, elev: str, loc: str) -> int:
        """Armor Factor at the location (MBT 6.5.2.3): S-Type 0; Deck armor; the card's angle/elevation table, or
        the Basic Front/Rear factor where the card gives none (``ENGINE_POLICIES['ag-armor-fallback']``)."""
        ut = self.game.units[t].type
        ag = ut.ag
        if ag.target_type == "S":
            return 0
        basic = ut.armor_front if angle in FRONTAL else ut.armor_rear
        if loc == "DK":
            return ag.deck if ag.deck is not None else ut.armor_rear
        if ag.armor is None:
            return basic
        value = ag.armor[angle][elev].get(loc)
        return basic if value is None else value

    def special_armor(self, t: int, loc: str, angle: str, row, armor: int) -> int:
        """CE-Type armor against CE ammo, then ERA on the owner's roll (10) (MBT 6.5.2.4.1-2, table
        ``era-effect``); front-only ERA counts through the Front and Front/Side angles only."""
        g = self.game
        spec = g.units[t].type.ag.special.get(loc)
        if spec is None:
            return armor
        ce, era, front_only = spec
        if ce and row.energy == "CE":
            armor = self._special(armor, f"CEx{ce:g}")
        if era and (not front_only or angle in FRONTAL):
            tandem = bool(row.atgm and row.atgm.tandem)
            need = g.ag.era.get((era, row.energy or "KE", tandem))
            if need is not None:
                roll = self.dice.roll(10, f"ERA {g.units[t].name}")
                if self.dice.record:
                    self.events.append(f"{g.units[t].name} {era}-ERA roll {roll} vs {need}: "
                                       f"{'effective' if roll <= need else 'no effect'}")
                if roll <= need:
                    armor = self._special(armor, "ERAK" if row.energy == "KE" else "ERAC")
        return armor

    def _special(self, armor: int, kind: str) -> int:
        """Special Armor Table (MBT 6.5.2.4): exact calculation rounded down, or the row at or below the armor
        (option ``special-armor-rounding``, Q33)."""
        g = self.game
        op, value = g.ag.special[kind]
        if g.options["special-armor-rounding"] == "table-row":
            armor = armor // g.ag.row_step * g.ag.row_step
        return int(armor * value) if op == "multiply" else int(armor + value)

    # ---------------------------------------------------------------- damage
    def ap_damage(self, s: int, t: int, row, digit: int) -> str:
        """AP Damage on the firer's card by the units die (MBT 6.5.2.6; option ``ap-damage-source``, Q22);
        -2 against S-Type vehicles except with CE ammo, never below 1 (6.5.2.4.3)."""
        g = self.game
        mods = g.ag.damage_mod
        if g.units[t].type.ag.target_type == "S" and row.energy != "CE":
            digit = max(mods["minimum"], digit + mods["s-type"])
        if self.ofire is not None:
            digit = self.bu_damage(t, digit)  # MBT 7.11 (optional)
            if digit > len(g.ag.damage_default):
                return "BU"  # a modified 11 or 12 is a Brew Up whatever the card's highest result (MBT 7.11)
        table = row.ap_damage if g.options["ap-damage-source"] == "ammo-row" else None
        table = table or row.card_damage
        if table:
            return table[min(len(table), digit) - 1]
        return g.ag.damage_default.get(digit, "ND")

    def apply_damage(self, t: int, result: str, loc: str) -> None:
        """ND, DM (turret or hull by location; a second Damaged of either type is KO), KO, BU (MBT 6.5.2.6)."""
        if result == "DM" and (self.tdmg[t] or self.dmg[t]):
            result = "KO"  # MBT 6.5.2.2.4
        if result == "KO":
            self._eliminate(t, brew=False)
            self.passengers_bail(t, "KO")
        elif result == "BU":
            self._eliminate(t, brew=True)
            self.passengers_bail(t, "BU")
            self.suppress_hex(t)
        elif result == "DM":
            if loc in TURRET_LOCS:
                self.tdmg[t] = True
            else:
                self._damage(t)  # Hull Dmgd: remaining and future MSA halved (MBT 6.5.2.2.4)
            self.bail_out(t, "DM")
        else:
            self.bail_out(t, "ND")

    def track_hit(self, t: int) -> None:
        """Track Hit (MBT 6.5.2.2.1): no more movement or pivots this scenario; a moving vehicle stops at once."""
        self.track[t] = True
        if self.mv_u == t:
            self.mv_left = 0
            self.mv_end = True

    def bail_out(self, t: int, result: str) -> None:
        """Crew Bail Out (MBT 6.5.2.7.1): roll (100) + the Unit Grade modifier at or under the Bail Out value;
        the abandoned vehicle is out of play and lost (never re-occupied); its passengers bail out with it."""
        g = self.game
        if self.st[t] != ON or g.units[t].type.ag.leg:
            return
        value = g.ag.bail[result]
        mod = g.ag.grade_bail[self.unit_grade(t)] + self.morale_bail_mod(t)  # MBT 7.1.5 Hesitating/Broken crew
        roll = self.dice.roll(100, f"Bail Out {g.units[t].name}")
        out = roll + mod <= value
        if self.dice.record:
            self.events.append(f"{g.units[t].name} crew Bail Out check ({result}): roll {roll}{mod:+d} vs {value}: "
                               f"{'bails out' if out else 'stays'}")
        if out:
            self.bail[t] = True
            self.st[t] = DEAD
            self.lost[g.units[t].side] += 1
            self.crew_bailed(t)
        else:
            self.passengers_bail(t, result)  # the crew stays: the passengers may still bail out (6.5.2.7.2)
