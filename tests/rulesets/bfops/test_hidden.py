"""Hidden information (digest d.28, BfOps 5.3, p.7, p.14, p.16) and units on the sight line (BfOps 14.0, p.21),
through the public API: observations, legal actions, play."""
from __future__ import annotations

import random

from studio.rulesets.bfops.bots import HeuristicBot
from studio.rulesets.bfops.engine import fire as F
from studio.rulesets.bfops.engine.state import Fire

from .conftest import unit


def _ids(geometry):
    return {a.id for a in geometry.areas}


def test_observation_leaves_out_features_hidden_from_the_side(position):
    """The ford minefield is hidden from NATO (d.28): NATO's observation has no such area, WARPAC's has."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 10), unit("b", "wp-t62", "warpac", 30, 30, 180)])
    assert "ford-mines" in _ids(s.game.geometry)
    assert "ford-mines" not in _ids(s.observation(0).game.geometry)
    assert "ford-mines" in _ids(s.observation(1).game.geometry)
    assert all("nato" not in f.hidden_from for f in s.observation(0).game.table.features)
    assert "ford-mines" in _ids(s.game.geometry)                # the real game keeps it


def test_unspotted_enemy_units_are_not_observed(position):
    s = position([unit("a", "nato-m60a1", "nato", 30, 10, spotted=True),
                  unit("b", "wp-t62", "warpac", 30, 30, 180, spotted=True),
                  unit("c", "wp-t62", "warpac", 60, 45, 180)])            # c: not spotted by NATO
    view = s.observation(0)
    assert {u.id for u in view.units} == {"a", "b"}
    assert view.unseen == [0, 1]                                # counted, so the view is not a NATO win
    assert not view.is_terminal()
    assert {u.id for u in s.observation(1).units} == {"a", "b", "c"}   # WARPAC sees its own unit c


def test_enemy_orders_and_simultaneous_declarations_are_hidden(position):
    """Commands are secret (p.16); fire within a priority is simultaneous (p.7): WARPAC does not see NATO's
    declared shot, nor that the NATO unit has fired, until the priority resolves."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 10, 0, spotted=True, order="advance", element="tanks"),
                  unit("b", "wp-t62", "warpac", 30, 30, 180, spotted=True, order="cover", element="reds")])
    s.play(Fire("a", "b", 0, "AP"))
    assert s.player == 1 and s.declared
    view = s.observation(1)
    assert view.declared == [] and not view.unit("a").fired and "a" not in view.decided
    assert "tanks" not in view.orders and view.orders.get("reds") == "cover"
    assert s.observation(0).declared == s.declared               # NATO knows its own declaration


def test_heuristic_bot_reads_only_what_it_may_know(position):
    """Scrambling what a side may not know (hidden units moved, enemy orders and declarations changed, dice)
    changes neither its observation nor the heuristic bot's choice, over the states of a random playout."""
    from tests.rulesets.bfops.conftest import DATA, MEETING
    from studio.rules.load import load_game

    game = load_game(DATA / "scenarios" / "bfops" / f"{MEETING}.yaml", DATA).game
    state, rng = game.new_initial_state(4), random.Random(4)
    checked = 0
    for step in range(400):
        if state.is_terminal():
            break
        p, legal = state.current_player(), state.legal_actions()
        if step % 3 == 0:
            bot = HeuristicBot(game, p, 1)
            want = bot.choose(state.observation(p), legal)
            for seed in (1, 2):
                other = state.scramble_hidden(p, seed)
                assert other.observation(p).fingerprint() == state.observation(p).fingerprint()
                assert HeuristicBot(game, p, 1).choose(other.observation(p), legal) == want
            checked += 1
        state.apply(rng.choice(legal))
    assert checked >= 20


# ------------------------------------------------------------------ units on the sight line (c.21)

def test_unit_within_a_quarter_inch_of_the_firer_is_fired_over(position):
    """p.21: an M113 within 1/4" behind an M60A1 fires over it: no screen, the target is not Defilade by it."""
    s = position([unit("m", "nato-m113", "nato", 30, 9.0, 0, spotted=True),
                  unit("t", "nato-m60a1", "nato", 30, 10.0, 0, spotted=True),    # its rear 0.1" ahead
                  unit("b", "wp-bmp1", "warpac", 30, 25, 180, spotted=True)])
    m, t, b = s.unit("m"), s.unit("t"), s.unit("b")
    foot = s.game.footprint
    assert foot(m).distance(foot(t)) <= 0.25
    sg = s.sight(m, b)
    assert sg.unit_cover is None and sg.friendly_screen is None
    t.y = 11.5                                                  # now 1.6" ahead: an Obstruction
    s.sights = {}
    sg = s.sight(m, b)
    assert sg.unit_cover == "t" and sg.friendly_screen == "t"


