"""The heuristic Assault bot's orders beyond single-unit moves (studio/rulesets/assault/bots.py): orders to a
stack (Assault 4.C, 4.D.1), Soviet battle drill (4.D.2), dummies (10.F), entrenchments (18) and facing (7.F), each
in a position built for it and played through the public API, a mission cancelled before it lands on the bot's
own units (19.B.4); and the dummy-return window they rely on."""
from pathlib import Path

import pytest

from studio.hexgrid import coords
from studio.model.position import Position
from studio.rules.load import load_game
from studio.sim.bots import make_bot

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.fixture(scope="module")
def games():
    return {s: load_game(s, DATA).game for s in ("assault-meeting", "assault-probe")}


def u(uid, card, side, hexlabel, **status):
    return {"id": uid, "card": card, "side": side, "hex": hexlabel, "status": status}


def state_of(game, units, phase, extension=None):
    pos = Position.model_validate({"kind": "position", "schema_version": 1, "scenario": game.scenario_id,
                                   "phase": phase, "units": units, "extension": extension or {}})
    return game.state_from_position(pos)


def choose(game, state, side):
    return make_bot("heuristic", game, side, 0).choose(state.observation(side), state.legal_actions())


def test_a_dummy_found_while_moving_does_not_reopen_the_return_window(games):
    """Assault 10.F: a removed dummy returns only at the start of a friendly movement phase, before any unit
    moves. A dummy that moves into an enemy's hex is removed to the pool; no dummy may return later in that
    phase (a bot could otherwise return and lose the same dummy without end)."""
    game = games["assault-probe"]
    state = state_of(game, [u("d", "us-m1-platoon", "us", "A0913", dummy=True),
                            u("inf", "us-mech-infantry-platoon", "us", "A0915"),
                            u("su", "su-t80-platoon", "soviet", "A1013")], "us-move-1")
    state.play("move d A1013")
    assert state.dummy_pool == [0, 1] and not any(c.dummy for c in state.counters)
    assert not any(a.startswith("dummy ") for a in state.legal_actions())


def test_a_stack_with_its_hq_marches_with_one_free_order(games):
    """Assault 4.C, 4.D.1, 7.C: an HQ and a platoon share a hex far from any spotted enemy; rather than two
    formation changes (one order each) the bot gives the stack one order, free because an HQ is in it."""
    game = games["assault-meeting"]
    state = state_of(game, [u("hq", "us-hq", "us", "B0312", designation="HQC1"),
                            u("p1", "us-m1-platoon", "us", "B0312", designation="1C1"),
                            u("su", "su-t80-platoon", "soviet", "B2112")], "us-move-1")
    ops = [dict(p) for p in state.ops]
    pick = choose(game, state, 1)
    assert pick == "stack hq march"
    state.play(pick)
    assert {c.formation for c in state.counters if c.side == 1} == {"march"} and state.ops == ops


def test_a_stack_in_combat_formation_steps_together_toward_its_goal(games):
    """Assault 4.C, 4.D.1: inside opportunity-fire range of a spotted enemy the stack stays in combat formation;
    the bot moves the M-1 HQ and its platoon as one stack (free with its HQ) one hex nearer Neustadt's objective hexes, and the second
    step of the stack is the stack's again (its units may no longer move alone this phase)."""
    game = games["assault-meeting"]
    state = state_of(game, [u("hq", "us-m1-hq", "us", "B0812", designation="HQC1"),
                            u("p1", "us-m1-platoon", "us", "B0812", designation="1C1"),
                            u("su", "su-t80-platoon", "soviet", "B1813", spotted=True)], "us-move-2")
    ops = [dict(p) for p in state.ops]
    goal = game.map.hex("B1713")
    for _ in range(2):
        before = coords.distance(state._by_id("p1").hex, goal)
        pick = choose(game, state, 1)
        assert pick.startswith("stack hq "), pick
        state.play(pick)
        while state.current_player() == 0:                   # the enemy's opportunity-fire decision
            state.play("end")
        hq, p1 = state._by_id("hq"), state._by_id("p1")
        assert hq.hex == p1.hex and coords.distance(p1.hex, goal) == before - 1
    assert state.ops == ops                                  # free: an HQ moves with the stack (4.D.1)


