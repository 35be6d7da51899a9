"""Combat engineering at work (BfOps p.19-20): filling trenches (B114), engineer vehicles preparing wire, mine
flails and rollers (B116), free orders for engineers; the derived planner grids against their uncached build on
random playouts."""
from __future__ import annotations

import random

import pytest

from studio.rulesets.bfops.engine import crossings as CR
from studio.rulesets.bfops.engine.state import Order, Pass

from .conftest import unit
from .test_eng_bridging import FAR, _move, position_ext  # noqa: F401 (fixture)

VILLAGE = "bfops-village-defence"
GUARD = unit("c", "nato-chieftain", "nato", 60, 46, 180)
# the village trench (NATO's prepared works) runs (43, 32.6) - (47, 32.6), 1/4" wide
IMR = unit("e", "wp-imr", "warpac", 45.0, 31.9, 0, element="eng")        # front 0.1" short of the trench


def test_b114_an_earthmoving_vehicle_fills_half_an_inch_a_move_phase(position):
    """B114: 1/2" of the trench per Move Phase (table procedures fill_in_per_phase), 1" after 2, around the point
    nearest the IMR (2" along the trench)."""
    s = position([IMR, GUARD], phase="command", scenario=VILLAGE, to_act="warpac")
    _move(s)
    assert s.filled == {"village-trench": [(2.0, 0.5)]}
    _move(s)
    assert s.filled == {"village-trench": [(2.0, 1.0)]}
    moving = position([unit("e", "wp-imr", "warpac", 45.0, 31.9, 0, element="eng", order="to-ford"), GUARD],
                      phase="command", scenario=VILLAGE, to_act="warpac")
    assert not _move(moving).filled                     # only while it holds there


def test_no_filling_of_the_own_sides_trench_nor_without_earthmoving(position):
    own = position([unit("e", "wp-imr", "nato", 45.0, 31.9, 0, element="eng"), FAR], phase="command",
                   scenario=VILLAGE)
    squad = position([unit("e", "wp-engineer-squad", "warpac", 45.0, 32.1, 0, element="eng"), GUARD],
                     phase="command", scenario=VILLAGE, to_act="warpac")
    assert not _move(own).filled and not _move(squad).filled


@pytest.mark.parametrize("filled, crosses", [([[0.72, 1.0]], True), ([[0.72, 0.4]], False)])
def test_a_filled_length_wider_than_the_base_is_crossed_freely(position_ext, filled, crosses):
    """A NATO truck (base 0.45" wide) moving straight toward the village near the hidden ford minefield
    (compulsory movement) crosses the 1/4" trench, which trucks may not, where 1" is filled around its line
    (x = 43.72, 0.72" along the trench); 0.4" is too narrow for the planner and the path."""
    truck = unit("t", "nato-engineer-truck", "nato", 44.6, 31.0, 0, order="to-village", element="tr")
    s = _move(position_ext([truck, unit("g", "wp-t62", "warpac", 69, 47, 180)], phase="command", scenario=VILLAGE,
                           extension={"engineering": {"filled": {"village-trench": filled}}}))
    assert any("t passes trench village-trench" in e for e in s.events) is crosses
    assert (s.unit("t").y > 33.0) is crosses


def test_engineer_vehicles_prepare_wire_two_move_phases_then_clear_a_section(position):
    """p.19: a truck (no earthmoving gear) adjacent to the paddock fence prepares it for 2 Move Phases, then a 1"
    section is cleared at the point nearest it."""
    s = position([unit("t", "nato-engineer-truck", "nato", 4.0, 15.4, 0, element="eng"), FAR], phase="command")
    _move(s)
    assert not s.breaches and s.work == {"wire:t:paddock-fence": 1}
    _move(s)
    assert s.breaches == {"paddock-fence": [(4.0, 16.0)]}


def test_engineer_orders_cost_no_command_card(position):
    """p.19: engineering and bridging units move without a Command Card; a tank's order spends one."""
    s = position([unit("t", "nato-engineer-truck", "nato", 4.0, 15.4, 0, element="eng"),
                  unit("m", "nato-m60a1", "nato", 40, 5, 0, element="tk"), FAR], phase="command")
    s.play(Order("eng", "to-ford"))
    assert s.hand == [1, 1] and s.player == 0
    s.play(Order("tk", "to-ford"))
    assert s.hand == [0, 1]


# ------------------------------------------------------------------ flails and rollers (p.20)

ROLLER = unit("r", "wp-t55-kmt5", "warpac", 47, 26.2, 0, order="to-village", element="rl")   # south of the strip


@pytest.mark.parametrize("dice, cleared, stopped", [([7], True, False),        # UR 6 + 1 = 7: detonated safely
                                                    ([8], False, False),       # passes without detonating
                                                    ([10, 1], False, True)])   # the mines go off under it
