"""Optional Rule 7.19, Engineer vs Terrain Combat (id ``engineers-vs-terrain``).

In the Close Assault / Hand-to-Hand Combat Step an unsuppressed engineer squad, half-squad or section (card label
``engineer``) with a Move command that has not moved attacks an adjacent terrain with a GP Defense, not a
building (at most 1 Height away), by the Close Assault procedure: ``clear ENGINEER HEX``. The GP factor is the
Close Assault factor of its size against the terrain's GP Defense (at most the Close Assault maximum) on the GP
Combat Results Table; option ``engineer-modifiers`` says which modifiers apply (the text leaves it open): the
attacker's Unit Grade (``grade``) or none. Terrain: the visible minefield hexes (MBT 7.31.3.3: one Effective
result clears the hex) and the scenario's ``terrain_gpd`` hexes (an Effective result rolls again; two destroy the
terrain, recorded in ``razed``: the engine models no wire or blocks, so a destroyed one changes nothing else).
"""
from __future__ import annotations

from studio.hexgrid.coords import distance

from .actions import Action
from .codes import MMOVE, MOVE, ON

BUILDING = "T"  # building hexes may not be attacked (MBT 7.19)


class EngineerRules:
    """Rules of MBT 7.19, mixed into :class:`~.advanced.AdvState` (slot ``razed``)."""

    __slots__ = ()

    def _reset(self, seed: int) -> None:
        super()._reset(seed)
        self.razed = frozenset()

    def _copy(self, dice):
        o = super()._copy(dice)
        o.razed = self.razed
        return o

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}|razed{sorted(map(self.game.label, self.razed))}"

    def _terrain_gpd(self, h) -> int | None:
        g = self.game
        v = (g.extension.get("terrain_gpd") or {}).get(g.label(h))
        return None if v is None or h in self.razed or g.map.terrain.get(h, "") == BUILDING else int(v)

    def engineer_targets(self, a: int) -> list:
        """Adjacent hexes with terrain the engineer ``a`` may attack (MBT 7.19)."""
        g = self.game
        if not g.optional_on("engineers-vs-terrain") or not self._may_assault(a) or \
                "engineer" not in g.units[a].type.ag.labels:
            return []
        side = g.units[a].side
        known = self.mine_hexes_known(side) if self.mines else set()
        out = []
        for h in g.hexes:
            if distance(h, self.hex[a]) != 1 or abs(g.elev.get(h, 0) - g.elev.get(self.hex[a], 0)) >= 2:
                continue
            if h in known or self._terrain_gpd(h) is not None:
                out.append(h)
        return out

    def assaults(self, side: int) -> list:
        out = super().assaults(side)
        g = self.game
        if not g.optional_on("engineers-vs-terrain"):
            return out
        extra = [Action(("clear", g.units[a].name, g.label(h))) for a in g.units_of(side)
                 for h in self.engineer_targets(a)]
        if not extra:
            return out
        return [x for x in out if x[0] != "pass"] + extra + [Action(("pass",))]

    def apply_assault(self, action) -> None:
        if action[0] != "clear":
            super().apply_assault(action)
            return
        g = self.game
        a, h = g.uindex[action[1]], g.map.hex(action[2])
        self.moved[a] = True
        self.rev[a] = True
        self.mk[a] = MMOVE  # a Close Assault procedure: marked Spot/Move (MBT 6.6.1.1)
        self.engineer_attack(a, h)

    def _engineer_roll(self, a: int, defense: int, what: str) -> bool:
        """One Close Assault roll of engineer ``a`` against a terrain GP Defense: True on an Effective result."""
        g = self.game
        cc = g.ag.close
        factor = cc[f"ca-gp-{self.leg_size(a)}"]
        fmax, dmax = g.ag.gp_max
        defense = max(1, min(cc["ca-max-gpd"], dmax, defense))
        n_eff, s_eff = g.ag.gp_crt[(max(1, min(fmax, factor)), defense)]
        net = g.ag.grade_hth[self.unit_grade(a)] if g.options["engineer-modifiers"] == "grade" else 0
        roll = self.dice.roll(100, f"Engineers {g.units[a].name} vs {what}")
        effective = roll + net > s_eff
        self.narrate(f"{g.units[a].name} attacks {what} (GP {factor} vs GPD {defense}): roll {roll}{net:+d} vs "
                     f"S {s_eff}: {'Effective' if effective else 'no effect'}")
        return effective

    def engineer_attack(self, a: int, h) -> None:
        """Visible minefield hexes first (one Effective clears each field's hex), then terrain with a GP Defense
        (two Effective results destroy it), MBT 7.19, 7.31.3.3."""
        g = self.game
        for k, ms in enumerate(self.mines):
            if h in ms.field.hexes and h not in ms.gone and h in ms.known and \
                    self._engineer_roll(a, ms.field.gp_defense, f"the minefield in {g.label(h)}"):
                self.mines[k] = ms._replace(gone=ms.gone | {h})
        gpd = self._terrain_gpd(h)
        if gpd is not None and self.st[a] == ON and self._engineer_roll(a, gpd, f"the terrain in {g.label(h)}") and \
                self._engineer_roll(a, gpd, f"the terrain in {g.label(h)} (second roll)"):
            self.razed = self.razed | {h}
            self.narrate(f"the terrain in {g.label(h)} is destroyed")


__all__ = ["EngineerRules"]