def test_a_soviet_company_moves_by_battle_drill_for_one_order(games):
    """Assault 4.D.2: three T-80 platoons of company A1 in combat formation, a spotted enemy near: one drill
    order (1 OP seen, 2 not) moves all three a hex toward the objectives instead of three orders."""
    game = games["assault-meeting"]
    tanks = [u(f"t{i}", "su-t80-platoon", "soviet", h, designation="A1")
             for i, h in enumerate(("B2011", "B2012", "B2013"))]
    state = state_of(game, tanks + [u("us", "us-m1-platoon", "us", "B0812", spotted=True)], "soviet-move-2",
                     {"ops": {"soviet": {"default": 2}}})
    goal = game.map.hex("B1713")
    before = {c.id: coords.distance(c.hex, goal) for c in state.counters if c.side == 0}
    pick = choose(game, state, 0)
    assert pick.startswith("drill A1 "), pick
    state.play(pick)
    while state.current_player() == 1:
        state.play("end")
    after = {c.id: coords.distance(c.hex, goal) for c in state.counters if c.side == 0}
    assert all(after[k] < before[k] for k in before)
    assert state.ops[0]["default"] >= 0 and 2 - state.ops[0]["default"] <= 2    # one order for the three


def test_a_found_dummy_returns_with_the_unit_nearest_the_enemy(games):
    """Assault 10.F: with a dummy in the pool, the bot's first order of its movement phase returns it with the
    unspotted unit nearest the spotted enemy (not with the spotted one), and never a second time that phase."""
    game = games["assault-meeting"]
    state = state_of(game, [u("rear", "us-m1-platoon", "us", "B0312"),
                            u("front", "us-m1-platoon", "us", "B0812"),
                            u("seen", "us-m1-platoon", "us", "B1012", spotted=True),
                            u("su", "su-t80-platoon", "soviet", "B1813", spotted=True)], "us-move-2")
    state.dummy_pool[1] = 2
    bot = make_bot("heuristic", game, 1, 0)
    pick = bot.choose(state.observation(1), state.legal_actions())
    assert pick == "dummy front"
    state.play(pick)
    dummy = state.counters[-1]
    assert dummy.dummy and dummy.hex == state._by_id("front").hex
    second = bot.choose(state.observation(1), state.legal_actions())
    assert second.startswith("dummy ")                        # the pool still holds one: it returns too
    state.play(second)
    third = bot.choose(state.observation(1), state.legal_actions())
    assert not third.startswith("dummy ")


def test_dummies_screen_and_take_no_objective(games):
    """Assault 10.F: a dummy counts for no objective (victory), so the real unit listed after it still heads
    for the first objective hex; the dummy heads for the nearest spotted enemy and stops four hexes short."""
    game = games["assault-meeting"]
    state = state_of(game, [u("d", "us-m1-platoon", "us", "B1412", dummy=True),
                            u("m1", "us-m1-platoon", "us", "B0312"),
                            u("su", "su-t80-platoon", "soviet", "B1813", spotted=True)], "us-move-2")
    bot = make_bot("heuristic", game, 1, 0)
    view = state.observation(1)
    bot.choose(view, state.legal_actions())
    assert bot._goal(view, view._by_id("m1")) == bot.objectives[0]
    assert bot._goal(view, view._by_id("d")) is None                        # 4 hexes from the T-80s
    far = state_of(game, [u("d", "us-m1-platoon", "us", "B0812", dummy=True),
                          u("su", "su-t80-platoon", "soviet", "B1813", spotted=True)], "us-move-2")
    view = far.observation(1)
    bot.choose(view, far.legal_actions())
    assert bot._goal(view, view._by_id("d")) == game.map.hex("B1813")


