"""Optional Rules 7.29 Bogging Down (``bogging-down``), 7.32 Weight Limitations (``weight-limits``), 7.33 Dual
Driving Controls (``dual-driving-controls``) and 7.34 Amphibious Movement (``amphibious``).

- 7.29: a vehicle with a Move or Short Halt command in a terrain with a Bog range (table ``bog-ranges``) checks
  before it leaves the hex or moves within it (not on entering; not at the path/road rate): roll (100) + the
  card's Bog modifier (+ ``towing`` when towing) within the range bogs it: its move ends and it may not pivot for
  the rest of the turn. The controlling player rolls. With 7.36 weather, mud doubles the range and a transporting
  vehicle in snow or mud takes the passengers' modifier (``weather_bog``, COMMAND's).
- 7.32: a bridge hexside with a weight limit (scenario ``weight_limits``) is closed to heavier units; a frozen
  stream hexside (``kind: ice``) is crossed as Clear by units within its limit and closed to heavier ones (they
  cross at a ford only; the boards' streams are hexsides, no fords). A card without a weight crosses.
- 7.33: a vehicle with dual driving controls (card ``dual_driving``) reverses at the forward cost.
- 7.34: an amphibious vehicle (card ``amphibious``) may enter water as its whole move (one hex per turn); a Track
  hit, Hull Damage, KO or BU there sinks it with its passengers (no Bail Out).
"""
from __future__ import annotations

from studio.model.maps import edge_key

from .codes import MOVE, ON, SH
from .opt_move_data import card_move, move_opt

WATER = "L"          # terrain code of water hexes (ruleset terrain catalogue)
SWIM_COST = 10 ** 6  # entering water costs more than any allowance: only the one-hex move (MBT 7.34)


