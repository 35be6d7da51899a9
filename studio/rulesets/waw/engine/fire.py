"""World at War ranged combat, Opportunity Fire, line of sight in play, results (WaW 6.1, 6.2, 7.0, 1.3.5 SWs,
1.3.8 snipers, Volley Fire).

A mixin of :class:`studio.rulesets.waw.engine.state.WawState` (the state record); methods read and write its
slots.
"""
from __future__ import annotations


from studio.hexgrid.coords import distance
from studio.rules.api import RulesError

from .actions import Action


class FireRules:
    __slots__ = ()

    def has_los(self, a: int, b: int) -> bool:
        ha, hb = self.hex[a], self.hex[b]
        if distance(ha, hb) <= 1:
            return True
        if self.smoke and not self.game.units[a].body.advanced_imaging and self._smoke_between(ha, hb):
            return False                       # 8.2: Smoke blocks into and through its hex and the six around
        g = self.game
        ua, ub = g.units[a], g.units[b]
        if ua.is_heli or ub.is_heli:
            heli, other = (a, b) if ua.is_heli else (b, a)
            hh, ho = self.hex[heli], self.hex[other]
            lo = g.level.get(ho, 0) if not g.units[other].is_heli else 1
            level = g.los.flight_level(hh) + (1 if (self.pending[0] == "popup" and self.pending[1] == heli) else 0)
            if not g.los.heli(hh, ho, lo, level):
                return False
            if level <= g.los.heli_levels[0] and lo == 1 and self.wrecks:   # the clear-terrain row
                from studio.hexgrid.lines import line_steps
                on_hill = sum(1 for st in line_steps(hh, ho)[1:-1] for h in st if h in self.wrecks
                              and g.level.get(h, 0))
                if on_hill > 1:
                    return False               # more than one Wreck marker on a hill between
            return True
        lv = g.level                           # neither is a helicopter: the hexes' own levels
        return g.los.clear(ha, hb, lv.get(ha, 0), lv.get(hb, 0), self.wrecks)   # 7.2 b: Wrecks

    def _smoky(self, a, b) -> bool:
        return any(distance(h, sm) <= 1 for st in self.game.los.steps(a, b)[1:] for h in st for sm in self.smoke)

    def _smoke_between(self, a, b) -> bool:
        for st in self.game.los.steps(a, b):
            for h in st:
                for sm in self.smoke:
                    if distance(h, sm) <= 1 and distance(a, sm) > 1:
                        return True
        return False

    def _volley_actions(self, fi: int) -> list[Action]:
        """Volley Fire: a leading unit and two supports of one formation at one target; one pair per leader."""
        g = self.game
        ready = [x for x in g.formations[fi].units if self._can_act(x) and not self.disr[x] and self.mp_used[x] == 0
                 and not g.units[x].is_heli]
        out = []
        need = g.tables.volley["support_units"]
        if len(ready) < need + 1:
            return out
        for t in self._targets(ready[0]):
            for lead in ready:
                fp = next((f for f in ("ap", "he") if self.fire_numbers(lead, t, f, "normal")), None)
                if fp is None:
                    continue
                sup = [x for x in ready if x != lead and self._in_reach(x, t)]
                if len(sup) >= need:
                    out.append(Action("volley", g.units[lead].uid, "+".join(g.units[x].uid for x in sup[:need]),
                                      g.units[t].uid))
        return out

    def _sniper_targets(self, k: int) -> list[int]:
        g = self.game
        h = self.snipers[k][0]
        side = g.roles.index(self.snipers[k][4])
        return [t for t in self._alive(1 - side) if self.carrier[t] < 0 and not self.disr[t]
                and (g.units[t].is_infantry or g.units[t].cls == "towed_gun")
                and distance(h, self.hex[t]) <= 6 and g.los.clear(h, self.hex[t], g.level.get(h, 0),
                                                                   self.level(t), self.wrecks)]

    def _snipe(self, k: int, t: int) -> None:
        """WaW 1.3.8: range counts the target hex; +1 city, -1 open; d6 >= it Disrupts; then the removal roll."""
        g = self.game
        sn = self.snipers[k]
        h = self.hex[t]
        d = distance(sn[0], h)
        code = g.terrain.get(h)
        d += g.const("sniper_range_city") if code in g.built_up else (
            g.const("sniper_range_open") if code in g.open_codes else 0)
        hit = self.dice.roll(6, "sniper") >= d and not self.disr[t]
        if hit:
            self._disrupt(t)
        sn[2] = 1                              # Ops Complete side
        r = self.dice.roll(6, "sniper-removal") - (0 if hit else 1) - (1 if sn[3] else 0)
        sn[3] += 1
        if r <= g.const("sniper_removal_roll"):
            sn[2] = 2                          # removed
        self.impulse_first = False

    def _in_reach(self, x: int, t: int) -> bool:
        v = self.values(x)
        d = distance(self.hex[x], self.hex[t])
        factor = 1 if v is None or v.range_underlined else self.game.const("extended_range_factor")
        return v is not None and bool(v.range) and d <= v.range * factor and \
            (d <= 1 or self.has_los(x, t))

    def _volley(self, lead: int, sups: list[int], t: int) -> None:
        g = self.game
        fp = next(f for f in ("ap", "he") if self.fire_numbers(lead, t, f, "normal"))
        fpv, hit = self.fire_numbers(lead, t, fp, "normal")
        side = g.units[lead].side
        lead_dice = 0
        for x in [lead] + sups:
            q = self._hq_in(self.hex[x], side)
            if q >= 0:
                lead_dice += self._leadership(q)
        vf = g.tables.volley                       # Volley Fire: +1d6 per support, Leadership at most 2 in total
        hits = self.attack_roll(fpv + vf["dice_per_support"] * len(sups) + min(vf["leadership_cap"], lead_dice), hit)
        self.resolve_hits(t, hits, fp, lead)
        for x in [lead] + sups:
            self.ops_complete[x] = True
            self.acted[x] = True
        self.hand.discard(("volley", side))
        self.impulse_first = False

    def _can_opfire(self, u: int) -> bool:
        g = self.game
        return (self.strength[u] < 2 and self.hex[u] is not None and not self.ops_complete[u] and not self.disr[u]
                and not g.units[u].is_hq and self.carrier[u] < 0 and not self.breakdown[u])

    def _opfire_shots(self, mover: int, first: bool = False) -> list[tuple[int, list[str]]]:
        """(enemy, fire types) of every enemy of ``mover`` that may make Opportunity Fire at it now (6.2), in
        unit order (``first``: stop at the first); enemies beyond their reach are skipped before anything else."""
        hx, reach, done = self.hex, self.game.reach, self.ops_complete
        hm = hx[mover]
        out = []
        for e in self._alive(1 - self.game.units[mover].side):
            if not done[e] and distance(hx[e], hm) <= reach[e] and self._can_opfire(e):   # Ops Complete first
                fps = self._fire_types(e, mover, "opfire")
                if fps:
                    out.append((e, fps))
                    if first:
                        break
        return out

    def _within_reach(self, u: int, targets: list[int]) -> list[int]:
        """The ``targets`` within ``u``'s longest reach (``game.reach``: 6.1.1, 9.3) of its hex."""
        hx = self.hex
        hu, r = hx[u], self.game.reach[u]
        return [t for t in targets if distance(hu, hx[t]) <= r]

    def _fire_types(self, u: int, t: int, mode: str) -> list[str]:
        """The fire types (``ap``, ``he``, ``aa``) ``u`` may fire at ``t`` now: ``fire_numbers`` of each, with the
        line of sight (7.0) checked once for the pair."""
        d = distance(self.hex[u], self.hex[t])
        if d > self.game.reach[u]:
            return []
        v = self.values(u)
        if not self._may_fire(u, d, v, mode, False):
            return []
        found = self._fire_found(u, t, v, mode, d)
        if not found or (d > 1 and not self.has_los(u, t)):
            return []
        if not self.smoke:
            return [fp for fp, _ in found]
        return [fp for fp, nums in found if self._through_smoke(u, t, d, nums) is not None]

    def fire_numbers(self, u: int, t: int, fp: str, mode: str, shooter=None) -> tuple[int, int] | None:
        """(Firepower, Hit Number) of ``u`` firing ``fp`` at ``t``, or None when illegal (WaW 6.1, 9.3).

        ``mode``: ``normal``, ``moving`` (Moving Fire, 6.1.3) or ``opfire`` (6.2); ``shooter``: the values of an
        SW firing with its platoon (1.3.5) instead of the unit's own."""
        v = shooter if shooter is not None else self.values(u)
        d = distance(self.hex[u], self.hex[t])
        sw = shooter is not None
        if not self._may_fire(u, d, v, mode, sw):
            return None
        if sw:
            nums = self._fire_base(u, t, v, fp, mode, d, sw)
        else:
            nums = None
            for f, found in self._fire_found(u, t, v, mode, d):
                if f == fp:
                    nums = found
                    break
        if nums is None or (d > 1 and not self.has_los(u, t)):
            return None
        if self.smoke:
            return self._through_smoke(u, t, d, nums)
        return nums[0], max(nums[1], 1)

    def _fire_found(self, u: int, t: int, v, mode: str, d: int) -> tuple:
        """``(fp, _fire_base(...))`` of every fire type of ``u``'s values ``v`` legal at ``t`` before line of sight
        and Smoke, in the order ap, he, aa (the unit's own values, not an SW's). Compiled per game
        (``game.fire_memo``) for everything ``_fire_base`` reads: the firer and its values, the target class and
        whether it hovers, mode, distance, Depleted Ammo, Thor's Hammer, MP past half (Moving Fire), the
        helicopter's moves past the limit. A test that edits a counter's values in place clears the memo."""
        g = self.game
        tc = g.tclass[t][min(self.strength[t], 1)]
        key = (u, id(v), mode, d, tc, tc == "helicopter" and self.hover[t], self.depleted[u], not self.thor,
               mode == "moving" and self.mp_used[u] > self._half(u),
               g.units[u].is_heli and self.heli_moves[u] > g.const("helicopter_fire_move_limit"))
        hit = g.fire_memo.get(key)
        if hit is None or hit[0] is not v:
            found = []
            for fp, fpv in (("ap", v.ap_fp), ("he", v.he_fp), ("aa", v.aa_fp)):
                if fpv:
                    nums = self._fire_base(u, t, v, fp, mode, d, False)
                    if nums is not None:
                        found.append((fp, nums))
            hit = g.fire_memo[key] = (v, tuple(found))
        return hit[1]

    def _fire_base(self, u: int, t: int, v, fp: str, mode: str, d: int, sw: bool) -> tuple[int, int, int] | None:
        """(Firepower, Hit Number, effective range) of ``fp`` before line of sight and Smoke: Targeting Table
        (6.1), range (6.1.1, 6.1.2, 9.3), Moving Fire (6.1.3), the helicopter 12-hex limit (6.1.3.1), the Hit
        Number cap; None when illegal."""
        g = self.game
        fpv = v.ap_fp if fp == "ap" else v.he_fp if fp == "he" else v.aa_fp
        hit = getattr(v.to_hit, fp)
        tc = g.tclass[t][min(self.strength[t], 1)]
        if not fpv or hit is None or not self._may_target(u, v, tc, fp, sw):
            return None
        ranged = self._range_hit(u, t, v, tc, fp, d)
        if ranged is None:
            return None
        hit += ranged[0]
        if mode == "moving":
            mods = self._moving_fire_mods(u, v, fp)
            if mods is None:
                return None
            fpv, hit = fpv + mods[0], hit + mods[1]
        if g.units[u].is_heli and self.heli_moves[u] > g.const("helicopter_fire_move_limit"):
            return None                        # 6.1.3.1, 9.2: moved more than 12 hexes (option c41: per turn)
        fpv, hit = _capped(fpv, hit)
        if fpv <= 0:
            return None
        return fpv, hit, ranged[1]

    def _through_smoke(self, u: int, t: int, d: int, nums: tuple[int, int, int]) -> tuple[int, int] | None:
        """(Firepower, Hit Number) after Smoke on the line (8.2; c07, C39: once in total), or None."""
        fpv, hit, rng = nums
        if self._smoky(self.hex[u], self.hex[t]):
            g = self.game
            step = g.tables.mf_effects["advanced_imaging"][1]
            fpv, hit = _capped(fpv, hit + (-step if g.option("c07_smoke_imaging") == "minus_one" else step))
            if d > rng or fpv <= 0:
                return None                    # Advanced Imaging: no extended range through Smoke
        return fpv, max(hit, 1)

    def _may_fire(self, u: int, d: int, v, mode: str, sw: bool) -> bool:
        """Values on the counter, a distinct hex within the unit's reach, not Disrupted (6.1.7) or broken down
        (Chaos 8) unless firing Opportunity Fire."""
        if v is None or d == 0 or (d > self.game.reach[u] and not sw):
            return False
        return mode == "opfire" or not (self.disr[u] or self.breakdown[u])

    def _may_target(self, u: int, v, tc: str, fp: str, sw: bool) -> bool:
        """Targeting Table (6.1): may ``fp`` fire of ``u`` attack a target of class ``tc``; 6.1.4 Depleted Ammo
        (option c54); 9.2 helicopter HE (option c25)."""
        g = self.game
        allowed = g.tables.targeting
        spec = g.units[u]
        if fp == "aa":
            return tc in allowed["aa"]
        if fp == "ap":
            missile = v.range_underlined if g.option("c54_underline_uses") != "underlined_ap" else v.ap_fp_underlined
            return tc in allowed["ap"] and not (self.depleted[u] and missile and not sw)
        if spec.is_heli:                       # 9.2: helicopter HE as vehicle HE, not at helicopters; c25: vs armor
            return (tc in allowed["vehicle_he"] and tc != "helicopter") or (
                tc == "afv" and bool(g.option("c25_heli_he_armor")))
        return tc in allowed["vehicle_he" if spec.is_vehicle else "infantry_he"]

    def _range_hit(self, u: int, t: int, v, tc: str, fp: str, d: int) -> tuple[int, int] | None:
        """(Hit Number modifier, effective range) at distance ``d``, or None when out of range: 6.1.1 extended,
        6.1.2 reduced, 8.7 on-map artillery, Chaos 14 Thor's Hammer, 9.3 helicopters (half range, options c08,
        c49, c50)."""
        g = self.game
        rng = v.range or 0
        ext = red = not v.range_underlined
        if g.units[u].cls == "on_map_artillery":
            ext = False                        # 8.7: beyond the fixed range only as an 8.1 mission (indirect)
        if self.thor:
            rng, ext, red = min(rng, g.const("thor_max_range")), False, False
        if tc == "helicopter" and fp != "aa":
            if g.option("c08_flying_heli_underline") == "firepower":
                barred = v.ap_fp_underlined if fp == "ap" else v.he_fp_underlined
            else:
                barred = v.range_underlined
            if barred and not self.hover[t] and not (d <= 1 and g.option("c50_adjacent_flying") == "adjacent_wins"):
                return None                    # 9.3: guided missiles cannot attack a Flying helicopter (c08, c50)
            rng = self._half_range(rng)
            return (0, rng) if d <= max(rng, 1) else None
        if d > rng:
            if d > 1 and (not ext or d > g.const("extended_range_factor") * rng):
                return None
            return (g.const("extended_range_hit_mod") if d > 1 else 0), rng   # 6.1.1 extended range
        if red and d <= self._half_range(rng):
            return g.const("reduced_range_hit_mod"), rng                      # 6.1.2 reduced range
        return 0, rng

    def _moving_fire_mods(self, u: int, v, fp: str) -> tuple[int, int] | None:
        """(Firepower, Hit Number) modifiers of Moving Fire (6.1.3, Moving Fire Table), or None when not allowed:
        underlined Firepower, the counter's level and qualifier, at most half the MP spent."""
        g = self.game
        body = g.units[u].body
        underlined = v.ap_fp_underlined if fp == "ap" else v.he_fp_underlined if fp == "he" else False
        if body.moving_fire_qualifier == "he_only" and fp != "he":
            return None
        if body.moving_fire == "none" or not underlined or self.mp_used[u] > self._half(u):
            return None
        return g.tables.mf_effects[body.moving_fire]   # Moving Fire Table effects row

    def _may_moving_fire(self, u: int) -> bool:
        """Could any fire type of ``u`` qualify for Moving Fire now (``_moving_fire_mods`` not None for AP or HE;
        AA never does): a Moving Fire rating, at most half the MP spent, an underlined Firepower (6.1.3)."""
        v = self.values(u)
        if v is None:
            return False
        body = self.game.units[u].body
        if body.moving_fire == "none" or self.mp_used[u] > self._half(u):
            return False
        return bool(v.he_fp_underlined if body.moving_fire_qualifier == "he_only" else
                    v.ap_fp_underlined or v.he_fp_underlined)

    def _half_range(self, rng: int) -> int:
        """Half range (6.1.2, 9.3), rounded per option c49."""
        return -(-rng // 2) if self.game.option("c49_half_range") == "ceil" else rng // 2

    # ------------------------------------------------------------------ ranged combat (6.1)
    def _lead_dice(self, u: int) -> int:
        q = self._hq_in(self.hex[u], self.game.units[u].side)
        if q < 0 or q in self.lead_used:
            return 0
        self.lead_used.add(q)
        return min(self._leadership(q), self._lead_cap())

    def _lead_cap(self) -> int:
        """1.3.6: leadership dice added to one roll total at most ``leader_dice_cap`` (option c37: or no cap)."""
        g = self.game
        return g.const("leader_dice_cap") if g.option("c37_leadership_cap") != "uncapped" else 99

    def _fire(self, u: int, t: int, fp: str, mode: str) -> None:
        """Resolve ``u``'s ``fp`` attack on ``t`` (6.1): dice with Leadership and Fortune, Hallowed Ground
        re-roll, Depleted Ammo (6.1.4), results, then the platoon's SW (1.3.5); the firer is Ops Complete."""
        g = self.game
        nums = self.fire_numbers(u, t, fp, mode)
        if nums is None:
            raise RulesError(f"{g.units[u].uid} cannot fire {fp} at {g.units[t].uid}", "WaW 6.1")
        fpv, hit = nums
        v = self.values(u)
        aug = (v.ap_fp_augmented if fp == "ap" else v.he_fp_augmented if fp == "he" else False)
        hallowed = bool(self.hallowed) and ("G", self.hex[u], g.units[u].nation) in self.hallowed
        say = self.dice.record
        dice = fpv + self._fire_bonus_dice(u)
        label = f"attack {fp.upper()} {g.units[u].uid}>{g.units[t].uid}" if say else "attack"
        hits = self.attack_roll(dice, hit, aug, reroll=hallowed, label=label)
        if hits == 0 and v.range_underlined and not g.units[u].body.mortar:
            self.depleted[u] = g.const("depleted_turns")   # 6.1.4 Depleted Ammo
        if say:
            self.events.append(
                f"{self._who(u)} fires {fp.upper()} at {self._who(t)}, range {distance(self.hex[u], self.hex[t])}"
                f" ({mode}): {dice} dice hit on {hit}+: {hits} Hit(s)"
                + ("; Depleted Ammo" if self.depleted[u] == g.const("depleted_turns") and not hits else ""))
        self.resolve_hits(t, hits, fp, u)
        self._sw_fire(u, t, mode)
        self.ops_complete[u] = True
        if mode == "moving":
            self.mfired[u] = True

    def _fire_bonus_dice(self, u: int) -> int:
        """Extra dice: an HQ's and the attached Leader's Leadership (1.3.3.2, 1.3.6; capped, option c37), then
        the Alliance's Fortune die (Chaos 17)."""
        g = self.game
        lead = self._lead_dice(u)
        leader = g.leader_of.get(u) or self.xleaders.get(u)
        if leader is not None and ("L", u) not in self.hallowed and leader.full is not None:
            lead += leader.full.leadership or 0    # 1.3.6: Leader modifier (declared: Firepower)
        lead = min(lead, self._lead_cap())
        side = g.units[u].side
        if ("fortune", side) in self.hand:
            self.hand.discard(("fortune", side))
            lead += g.const("fortune_dice")    # Chaos 17: the Fortune die added to this roll
        return lead

    def _sw_fire(self, u: int, t: int, mode: str) -> None:
        """1.3.5: the platoon's SW fires with it (in Opportunity and Moving Fire per option c48) as a separate
        attack, and is placed on the map when first fired."""
        g = self.game
        sw = g.sw_of.get(u)
        if sw is None or u in self.sw_lost or self.strength[t] >= 2 or not (
                mode == "normal" or g.option("c48_sw_opfire")):
            return
        swv = g.sw_cards[sw].full
        for sfp in ("ap", "he"):
            nums = self.fire_numbers(u, t, sfp, "normal", shooter=swv)
            if nums is not None:
                self.sw_placed.add(u)
                self.resolve_hits(t, self.attack_roll(*nums, False), sfp, u)
                break

    def attack_roll(self, fp: int, hit: int, augmented: bool = False, reroll: bool = False,
                    label: str = "attack") -> int:
        """Roll ``fp`` d6 (+1 when augmented, keeping at most ``fp`` Hits; WaW 6.3.2): Hits on >= ``hit``.

        ``reroll``: Hallowed Ground (1.3.6.1, digest C63) re-rolls one failed die; ``label``: the rolls' label
        (``attack ...``, naming the attack while the dice record)."""
        dice = self.dice.pool(fp + (1 if augmented else 0), 6, label)
        if reroll:
            for k, d in enumerate(dice):
                if d < hit:
                    dice[k] = self.dice.roll(6, "hallowed")
                    break
        hits = sum(1 for d in dice if d >= hit)
        return min(hits, fp)

    def concealed(self, t: int) -> bool:
        """WaW 6.1.5 (digest C21: all conditions)."""
        g = self.game
        h = self.hex[t]
        row = g.tec_row(h)
        c = row["concealment"]
        spec = g.units[t]
        if spec.is_heli or c == "none" or (c == "infantry" and spec.target_class(self.strength[t]) != "soft"):
            return False
        if self.ops_complete[t] or (self.pending[0] == "opfire" and self.pending[1] == t):
            return False
        for e in self._alive(1 - spec.side):
            es = g.units[e]
            if es.is_hq or self.disr[e] or self.carrier[e] >= 0:
                continue
            if distance(self.hex[e], h) <= 1:
                return False
            if es.body.recon and self.has_los(e, t):
                return False
        return True

    def defense_dice(self, t: int) -> tuple[int, int]:
        """(dice, save number) of the target's defence roll (WaW 6.1, 6.1.5, 6.1.6; 9.3; digest C5, C38)."""
        g = self.game
        spec = g.units[t]
        tc = spec.target_class(self.strength[t])
        v = self.values(t)
        if tc == "helicopter":
            return (v.armor or 0), (v.save or 7)
        row = g.tec_row(self.hex[t])
        if tc == "afv" or (tc == "thin" and g.option("c05_thin_skinned_saves") == "armor" and v.armor):
            tdb = (row["db_vehicle"] or 0) + (1 if self.concealed(t) else 0)
            bonus = self._leader_bonus(t) if (g.leader_of or self.xleaders) else 0
            return ((v.armor or 0) + min(tdb, g.const("armored_db_cap")),   # 6.1.6
                    max(2, (v.save or 7) - bonus))                           # 1.3.6: Leader lowers Save
        if tc == "unarmored" and row["code"] in g.woods_codes and g.option("c03_leopard_example") == "as_printed_3d6":
            return 3, g.const("soft_save")     # the 6.1 example's '3d6' read as printed (digest C3)
        db = row["db_infantry"] if tc == "soft" else row["db_vehicle"]
        return (db or 0) + (1 if self.concealed(t) else 0), g.const("soft_save")

    def resolve_hits(self, t: int, hits: int, fp: str, firer: int, apply: bool = True) -> int:
        """Saves, then results; returns the net Hits applied (only computed when ``apply`` is false)."""
        if hits <= 0 or self.strength[t] >= 2:
            return 0
        g = self.game
        h = self.hex[t]
        if h in self.ip:
            hits -= 1                          # 12.1: Improved Positions negate the first Hit
        if self._hero_shield(t):
            hits -= 1                          # 1.3.7: a Hero ignores the first Hit of each attack (option c64)
        if hits <= 0:
            return 0
        n, save = self.defense_dice(t)
        say = self.dice.record
        label = f"save {g.units[t].uid}" if say else "save"
        saved = sum(1 for d in self.dice.pool(n, 6, label) if d >= save) if n else 0
        net = max(0, hits - saved)
        if not apply:
            return net
        ap_armored = fp == "ap" and g.units[firer].is_vehicle
        before = self._snap([t])
        destroyed = self.apply_hits(t, net, ap_armored)
        if say:
            self.events.append(f"{self._who(t)} saves {saved} of {hits} Hit(s) ({n} dice on {save}+): "
                               f"{self._effect(t, before[0])}")
        self._hq_check(h, g.units[t].side, self._hq_trigger(net > 0, [t], before), destroyed)
        return net

    def _who(self, i: int) -> str:
        """A unit as the narration names it: id and card name."""
        spec = self.game.units[i]
        return f"{spec.uid} {spec.name}"

    def _effect(self, t: int, before: tuple) -> str:
        """What the Hits did to ``t`` since ``before`` (its (Disrupted, strength) then), for the narration."""
        disr, strength = before
        if self.strength[t] >= 2:
            return "destroyed"
        if self.strength[t] > strength:
            return "Reduced" + (" and Disrupted" if self.disr[t] and not disr else "")
        return "Disrupted" if self.disr[t] and not disr else "no effect"

    def _snap(self, units) -> tuple:
        return tuple((self.disr[i], self.strength[i]) for i in units)

    def _hq_trigger(self, hit: bool, units, before: tuple) -> bool:
        """1.3.3.2 (option c31): any net Hit, or only when a unit was actually Disrupted, Reduced or destroyed."""
        if self.game.option("c31_hq_trigger") == "disrupt_or_reduce":
            return hit and self._snap(units) != before
        return hit

    def apply_hits(self, t: int, n: int, ap_armored: bool = False) -> bool:
        """WaW 6.1.7 one Hit at a time; True when the unit is destroyed."""
        g = self.game
        spec = g.units[t]
        tc = spec.target_class(self.strength[t])
        for _ in range(n):
            if self.strength[t] >= 2:
                break
            if self.berserk.get(t) == 1:
                self.berserk[t] = 2            # Chaos 6: the first Hit flips Berserk to Insane
                continue
            if self.berserk.get(t) == 2:
                if self.strength[t] == 0 and spec.body.reduced is not None:
                    self._reduce(t)
                else:
                    self._destroy(t)
                continue
            if spec.body.single_strength or spec.is_heli:
                if not self.disr[t]:
                    self._disrupt(t)
                else:
                    self._destroy(t)
            elif tc == "unarmored" and ap_armored and g.option("c04_unarmored_ap_hit") == "reduce_and_disrupt":
                if self.strength[t] == 0:
                    self._disrupt(t)
                    self._reduce(t)
                else:
                    self._destroy(t)
            elif not self.disr[t]:
                self._disrupt(t)
            elif self.strength[t] == 0 and spec.body.reduced is not None:
                self._reduce(t)
            else:
                self._destroy(t)
        return self.strength[t] >= 2

    def _disrupt(self, t: int) -> None:
        if self.game.units[t].is_hq:
            return
        self.disr[t] = True
        for p in self._passengers(t):
            self.disr[p] = True                # 5.2.4

    def _reduce(self, t: int) -> None:
        self.strength[t] = 1
        self._casualty(t, False)
        for p in self._passengers(t):
            if self.dice.roll(6, "passengers") % 2 == 0:
                self.apply_hits(p, 1)          # 5.2.4 (digest C68: one step)

    def _destroy(self, t: int) -> None:
        g = self.game
        spec = g.units[t]
        h = self.hex[t]
        self._casualty(t, True)
        self.strength[t] = 2
        self.lost[spec.side] += 0 if spec.is_hq else 1
        if not spec.is_hq:
            self._sw_loss(t)
        if (spec.is_vehicle or spec.is_heli or spec.is_hq) and h is not None:
            self.wrecks.add(h)                 # 1.3.4.2, 6.1.7, 9.3: one Wreck per hex
        for p in self._passengers(t):
            self.carrier[p] = -1
            if self.dice.roll(6, "passengers") % 2 == 0:
                self.strength[p] = 2
                self.lost[spec.side] += 1
            else:
                self.disr[p] = True
                if self.strength[p] == 0:
                    self.strength[p] = 1
                else:
                    self.strength[p] = 2
                    self.lost[spec.side] += 1
        self.hex[t] = None

    def _sw_loss(self, t: int) -> None:
        """1.3.5: a platoon destroyed while the side has unplaced SWs: d6 - (infantry platoons lost - 1) <= 1."""
        g = self.game
        spec = g.units[t]
        if spec.is_infantry:
            self.inf_lost[spec.side] += 1
        elif g.option("c62_sw_loss_trigger") == "infantry_only":
            return                             # option c62: only infantry platoons trigger the roll
        unplaced = [h for h in sorted(g.sw_of) if g.units[h].side == spec.side and h not in self.sw_placed
                    and h not in self.sw_lost and h != t and self.strength[h] < 2]
        if not unplaced:
            return
        mod = max(0, self.inf_lost[spec.side] - 1)
        if self.dice.roll(6, "sw-loss") - mod <= 1:
            self.sw_lost.add(unplaced[0])      # the enemy picks which (automated: the first)

    def _after_opfire(self, ret: int) -> None:
        """Back to the impulse of formation ``ret`` after an Opportunity Fire window, or on with the Chaos 3
        move (``ret`` = -1)."""
        if ret >= 0:
            self.pending = ("ops", ret)
        else:
            self.pending = ("none",)
            self._misc_step()


def _capped(fpv: int, hit: int) -> tuple[int, int]:
    """6.1.3, 6.1.7: a Hit Number above 6 is set to 6 and the excess taken from the Firepower."""
    if hit > 6:
        return fpv - (hit - 6), 6
    return fpv, hit
