"""Grades (MBT 5.8): Force Grade for initiative (6.3.2), Formation Grade for command control (6.2.1.1), Unit Grade
for combat, Bail Out and Suppression recovery (5.8.3). Compiled per game from the scenario extension
``force_grades`` (side id -> grade) and ``formation_grades`` (side id -> force id -> grade, MBT 5.8.2); a
formation (a scenario force) without a grade of its own, and its units, take their side's grade."""
from __future__ import annotations

from .ag_specs import GRADES
from .data import DataError

#: the grade of a side the scenario does not grade (the static check ``mbt.force-grade`` flags it): Seasoned
#: is the rules' baseline without modifiers (MBT 6.5.2.5)
DEFAULT_GRADE = "seasoned"


def compile_grades(game) -> None:
    """``force_grades`` (per side), ``formations`` (force id per formation index), ``formation_of`` and
    ``unit_grades`` (per unit) on ``game``."""
    given = game.extension.get("force_grades") or {}
    grades = []
    for side in game.sides:
        grade = given.get(side, DEFAULT_GRADE)
        if grade not in GRADES:
            raise DataError(f"force grade {grade!r} of side '{side}' is not one of {', '.join(GRADES)}")
        grades.append(grade)
    game.force_grades = grades
    assign_formations(game, game.extension.get("formation_grades") or {})


def assign_formations(game, given: dict | None = None) -> None:
    """Formations are the scenario forces (MBT 5.8.2: units never change formation); a position's units form
    one formation per side (or per name it gives). A formation's grade is ``given``'s entry (side id -> force id
    -> grade: the scenario's ``formation_grades``) for its force, else its side's Force Grade (a position's
    formations: always); its units' Unit Grade is the Formation Grade (MBT 5.8.3)."""
    given = given or {}
    keys: dict = {}
    game.formation_of = []
    for u in game.units:
        key = (u.side, u.force)
        game.formation_of.append(keys.setdefault(key, len(keys)))
    game.formation_side = [side for side, _ in keys]
    game.formation_grades = [given.get(game.sides[side], {}).get(force, game.force_grades[side])
                             for side, force in keys]
    for grade in game.formation_grades:
        if grade not in GRADES:
            raise DataError(f"formation grade {grade!r} is not one of {', '.join(GRADES)}")
    game.unit_grades = [game.formation_grades[f] for f in game.formation_of]


class GradeRules:
    """Rules of this chapter, mixed into :class:`~.advanced.AdvState`."""

    __slots__ = ()

    def initiative_mod(self, side: int) -> int:
        """Force Grade initiative modifier (MBT 6.3.2, table ``initiative``)."""
        g = self.game
        return g.ag.init_mod[g.force_grades[side]]

    def formation_grade(self, f: int) -> str:
        """The grade for Available Commands and Command Range (MBT 6.2.1.1; option available-commands-grade, Q10:
        the formation's grade, or its side's Force Grade)."""
        g = self.game
        if g.options["available-commands-grade"] == "force":
            return g.force_grades[g.formation_side[f]]
        return g.formation_grades[f]

    def unit_grade(self, i: int) -> str:
        """Unit Grade = Formation Grade unless the force list says otherwise (MBT 5.8.3)."""
        return self.game.unit_grades[i]
