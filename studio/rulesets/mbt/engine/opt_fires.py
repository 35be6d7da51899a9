"""Optional Rule 7.35, Fires (id ``fires``), and the On Fire terrain it makes (Advanced 6.1.4.3.5).

- Start (7.35.1): a building hex not on fire that had non-small-arms GP fire directed at a unit in it this turn
  (direct GP fire, helicopter rockets included; indirect GP fire in its SHEAF; fixed-wing bombs and rockets in
  their impact pattern, ``note_fire_pattern``) is checked once in the Adjustment Phase: roll (100) within the
  Building Effects range (table ``fire-start``) for its construction (scenario ``building_construction``, else the
  default of table ``building-cover``) and the largest GP Factor directed at it this turn starts a fire; small
  arms never start fires. Fixed-wing incendiary bombs start a fire without a roll.
- 7.35.3 (option ``fires-missed-atgm``): an ATGM or hand-held anti-tank rocket that misses a vehicle in a building
  hex is checked with its fixed GP Factor (the ATGM's ``gp``, the rocket's ``fixed_gp``).
- 7.35.4: the scenario's ``fire_terrain`` hexes (Brush, Woods ...) burn as the building construction it names,
  with its extra modifier on the roll.
- Persistence: a hex is on fire or not and burns for the rest of the scenario.
- On Fire (6.1.4.3.5): no unit but helicopters (and fixed-wing aircraft) may enter a burning hex; a line of fire
  through a burning hex, or from or into one, takes table ``hindrance-modifiers`` row ``on-fire`` (AP -5, GP -20)
  per burning hex (cumulative, 6.5.2.5 / 6.5.4.3; never for indirect fire, aircraft or Low helicopter GP
  combat); a smoke cloud or barrage whose hexes on the line all burn gives way to the fire (5.11: the largest
  modifier only). Fire does not block the line of sight; Laser sights and designators do not work from, into or
  through it (6.5.2.2.5, ``laser_blocked``).
- Units (7.35.2): a ground unit still in a fire hex at the end of the turn after the fire started (or any later
  turn's end) is eliminated, without a wreck; helicopters are not ground units.
- Flamethrowers (7.35.1, ``flame.py``): a close combat with an attached flamethrower at a target in a building
  hex starts a fire there without a roll, in the Adjustment Phase like incendiary bombs.
Not modelled: rubble's -10 on the roll (the terrain catalogue has no Rubble; a razed building hex stays a building
hex for the check); the Height 5 of a fire (it blocks nothing, 6.1.4.3.5).
"""
from __future__ import annotations

from studio.hexgrid import hex_line
from studio.hexgrid.coords import distance

from .codes import ON
from .if_data import if_data

#: ``fire_gp`` value of a hex an incendiary bomb hit: the fire starts without a roll (MBT 7.35.1)
AUTO_START = 1_000_000
#: fixed-wing loads whose impact pattern may start fires (MBT 7.35: bombs and rockets)
FIRE_LOADS = ("bomb", "high_drag_bomb", "cluster_bomb", "rockets")


