"""Direct-fire smoke (MBT 6.1.4.3.10) and optional rule 7.22 Infantry Smoke, in the Direct Fire Step.

* A unit with a Fire or Short Halt command and a weapon marked SMK fires smoke instead of a shot (``smoke UNIT at
  HEX``) at a hex in its line of sight, Field of Fire and the weapon's GP range holding no friendly unit; no spotted
  target is needed, but the hexes offered are those of the enemies it may fire on (``ENGINE_POLICIES
  ['df-smoke']``). Engineers (leg units labelled Engineer) fire smoke into an adjacent hex. A Closed SHEAF of one
  hex; an S ammo limit roll (5.16.2.2) that fails places nothing; the firer is marked Spot/Fire either way.
* 7.22: an unsuppressed squad or half-squad with a Fire or Short Halt command, neither Hesitating nor Broken (7.1),
  alone among dismounted leg units in its hex, places smoke in its own hex as small-arms fire (``smoke UNIT``), an
  Open SHEAF, after an ammo limit roll of ``infantry-smoke-limit`` (S5) with the grade and engineer modifiers of
  7.22.2. Its small arms are spent; its attached weapons may still fire in the same step (7.22.1): it stays a
  shooter with only the attached-weapon rows (``ArtyState.inf_smoked``), or holds.

Smoke made in the step takes effect when the step is over (Close Assault / Hand-to-Hand on, ``smoke.py``)."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .actions import Action
from .codes import CARRIED, FIRE, MFIRE, MFIRE_SA, ON, P_DF, SH
from .if_data import if_data

LEG_SMOKE_SIZES = ("squad", "half_squad")   # MBT 7.22: squads and half-squads


class DfSmokeRules:
    """Mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def df_smoke_actions(self) -> list[Action]:
        """Smoke actions of the side firing now (MBT 6.1.4.3.10, 7.22)."""
        if self.phase != P_DF or self.reveal_for >= 0:
            return []
        g = self.game
        ifd = if_data(g)
        inf = g.optional_on("infantry-smoke")
        out = []
        smoked = self.arty.inf_smoked
        for s in self._df_shooters():
            if s in smoked:
                continue  # MBT 7.22.1: only its attached weapons are left
            if s in ifd.smoke_reach or "engineer" in g.units[s].type.ag.labels:
                out += [Action(("smoke", g.units[s].name, "at", g.label(h))) for h in self._df_smoke_hexes(s)]
            if inf and self._infantry_smoke_ok(s):
                out.append(Action(("smoke", g.units[s].name)))
        return out

    def _df_shooters(self) -> list[int]:
        """The Basic shooters, and squads that made infantry smoke this step with attached weapons left to fire
        (MBT 7.22.1)."""
        out = super()._df_shooters()
        smoked = self.arty.inf_smoked
        if not smoked:
            return out
        announced = {s for s, _, _ in self.shots}
        g = self.game
        return out + [s for s in sorted(smoked) if s not in announced and self.st[s] == ON
                      and g.units[s].side == self.df_side and s not in out]

    def weapon_ok(self, s: int, t: int, row) -> bool:
        """After infantry smoke only the attached weapons (rows without ``half``) fire (MBT 7.22.1)."""
        if self.arty.inf_smoked and s in self.arty.inf_smoked and row.half is not None:
            return False
        return super().weapon_ok(s, t, row)

    def _df_smoke_hexes(self, s: int) -> list:
        g = self.game
        side = g.units[s].side
        friends = {self.hex[u] for u in g.units_of(side) if self.st[u] in (ON, CARRIED)}
        reach = if_data(g).smoke_reach.get(s)
        engineer = reach is None
        out = set()
        for t in self.df_targets(s):
            h = self.hex[t]
            if self.st[t] != ON or h in friends or h in out:
                continue
            r = distance(self.hex[s], h)
            if engineer and r != 1:
                continue
            if not engineer and (r > reach[0] or not self.in_field(s, t, reach[1], False)):
                continue
            out.add(h)
        return sorted(out)

    def _infantry_smoke_ok(self, s: int) -> bool:
        """MBT 7.22: a squad or half-squad, unsuppressed, not Hesitating or Broken (7.1), Fire or Short Halt, not
        smoked yet this turn, no other dismounted leg unit in its hex."""
        g = self.game
        ag = g.units[s].type.ag
        if not ag.leg or ag.leg_size not in LEG_SMOKE_SIZES or self.sup[s] or self.cmd[s] not in (FIRE, SH):
            return False
        if s in self.arty.inf_smoked or (g.oc_morale and (self.hesitating(s) or self.broken(s))):
            return False
        h = self.hex[s]
        return not any(u != s and self.st[u] == ON and self.hex[u] == h and g.units[u].type.ag.leg
                       for u in range(g.n))

    def infantry_smoke_limit(self, s: int) -> int:
        """S5, +1 Elite/Veteran, -1 Green/Raw, +3 Engineer (MBT 7.22.2)."""
        g = self.game
        opt = if_data(g).opt
        limit = opt["infantry-smoke-limit"]
        grade = self.unit_grade(s)
        if grade in ("elite", "veteran"):
            limit += opt["infantry-smoke-elite-veteran"]
        elif grade in ("green", "raw"):
            limit += opt["infantry-smoke-green-raw"]
        if "engineer" in g.units[s].type.ag.labels:
            limit += opt["infantry-smoke-engineer"]
        return limit

    def apply_df_smoke(self, action) -> None:
        """``smoke UNIT at HEX`` (6.1.4.3.10) or ``smoke UNIT`` (7.22)."""
        g = self.game
        s = g.uindex[action[1]]
        self.fired[s] = True
        self.rev[s] = True
        if len(action) == 2:
            self.mk[s] = MFIRE_SA if self.mk[s] != MFIRE else MFIRE
            if any(r.half is None for r in g.units[s].type.ap):  # MBT 7.22.1: its attached weapons may still fire
                self.arty.inf_smoked = self.arty.inf_smoked | {s}
            limit, h, sheaf = self.infantry_smoke_limit(s), self.hex[s], "open"
        else:
            self.mk[s] = MFIRE
            limit, h, sheaf = if_data(g).smoke_limit.get(s), g.map.hex(action[3]), "closed"
        if limit is not None:
            roll = self.dice.roll(10, f"smoke ammo {g.units[s].name}")
            if roll > limit:
                self.narrate(f"{g.units[s].name} smoke: ammo limit roll {roll} > S{limit}: nothing placed")
                return
        self.place_cloud("smoke", (h,), sheaf)
        self.narrate(f"{g.units[s].name} fires smoke into {g.label(h)} ({sheaf} SHEAF)")


__all__ = ["DfSmokeRules"]
