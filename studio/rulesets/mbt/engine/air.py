"""Air Phases (MBT 6.4, 6.7): fixed-wing aircraft (``fixed_wing.py``) and helicopters (6.7.5-6.7.8). Aircraft get
no commands. In each Air Phase the First Player's side acts, then the Second's: its fixed-wing sorties first,
then its helicopters one at a time. A helicopter activation::

    fly HELI HEX [low]    NOE (default) or Low altitude (6.7.5.1): a hex its manoeuvres reach within that
                          altitude's allowance (halved when Damaged; ``heli_manoeuvre``: forward 1, reverse 2,
                          side slips, pylon and funnel turns, 6.7.5.2), no other flying helicopter at the same
                          altitude there; it ends facing the way of its cheapest manoeuvres and spends their cost;
                          its own hex is a hover
    face HELI DIR         another facing the flight reaches within the allowance (hovering: any), before it fires
    popup HELI            hovering at NOE: climb to Low for the attack (6.7.5.1.2, 6.7.6.1.5), back to NOE after
    rappel HELI P         at NOE a leg passenger rappels into the hex (6.7.5.3.4): the first costs half the
                          allowance (the helicopter stays hovering), then the Quickmarch check with the rappelling,
                          terrain and smoke modifiers (tables rappel-modifiers, rappel-terrain; option
                          rappel-modifiers); not into Woods, Heavy Woods, Water or a burning hex
    fire HELI at T ROW    its combat (6.7.6): each gun once and one other weapon (rockets or an ATGM), at ground
                          units it spots (AP, ATGM or GP rows as direct fire); ``hold`` ends the activation

Spotting: at NOE as a ground vehicle from its hex (LOS and spotting range, 6.7.6.1.1); at Low and popping up the
aircraft LOS of 6.7.3.1.3 plus spotting range (6.7.6.1.2). Rockets: at NOE at least 2 Heights above the target per
10 hexes of range (or part), minimum range 2; at Low minimum 6 (6.7.6.3); the rocket modifier +20 (6.7.3.8).
ATGMs (6.7.6.4): CL 3/4 only hovering; CL 1/2 while moving after at most half the allowance spent (manoeuvre
costs and rappelling), -4 (AP) / -15 (GP); in the 1st Air Phase, not popping up, the target may dodge
(5.1.3.3.4, ``atgm_dodge``).
After each activation the enemy's Overwatch AA units fire (``ow``, MBT 6.7.8): a hovering or popping-up helicopter
is tracked at once, a moving one when it flew at least the helicopter Track requirement (measured start to end);
no radar tracking at NOE. AA modifiers: card, Low +10, hovering +10 (not popping up), pop-up -30. Results:
Suppressed; Effective ending in 5 or 0 Damaged (allowance halved; a second damage eliminates); otherwise shot
down: a hovering helicopter crashes in its hex, a flying one roll (10) / 2 hexes ahead; GP 15 at every ground unit
there (6.7.8.2.2).

Landing (6.7.5.3): ``fly HELI HEX land`` at NOE into Brush, Clear, Crops or Scrub (table heli-landing-terrain)
with half the NOE allowance spent; a landed helicopter stays (``land`` in its hex) or takes off with half its NOE
allowance and flies on at NOE; while landed it unloads (``dismount HELI P``) or loads (``mount P HELI``), not both,
fires only S120 guns, counts as a vehicle for ground movement and is a ground target (6.7.9.2). Passengers ride
Under Armor, never bail out and are lost with the helicopter.

Simplified (``ENGINE_POLICIES['helicopters']``): a flight is its end hex and facing, reached by its cheapest
manoeuvres (a player's dearer path, e.g. MA58's slip and pylon for 8, is never charged), its combat and rappels
at the end hex (the text allows them at any point of the move); AA tracking counts the hexes from start to end;
a helicopter spots when it acts (a Spot counter's range benefit always counts: the phase-by-phase hand-off
limits of 6.7.6.1.1 are not tracked); no Hellfire designation or mast-mounted sight (no sample card has them);
helicopter cards carry no stabilization factor, so no gun takes a stabilization modifier (MA63's hovering rule
changes nothing); a landed helicopter takes the helicopter AA results (destroyed, leaving a wreck); ground units
fire at flying helicopters only with AA weapons.

Special combats (6.7.9): a landed helicopter is +2 Size for AP direct fire (``ap_target_size``); helicopters at NOE
or landed are attacked in GP indirect-fire SHEAFs and iron, high-drag and incendiary bomb patterns, landed ones
also by ICM and cluster bombs (``heli_in_pattern``), with the helicopter results."""
from __future__ import annotations

from studio.hexgrid.coords import FLAT_DIRECTION_NAMES as FACINGS, distance, neighbour

from .actions import Action
from .codes import DEAD, MOVE, ON, OW
from .fixed_wing import FW_VERBS, FixedWingRules
from .manpads import ManpadsRules
from .terrain_targets import TerrainTargetRules

