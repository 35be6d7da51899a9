"""The Battlefield Ops! State: units in inches and degrees, the command step, the Move Phase, spotting and the
Weapon Priority sequence (see ``game.py`` for the turn). Actions have a text form (``order E M``, ``pass``,
``fire U T W AMMO``, ``hold U``)."""
from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, field

import shapely

from studio.geometry import bearing
from studio.rules.api import TERMINAL, Outcome, RulesError, State
from studio.rules.dice import Dice

from . import alert as AL
from . import bailout as BO
from . import deviation as DV
from . import fire as F
from . import precedence as PR
from . import supply as SP
from . import weather as WX
from .alert import Alert
from .bailout import Dismount
from .command import draw, order_cost
from .agl import agl_burst, agl_reload, bursting
from .cqb import Cqb, cqb_targets, resolve_cqb
from .game import MACROS
from .movement import cut, mover_class, polyline_length
from .structures import STRUCTURE, resolve_structure_shot, structure_targets
from .through import second_shot
from . import sniper as SN
from . import support as SU
from . import works as W
from . import bridging as BR
from . import crossings as CR
from . import engineering as ENG
from .flares import Flare, flare_targets, lit, resolve_flare


# ------------------------------------------------------------------ actions

@dataclass(frozen=True, slots=True)
class Order:
    element: str
    macro: str

    def __str__(self) -> str:
        return f"order {self.element} {self.macro}"


@dataclass(frozen=True, slots=True)
class Double:
    """Move an element double-time this turn (BfOps 11.0, p.16): free, for a command persistent from an earlier
    Turn."""

    element: str

    def __str__(self) -> str:
        return f"double {self.element}"


@dataclass(frozen=True, slots=True)
class Engage:
    """Spend a Command Card so a Recon element may engage first this Turn (BfOps p.18)."""

    element: str

    def __str__(self) -> str:
        return f"engage {self.element}"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Fire:
    unit: str
    target: str
    weapon: int
    ammo: str

    def __str__(self) -> str:
        return f"fire {self.unit} {self.target} {self.weapon} {self.ammo}"


@dataclass(frozen=True, slots=True)
class Smoke:
    unit: str

    def __str__(self) -> str:
        return f"smoke {self.unit}"


@dataclass(frozen=True, slots=True)
class Hold:
    unit: str

    def __str__(self) -> str:
        return f"hold {self.unit}"


def parse_action(text: str, macros=MACROS):
    parts = text.split()
    if parts == ["pass"]:
        return Pass()
    if len(parts) == 3 and parts[0] == "order" and parts[2] in macros:
        return Order(parts[1], parts[2])
    if len(parts) == 5 and parts[0] == "fire" and parts[3].isdigit():
        return Fire(parts[1], parts[2], int(parts[3]), parts[4])
    if len(parts) == 2 and parts[0] == "double":
        return Double(parts[1])
    if len(parts) == 2 and parts[0] == "engage":
        return Engage(parts[1])
    if len(parts) == 2 and parts[0] == "dismount":
        return Dismount(parts[1])
    if len(parts) == 2 and parts[0] == "alert":
        return Alert(parts[1])
    if len(parts) == 2 and parts[0] == "hold":
        return Hold(parts[1])
    if len(parts) == 2 and parts[0] == "smoke":
        return Smoke(parts[1])
    if len(parts) == 3 and parts[0] == "cqb":
        return Cqb(parts[1], parts[2])
    if len(parts) == 3 and parts[0] == "ignite":
        return W.Ignite(parts[1], parts[2])
    if len(parts) == 4 and parts[0] == "flare" and parts[3].isdigit():
        return Flare(parts[1], parts[2], int(parts[3]))
    eng = ENG.parse(parts)                                                      # BfOps p.19-20
    if eng is not None:
        return eng
    raise ValueError(f"unknown action '{text}'")


# ------------------------------------------------------------------ state records

@dataclass
class Column:
    """One Move Phase's column-follow record (BfOps p.11): footprints before the phase, per minefield the points
    (centres of the 1" areas) units passed safely, and the tracks moved. A unit that starts within 1/2" of an
    element-mate that has moved follows its track (a column); on the ground the first passed safely it rolls no
    mine (B47)."""

    starts: dict
    safe: dict
    tracks: dict      # unit id -> the path it moved this phase

    def leader(self, state, u) -> list | None:
        """The track of the unit of ``u``'s element it follows in column (started within 1/2" of it and moved
        this phase), from that unit's start on; None when it leads."""
        reach = state.game.tables.procedure("column_follow_in")
        for v, track in self.tracks.items():
            if len(track) >= 2 and state.unit(v).element == u.element and \
                    self.starts[u.id].distance(self.starts[v]) <= reach:
                return list(track)
        return None

    def follows(self, state, u, area_id: str, x: float, y: float) -> bool:
        """``u`` started within 1/2" of a unit of its element that passed safely within 1/2" of (x, y) (the same
        ground) this phase."""
        reach = state.game.tables.procedure("column_follow_in")
        return any(state.unit(v).element == u.element and math.hypot(px - x, py - y) <= reach
                   and self.starts[u.id].distance(self.starts[v]) <= reach
                   for v, px, py in self.safe.get(area_id, ()))


@dataclass
class Unit:
    """One model on the table: position (inches), facing (degrees), damage and markers."""

    DERIVED_SLOTS = {}

    id: str
    card: str
    side: int
    element: str
    x: float
    y: float
    facing: float
    hits: int = 0
    disabled: bool = False
    immobilized: bool = False
    bogged: bool = False
    sup_move: bool = False      # BfOps p.8: suppressed through its next Move Phase ...
    sup_fire: int = 0           # ... and its next opportunity to fire: the turn it was suppressed (0 = not)
    moved: float = 0.0
    fired: bool = False
    idle: int = 0               # consecutive Turns stationary and inactive (grenades Prepared at 4, p.8)
    bursts: int = 0             # AGL bursts fired from the current load (5 a load, p.7)
    reloads: int = 0            # AGL reloads used
    reloading: int = 0          # Move Phases of AGL reloading left (2, p.8)
    aboard: str = ""            # the carrier of a unit in ``BfopsState.carried`` (bailout.py)

    @property
    def suppressed(self) -> bool:
        return self.sup_move or bool(self.sup_fire)