def test_b116_a_roller_moves_one_inch_a_phase_through_a_minefield(position, dice, cleared, stopped):
    """p.20: inside the ford minefield (y 27.5-28.5) the roller moves 1" a Move Phase and checks each 1" square at
    UR +1 instead of the mine roll; a 10 sets the AT mines off with their normal effect (Pen 8 vs bottom 2:
    disable roll 1 <= 6; tracks 4: immobilized)."""
    s = _move(position([ROLLER, GUARD], phase="command", to_act="warpac", dice=dice))
    r = s.unit("r")
    assert r.y <= 28.5 + 1e-6                             # 1" into the strip at most
    assert not any(k.startswith("mine ford-mines>") for k, _ in s.dice.history)     # no detonation roll
    assert bool(s.mines_cleared.get("ford-mines")) is cleared
    assert (r.disabled and r.immobilized) is stopped


def test_units_behind_a_roller_pass_its_cleared_square(position):
    s = _move(position([ROLLER, GUARD], phase="command", to_act="warpac", dice=[1]))
    at = s.mines_cleared["ford-mines"]
    tank = position([unit("a", "wp-t55", "warpac", 47, 26.2, 0, order="to-village", element="tk"), GUARD],
                    phase="command", to_act="warpac", dice=[1, 1, 1])
    tank.mines_cleared["ford-mines"] = list(at)
    _move(tank)
    assert any("passes a cleared 1\" section" in e for e in tank.events)


# ------------------------------------------------------------------ the derived grids (a cache)

def test_derived_grids_plan_as_built_fresh_on_random_playouts(position_ext):
    """The derived planner grids are cached per set of closures and openings: on random playouts with a bridge,
    a breach and a fill in place, forgetting every derived grid before each action gives the same games."""
    units = [unit("a", "nato-m60-avlb", "nato", 56.0, 23.2, 0, element="br"),
             unit("m", "nato-m60a1", "nato", 56, 19, 0, order="to-ridge", element="t"),
             unit("t", "nato-engineer-truck", "nato", 44.6, 31.0, 0, order="to-village", element="tr"),
             unit("q", "wp-t55", "warpac", 47.0, 37.8, 270, order="to-ford", element="w")]
    ext = {"engineering": {"bridges": [{"unit": "a", "from": [56.0, 23.2], "to": [56.188, 25.451], "gap": "stream"}],
                           "breaches": {"churchyard-wall": [[46.0, 37.8], [46.0, 37.8]]},
                           "filled": {"village-trench": [[0.72, 1.0]]}}}

    def play(forget: bool, seed: int) -> list[str]:
        s = position_ext(units, phase="command", scenario=VILLAGE, extension=ext)
        rng = random.Random(seed)
        prints = []
        for _ in range(40):
            acts = s.legal_actions()
            if not acts:
                break
            if forget:
                for nav in s.game._nav.values():
                    nav.__dict__.pop("_overlays", None)
                s.game.__dict__.pop("_derived_navs", None)
            s.play(rng.choice(acts))
            prints.append(s.fingerprint())
        return prints

    assert play(False, 1) == play(True, 1)


def test_a_derived_grid_without_changes_plans_as_the_static_grid(position):
    s = position([unit("m", "nato-m60a1", "nato", 56, 19, 0), FAR], phase="command")
    card = s.game.card_of(s.unit("m"))
    base = s.game.nav(card)
    same = CR.derive(base, (), ())
    rng = random.Random(3)
    for _ in range(20):
        x, y, gx, gy = rng.uniform(1, 71), rng.uniform(1, 47), rng.uniform(1, 71), rng.uniform(1, 47)
        assert same.plan(x, y, (gx, gy), 30.0) == base.plan(x, y, (gx, gy), 30.0)


def test_a_planned_path_over_a_bridge_runs_along_its_deck_end_to_end(position_ext):
    """The planner's path is moved onto the crossing: it reaches the deck at its near end, every point between
    lies on the deck's centre line, and it leaves at the far end (so the exact path never wades beside it)."""
    s = position_ext([unit("a", "nato-m60-avlb", "nato", 56.0, 23.2, 0, element="br"),
                      unit("m", "nato-m60a1", "nato", 56, 19, 0, order="to-ridge", element="t"), FAR],
                     phase="command", extension={"engineering": {"bridges": [
                         {"unit": "a", "from": [56.0, 23.2], "to": [56.188, 25.451], "gap": "stream"}]}})
    m = s.unit("m")
    goal = s.goal_of(m, "to-ridge")
    path = CR.plan(s, s.game.card_of(m), m.x, m.y, goal, 12.0, s.field_point(m, "to-ridge", goal))
    k0, k1 = path.index((56.0, 23.2)), path.index((56.188, 25.451))
    assert k0 < k1
    for x, y in path[k0:k1 + 1]:                         # on the segment (56, 23.2) - (56.188, 25.451)
        t = (y - 23.2) / 2.251
        assert -1e-9 <= t <= 1 + 1e-9 and abs(x - (56.0 + 0.188 * t)) < 1e-3
    assert all(y < 23.2 for _, y in path[:k0]) and all(y > 25.451 - 1e-9 for _, y in path[k1:])
    inner = [y for _, y in path[k0:k1 + 1]]
    assert len(inner) >= 3 and inner == sorted(inner)   # the cells' points projected along it, in order
