"""Optional Rule 7.31, Mines and Minefields (id ``mines``).

Minefields (``opt_move_data.Minefield``) come from the scenario's plots (extension ``minefields``: hexes, Hasty or
Deliberate, mines AV/AP/both, hidden unless ``visible``) or are laid during play as FASCAM (``lay_fascam``, for
indirect fire and aircraft). The state keeps, per field, the hexes the enemy has discovered and the hexes cleared
(``MineState``). An enemy unit entering a field hex, or moving within it (building entry, hull-down search, a
dismount or bail-out into an AP field), is attacked at once on the Minefield Effects table (``minefield-effects``):
vehicles by their GP Defense column against AV mines (Damage = Hull Damaged, TK = Track hit), dismounted leg units
on the Leg & Towed column against AP mines (Effective: a squad is reduced and Suppressed, others eliminated;
quickmarch -20). The non-moving player rolls. FASCAM attacks both sides. A mine attack discovers the hex. Fields
and hexes are cleared by GP attacks on visible hexes (``attack_minefield``, one Effective suffices: indirect fire,
bombs, rockets, engineers) and by mine plows (12 GP on entering, once per turn; a plow vehicle is never attacked by
AV mines; 01-20 after a clearance loses the plow).

Hidden information: the enemy's undiscovered hexes of a hidden field are not in the observation (``observe``,
``scramble_hidden``), so neither a view nor a bot's look-ahead can find them.
"""
from __future__ import annotations

from typing import NamedTuple

from studio.hexgrid.coords import distance

from .air import weapon_kind
from .codes import ON
from .opt_move_data import Minefield, card_move, move_opt

#: fixed-wing loads that attack visible minefields in their pattern (MBT 7.31.3.2: not cluster or incendiary)
MINE_CLEARING_LOADS = ("bomb", "high_drag_bomb", "rockets")


class MineState(NamedTuple):
    """A minefield in play: the plot, the hexes the enemy has discovered, the hexes cleared (MBT 7.31.2-3)."""

    field: Minefield
    known: frozenset
    gone: frozenset


def _initial(game) -> list:
    if not game.optional_on("mines"):
        return []
    return [MineState(f, f.hexes if f.visible else frozenset(), frozenset()) for f in move_opt(game).minefields]


