"""The damage-chain optional rules of direct fire (mixed into :class:`~.advanced.AdvState` by
:class:`~.opt_fire.OptFireRules`): 7.11 BU Modifier, 7.12 Variable AP Penetration, 7.13 Lower Hull Hits,
7.17 Attached Weapon Loss, 7.21 Variable Track Damage, 7.23 Vehicle Collateral Damage (with the Damaged Radio
Set of 7.23.5 as the per-unit flag ``radio_damaged``) and 7.47 Radar, SAM or ATGM Damage. Every number is read
from the tables of ``opt_fire_specs``; each roll is labelled and narrated."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .codes import ON

#: night-fight sights and aids (MBT 7.23.1)
NIGHT_SIGHTS = frozenset({"T", "I2", "IR", "WP", "P"})
OPTICS = frozenset({"L", "S", "M", "D"})              # the primary sights damaged optics put out (MBT 7.23.1)
LOWER_HULL_TERRAIN = frozenset({"G"})                 # MBT 7.13.1: Gully / ford hexes (terrain code)
LOWER_HULL_HEXSIDES = frozenset({"stream", "wall"})    # MBT 7.13.1: streams (hexsides here) and walls crossed


class FireDamageRules:
    """Rules 7.11, 7.12, 7.13, 7.17, 7.21, 7.23 and 7.47."""

    __slots__ = ()

    # ---------------------------------------------------------------- MBT 7.11
    def bu_damage(self, t: int, digit: int) -> int:
        """MBT 7.11: a BU-notation target adds ``bu-damage`` to the AP Damage units result."""
        d = self.ofire.d
        if d.on["bu"] and d.cards[self.game.units[t].type.id].bu:
            return digit + d.values["bu-damage"]
        return digit

    def bu_close_assault_modifier(self, t: int) -> int:
        """MBT 7.11: the modifier of the close-assault KO/BU roll (10) against a BU-notation vehicle (0 without
        the rule); for the close-combat code (MBT 6.6.1.1.3)."""
        rec = self.ofire
        if rec is None or not rec.d.on["bu"] or not rec.d.cards[self.game.units[t].type.id].bu:
            return 0
        return rec.d.values["bu-close-assault"]

    # ---------------------------------------------------------------- MBT 7.12
    def varied_penetration(self, s: int, t: int, pen: int) -> int:
        """MBT 7.12: roll (10x2) read separately on the AP Penetration Table row of ``pen``; the two adjustments
        added, at most the row's Max either way."""
        rows = self.ofire.d.pen_rows
        row = next((r for r in reversed(rows) if r[0] <= pen), rows[0])
        _, adj, cap = row
        names = f"{self.game.units[s].name}>{self.game.units[t].name}"
        a = self.dice.roll(10, f"AP penetration die 1 {names}")
        b = self.dice.roll(10, f"AP penetration die 2 {names}")
        total = max(-cap, min(cap, adj[a] + adj[b]))
        if self.dice.record:
            self.narrate(f"variable penetration: dice {a} and {b} -> {adj[a]:+d} {adj[b]:+d}, max {cap}: "
                         f"{total:+d} (penetration {pen} -> {pen + total})")
        return pen + total

    # ---------------------------------------------------------------- MBT 7.13
    def lower_hull(self, s: int, t: int, angle: str) -> int | None:
        """MBT 7.13: the lower hull front armor (the Rising HF of the angle halved, rounded down, at least
        ``lower-hull-min``) when the HF hit can be a lower hull hit, else None."""
        d = self.ofire.d
        if not d.on["lower_hull"] or not (self._rising_exit(s, t) or self._height_shot(s, t, angle)):
            return None
        ag = self.game.units[t].type.ag
        rising = ag.armor[angle]["rising"].get("HF") if ag.armor is not None else None
        if rising is None:
            return None
        v = d.values
        return max(v["lower-hull-min"], rising // v["lower-hull-divisor"])

    def _height_shot(self, s: int, t: int, angle: str) -> bool:
        """MBT 7.13.2: target at least ``lower-hull-height`` higher, not Hull Down nor Partial Hull Down (with the
        automatic Partial Hull Down within range = height advantage, 6.1.4.1.3: ``hull_down_state``) and within
        ``lower-hull-range`` x the advantage."""
        e = self.game.elev
        up = e.get(self.hex[t], 0) - e.get(self.hex[s], 0)
        v = self.ofire.d.values
        r = distance(self.hex[s], self.hex[t])
        return up >= v["lower-hull-height"] and not self.hull_down_state(s, t, angle) and up < r <= \
            v["lower-hull-range"] * up

    def _rising_exit(self, s: int, t: int) -> bool:
        """MBT 7.13.1: the overwatched target just left a Gully, Ford or Stream hex or crossed a Wall, and the
        shooter stands at the target's new height."""
        if not self._ow_active() or self.mv_u != t or len(self.mv_trail) < 2:
            return False
        g = self.game
        a, b = self.mv_trail[-2], self.mv_trail[-1]
        e = g.elev
        if e.get(self.hex[s], 0) != e.get(b, 0):
            return False
        from studio.model.maps import edge_key

        feat = g.features.get(edge_key(a, b))
        return g.map.terrain.get(a, "") in LOWER_HULL_TERRAIN or (feat is not None and feat.id in LOWER_HULL_HEXSIDES)

    # ---------------------------------------------------------------- MBT 7.21
    def track_stands(self, s: int, t: int, row) -> bool:
        """MBT 7.21: a Track hit stands when ``track-gpe-multiplier`` x the shooter's max GP Effectiveness of its
        GP weapon reaches the target's GP Defense; small arms or no GP weapon count as the tripled factor of
        ``track-no-gp-factor`` (option ``track-small-arms-factor``); ATGMs and hand-held AT weapons always stand."""
        d = self.ofire.d
        if not d.on["vtrack"] or s < 0:
            return True  # s < 0: no firing unit (an aircraft crash, MBT 6.7)
        card = d.cards[self.game.units[s].type.id]
        if row.kind == "ATGM" or row.weapon in card.hand_held:
            return True
        v = d.values
        if card.gpe_max > 0:
            factor = v["track-gpe-multiplier"] * card.gpe_max
        elif self.game.options["track-small-arms-factor"] == "tripled-is-one":
            factor = v["track-no-gp-factor"]
        else:
            factor = v["track-gpe-multiplier"] * v["track-no-gp-factor"]
        gpd = self.game.units[t].type.ag.gp_value
        if self.dice.record:
            self.narrate(f"variable track damage: {factor} vs GP Defense {gpd}: "
                         f"{'Track hit stands' if factor >= gpd else 'treated as a miss'}")
        return factor >= gpd

    # ---------------------------------------------------------------- MBT 7.23
    def collateral(self, t: int, loc: str) -> None:
        """MBT 7.23: a penetrating No Damage AP hit on an A- or P-Type rolls (10) on the hit location's list; each
        collateral effect applies once."""
        g = self.game
        d = self.ofire.d
        if not d.on["collateral"] or g.units[t].type.ag.target_type not in ("A", "P") or self.st[t] != ON:
            return
        if not any(k[0] == loc for k in d.collateral):
            return
        roll = self.dice.roll(10, f"Collateral damage {g.units[t].name} {loc}")
        effect = d.collateral.get((loc, roll))
        if effect is None or effect in self.ofire.collat[t]:
            if self.dice.record:
                self.narrate(f"{g.units[t].name} collateral damage ({loc}) roll {roll}: no effect")
            return
        self.ofire.collat[t] = self.ofire.collat[t] | {effect}
        if self.dice.record:
            self.narrate(f"{g.units[t].name} collateral damage ({loc}) roll {roll}: {effect}")
        if effect == "coax" and not d.cards[g.units[t].type.id].coax:
            self.suppress(t, "collateral damage (no coax MG)")
        elif effect == "turret-ring" and d.cards[g.units[t].type.id].tt == 0:
            self.suppress(t, "collateral damage (turretless)")

    def collateral_fire_mod(self, s: int, gp: bool) -> int:
        """MBT 7.23.1: damaged optics, -1 AP / -5 GP direct fire for the rest of the scenario."""
        if "optics" not in self.ofire.collat[s]:
            return 0
        return self.ofire.d.values["optics-gp" if gp else "optics-ap"]

    def effective_sight(self, s: int, row) -> str | None:
        """The sight a row fires with after collateral damage (MBT 7.23.1): with damaged optics an L, S, M or D
        primary sight gives way to the secondary (None: the weapon may not fire); a night-fight sight lost with
        the night equipment reads O."""
        sight = row.sight
        lost = self.ofire.collat[s]
        if "optics" in lost and sight in OPTICS:
            sight = self.ofire.d.cards[self.game.units[s].type.id].secondary.get(row.weapon)
            if sight is None:
                return None
        if "night-equipment" in lost and sight in NIGHT_SIGHTS:
            return "O"
        return sight

    def coax_lost(self, s: int) -> bool:
        """MBT 7.23.1: a damaged Coax MG loses the +10 coax modifier of GP direct fire and overrun."""
        return self.ofire is not None and "coax" in self.ofire.collat[s]

    def radio_damaged(self, i: int) -> bool:
        """MBT 7.23.5: a Damaged Radio Set (no spot hand-off, Command Range and Command Span 0, may not call
        indirect fire or observe for aircraft, the morale command bonus only in the command unit's hex). The
        command, spotting and indirect-fire areas read this flag."""
        return self.ofire is not None and "radio" in self.ofire.collat[i]

    def night_equipment_lost(self, i: int) -> bool:
        """MBT 7.23.1: night-fighting equipment (T, I2, IR, WP, P) out of action (for 7.36.4)."""
        return self.ofire is not None and "night-equipment" in self.ofire.collat[i]

    def running_gear_rate(self, i: int, rate: int) -> int:
        """MBT 7.23.3: running gear damage, ``running-gear-mf`` movement factors (at least ``running-gear-min``)."""
        if self.ofire is None or "running-gear" not in self.ofire.collat[i]:
            return rate
        v = self.ofire.d.values
        return max(v["running-gear-min"], rate + v["running-gear-mf"])

    def fuel_checks(self) -> None:
        """MBT 7.23.4: at the start of each Movement Phase every fuel-damaged vehicle rolls (10): out of fuel is a
        Track hit (with Bail Out), fire a Brew Up (with Bail Out and the suppression effects)."""
        g = self.game
        rec = self.ofire
        if rec.fuel_turn == self.turn:
            return
        rec.fuel_turn = self.turn
        for i in range(g.n):
            if self.st[i] != ON or "fuel" not in rec.collat[i]:
                continue
            roll = self.dice.roll(10, f"Fuel damage {g.units[i].name}")
            effect = rec.d.fuel.get(roll)
            if self.dice.record:
                self.narrate(f"{g.units[i].name} fuel damage roll {roll}: {effect or 'no effect'}")
            if effect == "out-of-fuel" and not self.track[i]:
                self.track_hit(i)
                self.bail_out(i, "TK")
            elif effect == "fire":
                self.apply_damage(i, "BU", "HS")

    # ---------------------------------------------------------------- MBT 7.47
    def installation_hit(self, s: int, t: int, row, x: int, s_eff: int) -> None:
        """MBT 7.47: a Suppressed result of non-small-arms GP fire with the combat result within
        ``installation-window`` of the S-Effect number damages the vehicle's radar, SAM or ATGM installation."""
        d = self.ofire.d
        card = d.cards[self.game.units[t].type.id]
        if not d.on["installation"] or row.small_arms or not card.installations or \
                not s_eff - d.values["installation-window"] < x <= s_eff:
            return
        new = card.installations - self.ofire.inst[t]
        if new:
            self.ofire.inst[t] = self.ofire.inst[t] | new
            if self.dice.record:
                self.narrate(f"{self.game.units[t].name}: {', '.join(sorted(new))} installation damaged "
                             f"(result {x} within {d.values['installation-window']} of {s_eff})")

    def installation_blocks(self, s: int, row) -> bool:
        """A damaged installation's weapons no longer fire (MBT 7.47): ATGM rows, SAM and radar-tracked weapons."""
        lost = self.ofire.inst[s]
        if not lost:
            return False
        card = self.ofire.d.cards[self.game.units[s].type.id]
        return ("atgm" in lost and row.kind == "ATGM") or ("sam" in lost and row.weapon in card.sam) or \
            ("radar" in lost and row.weapon in card.radar)

    # ---------------------------------------------------------------- MBT 7.17
    def attached_loss(self, t: int) -> None:
        """MBT 7.17: a full squad reduced by GP fire or hand-to-hand rolls (10) for each attached weapon: at or
        under ``attached-loss-max`` it is destroyed; with more than one, the first (chosen at random) rolls with
        ``attached-loss-first``."""
        g = self.game
        rec = self.ofire
        if not rec.d.on["attached"]:
            return
        weapons = [w for w in attached_weapons(g.units[t].type) if w not in rec.lostw[t]]
        if not weapons:
            return
        if len(weapons) > 1:
            k = self.dice.roll(len(weapons), f"Attached weapon chosen first {g.units[t].name}") - 1
            weapons = [weapons[k]] + weapons[:k] + weapons[k + 1:]
        v = rec.d.values
        for n, w in enumerate(weapons):
            roll = self.dice.roll(10, f"Attached weapon loss {g.units[t].name} {w}")
            mod = v["attached-loss-first"] if n == 0 and len(weapons) > 1 else 0
            lost = roll + mod <= v["attached-loss-max"]
            if lost:
                rec.lostw[t] = rec.lostw[t] | {w}
            if self.dice.record:
                self.narrate(f"{g.units[t].name} attached {w}: roll {roll}{mod:+d} vs {v['attached-loss-max']}: "
                             f"{'destroyed' if lost else 'kept'}")


def attached_weapons(ut) -> list[str]:
    """The weapon ids of the crew-served weapons attached to leg unit type ``ut`` (MBT 5.1.3: its card's, or the
    scenario's / position's ``attachments``), in the order of their rows, an attached flamethrower (no fire row,
    5.1.3.7) last."""
    out = list(dict.fromkeys(r.weapon for r in ut.ap if r.card))
    flame = getattr(ut.ag, "flamethrower", "")
    return out + [flame] if flame else out