class FiresRules:
    """Rules of MBT 7.35, mixed into :class:`~.advanced.AdvState` (slots ``burning``, ``fire_gp``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.burning = {}   # hex -> turn the fire started
        self.fire_gp = {}   # hex -> the largest GP factor directed at it this turn

    def _copy(self, dice):
        o = super()._copy(dice)
        o.burning, o.fire_gp = dict(self.burning), dict(self.fire_gp)
        return o

    def fingerprint(self) -> str:
        lab = self.game.label
        return (f"{super().fingerprint()}|fire{sorted((lab(h), t) for h, t in self.burning.items())}"
                f"{sorted((lab(h), v) for h, v in self.fire_gp.items())}")

    # ---------------------------------------------------------------- what may start a fire
    def _fire_terrain(self) -> dict:
        """The scenario's 7.35.4 hexes: hex -> (construction, modifier) (cached on the game)."""
        g = self.game
        ft = g.__dict__.get("_fire_terrain")
        if ft is None:
            ft = g.__dict__["_fire_terrain"] = {
                g.map.hex(k): (v["construction"], int(v.get("modifier", 0)))
                for k, v in (g.extension.get("fire_terrain") or {}).items() if k in g.map.hex_of}
        return ft

    def note_fire_attack(self, h, gp: int) -> None:
        """GP fire of ``gp`` factors directed at building hex ``h`` (not small arms): for the fire check (MBT
        7.35.1; 7.35.4 the scenario's other terrain). Direct fire calls it here; indirect fire, bombs and rockets
        for each hex of their pattern."""
        g = self.game
        if g.optional_on("fires") and h not in self.burning and \
                (h in g.building_hexes or h in self._fire_terrain()):
            self.fire_gp[h] = max(gp, self.fire_gp.get(h, 0))

    def note_fire_pattern(self, kind: str, hexes, gp: int) -> None:
        """A fixed-wing attack of load ``kind`` on ``hexes`` (MBT 7.35: bombs and rockets; incendiary bombs start
        fires without a roll). ``fixed_wing.fw_attack`` calls it."""
        if not self.game.optional_on("fires"):
            return
        if kind == "incendiary_bomb":
            gp = AUTO_START
        elif kind not in FIRE_LOADS:
            return
        for h in hexes:
            if h in self.game.map.label_of:
                self.note_fire_attack(h, gp)

    def gp_fire(self, s: int, t: int, row, overwatch: bool) -> None:
        if not row.small_arms and self.game.optional_on("fires"):
            band, factor = self.gp_factor(row, distance(self.hex[s], self.hex[t]))
            if band is not None:
                self.note_fire_attack(self.hex[t], factor)
        super().gp_fire(s, t, row, overwatch)

    def ap_fire(self, s: int, t: int, row, overwatch: bool) -> int:
        """MBT 7.35.3 (option ``fires-missed-atgm``): a missed ATGM or hand-held anti-tank rocket at a vehicle in
        a building hex is checked for a fire with its fixed GP Factor."""
        hits = super().ap_fire(s, t, row, overwatch)
        g = self.game
        if not hits and g.optional_on("fires") and g.options["fires-missed-atgm"] == "on":
            gp = errant_gp(g, s, row)
            if gp:
                self.note_fire_attack(self.hex[t], gp)
        return hits

    def _gp_impact(self, fire, o: int, h, hexes, planned: bool) -> None:
        """Indirect GP fire notes every building hex of its SHEAF (MBT 7.35.1)."""
        if self.game.optional_on("fires"):
            band_row = self._fire_band(fire, o, h, planned)
            if band_row is not None:
                for x in sorted(hexes):
                    self.note_fire_attack(x, band_row[2])
        super()._gp_impact(fire, o, h, hexes, planned)

    # ---------------------------------------------------------------- On Fire terrain (6.1.4.3.5)
    def step_cost(self, i: int, a, b, reverse: bool = False):
        """No unit but helicopters enters a burning hex (MBT 6.1.4.3.5)."""
        if self.burning and b in self.burning and not self.game.units[i].type.ag.heli:
            return None
        return super().step_cost(i, a, b, reverse)

    def xc_steps(self, i: int) -> dict:
        """The step table without the steps into burning hexes (bots plan with it)."""
        table = super().xc_steps(i)
        if not self.burning or self.game.units[i].type.ag.heli:
            return table
        fire = self.burning
        cache = self.game.__dict__.setdefault("_fire_xc", {}) if self.caching else {}
        key = (id(table), tuple(sorted(fire)))
        out = cache.get(key)
        if out is None:
            out = {h: tuple((nb, None if nb in fire else c) for nb, c in row) for h, row in table.items()}
            if self.caching:
                if len(cache) > 64:
                    cache.clear()
                cache[key] = out
        return out

    def laser_blocked(self, a, b, s: int = -1, t: int = -1) -> bool:
        """Laser sights and designators have no effect from, into or through a Fire hex either (MBT 6.5.2.2.5)."""
        if self.burning and self.burning.keys() & set(hex_line(a, b)):
            return True
        return super().laser_blocked(a, b, s, t)

    def hindrance_modifier(self, s: int, t: int, kind: str = "ap", thermal: bool = False) -> int:
        """Smoke and barrages (``smoke.py``), and On Fire per burning hex the line starts in, passes through or
        enters (MBT 6.5.2.5, 6.5.4.3; not GP combat of Low helicopters); a cloud or barrage whose line hexes all
        burn gives way to the fire (5.11)."""
        net = super().hindrance_modifier(s, t, kind, thermal)
        if not self.burning:
            return net
        if kind == "gp" and any(self.game.units[x].type.ag.heli and self.heli_alt[x] == "low" for x in (s, t)):
            return net
        a, b = self.hex[s], self.hex[t]
        line = set(hex_line(a, b))
        fires = line.intersection(self.burning)
        if not fires:
            return net
        col = 0 if kind == "ap" else 1
        hind = if_data(self.game).hind
        return net + len(fires) * hind["on-fire"][col] - self._given_way(a, b, s, t, line, fires, col, thermal)

    def _given_way(self, a, b, s: int, t: int, line: set, fires: set, col: int, thermal: bool) -> int:
        """The smoke and barrage modifiers the fire replaces (MBT 5.11): those of clouds and barrages on the line
        whose line hexes all burn (as ``SmokeRules.hindrance_modifier`` counted them)."""
        clouds, bars = self._touched(a, b, s, t)
        if not clouds and not bars:
            return 0
        hind = if_data(self.game).hind
        gone = [c for c in clouds if (c.hexes & line) <= fires]
        if thermal:
            n = len(clouds)
            out = sum(hind["thermal-first" if k == 0 else "thermal-next"][col] for k in range(n - len(gone), n))
        else:
            out = sum(hind[f"smoke-{c.sheaf}"][col] for c in gone)
        smoky = set().union(*(c.hexes for c in clouds)) if clouds else set()
        for x in bars:
            rest = (x.hexes & line) - smoky
            if rest and rest <= fires:
                out += hind[f"barrage-{x.sheaf}"][col]
        return out

    # ---------------------------------------------------------------- Adjustment Phase
    def _recover(self) -> None:
        """The Adjustment Phase: fire checks, then units left in burning hexes (MBT 7.35.1-2)."""
        if self.game.optional_on("fires"):
            self._fire_checks()
            self._burn_units()
        super()._recover()

    def _construction(self, h) -> str:
        """The construction a hex burns as (MBT 7.35.1; 7.35.4 the scenario's fire terrain)."""
        from .data import building_cover

        g = self.game
        other = self._fire_terrain().get(h)
        if other is not None:
            return other[0]
        kind = (g.extension.get("building_construction") or {}).get(g.label(h))
        return kind or building_cover(g.ruleset)[1][g.map.terrain.get(h, "")]

    def _fire_modifier(self, h) -> int:
        """The scenario's additional modifier on the fire roll of a 7.35.4 hex (MBT 7.35.4), else 0."""
        other = self._fire_terrain().get(h)
        return other[1] if other is not None else 0

    def _fire_checks(self) -> None:
        from .opt_move_data import move_opt

        g = self.game
        mo = move_opt(g)
        for h, gp in sorted(self.fire_gp.items()):
            if gp >= AUTO_START:
                self.burning[h] = self.turn
                self.narrate(f"{g.label(h)} is on fire (MBT 7.35.1: incendiary bombs or a flamethrower)")
                continue
            kind, mod = self._construction(h), self._fire_modifier(h)
            top = next((m for c, lo, hi, m in mo.fire_start if c == kind and lo <= gp <= hi), 0)
            roll = self.dice.roll(100, f"Fire check {g.label(h)}")
            started = roll + mod <= top
            if started:
                self.burning[h] = self.turn
            self.narrate(f"fire check in {g.label(h)} ({kind}, GP {gp}): roll {roll}{f'{mod:+d}' if mod else ''} "
                         f"vs 01-{top}: {'on fire' if started else 'no fire'}")
        self.fire_gp = {}

    def _burn_units(self) -> None:
        """Ground units in a hex burning since an earlier turn are eliminated, no wrecks (MBT 7.35.2)."""
        g = self.game
        for h, start in self.burning.items():
            if self.turn <= start:
                continue
            for i in range(g.n):
                if self.st[i] == ON and self.hex[i] == h and not g.units[i].type.ag.heli:
                    self.lose_with_passengers(i)
                    self.narrate(f"{g.units[i].name} is lost in the fire in {g.label(h)}")