@dataclass
class BfopsState(State):
    DERIVED_SLOTS = {"sights": "sight lines of this Move Phase's positions, recomputed from the units",
                     "lost": "the casualty log for balance reports; nothing in play reads it",
                     "legal_cache": "legal actions, rebuilt from the other fields",
                     "events": "narration for the replay viewer (only while dice.record); nothing reads it",
                     "applied": "a count of the actions applied, so a lazy observation read late is refused"}

    game: object
    dice: Dice
    units: list[Unit]
    orders: dict[str, str]
    turn: int = 1
    phase: str = "command"
    priority: int = 0
    player: int = 0
    hand: list[int] = field(default_factory=lambda: [0, 0])
    spotted: list[set] = field(default_factory=lambda: [set(), set()])
    alerted: list[bool] = field(default_factory=lambda: [False, False])
    declared: list = field(default_factory=list)
    decided: set = field(default_factory=set)
    cleared: set = field(default_factory=set)
    damage: dict = field(default_factory=dict)     # structure id -> Pen accumulated (BfOps p.23)
    rubble: set = field(default_factory=set)       # collapsed structures
    smoke: dict = field(default_factory=dict)      # unit id -> priority index at which it deployed smoke (p.7)
    unseen: list[int] = field(default_factory=lambda: [0, 0])   # live units left out of an observation, per side
    issued: dict = field(default_factory=dict)      # element -> turn its standing order was issued (p.16)
    doubled: set = field(default_factory=set)       # elements moving double-time this turn (p.16)
    mines_known: list[set] = field(default_factory=lambda: [set(), set()])  # enemy minefields spotted (p.10-11)
    engaged: set = field(default_factory=set)       # Recon elements ordered to engage first this Turn (p.18)
    fired_on: dict = field(default_factory=dict)    # unit id -> ids of the enemy units that fired at it (p.18)
    burning: dict = field(default_factory=dict)     # oil slick id -> last Turn it burns (p.10)
    breaches: dict = field(default_factory=dict)    # fence/wire id -> points where a 1" section is cleared
    work: dict = field(default_factory=dict)        # "task:unit:other" -> Move Phases spent at it (p.10, p.19-20)
    mines_cleared: dict = field(default_factory=dict)   # minefield id -> centre-line positions of cleared squares
    in_combat: set = field(default_factory=set)     # elements engaged in combat (snipers, p.15)
    flares: list = field(default_factory=list)      # (x, y, radius, last Turn) of star shells (p.12-13)
    carried: list = field(default_factory=list)     # units aboard vehicles, off the table (bailout.py)
    barrages: dict = field(default_factory=dict)    # target marker -> (aim, turn, priority, x, y) (deviation.py)
    bridges: dict = field(default_factory=dict)     # bridging unit id -> its deployed bridge (p.19)
    filled: dict = field(default_factory=dict)      # trench id -> [(centre-line position, inches filled)] (p.20)
    charges: dict = field(default_factory=dict)     # unit id -> demolition charge levels spent (p.20)
    mines_local: dict = field(default_factory=dict)  # "side:minefield" -> elements that spotted it (alert.py)
    sights: dict = field(default_factory=dict, compare=False)
    lost: list = field(default_factory=list, compare=False)
    legal_cache: list | None = field(default=None, compare=False)
    events: list = field(default_factory=list, compare=False)
    applied: int = field(default=0, compare=False)

    # ---------------------------------------------------------------- API
    def phase_id(self) -> str:
        return self.phase

    def current_player(self) -> int:
        return TERMINAL if self._over() else self.player

    def _over(self) -> bool:
        if self.turn > self.game.max_turns:
            return True
        return any(not self.unseen[s] and not any(not u.disabled for u in self.units if u.side == s)
                   for s in (0, 1))

    def unit(self, uid: str) -> Unit:
        return next(u for u in self.units if u.id == uid)

    def legal_actions(self) -> list:
        if self._over():
            return []
        if self.legal_cache is None:
            self.legal_cache = self._orders() if self.phase == "command" else self._shots()
        return list(self.legal_cache)

    def explain_illegal(self, action) -> RulesError:
        if self.phase == "command":
            if isinstance(action, Order) and self.stops_short(action.element, action.macro):
                return RulesError(f"'{action}' would stop short within 3\" of a minefield (compulsory "
                                  "movement)", "BfOps p.10")
            return RulesError(f"'{action}' is not an order this side may give now", "BfOps p.17")
        return RulesError(f"'{action}' is not a shot the deciding unit may take now", "BfOps p.7")

    def apply(self, action) -> None:
        self.legal_cache = None
        self.applied += 1
        if isinstance(action, (Order, Pass, Double, Engage, Dismount, Alert) + ENG.ACTIONS):
            self._apply_order(action)
        elif isinstance(action, (Fire, Hold, Smoke, Cqb, W.Ignite, Flare)):
            self._apply_fire(action)
        else:
            raise RulesError(f"'{action}' is not an action of this game")

    def clone(self) -> "BfopsState":
        return BfopsState(self.game, self.dice.clone(), [_copy_unit(u) for u in self.units],
                          dict(self.orders), self.turn, self.phase, self.priority, self.player, list(self.hand),
                          [set(s) for s in self.spotted], list(self.alerted), list(self.declared),
                          set(self.decided), set(self.cleared), dict(self.damage), set(self.rubble),
                          dict(self.smoke), list(self.unseen), dict(self.issued), set(self.doubled),
                          [set(m) for m in self.mines_known], set(self.engaged),
                          {k: set(v) for k, v in self.fired_on.items()}, dict(self.burning),
                          {k: list(v) for k, v in self.breaches.items()}, dict(self.work),
                          {k: list(v) for k, v in self.mines_cleared.items()}, set(self.in_combat),
                          list(self.flares), [_copy_unit(v) for v in self.carried], dict(self.barrages),
                          dict(self.bridges), {k: list(v) for k, v in self.filled.items()}, dict(self.charges),
                          {k: set(v) for k, v in self.mines_local.items()},
                          dict(self.sights), list(self.lost), events=list(self.events))

    def _visible(self) -> str:
        units = [(u.id, u.card, u.side, u.element, u.x, u.y, u.facing, u.hits, u.disabled, u.immobilized, u.bogged,
                  u.sup_move, u.sup_fire, u.moved, u.fired, u.idle, u.bursts, u.reloads, u.reloading,
                  u.aboard) for u in self.units]
        return (f"{self.turn}|{self.phase}|{self.priority}|{self.player}|{self.hand}|{sorted(self.orders.items())}|"
                f"{[sorted(s) for s in self.spotted]}|{self.alerted}|{[str(d) for d in self.declared]}|"
                f"{sorted(self.decided)}|{sorted(self.cleared)}|{sorted(self.damage.items())}|{sorted(self.rubble)}|"
                f"{sorted(self.smoke.items())}|{self.unseen}|{sorted(self.issued.items())}|{sorted(self.doubled)}|"
                f"{[sorted(m) for m in self.mines_known]}|{sorted(self.engaged)}|"
                f"{sorted((k, sorted(v)) for k, v in self.fired_on.items())}|{sorted(self.burning.items())}|"
                f"{sorted(self.breaches.items())}|{sorted(self.work.items())}|{sorted(self.mines_cleared.items())}|"
                f"{sorted(self.in_combat)}|{self.flares}|{units}|"
                f"{[(v.id, v.card, v.side, v.element, v.aboard, v.hits, v.disabled) for v in self.carried]}|"
                f"{sorted(self.barrages.items())}|{sorted(self.bridges.items())}|{sorted(self.filled.items())}|"
                f"{sorted(self.charges.items())}|{sorted((k, sorted(v)) for k, v in self.mines_local.items())}")

    def fingerprint(self) -> str:
        return f"{self._visible()}|{self.dice.fingerprint()}"

    def observation(self, player: int):
        """What ``player`` may know (see :mod:`.hidden`): the table without the features hidden from it, no enemy
        unit it has not spotted, no enemy standing order, no enemy declaration of the Weapon Priority being
        declared (fire is simultaneous, p.7), no narration; fresh dice seeded from what it sees. Built when first
        read (``hidden.LazyObservation``: a bot that never looks, like the random bot, costs nothing)."""
        from .hidden import LazyObservation

        return LazyObservation(self, player)

    def scramble_hidden(self, player: int, seed: int) -> "BfopsState":
        """A clone with everything ``player`` may not know randomized (see :mod:`.hidden`)."""
        from .hidden import scramble

        return scramble(self, player, seed)

    def outcome(self) -> Outcome:
        """Victory points from the scenario-authored predicates (the rules give none, digest e)."""
        g = self.game
        points = [0.0, 0.0]
        reasons = []
        losses = [sum(1 for u in self.units if u.side == s and u.disabled) for s in (0, 1)]
        totals = [max(1, sum(1 for u in self.units + self.carried if u.side == s)) for s in (0, 1)]
        for v in g.ext.victory:
            if v.side not in g.sides:
                continue
            s = g.sides.index(v.side)
            reason = self._met(v, s, losses, totals)
            if reason is not None:
                points[s] += v.points
                reasons.append(reason)
        winner = None if points[0] == points[1] else (0 if points[0] > points[1] else 1)
        return Outcome(winner, points, "; ".join(r for r in reasons if r) or "no victory condition met",
                       min(self.turn, g.max_turns), losses)

    def _met(self, v, s: int, losses: list[int], totals: list[int]) -> str | None:
        """The reason text when victory predicate ``v`` of side ``s`` holds now, else None."""
        if v.kind == "hold_objective":
            return f"{v.side} holds {v.objective}" if self.holds(s, v.objective) else None
        if v.kind == "enemy_losses":
            met = 100 * losses[1 - s] >= (v.percent or 50) * totals[1 - s]
            return f"{v.side}: enemy losses {losses[1 - s]}/{totals[1 - s]}" if met else None
        met = 100 * losses[s] <= (v.percent or 50) * totals[s]                 # no_losses_above
        return f"{v.side}: own losses {losses[s]}/{totals[s]}" if met else None

    def holds(self, side: int, objective_id: str | None) -> bool:
        """A side holds an objective with a unit inside its radius and no enemy there (scenario-authored)."""
        obj = next((o for o in self.game.ext.objectives if o.id == objective_id), None)
        if obj is None:
            return False
        near = [u.side for u in self.units if not u.disabled and math.hypot(u.x - obj.at[0], u.y - obj.at[1])
                <= obj.radius_in]
        return side in near and (1 - side) not in near

    # ---------------------------------------------------------------- command step
    def _orders(self) -> list:
        own = sorted({u.element for u in self.units if u.side == self.player and not u.disabled})
        double = [Double(e) for e in own if self.may_double(e)]
        engage = [Engage(e) for e in own if self.is_recon(e) and e not in self.engaged]
        hand = self.hand[self.player]
        own = [e for e in own if order_cost(self, e) <= hand]                  # BfOps p.18: cross-branch
        dismount = [d for d in BO.dismount_orders(self, self.player) if d.element in own]
        tasks = ENG.command_actions(self, self.player)                          # BfOps p.19-20: free
        alert = AL.alert_orders(self, self.player) if self.mines_local else []     # BfOps p.11: a card
        orders = [Order(e, m) for e in own for m in self.game.macros if not self.stops_short(e, m)]
        return [Pass()] + double + engage + dismount + tasks + alert + orders

    def is_recon(self, element: str) -> bool:
        """An element of Recon units (card capability ``recon``, BfOps p.18)."""
        mates = [u for u in self.units if u.element == element]
        return bool(mates) and all(self.game.card_of(u).capabilities.recon for u in mates)

    def stops_short(self, element: str, macro: str) -> bool:
        """A move that stops (cover, crest) within 3" of an unspotted enemy minefield whose compulsory zone holds
        a unit of the element, with no victory objective there, may not be ordered (BfOps p.10, B41)."""
        if macro not in ("cover", "crest"):
            return False
        near = self.game.tables.procedure("minefield_stop_short_in")
        for u in self.units:
            if u.element != element or u.disabled or self.compulsory_minefield(u) is None:
                continue
            goal = self.goal_of(u, macro)
            if goal is None:
                continue
            spot = shapely.points(*goal)
            if any(shapely.distance(spot, a.geom) <= near for a in self.unknown_to(u)) and not any(
                    math.hypot(goal[0] - o.at[0], goal[1] - o.at[1]) <= o.radius_in for o in self.game.ext.objectives):
                return True
        return False

    def may_double(self, element: str) -> bool:
        """Double-time needs a moving command persistent from a previous Turn (BfOps 11.0, p.16)."""
        return (self.orders.get(element, "hold") != "hold" and self.issued.get(element, self.turn) < self.turn
                and element not in self.doubled and not BR.cruise_only(self, element))   # BfOps p.19: AVLBs

    def _apply_order(self, action) -> None:
        if isinstance(action, ENG.ACTIONS):
            ENG.apply_command(self, action)                                     # BfOps p.19-20: no card
            return
        if isinstance(action, Double):
            self.doubled.add(action.element)                                    # BfOps p.16: no card spent
            return
        if isinstance(action, (Order, Dismount)):
            cost = 0 if ENG.free_element(self, action.element) else order_cost(self, action.element)  # p.18-19
            if isinstance(action, Dismount):
                BO.dismount(self, action.element)
            else:
                self.orders[action.element] = action.macro                      # BfOps p.16: persistent
                self.issued[action.element] = self.turn
                self.doubled.discard(action.element)
            if cost == 0:
                return                                                          # BfOps p.18: no card needed
            self.hand[self.player] -= cost
        elif isinstance(action, Engage):
            self.engaged.add(action.element)                                    # BfOps p.18: a card to engage
            self.hand[self.player] -= 1
        elif isinstance(action, Alert):
            AL.alert(self, action)                                              # BfOps p.11: any card
            self.hand[self.player] -= 1
        else:
            self.hand[self.player] = 0
        other = 1 - self.player
        if self.hand[other] > 0:
            self.player = other
        elif self.hand[self.player] <= 0:
            self._move_phase()

    def begin_turn(self) -> None:
        """Draw Command Cards until the Fog of War card (BfOps p.23); the side with more cards issues first."""
        for u in self.units:
            u.moved, u.fired = 0.0, False
        self.spotted = [set(), set()]
        self.alerted = [False, False]
        self.doubled = set()
        self.engaged = set()
        self.hand = [0, 0]
        for card in draw(self.game.deck, self.dice):
            self.hand[card.side] += 1
        self.phase = "command"
        self.player = 0 if self.hand[0] >= self.hand[1] else 1
        if not any(self.hand):
            self._move_phase()

    # ---------------------------------------------------------------- movement
    def _move_phase(self) -> None:
        self.sights = {}
        for _ in range(max(1, int(self.game.tables.sequence["move_phases"]))):
            column = Column({u.id: self.game.footprint(u) for u in self.units}, {}, {})
            SU.recover(self)                                                     # BfOps p.19
            SU.clear_minefields(self)                                            # BfOps p.20
            ENG.move_phase(self)                                                 # BfOps p.19-20
            SP.resupply(self)                                                    # BfOps p.18
            SP.medical(self)                                                     # BfOps p.18-19
            for u in list(self.units):
                if u.disabled:
                    continue
                agl_reload(self, u)                                              # BfOps p.8
                if u.sup_move:
                    u.sup_move = False                                           # BfOps p.8
                    continue
                if u.bogged:
                    WX.iced_free(self, u)                                        # BfOps p.12
                elif not u.immobilized:
                    before = self._disabled()
                    self._move_unit(u, column)
                    BO.follow(self, u)
                    BO.bail_out(self)                                            # BfOps p.16
                    self._log(before, "minefield", None, None)
        self.sights = {}
        self._spotting()
        PR.rally(self)                                                           # BfOps p.8 (Large Force)
        self.phase, self.priority, self.declared, self.decided = "fire", 0, [], set()
        self._next_decider()

    def goal_of(self, u: Unit, macro: str) -> tuple[float, float] | None:
        """Where a macro move heads: 'advance' the nearest objective, 'to-X' objective X, 'cover' the cover spot that best trades
        distance for progress, 'crest' the nearest crest spot."""
        g = self.game
        objs = [tuple(o.at) for o in g.ext.objectives] or [(g.geometry.width / 2, g.geometry.depth / 2)]
        target = min(objs, key=lambda p: math.hypot(p[0] - u.x, p[1] - u.y))
        if macro.startswith("to-"):
            target = next((tuple(o.at) for o in g.ext.objectives if f"to-{o.id}" == macro), target)
        if macro == "advance" or macro.startswith("to-"):
            k = self.game_index(u)
            return (min(g.geometry.width - 0.5, target[0] + 0.8 * (k % 3) - 0.8), target[1] - 0.8 * (k // 3) +
                    (0.0 if u.side == 0 else 1.6))
        spots = g.cover_spots if macro == "cover" else g.crest_spots
        if not spots:
            return target
        if macro == "cover":
            return min(spots, key=lambda p: math.hypot(p[0] - u.x, p[1] - u.y) + math.hypot(p[0] - target[0],
                                                                                           p[1] - target[1]))
        return min(spots, key=lambda p: math.hypot(p[0] - u.x, p[1] - u.y))

    def field_point(self, u: Unit, macro: str, goal: tuple[float, float]) -> tuple[float, float]:
        """The point whose distance field a macro move follows: the objective itself for 'advance'/'to-X' (the
        unit's own spot is its last step), the goal otherwise."""
        if macro == "advance" or macro.startswith("to-"):
            objs = [tuple(o.at) for o in self.game.ext.objectives]
            if objs:
                return min(objs, key=lambda p: math.hypot(p[0] - goal[0], p[1] - goal[1]))
        return goal

    def game_index(self, u: Unit) -> int:
        mates = [v.id for v in self.units if v.element == u.element]
        return mates.index(u.id)

    def _move_unit(self, u: Unit, column: "Column | None" = None) -> None:
        macro = self.orders.get(u.element, "hold")
        if macro == "hold":
            return
        card = self.game.card_of(u)
        goal = self.goal_of(u, macro)
        if goal is None:
            return
        speed, band = self._speed(u, card)
        if WX.iced_bog(self, u, card, band):
            return                                                              # BfOps p.12: iced roads
        lead = column.leader(self, u) if column is not None else None
        path = [(u.x, u.y), *lead] if lead else self._path(u, card, macro, goal, speed)   # BfOps p.11: column
        if len(path) < 2:
            return
        path = cut(path, speed)
        path = CR.wade_stop(self, u, card, path)                                  # BfOps p.11, p.19
        if card.propulsion != "foot" and BR.fords(self, card, path):                # not on a bridge (p.19)
            path = cut(path, min(speed, card.movement.cross_country_cruise or speed))   # BfOps p.11: fording
        path = self._adjudicate(u, card, path, band, speed, column)
        if column is not None:
            column.tracks[u.id] = path
        if len(path) >= 2:
            (x0, y0), (x1, y1) = path[-2], path[-1]
            u.facing = round(bearing(x0, y0, x1, y1), 3)
        u.moved += polyline_length(path)
        u.x, u.y = round(path[-1][0], 4), round(path[-1][1], 4)

    def _speed(self, u: Unit, card) -> tuple[float, str]:
        """Inches this Move Phase and the speed band for Bog checks: Cruise (To Fight on foot); iced roads below
        Cruise, rounded down, infantry half To Fight (p.12); double-time twice that, faster than Cruise (p.16)."""
        speed = card.movement.to_fight if card.propulsion == "foot" else card.movement.cruise
        band = "cruise"
        if self.game.scenario.environment.weather == "iced_roads":
            speed = math.floor(speed - 1e-9) if card.propulsion != "foot" else card.movement.to_fight / 2  # p.12
        if u.element in self.doubled:
            speed *= self.game.tables.procedure("double_time_factor")                   # BfOps 11.0, p.16
            band = "above_cruise"
        return speed, band

    def _path(self, u: Unit, card, macro: str, goal, speed: float) -> list:
        """The planned path; within the compulsory zone of an unspotted enemy minefield a unit under a command to
        advance takes the straightest line toward its goal, and may cross the minefield (BfOps p.10, B41)."""
        if (macro == "advance" or macro.startswith("to-")) and self.compulsory_minefield(u) is not None:
            return self._straight(u, card, goal, speed)
        return CR.plan(self, card, u.x, u.y, goal, speed, self.field_point(u, macro, goal))   # bridges, breaches

    def unknown_minefields(self, side: int) -> list:
        """Enemy minefields hidden from ``side`` that it has not spotted (BfOps p.10)."""
        name = self.game.sides[side]
        return [a for a in self.game.geometry.areas if a.kind == "minefield" and name in a.hidden_from
                and a.id not in self.mines_known[side]]

    def unknown_to(self, u: Unit) -> list:
        """The enemy minefields unknown to the unit: its side's unspotted ones less those its element spotted
        itself (option ``minefield-alert``, :mod:`.alert`)."""
        unknown = self.unknown_minefields(u.side)
        return [a for a in unknown if not AL.knows(self, u, a.id)] if self.mines_local else unknown

    def compulsory_minefield(self, u: Unit):
        """The unspotted enemy minefield whose compulsory zone (table ``procedures``) holds the unit, or None."""
        unknown = self.unknown_to(u)
        if not unknown:
            return None
        memo = self.game.geometry.__dict__.setdefault("_compulsory", {})   # static geometry: memo per point
        key = (u.x, u.y, tuple(a.id for a in unknown))
        if key not in memo:
            if len(memo) > 65536:
                memo.clear()
            zone = self.game.tables.procedure("minefield_zone_in")
            here = shapely.points(u.x, u.y)
            memo[key] = next((a for a in unknown if shapely.distance(here, a.geom) <= zone), None)
        return memo[key]

    def _straight(self, u: Unit, card, goal, speed: float) -> list:
        """A straight line toward ``goal``, cut to ``speed`` and before the first impassable point (1/4" steps)."""
        length = math.hypot(goal[0] - u.x, goal[1] - u.y)
        if length <= 1e-9:
            return [(u.x, u.y)]
        nav = CR.nav_for(self, card)
        end = min(length, speed)
        step, t = 0.25, 0.25
        while t <= end + 1e-9:
            x, y = u.x + (goal[0] - u.x) * t / length, u.y + (goal[1] - u.y) * t / length
            if not math.isfinite(nav.cost[nav.cell(x, y)]):
                end = t - step
                break
            t += step
        if end <= 1e-9:
            return [(u.x, u.y)]
        return [(u.x, u.y), (u.x + (goal[0] - u.x) * end / length, u.y + (goal[1] - u.y) * end / length)]

    def _adjudicate(self, u: Unit, card, path: list, band: str = "cruise", speed: float = 0.0,
                    column: "Column | None" = None) -> list:
        """Exact geometry on the planned path: trenches and wire crossed (BfOps p.9-10), the first Bog check of
        each ground type entered (p.11), then the minefield rolls for every inch of minefield passed (p.11); the
        unit stops where it bogs or where a mine disables or immobilizes it."""
        path = self._obstacles(u, card, path, speed, band)
        if u.bogged or len(path) < 2:
            return path
        path = self._bog(u, card, path, band)
        if u.bogged:
            return path
        path = SU.flail_pace(self, u, card, path)                                 # BfOps p.20: 1" a phase
        return self._minefields(u, path, column)

    def _obstacles(self, u: Unit, card, path: list, speed: float, band: str = "cruise") -> list:
        """Trenches and wire on the path, in order (table ``obstacle-crossing``): a mover that may not pass stops
        1/10" short; crossing caps the phase's movement (infantry: twice the movement over a trench, Swim speed
        through wire; wheeled: half Cruise through wire) and may need a Bog check, failed = Bogged in it."""
        line = shapely.linestrings(path) if len(path) >= 2 else None
        if line is None:
            return path
        mover = mover_class(card)
        hits = []
        for area, _ in self.game.geometry.path_lengths(path, kinds=["trench", "wire", "wall", W.FENCE, W.SLICK]):
            part = shapely.intersection(line, area.geom)
            if not part.is_empty:
                hits.append((float(shapely.line_locate_point(line, shapely.get_point(
                    shapely.get_parts(part)[0] if part.geom_type.startswith("Multi") else part, 0))), area))
        for at, area in sorted(hits, key=lambda h: (h[0], h[1].id)):
            path = self._cross(u, card, path, at, area, mover, speed, band)
            if u.bogged or polyline_length(path) <= at + 1e-9:
                return path
        return path

    def _cross(self, u: Unit, card, path: list, at: float, area, mover: str, speed: float,
               band: str = "cruise") -> list:
        """One obstacle entered ``at`` inches along the path (BfOps p.9-10, digest c.8): oil slicks, breaches and
        fencing by :mod:`.works`, then the row of table ``obstacle-crossing``."""
        if area.kind == W.SLICK:
            return W.cross_slick(self, u, card, path, at, area, mover)                 # BfOps p.10
        if W.engineer_clears(self, u, card, path, at, area):
            return path                                                              # BfOps p.19
        if area.kind == W.WIRE and W.breached(self, area, *W.entry_point(path, at)):
            return path
        if CR.passes_free(self, u, card, path, at, area, mover):
            return path                                                              # BfOps p.19-20
        obstacle = CR.obstacle_of(area)
        row = self.game.tables.crossing.get((obstacle, mover))
        if row is None:
            return path
        if not row["passes"]:
            self.narrate(f"{u.id} may not cross {obstacle.replace('_', ' ')} {area.id}: stops before it (BfOps p.9)")
            return cut(path, max(0.0, at - 0.1))
        if area.kind == W.FENCE:
            path, done = W.cross_fence(self, u, path, at, area, mover, band, row)   # BfOps p.10
            if done:
                return path
        cap = speed * float(row["speed_factor"])
        if area.kind == "wire" and mover == "infantry":
            cap = card.movement.swim or cap                                       # BfOps p.10: Swim speed
        if cap < polyline_length(path):
            path = cut(path, cap)
            if polyline_length(path) <= at + 1e-9:
                return path
        if row["bog"] is None:
            return path
        number = card.bog_check + float(row["bog"])
        roll = self.dice.roll(10, f"bog {u.id} {area.id}")
        if roll > number:
            u.bogged = True
            self.narrate(f"{u.id} crossing {area.id}: Bog check roll {roll} > {number:g}: bogged (BfOps p.9-10)")
            return cut(path, at + 0.1)
        self.narrate(f"{u.id} crosses {area.id}: Bog check roll {roll} <= {number:g}")
        return path

    def _bog(self, u: Unit, card, path: list, band: str = "cruise") -> list:
        length = polyline_length(path)
        if card.propulsion == "foot" or length <= 0:
            return path
        checked: set[str] = set()
        for k in range(1, int(math.ceil(length)) + 1):
            part = cut(path, min(length, k))
            ground = self.game.ground_of(*part[-1])
            if ground not in self.game.tables.bog or ground in checked:
                continue
            checked.add(ground)
            mod = self.game.tables.bog[ground][band]                          # BfOps p.11 (Cruise or faster)
            if mod is None:
                continue
            mod += WX.snow_extra(self.game, *part[-1])                         # BfOps p.12: deep snow
            roll = self.dice.roll(10, f"bog {u.id}")
            if roll > card.bog_check + mod:
                u.bogged = True
                self.narrate(f"{u.id} enters {ground} ground: Bog check roll {roll} > {card.bog_check + mod:g}: bogged")
                return part
            self.narrate(f"{u.id} enters {ground} ground: Bog check roll {roll} <= {card.bog_check + mod:g}")
        return path

    def _minefields(self, u: Unit, path: list, column: "Column | None" = None) -> list:
        """For every inch of minefield passed (rounded up), a detonation roll per 1" area not yet detonated; a
        unit following another of its element in column (within 1/2" before the Move Phase) that passed that
        area safely this Move Phase is safe on the same ground (BfOps p.11, B47)."""
        line = shapely.linestrings(path)
        for area, inside_len in self.game.geometry.path_lengths(path, kinds=["minefield"]):
            inside = shapely.line_merge(shapely.intersection(line, area.geom))
            for k in range(int(math.ceil(inside_len - 1e-9))):
                if inside.geom_type == "LineString":
                    p = shapely.line_interpolate_point(inside, min(inside_len, k + 0.5))
                else:
                    p = shapely.point_on_surface(inside)
                if column is not None and column.follows(self, u, area.id, p.x, p.y):
                    self.narrate(f"{u.id} follows in column through {area.id}: safe (BfOps p.11)")
                    continue
                if self._mine_roll(u, area, p.x, p.y):
                    return cut(path, float(shapely.line_locate_point(line, p)))
                if column is not None:
                    column.safe.setdefault(area.id, []).append((u.id, p.x, p.y))
        return path

    def _mine_roll(self, u: Unit, area, x: float, y: float) -> bool:
        """One 1" area of a minefield: low density explodes on 4 or less, high on 7 (BfOps p.11), each area once.
        Anti-personnel: 1 Hit to infantry and Soft Units within 1"; anti-armour: Pen 8 at the triggering unit.
        Returns True when the unit must stop (disabled or immobilized)."""
        key = f"{area.id}@{round(x, 1)},{round(y, 1)}"
        if key in self.cleared:
            return False
        if SU.in_cleared_square(self, area, x, y):
            self.narrate(f"{u.id} passes a cleared 1\" section of minefield {area.id} (BfOps p.20)")
            return False
        flail = SU.flail_check(self, u, area, x, y)                           # BfOps p.20: flails
        if flail is not None:
            return flail and self._detonate(u, area, x, y, key)
        f = area.data["feature"]
        row = self.game.tables.mines.get(str(f.attributes.get("density", "low")), self.game.tables.mines["low"])
        roll = self.dice.roll(10, f"mine {area.id}>{u.id}")
        if roll > row["explode_on"]:
            self.narrate(f"{u.id} passes 1\" of minefield {area.id}: roll {roll} > {row['explode_on']:g}, no detonation")
            return False
        self.narrate(f"{u.id} sets off minefield {area.id}: roll {roll} <= {row['explode_on']:g}")
        return self._detonate(u, area, x, y, key)

    def _detonate(self, u: Unit, area, x: float, y: float, key: str) -> bool:
        """The 1" area's mines go off (once): AP 1 Hit to infantry and Soft Units within its radius, AT Pen at the
        unit (BfOps p.11). Returns True when the unit must stop."""
        self.cleared.add(key)
        f = area.data["feature"]
        row = self.game.tables.mines.get(str(f.attributes.get("density", "low")), self.game.tables.mines["low"])
        if str(f.attributes.get("mine_type", "AT")) == "AP":
            for v in self.units:                                                  # BfOps p.11: AP, 1" radius
                vc = self.game.card_of(v)
                if not v.disabled and (vc.soft or vc.infantry) and math.hypot(v.x - x, v.y - y) <= \
                        row["ap_radius_in"] + 1e-9:
                    self._score_hits(v, 1)
        else:
            self._mine_at_vehicle(u, self.game.card_of(u), row["at_pen"])
        return u.disabled or u.immobilized

    def _mine_at_vehicle(self, u: Unit, card, pen: float) -> None:
        """Anti-armour mine: Pen vs bottom armour (disable on d10 <= Pen - bottom) and vs tracks/tires
        (immobilized when Pen >= their armour, no roll) (BfOps p.8, p.11)."""
        if card.soft or card.infantry:
            self._score_hits(u, 1)
            return
        need = pen - card.armor.bottom
        if need >= 1 and self.dice.roll(10, f"mine disable {u.id}") <= need:
            u.disabled = True
            self.narrate(f"  AT mine Pen {pen:g} vs bottom armour {card.armor.bottom}: {u.id} disabled")
        track = card.armor.tracks if card.propulsion == "tracked" else card.armor.tires
        if track is not None and pen >= track:
            u.immobilized = True                                                  # BfOps 4.2
            self.narrate(f"  AT mine Pen {pen:g} >= track/tire armour {track}: {u.id} immobilized")

    # ---------------------------------------------------------------- spotting
    def sight(self, firer: Unit, target: Unit) -> F.Sight:
        key = (firer.id, target.id)
        if key not in self.sights:
            self.sights[key] = F.sight(self.game, firer, target, firer.side, self.units)
        return self.sights[key]

    def _spotting(self) -> None:
        """Each unit makes its Spot checks (card spots_allowed; infantry 1 per squad, p.14): first at an unspotted
        enemy minefield whose compulsory zone holds it (p.10-11), then at the nearest visible enemies; a Recon
        unit's success places the whole force On Alert (+2, BfOps p.18); double-time spots at -3 (p.16)."""
        for s in (0, 1):
            for u in self.units:
                if u.side != s or u.disabled:
                    continue
                card = self.game.card_of(u)
                spots = card.spots_allowed - self._spot_minefield(u, card)
                for sg, t in self._nearest_visible(u, s, spots):
                    tid = t.id
                    number = F.spot_number(self.game, u, t, sg, self.alerted[s], u.element in self.doubled,
                                           W.through_fire(self, sg), bool(self.flares) and lit(self, t.x, t.y))
                    roll = self.dice.roll(10, f"spot {u.id}>{tid}")
                    if roll <= number:
                        self.spotted[s].add(tid)
                        self.narrate(f"{u.id} spots {tid} at {sg.distance:.1f}\": roll {roll} <= {number:g}")
                        if (card.capabilities.recon or u.element in self.game.rif) and not self.alerted[s]:
                            self.alerted[s] = True
                            self.narrate(f"  recon spot: {self.game.sides[s]} Placed On Alert (+2, BfOps p.18)")

    def _nearest_visible(self, u: Unit, s: int, spots: int) -> list:
        """The ``spots`` nearest enemy units not yet spotted by side ``s`` that ``u`` can see, nearest first (ties
        by id): the sight lines are computed in order of distance until enough are clear (the same choice as
        sorting every clear sight line, for a fraction of them)."""
        if spots <= 0:
            return []
        cands = sorted((self.game.distance(u, t), t.id, t) for t in self.units
                       if t.side != s and not t.disabled and t.id not in self.spotted[s])
        out = []
        for _, _, t in cands:
            sg = self.sight(u, t)
            if not sg.blocked:
                out.append((sg, t))
                if len(out) >= spots:
                    break
        return out

    def _spot_minefield(self, u: Unit, card) -> int:
        """A Spot check at the unspotted enemy minefield holding the unit in its compulsory zone: a Unit Rating
        check at -3, Combat Engineers at their rating (BfOps p.10-11, table ``procedures``). Success lifts the
        compulsory movement for the side. Returns the Spot checks used (0 or 1)."""
        area = self.compulsory_minefield(u)
        if area is None:
            return 0
        t = self.game.tables
        number = card.unit_rating + t.procedure("engineer_minefield_spot" if card.capabilities.engineer
                                                else "minefield_spot")
        roll = self.dice.roll(10, f"spot minefield {u.id}>{area.id}")
        if roll <= number:
            AL.spotted(self, u, area.id)                                        # BfOps p.11 (option)
            self.narrate(f"{u.id} spots minefield {area.id}: roll {roll} <= {number:g}; compulsory movement lifted")
        return 1

    # ---------------------------------------------------------------- weapon priority sequence
    def priorities(self) -> list[float]:
        return sorted(set(self.game.tables.priority.values()))

    def _weapons_at(self, u: Unit, priority: float) -> list[int]:
        card = self.game.card_of(u)
        out = []
        for i, w in enumerate(card.weapons):
            if self.game.tables.priority.get(w.weapon_class) != priority:
                continue
            if u.bogged and not (w.turreted and w.weapon_class == "machine_gun"):
                continue                                                           # BfOps p.9: bogged
            if w.agl is not None and u.reloading:
                continue                                                           # BfOps p.8: reloading
            out.append(i)
        return out

    def _deciders(self, side: int) -> list[Unit]:
        """The units of ``side`` still to decide in this priority, in table order."""
        return list(self._iter_deciders(side))

    def _first_decider(self, side: int) -> Unit | None:
        return next(self._iter_deciders(side), None)

    def _iter_deciders(self, side: int):
        pr = self.priorities()
        if self.priority >= len(pr):
            return
        p = pr[self.priority]
        slicks = W.has_slicks(self.game)
        for u in self.units:
            if u.side != side or u.disabled or u.fired or u.sup_fire or u.id in self.decided:
                continue
            weapons = self._weapons_at(u, p)
            if (weapons and (self._targets(u, p) or structure_targets(self, u, weapons) or cqb_targets(self, u)
                             or flare_targets(self, u, weapons))) or (slicks and W.ignite_targets(self, u)):
                yield u

    def _targets(self, u: Unit, priority: float) -> list[Fire]:
        out = []
        card = self.game.card_of(u)
        only = self.return_fire_only(u)
        weapons = self._weapons_at(u, priority)
        if not weapons:
            return out
        for t in self.units:
            if t.side == u.side or t.disabled or t.id not in self.spotted[u.side]:
                continue
            if only is not None and t.id not in only:
                continue                                                       # BfOps p.18: Recon returns fire
            sg = self.sight(u, t)
            for wi in weapons:
                w = card.weapons[wi]
                if F.band(w, sg.distance) is None or not SN.sniper_may_target(self.game, w, t):
                    continue                                                   # BfOps p.15: sniper targets
                for ammo in w.ammo:
                    if ammo.type in ("smoke", "illumination"):
                        continue
                    if sg.blocked and not (ammo.type == "AP" and sg.through_cover > 0):
                        continue                                                   # BfOps p.21: AP only
                    out.append(Fire(u.id, t.id, wi, ammo.type))
        return [f for f in out if SN.barrage_allows(self, u, f)]                  # BfOps p.13: one marker

    def return_fire_only(self, u: Unit) -> set | None:
        """For a Recon unit not ordered to engage: the enemy units that have fired at its element (the only ones
        it may fire at, BfOps p.18); None for every other unit."""
        if not self.game.card_of(u).capabilities.recon or u.element in self.engaged or u.element in self.game.rif:
            return None                                                        # BfOps p.18: Recon-In-Force
        return set().union(*(self.fired_on.get(v.id, set()) for v in self.units if v.element == u.element))

    def deciding_unit(self) -> Unit | None:
        return self._first_decider(self.player)

    def _shots(self) -> list:
        u = self.deciding_unit()
        if u is None:
            return []
        p = self.priorities()[self.priority]
        smoke = [Smoke(u.id)] if self.game.card_of(u).capabilities.smoke_countermeasure else []
        ignite = W.ignite_targets(self, u) if W.has_slicks(self.game) else []
        works = [f for f in structure_targets(self, u, self._weapons_at(u, p)) if SN.barrage_allows(self, u, f)]
        return [Hold(u.id)] + smoke + self._targets(u, p) + works + cqb_targets(self, u) + ignite + \
            flare_targets(self, u, self._weapons_at(u, p))

    def _apply_fire(self, action) -> None:
        u = self.unit(action.unit)
        self.decided.add(u.id)
        if isinstance(action, (Fire, Cqb)):
            u.fired = True
            self.declared.append(action)
        elif isinstance(action, Smoke):
            u.fired = True                                  # BfOps p.7: the smoke takes its fire opportunity
            self.smoke[u.id] = self.priority
        elif isinstance(action, W.Ignite):
            self.declared.append(action)                    # BfOps p.10: its decision for this priority
        elif isinstance(action, Flare):
            u.fired = True                                  # BfOps p.12: in its normal Weapon Priority
            self.declared.append(action)
        self._next_decider()

    def _next_decider(self) -> None:
        while True:
            if self._first_decider(self.player) is not None:
                return
            if self._first_decider(1 - self.player) is not None:
                self.player = 1 - self.player
                return
            self._resolve_priority()
            self.priority += 1
            self.declared, self.decided = [], set()
            if self.priority >= len(self.priorities()):
                self._end_turn()
                return
            self.player = 0

    def _resolve_priority(self) -> None:
        """Shots of one Weapon Priority are simultaneous, except that a higher Unit Rating fires and applies its
        hits first (BfOps p.16): a firer disabled by a higher tier does not fire."""
        tiers: dict[int, list[Fire]] = {}
        close = [(c, resolve_cqb(self, c)) for c in self.declared if isinstance(c, Cqb)]   # BfOps p.16: no UR
        for shot in self.declared:
            if isinstance(shot, Fire):
                tiers.setdefault(PR.tier(self, shot), []).append(shot)               # BfOps p.16
        for ur in sorted(tiers, reverse=True):
            live = [s for s in tiers[ur] if not self.unit(s.unit).disabled]
            effects = [(s, self.resolve_shot(s)) for s in live]
            for shot, apply in effects:
                before = self._disabled()
                apply()
                BO.bail_out(self)                                                  # BfOps p.16
                self._log(before, *self._weapon_of(shot))
        for c, apply in close:
            before = self._disabled()
            apply()
            BO.bail_out(self)
            self._log(before, f"{self.unit(c.unit).card} CQB", 0, self.unit(c.unit).card)
        for d in self.declared:
            if isinstance(d, W.Ignite) and not self.unit(d.unit).disabled:
                W.resolve_ignite(self, d)                                          # BfOps p.10
            elif isinstance(d, Flare) and not self.unit(d.unit).disabled:
                resolve_flare(self, d)                                             # BfOps p.12-13

    # ---------------------------------------------------------------- casualty log (studio.sim.casualties)
    def _disabled(self) -> set[str]:
        return {u.id for u in self.units if u.disabled}

    def _weapon_of(self, shot: Fire) -> tuple[str, int | None, str]:
        u = self.unit(shot.unit)
        card = self.game.card_of(u)
        weapon = f"{u.card} {card.weapons[shot.weapon].name}:{shot.ammo}"
        if shot.target.startswith(STRUCTURE):
            return weapon + " (structure collapse)", None, u.card
        return weapon, int(round(self.sight(u, self.unit(shot.target)).distance)), u.card

    def _log(self, before: set[str], weapon: str, rng: int | None, by: str | None) -> None:
        for v in self.units:
            if v.disabled and v.id not in before:
                self.lost.append({"side": v.side, "unit": v.id, "unit_type": v.card, "turn": self.turn,
                                  "weapon": weapon, "range": rng, "by": by})

    def casualties(self) -> list[dict]:
        """Units lost so far (``studio.sim.casualties`` contract); range in inches."""
        return [dict(c) for c in self.lost]

    def shot_odds(self, shot: Fire) -> tuple[float, float]:
        """(to-hit number, effect number) of a shot: for the heuristic bot and the LOS readout."""
        if shot.target.startswith(STRUCTURE):
            return 0.0, 0.0
        u, t = self.unit(shot.unit), self.unit(shot.target)
        card = self.game.card_of(u)
        w = card.weapons[shot.weapon]
        ammo = next(a for a in w.ammo if a.type == shot.ammo)
        sg = self.sight(u, t)
        to_hit = F.hit_number(self.game, u, t, w, sg, self.in_smoke(t), W.through_fire(self, sg))
        pen = F.effective_pen(self.game, u, t, w, ammo, sg)
        tc = self.game.card_of(t)
        if tc.infantry or tc.soft:
            return to_hit, 10.0 if pen >= 1 else 0.0
        return to_hit, pen - getattr(tc.armor, F.struck_face(self.game, u, t))

    def cqb_odds(self, action: Cqb) -> float:
        """The chance that a CQB disables its target (for the heuristic bot)."""
        from .cqb import cqb_chance

        return cqb_chance(self, action)

    def in_smoke(self, target: Unit) -> bool:
        """Smoke deployed in an earlier priority of this sequence screens the unit; fire in the same priority
        ignores it (BfOps p.7: 'no penalty to the attacker')."""
        return target.id in self.smoke and self.smoke[target.id] < self.priority

    def resolve_shot(self, shot: Fire):
        """Roll to hit and for effect now; return the closure that applies the result (simultaneity). A to-hit
        roll of 10 through a friendly unit farther than 1/4" from both ends strikes that unit (BfOps p.21)."""
        if shot.target.startswith(STRUCTURE):
            return resolve_structure_shot(self, shot)
        u, t = self.unit(shot.unit), self.unit(shot.target)
        w = self.game.card_of(u).weapons[shot.weapon]
        ammo = next(a for a in w.ammo if a.type == shot.ammo)
        if DV.deviating(self.game, w):
            t = DV.struck(self, u, t, w)                                          # BfOps p.13: deviation
            if t is None:
                return lambda: None
        sg = self.sight(u, t)
        self.fired_on.setdefault(t.id, set()).add(u.id)                          # BfOps p.18: return fire
        fresh = t.element not in self.in_combat
        self.in_combat.update((u.element, t.element))                            # BfOps p.15: engaged
        need = F.hit_number(self.game, u, t, w, sg, self.in_smoke(t), W.through_fire(self, sg))
        if bursting(self, u, w):
            return agl_burst(self, u, t, w, ammo, sg, need)                      # BfOps 3.4
        roll = self.dice.roll(10, f"{ammo.type} hit {u.id}>{t.id}")
        if roll == 10 and sg.friendly_screen is not None:                         # BfOps p.21: friendly fire
            screen = self.unit(sg.friendly_screen)
            self.narrate(f"{u.id} fires {w.name} {ammo.type} at {t.id}: roll 10 strikes the friendly cover "
                     f"{screen.id} (BfOps p.21)")
            return self._effect(u, screen, w, ammo, F.sight(self.game, u, screen, u.side))
        if roll > need:
            self.narrate(f"{u.id} fires {w.name} {ammo.type} at {t.id}, range {sg.distance:.1f}\": hit roll {roll} > "
                     f"{need:g} misses")
            return lambda: None
        self.narrate(f"{u.id} fires {w.name} {ammo.type} at {t.id}, range {sg.distance:.1f}\": hit roll {roll} <= "
                 f"{need:g} hits")
        first = self._effect(u, t, w, ammo, sg)
        pin = SN.pin_element(self, u, t, w, fresh)                                 # BfOps p.15: sniper
        if pin is not None:
            first = (lambda hit=first: (hit(), pin()))
        if sg.blocked:
            return first
        then = second_shot(self, u, t, w, ammo, need)                              # BfOps p.22
        return first if then is None else (lambda: (first(), then()))

    def _effect(self, u: Unit, t: Unit, w, ammo, sg: F.Sight, burst: bool = False):
        """The effect of a hit on ``t`` (BfOps p.21-22): Soft Units and infantry by Hits, armour by the disable
        roll Pen - armour of the face struck, else HE suppression (grenades never suppress tanks, p.8); a die of
        an AGL burst raises the suppression number by the burst's +1 (p.7, A3)."""
        tc = self.game.card_of(t)
        pen = F.effective_pen(self.game, u, t, w, ammo, sg)
        if tc.infantry is not None or tc.soft:
            return self._soft_effect(t, tc, w, ammo, pen)
        face = F.struck_face(self.game, u, t)
        need = pen - getattr(tc.armor, face)
        if need >= 1:
            roll = self.dice.roll(10, f"disable {t.id}")
            if roll <= need:                                                          # BfOps p.22
                self.narrate(f"  Pen {pen:g} vs {face} armour {getattr(tc.armor, face)}: roll {roll} <= {need:g}: "
                         f"{t.id} disabled")
                return lambda: setattr(t, "disabled", True)
            self.narrate(f"  Pen {pen:g} vs {face} armour {getattr(tc.armor, face)}: roll {roll} > {need:g}")
        else:
            self.narrate(f"  Pen {pen:g} vs {face} armour {getattr(tc.armor, face)}: no penetration")
        if ammo.type == "HE" and not (w.is_grenade and tc.category in ("tank", "light_tank")):   # BfOps p.8
            number = self.game.tables.sequence["suppression"] + w.he_suppression + \
                (self.game.tables.hit_mod["agl_burst"] if burst else 0)
            roll = self.dice.roll(10, f"suppress {t.id}")
            if roll <= number:
                self.narrate(f"  HE suppression roll {roll} <= {number:g}: {t.id} suppressed (Get Down!)")
                return lambda: self._suppress(t)
        return lambda: None


    def _soft_effect(self, t: Unit, tc, w, ammo, pen: float):
        """Soft units and infantry: Pen 1+ scores 1 Hit regardless of Pen (p.14); cannon, mortar and artillery
        HE on infantry in the open by shell size with splash (p.14-15); a live infantry target is suppressed."""
        if pen < 1:
            return lambda: None
        hits, radius, splash = F.infantry_hits(self.game, w, ammo) if tc.infantry else (1, 0.0, 0)
        cap = F.max_hits(self.game, w)                                           # BfOps 8.2
        if cap is not None:
            hits = min(hits, cap)
        others = [v for v in self.units if v is not t and not v.disabled and self.game.card_of(v).infantry
                  and math.hypot(v.x - t.x, v.y - t.y) <= radius + 1e-9] if splash else []

        self.narrate(f"  {t.id} takes {hits} Hit(s)" + (f", {splash} splash Hit(s) on {', '.join(v.id for v in others)}"
                                                     if others else ""))

        def apply():
            self._score_hits(t, hits)
            for v in others:
                self._score_hits(v, splash)
            if not t.disabled and tc.infantry is not None:
                self._suppress(t)
        return apply

    def _score_hits(self, v: Unit, hits: int) -> None:
        """Hits beyond the squad's remaining hits dissipate (BfOps p.14)."""
        card = self.game.card_of(v)
        size = card.infantry.hits if card.infantry else 1
        v.hits = min(size, v.hits + hits)
        if v.hits >= size:
            v.disabled = True

    def _suppress(self, v: Unit) -> None:
        v.sup_move, v.sup_fire = True, self.turn                                # BfOps p.8: 'Get Down!'

    def _end_turn(self) -> None:
        self.smoke = {}                       # placeholder reading: smoke lasts the rest of the sequence
        for u in self.units:
            if u.sup_fire and u.sup_fire < self.turn:
                u.sup_fire = 0        # BfOps p.8: its next fire opportunity has passed: the marker comes off
            u.idle = u.idle + 1 if u.moved <= 0 and not u.fired else 0          # BfOps p.8: grenades
        self.turn += 1
        if not self._over():
            self.begin_turn()


def _copy_unit(u: Unit) -> Unit:
    """A field-for-field copy of a unit (``dataclasses.replace`` without its per-field overhead)."""
    v = object.__new__(Unit)
    v.__dict__.update(u.__dict__)
    return v


def new_state(game, seed: int) -> BfopsState:
    units = [Unit(d["id"], d["card"], d["side"], d["element"].replace("/", ".").lower(), float(d["x"]),
                  float(d["y"]), float(d["facing"])) for d in game.setup_units]
    orders = {e.id: "advance" if e.id in game.rif else "hold" for e in game.elements}   # BfOps p.18: RIF
    state = BfopsState(game, Dice(seed, record=False), units, orders)
    state.begin_turn()
    return state