HELI_SUPPRESSED, HELI_DAMAGED = "SUP", "DAMAGE"
#: helicopter weapons of which one is fired per combat, beside any guns (MBT 6.7.6: rockets or an ATGM)
OTHER_WEAPONS = ("rockets", "atgm")
#: AdvState slots of this chapter: fixed-wing state, helicopter altitude, hexes flown this activation, pop-up
AIR_SLOTS = ("fw", "heli_alt", "heli_path", "popup", "heli_xfer", "heli_shots", "heli_spent", "heli_turns",
             "heli_rappel")


def heli_type(card):
    """The engine record of a helicopter card (MBT 5.4.2): traction ``air``, the NOE allowance (``cc``), the Low
    allowance (``road``), its weapons; ``may observe`` helicopters are FOs (6.7.7)."""
    from .ag_data import AgDefense, ag_rows
    from .data import UnitType

    b = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
    gp = b["gp_defense"]
    noe, low = int(b["movement"]["noe"]), int(b["movement"]["low"])
    labels = tuple(b.get("labels") or ()) + (("fo",) if b.get("may_observe") and "fo" not in (b.get("labels") or ())
                                             else ())
    ag = AgDefense(int(gp["value"]), gp["target_type"], None, None, {}, False, False, labels=labels, heli=True,
                   capacity_leg=int((b.get("transport") or {}).get("leg", 0)), protection="under_armor")
    return UnitType(card.id, card.name, "air", noe, noe, low, 0, 0, 0, 0, bool(b.get("is_combat_unit", True)), False,
                    ag_rows(b), ag)


def heli_countermeasures(game, card_id: str) -> bool:
    """The helicopter card's Countermeasures notation (MBT 6.7.8.2.1, e.g. Mi-24V; cached on the game)."""
    cache = game.__dict__.setdefault("_heli_cm", {})
    if card_id not in cache:
        card = game.index.model("unit", card_id)
        cache[card_id] = bool(getattr(card.body, "countermeasures", False))
    return cache[card_id]


def weapon_kind(game, card_id: str, weapon: str) -> str:
    """The ``weapon_type`` of a card's weapon ('' when none; cached on the game)."""
    cache = game.__dict__.setdefault("_weapon_kinds", {})
    key = (card_id, weapon)
    if key not in cache:
        card = game.index.model("unit", card_id)
        body = card.body.model_dump() if hasattr(card.body, "model_dump") else card.body
        cache[key] = next((w.get("weapon_type") or "" for w in body.get("weapons") or () if w["id"] == weapon), "")
    return cache[key]


