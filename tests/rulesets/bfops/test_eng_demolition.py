"""Demolitions (BfOps p.20, B109-B113): setting charges at walls and buildings through positions, legal actions and
play; the wall breaches the planner and the exact movement honour (option ``wall-breach``, A19)."""
from __future__ import annotations

import pytest

from studio.rulesets.bfops.engine.state import Pass

from .conftest import unit
from .test_eng_bridging import FAR, _move, position_ext  # noqa: F401 (fixture)

VILLAGE = "bfops-village-defence"
# the churchyard wall runs (41.5, 35) - (46, 35) - (46, 39.5), 0.15" wide: a squad at (43, 34.5) facing north has
# its front 0.175" from it (adjacent: 1/4")
SQUAD = unit("e", "nato-engineer-squad", "nato", 43, 34.5, 0, element="eng")
TRUCK = unit("t", "nato-engineer-truck", "nato", 43, 34.3, 0, element="eng")


def _set(state, text):
    state.play(state.game.parse_action(text))
    return state


@pytest.mark.parametrize("card, level, phases", [("nato-engineer-squad", 1, 1), ("nato-engineer-squad", 2, 2),
                                                 ("nato-engineer-squad", 3, 3), ("nato-engineer-truck", 1, 2),
                                                 ("nato-engineer-truck", 2, 4)])
def test_b109_set_times_by_unit_size_and_level(position, card, level, phases):
    """B109: squad sized 1/2/3 Move Phases, fire-team sized (a truck crew) 2/4/6; then the check (roll 1)."""
    s = position([unit("e", card, "nato", 43, 34.5 if card.endswith("squad") else 34.3, 0, element="eng"), FAR],
                 phase="command")
    hand = list(s.hand)
    _set(s, f"demolish e churchyard-wall {level}")
    assert s.hand == hand                               # free: engineers need no Command Card (p.19)
    for _ in range(phases - 1):
        _move(s)
        assert not s.breaches and not s.charges
    s.dice.force(1)                                     # the check, after the Turn's Command Card draw
    _move(s)
    assert s.breaches["churchyard-wall"] == [(43.0, 35.0)] and s.charges == {"e": level}


def test_b110_charge_levels_carried_bound_the_levels_offered(position_ext):
    """B110: a squad carries 3 levels (L1-L3 offered), a medium engineering truck 10: after L3 + L3 + L3 only an
    L1 is left; nothing is offered away from a wall or building."""
    s = position_ext([SQUAD, FAR], phase="command")
    assert [str(a) for a in s.legal_actions() if str(a).startswith("demolish")] == [
        "demolish e churchyard-wall 1", "demolish e churchyard-wall 2", "demolish e churchyard-wall 3"]
    t = position_ext([TRUCK, FAR], phase="command", extension={"engineering": {"charges": {"t": 9}}})
    assert [str(a) for a in t.legal_actions() if str(a).startswith("demolish")] == ["demolish t churchyard-wall 1"]
    away = position_ext([unit("e", "nato-engineer-squad", "nato", 43, 33.5, 0), FAR], phase="command")
    assert not [a for a in away.legal_actions() if str(a).startswith("demolish")]


@pytest.mark.parametrize("dice, breached, disabled", [([7], True, False),      # UR 6 + 1 = 7 (p.20)
                                                      ([8], False, False),
                                                      ([9], False, False),     # a plain failure, no 2nd roll
                                                      ([10, 7], False, True),  # detonates, second check fails
                                                      ([10, 6], False, False)])
def test_b109_check_at_unit_rating_plus_one_and_the_ten(position, dice, breached, disabled):
    s = _set(position([SQUAD, FAR], phase="command", dice=dice), "demolish e churchyard-wall 1")
    _move(s)
    assert bool(s.breaches) is breached and s.unit("e").disabled is disabled
    assert s.charges == {"e": 1}                        # spent either way (reading demolition-charges)
    assert [r[0] for r in s.dice.history if r[0].startswith("demolish")] == \
        ["demolish e>churchyard-wall", "demolish again e>churchyard-wall"][:len(dice)]


def test_moving_off_drops_the_charge_unspent(position):
    s = _set(position([SQUAD, FAR], phase="command"), "demolish e churchyard-wall 2")
    assert not [a for a in s.legal_actions() if str(a).startswith("demolish")]      # one charge at a time
    s.play(s.game.parse_action("order eng to-village"))
    _move(s)
    assert not s.work and not s.charges


def test_b111_a_charge_on_a_building_is_he_pen_under_the_structure_rules(position):
    """B111: Level 1 = HE Pen 40 applied to the structure: above the wooden house's Cover 2 it counts, and 40 >=
    10 x 2 collapses it (p.23)."""
    s = position([unit("e", "nato-engineer-squad", "nato", 44, 40.2, 0, element="eng"), FAR], phase="command",
                 dice=[1])
    assert s.game.parse_action("demolish e house-3 1") in s.legal_actions()
    _set(s, "demolish e house-3 1")
    _move(s)
    assert s.damage == {"house-3": 40.0} and "house-3" in s.rubble


# ------------------------------------------------------------------ passing the breach (B113)

APC = unit("m", "nato-m113", "nato", 47.0, 37.8, 270, order="to-village", element="apc")   # east of the wall


@pytest.mark.parametrize("breaches, option, through", [([[46.0, 37.8]], "twice-for-vehicles", False),
                                                       ([[46.0, 37.8], [46.0, 37.8]], "twice-for-vehicles", True),
                                                       ([[46.0, 37.8]], "once", True)])
def test_b113_vehicles_pass_a_wall_breached_twice(position_ext, breaches, option, through):
    """B113: a wall breached twice gives a 1" gap for a column of vehicles; with ``wall-breach: once`` the first
    breach does. An M113 east of the churchyard wall bound for the village goes through the gap, or around the
    wall's north end (the planner keeps vehicles off walls, p.20)."""
    s = _move(position_ext([APC, FAR], phase="command", scenario=VILLAGE, options={"wall-breach": option},
                           extension={"engineering": {"breaches": {"churchyard-wall": breaches}}}))
    assert any("m passes wall churchyard-wall" in e for e in s.events) is through
    if not through:
        assert not any("may not cross wall" in e for e in s.events)      # routed round it, not stopped at it


def test_infantry_pass_a_section_blown_once(position_ext):
    sq = unit("q", "nato-us-rifle-squad", "nato", 47.0, 37.8, 270, order="to-village", element="sq")
    s = _move(position_ext([sq, FAR], phase="command", scenario=VILLAGE,
                           extension={"engineering": {"breaches": {"churchyard-wall": [[46.0, 37.8]]}}}))
    assert any("q passes wall churchyard-wall" in e for e in s.events)
