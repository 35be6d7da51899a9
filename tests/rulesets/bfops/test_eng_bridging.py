"""Bridging units (BfOps p.19, digest c.19, B106/B107) through positions, legal actions and play: laying and
lifting, deploy times, capacity (option ``bridge-limit``, A17), AVLBs at Cruise, free orders, and bridges the
planner and the exact movement both honour (streams too deep to ford, trenches)."""
from __future__ import annotations

import pytest

from studio.rulesets.bfops.engine.state import Double, Order, Pass

from .conftest import unit

VILLAGE = "bfops-village-defence"
FAR = unit("z", "wp-t62", "warpac", 69, 47, 180)          # hidden behind the ridge: keeps the game going
NATO_FAR = unit("y", "nato-chieftain", "nato", 60, 46, 180)
# the Mill stream runs (48, 25) - (60, 24), 1" wide and 1" deep: at x = 56 its centre line is at y = 24.33
AVLB_EDGE = (56.0, 23.2)                                  # the AVLB's front 0.17" from the south bank
DECK = {"unit": "a", "from": [56.0, 23.2], "to": [56.188, 25.451], "gap": "stream"}


def _move(state):
    """Both sides pass the command step of this Turn: its Move Phase runs (and the Turn may end)."""
    turn = state.turn
    while state.phase == "command" and state.turn == turn and state.legal_actions():
        state.play(Pass())
    return state


def _test_bed(state, uid: str, new: str, **changes):
    """Unit ``uid`` of a loaded position becomes a test-bed card: its sample card with changed values under a new
    id (the game keeps every card; positions only place the project's cards). Returns the state."""
    game = state.game
    u = state.unit(uid)
    if new not in game.cards:
        game.cards[new] = game.cards[u.card].model_copy(update=changes)
    u.card = new
    state.legal_cache, state.sights = None, {}
    return state


@pytest.fixture
def position_ext(games):
    """``position`` with an ``extension`` (the works of a position)."""
    from studio.rules.position import load_position

    from .conftest import DATA, MEETING

    def make(units, phase="fire", turn=1, to_act="nato", dice=(), options=None, scenario=MEETING, extension=None):
        doc = {"kind": "position", "schema_version": 1, "scenario": scenario, "turn": turn, "phase": phase,
               "to_act": to_act, "units": units, "dice": list(dice), "options": options or {}}
        if extension is not None:
            doc["extension"] = extension
        return load_position(doc, DATA, games=games).state

    return make


# ------------------------------------------------------------------ laying and lifting

@pytest.mark.parametrize("card, side, phases", [("wp-tmm", "warpac", 2),          # truck-mounted: 2 Move Phases
                                                ("wp-mtu20", "warpac", 2),        # WARPAC AVLB: 2 Move Phases
                                                ("nato-m60-avlb", "nato", 1)])    # NATO AVLB: 1 full Turn
def test_b106_b107_deploy_times_at_the_obstacle_edge(position, card, side, phases):
    """B106/B107: a bridging unit at the stream's edge is offered ``bridge U`` (no Command Card: the side keeps
    its card); the bridge is down after 2 Move Phases (truck, WARPAC AVLB) or 1 full Turn (NATO AVLB: the Turn's
    one Move Phase), spanning from the unit's spot to its mirror across the centre line."""
    s = position([unit("a", card, side, *AVLB_EDGE, 0, element="br"),
                  NATO_FAR if side == "warpac" else FAR], phase="command", to_act=side)
    acts = s.legal_actions()
    assert s.game.parse_action("bridge a") in acts
    hand = list(s.hand)
    s.play(s.game.parse_action("bridge a"))
    assert s.hand == hand and s.work == {"bridge:a:stream": 0}
    assert s.game.parse_action("bridge a") not in s.legal_actions()              # already at it
    for _ in range(phases - 1):
        _move(s)
        assert not s.bridges
    _move(s)
    b = s.bridges["a"]
    assert (b.x0, b.y0) == AVLB_EDGE and abs(b.x1 - 56.19) < 0.02 and abs(b.y1 - 25.45) < 0.02
    assert not s.work


def test_bridge_only_at_a_gap_edge_and_within_the_span(position):
    """No ``bridge U`` 2" from the bank, nor with a card span shorter than the gap; a laid bridge is lifted from
    its end in the same time, and moving off drops the task."""
    away = position([unit("a", "wp-tmm", "warpac", 56, 21.2, 0), NATO_FAR], phase="command", to_act="warpac")
    assert not [a for a in away.legal_actions() if str(a).startswith("bridge")]
    caps = away.game.cards["wp-tmm"].capabilities
    s = _test_bed(position([unit("a", "wp-tmm", "warpac", *AVLB_EDGE, 0), NATO_FAR], phase="command",
                           to_act="warpac"), "a", "tb-short-span",
                  capabilities=caps.model_copy(update={"bridging": caps.bridging.model_copy(update={"span_in": 2.0})}))
    assert not [a for a in s.legal_actions() if str(a).startswith("bridge")]        # the gap is 2.27"


