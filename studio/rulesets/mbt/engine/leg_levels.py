"""Leg units on the top floor of multi-story buildings (MBT 4.1.4.1.3, 6.1.4.3.1, 6.6.4.1, 6.6.4.3, 5.1.3),
Advanced Game.

- Stories: a building hex is 1 story unless the scenario says otherwise (extension ``building_stories``, hex ->
  stories); its Height is 1 per story (the LOS top of the terrain, ``los.build_los``). A building of Height 2 or
  more (not Rubble) is multi-story.
- Moving up or down: a squad, half-squad or section (not a towed unit) moving in a multi-story building hex may
  ``climb UNIT up`` to the top floor or ``climb UNIT down`` to the ground, for ``level-move-cost`` (1) of its
  allowance (table ``advanced-movement``, MBT 6.6.4.1); it is movement (the Spot/Move counter of the move, and
  Overwatch may interrupt after it like after a turn), never part of a crawl (6.6.4.3: no crawl from the top floor,
  no climb after one). A unit entering a building hex is on the ground floor.
- Leaving the hex from the top floor (the text does not say): option ``upper-floor-exit``: ``down-first`` (it
  moves down first, paying the cost) or ``free`` (the step out of the hex brings it down).
- Spotting: a unit on the top floor spots and is spotted from ``upper-floor-spot-below`` (1) Height under the
  building's Height (6.1.4.3.1: a squad up in a 3-story building is at Height 2), through the lifted line of
  sight ``MbtLos.clear_lifted``; ``LevelSpottingRules`` corrects the Spotting Phase's pairs that involve such a
  unit (placed under the Full Cover spotter rule, which then applies as usual).
- Fire: attached weapons whose card says ``no_fire_upper_floor`` (crew-served mortars and ATGMs, HHATW, MANPADS
  unless the card notes allow it; grenade launchers may, 5.1.3) do not fire from the top floor.
Slot ``up``: per unit the hex whose top floor it occupies (None: the ground); a unit that left that hex, or is not
on the map, is on the ground. Position status key ``upper_floor`` (bool). Not modelled: other lines of sight
(Overwatch, observers for indirect fire, hidden units) from the top floor, which use the ground height.
"""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .actions import Action
from .adv_move_data import adv_move
from .codes import ON

#: the AdvState slot of this rule (``adv_move.ADV_MOVE_SLOTS``)
LEVEL_SLOTS = ("up",)
#: the moves a unit on the top floor may not make under option ``upper-floor-exit: down-first``
_LEAVING = ("fwd", "rev", "exit", "mount", "crawl")


