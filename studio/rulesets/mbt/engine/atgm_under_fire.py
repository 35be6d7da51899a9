"""ATGM Overwatch Response and Under Fire (MBT 5.1.3.3.5-5.1.3.3.6), Advanced Game; mixed into
:class:`~.advanced.AdvState` through :class:`~.atgm_dodge.AtgmDodgeRules` (slots ``under_fire``, ``ow_resp``).

Under Fire (5.1.3.3.6): an unsuppressed unit that may still have ATGM fire to resolve this turn (an ATGM row, a
Fire, Short Halt or Overwatch command, not fired yet) and is the target of GP direct or indirect fire that could
suppress it but has no effect is Under Fire (a fire that cannot suppress it, e.g. small arms against an A-Type
beyond Short range, marks nothing). Its next ATGM shot takes the AP modifier of its guidance class (table
``atgm-under-fire``: CL 1 -1, CL 2 and 3 -2, CL 4 -3); the counter goes after that ATGM shot, after a shot of
another weapon (no modifier), and in the Adjustment Phase (6.8.6).

Overwatch Response (5.1.3.3.5): before an Overwatch ATGM shot resolves, each enemy unit with an unrevealed
Overwatch command that can fire at the ATGM unit with a non-ATGM weapon inside its Overwatch arc (no Overwatch
Adjust) may fire first, whatever the First/Second Player order: ``ow R at ATGM-UNIT ROW`` or ``pass`` (then the
ATGM shot resolves, after the results: a Suppressed firer takes its -5, a destroyed one fires nothing, a GP fire
with no effect puts it Under Fire).

Not modelled: the GP Under Fire modifiers (ATGMs fire AP only here: their GP factor against leg units is not
played)."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .actions import PASS, Action
from .codes import FIRE, ON, OW, SH

UNDER_FIRE_SLOTS = ("under_fire", "ow_resp")


def has_atgm(game, i: int) -> bool:
    """Does unit ``i`` have an ATGM row (cached on the game)?"""
    cache = game.__dict__.setdefault("_has_atgm", {})
    tid = game.units[i].type.id
    if tid not in cache:
        cache[tid] = any(r.kind == "ATGM" for r in game.units[i].type.ap)
    return cache[tid]


class UnderFireRules:
    """MBT 5.1.3.3.5-5.1.3.3.6. ``under_fire``: units marked Under Fire; ``ow_resp``: the Overwatch ATGM shot
    waiting for the enemy's responses, ``(firer, target, row key)``, or None."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.under_fire, self.ow_resp = frozenset(), None

    def _copy(self, dice):
        o = super()._copy(dice)
        o.under_fire, o.ow_resp = self.under_fire, self.ow_resp
        return o

    def fingerprint(self) -> str:
        base = super().fingerprint()
        if not self.under_fire and self.ow_resp is None:
            return base
        return f"{base}|uf{sorted(self.under_fire)}{self.ow_resp}"

    # ---------------------------------------------------------------- Under Fire (MBT 5.1.3.3.6)
    def _may_fire_atgm(self, t: int) -> bool:
        return self.st[t] == ON and not self.sup[t] and not self.fired[t] and self.cmd[t] in (FIRE, SH, OW) and \
            has_atgm(self.game, t)

    def _snapshot(self, t: int) -> tuple:
        return self.st[t], self.sup[t], self.dmg[t], self.tdmg[t], self.track[t], self.red[t]

    def _could_suppress(self, s: int, t: int, row, band: str) -> bool:
        """Could this GP fire suppress ``t`` at all? Small arms suppress an A- or P-Type only in some range bands
        (MBT 6.5.4.4.2); everything else can."""
        from .gp_fire import SMALL_ARMS

        ag = self.game.units[t].type.ag
        if not row.small_arms or ag.leg or ag.heli or ag.target_type not in SMALL_ARMS:
            return True
        sup_s, sup_e, dmg_e = SMALL_ARMS[ag.target_type]
        return band in sup_s or band in sup_e or band in dmg_e

    def _mark_under_fire(self, s: int, t: int, row, band: str | None, before: tuple) -> None:
        if band is None or before != self._snapshot(t) or not self._could_suppress(s, t, row, band):
            return
        self.under_fire = self.under_fire | {t}
        self.narrate(f"{self.game.units[t].name} is Under Fire (MBT 5.1.3.3.6)")

    def gp_fire(self, s: int, t: int, row, overwatch: bool) -> None:
        """GP direct fire with no effect at a unit that may still fire an ATGM marks it Under Fire."""
        if not self._may_fire_atgm(t) or t in self.under_fire:
            super().gp_fire(s, t, row, overwatch)
            return
        before = self._snapshot(t)
        super().gp_fire(s, t, row, overwatch)
        self._mark_under_fire(s, t, row, self.gp_factor(row, distance(self.hex[s], self.hex[t]))[0], before)

    def _if_attack(self, s: int, t: int, row, band: str, factor: int, fire, tp) -> None:
        """GP indirect fire with no effect marks an ATGM unit Under Fire too (not ICM: no GP fire)."""
        if not self._may_fire_atgm(t) or t in self.under_fire or fire.mission != "GP":
            super()._if_attack(s, t, row, band, factor, fire, tp)
            return
        before = self._snapshot(t)
        super()._if_attack(s, t, row, band, factor, fire, tp)
        self._mark_under_fire(s, t, row, band, before)

    def _shoot(self, s: int, t: int, row, overwatch: bool) -> None:
        """An Under Fire unit's ATGM shot takes the modifier, then the counter goes; another weapon's shot removes
        it without a modifier (MBT 5.1.3.3.6)."""
        if s in self.under_fire and row.kind != "ATGM":
            self.under_fire = self.under_fire - {s}
        super()._shoot(s, t, row, overwatch)
        if s in self.under_fire and row.kind == "ATGM":
            self.under_fire = self.under_fire - {s}

    def hit_modifiers(self, s: int, t: int, row, overwatch: bool) -> tuple:
        """The Under Fire AP modifier of an ATGM shot by guidance class (table atgm-under-fire)."""
        net, band = super().hit_modifiers(s, t, row, overwatch)
        if s in self.under_fire and row.kind == "ATGM" and row.atgm is not None:
            lo, hi = self.game.tables.ap_clamp
            net = max(lo, min(hi, net + self.game.air.under_fire[row.atgm.cl]))
        return net, band

    def _recover(self) -> None:
        """Under Fire counters are removed in the Adjustment Phase (MBT 6.8.6)."""
        super()._recover()
        self.under_fire = frozenset()

    # ---------------------------------------------------------------- Overwatch Response (MBT 5.1.3.3.5)
    def _responders(self, s: int) -> list:
        """(unit, row) of the enemy Overwatch shots at the ATGM unit ``s`` that come first: an unrevealed, unused
        Overwatch command, a non-ATGM row inside the Overwatch arc, ``s`` spotted (range and LOS)."""
        g = self.game
        side = g.units[s].side
        if self.st[s] != ON:
            return []
        out = []
        rng = self.spot_range(s)
        for r in self._ow_shooters(1 - side):
            if self.rev[r] or distance(self.hex[r], self.hex[s]) > rng or \
                    not g.los.clear(self.hex[r], self.hex[s]):
                continue
            out += [(r, row) for row in g.units[r].type.ap
                    if row.kind != "ATGM" and self.weapon_ok(r, s, row) and self.ow_inside(r, s, row)]
        return out

    def legal_actions(self) -> list:
        if self.ow_resp is None:
            return super().legal_actions()
        g = self.game
        s = self.ow_resp[0]
        return [PASS] + [Action(("ow", g.units[r].name, g.units[s].name, row.key)) for r, row in self._responders(s)]

    def apply(self, action) -> None:
        if self.ow_resp is not None:
            self._apply_response(action)
            return
        if action[0] == "ow" and len(action) == 4 and self._ow_active() and self._offer_response(action):
            return
        super().apply(action)

    def _offer_response(self, action) -> bool:
        """An Overwatch ATGM shot: the enemy's responders fire first (MBT 5.1.3.3.5)."""
        g = self.game
        s, t = g.uindex.get(action[1], -1), g.uindex.get(action[2], -1)
        if s < 0 or t < 0:
            return False
        row = next((r for r in g.units[s].type.ap if r.key == action[3]), None)
        if row is None or row.kind != "ATGM" or not self._responders(s) or action not in self.legal_actions():
            return False
        self.history += 1
        self.ow_resp = (s, t, row.key)
        self.cp = 1 - g.units[s].side
        self.narrate(f"{g.units[s].name} fires its {row.ammo} on Overwatch: {g.units[t].name}'s side may fire at it "
                     "first (MBT 5.1.3.3.5)")
        return True

    def _apply_response(self, action) -> None:
        """A responder's shot (it has used its Overwatch), then more responses; ``pass``: the ATGM shot resolves
        if its firer is still there."""
        g = self.game
        s, t, key = self.ow_resp
        self.history += 1
        if action[0] == "ow":
            r = g.uindex[action[1]]
            row = next(x for x in g.units[r].type.ap if x.key == action[3])
            self._shoot(r, s, row, overwatch=True)
            if r not in self.ow_trig:
                self.ow_trig.append(r)  # the responder fired: a trigger of the cascade (MBT 4.4.2)
            if self._responders(s):
                return
        self.ow_resp = None
        self.cp = g.units[s].side
        if self.st[s] == ON and self.st[t] == ON:
            super().apply(Action(("ow", g.units[s].name, g.units[t].name, key)))
        else:
            self._ow_fired_nothing(s)

    def _ow_fired_nothing(self, s: int) -> None:
        """The ATGM unit was destroyed before its shot: the Overwatch goes on."""
        self.ow_pass = 0
        self._advance()


__all__ = ["UnderFireRules", "UNDER_FIRE_SLOTS", "has_atgm"]
