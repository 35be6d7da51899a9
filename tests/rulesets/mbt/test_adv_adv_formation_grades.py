"""MBT 5.8.1-5.8.3 Formation Grades (scenario extension ``formation_grades``, ``engine/grades.py``): a formation's
grade drives its command control (Available Commands, Command Range, 6.2.1.1) and its units' Unit Grade, while the
Force Grade stays the initiative modifier (6.3.2); option ``available-commands-grade`` (Q10) reads the Force Grade
instead. The combined-arms sample scenario: Soviet Force Grade Regulars over Seasoned formations."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mbt_adv_fixtures import adv_game, index  # noqa: E402

from studio.rulesets.mbt.engine import game as G  # noqa: E402


def _game(formation_grades=None, options=None):
    sc = index().model("scenario", "mbt-adv-combined-arms")
    ext = sc.extension
    if formation_grades is not None:
        ext = ext.model_copy(update={"formation_grades": formation_grades})
    return G.create_game(sc.model_copy(update={"extension": ext}), index(), options)


def _formation(g, side: str, force: str) -> int:
    s = g.sides.index(side)
    i = next(k for k, u in enumerate(g.units) if u.side == s and u.force == force)
    return g.formation_of[i]


def test_sample_scenario_grades_soviet_formations_seasoned_under_a_regulars_force():
    # MBT 5.8.1-5.8.2: Force Grade Regulars (initiative -20) over Seasoned formations; Unit Grade = Formation Grade
    g = adv_game()
    st = g.new_initial_state(1)
    sov = g.sides.index("sov")
    assert g.force_grades[sov] == "regulars" and st.initiative_mod(sov) == g.ag.init_mod["regulars"]
    f = _formation(g, "sov", "tanks")
    assert st.formation_grade(f) == "seasoned" and st.command_range(f) == 1
    tank = next(k for k, u in enumerate(g.units) if u.side == sov and u.force == "tanks")
    assert st.unit_grade(tank) == "seasoned"


@pytest.mark.parametrize("grades, expected", [(None, "seasoned"), ({}, "regulars")])
def test_available_commands_follow_the_formation_grade(grades, expected):
    # MBT 6.2.1.1.1: the Soviet tank platoon's Available Commands come from its Formation Grade's row (three
    # units due to enter on turn 1 are active); without formation_grades it takes the Force Grade's
    g = _game(grades)
    st = g.new_initial_state(1)
    f = _formation(g, "sov", "tanks")
    row = g.ag.available[expected]
    assert st.formation_grade(f) == expected and st.budget[f] == max(1, row[2])


def test_option_force_grade_for_available_commands():
    # Q10 (option available-commands-grade): 'force' reads the Force Grade (Regulars: range 0) for command control;
    # the Unit Grade stays the formation's
    g = _game(options={"available-commands-grade": "force"})
    st = g.new_initial_state(1)
    f = _formation(g, "sov", "tanks")
    assert st.formation_grade(f) == "regulars" and st.command_range(f) == 0
    tank = next(k for k, u in enumerate(g.units) if g.formation_of[k] == f)
    assert st.unit_grade(tank) == "seasoned"


def test_a_position_takes_the_force_grade():
    # a position's units form one formation per side with the side's (or the position's) Force Grade
    from mbt_adv_fixtures import adv_state, unit

    st = adv_state([unit("A", "t-80bv", "sov", "4T1", 5), unit("U", "m1", "us", "2A1", 0)], phase="command")
    f = st.game.formation_of[0]
    assert st.formation_grade(f) == "regulars" and st.unit_grade(0) == "regulars"


def test_unknown_grade_is_refused():
    from studio.rules.load import ScenarioRefused

    with pytest.raises(ScenarioRefused, match="formation grade 'heroic'"):
        _game({"sov": {"tanks": "heroic"}})