class LegLevelsRules:
    """MBT 6.1.4.3.1 and 6.6.4.1 (building levels), mixed into :class:`~.advanced.AdvState` through
    ``adv_move.AdvMoveRules``."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.up = [None] * self.game.n

    def _copy(self, dice):
        o = super()._copy(dice)
        o.up = self.up[:]
        return o

    def fingerprint(self) -> str:
        ups = ",".join(f"{i}@{h}" for i, h in enumerate(self.up) if h is not None)
        return f"{super().fingerprint()}|up{ups}"

    # ---------------------------------------------------------------- facts
    def stories_height(self, h) -> int:
        """The Height of the multi-story building in ``h`` (2 or more), else 0 (MBT 4.1.4.1.3, 6.1.4.3.1)."""
        g = self.game
        if h not in g.building_hexes or self.rubble(h):
            return 0
        top = g.los.terrain_top.get(h, 0)
        return top if top >= 2 else 0

    def is_up(self, i: int) -> bool:
        """Is unit ``i`` on the top floor of the building in its hex?"""
        return self.up[i] is not None and self.st[i] == ON and self.up[i] == self.hex[i]

    def spot_lift(self, i: int) -> int:
        """Heights above the ground a unit on the top floor spots from (MBT 6.1.4.3.1), else 0."""
        if not self.is_up(i):
            return 0
        return max(0, self.stories_height(self.hex[i]) - adv_move(self.game).val["upper-floor-spot-below"])

    def set_upper_floor(self, i: int, up: bool) -> str:
        """Put leg unit ``i`` on the top floor (``up``) or the ground; the reason it may not be there, or ""."""
        if up and (not self.is_leg(i) or self.is_towed(i)):
            return "only squads, half-squads and sections go up in buildings (MBT 6.1.4.3.1)"
        if up and not self.stories_height(self.hex[i]):
            return "not in a building of two or more stories (MBT 6.1.4.3.1, scenario building_stories)"
        self.up[i] = self.hex[i] if up else None
        return ""

    # ---------------------------------------------------------------- moving up and down (MBT 6.6.4.1)
    def _climb_ok(self, i: int) -> bool:
        if not (self.is_leg(i) and not self.is_towed(i) and self.st[i] == ON and self.mv_u == i):
            return False
        if self.mv_end or self.crawled[i] or not self.stories_height(self.hex[i]):
            return False
        return adv_move(self.game).val["level-move-cost"] <= self.mv_left

    def move_options(self, i: int) -> list[Action]:
        out = super().move_options(i)
        if self.mv_u != i:
            return out
        if self.is_up(i) and self.game.options["upper-floor-exit"] == "down-first":
            out = [a for a in out if a[0] not in _LEAVING]
        elif self.is_up(i):
            out = [a for a in out if a[0] != "crawl"]  # MBT 6.6.4.3: a crawl never leaves the top floor
        if self._climb_ok(i):
            out.append(Action(("climb", self.game.units[i].name, "down" if self.is_up(i) else "up")))
        return out

    def _apply_move(self, i: int, a) -> None:
        if a[0] == "climb" and self.mv_u == i:
            self._climb(i, a[2] == "up")
            return
        super()._apply_move(i, a)

    def _climb(self, i: int, up: bool) -> None:
        """Up to the top floor or down to the ground for the level cost (MBT 6.6.4.1)."""
        self.up[i] = self.hex[i] if up else None
        self.mv_left -= adv_move(self.game).val["level-move-cost"]
        self.mv_spent = True
        where = "up to the top floor" if up else "down to the ground floor"
        self.narrate(f"{self.game.units[i].name} moves {where} of {self.game.label(self.hex[i])} (MBT 6.6.4.1)")
        self._after_step(i)

    # ---------------------------------------------------------------- fire from the top floor (MBT 5.1.3)
    def weapon_ok(self, s: int, t: int, row) -> bool:
        """Attached weapons barred from upper floors do not fire from the top floor."""
        if self.is_up(s) and row.card and _upper_floor_barred(self.game, row.card):
            return False
        return super().weapon_ok(s, t, row)


class LevelSpottingRules:
    """The Spotting Phase's pairs with a unit on a top floor, judged at its lifted height (MBT 6.1.4.3.1); mixed
    in under :class:`~.full_cover.FullCoverRules` (``opt_move.MoveOptionalRules``)."""

    __slots__ = ()

    def _spot_targets(self) -> list[set]:
        out = super()._spot_targets()
        g = self.game
        lift = {i: self.spot_lift(i) for i in range(g.n) if self.up[i] is not None and self.is_up(i)}
        if not lift:
            return out
        on = [t for t in range(g.n) if self.st[t] == ON]
        for s in on:
            if g.units[s].type.combat:
                self.spots[s] = self._lifted_spots(s, on if s in lift else list(lift), lift)
        by_side = [set() for _ in g.sides]
        for s in range(g.n):
            by_side[g.units[s].side].update(self.spots[s])
        return by_side

    def _lifted_spots(self, s: int, targets: list, lift: dict) -> tuple:
        """``spots[s]`` with each enemy of ``targets`` judged again at the lifted heights."""
        g = self.game
        side, hs = g.units[s].side, self.hex[s]
        seen = set(self.spots[s])
        for t in targets:
            if g.units[t].side == side or (s not in lift and t not in lift):
                continue
            ok = distance(hs, self.hex[t]) <= self.spot_range(t, df=True) and \
                g.los.clear_lifted(hs, self.hex[t], lift.get(s, 0), lift.get(t, 0))
            (seen.add if ok else seen.discard)(t)
        return tuple(sorted(seen))


def _upper_floor_barred(game, card_id: str) -> bool:
    """Does the attached weapon card ``card_id`` say it may not fire from upper floors (MBT 5.1.3)?"""
    memo = game.__dict__.setdefault("_upper_floor_barred", {})
    hit = memo.get(card_id)
    if hit is None:
        model = game.index.model("unit", card_id)
        body = model.body.model_dump() if model is not None and hasattr(model.body, "model_dump") else {}
        hit = memo[card_id] = bool(((body.get("weapon") or {}).get("restrictions") or {}).get("no_fire_upper_floor"))
    return hit


def apply_level_status(state, i: int, pu, error) -> None:
    """Position status ``upper_floor`` (bool) of unit ``i``; ``error`` builds the refusal."""
    if "upper_floor" not in pu.status:
        return
    why = state.set_upper_floor(i, bool(pu.status["upper_floor"]))
    if why:
        raise error(f"upper_floor: {why}", f"/units/{i}/status/upper_floor")


__all__ = ["LegLevelsRules", "LevelSpottingRules", "LEVEL_SLOTS", "apply_level_status"]
