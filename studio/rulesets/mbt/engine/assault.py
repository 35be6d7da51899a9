"""Close Assault and Hand-to-Hand combat (MBT 6.6.1): the Close Assault / Hand-to-Hand Combat Step opens the
Movement Phase, First Player then Second. An unsuppressed dismounted squad, half-squad or section with a Move
command that has not moved attacks one adjacent spotted enemy at most 1 Height away: a vehicle by Close Assault
(6.6.1.1: GP factor by the attacker's size against the vehicle's GP Defense, at most 5, on the GP Combat Results
Table), a dismounted leg unit by Hand-to-Hand (6.6.1.2: opposed rolls (100) until a unit is eliminated, a squad
first reduced to its half-squad). The attack is the attacker's move (Spot/Move). One attacker per attack: combined,
advancing and dismount attacks are not modelled (``ENGINE_POLICIES['close-combat']``).

Action: ``assault ATTACKER at TARGET``; ``pass`` ends the side's step."""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .actions import PASS, Action
from .codes import DEAD, MMOVE, MOVE, ON, SH

SIZE_KEYS = {"squad": "squad", "half_squad": "half", "section": "section"}


class AssaultRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def leg_size(self, i: int) -> str:
        """squad, half (a reduced squad or a half-squad card) or section (MBT 5.1.1)."""
        ag = self.game.units[i].type.ag
        if ag.squad:
            return "half" if self.red[i] else "squad"
        return SIZE_KEYS.get(ag.leg_size, "section")

    def _step_close_combat(self) -> bool:
        """The Close Assault / Hand-to-Hand Combat Step (MBT 6.6.1); True when a side may attack."""
        if self.ca_side == -1:
            self.ca_side = self.first
        while self.ca_side >= 0:
            if self.assaults(self.ca_side):
                self.cp = self.ca_side
                return True
            self._next_ca_side()
        return False

    def _next_ca_side(self) -> None:
        self.ca_side = 1 - self.first if self.ca_side == self.first else -2

    def assaults(self, side: int) -> list[Action]:
        """Legal close combats of ``side`` (MBT 6.6.1.1, 6.6.1.2)."""
        g = self.game
        out = []
        for a in g.units_of(side):
            if not self._may_assault(a):
                continue
            for t in self.spots[a]:
                if self.st[t] == ON and distance(self.hex[a], self.hex[t]) == 1 and \
                        abs(g.elev.get(self.hex[t], 0) - g.elev.get(self.hex[a], 0)) < 2:
                    out.append(Action(("assault", g.units[a].name, g.units[t].name)))
        return out + [PASS] if out else []

    def _may_assault(self, a: int) -> bool:
        ag = self.game.units[a].type.ag
        return (ag.leg and self.st[a] == ON and self.cmd[a] == MOVE and not self.moved[a] and not self.sup[a]
                and self.game.units[a].type.combat)

    def apply_assault(self, action) -> None:
        if action[0] == "pass":
            self._next_ca_side()
            return
        g = self.game
        a, t = g.uindex[action[1]], g.uindex[action[2]]
        self.moved[a] = True
        self.rev[a] = True
        self.mk[a] = MMOVE  # attackers are marked Spot/Move (MBT 6.6.1.1)
        self.attacked[t] = True
        if g.units[t].type.ag.leg:
            self.hand_to_hand(a, t)
        else:
            self.close_assault(a, t)
        if self.st[t] != ON and not self.enemies_in(self.hex[t], g.units[a].side):
            self.hex[a] = self.hex[t]  # the attacker takes the hex (``ENGINE_POLICIES['close-combat']``)

    def _uphill(self, a: int, t: int) -> bool:
        e = self.game.elev
        return e.get(self.hex[t], 0) > e.get(self.hex[a], 0)

    def close_assault(self, a: int, t: int) -> None:
        """Close Assault (MBT 6.6.1.1.1-3)."""
        g = self.game
        cc = g.ag.close
        tag = g.units[t].type.ag
        factor = cc[f"ca-gp-{self.leg_size(a)}"]
        fmax, dmax = g.ag.gp_max
        defense = max(1, min(cc["ca-max-gpd"], dmax, tag.gp_value))
        n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, factor)), defense)]
        net = g.ag.grade_hth[self.unit_grade(a)] + (cc["uphill"] if self._uphill(a, t) else 0)
        net += {"P": cc["ca-p-type"], "S": cc["ca-s-type"]}.get(tag.target_type, 0)
        if self.cmd[t] in (MOVE, SH) and self.rev[t]:
            net += cc["ca-moving"]
        if self.sup[t]:
            net += cc["ca-suppressed"]
        roll = self.dice.roll(100, f"Close Assault {g.units[a].name}>{g.units[t].name}")
        x = roll + net
        effect = "N" if x <= n_eff else ("S" if x <= s_eff else "E")
        result = "NE" if effect == "N" else ("SUP" if effect == "S" else
                                             ("DAMAGE" if x % 10 == 5 else "TRACK" if x % 10 == 0 else "KILL"))
        if self.dice.record:
            self.events.append(f"{g.units[a].name} close assaults {g.units[t].name} (GP {factor} vs GPD {defense}): "
                               f"roll {roll}{net:+d} = {x} vs N {n_eff} / S {s_eff}: {result}")
        self._ca_result(a, t, result, factor)

    def _ca_result(self, a: int, t: int, result: str, factor: int) -> None:
        """Suppressed; or Effective regardless of target type: 5s DAMAGE, 10s TRACK, else roll (10) at or under
        half the attacker's GP factor BU, else KO (MBT 6.6.1.1.3)."""
        g = self.game
        if result == "SUP":
            self.suppress(t, "close assault")
        elif result == "TRACK":
            if not self.track[t]:
                self.track_hit(t)
                self.bail_out(t, "TK")
        elif result == "DAMAGE":
            r = self.dice.roll(10, f"CA damage {g.units[t].name}")
            turret = r <= g.ag.turret_max and g.units[t].type.combat
            self.apply_damage(t, "DM", "TF" if turret else "HF")
        elif result == "KILL":
            r = self.dice.roll(10, f"CA KO/BU {g.units[t].name}")
            self.apply_damage(t, "BU" if r <= max(1, factor // 2) else "KO", "HF")

    def _hth_mod(self, i: int, attacker: bool, other: int) -> int:
        cc = self.game.ag.close
        size = self.leg_size(i)
        m = self.game.ag.grade_hth[self.unit_grade(i)] + (cc[f"hth-{size}"] if size != "squad" else 0)
        if attacker and self._uphill(i, other):
            m += cc["uphill"]
        if not attacker and self.sup[i]:
            m += cc["hth-defender-suppressed"]
        return m

    def hand_to_hand(self, a: int, t: int) -> None:
        """Hand-to-Hand (MBT 6.6.1.2): opposed rolls; ties are rerolled; the loser is reduced (a squad, not
        suppressed) or eliminated, until one unit is eliminated."""
        g = self.game
        names = f"{g.units[a].name}>{g.units[t].name}"
        while self.st[a] == ON and self.st[t] == ON:
            ra = self.dice.roll(100, f"HTH attacker {names}")
            rd = self.dice.roll(100, f"HTH defender {names}")
            x, y = ra + self._hth_mod(a, True, t), rd + self._hth_mod(t, False, a)
            if x == y:
                continue
            loser = t if x > y else a
            if self.dice.record:
                self.events.append(f"{g.units[a].name} hand-to-hand with {g.units[t].name}: {ra} -> {x} vs "
                                   f"{rd} -> {y}: {g.units[loser].name} loses")
            if g.units[loser].type.ag.squad and not self.red[loser]:
                self.red[loser] = True
            else:
                self.st[loser] = DEAD
                self.lost[g.units[loser].side] += 1
