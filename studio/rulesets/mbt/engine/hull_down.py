"""Hull Down and Partial Hull Down (MBT 6.1.4.1, 6.5.2.2.3, 6.6.9), Advanced Game.

- Searching (6.6.9): a vehicle with a Move command that has not moved spends its whole allowance in a hex whose
  terrain has a Hull Down range (table ``hull-down-ranges``): ``search VEHICLE hd|phd FACING [rev]`` turns it to
  FACING and rolls (100) + the Partial Hull Down, size and Unit Grade modifiers (``hull-down-modifiers``); within
  the range it is Hull Down (HD) or Partial Hull Down (PHD), protected from the front (reversed in: from the
  rear). A Bogging Down check comes first (7.29): a bogged vehicle does not search. A later Move or Short Halt
  command abandons the position.
- Protection (6.5.2.2.3, ``hull_down_miss``): against AP fire from a protected angle, HD turns every Hull, Hull*
  and Track location into a miss (Front/Side: the location rolls of ``hull-down-front-side``), PHD every Hull*
  and Track location (Front/Side: its rows). Automatic PHD (6.1.4.1.3): fire from a lower unit at a range at most
  the target's height advantage. Terrain that always gives Partial Hull Down (``hull-down-terrain``, e.g.
  Railroad Track) protects from all angles, and so does a Brick or Stone building around a vehicle inside it
  (6.1.4.3.1, ``in_solid_building``). GP direct fire: a Track result on an HD/PHD vehicle is No Effect.
"""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .actions import Action
from .codes import MOVE, ON, SH

HD, PHD = 1, 2
#: building constructions whose vehicles are Hull Down from all angles (MBT 6.1.4.3.1)
SOLID_BUILDINGS = ("brick", "stone")
NAMES = {"hd": HD, "phd": PHD}
FRONT, REAR = ("front", "front_side"), ("rear", "rear_side")