def test_units_on_their_goal_entrench(games):
    """Assault 18: U.S. infantry on Altdorf's entrenchment hex A1111 (one of its objective hexes), nothing in
    range to fire at: the bot digs in rather than only taking cover."""
    game = games["assault-probe"]
    state = state_of(game, [u("inf", "us-mech-infantry-platoon", "us", "A1111"),
                            u("su", "su-t80-platoon", "soviet", "B2220")], "us-move-2")
    bot = make_bot("heuristic", game, 1, 0)
    view = state.observation(1)
    bot.choose(view, state.legal_actions())
    assert bot._goal(view, view._by_id("inf")) is None                     # A1111 is its objective hex
    assert "entrench inf" in state.legal_actions() and "cover inf" in state.legal_actions()
    assert bot.choose(view, state.legal_actions()) == "entrench inf"


def test_a_tank_that_has_moved_turns_its_front_to_the_enemy(games):
    """Assault 7.F, 13.B.2: an M-1 platoon entering Neustadt (its goal) from B1613 faces south-east, its flank
    to T-80s north of it; it spends 1 MP to face them."""
    game = games["assault-meeting"]
    state = state_of(game, [u("m1", "us-m1-platoon", "us", "B1613"),
                            u("su", "su-t80-platoon", "soviet", "B1709", spotted=True)], "us-move-2")
    state.play("move m1 B1713")
    m1, su = state._by_id("m1"), state._by_id("su")
    assert not state._front(m1, su)
    pick = choose(game, state, 1)
    assert pick.startswith("face m1 ")
    state.play(pick)
    assert state._front(state._by_id("m1"), su)


def test_a_mission_on_its_own_units_is_cancelled(games):
    """Assault 19.B.4, 19.C: the M-109s were plotted on A1011 in turn 1; the observer has since moved into that
    hex, so at the next artillery phase the bot cancels the mission (it would attack everyone in the hex)."""
    game = games["assault-probe"]
    doc = {"kind": "position", "schema_version": 1, "scenario": game.scenario_id, "phase": "artillery",
           "to_act": "us", "units": [u("obs", "us-m1-platoon", "us", "A1010", formation="march"),
                                     u("su", "su-t80-platoon", "soviet", "B2220")]}
    state = game.state_from_position(Position.model_validate(doc))
    state.play("plot m109-div/1 A1011 HE")
    bot = make_bot("heuristic", game, 1, 0)
    while not (state.turn == 2 and state.phase_id() == "artillery" and state.current_player() == 1):
        legal = state.legal_actions()
        state.play("move obs A1011" if "move obs A1011" in legal else "end")
    assert state._by_id("obs").hex == game.map.hex("A1011")
    assert bot.choose(state.observation(1), state.legal_actions()) == "cancel m109-div/1"
    state.play("cancel m109-div/1")
    assert not any(m.firer == "m109-div/1" for m in state.missions)


def test_a_supporting_unit_takes_an_objective_hex_nobody_holds(games):
    """Assault 24.E: Altdorf counts only if every objective hex is held. The eight Soviet holders are slow
    infantry far behind; a T-80 platoon two hexes from the empty A1111 goes in instead of waiting three hexes
    short of its own objective hex."""
    game = games["assault-probe"]
    holders = [u(f"mr{i}", "su-motor-rifle-platoon", "soviet", f"B{20 + i // 4:02d}{10 + i % 4:02d}")
               for i in range(8)]
    state = state_of(game, holders + [u("t80", "su-t80-platoon", "soviet", "A1311", formation="march"),
                                      u("us", "us-m1-platoon", "us", "A0101")], "soviet-move-2")
    bot = make_bot("heuristic", game, 0, 0)
    view = state.observation(0)
    bot.choose(view, state.legal_actions())
    t80 = view._by_id("t80")
    goal = bot._goal(view, t80)
    assert goal in bot.objectives and coords.distance(t80.hex, goal) <= 2
    for _ in range(40):                                      # the bot's whole phase
        if state.phase_id() != "soviet-move-2" or state.current_player() != 0:
            break
        state.play(bot.choose(state.observation(0), state.legal_actions()))
    assert state._by_id("t80").hex in bot.objectives