class MinesRules:
    """Rules of MBT 7.31, mixed into :class:`~.advanced.AdvState` (slots ``mines``, ``plow``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.mines = _initial(self.game)
        self.plow = [0] * self.game.n  # 0 ready, 1 used this turn, 2 lost (MBT 7.31.3.4)

    def _copy(self, dice):
        o = super()._copy(dice)
        o.mines, o.plow = self.mines[:], self.plow[:]
        return o

    def fingerprint(self) -> str:
        lab = self.game.label
        def hexes(hs) -> str:
            return ",".join(sorted(map(lab, hs)))

        mines = ";".join(f"{ms.field.field}{ms.field.mines}{ms.field.owner}:{hexes(ms.field.hexes)}/{hexes(ms.known)}"
                         f"/{hexes(ms.gone)}" for ms in self.mines)
        return f"{super().fingerprint()}|mines[{mines}]{self.plow}"

    def observe(self, player: int):
        view = super().observe(player)
        view.mines = self._mines_seen_by(player)
        return view

    def scramble_hidden(self, player: int, seed: int):
        other = super().scramble_hidden(player, seed)
        other.mines = self._mines_seen_by(player)
        return other

    def _mines_seen_by(self, player: int) -> list:
        """The minefields as ``player`` knows them: its own and visible fields whole, the enemy's hidden fields
        only by their discovered hexes (MBT 7.31.1, 7.31.2)."""
        out = []
        for ms in self.mines:
            f = ms.field
            if f.owner == player or f.visible or f.field == "fascam":
                out.append(ms)
            elif ms.known:
                out.append(MineState(Minefield(ms.known, f.field, f.mines, f.owner, f.visible, f.gp_defense),
                                     ms.known, ms.gone & ms.known))
        return out

    def _start_turn(self) -> None:
        super()._start_turn()
        if self.mines:
            self.plow = [2 if p == 2 else 0 for p in self.plow]

    # ---------------------------------------------------------------- attacks
    def _after_step(self, i: int) -> None:
        """A unit entering a minefield hex is attacked at once, before any Overwatch (MBT 7.31.2); a pivot in
        the hex is no move within it (option ``mines-pivot``)."""
        if self.mines and self.st[i] == ON and (self.mv_turned == 0 or
                                                 self.game.options["mines-pivot"] == "attacks"):
            self.mine_attack(i)
        super()._after_step(i)

    def mine_attack(self, i: int, quickmarch: bool | None = None) -> None:
        """Every minefield in unit ``i``'s hex that attacks its side attacks it (MBT 7.31.2): entering the hex,
        moving within it, dismounting or bailing out into it."""
        h = self.hex[i]
        g = self.game
        ag = g.units[i].type.ag
        if ag.heli and self.heli_alt[i] != "landed":
            return  # only landed helicopters meet mines (MBT 7.31.2.3)
        kind = "ap" if ag.leg else "av"
        if quickmarch is None:
            quickmarch = self.mv_u == i and self.qm == i
        for k, ms in enumerate(self.mines):
            f = ms.field
            if self.st[i] != ON:
                return
            if h not in f.hexes or h in ms.gone or not f.attacks(g.units[i].side) or not f.has(kind):
                continue  # no announcement for the wrong mine type (MBT 7.31.2)
            self._plow_attack(i, k)
            ms = self.mines[k]
            if h in ms.gone:
                continue
            if ms.known != ms.known | {h}:
                self.mines[k] = ms._replace(known=ms.known | {h})  # discovered (MBT 7.31.2)
            if kind == "av" and card_move(g, i).plow and self.plow[i] != 2 and self.plow_ready(i):
                continue  # plow vehicles are never attacked by AV mines (MBT 7.31.3.4)
            self._mine_roll(i, f, kind, quickmarch)

    def _mine_roll(self, i: int, f: Minefield, kind: str, quickmarch: bool) -> None:
        """One mine attack on the Minefield Effects table; the non-moving player rolls (MBT 7.31.2.1-2)."""
        g = self.game
        mo = move_opt(g)
        ag = g.units[i].type.ag
        top = mo.mine_values["helicopter-max-gpd"] if ag.heli else 10  # a landed helicopter: column 3 at most
        column = "leg" if kind == "ap" else str(max(1, min(top, ag.gp_value)))
        dmax, tmax, emax = mo.mine_effects[(f.field, column)]
        roller = g.sides[1 - g.units[i].side]
        roll = self.dice.roll(100, f"Mines {f.field} {kind.upper()} {g.units[i].name} in {g.label(self.hex[i])}")
        mod = mo.mine_values["quickmarch-modifier"] if kind == "ap" and quickmarch else 0  # MBT 7.31.2.2
        x = roll + mod
        if kind == "ap":
            result = self.apply_leg_result(i, "E") if x <= emax else "no effect"
        elif ag.heli:
            result = self._heli_mine_result(i, x, dmax, tmax)
        elif x <= dmax:
            result = "Hull Damaged"
            self.apply_damage(i, "DM", "HF")  # a second Damaged is KO; a moving vehicle's rest halved (4.4.3.2.6)
        elif x <= tmax:
            result = "Track hit"
            if not self.track[i]:
                self.track_hit(i)
                self.bail_out(i, "TK")
        else:
            result = "no effect"
        self.narrate(f"{g.units[i].name} enters a {f.field} {kind.upper()} minefield in {g.label(self.hex[i])}: "
                     f"{roller} rolls {roll}{f'{mod:+d}' if mod else ''} (column {column}): {result}")

    def _heli_mine_result(self, i: int, x: int, dmax: int, tmax: int) -> str:
        """A landed helicopter (MBT 7.31.2.3): Damage damages it (a second destroys it); a TK hit grounds it: it
        may not fly again (``track``)."""
        if x <= dmax:
            if self.dmg[i]:
                self._heli_passengers_die(i)
                self._eliminate(i, brew=False)
                return "destroyed (second damage)"
            self.dmg[i] = True
            return "Damaged"
        if x <= tmax:
            self.track[i] = True
            return "Track hit: it may not fly again"
        return "no effect"

    def _heli_flights(self, i: int) -> list:
        """A helicopter grounded by a mine Track hit stays landed (MBT 7.31.2.3)."""
        out = super()._heli_flights(i)
        if self.track[i] and self.heli_alt[i] == "landed":
            return [a for a in out if len(a) > 3 and a[3] == "land"]
        return out

    # ---------------------------------------------------------------- clearing
    def _plow_attack(self, i: int, k: int) -> None:
        """A mine plow attacks a visible minefield hex it enters, once per turn: 12 GP, no modifiers; a cleared
        hex costs the plow on 01-20 (MBT 7.31.3.4)."""
        g = self.game
        ms = self.mines[k]
        h = self.hex[i]
        if self.plow[i] or not card_move(g, i).plow or h not in ms.known or not self.plow_ready(i):
            return
        self.plow[i] = 1
        mo = move_opt(g)
        if self.attack_minefield(h, mo.mine_values["plow-gp"], f"mine plow of {g.units[i].name}", 0, k) and \
                self.dice.roll(100, f"Plow loss {g.units[i].name}") <= mo.mine_values["plow-loss-max"]:
            self.plow[i] = 2
            self.narrate(f"{g.units[i].name} loses its mine plow")

    def attack_minefield(self, h, gp: int, source: str, net: int = 0, only: int | None = None) -> bool:
        """A GP attack of ``gp`` factors (modified roll ``net``) on the visible minefield hexes in ``h``: each
        field's hex is cleared by one Effective result against its GP Defense (MBT 7.31.3). For indirect fire in
        the SHEAF, bombs and rockets (7.31.3.1-2), engineers (7.31.3.3) and plows. True when a hex was cleared."""
        g = self.game
        cleared = False
        fmax, dmax = g.ag.gp_max
        for k, ms in enumerate(self.mines):
            if (only is not None and k != only) or h not in ms.known or h in ms.gone:
                continue
            n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, gp)), max(1, min(dmax, ms.field.gp_defense)))]
            roll = self.dice.roll(100, f"{source} vs minefield {g.label(h)}")
            if roll + net > s_eff:
                self.mines[k] = ms._replace(gone=ms.gone | {h})
                cleared = True
            self.narrate(f"{source} attacks the {ms.field.field} minefield in {g.label(h)} (GP {gp} vs GPD "
                         f"{ms.field.gp_defense}): roll {roll}{f'{net:+d}' if net else ''} vs S {s_eff}: "
                         f"{'cleared' if roll + net > s_eff else 'not cleared'}")
        return cleared

    def mines_pattern_attack(self, kind: str, hexes, gp: int, source: str) -> None:
        """Fixed-wing iron bombs, high-drag bombs and rockets attack the visible minefield hexes of their impact
        pattern (MBT 7.31.3.2); ``fixed_wing.fw_attack`` calls it."""
        if self.mines and kind in MINE_CLEARING_LOADS:
            for h in hexes:
                self.attack_minefield(h, gp, source)

    def mines_crash(self, h, gp: int, source: str) -> None:
        """An aircraft or helicopter crashing into a visible minefield hex attacks it with ``gp`` (15, MBT
        7.31.3.2); ``fixed_wing.air_crash`` calls it."""
        if self.mines:
            self.attack_minefield(h, gp, source)

    def gp_fire(self, s: int, t: int, row, overwatch: bool) -> None:
        """Helicopter rockets attack the visible minefield hexes of their impact pattern, the target's hex (MBT
        7.31.3.2)."""
        super().gp_fire(s, t, row, overwatch)
        if self.mines and self.game.units[s].type.ag.heli and \
                weapon_kind(self.game, self.game.units[s].type.id, row.weapon) == "rockets":
            band, factor = self.gp_factor(row, distance(self.hex[s], self.hex[t]))
            if band is not None:
                self.attack_minefield(self.hex[t], factor, f"{self.game.units[s].name} rockets")

    def lay_fascam(self, hexes, side: int, mines: str = "both") -> list:
        """Lay a FASCAM minefield on ``hexes`` for ``side`` (indirect fire or aircraft, MBT 7.31.1.2): not in the
        terrain table ``minefield-terrain`` forbids it (water); it attacks both sides. Returns the hexes laid."""
        g = self.game
        if not self.mines and not g.optional_on("mines"):
            return []
        allowed = move_opt(g).mine_forbidden  # terrain -> FASCAM allowed there (MBT 7.31.1.2)
        laid = frozenset(h for h in hexes if h in g.map.label_of and allowed.get(g.map.terrain.get(h, ""), True))
        if laid:
            gpd = move_opt(g).mine_values["fascam-gpd"]
            self.mines.append(MineState(Minefield(laid, "fascam", mines, side, True, gpd), laid, frozenset()))
            self.narrate(f"FASCAM minefield laid in {', '.join(sorted(map(g.label, laid)))}")
        return sorted(laid)

    def mine_hexes_known(self, player: int) -> set:
        """The minefield hexes ``player`` knows of and that would attack its units (bots: avoid them)."""
        return {h for ms in self._mines_seen_by(player) if ms.field.attacks(player) for h in ms.field.hexes
                if h not in ms.gone}


__all__ = ["MinesRules", "MineState"]