def test_lift_takes_the_deploy_time_and_moving_drops_the_task(position_ext):
    s = position_ext([unit("a", "wp-tmm", "warpac", *AVLB_EDGE, 0, element="br"), NATO_FAR], phase="command",
                     to_act="warpac", extension={"engineering": {"bridges": [DECK]}})
    assert s.game.parse_action("lift a") in s.legal_actions()
    assert s.game.parse_action("bridge a") not in s.legal_actions()
    s.play(s.game.parse_action("lift a"))
    _move(s)
    assert "a" in s.bridges
    _move(s)
    assert not s.bridges
    t = position_ext([unit("a", "wp-tmm", "warpac", *AVLB_EDGE, 0, element="br"), NATO_FAR], phase="command",
                     to_act="warpac")
    t.play(t.game.parse_action("bridge a"))
    t.play(Order("br", "to-ford"))                       # free: bridging units need no Command Card (p.19)
    assert t.hand == [1, 1]
    _move(t)
    assert not t.work and not t.bridges


def test_avlb_moves_at_most_at_cruise_no_double_time(position):
    """B107: AVLBs may move only up to Cruise: no ``double`` for their element; a tank element may."""
    s = position([unit("a", "nato-m60-avlb", "nato", 40, 5, 0, element="br", order="to-ford"),
                  unit("t", "nato-m60a1", "nato", 44, 5, 0, element="tk", order="to-ford"), FAR],
                 phase="command", turn=2)
    acts = s.legal_actions()
    assert Double("tk") in acts and Double("br") not in acts


# ------------------------------------------------------------------ crossing

def test_b107_a_laid_bridge_carries_a_tank_across_the_stream_the_planner_and_the_path_agree(position_ext):
    """An M60A1 (48 t, fords 0.4") south of the 1"-deep stream bound for the ridge: without a bridge it heads
    west for the ford and never wades the deep water; over the NATO AVLB's bridge (70 t) it crosses there, at
    full Cruise (no fording cap on the bridge)."""
    tank = unit("m", "nato-m60a1", "nato", 56, 19, 0, order="to-ridge", element="t")
    plain = _move(position_ext([tank, FAR], phase="command"))
    assert plain.unit("m").y < 23.8 and plain.unit("m").x < 56
    over = _move(position_ext([unit("a", "nato-m60-avlb", "nato", *AVLB_EDGE, 0, element="br"), tank, FAR],
                              phase="command", extension={"engineering": {"bridges": [DECK]}}))
    m = over.unit("m")
    assert m.y > 25.0 and m.x > 57.0                      # across and on beyond the deck's end (56.19, 25.45):
    #                                                       the 8" of Cruise, where the cross-country 6" ends on it


@pytest.mark.parametrize("weight, crosses", [(15.0, True), (16.0, False)])
def test_b106_truck_bridge_carries_up_to_fifteen_tons(position_ext, weight, crosses):
    """B106: "only vehicles up to that weight": a 15 t vehicle crosses the truck-mounted bridge, 16 t not
    (test-bed M113s with a 0.4" fording depth)."""
    s = position_ext([unit("a", "wp-tmm", "warpac", *AVLB_EDGE, 0, element="br"),
                      unit("m", "nato-m113", "nato", 56, 19, 0, order="to-ridge", element="t")], phase="command",
                     extension={"engineering": {"bridges": [DECK]}})
    s = _move(_test_bed(s, "m", f"tb-m113-{weight:g}t", weight_tons=weight, fording_depth_in=0.4))
    assert (s.unit("m").y > 25.0) is crosses


@pytest.mark.parametrize("limit, crosses", [("as-worded", False), ("up-to", True)])
def test_b107_avlb_carries_vehicles_under_its_rating_option_bridge_limit(position_ext, limit, crosses):
    """A17: a 50 t vehicle on a WARPAC AVLB (50 t, "vehicles under the corresponding weight"): not carried as
    worded, carried with ``bridge-limit: up-to``."""
    s = position_ext([unit("a", "wp-mtu20", "warpac", *AVLB_EDGE, 0, element="br"),
                      unit("m", "nato-m113", "nato", 56, 19, 0, order="to-ridge", element="t")], phase="command",
                     options={"bridge-limit": limit}, extension={"engineering": {"bridges": [DECK]}})
    s = _move(_test_bed(s, "m", "tb-m113-50t", weight_tons=50.0, fording_depth_in=0.4))
    assert (s.unit("m").y > 25.0) is crosses