class AirRules(ManpadsRules, TerrainTargetRules, FixedWingRules):
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`. Per unit ``heli_alt`` (``noe``/``low``);
    ``popup`` the helicopter making a pop-up attack (-1 none); fixed-wing aircraft in ``fw``."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        from .fixed_wing import FwState

        n = self.game.n
        self.fw = FwState(self.game.aircraft)
        self.heli_alt, self.heli_path, self.popup, self.heli_xfer = ["noe"] * n, [0] * n, -1, [""] * n
        self.heli_shots: list[str] = []
        self.heli_spent, self.heli_rappel = [0] * n, [False] * n
        self.heli_turns: dict = {}  # the active helicopter's facings left -> allowance spent with it (6.7.5.2)

    def _copy(self, dice):
        o = super()._copy(dice)
        o.fw, o.heli_alt, o.heli_path, o.popup = self.fw.copy(), self.heli_alt[:], self.heli_path[:], self.popup
        o.heli_xfer, o.heli_shots = self.heli_xfer[:], self.heli_shots[:]
        o.heli_spent, o.heli_rappel, o.heli_turns = self.heli_spent[:], self.heli_rappel[:], dict(self.heli_turns)
        return o

    def fingerprint(self) -> str:
        return (f"{super().fingerprint()}|air[{self.fw.key()}]{self.heli_alt}{self.heli_path}{self.popup}"
                f"{self.heli_xfer}{self.heli_shots}{self.heli_spent}{self.heli_rappel}{sorted(self.heli_turns.items())}")

    def observe(self, player: int):
        view = super().observe(player)
        view.fw = self.fw_view(player)
        return view

    def scramble_hidden(self, player: int, seed: int):
        import random

        other = super().scramble_hidden(player, seed)
        other.fw = self.fw_scramble(player, random.Random(seed + 7))
        return other

    def _recover(self) -> None:
        """The Advanced Adjustment Phase also ends the aircraft's turn (Suppression, AA shots)."""
        super()._recover()
        self.fw_end_turn()

    def is_heli(self, i: int) -> bool:
        return self.game.units[i].type.ag.heli

    def _step_air(self) -> bool:
        """An Air Phase (MBT 6.4, 6.7): the First Player's aircraft, then the Second's; True when one acts. The AA
        Overwatch after a helicopter's activation runs to its end (both sides pass) before anything else."""
        while self._ow_active():
            if self._step_overwatch():
                return True
        if self._heli_dodge_pending():
            self.cp = self.game.units[self.dodge_q[2]].side
            return True
        if self.air_side == -1:
            self.air_side = self.first
            self.fw_phase_start()
        while self.air_side >= 0:
            if self.game.aircraft and self.fw_wants(self.air_side):
                return True
            if self.air_u >= 0 or self._air_ready(self.air_side):
                self.cp = self.air_side
                return True
            self.air_side = 1 - self.first if self.air_side == self.first else -2
        self.air_side, self.air_done = -1, []
        return False

    def _air_ready(self, side: int) -> list[int]:
        return [i for i in self.game.units_of(side) if self.st[i] == ON and self.is_heli(i) and
                i not in self.air_done]

    def heli_msa(self, i: int, alt: str) -> int:
        """The allowance at ``alt`` (MBT 6.7.5.1: NOE or Low), with the damage and suppression fractions (6.7.8.2.2:
        Damaged halves it)."""
        ut = self.game.units[i].type
        return self.msa(i, ut.road if alt == "low" else ut.cc)

    def air_actions(self) -> list[Action]:
        """Fixed-wing decisions first; then ``fly`` for each helicopter still to act; then the active one's
        attacks, ``popup`` (hovering at NOE) or ``hold``."""
        g = self.game
        if self._heli_dodge_pending():  # MBT 5.1.3.3.4: the target's owner answers a 1st Air Phase ATGM
            name = g.units[self.dodge_q[2]].name
            return [Action((v, name)) for v in self.dodge_q[4]] + [Action(("hold", name))]
        if g.aircraft and (self.fw.pending or self.fw.k >= 0 or self.cp == self.air_side and
                           not self.fw.done[self.cp] and self.fw_sorties(self.cp)):
            return self.fw_actions()
        if self.air_u >= 0:
            i = self.air_u
            out = [Action(("fire", g.units[i].name, g.units[t].name, row.key))
                   for t, row in self.fire_options(i, self._heli_spots(i)) if self._heli_may_fire(i, row)]
            if self.hover[i] and self.heli_alt[i] == "noe" and self.popup < 0:
                out.append(Action(("popup", g.units[i].name)))
            return out + self.heli_facings(i) + self.heli_transfers(i) + self.heli_rappels(i) + \
                [Action(("hold", g.units[i].name))]
        out = []
        for i in self._air_ready(self.air_side):
            out += self._heli_flights(i)
        return out

    def _heli_flights(self, i: int) -> list[Action]:
        """A flight to a hex the manoeuvres reach within the allowance of the announced altitude, no other flying
        helicopter at that altitude there (MBT 6.7.5.1, 6.7.5.2: ``heli_manoeuvre``); ``land`` at NOE with half
        the NOE allowance spent, in landing terrain (6.7.5.3.1); a landed helicopter stays landed (``land`` in its
        hex) or takes off with half its NOE allowance and flies at NOE (6.7.5.3.2)."""
        g = self.game
        name, here = g.units[i].name, self.hex[i]
        noe = self.heli_msa(i, "noe")
        if self.heli_alt[i] == "landed":
            out = [Action(("fly", name, g.label(here), "land"))]
            taken = self._heli_taken(i, "noe")
            return out + [Action(("fly", name, g.label(h))) for h in sorted(self._heli_reach(i, noe - noe // 2))
                          if h not in taken]
        out = []
        self._heli_reach(i, max(noe, self.heli_msa(i, "low")))  # one search answers the three allowances
        for alt in ("noe", "low"):
            taken = self._heli_taken(i, alt)
            hexes = self._heli_reach(i, noe if alt == "noe" else self.heli_msa(i, "low"))
            out += [Action(("fly", name, g.label(h)) + (("low",) if alt == "low" else ())) for h in sorted(hexes)
                    if h not in taken]
        land = g.air.landing
        out += [Action(("fly", name, g.label(h), "land")) for h in sorted(self._heli_reach(i, noe - noe // 2))
                if g.map.terrain.get(h, "") in land]
        return out

    def _heli_reach(self, i: int, budget: int) -> frozenset:
        """Hexes helicopter ``i`` may end a flight in from its hex and facing within ``budget`` (MBT 6.7.5.2)."""
        from .heli_manoeuvre import reachable

        return reachable(self.game, self.game.air.flight, self.hex[i], self.fac[i], max(0, budget))

    def _heli_facing_costs(self, i: int, h, budget: int) -> dict:
        from .heli_manoeuvre import facing_costs

        return facing_costs(self.game, self.game.air.flight, self.hex[i], self.fac[i], max(0, budget), h)

    def heli_facings(self, i: int) -> list[Action]:
        """``face HELI DIR``: another facing the flight reaches within the allowance, before the helicopter fires,
        pops up or rappels (MBT 6.7.5.2; hovering: any facing, 6.7.5.2.1)."""
        if self.heli_shots or self.popup == i or self.heli_rappel[i] or self.heli_alt[i] == "landed":
            return []
        name = self.game.units[i].name
        return [Action(("face", name, FACINGS[f])) for f in sorted(self.heli_turns) if f != self.fac[i]]

    def heli_rappels(self, i: int) -> list[Action]:
        """``rappel HELI P``: leg passengers (not towed units) leave a helicopter at NOE into its hex, not into the
        terrain of table rappel-terrain without a modifier; the first costs half the allowance, any number follow
        (MBT 6.7.5.3.4)."""
        g = self.game
        if self.heli_alt[i] != "noe" or self.popup == i or not self.passengers(i):
            return []
        msa = self.heli_msa(i, "noe")
        if not self.heli_rappel[i] and self.heli_spent[i] + msa // 2 > msa:
            return []
        h = self.hex[i]
        terrain = g.air.rappel_terrain
        code = g.map.terrain.get(h, "")
        if (code in terrain and terrain[code] is None) or h in (getattr(self, "burning", None) or ()):
            return []  # MBT 6.7.5.3.4: not into Fire, Water, Wire, Woods or Heavy Woods
        name = g.units[i].name
        return [Action(("rappel", name, g.units[p].name)) for p in self.passengers(i)
                if g.units[p].type.ag.leg and not self.is_towed(p)]

    def _heli_rappel(self, i: int, p: int) -> None:
        """A leg passenger rappels into the helicopter's hex and takes the Quickmarch Suppression check with the
        rappelling, terrain and smoke modifiers (MBT 6.7.5.3.4); the helicopter stays hovering if it was."""
        from .opt_move_data import move_opt

        g = self.game
        if not self.heli_rappel[i]:
            self.heli_spent[i] += self.heli_msa(i, "noe") // 2
            self.heli_rappel[i] = True
        self._unload(p, i, suppressed=False)
        self._into_minefield(p)
        h = self.hex[i]
        mods = g.air.rappel_mod
        net = mods["rappelling"] + (g.air.rappel_terrain.get(g.map.terrain.get(h, "")) or 0)
        if self.wreck.get(h) == 2 or any(h in c.hexes for c in self.live_clouds("smoke", p)):
            net += mods["smoke"]  # Smoke, Brew Up smoke or DS in the hex
        top = move_opt(g).qm_supp[self.unit_grade(p)]
        roll = self.dice.roll(100, f"Rappel {g.units[p].name}")
        if g.options["rappel-modifiers"] == "range":
            hit, text = roll <= top + net, f"roll {roll} vs 01-{top + net}"
        else:
            hit, text = roll + net <= top, f"roll {roll}{net:+d} = {roll + net} vs 01-{top}"
        self.narrate(f"{g.units[p].name} rappels from {g.units[i].name} into {g.label(h)}: Suppression check {text}"
                     f"{': Suppressed' if hit else ''}")
        if hit and self.st[p] == ON:
            self.suppress(p, "rappelling")

    def _heli_taken(self, i: int, alt: str) -> set:
        g = self.game
        return {self.hex[j] for j in range(g.n) if j != i and self.st[j] == ON and self.is_heli(j) and
                self.heli_alt[j] == alt}

    def heli_transfers(self, i: int) -> list[Action]:
        """A landed helicopter either unloads (``dismount HELI P``) or loads (``mount P HELI``: a friendly leg unit
        in its hex with a Move command that has not moved, room left) in an Air Phase, not both, at no cost
        (MBT 6.7.5.3.3)."""
        g = self.game
        if self.heli_alt[i] != "landed":
            return []
        name = g.units[i].name
        out = []
        if self.heli_xfer[i] != "mount":
            out += [Action(("dismount", name, g.units[p].name)) for p in self.passengers(i)]
        if self.heli_xfer[i] != "dismount":
            out += [Action(("mount", g.units[p].name, name)) for p in g.units_of(g.units[i].side)
                    if self.st[p] == ON and self.hex[p] == self.hex[i] and g.units[p].type.ag.leg and
                    self.cmd[p] == MOVE and not self.moved[p] and self.room(i) >= g.units[p].type.ag.passenger_leg > 0]
        return out

    def _heli_spots(self, i: int) -> tuple:
        """Ground units the helicopter spots now: at NOE as vehicles (LOS and spotting range, 6.7.6.1.1); at Low
        or popping up by the aircraft LOS (6.7.3.1.3) and spotting range (6.7.6.1.2)."""
        g = self.game
        side, h = g.units[i].side, self.hex[i]
        low = self.heli_alt[i] == "low" or self.popup == i
        return tuple(t for t in g.enemies_of(side) if self.st[t] == ON and not self.is_heli(t) and
                     distance(h, self.hex[t]) <= self.spot_range(t) and
                     (self.air_los("low", self.hex[t]) if low else self.sight_clear(i, t)))  # 7.10 INB

    def apply_air(self, action) -> None:
        g = self.game
        if self._heli_dodge_pending():
            self._heli_dodge_answer(action)
            return
        if g.aircraft and (action[0] in FW_VERBS or self.fw.pending or
                           (action[0] == "pass" and self.air_u < 0)):
            self.apply_fw(action)
            return
        if action[0] in ("dismount", "mount"):
            self._heli_transfer(action)
            return
        i = g.uindex[action[1]]
        if action[0] == "fly":
            self._heli_fly(i, g.map.hex(action[2]), action[3] if len(action) > 3 else "noe")
            return
        if action[0] == "face":  # MBT 6.7.5.2: another facing the flight reaches
            self.fac[i] = FACINGS.index(action[2])
            self.heli_spent[i] = self.heli_turns[self.fac[i]]
            self.narrate(f"helicopter {g.units[i].name} ends its flight facing {action[2]}")
            return
        if action[0] == "rappel":
            self._heli_rappel(i, g.uindex[action[2]])
            return
        if action[0] == "popup":  # MBT 6.7.5.1.2: climb to Low for the attack
            self.popup = i
            self.narrate(f"helicopter {g.units[i].name} pops up to Low altitude at {g.label(self.hex[i])}")
            return
        if action[0] == "fire" and self._heli_fire(i, g.uindex[action[2]], action[3]):
            return
        self._heli_end(i)

    def _heli_end(self, i: int) -> None:
        """The end of a helicopter's activation: the enemy's AA may fire at it (MBT 6.7.8)."""
        self.air_u = -1
        if self.heli_alt[i] != "landed" and self.st[i] == ON:
            self._open_ow(1 - self.game.units[i].side, [i], "air")  # AA fire at the flying helicopter

    def _heli_fly(self, i: int, h, mode: str) -> None:
        """The flight of an activation (``mode`` noe, low or land), taking its passengers along. It ends with the
        facing of its cheapest manoeuvres (the current one on a tie); ``face`` picks another one the allowance
        reaches (MBT 6.7.5.2); a hovering helicopter turns freely (6.7.5.2.1)."""
        g = self.game
        landed = self.heli_alt[i] == "landed"
        noe = self.heli_msa(i, "noe")
        hover = h == self.hex[i] and not landed and mode != "land"
        if landed and mode == "land":
            turns = {self.fac[i]: 0}  # stays landed
        elif hover:
            turns = {f: 0 for f in range(6)}
        else:  # take-off (6.7.5.3.2) and landing (6.7.5.3.1) each cost half the NOE allowance
            base = noe // 2 if landed or mode == "land" else 0
            budget = self.heli_msa(i, "low") if mode == "low" else noe
            turns = {f: c + base for f, c in self._heli_facing_costs(i, h, budget - base).items()}
        self.heli_alt[i] = "landed" if mode == "land" else mode
        self.hover[i] = hover
        self.heli_path[i] = distance(h, self.hex[i])
        self.hex[i] = h
        self.fac[i] = min(turns, key=lambda f: (turns[f], f != self.fac[i], f))
        self.heli_spent[i], self.heli_rappel[i] = turns[self.fac[i]], False
        self.heli_turns = turns
        self._carry(i)
        self.heli_xfer[i], self.heli_shots = "", []
        self.air_u = i
        self.air_done.append(i)
        if mode == "land" and not landed:
            self.narrate(f"helicopter {g.units[i].name} lands in {g.label(h)}")
            if self.mines:
                self.mine_attack(i)  # MBT 7.31.2.3: mines attack landed helicopters (Optional Rule 7.31)
        elif landed and mode != "land":
            self.narrate(f"helicopter {g.units[i].name} takes off")

    def _heli_fire(self, i: int, t: int, key: str) -> bool:
        """One weapon of the helicopter's combat; True while the combat may go on (MBT 6.7.6). An ATGM announced in
        the 1st Air Phase, not in a pop-up attack, may be dodged first (MBT 5.1.3.3.4: ``atgm_dodge``)."""
        g = self.game
        row = next(r for r in g.units[i].type.ap if r.key == key)
        steps = self.dodge_steps(i, t, row) if row.kind == "ATGM" else []
        if steps:
            self.dodge_q = ("air", i, t, row.key, tuple(steps))
            return True
        return self._heli_shot(i, t, row)

    def _heli_dodge_pending(self) -> bool:
        return self.dodge_q is not None and self.dodge_q[0] == "air"

    def _heli_dodge_answer(self, action) -> None:
        """``hold``: the ATGM resolves; a dodge step: an automatic miss (a missile spent), the target committed to
        the step in its move (MBT 5.1.3.3.4)."""
        g = self.game
        _, i, t, key, _ = self.dodge_q
        self.dodge_q = None
        row = next(r for r in g.units[i].type.ap if r.key == key)
        if action[0] == "hold":
            going = self._heli_shot(i, t, row)
        else:
            self.heli_shots.append(row.weapon)
            self.fired[i] = True
            self.dodge_miss(i, t, row, action[0], f"helicopter {g.units[i].name}")   # atgm_dodge
            going = any(self._heli_may_fire(i, r) for r in g.units[i].type.ap)
        self.cp = g.units[i].side
        if not going:
            self._heli_end(i)

    def _heli_shot(self, i: int, t: int, row) -> bool:
        g = self.game
        self.narrate(f"helicopter {g.units[i].name} attacks {g.units[t].name} from {g.label(self.hex[i])}"
                     f"{' (hovering)' if self.hover[i] and self.popup != i else ''}"
                     f"{' (pop-up)' if self.popup == i else ''}")
        self.heli_shots.append(row.weapon)
        self._shoot(i, t, row, overwatch=False)
        return self.st[i] == ON and any(self._heli_may_fire(i, r) for r in g.units[i].type.ap)

    def _heli_may_fire(self, i: int, row) -> bool:
        """One combat per Air Phase (MBT 6.7.6): each gun once, and one other weapon (a rocket salvo or an ATGM)."""
        if row.weapon in self.heli_shots:
            return False
        g = self.game
        if weapon_kind(g, g.units[i].type.id, row.weapon) in OTHER_WEAPONS:
            return not any(weapon_kind(g, g.units[i].type.id, w) in OTHER_WEAPONS for w in self.heli_shots)
        return True

    def _heli_transfer(self, action) -> None:
        """MBT 6.7.5.3.3: unload or load at a landed helicopter (no allowance spent)."""
        g = self.game
        if action[0] == "dismount":
            c, p = g.uindex[action[1]], g.uindex[action[2]]
            self._unload(p, c, suppressed=False)
            self._into_minefield(p)
        else:
            p, c = g.uindex[action[1]], g.uindex[action[2]]
            self._mount(p, c)
        self.heli_xfer[c] = action[0]
        self.narrate(f"{g.units[p].name} {action[0]}s {'from' if action[0] == 'dismount' else ''} {g.units[c].name}"
                     f" in {g.label(self.hex[c])}".replace("  ", " "))

    def gp_fire(self, s: int, t: int, row, overwatch: bool) -> None:
        """GP fire; at a helicopter the AA shot is remembered for spoofing (MBT 6.7.8.2.1)."""
        if not self.is_heli(t):
            super().gp_fire(s, t, row, overwatch)
            return
        self.fw.aa_shot = (s, row.key)
        try:
            super().gp_fire(s, t, row, overwatch)
        finally:
            self.fw.aa_shot = None

    def _heli_spoofed(self, t: int) -> bool:
        """A helicopter with Countermeasures spoofs an Effective result of a SAM with a CM rating or of a
        radar-tracked gun (radar cannot track at NOE, MBT 6.7.8.1.1, 6.7.8.2.1)."""
        g = self.game
        if self.fw.aa_shot is None or not heli_countermeasures(g, g.units[t].type.id):
            return False
        s, key = self.fw.aa_shot
        row = next(r for r in g.units[s].type.ap if r.key == key)
        radar = self.heli_alt[t] == "low" or self.popup == t
        return self.spoof_roll(s, row, g.units[t].name, radar)

    def heli_result(self, t: int, x: int, effect: str, why: str = "AA fire") -> str:
        """AA results against a helicopter (MBT 6.7.8.2.2): Suppressed; Effective ending in 5 or 0 Damaged (a second
        damage eliminates), otherwise shot down and crashing; Countermeasures may spoof an Effective result. ``why``
        names the attack in the Suppression narration (AA fire, an air attack, indirect fire: 6.7.9.1)."""
        if effect == "E" and self._heli_spoofed(t):
            effect = "N"
        if effect == "N":
            return "no effect"
        if effect == "S":
            self.suppress(t, why)
            return "Suppressed"
        if x % 10 in (0, 5) and not self.dmg[t]:
            self.dmg[t] = True
            return "Damaged"
        self._heli_passengers_die(t)
        if self.heli_alt[t] == "landed":  # MBT 6.7.9.2: a landed helicopter is destroyed where it stands
            self._eliminate(t, brew=False)
            return "destroyed"
        self.st[t] = DEAD
        self.lost[self.game.units[t].side] += 1
        self._heli_crash(t)
        return "shot down"

    def _heli_passengers_die(self, c: int) -> None:
        """Helicopter passengers never bail out; they are eliminated with their helicopter (MBT 6.7.5.3.5)."""
        for p in self.passengers(c):
            self.lose_aboard(p)
            self.narrate(f"{self.game.units[p].name} is lost with {self.game.units[c].name}")

    def passengers_bail(self, c: int, result: str) -> None:
        """A helicopter's passengers stay aboard whatever the result, and die on KO or BU (MBT 6.7.5.3.5)."""
        if not self.is_heli(c):
            super().passengers_bail(c, result)
        elif result in ("KO", "BU"):
            self._heli_passengers_die(c)

    def _heli_crash(self, t: int) -> None:
        """A hovering helicopter crashes in its hex, a flying one roll (10) / 2 hexes ahead (MBT 6.7.8.2.2)."""
        g = self.game
        h = self.hex[t]
        if not self.hover[t]:
            n = self.dice.roll(10, f"crash {g.units[t].name}") // g.air.values["crash-low-divisor"]
            for _ in range(n):
                h = neighbour(h, self.fac[t])
        if self.popup == t:
            self.popup = -1
        self.air_crash(h, f"{g.units[t].name} crash")

    def weapon_ok(self, s: int, t: int, row) -> bool:
        """Only AA weapons fire at helicopters (MBT 6.7.8, 6.7.9: not landed); AA units inside buildings or
        Improved Positions do not (6.7.8.1.1); a moving helicopter must be tracked. Helicopter rockets: minimum range
        and height (6.7.6.3)."""
        if self.is_heli(t) and self.heli_alt[t] != "landed":
            if not row.aa or self.aa_sheltered(s) or not self._heli_tracked(s, t, row):
                return False
        elif self.is_heli(s):
            if self.heli_alt[s] == "landed" and row.arc != 120:
                return False  # MBT 6.7.6.2: only S120 guns fire while landed
            if row.kind == "ATGM" and self._heli_moving(s) and \
                    (row.atgm.cl >= 3 or self.heli_spent[s] > self.heli_msa(s, self.heli_alt[s]) // 2):
                return False  # MBT 6.7.6.4: CL 3/4 only hovering; CL 1/2 after at most half the allowance
            if weapon_kind(self.game, self.game.units[s].type.id, row.weapon) == "rockets" and \
                    not self._rocket_ok(s, t):
                return False
        return super().weapon_ok(s, t, row)

    def ap_target_size(self, t: int) -> int:
        """A landed helicopter is +2 Size for AP Direct Fire (MBT 6.7.9.2, air-values landed-heli-size)."""
        size = super().ap_target_size(t)
        if self.is_heli(t) and self.heli_alt[t] == "landed":
            size += self.game.air.values["landed-heli-size"]
        return size

    def heli_in_pattern(self, u: int, kind: str) -> bool:
        """Is helicopter ``u`` attacked in a pattern of ``kind`` (MBT 6.7.9.1): at NOE or landed by GP indirect
        fire and iron, high-drag and incendiary bombs; landed only by ICM and cluster bombs; never at Low, nor by
        strafing, rockets or other loads."""
        alt = self.heli_alt[u]
        if kind in ("GP", "bomb", "high_drag_bomb", "incendiary_bomb"):
            return alt in ("noe", "landed")
        return kind in ("ICM", "cluster_bomb") and alt == "landed"

    def _heli_moving(self, s: int) -> bool:
        return self.heli_alt[s] != "landed" and not self.hover[s] and self.popup != s

    def hit_modifiers(self, s: int, t: int, row, overwatch: bool) -> tuple:
        """A CL 1/2 ATGM fired by a moving helicopter: -4 (MBT 6.7.6.4, air-values heli-atgm-moving-ap); a gun with
        an SB factor fired by a moving (not hovering, not landed) helicopter: the Short Halt SB modifier (6.7.6.2,
        MA63)."""
        net, band = super().hit_modifiers(s, t, row, overwatch)
        if self.is_heli(s) and self._heli_moving(s):
            lo, hi = self.game.tables.ap_clamp
            if row.kind == "ATGM":
                net = max(lo, min(hi, net + self.game.air.values["heli-atgm-moving-ap"]))
            elif self._heli_gun_sb(s, row) is not None:
                net = max(lo, min(hi, net + self.game.tables.ap_mod[f"short-halt-sb{row.sb}"]))
        return net, band

    def _heli_gun_sb(self, s: int, row) -> int | None:
        """The SB factor of helicopter ``s``'s gun row (not rockets or ATGMs, MBT 6.7.6.2), None if not listed."""
        if row.sb is None or row.kind == "ATGM" or weapon_kind(self.game, self.game.units[s].type.id, row.weapon) == \
                "rockets":
            return None
        return row.sb

    def _rocket_ok(self, s: int, t: int) -> bool:
        g = self.game
        v = g.air.values
        r = distance(self.hex[s], self.hex[t])
        if self.heli_alt[s] == "low" or self.popup == s:
            return r >= v["heli-rocket-min-low"]
        need = v["heli-rocket-height-per-10"] * -(-r // 10)
        return r >= v["heli-rocket-min-noe"] and self.heli_height(s) - g.los.unit_height(self.hex[t]) >= need

    def heli_height(self, i: int) -> int:
        """Height of a helicopter at NOE: its hex's level plus the highest terrain there plus 2 (MBT 6.7.5.1: over
        Scrub 2, over Woods 5)."""
        g = self.game
        h = self.hex[i]
        return g.elev.get(h, 0) + max(0, g.los.terrain_top.get(h, 0)) + g.air.values["heli-noe-height"]

    def _heli_tracked(self, s: int, t: int, row) -> bool:
        """MBT 6.7.8.1.1: hovering (and popping-up) helicopters are tracked at once; a moving one after the
        helicopter Track requirement of flight (radar cannot track at NOE); Suppressed doubles it."""
        if self.hover[t] or self.popup == t:
            return True
        from .air_data import row_profile

        g = self.game
        req = g.air.spotting[("helicopter", "noe-low")][1]
        p = row_profile(g, s, row)
        if p.radar and g.options["aa-radar-state"] == "active" and not p.limited and self.heli_alt[t] == "low":
            req = max(g.air.values["radar-track-min"], req // 2)
        if p.sam is not None:
            req = req * 2 // (2 if p.sam[1] == "radar" else 1)
        return self.heli_path[t] >= req * (2 if self.sup[s] else 1)

    def gp_modifiers(self, s: int, t: int, row, band: str, overwatch: bool) -> int:
        """Air modifiers on top of the GP Fire modifiers (MBT 6.7.3.8, 6.7.8.2): helicopter rockets +20; AA at a
        Low helicopter +10, at a pop-up attack -30 (instead of hovering +10)."""
        g = self.game
        net = super().gp_modifiers(s, t, row, band, overwatch)
        if self.is_heli(t):
            m = g.air.aa_mod
            if self.popup == t:
                net += m["pop-up"] + m["low-altitude"] - (m["hovering"] if self.hover[t] else 0)
            elif self.heli_alt[t] == "low":
                net += m["low-altitude"]
        elif self.is_heli(s) and weapon_kind(g, g.units[s].type.id, row.weapon) == "rockets":
            net += g.air.fw_mod["rocket"]
        elif self.is_heli(s) and row.kind == "ATGM" and self._heli_moving(s):
            net += g.air.values["heli-atgm-moving-gp"]  # MBT 6.7.6.4: -15 (GP) firing while moving
        elif self.is_heli(s) and self._heli_moving(s) and self._heli_gun_sb(s, row) is not None:
            net += g.ag.gp_mod[f"short-halt-sb{row.sb}"]  # MBT 6.7.6.2, MA63: not while hovering
        return net

    def _ow_shots(self, side: int) -> list:
        """AA Overwatch shots at a helicopter (MBT 6.7.8.1): 360 degree tracking LOS, at Low or popping up the
        aircraft LOS reversed (6.7.3.1.3), at NOE the ground LOS; range, field of fire and tracking by
        ``weapon_ok``. Other Overwatch as in the Basic Game."""
        if self.ow_ctx != "air":
            return super()._ow_shots(side)
        g = self.game
        out = []
        for t in self.ow_trig:
            if self.st[t] != ON or g.units[t].side == side:
                continue
            low = self.heli_alt[t] == "low" or self.popup == t
            for s in self._ow_shooters(side):
                if not (self.air_los("low", self.hex[s]) if low else g.los.clear(self.hex[s], self.hex[t])):
                    continue
                out += [(s, t, row) for row in g.units[s].type.ap if self.weapon_ok(s, t, row)]
        return out

    def _ow_pass(self) -> None:
        """The pop-up attack ends with the AA fire after it: back to NOE (MBT 6.7.5.1.2)."""
        super()._ow_pass()
        if not self._ow_active() and self.popup >= 0:
            self.heli_alt[self.popup] = "noe"
            self.popup = -1

    def fire_options(self, s: int, targets, df: bool = True) -> list:
        """AA fire at helicopters is Overwatch fire only (MBT 6.7.8): no helicopter targets for Fire/SH."""
        out = super().fire_options(s, targets, df)
        if not df or self.air_u == s:
            return out
        return [(t, row) for t, row in out if not self.is_heli(t) or self.heli_alt[t] == "landed"]

    def _needs_cmd(self, i: int) -> bool:
        """Aircraft get no commands (MBT 6.7)."""
        return not self.is_heli(i) and super()._needs_cmd(i)

    def _enemy_hexes(self, side: int) -> set:
        """Flying helicopters do not stop ground movement; landed ones count as vehicles (MBT 6.7.5.3.1)."""
        st, hexes, g = self.st, self.hex, self.game
        return {hexes[j] for j in g.enemies_of(side) if st[j] == ON and
                (not g.units[j].type.ag.heli or self.heli_alt[j] == "landed")}

    def enemies_in(self, h, side: int) -> bool:
        return h in self._enemy_hexes(side)


__all__ = ["AirRules", "AIR_SLOTS", "heli_type", "weapon_kind", "OW"]