def errant_gp(game, s: int, row) -> int:
    """The fixed GP Factor of an ATGM or hand-held anti-tank rocket row of unit ``s`` (MBT 7.35.3), else 0: the
    ATGM's ``gp``, the hand-held weapon's ammo ``fixed_gp`` (its crew-weapon card or the unit's own weapon)."""
    if row.kind == "ATGM":
        return row.atgm.gp if row.atgm else 0
    cache = game.__dict__.setdefault("_errant_gp", {})
    key = (row.card or game.units[s].type.id, row.key)
    if key not in cache:
        cache[key] = _hhatw_gp(game, row.card or game.units[s].type.id, row)
    return cache[key]


def _hhatw_gp(game, card_id: str, row) -> int:
    """The fixed GP of ``row``'s hand-held weapon on card ``card_id``: a unit card's weapon, or an attached row's
    crew-served card (``ApRow.card``, MBT 5.1.3)."""
    card = game.index.model("unit", card_id)
    body = {} if card is None else (card.body.model_dump() if hasattr(card.body, "model_dump") else dict(card.body))
    weapons = list(body.get("weapons") or ()) + ([body["weapon"]] if body.get("weapon") else [])
    for w in (w for w in weapons if w.get("id") == row.weapon):
        if w.get("weapon_type") == "hhatw":
            return next((int(a.get("fixed_gp") or 0) for a in w.get("ammo") or ()
                         if a.get("ammo_type", "").replace(" ", "_") == row.ammo.replace(" ", "_")), 0)
    return 0


__all__ = ["FiresRules", "errant_gp", "AUTO_START"]
