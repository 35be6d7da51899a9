"""Leg units (MBT 5.1, 6.6.4): squads, half-squads and sections with their intrinsic and attached crew-served
weapons; leg movement (no road rate, no turn cost, free facing), spotting by size (S/L columns, 6.1.3), GP
Defense by cover (6.5.4.2.2) and the leg results of GP fire (6.5.4.4.3: Suppressed; Effective reduces a squad to
its half-squad, Suppressed, and eliminates anything else, leaving no wreck). AP fire is never at leg units
(6.5.2). A reduced squad fires its half-squad card's intrinsic weapons (rows marked ``half``); attached weapons
are unaffected (6.5.4.4.3)."""
from __future__ import annotations

import dataclasses

from .actions import Action
from .codes import DEAD, MFIRE, MFIRE_SA, MMOVE, MOVE, ON, SH
from .data import DataError, TableReader, UnitType

MOVE_PENALTY = 2  # moving leg/towed units: GP Defense -2 (MBT 6.5.4.2.2)
GPD_RANGE = (1, 10)


def leg_gp_cover_table(game) -> dict:
    """Table ``leg-gp-cover`` (MBT 6.5.4.2.2), read once per game: ``{(terrain code, construction or 'any'):
    cover}``."""
    cached = game.__dict__.get("_leg_gp_cover")
    if cached is None:
        rd = TableReader(game.ruleset)
        tid = "leg-gp-cover"
        rows = rd.rows(tid)
        cached = game.__dict__["_leg_gp_cover"] = {
            (rd.cell(tid, rows, r, "terrain", "str"), rd.cell(tid, rows, r, "construction", "str")):
            rd.cell(tid, rows, r, "cover", "str") for r in range(len(rows))}
    return cached


def leg_type(card, index, attached_ids: list[str] | None = None) -> UnitType:
    """The engine record of a leg card (MBT 5.1): traction L, cross-country rate for every rate (no path/road
    rates, 6.6.4), no armor, the intrinsic GP rows and the rows of attached crew-served weapons; a squad with a
    half-squad card carries the half-squad's intrinsic rows marked ``half``. ``attached_ids`` (the scenario's
    ``attachments`` for the unit's slot, MBT 5.1.3) replaces the card's ``attached_weapons``."""
    from .ag_data import AgDefense, ag_rows

    b = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
    ids = b.get("attached_weapons", []) if attached_ids is None else attached_ids
    attached = [_crew_weapon(index, cid, card.id) for cid in ids]
    mv = (b.get("movement_with_weapons") if attached else None) or b["movement"]
    mc = _motorcycle_movement(card, b)
    rows = [dataclasses.replace(r, half=False) for r in ag_rows({"weapons": b.get("weapons", [])})]
    for cid, w in zip(ids, attached):  # attached weapons: ``half`` None (both sizes, 6.5.4.4.3), their card
        rows += [dataclasses.replace(r, card=cid) for r in ag_rows({"weapons": [w]})]
    # MBT 5.1.3.7: a flamethrower has no fire row; it is a Close Assault / Hand-to-Hand modifier (flame.py)
    flame = next((w["id"] for w in attached if w.get("weapon_type") == "flamethrower"), "")
    half = b.get("half_squad")
    if half:
        model = index.model("unit", half)
        if model is None:
            raise DataError(f"leg card '{card.id}': half-squad card '{half}' is missing")
        hb = model.body.model_dump() if hasattr(model.body, "model_dump") else model.body
        rows += [dataclasses.replace(r, half=True, key=r.key.replace(":", "-h:", 1))
                 for r in ag_rows({"weapons": hb.get("weapons", [])})]
    gpd = b["gp_defense"]
    ag = AgDefense(0, "S", None, None, {}, "recon" in (b.get("labels") or ()), False, leg=True,
                   size=b.get("size", "S"), gpd_cover={k: int(gpd[k]) for k in ("none", "light", "medium", "heavy")},
                   squad=b.get("leg_size") == "squad" and bool(half),
                   passenger_leg=int((b.get("passenger_capacity") or {}).get("leg", 1)),
                   labels=tuple(b.get("labels") or ()), leg_size=b.get("leg_size", "section"), flamethrower=flame)
    combat = bool(b.get("is_combat_unit", True))
    if mc is not None:  # MBT 6.6.4.4: the W factors, moving as a wheeled vehicle
        return UnitType(card.id, card.name, "w", int(mc["cross_country"]), int(mc["path"]), int(mc["road"]), 0, 0, 0,
                        0, combat, True, tuple(rows), ag)
    cc = int(mv["cross_country"])
    return UnitType(card.id, card.name, "l", cc, cc, cc, 0, 0, 0, 0, combat, True, tuple(rows), ag)