def test_a_bridge_over_a_trench_lets_wheeled_soft_vehicles_cross(position_ext):
    """Trenches "too wide to be traversed" (p.19): trucks may not cross the village's 1/4" trench. A NATO truck
    2.5" from the hidden ford minefield moves straight toward the village (compulsory movement, p.10) and stops
    short of the trench; over a truck-mounted bridge laid across its line it crosses freely."""
    truck = unit("t", "nato-engineer-truck", "nato", 44.6, 31.0, 0, order="to-village", element="tr")
    deck = {"unit": "a", "from": [44.05, 32.0], "to": [43.39, 33.2], "gap": "village-trench"}
    bridge = unit("a", "wp-tmm", "warpac", 44.05, 31.9, 0, element="br")
    plain = _move(position_ext([truck, bridge], phase="command", scenario=VILLAGE))
    assert plain.unit("t").y < 32.4 and not any("passes trench" in e for e in plain.events)
    over = _move(position_ext([truck, bridge], phase="command", scenario=VILLAGE,
                              extension={"engineering": {"bridges": [deck]}}))
    assert any("t passes trench village-trench" in e for e in over.events)
    assert over.unit("t").y > 33.0


@pytest.mark.parametrize("engineering", [{"bridges": [{"unit": "zz", "from": [1, 1], "to": [2, 2], "gap": "stream"}]},
                                         {"bridges": [{"unit": "y", "from": [1, 1], "to": [2, 2], "gap": "stream"}]},
                                         {"bridges": [{"unit": "a"}]}, {"breaches": {"wall": [[1]]}},
                                         {"filled": {"village-trench": "x"}}, {"charges": {"a": "many"}},
                                         {"ramps": []}, []])
def test_malformed_position_works_are_refused_with_a_diagnostic(position_ext, engineering):
    """Bad input: a position's extension.engineering that names no bridging unit of the position, misses a field
    or has wrong types is a PositionError at /extension/engineering, never a traceback."""
    from studio.rules.position import PositionError

    with pytest.raises(PositionError) as err:
        position_ext([unit("a", "wp-tmm", "warpac", *AVLB_EDGE, 0), NATO_FAR], phase="command",
                     extension={"engineering": engineering})
    assert "engineering" in str(err.value)


def test_a_heavy_vehicle_following_in_column_stops_at_the_water_the_bridge_cannot_carry(position_ext):
    """The exact path honours the bridge's limit too: a 48 t M60A1 starting within 1/2" of a 15 t element-mate
    follows its track (column, p.11), but the truck-mounted bridge (15 t) does not carry it: it stops short of
    the deep water while the light vehicle crosses."""
    s = position_ext([unit("a", "wp-tmm", "warpac", *AVLB_EDGE, 0, element="br"),
                      unit("l", "nato-m113", "nato", 56, 19, 0, order="to-ridge", element="t"),
                      unit("h", "nato-m60a1", "nato", 56, 18.2, 0, order="to-ridge", element="t")], phase="command",
                     extension={"engineering": {"bridges": [DECK]}})
    s = _move(_test_bed(s, "l", "tb-m113-15t", weight_tons=15.0, fording_depth_in=0.4))
    assert s.unit("l").y > 25.0
    assert s.unit("h").y < 23.9 and any("h stops at water deeper than it may ford" in e for e in s.events)


def test_a_bridge_is_offered_at_a_trench_edge_and_spans_it(position):
    """Trenches too wide to be traversed are gaps too (p.19): a truck bridge 0.15" south of the village trench is
    offered ``bridge U``; laid, it spans to the mirror point north of the trench (1/4" wide, centre y = 32.6)."""
    s = position([unit("a", "wp-tmm", "warpac", 45.0, 31.95, 0, element="br"),
                  unit("c", "nato-chieftain", "nato", 60, 46, 180)], phase="command", scenario=VILLAGE,
                 to_act="warpac")
    s.play(s.game.parse_action("bridge a"))
    assert s.work == {"bridge:a:village-trench": 0}
    _move(s)
    _move(s)
    b = s.bridges["a"]
    assert b.gap == "village-trench" and abs(b.y1 - 33.25) < 1e-6 and abs(b.x1 - 45.0) < 1e-6


def test_a_bridge_laid_by_an_unseen_enemy_is_still_a_crossing_in_the_observation(position_ext):
    """The bridge is on the table for both sides: NATO's observation leaves out the unspotted WARPAC truck that
    laid it, yet its M113 (12 t) may plan across it (the bridge keeps its own rating)."""
    from studio.rulesets.bfops.engine import bridging as BR
    from studio.rulesets.bfops.engine import crossings as CR

    s = position_ext([unit("a", "wp-tmm", "warpac", *AVLB_EDGE, 0, element="br"),
                      unit("m", "nato-m113", "nato", 56, 19, 0, order="to-ridge", element="t")], phase="command",
                     extension={"engineering": {"bridges": [DECK]}})
    view = s.observation(0)
    assert "a" not in {u.id for u in view.units} and "a" in view.bridges
    card = view.game.card_of(view.unit("m"))
    assert len(BR.usable(view, card)) == 1 and CR.nav_for(view, card).snaps