def test_friendly_unit_between_gives_mutual_defilade_and_is_struck_on_a_10(position):
    """p.21: a friendly tank more than 1/4" from both the firer and the target is an Obstruction: the target is
    Defilade (-3 to hit, placeholder), and a to-hit roll of 10 strikes the friendly tank."""
    units = [unit("m", "nato-m60a1", "nato", 30, 8, 0, spotted=True),
             unit("t", "nato-m60a1", "nato", 30, 16, 0, spotted=True),
             unit("b", "wp-t62", "warpac", 30, 28, 180, spotted=True)]
    s = position(units, dice=[10, 1])
    m, b = s.unit("m"), s.unit("b")
    sg = s.sight(m, b)
    assert sg.unit_cover == "t" and sg.friendly_screen == "t"
    assert F.defilade(s.game, b, sg)
    clear = position([units[0], units[2]])
    w = clear.game.card_of(clear.unit("m")).weapons[0]
    assert F.hit_number(s.game, m, b, w, sg) == F.hit_number(clear.game, clear.unit("m"), clear.unit("b"), w,
                                                             clear.sight(clear.unit("m"), clear.unit("b"))) + \
        s.game.tables.hit_mod["defilade"]
    s.play(Fire("m", "b", 0, "AP"))
    s.play(Fire("b", "m", 0, "AP")) if any(isinstance(a, Fire) and a.unit == "b" for a in s.legal_actions()) \
        else None
    while s.phase == "fire" and s.priority == 0 and s.legal_actions():
        s.play(next(a for a in s.legal_actions() if not isinstance(a, Fire)))
    assert s.unit("t").disabled and not s.unit("b").disabled       # roll 10 struck the friendly tank (disable 1)
    assert any("friendly cover t" in e for e in s.events)


def test_enemy_unit_beside_the_target_covers_it_and_a_low_unit_is_seen_over(position):
    """A unit within 1/4" of the target on the line is its cover (Defilade, p.21); a squad 0.15" high between
    two tanks is below the line from a 0.35" gun to the middle (0.2") of a 0.4" hull: no screen."""
    s = position([unit("a", "nato-m60a1", "nato", 30, 8, 0, spotted=True),
                  unit("c", "wp-btr60", "warpac", 30, 26.9, 180, spotted=True),
                  unit("b", "wp-t62", "warpac", 30, 28, 180, spotted=True)])
    sg = s.sight(s.unit("a"), s.unit("b"))
    assert sg.unit_cover == "c" and sg.friendly_screen is None
    low = position([unit("a", "nato-m60a1", "nato", 30, 8, 0, spotted=True),
                    unit("q", "nato-us-rifle-squad", "nato", 30, 18, 0),
                    unit("b", "wp-t62", "warpac", 30, 28, 180, spotted=True)])
    sg = low.sight(low.unit("a"), low.unit("b"))
    assert sg.unit_cover is None and sg.friendly_screen is None


def test_narration_only_while_recording_and_never_in_observations(position):
    """COMMON narration contract: events are written only while dice.record (positions record; new games from
    the set-up, as batch play uses them, do not), copied by clone, and observations carry none."""
    from tests.rulesets.bfops.conftest import DATA, MEETING
    from studio.rules.load import load_game

    s = position([unit("a", "nato-m60a1", "nato", 30, 10, 0, spotted=True),
                  unit("b", "wp-t62", "warpac", 30, 30, 180, spotted=True)], dice=[1, 1])
    s.play(Fire("a", "b", 0, "AP"))
    while s.turn == 1 and s.phase == "fire" and s.legal_actions():
        s.play(next(x for x in s.legal_actions() if str(x).startswith("hold")))
    assert any("a fires 105mm AP at b" in e for e in s.events)
    assert s.clone().events == s.events and s.observation(0).events == []
    game = load_game(DATA / "scenarios" / "bfops" / f"{MEETING}.yaml", DATA).game
    batch, rng = game.new_initial_state(3), random.Random(3)
    for _ in range(150):
        if batch.is_terminal():
            break
        batch.apply(rng.choice(batch.legal_actions()))
    assert not batch.dice.record and batch.events == [] and batch.dice.history == []


def test_tasks_of_unspotted_enemy_units_are_not_in_the_observation(position):
    """An unspotted enemy engineer's minefield clearing (its Move Phases at the work, p.20) is not in the
    observation; its own side sees it."""
    from studio.rulesets.bfops.engine.state import Pass

    from .conftest import unit as u

    s = position([u("e", "nato-eod-team", "nato", 46, 27.1, 0, element="eng"),
                  u("t", "wp-t62", "warpac", 69, 47, 180)], phase="command")
    s.mines_known[0].add("ford-mines")
    turn = s.turn
    while s.phase == "command" and s.turn == turn:
        s.play(Pass())
    assert "clear:e:ford-mines" in s.work, s.work
    hidden = s.observation(1)
    assert "e" not in {v.id for v in hidden.units} and not hidden.work
    assert s.observation(0).work == s.work