def _motorcycle_movement(card, b: dict) -> dict | None:
    """The W=Wheeled Movement Factors of a motorcycle leg card (MBT 6.6.4.4), None for units on foot."""
    if not b.get("motorcycle"):
        return None
    mc = b.get("motorcycle_movement")
    if not mc or str(mc.get("traction", "W")).upper() != "W":
        raise DataError(f"leg card '{card.id}': a motorcycle unit needs its W=Wheeled Movement Factors "
                        "(motorcycle_movement, MBT 6.6.4.4)")
    return mc


def _crew_weapon(index, cid: str, owner: str) -> dict:
    model = index.model("unit", cid)
    if model is None:
        raise DataError(f"leg card '{owner}': attached weapon card '{cid}' is missing")
    body = model.body.model_dump() if hasattr(model.body, "model_dump") else model.body
    if "weapon" not in body:
        raise DataError(f"leg card '{owner}': attached weapon '{cid}' is not a crew-served weapon card")
    return body["weapon"]


class LegRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.qm = -1  # the leg unit quickmarching in this move (MBT 6.6.4.2), -1 none

    def _copy(self, dice):
        o = super()._copy(dice)
        o.qm = self.qm
        return o

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}|qm{self.qm}"

    def is_leg(self, i: int) -> bool:
        return self.game.units[i].type.ag.leg

    def is_motorcycle(self, i: int) -> bool:
        """A motorcycle (M/C) leg unit: it moves as a wheeled vehicle by its card's W factors (MBT 6.6.4.4)."""
        ut = self.game.units[i].type
        return ut.ag.leg and ut.traction == "w"

    def weapon_ok(self, s: int, t: int, row) -> bool:
        """Range and field of fire (MBT 4.4.3.1), and: AP/ATGM only at vehicles (6.5.2); a squad fires its own
        or its half-squad's weapons by its size; suppressed leg units only into their front 60 degrees (5.1)."""
        if row.kind != "GP" and self.game.units[t].type.ag.leg:
            return False
        if row.half is not None and row.half != self.red[s]:
            return False
        if not super().weapon_ok(s, t, row):
            return False
        return not (self.sup[s] and self.is_leg(s) and not self.in_field(s, t, 60, False))

    def leg_gp_cover(self, h) -> str:
        """The cover of hex ``h`` for a leg or towed unit's GP Defense (MBT 6.5.4.2.2, table ``leg-gp-cover``):
        Brush and Crops none, a Wood / Brick building Light / Medium (by its construction); other terrain its
        combat cover (none in an over-stacked hex)."""
        from .adv_move_data import adv_move

        g = self.game
        cover = self.cover_of(h)
        if cover == "none":
            return cover
        table = leg_gp_cover_table(g)
        code = g.map.terrain.get(h, "")
        kind = adv_move(g).construction.get(h, "any") if h in g.building_hexes else "any"
        return table.get((code, kind), table.get((code, "any"), cover))

    def leg_gp_defense(self, t: int) -> int:
        """GP Defense of a leg unit (MBT 6.5.4.2.2): by the cover of its hex (``leg_gp_cover``), -2 when moving (a revealed Move or
        Short Halt command), within 1..10."""
        ag = self.game.units[t].type.ag
        d = ag.gpd_cover.get(self.leg_gp_cover(self.hex[t]), ag.gpd_cover["none"])
        if self.cmd[t] in (MOVE, SH) and self.rev[t]:
            d -= MOVE_PENALTY
        return max(GPD_RANGE[0], min(GPD_RANGE[1], d))

    def apply_leg_result(self, t: int, effect: str) -> str:
        """GP effect on a leg unit (MBT 6.5.4.4.3); returns the result's name."""
        if effect == "N":
            return "no effect"
        if effect == "S":
            self.suppress(t, "GP fire")
            return "Suppressed"
        ag = self.game.units[t].type.ag
        if ag.squad and not self.red[t]:
            self.red[t] = True
            self.suppress(t, "reduced to a half-squad")
            return "reduced to a half-squad and Suppressed"
        self._eliminate(t, brew=False)
        return "eliminated"

    def _eliminate(self, t: int, brew: bool) -> None:
        """Leg units leave no wreck (MBT 6.5.4.4.3)."""
        if not self.is_leg(t):
            super()._eliminate(t, brew)
            return
        self.st[t] = DEAD
        self.lost[self.game.units[t].side] += 1

    def _turn_price(self, i: int) -> int | None:
        """Leg units pay no turn cost (MBT 6.6.4); motorcycle units do, as wheeled vehicles (6.6.4.4)."""
        return 0 if self.is_leg(i) and not self.is_motorcycle(i) else super()._turn_price(i)

    def _road_ok(self, i: int) -> bool:
        """Leg units have no path/road rate (MBT 6.6.4); motorcycle units have their W rates (6.6.4.4)."""
        return False if self.is_leg(i) and not self.is_motorcycle(i) else super()._road_ok(i)

    # ---------------------------------------------------------------- quickmarch (MBT 6.6.4.2)
    def quickmarch_ok(self, i: int) -> bool:
        """May leg unit ``i`` start a quickmarch now (MBT 6.6.4.2): dismounted, not Suppressed, a Move command,
        nothing moved yet, and a quickmarch factor (a section with attached weapons has 0, 6.6.4.1)?"""
        from .opt_move_data import card_move

        if not self.is_leg(i) or self.is_motorcycle(i):  # MBT 6.6.4.4: motorcycles move by their W factors
            return False
        return (self.st[i] == ON and not self.sup[i] and self.cmd[i] == MOVE and
                self.mv_steps == 0 and not self.mv_spent and self.qm != i and card_move(self.game, i).quickmarch > 0)

    def move_options(self, i: int) -> list[Action]:
        out = super().move_options(i)
        if self.is_leg(i) and self.quickmarch_ok(i):
            out.append(Action(("quickmarch", self.game.units[i].name)))
        return out

    def _apply_move(self, i: int, a) -> None:
        if a[0] == "quickmarch" and self.mv_u == i:
            self._begin_quickmarch(i)
            return
        super()._apply_move(i, a)

    def _begin_move(self, i: int) -> None:
        super()._begin_move(i)
        self.qm = -1

    def _begin_quickmarch(self, i: int) -> None:
        """The allowance is the quickmarch factor (MBT 6.6.4.2)."""
        from .opt_move_data import card_move

        self.qm = i
        self.mv_left = card_move(self.game, i).quickmarch
        self.narrate(f"{self.game.units[i].name} quickmarches ({self.mv_left})")

    def step_cost(self, i: int, a, b, reverse: bool = False) -> int | None:
        """A quickmarch crosses only the terrain of table quickmarch-terrain or road/path hexes, at most one
        Height per hex (MBT 6.6.4.2)."""
        c = super().step_cost(i, a, b, reverse)
        if c is None or self.qm != i:
            return c
        g = self.game
        from .opt_move_data import move_opt

        if g.map.terrain.get(b, "") not in move_opt(g).qm_terrain and b not in g.road_hexes:
            return None
        if abs(g.elev.get(b, 0) - g.elev.get(a, 0)) > 1:
            return None
        return c

    def _move_done(self, i: int, a) -> None:
        """After a quickmarch: roll (100) within the Unit Grade's range Suppresses the unit (MBT 6.6.4.2)."""
        super()._move_done(i, a)
        if self.qm == i:
            self.qm = -1
            self._quickmarch_roll(i)

    def _quickmarch_roll(self, i: int) -> None:
        from .opt_move_data import move_opt

        g = self.game
        if self.st[i] != ON:
            return
        top = move_opt(g).qm_supp[self.unit_grade(i)]
        roll = self.dice.roll(100, f"Quickmarch {g.units[i].name}")
        self.narrate(f"{g.units[i].name} quickmarch Suppression check: roll {roll} vs 01-{top}")
        if roll <= top:
            self.suppress(i, "quickmarch")

    def spot_range(self, t: int, df: bool = False) -> int:
        """Spotting range of ``t`` (MBT 4.1.3, 6.1.3): vehicles read column V, leg units their size column (S or
        L); a Small Arms Spot/Fire counter adds its own value."""
        g = self.game
        mark = self.mkdf[t] if df and g.options["spot-pending"] != "immediate" else self.mk[t]
        if not g.units[t].type.ag.leg and mark != MFIRE_SA:
            return super().spot_range(t, df)
        return self.ag_spot_range(t, mark, 0)

    def ag_spot_range(self, t: int, mark: int, extra: int) -> int:
        """The spotting range of ``t`` with Spot counter ``mark`` and ``extra`` (a spotter modifier) added to the
        net modifier, by the target's size column (MBT 6.1.3). A Brew-Up Wreck's light at night (7.27) is not
        applied here."""
        g = self.game
        tb = g.tables
        ag = g.units[t].type.ag
        cover = "heavy" if self.inb[t] >= 0 else self.cover_of(self.hex[t], spotting=True)  # INB (MBT 7.10)
        mod = tb.cover_spot.get(cover, 0) + self.light_modifier(t)
        mod += extra
        if self.fc[t]:
            from .opt_move_data import move_opt

            mod += move_opt(g).spot_fc["target-full-cover"]  # Full Cover: spotted 2 rows down (MBT 6.1.3.2)
        if mark == MMOVE:
            mod += tb.spot_mod["target-spot-move"]
        elif mark == MFIRE:
            mod += tb.spot_mod["target-spot-fire"]
        elif mark == MFIRE_SA:
            mod += g.ag.spot_mod["target-spot-fire-small-arms"]
        if not ag.leg:
            return g.spot_range_of(mod)
        lo, hi = tb.spot_clamp
        r = g.ag.spot_size[ag.size][max(lo, min(hi, mod))]
        return min(r, g.visibility) if g.visibility is not None else r