class TerrainMoveRules:
    """Rules of MBT 7.29, 7.32-7.34, mixed into :class:`~.advanced.AdvState` (slot ``bogged``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.bogged = [False] * self.game.n

    def _copy(self, dice):
        o = super()._copy(dice)
        o.bogged = self.bogged[:]
        return o

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}|bog{''.join('1' if b else '0' for b in self.bogged)}"

    def _start_turn(self) -> None:
        super()._start_turn()
        self.bogged = [False] * self.game.n  # a bogged vehicle moves next turn (MBT 7.29)

    # ---------------------------------------------------------------- 7.29 bogging down
    def _bog_check(self, i: int) -> bool:
        """Check for bogging before leaving or moving within the hex (MBT 7.29); True when the vehicle bogs."""
        g = self.game
        if not g.optional_on("bogging-down") or self.is_leg(i) or self.mv_mode != "xc" or \
                self.cmd[i] not in (MOVE, SH) or self.st[i] != ON:
            return False
        code = g.map.terrain.get(self.hex[i], "")
        mo = move_opt(g)
        rng = mo.bog_max.get(code)
        if rng is None:
            return False
        mod = card_move(g, i).bog + (mo.bog_mod["towing"] if self._towing(i) else 0)
        mult, weather = self.weather_bog(i)  # MBT 7.36.3: mud doubles the range; snow/mud passengers -5 each
        rng, mod = int(rng * mult), mod + weather
        roll = self.dice.roll(100, f"Bog {g.units[i].name} in {g.label(self.hex[i])}")
        bogged = roll + mod <= rng
        self.narrate(f"{g.units[i].name} bog check in {g.label(self.hex[i])}: roll {roll}{mod:+d} vs 01-{rng}: "
                     f"{'bogged down' if bogged else 'moves on'}")
        if bogged:
            self.bogged[i] = True
            self.mv_left = 0
            self.mv_end = True
        return bogged

    def _towing(self, i: int) -> bool:
        """Towing another unit (MBT 7.29 -5): the engine has no towed units yet."""
        return False

    def _move_step(self, i: int, a) -> None:
        if self._bog_check(i):
            self._after_step(i)  # the bogged vehicle stays; Overwatch may still fire at it
            return
        super()._move_step(i, a)

    def _move_exit(self, i: int, a) -> None:
        if self._bog_check(i):
            self._after_step(i)
            return
        super()._move_exit(i, a)

    def _turn_options(self, i: int) -> list:
        """A bogged vehicle may not pivot for the rest of the turn (MBT 7.29)."""
        return [] if self.bogged[i] else super()._turn_options(i)

    # ---------------------------------------------------------------- 7.32-7.34 step costs
    def step_cost(self, i: int, a, b, reverse: bool = False):
        g = self.game
        if reverse and g.optional_on("dual-driving-controls") and card_move(g, i).dual:
            reverse = False  # MBT 7.33: reverse at the forward cost
        c = super().step_cost(i, a, b, reverse)
        if c is None:
            if g.optional_on("amphibious") and g.map.terrain.get(b, "") == WATER and self.mv_mode == "xc" and \
                    card_move(g, i).amphibious and self._edge(i, a, b) is not None:
                return SWIM_COST  # MBT 7.34: one hex per turn into water
            return None
        if g.optional_on("weight-limits"):
            return self._weight_cost(i, a, b, c)
        return c

    def _weight_cost(self, i: int, a, b, c: int):
        """Bridge and ice weight limits on the crossed hexside (MBT 7.32)."""
        mo = move_opt(self.game)
        key = edge_key(a, b)
        limit = mo.bridge_limit.get(key)
        ice = mo.ice_limit.get(key)
        if limit is None and ice is None:
            return c
        weight = card_move(self.game, i).weight
        if weight is None:
            return c
        if limit is not None and weight > limit:
            return None
        if ice is not None:
            if weight > ice:
                return None  # too heavy for the ice: only at a ford
            feat = self.game.features.get(key)
            side = int(feat.move_cost.get(self.game.units[i].type.traction) or 0) if feat is not None else 0
            return max(0, c - side)  # the frozen stream is crossed as Clear
        return c

    def xc_steps(self, i: int) -> dict:
        """The step table with this unit's weight limits applied (bots plan with it, MBT 7.32)."""
        table = super().xc_steps(i)
        g = self.game
        if not g.optional_on("weight-limits"):
            return table
        mo = move_opt(g)
        if not (mo.bridge_limit or mo.ice_limit) or card_move(g, i).weight is None:
            return table
        key = (g.units[i].type.traction, card_move(g, i).weight)
        cached = mo.xc_cache.get(key) if self.caching else None
        if cached is None:
            cached = {h: tuple((nb, None if c is None else self._weight_cost(i, h, nb, c)) for nb, c in row)
                      for h, row in table.items()}
            if self.caching:
                mo.xc_cache[key] = cached
        return cached

    def _sinks(self, i: int) -> bool:
        g = self.game
        return g.optional_on("amphibious") and g.map.terrain.get(self.hex[i], "") == WATER and \
            self.st[i] == ON and card_move(g, i).amphibious

    def _sink(self, i: int, why: str) -> None:
        """The vehicle sinks with its passengers: eliminated, no Bail Out, no wreck (MBT 7.34)."""
        g = self.game
        self.lose_with_passengers(i)
        if self.mv_u == i:
            self.mv_left, self.mv_end = 0, True
        self.narrate(f"{g.units[i].name} sinks in {g.label(self.hex[i])} ({why}): eliminated, no Bail Out")

    def apply_damage(self, t: int, result: str, loc: str) -> None:
        if result in ("KO", "BU") or (result == "DM" and loc[0] != "T"):
            if self._sinks(t):
                self._sink(t, result)
                return
        super().apply_damage(t, result, loc)

    def track_hit(self, t: int) -> None:
        if self._sinks(t):
            self._sink(t, "Track hit")
            return
        super().track_hit(t)


__all__ = ["TerrainMoveRules"]