class HullDownRules:
    """Rules of MBT 6.6.9 and 6.5.2.2.3, mixed into :class:`~.advanced.AdvState` (slots ``hd``, ``hdrev``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.hd = [0] * self.game.n        # 0 none, HD, PHD
        self.hdrev = [False] * self.game.n  # reversed into the position: protected from the rear

    def _copy(self, dice):
        o = super()._copy(dice)
        o.hd, o.hdrev = self.hd[:], self.hdrev[:]
        return o

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}|hd{self.hd}{''.join('1' if r else '0' for r in self.hdrev)}"

    def _initiative(self) -> None:
        """End of the Command Phase: a Move or Short Halt command abandons a position (MBT 6.6.9)."""
        for i in range(self.game.n):
            if self.hd[i] and self.cmd[i] in (MOVE, SH):
                self.hd[i], self.hdrev[i] = 0, False
        super()._initiative()

    # ---------------------------------------------------------------- searching (MBT 6.6.9)
    def _hd_range(self, i: int) -> int | None:
        from .opt_move_data import move_opt

        return move_opt(self.game).hd_max.get(self.game.map.terrain.get(self.hex[i], ""))

    def move_options(self, i: int) -> list[Action]:
        out = super().move_options(i)
        g = self.game
        if self.st[i] == ON and self.mv_u == i and not self.is_leg(i) and not g.units[i].type.ag.heli and \
                self.cmd[i] == MOVE and self.mv_steps == 0 and not self.mv_spent and self.mv_turned == 0 and \
                not self.mv_end and self._hd_range(i) is not None:
            name = g.units[i].name
            for kind in ("hd", "phd"):
                for f in range(6):
                    out.append(Action(("search", name, kind, str(f))))
                    out.append(Action(("search", name, kind, str(f), "rev")))
        return out

    def _apply_move(self, i: int, a) -> None:
        if a[0] == "search" and self.mv_u == i:
            self._search(i, a[2], int(a[3]), len(a) > 4)
            return
        super()._apply_move(i, a)

    def _search(self, i: int, kind: str, facing: int, rev: bool) -> None:
        """Search for a position: the whole allowance in the hex (MBT 6.6.9)."""
        from .opt_move_data import move_opt

        g = self.game
        name = g.units[i].name
        bog = getattr(self, "_bog_check", None)
        if bog is not None and bog(i):
            return  # bogged: no search (MBT 7.29, 6.6.9)
        self.fac[i] = facing
        self.mv_left, self.mv_spent, self.mv_end = 0, True, True
        self.mv_turned = g.tables.movement["max-hexsides-per-hex"]  # its turning was part of the search
        mo = move_opt(g)
        m = mo.hd_mod
        mod = (m["partial"] if kind == "phd" else 0) + m[f"size{g.units[i].type.target_size:+d}"] + \
            mo.hd_grade[self.unit_grade(i)]
        top = self._hd_range(i)
        roll = self.dice.roll(100, f"Hull Down search {name} ({kind.upper()})")
        found = roll + mod <= top
        if found:
            self.hd[i], self.hdrev[i] = NAMES[kind], rev
        self.narrate(f"{name} searches for a {'Partial ' if kind == 'phd' else ''}Hull Down position in "
                     f"{g.label(self.hex[i])}: roll {roll}{mod:+d} vs 01-{top}: {'found' if found else 'none'}")
        self._after_step(i)

    # ---------------------------------------------------------------- protection (MBT 6.5.2.2.3)
    def hull_down_state(self, s: int, t: int, angle: str) -> int:
        """HD, PHD or 0 for AP fire from ``s`` at ``t`` arriving at ``angle`` (MBT 6.1.4.1, 6.5.2.2.3)."""
        from .opt_move_data import move_opt

        g = self.game
        if self.in_solid_building(t):
            return HD  # MBT 6.1.4.3.1: inside a Brick or Stone building, Hull Down from all angles
        best = 0
        if self.hd[t] and angle in (REAR if self.hdrev[t] else FRONT):
            best = self.hd[t]
        if g.map.terrain.get(self.hex[t], "") in move_opt(g).hd_terrain:
            best = best or PHD
        if s >= 0:
            rise = g.elev.get(self.hex[t], 0) - g.elev.get(self.hex[s], 0)
            if rise > 0 and distance(self.hex[s], self.hex[t]) <= rise:
                best = best or PHD  # automatic Partial Hull Down (MBT 6.1.4.1.3)
        return best

    def in_solid_building(self, t: int) -> bool:
        """Is vehicle ``t`` inside a Brick or Stone building (MBT 6.1.4.3.1; construction from extension
        ``building_construction``, else the table default; not rubble)? Leg and towed units are not vehicles."""
        from .adv_move_data import adv_move

        g = self.game
        h = self.hex[t]
        ag = g.units[t].type.ag
        if h not in g.building_hexes or ag.leg or ag.heli or h in self.razed:
            return False
        return adv_move(g).construction.get(h) in SOLID_BUILDINGS

    def hull_down_miss(self, s: int, t: int, angle: str, tens: int, loc: str) -> bool:
        """Is this AP hit location a miss because the target is Hull Down (MBT 6.5.2.2.3)?"""
        from .opt_move_data import move_opt

        state = self.hull_down_state(s, t, angle)
        if not state:
            return False
        g = self.game
        if angle == "front_side":
            return tens in move_opt(g).hd_front_side["hd" if state == HD else "phd"]
        star = g.ag.locations[(angle, tens)][1]
        if state == HD:
            return loc in ("HF", "HS", "HR", "TK") or star
        return loc == "TK" or star

    def hull_down_track_no_effect(self, s: int, t: int) -> bool:
        """GP direct fire from ``s``: a Track result on an HD or PHD vehicle is No Effect (MBT 6.5.4.4.2)."""
        from .ag_fire import hit_angle

        return bool(self.hull_down_state(s, t, hit_angle(self.hex[t], self.fac[t], self.hex[s])))


__all__ = ["HullDownRules", "HD", "PHD"]
