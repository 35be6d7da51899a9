"""World at War sequence of play (WaW 3.0-4.4): the cup, formation impulses, the Marker Removal Phase and the
legal actions of an impulse.

A mixin of :class:`studio.rulesets.waw.engine.state.WawState` (the state record); methods read and write its
slots.
"""
from __future__ import annotations



from .actions import Action


class SequenceRules:
    __slots__ = ()

    # ------------------------------------------------------------------ turn flow
    def _new_cup(self) -> None:
        g = self.game
        cup = []
        for fi, f in enumerate(g.formations):
            entry = g.entry.get(fi)
            if entry is not None and entry[0] > self.turn:
                continue
            if fi in self.entered_f and not any(self.strength[u] < 2 and self.hex[u] is not None for u in f.units
                                                if not g.units[u].is_hq):
                continue
            cup += [("F", fi)] * (f.markers or (1 if f.kind == "mob" else 0))
        cup += [("E", 0)] * max(0, g.end_turn_markers - sum(self.held_marker))
        cup += [("C", 0)] * g.chaos_markers
        for k, (a, side) in enumerate(g.airstrikes):
            if a.from_turn <= self.turn and k not in self.air_out:
                cup.append(("A", k))
        if self.turn == 1:
            cup += [("J", side) for side in g.jammers]
        cup += [("V", side) for side in g.air_cover if ("used", side) not in self.cover]
        self.cup = cup
        self.et_drawn = 0
        self.activated = set()

    def _advance(self) -> None:
        """Draw markers until a player has a decision, or the game ends."""
        g = self.game
        while self.pending[0] == "none":
            if self._one_side_gone():
                self._finish("a side has no combat units left")
                return
            if not any(m[0] == "F" for m in self.cup):
                self._marker_removal()
                continue
            m = self.cup.pop(self.dice.randrange(len(self.cup)))
            if m[0] == "E":
                self.et_drawn += 1
                if self.et_drawn >= g.const("end_turn_draws"):   # 3.1: the second End Turn marker
                    self._marker_removal()
            elif m[0] == "C":
                self._chaos()
            elif m[0] == "A":
                self.pending = ("strike", m[1])
            elif m[0] == "J":
                self._jam(m[1])
            elif m[0] == "V":
                self.cover.add(m[1])           # 9.6: held for this turn
            else:
                fi = m[1]
                f = g.formations[fi]
                if not any(self.strength[u] < 2 for u in f.units if not g.units[u].is_hq):
                    continue
                self.pending = ("decide", fi)

    def _one_side_gone(self) -> bool:
        g = self.game
        for side in range(len(g.sides)):
            if not any(self.strength[u.idx] < 2 and not u.is_hq and (self.hex[u.idx] is not None or u.formation
                                                                         not in self.entered_f)
                       for u in g.units if u.side == side and u.idx != g.mob):
                return True
        return False

    def _finish(self, reason: str) -> None:
        self.pending = ("terminal",)
        self.reason = reason

    def _marker_removal(self) -> None:
        """WaW 3.2 (with 6.1.4, 8.2, 11.0 #8/#14, 1.3.3.3, 3.2.1); then the next turn, or the end."""
        g = self.game
        self._remove_markers()
        self._mrp_rolls()
        self._restore_hqs()
        self._hold_end_turn_markers()
        self.overrun_done = set()
        if self.turn >= g.max_turns:
            self._finish("turn limit reached")
            return
        self.turn += 1
        self._new_cup()

    def _remove_markers(self) -> None:
        """3.2: Ops Complete and OOC off, Depleted (6.1.4), Breakdown (Chaos 8) and Smoke (8.2) step down,
        Chemical (8.4) off, snipers ready again (1.3.8), unused Air Cover back to the cup (9.6)."""
        for i in range(len(self.game.units)):
            self.ops_complete[i] = False
            self.out_of_command[i] = False
            if self.depleted[i]:
                self.depleted[i] -= 1
            if self.breakdown[i]:
                self.breakdown[i] -= 1
            self.locked[i] = False
            self.heli_moves[i] = 0             # 6.1.3.1: the 12-hex count never outlives the turn
        self.smoke = {h: v - 1 for h, v in self.smoke.items() if v > 1}
        self.chem = set()
        for sn in self.snipers:
            if sn[2] == 1:
                sn[2] = 0
        self.cover = {c for c in self.cover if isinstance(c, tuple)}

    def _mrp_rolls(self) -> None:
        """10.0 (digest C59): an even roll advances Jammed -> Solving -> off; Chaos 14: the storm ends on 5-6,
        +1 per earlier roll."""
        g = self.game
        for fi in sorted(self.jammed):
            if self.dice.roll(6, "jammed") % 2 == 0:
                self.jammed[fi] += 1
                if self.jammed[fi] > g.const("jam_states"):
                    del self.jammed[fi]
        if self.thor:
            if self.dice.roll(6, "thor") + (self.thor - 1) * g.const("thor_end_step") >= g.const("thor_end_roll"):
                self.thor = 0
            else:
                self.thor += 1

    def _hold_end_turn_markers(self) -> None:
        """3.2.1: a side with formations not activated holds End Turn markers out of the next cup: one per side
        (digest C51), or one per formation (option c51)."""
        g = self.game
        for side in range(len(g.sides)):
            unact = {fi for fi, f in enumerate(g.formations) if f.side == side and fi not in self.activated
                     and fi in self.entered_f and f.markers > 0
                     and any(self.strength[u] < 2 for u in f.units if not g.units[u].is_hq)}
            self.held[side] = unact
            if g.option("c51_held_end_turn") == "per_formation":
                self.held_marker[side] = min(len(unact), g.end_turn_markers)
            else:
                self.held_marker[side] = min(1, len(unact), g.end_turn_markers)

    # ------------------------------------------------------------------ formation impulse (4.0)
    def _activate(self, fi: int) -> None:
        """4.0: formation ``fi`` starts an impulse: held End Turn marker (3.2.1), entry (13.0), housekeeping (4.1),
        command (4.2) and rally (4.3), and a Battle Drill second formation (Chaos 15)."""
        side = self.game.formations[fi].side
        self.activated.add(fi)
        self._release_held(fi)
        first = fi not in self.entered_f
        if first:
            self._enter(fi)
        self._housekeeping(fi, first)
        self.lead_used = set()
        self.calls = {}
        self.impulse_first = True
        self._command_and_rally(fi, first)
        self.comms = False
        self.pending = ("ops", fi)
        if ("drill", side) in self.hand:
            self._battle_drill(fi)

    def _release_held(self, fi: int) -> None:
        """3.2.1: activating a held formation returns its side's held End Turn marker to the cup (per side:
        when the last held formation goes; option c51 per formation: one each)."""
        g = self.game
        side = g.formations[fi].side
        if fi in self.held[side]:
            self.held[side].discard(fi)
            per_formation = g.option("c51_held_end_turn") == "per_formation"
            if self.held_marker[side] and (per_formation or not self.held[side]):
                self.held_marker[side] -= 1
                self.cup.append(("E", 0))

    def _housekeeping(self, fi: int, first: bool | None) -> None:
        """4.1: the formation's Ops Complete and OOC markers go, MP and per-impulse flags reset; the helicopter
        12-hex count resets per activation unless option c41 reads it per turn."""
        g = self.game
        per_activation = g.option("c41_heli_12_hexes") != "turn"
        for u in g.formations[fi].units:
            self.ops_complete[u] = self.out_of_command[u] = False
            self.mp_used[u] = 0.0
            self.mp_cap[u] = None
            self.mfired[u] = self.acted[u] = self.mode_changed[u] = self.one_hex[u] = False
            if per_activation:
                self.heli_moves[u] = 0
            if first is not None:
                self.fresh[u] = first

    def _command_and_rally(self, fi: int, first: bool) -> None:
        """9.0: helicopters are In Command and Undisrupted; other formations check command and rally."""
        f = self.game.formations[fi]
        if f.kind == "helicopter":
            for u in f.units:
                self.disr[u] = False
        else:
            self._command(fi, first)
            self._rally(fi)

    def _battle_drill(self, fi: int) -> None:
        """Chaos 15: a second formation acts with this one (choice automated: the largest not yet activated)."""
        g = self.game
        side = g.formations[fi].side
        others = [x for x, f2 in enumerate(g.formations) if f2.side == side and x != fi and x in self.entered_f
                  and x not in self.activated and any(self.strength[u] < 2 and self.hex[u] is not None
                                                      for u in f2.units)]
        if not others:
            return
        fi2 = max(others, key=lambda x: (len(g.formations[x].units), -x))
        self.hand.discard(("drill", side))
        self.activated.add(fi2)
        self.held[side].discard(fi2)
        self._housekeeping(fi2, None)
        self._command_and_rally(fi2, False)
        self.drill = fi2

    def _enter(self, fi: int) -> None:
        g = self.game
        f = g.formations[fi]
        _, hexes = g.entry[fi]
        load: dict = {}
        k = 0
        last = hexes[0]
        for u in f.units:
            if g.units[u].is_hq or g.units[u].is_heli:
                self.hex[u] = last
                continue
            while k < len(hexes) and load.get(hexes[k], 0) >= g.const("stack_limit"):
                k += 1
            h = hexes[min(k, len(hexes) - 1)]
            self.hex[u] = last = h
            load[h] = load.get(h, 0) + 1
        self.entered_f.add(fi)

    def _end_impulse(self, fi: int) -> None:
        g = self.game
        for f2 in (fi,) if self.drill is None else (fi, self.drill):
            for u in g.formations[f2].units:
                if self.mp_used[u] > 0 or self.acted[u]:
                    self.ops_complete[u] = True          # 5.0: a unit that moved is Ops Complete
        self.drill = None
        if g.option("c20_rendezvous_lock") == "impulse":
            self.locked = [False] * len(self.locked)   # 5.2.1 read as: until the end of the impulse
        self.pending = ("none",)

    def _after_act(self, u: int) -> None:
        self.acted[u] = True
        self.impulse_first = False

    # ------------------------------------------------------------------ operations: legal actions
    def _can_act(self, u: int) -> bool:
        g = self.game
        return (self.strength[u] < 2 and self.hex[u] is not None and not self.ops_complete[u]
                and not self.out_of_command[u]
                and not g.units[u].is_hq and self.carrier[u] < 0)

    def _ops_actions(self, fi: int) -> list[Action]:
        if self.drill is None:
            return self._ops_actions_one(fi)
        # Chaos 15 Battle Drill: both formations' units only move or use Moving Fire (HQ/recon calls: option c16)
        g = self.game
        calls = g.option("c16_battle_drill_artillery")
        out = []
        for f2 in (fi, self.drill):
            for a in self._ops_actions_one(f2):
                if a.kind == "move" or (a.kind == "call" and calls) or (
                        a.kind == "fire" and self.mp_used[g.by_uid[a.unit]] > 0 and not g.units[g.by_uid[a.unit]].is_heli):
                    out.append(a)
        out.append(Action("end"))
        return out

    def _ops_actions_one(self, fi: int) -> list[Action]:
        """The legal actions of formation ``fi``'s impulse (4.4), unit by unit, then the formation's extras."""
        out: list[Action] = []
        for u in self.game.formations[fi].units:
            out += self._unit_actions(u, fi)
        out += self._formation_actions(fi)
        out.append(Action("end"))
        return out

    def _unit_actions(self, u: int, fi: int) -> list[Action]:
        """What unit ``u`` may do now: an HQ calls artillery (8.0), a passenger unloads (5.2.2), a ready unit
        changes mode, pops up, calls (recon), moves, fires indirectly, fires, assaults, overruns or loads."""
        g = self.game
        spec = g.units[u]
        if spec.is_hq:
            return self._calls_listed(u, fi) if self.impulse_first or self.calls.get(u) else []
        if self.carrier[u] >= 0:
            return self._unload_actions(u)
        if not self._can_act(u):
            return []
        out = self._helicopter_actions(u)
        if spec.body.recon and (self.impulse_first or self.calls.get(u)):
            out += self._calls_listed(u, fi)
        if not self.mfired[u]:
            out += self._moves_listed(u)
        if self.mp_used[u] == 0 and not self.disr[u] and (spec.body.mortar or spec.cls == "on_map_artillery"):
            out += [Action("indirect", spec.uid, g.label[h]) for h in self._indirect_targets(u)]
        if not self.mfired[u]:
            out += self._combat_listed(u, fi)
        return out

    def _listed(self, table: str, u: int, compute, key=None) -> list[Action]:
        """``compute()`` for unit ``u``, kept in the listing cache's ``table`` (``moves``, ``fire``, ``close``,
        ``popup``, ``calls``) while nothing it depends on changed (engine/cache.py) and asked for the same
        ``key``; uncached when the cache is off."""
        lc = self._lc
        if lc is None or not lc.live:
            return compute()
        kept = getattr(lc, table)
        hit = lc.get(kept, u, self, key)
        return hit if hit is not None else lc.put(kept, u, compute(), key)

    def _moves_listed(self, u: int) -> list[Action]:
        """``u``'s move actions (cached, see ``_listed``)."""
        return self._listed("moves", u, lambda: [self.game.action_of(("move", u, h)) for h in self._move_targets(u)])

    def _calls_listed(self, u: int, fi: int) -> list[Action]:
        """``u``'s artillery calls (8.0), cached like fire for the calls made and the missions left."""
        return self._listed("calls", u, lambda: self._call_actions(u, fi),
                            (self._calls_made(u), tuple(self.missions)))

    def _combat_listed(self, u: int, fi: int) -> list[Action]:
        """``u``'s fire, then Assault, Overrun and load actions (each cached, see ``_listed``)."""
        return (self._listed("fire", u, lambda: self._fire_actions(u))
                + self._listed("close", u, lambda: self._close_actions(u, fi)))

    def _unload_actions(self, u: int) -> list[Action]:
        """5.2.2: a ready passenger unloads while its transport has used at most half its MP."""
        c = self.carrier[u]
        ready = not self.out_of_command[u] and not self.ops_complete[u] and self.strength[u] < 2
        if ready and self.mp_used[c] <= self._half(c) and not self.ops_complete[c]:
            return [Action("unload", self.game.units[u].uid)]
        return []

    def _helicopter_actions(self, u: int) -> list[Action]:
        """9.1 mode change (the first action, once), 9.2.1 Pop-Up attacks."""
        g = self.game
        spec = g.units[u]
        out: list[Action] = []
        if not spec.is_heli:
            return out
        if not self.acted[u] and not self.mode_changed[u] and self.mp_used[u] == 0:
            out.append(Action("mode", spec.uid))
        if not self.disr[u] and self.heli_moves[u] <= g.const("helicopter_fire_move_limit"):
            out += self._popups_listed(u)
        return out

    def _popups_listed(self, u: int) -> list[Action]:
        """``u``'s Pop-Up attacks (9.2.1), cached like fire (see ``_listed``)."""
        g = self.game
        uid = g.units[u].uid
        return self._listed("popup", u, lambda: [Action("popup", uid, g.units[t].uid, fp)
                                                 for t, fp in self._popup_targets(u)])

    def _fire_actions(self, u: int) -> list[Action]:
        """Fire at every legal target (6.1; Moving Fire 6.1.3 after moving), each fire type allowed."""
        g = self.game
        spec = g.units[u]
        mode = "moving" if self.mp_used[u] > 0 and not spec.is_heli else "normal"
        if mode == "moving" and not self._may_moving_fire(u):
            return []                          # 6.1.3: no fire type of the unit qualifies for Moving Fire
        action_of = g.action_of
        return [action_of(("fire", u, t, fp)) for t in self._within_reach(u, self._targets(u))
                for fp in self._fire_types(u, t, mode)]

    def _close_actions(self, u: int, fi: int) -> list[Action]:
        """Assault alone or with the stack's other ready unit (6.3), Overrun (6.4), loading (5.2.1)."""
        g = self.game
        uid, label = g.units[u].uid, g.label
        out = []
        side = g.units[u].side
        if not self._ground_enemy_near(self.hex[u], side):   # nothing to assault or overrun
            return [Action("load", uid, g.units[c].uid) for c in self._load_targets(u)]
        for h in self._assault_targets(u):
            out.append(Action("assault", uid, label[h]))
            mate = next((x for x in g.formations[fi].units if x > u and self.hex[x] == self.hex[u]
                         and self._can_act(x) and not self.mfired[x] and h in self._assault_targets(x)), None)
            if mate is not None:
                out.append(Action("assault", f"{uid}+{g.units[mate].uid}", label[h]))
        out += [Action("overrun", uid, label[h], label[x]) for h, x in self._overrun_targets(u)]
        out += [Action("load", uid, g.units[c].uid) for c in self._load_targets(u)]
        return out

    def _formation_actions(self, fi: int) -> list[Action]:
        """Snipers (1.3.8), Volley Fire (Chaos 12) and Air Cover against helicopters (9.6) of the formation."""
        g = self.game
        f = g.formations[fi]
        out: list[Action] = []
        for k, sn in enumerate(self.snipers):
            if sn[2] == 0 and sn[4] == g.roles[f.side] and (sn[1] < 0 or g.units[sn[1]].formation == fi):
                out += [Action("snipe", f"sniper{k + 1}", g.units[t].uid) for t in self._sniper_targets(k)]
        if ("volley", f.side) in self.hand:
            out += self._volley_actions(fi)
        if f.side in self.cover and g.air_cover_fp[0]:
            out += [Action("cover", g.units[t].uid) for t in self._targets(f.units[0]) if g.units[t].is_heli]
        return out
